"""Single.timer: signals ``0`` after a delay, from a task on the scheduler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["SingleTimer"]


class SingleTimer(Single[int]):
    __slots__ = ("delay_time", "scheduler")

    def __init__(self, delay: float, scheduler: Scheduler) -> None:
        self.delay_time = delay
        self.scheduler = scheduler

    def subscribe_actual(self, observer: SingleObserver[int]) -> None:
        parent = TimerDisposable(observer)
        observer.on_subscribe(parent)
        DisposableHelper.replace(parent.ref, self.scheduler.schedule_direct(parent.run,
                                                                            self.delay_time))


class TimerDisposable(Disposable):
    """The scheduled task's Disposable; the task signals unless disposed first."""

    __slots__ = ("downstream", "ref")

    def __init__(self, downstream: SingleObserver[int]) -> None:
        self.downstream = downstream
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def run(self) -> None:
        if self.ref.get() is not DISPOSED:
            self.downstream.on_success(0)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED
