"""Single.timer / Maybe.timer / Completable.timer: ``0`` (or, for a Completable, the
completion) after a delay, from a task on the scheduler.

:class:`TimerOp` is the operator body of all three; the Maybe and Completable classes
are in ``maybe_timer.py`` and ``completable_timer.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["SingleTimer", "TimerOp"]


class TimerOp:
    __slots__ = ("delay_time", "scheduler")

    #: signal ``on_complete`` instead of ``on_success(0)`` (a Completable)
    _COMPLETES: ClassVar[bool] = False

    def __init__(self, delay: float, scheduler: Scheduler) -> None:
        self.delay_time = delay
        self.scheduler = scheduler

    def subscribe_actual(self, observer: Any) -> None:
        parent = TimerDisposable(observer, self._COMPLETES)
        observer.on_subscribe(parent)
        DisposableHelper.replace(parent.ref, self.scheduler.schedule_direct(parent.run,
                                                                            self.delay_time))


class SingleTimer(TimerOp, Single[int]):
    __slots__ = ()


class TimerDisposable(Disposable):
    """The scheduled task's Disposable; the task signals unless disposed first."""

    __slots__ = ("downstream", "completes", "ref")

    def __init__(self, downstream: Any, completes: bool) -> None:
        self.downstream = downstream
        self.completes = completes
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def run(self) -> None:
        if self.ref.get() is not DISPOSED:
            if self.completes:
                self.downstream.on_complete()
            else:
                self.downstream.on_success(0)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED
