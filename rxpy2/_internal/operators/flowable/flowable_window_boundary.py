"""Flowable.window(boundary): a new window at each item of the ``boundary`` Publisher.

The first window opens at subscription; each boundary item closes the current
window and opens the next. The boundary's completion completes the window and
the outer stream (and cancels the source); its error, or the source's, goes to
the window and the outer (and cancels the other side). Source and boundary are
both requested without bound; their signals meet in one queue and a drain loop.
A window is emitted only under the downstream's demand: a window that finds none
fails the stream with ``MissingBackpressureException``. Each window is an
unbounded :class:`UnicastProcessor`. Cancelling the outer stream stops the
boundary and new windows but keeps the open window running (a terminal signal
then goes to it only); the source is cancelled once the outer and the open
window are done with (``refs``: an
:class:`~rxpy2._internal.helpers.upstream_ref_count.UpstreamRefCount`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import Protocol
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.sentinel import Sentinel
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.helpers.upstream_ref_count import UpstreamRefCount
from rxpy2._internal.operators.flowable.flowable_timeout import IndicatorSubscriber
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2._internal.subscribers.operator_subscriber import InnerErrorOnce
from rxpy2.disposables import Disposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.processors.unicast_processor import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["BoundaryEndsStream", "BoundarySubscriber", "ClosingSubscriber", "FlowableWindowBoundary", "OneShotBoundarySubscriber",
           "OpeningSubscriber"]

T = TypeVar("T")


NEXT_WINDOW: Any = Sentinel("NEXT_WINDOW")


class FlowableWindowBoundary(Flowable[Flowable[T]], HasUpstreamPublisher[T], Generic[T]):
    """``window(boundary)``: the boundary opens windows.

    Backpressure: the boundary is requested without bound; it signals
    ``MissingBackpressureException`` when it opens a window the downstream has not
    requested."""

    __slots__ = ("source", "boundary", "capacity_hint")

    def __init__(self, source: Publisher[T], boundary: Publisher[Any], buffer_size: int) -> None:
        self.source = source
        self.boundary = boundary
        self.capacity_hint = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[Flowable[T]]) -> None:
        parent: WindowBoundaryMainSubscriber[T] = WindowBoundaryMainSubscriber(
            subscriber, self.capacity_hint)
        subscriber.on_subscribe(parent)
        parent.inner_next()  # the first window
        self.boundary.subscribe(parent.boundary_subscriber)
        subscribe_tail(self.source, parent)


class WindowBoundaryMainSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "buffer_size", "boundary_subscriber", "upstream", "refs",
                 "queue", "errors", "requested", "gate", "done", "window", "emitted")

    def __init__(self, downstream: Subscriber[Flowable[T]], buffer_size: int) -> None:
        self.downstream = downstream
        self.buffer_size = buffer_size
        self.boundary_subscriber = BoundarySubscriber(self)
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.refs = UpstreamRefCount()  # the outer + the open window
        self.queue: MpscLinkedQueue[Any] = MpscLinkedQueue()
        self.errors = AtomicThrowable()
        self.requested = AtomicLong()
        self.gate = Drain()
        self.done = False
        self.window: UnicastProcessor[T] | None = None
        self.emitted = 0

    # ---- the source

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.queue.offer(item)
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.dispose_boundary()
        if self.errors.try_add_throwable(error):
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        self.dispose_boundary()
        self.done = True
        self.drain()

    # ---- the boundary

    def inner_next(self) -> None:
        self.queue.offer(NEXT_WINDOW)
        self.drain()

    def inner_error(self, error: BaseException) -> None:
        SubscriptionHelper.cancel(self.upstream)
        if self.errors.try_add_throwable(error):
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)

    def inner_complete(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        self.done = True
        self.drain()

    # ---- the outer stream's Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)

    def cancel(self) -> None:
        # no more windows; the open one keeps receiving items
        if self.refs.cancel_outer():
            self.dispose_boundary()
            self.window_done()

    def window_done(self) -> None:
        """The outer was cancelled, or a window completed or was cancelled."""
        if self.refs.count.decrement_and_get() == 0:
            SubscriptionHelper.cancel(self.upstream)

    def dispose_boundary(self) -> None:
        self.boundary_subscriber.dispose()

    def open_boundary(self) -> bool:
        """In the drain, before a new window goes out: False to hold it back (the
        boundary of ``window(boundary_supplier)`` is made here)."""
        return True

    # ---- drain

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        a = self.downstream
        q = self.queue
        errors = self.errors
        refs = self.refs
        windows = refs.count
        outer_cancelled = refs.outer_cancelled
        while True:
            while True:
                if windows.get() == 0:  # the outer and the windows are gone
                    q.clear()
                    self.window = None
                    return
                w = self.window
                d = self.done
                if d and errors.get() is not None:
                    q.clear()
                    ex = errors.terminate()
                    self.window = None
                    if w is not None:
                        w.on_error(ex)  # type: ignore[arg-type]  # an error was recorded before this
                    if not outer_cancelled.get():
                        a.on_error(ex)  # type: ignore[arg-type]  # an error was recorded before this
                    return
                v = q.poll()
                if v is None:
                    if d:
                        self.window = None
                        if w is not None:
                            w.on_complete()
                        if not outer_cancelled.get():
                            a.on_complete()
                        return
                    break
                if v is not NEXT_WINDOW:
                    w.on_next(v)  # type: ignore[union-attr]  # a window is open while items flow
                    continue
                if w is not None:
                    self.window = None
                    w.on_complete()
                if not outer_cancelled.get() and refs.acquire():
                    w = self.window = UnicastProcessor(self.buffer_size, self.window_done)
                    if self.emitted != self.requested.get():
                        if not self.open_boundary():
                            continue
                        self.emitted += 1
                        a.on_next(w)
                    else:
                        SubscriptionHelper.cancel(self.upstream)
                        self.dispose_boundary()
                        errors.try_add_throwable(MissingBackpressureException.lack_of_requests(
                            "window", "a window", "the boundary Publisher"))
                        self.done = True
            if not gate.leave():
                return


class BoundaryParent(Protocol):
    """What a :class:`BoundarySubscriber` signals to (window, buffer and sample with a
    Publisher)."""

    def inner_next(self) -> None: ...

    def inner_error(self, error: BaseException) -> None: ...

    def inner_complete(self) -> None: ...


class BoundaryEndsStream:
    """For a subscriber whose boundary's terminal signal ends the stream as the source's
    would, after cancelling the source (``buffer``/``sample`` with a Publisher)."""

    __slots__ = ()

    upstream: Subscription

    if TYPE_CHECKING:  # the subscriber's own (not overridden: this class comes first)
        def on_error(self, error: BaseException) -> None: ...

        def on_complete(self) -> None: ...

    def inner_error(self, error: BaseException) -> None:
        self.upstream.cancel()
        self.on_error(error)

    def inner_complete(self) -> None:
        self.upstream.cancel()
        self.on_complete()


class BoundarySubscriber(InnerErrorOnce, FlowableSubscriber[Any], Disposable):
    """A boundary's subscriber: requests everything; each item calls the parent's
    ``inner_next`` (a new window, the current buffer out, a sample), its terminal
    signal ``inner_error``/``inner_complete`` (once)."""

    __slots__ = ("parent", "upstream", "done")

    def __init__(self, parent: Any) -> None:
        self.parent: BoundaryParent = parent
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.parent.inner_next()

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.parent.inner_complete()

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self.upstream)

    def is_disposed(self) -> bool:
        return SubscriptionHelper.is_cancelled(self.upstream.get())


class OpeningSubscriber(BoundarySubscriber):
    """The ``openings`` Publisher's subscriber of ``buffer``/``window`` with opening and
    closing selectors: each item goes to the parent's ``open(item)``; the terminal
    signals as :class:`BoundarySubscriber`'s."""

    __slots__ = ()

    def on_next(self, item: Any) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.parent.open(item)  # type: ignore[attr-defined]  # the parent of this boundary has it


class ClosingSubscriber(IndicatorSubscriber):
    """A closing Publisher's subscriber (``buffer``/``window`` with a closing selector):
    its first item or its completion calls ``parent.close(self, key)`` once, its error
    ``parent.boundary_error(self, error)``."""

    __slots__ = ("parent", "key")

    def __init__(self, parent: Any, key: Any) -> None:
        super().__init__()
        self.parent = parent
        self.key = key

    def fire(self) -> None:
        self.parent.close(self, self.key)

    def fire_error(self, error: BaseException) -> None:
        self.parent.boundary_error(self, error)


class OneShotBoundarySubscriber(BoundarySubscriber):
    """A supplied boundary's subscriber (``buffer``/``window`` with a boundary supplier):
    its first item cancels it and calls ``parent.boundary_next(self)`` (the parent
    then supplies the next boundary); the terminal signals as
    :class:`BoundarySubscriber`'s."""

    __slots__ = ()

    def on_next(self, item: Any) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.done = True
        self.dispose()
        self.parent.boundary_next(self)  # type: ignore[attr-defined]  # the parent of this boundary has it
