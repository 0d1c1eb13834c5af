"""Flowable.subscribe_on: subscribe to the upstream on a scheduler's worker.

The downstream receives its Subscription at once; the upstream is subscribed in a task on
a new worker, and requests made before its Subscription arrived are handed over when it
does. With ``request_on``, requests from other threads run on the worker too. No layer of
ours runs per item. Above a subscriber that takes batches (a ``BatchSink``: observe_on)
over a SYNC-fusable source, items are polled on the worker straight into its queue, in
batches of at most ``BATCH``.

How: docs/schedulers.md, "Inside subscribe_on".
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from itertools import repeat
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import ChecksItems
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.fuseable import is_batch_sink
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import relay_on_next
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_subscription
from rxpy2.operator_kit import validate_request
from rxpy2.plugins import flags as _plugin_flags
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableSubscribeOn"]

T = TypeVar("T")

#: At most this many items are polled into observe_on's queue between two looks at
#: ``cancelled`` (observe_on's own requests are smaller: 128, then 96 at a time).
BATCH = 256


class FlowableSubscribeOn(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "scheduler", "request_on")

    def __init__(self, source: Publisher[T], scheduler: Scheduler, request_on: bool) -> None:
        from rxpy2._internal.operators.flowable.flowable_create import FlowableCreate
        self.source = source
        self.scheduler = scheduler
        self.request_on = request_on and not isinstance(source, FlowableCreate)

    @staticmethod
    def assemble(source: Flowable[T], scheduler: Scheduler, request_on: bool) -> Flowable[T]:
        """``source.subscribe_on(scheduler, request_on)``: a new stage, or ``source`` itself
        when it is a ``subscribe_on`` already that the new stage could change nothing of.

        Over ``subscribe_on(a)``, a ``subscribe_on(b)`` only moves onto ``b`` the
        subscribing of that stage (which moves it on to ``a``) and, with ``request_on``,
        the requests (which then move on to ``a`` too when the stage below has
        ``request_on``): no item, request amount or signal of the upstream's happens
        elsewhere or otherwise without it. Without the stage, a chain of n of them costs
        one task and one frame per item instead of n (n nested ``on_next`` frames would
        overflow Python's stack at about a thousand stages). Not when an assembly hook
        runs: it sees every stage it was given."""
        if (isinstance(source, FlowableSubscribeOn) and (source.request_on or not request_on)
                and not _plugin_flags.hooks_active):
            return source
        return FlowableSubscribeOn(source, scheduler, request_on)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        w = self.scheduler.create_worker()
        parent = SubscribeOnSubscriber(subscriber, w, self.source, self.request_on)
        subscriber.on_subscribe(parent)
        w.schedule(parent.run)


class SubscribeOnSubscriber(FlowableSubscriber[T], Subscription, ChecksItems, Generic[T]):
    __slots__ = ("downstream", "worker", "source", "request_on", "upstream", "requested",
                 "thread", "cancelled", "fused", "demand", "on_next")

    #: An item goes straight to the downstream's ``on_next`` (no layer of ours per item):
    #: :func:`relay_on_next`'s (the downstream's own when it checks its items, else one
    #: that checks first), so ours checks too (:class:`ChecksItems`).
    on_next: Callable[[T], None]  # type: ignore[assignment]  # a slot holding a function, not the method

    def __init__(self, downstream: Subscriber[T], worker: Worker, source: Publisher[T],
                 request_on: bool) -> None:
        self.downstream = downstream
        self.worker = worker
        self.source: Publisher[T] | None = source
        self.request_on = request_on
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.thread: threading.Thread | None = None
        self.cancelled = False
        #: the SYNC-fused upstream (a BatchSink downstream only), polled by :meth:`pull`
        self.fused: QueueSubscription[T] | None = None
        self.demand = AtomicLong()  # fused: requested and not yet polled
        self.on_next = relay_on_next(downstream)

    def run(self) -> None:
        self.thread = threading.current_thread()
        src = self.source
        self.source = None
        if src is not None:  # run() runs once: the source is always there
            src.subscribe(self)

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        d = self.downstream
        # fused before the upstream is published: a request that sees the upstream sees
        # ``fused`` too, so nothing ever calls ``request`` on a SYNC-fused subscription
        if (self.upstream.get() is None and isinstance(s, QueueSubscription)
                and is_batch_sink(d) and d.takes_batches()
                and s.request_fusion(SYNC) == SYNC):
            self.fused = s
        if SubscriptionHelper.set_once(self.upstream, s):
            r = self.requested.get_and_set(0)
            if r != 0:
                self.request_upstream(r, s)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)
        self.worker.dispose()

    def on_complete(self) -> None:
        self.downstream.on_complete()
        self.worker.dispose()

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        s = self.upstream.get()
        if s is not None:
            self.request_upstream(n, s)
            return
        add_request(self.requested, n)
        s = self.upstream.get()
        if s is not None:  # it arrived meanwhile: hand over what accumulated
            r = self.requested.get_and_set(0)
            if r != 0:
                self.request_upstream(r, s)

    def request_upstream(self, n: int, s: Subscription) -> None:
        req = s.request if self.fused is None else self.pull
        if not self.request_on or threading.current_thread() is self.thread:
            req(n)
        else:
            self.worker.schedule(lambda: req(n))

    def pull(self, n: int) -> None:
        """Fused: poll up to the demand into observe_on's queue, a batch at a time.

        Whoever moves the demand off zero polls (the others only add to it),
        as a synchronous source's ``request`` does (§3.3)."""
        demand = self.demand
        if add_request(demand, n) != 0:
            return
        q = self.fused
        d: Any = self.downstream
        if q is None:  # pragma: no cover - pull is only ever called when fused
            return
        poll = q.poll
        # a source that can hand over a batch in one call (``range``: a ``range``)
        many = getattr(q, "poll_many", None)
        e = 0
        r = demand.get()
        while True:
            while e != r:
                if self.cancelled:
                    q.clear()
                    return
                k = r - e
                if k > BATCH:
                    k = BATCH
                batch: Any = []
                try:
                    if many is not None:
                        batch = many(k)  # raises before taking anything, or not at all
                    else:  # a Python loop: a C iterator over poll would take a StopIteration
                        append = batch.append  # raised by a user function for the end
                        for _ in repeat(None, k):
                            v = poll()
                            if v is None:
                                break
                            append(v)
                    ended = len(batch) < k or q.is_empty()
                except Exception as ex:
                    if batch:
                        d.on_next_batch(batch)  # what was polled before the error goes first
                    self.cancelled = True
                    q.cancel()
                    q.clear()
                    d.on_error(ex)
                    self.worker.dispose()
                    return
                if batch:
                    d.on_next_batch(batch)
                if ended:
                    self.cancelled = True
                    d.on_complete()
                    self.worker.dispose()
                    return
                e += k
            r = demand.get()
            if e == r:
                r = demand.add_and_get(-e)
                if r == 0:
                    return
                e = 0

    def cancel(self) -> None:
        self.cancelled = True
        SubscriptionHelper.cancel(self.upstream)
        self.worker.dispose()
