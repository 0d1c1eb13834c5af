"""Flowable.window(boundary_supplier): windows closed by the first item of supplied boundaries.

RxJava 2's ``FlowableWindowBoundarySupplier`` (gone in RxJava 3): each window
gets a fresh boundary Publisher from ``boundary_supplier()``; the first item of
that boundary (which is then cancelled) completes the window and opens the next
one, with a new boundary. The boundary's completion completes the stream (and
cancels the source), its error fails it. Everything else is ``window(boundary)``'s
(:mod:`.flowable_window_boundary`): source requested without bound, a window
without demand fails with ``MissingBackpressureException``, the outer's cancel
keeps the open window. A supplier that raises (or returns None) fails the stream
and, unlike RxJava 2 (which left it running), cancels the source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.flowable_window_boundary import OneShotBoundarySubscriber
from rxpy2._internal.operators.flowable.flowable_window_boundary import WindowBoundaryMainSubscriber
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableWindowBoundarySupplier", "supply_boundary"]

T = TypeVar("T")


def supply_boundary(supplier: Callable[[], Publisher[Any]], operator: str) -> Publisher[Any]:
    """The next boundary Publisher from ``supplier`` (which may raise; None is a TypeError)."""
    p = supplier()
    if p is None:
        raise returned_none(operator, supplier, "boundary supplier")
    return p


class FlowableWindowBoundarySupplier(Flowable[Flowable[T]], HasUpstreamPublisher[T], Generic[T]):
    """``window(boundary_supplier)``.

    Backpressure: the boundaries open windows; one that opens without demand
    signals ``MissingBackpressureException``."""

    __slots__ = ("source", "supplier", "capacity_hint")

    def __init__(self, source: Publisher[T], supplier: Callable[[], Publisher[Any]],
                 buffer_size: int) -> None:
        self.source = source
        self.supplier = supplier
        self.capacity_hint = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[Flowable[T]]) -> None:
        parent: WindowBoundarySupplierSubscriber[T] = WindowBoundarySupplierSubscriber(
            subscriber, self.capacity_hint, self.supplier)
        subscriber.on_subscribe(parent)
        parent.inner_next()  # the first window and its boundary
        subscribe_tail(self.source, parent)


class WindowBoundarySupplierSubscriber(WindowBoundaryMainSubscriber[T], Generic[T]):
    """``boundary``: the current boundary's subscriber (None between two; DISPOSED for good)."""

    __slots__ = ("supplier", "boundary")

    def __init__(self, downstream: Subscriber[Flowable[T]], buffer_size: int,
                 supplier: Callable[[], Publisher[Any]]) -> None:
        super().__init__(downstream, buffer_size)
        self.supplier = supplier
        self.boundary: AtomicReference[Disposable] = AtomicReference()

    def dispose_boundary(self) -> None:
        DisposableHelper.dispose(self.boundary)

    def boundary_next(self, sender: OneShotBoundarySubscriber) -> None:
        self.boundary.compare_and_set(sender, None)
        self.inner_next()

    def open_boundary(self) -> bool:
        try:
            p = supply_boundary(self.supplier, "window")
        except Exception as ex:
            SubscriptionHelper.cancel(self.upstream)
            if not self.errors.try_add_throwable(ex):
                plugins.on_error(ex)
            self.done = True
            return False
        bs = OneShotBoundarySubscriber(self)
        if not self.boundary.compare_and_set(None, bs):
            return False  # disposed: no more windows
        p.subscribe(bs)
        return True
