"""Flowable.interval / interval_range: 0, 1, 2, ... (or start..start+count-1) every ``period``.

The ticks come from a periodic task on the scheduler; they do not wait for
demand: a tick that finds no outstanding request ends the stream with
``MissingBackpressureException`` (buffer or drop downstream to avoid that).

The period is checked at assembly: a negative or infinite one is a
``ValueError`` (it was clamped to 0, turning a typo into a busy loop); a period
of 0 is allowed and yields the scheduler's thread between ticks.
"""

from __future__ import annotations

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import check_period
from rxpy2.schedulers.trampoline_scheduler import TrampolineScheduler

__all__ = ["FlowableInterval", "FlowableIntervalRange"]


def _lack_of_requests(operator: str, value: int) -> MissingBackpressureException:
    return MissingBackpressureException.lack_of_requests(operator, f"value {value}")


def _start_periodic(scheduler: Scheduler, ticker: _TickerSubscription, initial_delay: float,
                    period: float) -> None:
    if isinstance(scheduler, TrampolineScheduler):
        # the trampoline runs in the caller: the periodic task needs its own worker loop
        w = scheduler.create_worker()
        ticker.set_resource(w)
        w.schedule_periodically(ticker.run, initial_delay, period)
    else:
        ticker.set_resource(scheduler.schedule_periodically_direct(ticker.run, initial_delay,
                                                                   period))


class FlowableInterval(Flowable[int]):
    """``interval``: 0, 1, 2, ... every ``period``.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when a tick finds no outstanding request:
    add ``on_backpressure_drop()`` (or buffer/latest) after it, or request more."""

    __slots__ = ("period", "initial_delay", "scheduler")

    def __init__(self, period: float, initial_delay: float, scheduler: Scheduler) -> None:
        self.period = check_period(period)
        self.initial_delay = initial_delay
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        ticker = IntervalSubscription(subscriber)
        subscriber.on_subscribe(ticker)
        _start_periodic(self.scheduler, ticker, self.initial_delay, self.period)


class _TickerSubscription(Subscription):
    __slots__ = ("downstream", "requested", "resource", "count")

    def __init__(self, downstream: Subscriber[int], start: int = 0) -> None:
        self.downstream = downstream
        self.requested = AtomicLong()
        self.resource: AtomicReference[Disposable] = AtomicReference()
        self.count = start

    def set_resource(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.resource, d)

    def request(self, n: int) -> None:
        if n := validate_request(n):
            add_request(self.requested, n)

    def cancel(self) -> None:
        DisposableHelper.dispose(self.resource)

    def run(self) -> None:
        raise NotImplementedError


class IntervalSubscription(_TickerSubscription):
    __slots__ = ()

    def run(self) -> None:
        if self.resource.get() is DISPOSED:
            return
        c = self.count
        if self.requested.get() != 0:
            self.count = c + 1
            self.downstream.on_next(c)
            produced(self.requested, 1)
        else:
            DisposableHelper.dispose(self.resource)
            self.downstream.on_error(_lack_of_requests("interval", c))


class FlowableIntervalRange(Flowable[int]):
    """``interval_range``: ``start``, ``start + 1``, ... every ``period``, ``count`` of them.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when a tick finds no outstanding request."""

    __slots__ = ("start", "end", "initial_delay", "period", "scheduler")

    def __init__(self, start: int, count: int, initial_delay: float, period: float,
                 scheduler: Scheduler) -> None:
        self.start = start
        self.end = start + count
        self.initial_delay = initial_delay
        self.period = check_period(period)
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        ticker = IntervalRangeSubscription(subscriber, self.start, self.end)
        subscriber.on_subscribe(ticker)
        if self.start == self.end:  # count == 0: complete after the initial delay
            ticker.set_resource(self.scheduler.schedule_direct(ticker.run, self.initial_delay))
        else:
            _start_periodic(self.scheduler, ticker, self.initial_delay, self.period)


class IntervalRangeSubscription(_TickerSubscription):
    __slots__ = ("end",)

    def __init__(self, downstream: Subscriber[int], start: int, end: int) -> None:
        super().__init__(downstream, start)
        self.end = end

    def run(self) -> None:
        if self.resource.get() is DISPOSED:
            return
        c = self.count
        a = self.downstream
        if c == self.end:  # empty range
            DisposableHelper.dispose(self.resource)
            a.on_complete()
            return
        r = self.requested.get()
        if r == 0:
            DisposableHelper.dispose(self.resource)
            a.on_error(_lack_of_requests("interval_range", c))
            return
        self.count = c + 1
        a.on_next(c)
        if c + 1 == self.end:
            if self.resource.get() is not DISPOSED:
                DisposableHelper.dispose(self.resource)
                a.on_complete()
            return
        if r != LONG_MAX:
            self.requested.decrement_and_get()
