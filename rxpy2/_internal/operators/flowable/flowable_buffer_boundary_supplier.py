"""Flowable.buffer(boundary_supplier): lists closed by the first signal of supplied boundaries.

RxJava 2's ``FlowableBufferBoundarySupplier`` (gone in RxJava 3): a boundary
Publisher comes from ``boundary_supplier()`` at subscription; its first item or
its completion (it is then cancelled) emits the current collection, opens the
next one and subscribes to a new boundary from the supplier. A boundary's error
fails the stream. The source's completion emits the current collection and
completes. Everything else is ``buffer(boundary)``'s
(:mod:`.flowable_buffer_exact_boundary`). A supplier or ``buffer_factory`` that
raises (or returns None) cancels everything and fails the stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.flowable.flowable_buffer_timed import BufferExactSubscriberBase
from rxpy2._internal.operators.flowable.flowable_window_boundary import BoundaryEndsStream
from rxpy2._internal.operators.flowable.flowable_window_boundary import OneShotBoundarySubscriber
from rxpy2._internal.operators.flowable.flowable_window_boundary_supplier import supply_boundary
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableBufferBoundarySupplier"]

T = TypeVar("T")


class FlowableBufferBoundarySupplier(Flowable[Any], HasUpstreamPublisher[T], Generic[T]):
    """``buffer(boundary_supplier)``.

    Backpressure: source and boundaries are requested without bound; a collection
    due without downstream demand signals ``MissingBackpressureException``."""

    __slots__ = ("source", "supplier", "buffer_factory")

    def __init__(self, source: Publisher[T], supplier: Callable[[], Publisher[Any]],
                 buffer_factory: Callable[[], Any] = list) -> None:
        self.source = source
        self.supplier = supplier
        self.buffer_factory = buffer_factory

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        subscribe_tail(self.source, BufferBoundarySupplierSubscriber(
            subscriber, self.buffer_factory, self.supplier))


class BufferBoundarySupplierSubscriber(BoundaryEndsStream, BufferExactSubscriberBase[T], Generic[T]):
    """``boundary``: the current boundary's subscriber (DISPOSED for good);
    ``first``: the first boundary, subscribed once the source is requested."""

    __slots__ = ("supplier", "boundary", "first", "switching")

    OPERATOR = "buffer"
    PRODUCER = "the boundary Publisher"

    def __init__(self, downstream: Subscriber[Any], factory: Callable[[], Any],
                 supplier: Callable[[], Publisher[Any]]) -> None:
        super().__init__(downstream, factory, None)
        self.supplier = supplier
        self.boundary: AtomicReference[Disposable] = AtomicReference()
        self.first: Publisher[Any] | None = None
        # a boundary that signals inside subscribe asks for the next one from within
        # next_boundary: the requests are run in a loop, not by recursion
        self.switching = Drain()

    def open_initial(self) -> None:
        super().open_initial()
        self.first = supply_boundary(self.supplier, self.OPERATOR)

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        bs = OneShotBoundarySubscriber(self)
        p, self.first = self.first, None
        if not DisposableHelper.replace(self.boundary, bs):
            return False
        self.upstream.request(LONG_MAX)  # as RxJava: the source first
        assert p is not None
        p.subscribe(bs)
        return False  # requested already

    def stop_signals(self) -> None:
        DisposableHelper.dispose(self.boundary)

    # ---- the boundaries (an error: BoundaryEndsStream)

    def boundary_next(self, sender: OneShotBoundarySubscriber) -> None:
        self.next_boundaries()

    def inner_complete(self) -> None:
        self.next_boundaries()  # as RxJava: a boundary's completion is a boundary too

    def next_boundaries(self) -> None:
        gate = self.switching
        if not gate.enter():
            return  # the owner runs it
        while True:
            self.next_boundary()
            if not gate.leave():
                return

    def next_boundary(self) -> None:
        """Emit the current collection, open the next one under a new boundary."""
        try:
            nxt = self.make()
            p = supply_boundary(self.supplier, self.OPERATOR)
        except Exception as ex:
            self.fail(ex)
            return
        bs = OneShotBoundarySubscriber(self)
        if not DisposableHelper.replace(self.boundary, bs):
            return
        with self.lock:
            b = self.buffer
            if b is None:
                return
            self.buffer = nxt
            self.queue.append(b)
        p.subscribe(bs)
        self.drain()
