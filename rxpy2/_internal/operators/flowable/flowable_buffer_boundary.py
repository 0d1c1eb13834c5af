"""Flowable.buffer(openings=, closing_selector=): collections opened and closed by Publishers.

As RxJava's ``FlowableBufferBoundary``: each item of ``openings`` opens a new
collection (``buffer_factory``) and subscribes to ``closing_selector(item)``;
the first item or the completion of that Publisher closes the collection, which
then waits in a queue for the downstream's demand (the downstream's requests are
honoured: nothing fails for lack of demand, the queue is unbounded). An item of
the source goes into every open collection. The source and ``openings`` are
requested without bound.

* The source completes: the open collections are queued (oldest first), the
  boundaries cancelled, completion follows them.
* ``openings`` completes: no more collections open; once the open ones are closed
  (no boundary left) the source is cancelled and the stream completes.
* An error of the source, ``openings`` or a closing Publisher, or of
  ``closing_selector``/``buffer_factory``: the open and queued collections are
  dropped, everything cancelled, the error signalled.

The collections and the terminal signal go out from one :class:`Drain` loop;
the other signals only record state under a short lock and drain.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable._buffer_common import add_item
from rxpy2._internal.operators.flowable._buffer_common import new_buffer
from rxpy2._internal.operators.flowable.flowable_window_boundary import ClosingSubscriber
from rxpy2._internal.operators.flowable.flowable_window_boundary import OpeningSubscriber
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.disposables import CompositeDisposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import AtomicThrowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableBufferBoundary"]

T = TypeVar("T")

_OPERATOR = "buffer"


class FlowableBufferBoundary(Flowable[Any], HasUpstreamPublisher[T], Generic[T]):
    """``buffer(openings=, closing_selector=)``.

    Backpressure: the closed collections wait (unbounded) for the downstream's
    demand; the source and ``openings`` are requested without bound."""

    __slots__ = ("source", "openings", "closing_selector", "buffer_factory")

    def __init__(self, source: Publisher[T], openings: Publisher[Any],
                 closing_selector: Callable[[Any], Publisher[Any]],
                 buffer_factory: Callable[[], Any] = list) -> None:
        self.source = source
        self.openings = openings
        self.closing_selector = closing_selector
        self.buffer_factory = buffer_factory

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        parent: BufferBoundarySubscriber[T] = BufferBoundarySubscriber(
            subscriber, self.openings, self.closing_selector, self.buffer_factory)
        subscriber.on_subscribe(parent)
        subscribe_tail(self.source, parent)


class BufferBoundarySubscriber(DrainSubscriptionMixin, FlowableSubscriber[T], Subscription, Generic[T]):
    """``buffers``: the open collections by index, in opening order (None once the
    source terminated or the stream was cancelled); ``subscribers``: the openings'
    and the closing Publishers' subscribers."""

    __slots__ = ("downstream", "openings", "closing_selector", "factory", "subscribers",
                 "requested", "upstream", "errors", "done", "queue", "cancelled", "index",
                 "buffers", "emitted", "gate", "lock", "opener")

    def __init__(self, downstream: Subscriber[Any], openings: Publisher[Any],
                 closing_selector: Callable[[Any], Publisher[Any]],
                 factory: Callable[[], Any]) -> None:
        self.downstream = downstream
        self.openings = openings
        self.closing_selector = closing_selector
        self.factory = factory
        self.subscribers = CompositeDisposable()
        self.requested = AtomicLong()
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.errors = AtomicThrowable()
        self.done = False
        self.queue: deque[Any] = deque()
        self.cancelled = False
        self.index = 0
        self.buffers: dict[int, Any] | None = {}
        self.emitted = 0
        self.gate = Drain()
        self.lock = threading.Lock()  # guards buffers and queue; nothing is signalled under it
        self.opener = OpeningSubscriber(self)

    # ---- the source

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            opener = self.opener
            self.subscribers.add(opener)
            self.openings.subscribe(opener)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        with self.lock:
            bs = self.buffers
            if bs is None:
                return
            for b in bs.values():
                add_item(b, item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.errors.try_add_throwable(error):
            self.subscribers.dispose()
            with self.lock:
                self.buffers = None
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        self.subscribers.dispose()
        with self.lock:
            bs = self.buffers
            if bs is None:
                return
            self.queue.extend(bs.values())
            self.buffers = None
        self.done = True
        self.drain()

    # ---- the downstream's Subscription

    def cancel(self) -> None:
        if SubscriptionHelper.cancel(self.upstream):
            self.cancelled = True
            self.subscribers.dispose()
            with self.lock:
                self.buffers = None
            if self.gate.enter():
                self.queue.clear()  # keeps the drain for good

    # ---- the boundaries

    def open(self, token: Any) -> None:
        """An item of ``openings``: a new collection and its closing Publisher."""
        try:
            buf = new_buffer(self.factory, _OPERATOR)
            p = self.closing_selector(token)
            if p is None:
                raise returned_none(_OPERATOR, self.closing_selector, "closing selector")
        except Exception as ex:
            SubscriptionHelper.cancel(self.upstream)
            self.on_error(ex)
            return
        idx = self.index  # openings' items are serialized (§1.3)
        self.index = idx + 1
        with self.lock:
            bs = self.buffers
            if bs is None:
                return
            bs[idx] = buf
        closer = ClosingSubscriber(self, idx)
        self.subscribers.add(closer)
        p.subscribe(closer)

    def inner_error(self, error: BaseException) -> None:
        """``openings`` failed."""
        self.boundary_error(self.opener, error)

    def inner_complete(self) -> None:
        """``openings`` completed: no more collections open."""
        self.subscribers.delete(self.opener)
        if self.subscribers.size() == 0:
            SubscriptionHelper.cancel(self.upstream)
            self.done = True
            self.drain()

    def close(self, closer: ClosingSubscriber, idx: int) -> None:
        """The first item or the completion of collection ``idx``'s closing Publisher."""
        self.subscribers.delete(closer)
        make_done = False
        if self.subscribers.size() == 0:
            make_done = True
            SubscriptionHelper.cancel(self.upstream)
        with self.lock:
            bs = self.buffers
            if bs is None:
                return
            self.queue.append(bs.pop(idx))
        if make_done:
            self.done = True
        self.drain()

    def boundary_error(self, subscriber: Any, error: BaseException) -> None:
        SubscriptionHelper.cancel(self.upstream)
        self.subscribers.delete(subscriber)
        self.on_error(error)

    # ---- drain

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        a = self.downstream
        q = self.queue
        errors = self.errors
        e = self.emitted
        while True:
            r = self.requested.get()
            while e != r:
                if self.cancelled:
                    q.clear()
                    return
                d = self.done
                if d and errors.get() is not None:
                    q.clear()
                    a.on_error(errors.terminate())  # type: ignore[arg-type]  # an error was added, so terminate() returns it
                    return
                try:
                    v = q.popleft()
                except IndexError:
                    if d:
                        a.on_complete()
                        return
                    break
                a.on_next(v)
                e += 1
            if e == r:
                if self.cancelled:
                    q.clear()
                    return
                if self.done:
                    if errors.get() is not None:
                        q.clear()
                        a.on_error(errors.terminate())  # type: ignore[arg-type]  # an error was added, so terminate() returns it
                        return
                    if not q:
                        a.on_complete()
                        return
            self.emitted = e
            if not gate.leave():
                return
