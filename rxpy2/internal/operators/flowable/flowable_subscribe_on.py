"""Flowable.subscribe_on: subscribe to the upstream on a scheduler's worker.

The downstream receives its Subscription at once; the upstream is subscribed in
a task on a new worker. Requests made before the upstream Subscription arrived
are kept and handed over when it does (deferred requesting). With
``request_on`` (and an upstream that is not a ``Flowable.create``, whose emitter
must not be re-entered from the worker), a request made from another thread
than the worker's is itself run on the worker, so a source that emits inside
``request`` keeps emitting on the worker's thread.
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicLong, AtomicReference
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.operators import null_error, null_item, null_subscription
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription
from rxpy2.schedulers.scheduler import Scheduler, Worker

__all__ = ["FlowableSubscribeOn"]

T = TypeVar("T")


class FlowableSubscribeOn(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "scheduler", "request_on")

    def __init__(self, source: Publisher[T], scheduler: Scheduler, request_on: bool) -> None:
        from rxpy2.internal.operators.flowable.flowable_create import FlowableCreate
        self.source = source
        self.scheduler = scheduler
        self.request_on = request_on and not isinstance(source, FlowableCreate)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        w = self.scheduler.create_worker()
        parent = SubscribeOnSubscriber(subscriber, w, self.source, self.request_on)
        subscriber.on_subscribe(parent)
        w.schedule(parent.run)


class SubscribeOnSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "worker", "source", "request_on", "upstream", "requested",
                 "thread")

    def __init__(self, downstream: Subscriber[T], worker: Worker, source: Publisher[T],
                 request_on: bool) -> None:
        self.downstream = downstream
        self.worker = worker
        self.source: Publisher[T] | None = source
        self.request_on = request_on
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        self.thread = threading.current_thread()
        src = self.source
        self.source = None
        if src is not None:  # run() runs once: the source is always there
            src.subscribe(self)

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        if SubscriptionHelper.set_once(self.upstream, s):
            r = self.requested.get_and_set(0)
            if r != 0:
                self.request_upstream(r, s)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)
        self.worker.dispose()

    def on_complete(self) -> None:
        self.downstream.on_complete()
        self.worker.dispose()

    def request(self, n: int) -> None:
        if not SubscriptionHelper.validate_request(n):
            return
        s = self.upstream.get()
        if s is not None:
            self.request_upstream(n, s)
            return
        BackpressureHelper.add(self.requested, n)
        s = self.upstream.get()
        if s is not None:  # it arrived meanwhile: hand over what accumulated
            r = self.requested.get_and_set(0)
            if r != 0:
                self.request_upstream(r, s)

    def request_upstream(self, n: int, s: Subscription) -> None:
        if not self.request_on or threading.current_thread() is self.thread:
            s.request(n)
        else:
            self.worker.schedule(lambda: s.request(n))

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        self.worker.dispose()
