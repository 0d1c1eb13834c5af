"""Flowable.flat_map_completable: map each item to a Completable, complete when all did.

A Completable (no items, so no downstream demand): the upstream is asked for
``max_concurrency`` items (everything when unbounded), then, when bounded, for
one more each time an inner Completable completed (or, with ``delay_errors``,
failed). ``active`` counts the running inner Completables plus one while the
upstream runs; the one that takes it to zero terminates the downstream. The
inner observers are kept in a :class:`CompositeDisposable`.

Errors go to an :class:`AtomicThrowable`: without ``delay_errors`` the first
one cancels the upstream, disposes every inner Completable and goes
downstream at once; with it, they all wait until everything ended and come
together (a :class:`CompositeException` when there are several). The
terminal signal is taken from the holder (``terminate``), so it goes out
once; an error after it, or after ``dispose``, goes to
:func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_flat_map_maybe import FlatMapZeroOneSubscriber
from rxpy2._internal.operators.flowable.flowable_flat_map_maybe import InnerObserver
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.operator_kit import null_or_late_error
from rxpy2.reactivestreams import Publisher

__all__ = ["FlatMapCompletableSubscriber", "FlowableFlatMapCompletable"]

T = TypeVar("T")


class FlowableFlatMapCompletable(Completable, HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "mapper", "delay_errors", "max_concurrency")

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Completable],
                 delay_errors: bool, max_concurrency: int) -> None:
        self.source = source
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_tail(self.source, FlatMapCompletableSubscriber(
            observer, self.mapper, self.delay_errors, self.max_concurrency))


class FlatMapCompletableSubscriber(FlatMapZeroOneSubscriber[T], Disposable, Generic[T]):
    """Subscribes to the upstream; is the Disposable the downstream observer gets."""

    __slots__ = ()

    def __init__(self, downstream: CompletableObserver, mapper: Callable[[T], Completable],
                 delay_errors: bool, max_concurrency: int) -> None:
        super().__init__(downstream, mapper, Completable, delay_errors, max_concurrency)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self._error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        if self.active.decrement_and_get() == 0:
            self.errors.try_terminate_consumer(self.downstream)

    # ---------------------------------------------------------------- inner Completables
    def _error(self, error: BaseException) -> None:
        """An error of the upstream or of an inner Completable (each ends one ``active``)."""
        errors = self.errors
        if not errors.try_add_throwable_or_report(error):
            return
        if self.delay_errors:
            if self.active.decrement_and_get() == 0:
                errors.try_terminate_consumer(self.downstream)
            else:
                self._replenish(1)
        else:
            self._cancel_all()
            errors.try_terminate_consumer(self.downstream)  # once: later ones find TERMINATED

    def inner_complete(self, inner: InnerObserver) -> None:
        self.set.delete(inner)
        if self.active.decrement_and_get() == 0:
            self.errors.try_terminate_consumer(self.downstream)
        else:
            self._replenish(1)

    def inner_error(self, inner: InnerObserver, error: BaseException) -> None:
        self.set.delete(inner)
        self._error(error)

    def inner_success(self, inner: InnerObserver, item: Any) -> None:  # pragma: no cover
        raise AssertionError("a Completable has no item")

    # ---------------------------------------------------------------- Disposable
    def _cancel_all(self) -> None:
        self.cancelled = True
        self.upstream.cancel()
        self.set.dispose()

    def dispose(self) -> None:
        if not self.cancelled:
            self._cancel_all()
            self.errors.try_terminate_and_report()  # an error that lost to the disposal

    def is_disposed(self) -> bool:
        return self.cancelled
