"""Flowable.window(openings=, closing_selector=): windows opened and closed by Publishers.

Each item of ``openings`` opens a window (an unbounded :class:`UnicastProcessor`, emitted
under the downstream's demand) that ``closing_selector(o)`` closes; a source item goes to
every open window. As RxJava 3's ``FlowableWindowBoundarySelector``: RxJava 2.2.21's hangs
or leaks on errors and completions (``docs/rxjava-differences.md``). Every signal is
handled by the owner of one :class:`Drain`; nothing is signalled under a lock.

The rules: docs/flattening.md, "Inside window(openings, closing_selector)".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.helpers.upstream_ref_count import UpstreamRefCount
from rxpy2._internal.operators.flowable.flowable_window_boundary import ClosingSubscriber
from rxpy2._internal.operators.flowable.flowable_window_boundary import OpeningSubscriber
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2.disposables import CompositeDisposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicThrowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_subscription
from rxpy2.operator_kit import subscribe_tail
from rxpy2.operator_kit import validate_request
from rxpy2.processors.unicast_processor import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableWindowBoundarySelector"]

T = TypeVar("T")


class _WindowStart:
    """An item of ``openings`` waiting in the queue."""

    __slots__ = ("token",)

    def __init__(self, token: Any) -> None:
        self.token = token


class FlowableWindowBoundarySelector(Flowable[Flowable[T]], HasUpstreamPublisher[T], Generic[T]):
    """``window(openings=, closing_selector=)``.

    Backpressure: ``openings`` is requested without bound; a window it opens
    without downstream demand signals ``MissingBackpressureException``."""

    __slots__ = ("source", "openings", "closing_selector", "capacity_hint")

    def __init__(self, source: Publisher[T], openings: Publisher[Any],
                 closing_selector: Callable[[Any], Publisher[Any]], buffer_size: int) -> None:
        self.source = source
        self.openings = openings
        self.closing_selector = closing_selector
        self.capacity_hint = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[Flowable[T]]) -> None:
        subscribe_tail(self.source, WindowSelectorMainSubscriber(
            subscriber, self.openings, self.closing_selector, self.capacity_hint))


class WindowSelectorMainSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    """``windows``: the open windows (the drain's); ``queue``: source items,
    :class:`_WindowStart` and the :class:`ClosingSubscriber` of a window to close;
    ``upstream_done``: the stream is to terminate (``errors`` says how);
    ``stopped``: terminated or released, the drain only discards."""

    __slots__ = ("downstream", "openings", "closing_selector", "buffer_size", "upstream",
                 "resources", "opener", "windows", "queue", "refs", "requested", "emitted",
                 "stopped", "upstream_done", "open_done", "errors", "gate")

    def __init__(self, downstream: Subscriber[Flowable[T]], openings: Publisher[Any],
                 closing_selector: Callable[[Any], Publisher[Any]], buffer_size: int) -> None:
        self.downstream = downstream
        self.openings = openings
        self.closing_selector = closing_selector
        self.buffer_size = buffer_size
        self.upstream: Subscription | None = None
        self.resources = CompositeDisposable()  # the closing Publishers' subscribers
        self.opener = OpeningSubscriber(self)
        self.windows: list[UnicastProcessor[T]] = []
        self.queue: MpscLinkedQueue[Any] = MpscLinkedQueue()
        self.refs = UpstreamRefCount()  # the outer + the open windows
        self.requested = AtomicLong()
        self.emitted = 0
        self.stopped = False
        self.upstream_done = False
        self.open_done = False
        self.errors = AtomicThrowable()
        self.gate = Drain()

    # ---- the source

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        if self.upstream is not None:
            s.cancel()  # §2.5
            SubscriptionHelper.report_subscription_set()
            return
        self.upstream = s
        self.downstream.on_subscribe(self)
        self.openings.subscribe(self.opener)
        s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.queue.offer(item)
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.opener.dispose()
        self.resources.dispose()
        if self.errors.try_add_throwable(error):
            self.upstream_done = True
            self.drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        self.opener.dispose()
        self.resources.dispose()
        self.upstream_done = True
        self.drain()

    # ---- the outer stream's Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)

    def cancel(self) -> None:
        # no more windows; the open ones keep receiving items
        if self.refs.cancel_outer():
            self.opener.dispose()
            self.window_done()

    def window_done(self) -> None:
        """The outer was cancelled, or a window terminated or was cancelled."""
        if self.refs.count.decrement_and_get() == 0:
            self._cancel_all()
            self.errors.try_terminate_and_report()
            self.stopped = True
            self.drain()

    def _cancel_all(self) -> None:
        up = self.upstream
        if up is not None:
            up.cancel()
        self.opener.dispose()
        self.resources.dispose()

    # ---- the boundaries

    def open(self, token: Any) -> None:
        self.queue.offer(_WindowStart(token))
        self.drain()

    def inner_error(self, error: BaseException) -> None:
        """``openings`` failed."""
        self.boundary_error(self.opener, error)

    def inner_complete(self) -> None:
        """``openings`` completed: no new windows."""
        self.open_done = True
        self.drain()

    def close(self, closer: ClosingSubscriber, window: UnicastProcessor[T]) -> None:
        self.queue.offer(closer)
        self.drain()

    def boundary_error(self, subscriber: Any, error: BaseException) -> None:
        self._cancel_all()
        if self.errors.try_add_throwable(error):
            self.upstream_done = True
            self.drain()
        else:
            plugins.on_error(error)

    def _fail(self, error: BaseException) -> None:
        """In the drain: cancel everything, terminate with ``error`` on the next pass."""
        self._cancel_all()
        if not self.errors.try_add_throwable(error):
            plugins.on_error(error)
        self.upstream_done = True

    # ---- drain

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        ws = self.windows
        while True:
            while True:
                if self.stopped:
                    q.clear()
                    ws.clear()
                    break
                d = self.upstream_done
                o = q.poll()
                if d and (o is None or self.errors.get() is not None):
                    self._terminate()
                    continue
                if o is None:
                    if self.open_done and not ws:
                        self._cancel_all()
                        self._terminate()
                        continue
                    break
                t = type(o)
                if t is _WindowStart:
                    self._open_window(o.token)
                elif t is ClosingSubscriber:
                    w = o.key
                    self.resources.delete(o)
                    for i, x in enumerate(ws):
                        if x is w:
                            del ws[i]
                            w.on_complete()
                            break
                else:
                    for w in ws:
                        w.on_next(o)
            if not gate.leave():
                return

    def _open_window(self, token: Any) -> None:
        refs = self.refs
        if refs.outer_cancelled.get():
            return
        if self.requested.get() == self.emitted:
            self._fail(MissingBackpressureException.lack_of_requests(
                "window", "a window", "the openings Publisher"))
            return
        self.emitted += 1
        try:
            p = self.closing_selector(token)
            if p is None:
                raise returned_none("window", self.closing_selector, "closing selector")
        except Exception as ex:
            self._fail(ex)
            return
        if not refs.acquire():
            return
        w: UnicastProcessor[T] = UnicastProcessor(self.buffer_size, self.window_done)
        closer = ClosingSubscriber(self, w)
        self.downstream.on_next(w)
        self.windows.append(w)
        if self.resources.add(closer):
            p.subscribe(closer)

    def _terminate(self) -> None:
        """The drain's: the terminal signal to the open windows and the outer."""
        self.stopped = True
        ex = self.errors.terminate()
        ws = list(self.windows)
        self.windows.clear()
        outer_cancelled = self.refs.outer_cancelled
        # the windows first: a consumer that fails on a window's error cancels the outer
        if ex is None:
            for w in ws:
                w.on_complete()
            if not outer_cancelled.get():
                self.downstream.on_complete()
        elif ex is not TERMINATED:
            for w in ws:
                w.on_error(ex)
            if not outer_cancelled.get():
                self.downstream.on_error(ex)
