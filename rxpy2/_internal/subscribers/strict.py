"""StrictSubscriber: holds any plain Subscriber to the Reactive Streams spec to the letter.

``Flowable.subscribe`` wraps every Subscriber that is not a FlowableSubscriber
in one, so a user-written Subscriber gets the spec's guarantees even though the
operators inside use RxJava's relaxations:

* §1.3/§1.9: ``on_subscribe`` is signalled first: the upstream Subscription is
  set only after the wrapped ``on_subscribe`` returned, so requests made inside
  it are deferred and no ``on_next`` can overlap it; later signals go through a
  half-serializer, so a terminal signal from another thread never overlaps
  ``on_next``.
* §2.12/§2.5: a second ``on_subscribe`` cancels the new Subscription and ends
  the stream with a ProtocolViolationException.
* §3.9: ``request(n <= 0)`` cancels upstream and signals
  ``on_error(ValueError)``; a request that is not an int (``bool``, float, str,
  ``None``) the same with ``on_error(TypeError)``
  (:meth:`SubscriptionHelper.request_amount`).
* §2.3/§3.6: ``request``/``cancel`` after a terminal signal are no-ops (a
  non-positive request then is not reported either).
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.drain import Drain
from rxpy2._internal.helpers.demand import deferred_request
from rxpy2._internal.helpers.demand import deferred_set_once
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.half_serializer import HalfSerializedItems
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.operator_subscriber import null_error
from rxpy2._internal.subscribers.operator_subscriber import null_subscription
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["StrictSubscriber"]

T = TypeVar("T")


class StrictSubscriber(HalfSerializedItems, FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "error", "requested", "upstream", "once", "gate", "done")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.error = AtomicThrowable()
        self.requested = AtomicLong()
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.once = AtomicBoolean()
        self.gate = Drain()  # half-serializes on_next with the terminal signals
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        if self.once.compare_and_set(False, True):
            self.downstream.on_subscribe(self)
            deferred_set_once(self.upstream, self.requested, s)
        else:
            s.cancel()
            self.cancel()
            self.on_error(ProtocolViolationException("§2.12 violated: onSubscribe must be called at most once"))

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.done = True
        HalfSerializer.on_error(self.downstream, error, self.gate, self.error)

    def on_complete(self) -> None:
        self.done = True
        HalfSerializer.on_complete(self.downstream, self.gate, self.error)

    def request(self, n: int) -> None:
        if self.done:  # §2.3/§3.6: after a terminal signal requests are no-ops
            return
        r = SubscriptionHelper.request_amount(n)
        if r == 0:
            self.cancel()
            self.on_error(SubscriptionHelper.bad_request(n))  # §3.9
        else:
            deferred_request(self.upstream, self.requested, r)

    def cancel(self) -> None:
        if not self.done:
            SubscriptionHelper.cancel(self.upstream)
