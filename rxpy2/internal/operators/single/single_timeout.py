"""Single.timeout: ``TimeoutError`` (or a switch to a fallback Single) when no signal
arrives within the given time.

The main observer's reference holds the upstream and becomes ``DISPOSED`` at the
first of: the signal, the timeout task, or a dispose; whichever wins it is the
only one to reach the downstream. The timeout task is held separately and
disposed when the signal wins. The fallback is subscribed with an observer made
up front, so a dispose racing the switch disposes the fallback too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.internal.operators.flowable.flowable_timeout_timed import timeout_message
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["SingleTimeout"]

T = TypeVar("T")


class SingleTimeout(Single[T], Generic[T]):
    __slots__ = ("source", "timeout_time", "scheduler", "fallback")

    def __init__(self, source: Single[T], timeout: float, scheduler: Scheduler,
                 fallback: Single[T] | None) -> None:
        self.source = source
        self.timeout_time = timeout
        self.scheduler = scheduler
        self.fallback = fallback

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        parent: TimeoutMainObserver[T] = TimeoutMainObserver(observer, self.fallback,
                                                            self.timeout_time)
        observer.on_subscribe(parent)
        DisposableHelper.replace(parent.task,
                                 self.scheduler.schedule_direct(parent.run, self.timeout_time))
        self.source._subscribe(parent)


class TimeoutFallbackObserver(SingleObserver[T], Generic[T]):
    __slots__ = ("downstream", "ref")

    def __init__(self, downstream: SingleObserver[T]) -> None:
        self.downstream = downstream
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.ref, d)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)


class TimeoutMainObserver(SingleObserver[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "other", "fallback", "timeout_time", "ref", "task")

    def __init__(self, downstream: SingleObserver[T], other: Single[T] | None,
                 timeout: float) -> None:
        self.downstream = downstream
        self.other = other
        self.fallback: TimeoutFallbackObserver[T] | None = (
            TimeoutFallbackObserver(downstream) if other is not None else None)
        self.timeout_time = timeout
        self.ref: AtomicReference[Disposable] = AtomicReference()
        self.task: AtomicReference[Disposable] = AtomicReference()

    def _win(self) -> bool:
        """Move the reference to DISPOSED; True for the one caller that did it."""
        ref = self.ref
        while True:
            d = ref.get()
            if d is DISPOSED:
                return False
            if ref.compare_and_set(d, DISPOSED):
                if d is not None:
                    d.dispose()
                return True

    def run(self) -> None:
        if not self._win():
            return
        other, self.other = self.other, None
        fb = self.fallback
        if other is None or fb is None:
            self.downstream.on_error(TimeoutError(timeout_message(self.timeout_time)))
        else:
            other._subscribe(fb)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.ref, d)

    def on_success(self, item: T) -> None:
        d = self.ref.get()
        if d is not DISPOSED and self.ref.compare_and_set(d, DISPOSED):
            DisposableHelper.dispose(self.task)
            self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        d = self.ref.get()
        if d is not DISPOSED and self.ref.compare_and_set(d, DISPOSED):
            DisposableHelper.dispose(self.task)
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)
        DisposableHelper.dispose(self.task)
        fb = self.fallback
        if fb is not None:
            DisposableHelper.dispose(fb.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED
