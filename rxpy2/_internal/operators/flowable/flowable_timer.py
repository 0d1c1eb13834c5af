"""Flowable.timer: emit ``0`` after ``delay`` seconds, then complete.

The item is not kept waiting for demand: if nothing was requested when the
timer fires, the stream ends with ``MissingBackpressureException``.
"""

from __future__ import annotations

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableTimer"]


class FlowableTimer(Flowable[int]):
    """``timer``: a single 0 after ``delay``.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when it fires before the downstream requested."""

    __slots__ = ("delay_seconds", "scheduler")

    def __init__(self, delay: float, scheduler: Scheduler) -> None:
        self.delay_seconds = delay
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        t = TimerSubscription(subscriber)
        subscriber.on_subscribe(t)
        d = self.scheduler.schedule_direct(t.run, self.delay_seconds)
        # a trampoline runs the task inside schedule_direct: the resource is then already set
        t.resource.compare_and_set(None, d)
        if t.resource.get() is DISPOSED:
            d.dispose()


class TimerSubscription(Subscription):
    __slots__ = ("downstream", "requested", "resource")

    def __init__(self, downstream: Subscriber[int]) -> None:
        self.downstream = downstream
        self.requested = False
        self.resource: AtomicReference[Disposable] = AtomicReference()

    def request(self, n: int) -> None:
        if n := validate_request(n):
            self.requested = True

    def cancel(self) -> None:
        DisposableHelper.dispose(self.resource)

    def run(self) -> None:
        if self.resource.get() is DISPOSED:
            return
        if self.requested:
            self.downstream.on_next(0)
            # done: a later cancel has nothing to dispose (mark it so set_resource is a no-op)
            if self.resource.get_and_set(DISPOSED) is DISPOSED:
                return
            self.downstream.on_complete()
        else:
            DisposableHelper.dispose(self.resource)
            self.downstream.on_error(
                MissingBackpressureException.lack_of_requests("timer", "the value 0"))
