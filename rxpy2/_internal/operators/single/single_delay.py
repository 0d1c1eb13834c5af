"""delay and delay_subscription of Single, Maybe and Completable.

* ``delay``: the item or the completion (and, with ``delay_error``, the error) is
  signalled by a task scheduled ``time`` later; an error without ``delay_error`` by a
  task scheduled at once (Maybe's ``delay`` always delays the error). One reference
  holds the upstream, then the pending task; the downstream's Disposable disposes
  whichever it holds.
* ``delay_subscription``: the main source is subscribed when ``other`` (a Publisher:
  a timer, or another 0-1 source through ``to_flowable``) signals its first item or
  completes; an error of ``other`` is the downstream's error.

:class:`DelayOp` and :class:`DelayWithPublisherOp` are the operator bodies of the
three types; the Maybe and Completable classes are in ``maybe_delay.py`` and
``completable_delay.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.single.single_schedule import ZeroOneObserver
from rxpy2._internal.zero_one import as_publisher
from rxpy2.disposables import Disposable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2._internal.zero_one import ZeroOneBase
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["DelayOp", "DelayWithPublisherOp", "SingleDelay", "SingleDelayWithPublisher",
           "source_as_publisher"]

T = TypeVar("T")


def source_as_publisher(other: Any, scheduler: Any) -> Publisher[Any] | None:
    """An argument that is a time in seconds or another source (``delay_subscription``,
    Maybe's ``timeout`` and ``delay``): the source as a Publisher (a Single, Maybe or
    Completable through ``to_flowable``), or ``None`` for a time. ``TypeError`` for a
    source with a ``scheduler``, which goes only with a time."""
    p = as_publisher(other)
    if p is not None and scheduler is not None:
        raise TypeError("scheduler goes only with a time in seconds")
    return p


class DelayOp(Generic[T]):
    __slots__ = ("source", "delay_time", "scheduler", "delay_error")

    def __init__(self, source: ZeroOneBase, delay: float, scheduler: Scheduler,
                 delay_error: bool) -> None:
        self.source = source
        self.delay_time = delay
        self.scheduler = scheduler
        self.delay_error = delay_error

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(DelayObserver(observer, self))


class SingleDelay(DelayOp[T], Single[T]):
    __slots__ = ()


class DelayObserver(ZeroOneObserver[T], Disposable):
    __slots__ = ("downstream", "parent", "ref")

    def __init__(self, downstream: Any, parent: DelayOp[T]) -> None:
        self.downstream = downstream
        self.parent = parent
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.set_once(self.ref, d):
            self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        p = self.parent
        DisposableHelper.replace(
            self.ref, p.scheduler.schedule_direct(lambda: self._success(item), p.delay_time))

    def on_complete(self) -> None:
        p = self.parent
        DisposableHelper.replace(
            self.ref, p.scheduler.schedule_direct(self._complete, p.delay_time))

    def on_error(self, error: BaseException) -> None:
        p = self.parent
        DisposableHelper.replace(
            self.ref, p.scheduler.schedule_direct(lambda: self._error(error),
                                                  p.delay_time if p.delay_error else 0.0))

    def _success(self, item: T) -> None:
        if self.ref.get() is not DISPOSED:
            self.downstream.on_success(item)

    def _complete(self) -> None:
        if self.ref.get() is not DISPOSED:
            self.downstream.on_complete()

    def _error(self, error: BaseException) -> None:
        if self.ref.get() is not DISPOSED:
            self.downstream.on_error(error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED


class DelayWithPublisherOp(Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: ZeroOneBase, other: Publisher[Any]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, observer: Any) -> None:
        self.other.subscribe(OtherSubscriber(observer, self.source))


class SingleDelayWithPublisher(DelayWithPublisherOp[T], Single[T]):
    __slots__ = ()


class OtherSubscriber(FlowableSubscriber[Any], Disposable, Generic[T]):
    """Waits for ``other``, then subscribes the main Single with a forwarding observer.

    ``upstream``: ``other``'s Subscription (CANCELLED once it signalled or was
    cancelled); ``main``: the main Single's Disposable.
    """

    __slots__ = ("downstream", "source", "upstream", "main", "done")

    def __init__(self, downstream: Any, source: ZeroOneBase) -> None:
        self.downstream = downstream
        self.source = source
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.main: AtomicReference[Disposable] = AtomicReference()
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: Any) -> None:
        s = self.upstream.get_and_set(CANCELLED)
        if s is not CANCELLED and s is not None:
            s.cancel()
        self.on_complete()

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        if self.main.get() is not DISPOSED:
            self.source._subscribe(MainObserver(self))

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        DisposableHelper.dispose(self.main)

    def is_disposed(self) -> bool:
        return self.main.get() is DISPOSED


class MainObserver(ZeroOneObserver[T]):
    __slots__ = ("parent",)

    def __init__(self, parent: OtherSubscriber[T]) -> None:
        self.parent = parent

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.parent.main, d)

    def on_success(self, item: T) -> None:
        self.parent.downstream.on_success(item)

    def on_complete(self) -> None:
        self.parent.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        self.parent.downstream.on_error(error)
