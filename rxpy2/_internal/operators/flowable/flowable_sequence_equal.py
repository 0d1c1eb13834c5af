"""Flowable.sequence_equal: whether two Publishers emit equal items in the same order, as a Single.

An :class:`EqualCoordinator` (the observer's Disposable) subscribes one
:class:`EqualSubscriber` to each Publisher. Each asks for ``buffer_size``
items, keeps them in a bounded queue (or polls a fused upstream: SYNC without
requests, ASYNC from its queue) and asks for more (``limit = buffer_size -
buffer_size // 4`` at a time) as the drain takes them. The drain (guarded by a
:class:`Drain`: a signal while it runs makes ``leave()`` ask for another pass; a
``dispose`` that gets it clears and keeps it) compares the
heads with ``==`` (or ``is_equal``): the first difference, or one Publisher
ending while the other still has an item, gives False and cancels both; both
ending together gives True. An error of either Publisher, or of ``is_equal``,
cancels both and is signalled. The prefetching subscriber of each Publisher is
a :class:`PrefetchingInnerSubscriber` (internal/subscribers/prefetching_inner.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2._internal.subscribers.operator_subscriber import InnerErrorOnce
from rxpy2._internal.subscribers.prefetching_inner import PrefetchingInnerSubscriber
from rxpy2.disposables import Disposable
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import Drain
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableSequenceEqualSingle"]

T = TypeVar("T")


class FlowableSequenceEqualSingle(Single[bool], Generic[T]):
    __slots__ = ("first", "second", "is_equal", "buffer_size")

    def __init__(self, first: Publisher[T], second: Publisher[T],
                 is_equal: Callable[[T, T], bool] | None, buffer_size: int) -> None:
        self.first = first
        self.second = second
        self.is_equal = is_equal
        self.buffer_size = buffer_size

    def subscribe_actual(self, observer: SingleObserver[bool]) -> None:
        parent = EqualCoordinator(observer, self.buffer_size, self.is_equal)
        observer.on_subscribe(parent)
        parent.subscribe(self.first, self.second)


class EqualCoordinator(Disposable, Generic[T]):
    __slots__ = ("downstream", "is_equal", "first", "second", "error", "gate", "v1", "v2",
                 "disposed")

    def __init__(self, downstream: SingleObserver[bool], prefetch: int,
                 is_equal: Callable[[T, T], bool] | None) -> None:
        self.downstream = downstream
        self.is_equal = is_equal
        self.first: EqualSubscriber[T] = EqualSubscriber(self, prefetch)
        self.second: EqualSubscriber[T] = EqualSubscriber(self, prefetch)
        self.error = AtomicThrowable()
        self.gate = Drain()
        self.v1: T | None = None  # the heads taken but not yet compared (drain only)
        self.v2: T | None = None
        self.disposed = False  # disposed, or the result was signalled

    def subscribe(self, first: Publisher[T], second: Publisher[T]) -> None:
        first.subscribe(self.first)
        if not self.is_disposed():
            second.subscribe(self.second)

    def dispose(self) -> None:
        self.disposed = True
        self.first.cancel()
        self.second.cancel()
        if self.gate.enter():  # no drain runs: clearing is ours (and the drain stays shut)
            self.clear()

    def is_disposed(self) -> bool:
        return self.disposed

    def clear(self) -> None:
        self.v1 = None
        self.v2 = None
        self.first.clear()
        self.second.clear()

    def cancel_and_clear(self) -> None:
        self.disposed = True
        self.first.cancel()
        self.second.cancel()
        self.clear()

    def inner_error(self, error: BaseException) -> None:
        if self.error.try_add_throwable(error):
            self.drain()
        else:
            plugins.on_error(error)

    def fail(self, error: BaseException | None = None) -> None:
        """Cancel both, signal the error(s) (from the drain, which never leaves it then)."""
        self.cancel_and_clear()
        if error is not None:
            self.error.try_add_throwable(error)
        self.downstream.on_error(self.error.terminate())  # type: ignore[arg-type]  # an error was added, so terminate() returns it

    def succeed(self, result: bool) -> None:
        self.cancel_and_clear()
        self.error.try_terminate_and_report()  # an error from now on is undeliverable
        self.downstream.on_success(result)

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        first = self.first
        second = self.second
        error = self.error
        is_equal = self.is_equal
        while True:
            q1 = first.queue
            q2 = second.queue
            while True:
                if self.is_disposed():
                    self.clear()
                    return
                if error.get() is not None:
                    self.fail()
                    return
                if q1 is None or q2 is None:
                    break  # a Publisher has not called on_subscribe yet
                d1 = first.done
                a = self.v1
                if a is None:
                    try:
                        a = q1.poll()
                    except Exception as ex:  # a fused upstream's function raised
                        self.fail(ex)
                        return
                    self.v1 = a
                d2 = second.done
                b = self.v2
                if b is None:
                    try:
                        b = q2.poll()
                    except Exception as ex:
                        self.fail(ex)
                        return
                    self.v2 = b
                e1 = a is None
                e2 = b is None
                if e1 and e2:
                    if d1 and d2:
                        self.succeed(True)
                        return
                    break
                if (d1 and e1) or (d2 and e2):  # one ended, the other has one more item
                    self.succeed(False)
                    return
                if e1 or e2:
                    break
                try:
                    c = (a == b) if is_equal is None else is_equal(a, b)
                    c = bool(c)
                except Exception as ex:
                    self.fail(ex)
                    return
                if not c:
                    self.succeed(False)
                    return
                self.v1 = None
                self.v2 = None
                first.request_one()
                second.request_one()
            if not gate.leave():
                return


class EqualSubscriber(InnerErrorOnce, PrefetchingInnerSubscriber[T], Generic[T]):
    """One of the two Publishers: prefetching, fusion, ``on_next``/``on_complete`` (queue,
    drain the coordinator), ``request_one`` replenishing, ``cancel`` and ``clear`` are
    :class:`PrefetchingInnerSubscriber`'s (internal/subscribers/prefetching_inner.py)."""

    __slots__ = ()

    parent: EqualCoordinator[T]

    def overflow(self) -> None:
        self.done = True  # the drain cancels both
        self.parent.inner_error(missing_backpressure("sequence_equal", self.prefetch,
                                                     "buffer_size"))

