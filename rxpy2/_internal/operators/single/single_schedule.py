"""subscribe_on / observe_on / unsubscribe_on of Single, Maybe and Completable: moving a
0-1 source's work onto a scheduler.

* ``subscribe_on``: the downstream gets its Disposable at once; the upstream is
  subscribed by a task given to ``scheduler.schedule_direct``. Disposing disposes
  both the pending task and the upstream (whichever exists).
* ``observe_on``: the terminal signal is stored and delivered by a task on the
  scheduler; disposing cancels that task, so nothing arrives after it.
* ``unsubscribe_on``: the upstream's ``dispose`` runs in a task on the scheduler;
  signals pass through unchanged.

One operator body (the ``*Op`` mixins) and one observer per operator serve the three
types: each observer handles ``on_success``, ``on_complete`` and ``on_error`` (a Single
source never calls ``on_complete``, a Completable source never calls ``on_success``).
The Maybe and Completable classes are in ``maybe_schedule.py`` and
``completable_schedule.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2._internal.zero_one import ZeroOneBase
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["ForwardingObserver", "ObserveOnOp", "ZeroOneObserver", "SingleObserveOn", "SingleSubscribeOn", "SingleUnsubscribeOn",
           "SubscribeOnOp", "UnsubscribeOnObserver", "UnsubscribeOnOp"]

T = TypeVar("T")


class _ScheduledOp(Generic[T]):
    """The fields of the three operators: the upstream 0-1 source and the scheduler."""

    __slots__ = ("source", "scheduler")

    def __init__(self, source: ZeroOneBase, scheduler: Scheduler) -> None:
        self.source = source
        self.scheduler = scheduler


class ZeroOneObserver(SingleObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    """An observer of any of the three types (the operators' inner observers)."""

    __slots__ = ()


class ForwardingObserver(ZeroOneObserver[T]):
    """A :class:`ZeroOneObserver` that passes the three signals on to ``downstream``
    as they come (a subclass has the slot and adds the rest)."""

    __slots__ = ()

    downstream: Any

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)


class SubscribeOnOp(_ScheduledOp[T]):
    __slots__ = ()

    def subscribe_actual(self, observer: Any) -> None:
        parent: SubscribeOnObserver[T] = SubscribeOnObserver(observer, self.source)
        observer.on_subscribe(parent)
        DisposableHelper.replace(parent.task, self.scheduler.schedule_direct(parent.run))


class SingleSubscribeOn(SubscribeOnOp[T], Single[T]):
    __slots__ = ()


class SubscribeOnObserver(ForwardingObserver[T], Disposable):
    """``upstream``: the source's Disposable; ``task``: the scheduled subscription."""

    __slots__ = ("downstream", "source", "upstream", "task")

    def __init__(self, downstream: Any, source: ZeroOneBase) -> None:
        self.downstream = downstream
        self.source = source
        self.upstream: AtomicReference[Disposable] = AtomicReference()
        self.task: AtomicReference[Disposable] = AtomicReference()

    def run(self) -> None:
        if self.upstream.get() is not DISPOSED:
            self.source._subscribe(self)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.upstream, d)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.upstream)
        DisposableHelper.dispose(self.task)

    def is_disposed(self) -> bool:
        return self.upstream.get() is DISPOSED


class ObserveOnOp(_ScheduledOp[T]):
    __slots__ = ()

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(ObserveOnObserver(observer, self.scheduler))


class SingleObserveOn(ObserveOnOp[T], Single[T]):
    __slots__ = ()


class ObserveOnObserver(ZeroOneObserver[T], Disposable):
    """One reference: the upstream, then the delivery task (``DISPOSED`` on dispose).

    The task delivers the stored error, else the stored item, else (no item: a Maybe
    or Completable completed) ``on_complete``.
    """

    __slots__ = ("downstream", "scheduler", "ref", "item", "error")

    def __init__(self, downstream: Any, scheduler: Scheduler) -> None:
        self.downstream = downstream
        self.scheduler = scheduler
        self.ref: AtomicReference[Disposable] = AtomicReference()
        self.item: Any = None
        self.error: BaseException | None = None

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.set_once(self.ref, d):
            self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        self.item = item
        self._schedule()

    def on_complete(self) -> None:
        self._schedule()

    def on_error(self, error: BaseException) -> None:
        self.error = error
        self._schedule()

    def _schedule(self) -> None:
        DisposableHelper.replace(self.ref, self.scheduler.schedule_direct(self.run))

    def run(self) -> None:
        if self.ref.get() is DISPOSED:
            return
        e = self.error
        if e is not None:
            self.error = None
            self.downstream.on_error(e)
            return
        item, self.item = self.item, None
        if item is not None:
            self.downstream.on_success(item)
        else:
            self.downstream.on_complete()

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED


class UnsubscribeOnObserver(ForwardingObserver[T], Disposable):
    __slots__ = ("downstream", "scheduler", "ref")

    def __init__(self, downstream: Any, scheduler: Scheduler) -> None:
        self.downstream = downstream
        self.scheduler = scheduler
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.set_once(self.ref, d):
            self.downstream.on_subscribe(self)

    def dispose(self) -> None:
        ref = self.ref
        if ref.get() is DISPOSED:
            return
        d = ref.get_and_set(DISPOSED)
        if d is not DISPOSED and d is not None:
            self.scheduler.schedule_direct(d.dispose)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED


class UnsubscribeOnOp(_ScheduledOp[T]):
    __slots__ = ()

    #: the observer class (Completable's drops signals after a dispose)
    _observer: type[UnsubscribeOnObserver[Any]] = UnsubscribeOnObserver

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(self._observer(observer, self.scheduler))


class SingleUnsubscribeOn(UnsubscribeOnOp[T], Single[T]):
    __slots__ = ()
