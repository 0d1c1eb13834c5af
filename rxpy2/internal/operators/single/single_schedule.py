"""Single.subscribe_on / observe_on / unsubscribe_on: moving a Single's work onto a scheduler.

* ``subscribe_on``: the downstream gets its Disposable at once; the upstream is
  subscribed by a task given to ``scheduler.schedule_direct``. Disposing disposes
  both the pending task and the upstream (whichever exists).
* ``observe_on``: the terminal signal is stored and delivered by a task on the
  scheduler; disposing cancels that task, so nothing arrives after it.
* ``unsubscribe_on``: the upstream's ``dispose`` runs in a task on the scheduler;
  signals pass through unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["SingleObserveOn", "SingleSubscribeOn", "SingleUnsubscribeOn"]

T = TypeVar("T")


class SingleSubscribeOn(Single[T], Generic[T]):
    __slots__ = ("source", "scheduler")

    def __init__(self, source: Single[T], scheduler: Scheduler) -> None:
        self.source = source
        self.scheduler = scheduler

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        parent: SubscribeOnObserver[T] = SubscribeOnObserver(observer, self.source)
        observer.on_subscribe(parent)
        DisposableHelper.replace(parent.task, self.scheduler.schedule_direct(parent.run))


class SubscribeOnObserver(SingleObserver[T], Disposable, Generic[T]):
    """``upstream``: the source's Disposable; ``task``: the scheduled subscription."""

    __slots__ = ("downstream", "source", "upstream", "task")

    def __init__(self, downstream: SingleObserver[T], source: Single[T]) -> None:
        self.downstream = downstream
        self.source = source
        self.upstream: AtomicReference[Disposable] = AtomicReference()
        self.task: AtomicReference[Disposable] = AtomicReference()

    def run(self) -> None:
        if self.upstream.get() is not DISPOSED:
            self.source._subscribe(self)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.upstream, d)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.upstream)
        DisposableHelper.dispose(self.task)

    def is_disposed(self) -> bool:
        return self.upstream.get() is DISPOSED


class SingleObserveOn(Single[T], Generic[T]):
    __slots__ = ("source", "scheduler")

    def __init__(self, source: Single[T], scheduler: Scheduler) -> None:
        self.source = source
        self.scheduler = scheduler

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(ObserveOnObserver(observer, self.scheduler))


class ObserveOnObserver(SingleObserver[T], Disposable, Generic[T]):
    """One reference: the upstream, then the delivery task (``DISPOSED`` on dispose)."""

    __slots__ = ("downstream", "scheduler", "ref", "item", "error")

    def __init__(self, downstream: SingleObserver[T], scheduler: Scheduler) -> None:
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
        DisposableHelper.replace(self.ref, self.scheduler.schedule_direct(self.run))

    def on_error(self, error: BaseException) -> None:
        self.error = error
        DisposableHelper.replace(self.ref, self.scheduler.schedule_direct(self.run))

    def run(self) -> None:
        if self.ref.get() is DISPOSED:
            return
        e = self.error
        if e is not None:
            self.error = None
            self.downstream.on_error(e)
        else:
            item, self.item = self.item, None
            self.downstream.on_success(item)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED


class SingleUnsubscribeOn(Single[T], Generic[T]):
    __slots__ = ("source", "scheduler")

    def __init__(self, source: Single[T], scheduler: Scheduler) -> None:
        self.source = source
        self.scheduler = scheduler

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(UnsubscribeOnObserver(observer, self.scheduler))


class UnsubscribeOnObserver(SingleObserver[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "scheduler", "ref")

    def __init__(self, downstream: SingleObserver[T], scheduler: Scheduler) -> None:
        self.downstream = downstream
        self.scheduler = scheduler
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.set_once(self.ref, d):
            self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def dispose(self) -> None:
        ref = self.ref
        if ref.get() is DISPOSED:
            return
        d = ref.get_and_set(DISPOSED)
        if d is not DISPOSED and d is not None:
            self.scheduler.schedule_direct(d.dispose)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED
