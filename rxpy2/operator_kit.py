"""The supported API for writing operators: what rxpy2's own operators are built from.

``rxpy2.internal`` is private; this module is public and stable. It holds:

* :class:`OperatorSubscriber`: the base of an operator's subscriber (typed upstream,
  §2.13 checks, ``request``/``cancel``/``fail``, one terminal signal);
* :class:`Drain`: the drain/serialization primitive (``enter()``: you own the
  drain; ``leave()``: run again?); :data:`DRAIN_BACKEND` says which backend runs;
* demand arithmetic: :func:`add_cap`, :func:`multiply_cap`, :func:`add_request`,
  :func:`produced`, :func:`validate_request`, deferred requests
  (:func:`deferred_request`, :func:`deferred_set_once`), and the atomics they act on;
* queues: :class:`SpscArrayQueue`, :class:`SpscLinkedArrayQueue`, :class:`MpscLinkedQueue`;
* fusion: :class:`FusionMode`, :class:`QueueSubscription`,
  :class:`ConditionalSubscriber`, :class:`ScalarCallable`, :class:`DirectSink` (a
  subscriber's function called per item in place of ``on_next``);
* the operator guide's patterns: :class:`SinglePostCompleteSubscriber`,
  :class:`DeferredScalarSubscription`, :class:`SubscriptionArbiter`,
  :class:`HalfSerializer`, :class:`AtomicThrowable`;
* argument checks (:func:`require_callable`, :func:`require_positive`, ...), the
  :data:`ABSENT` sentinel and :data:`BUFFER_SIZE`;
* :func:`subscribe_tail`: subscribe upstream without growing the stack.

Each name's use (table) and worked examples: ``docs/operator-authoring.md``, "What
``rxpy2.operator_kit`` gives you"; verifying with :mod:`rxpy2.tck` and :mod:`rxpy2.testing` too.
"""

from __future__ import annotations

from rxpy2.exceptions import MissingBackpressureException, ProtocolViolationException
from rxpy2.internal.arguments import (
    ABSENT,
    BUFFER_SIZE,
    require,
    require_callable,
    require_duration,
    require_non_negative,
    require_positive,
    require_publisher,
    require_scheduler,
)
from rxpy2.internal.atomic import AtomicBoolean, AtomicInteger, AtomicLong, AtomicReference
from rxpy2.internal.drain import DRAIN_BACKEND, Drain
from rxpy2.internal.fuseable import (
    Callable,
    ConditionalSubscriber,
    DirectSink,
    FusionMode,
    QueueSubscription,
    ScalarCallable,
)
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.demand import (
    add_cap,
    add_request,
    deferred_request,
    deferred_set_once,
    multiply_cap,
    produced,
    validate_request,
)
from rxpy2.internal.helpers.exception_helper import AtomicThrowable
from rxpy2.internal.helpers.half_serializer import HalfSerializer
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.helpers.subscription_helper import CANCELLED, UNSUBSCRIBED, SubscriptionHelper
from rxpy2.internal.queues import MpscLinkedQueue, SpscArrayQueue, SpscLinkedArrayQueue
from rxpy2.internal.subscribers.operator_subscriber import (
    OperatorSubscriber,
    null_error,
    null_item,
    null_or_late_error,
    null_or_late_item,
    null_subscription,
    validate_upstream,
)
from rxpy2.internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2.internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2.internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2.internal.subscriptions.empty import EmptySubscription
from rxpy2.reactivestreams import LONG_MAX

__all__ = [
    "ABSENT",
    "BUFFER_SIZE",
    "CANCELLED",
    "DRAIN_BACKEND",
    "LONG_MAX",
    "UNSUBSCRIBED",
    "AtomicBoolean",
    "AtomicInteger",
    "AtomicLong",
    "AtomicReference",
    "AtomicThrowable",
    "BackpressureHelper",
    "Callable",
    "ConditionalSubscriber",
    "DeferredScalarSubscription",
    "DirectSink",
    "Drain",
    "EmptySubscription",
    "FusionMode",
    "HalfSerializer",
    "MissingBackpressureException",
    "MpscLinkedQueue",
    "OperatorSubscriber",
    "ProtocolViolationException",
    "QueueSubscription",
    "ScalarCallable",
    "SinglePostCompleteSubscriber",
    "SpscArrayQueue",
    "SpscLinkedArrayQueue",
    "SubscriptionArbiter",
    "SubscriptionHelper",
    "add_cap",
    "add_request",
    "deferred_request",
    "deferred_set_once",
    "multiply_cap",
    "null_error",
    "null_item",
    "null_or_late_error",
    "null_or_late_item",
    "null_subscription",
    "produced",
    "require",
    "require_callable",
    "require_duration",
    "require_non_negative",
    "require_positive",
    "require_publisher",
    "require_scheduler",
    "subscribe_tail",
    "validate_request",
    "validate_upstream",
]
