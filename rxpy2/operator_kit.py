"""The supported API for writing operators: what rxpy2's own operators are built from.

``rxpy2._internal`` is private; this module is public and stable. It holds:

* :class:`OperatorSubscriber`: the base of an operator's subscriber (typed upstream,
  §2.13 checks, ``request``/``cancel``/``fail``, one terminal signal);
* :class:`Drain`: the drain/serialization primitive (``enter()``: you own the
  drain; ``leave()``: run again?); :data:`DRAIN_BACKEND` says which backend runs;
* demand arithmetic: :func:`add_cap`, :func:`multiply_cap`, :func:`add_request`,
  :func:`produced`, :func:`validate_request`, deferred requests
  (:func:`deferred_request`, :func:`deferred_set_once`), and the atomics they act on;
* queues: :class:`SpscArrayQueue`, :class:`SpscLinkedArrayQueue`, :class:`MpscLinkedQueue`;
* fusion: :class:`FusionMode`, :class:`QueueSubscription`,
  :class:`ConditionalSubscriber`, :class:`ScalarCallable`, and the capabilities a
  subscriber declares: :class:`DirectSink` (its function called per item in place of
  ``on_next``), :class:`ChecksItems` (its ``on_next`` checks §2.13 itself: a relaying
  stage hands it to its upstream with :func:`relay_on_next`), :class:`BatchSink` (takes
  several items in one call);
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

from rxpy2._internal.arguments import ABSENT
from rxpy2._internal.arguments import BUFFER_SIZE
from rxpy2._internal.arguments import require
from rxpy2._internal.arguments import require_callable
from rxpy2._internal.arguments import require_duration
from rxpy2._internal.arguments import require_non_negative
from rxpy2._internal.arguments import require_positive
from rxpy2._internal.arguments import require_publisher
from rxpy2._internal.arguments import require_scheduler
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.drain import DRAIN_BACKEND
from rxpy2._internal.drain import Drain
from rxpy2._internal.fuseable import BatchSink
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.fuseable import ChecksItems
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import DirectSink
from rxpy2._internal.fuseable import FusionMode
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2._internal.helpers.demand import add_cap
from rxpy2._internal.helpers.demand import add_request
from rxpy2._internal.helpers.demand import deferred_request
from rxpy2._internal.helpers.demand import deferred_set_once
from rxpy2._internal.helpers.demand import multiply_cap
from rxpy2._internal.helpers.demand import produced
from rxpy2._internal.helpers.demand import validate_request
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.operator_subscriber import OperatorSubscriber
from rxpy2._internal.subscribers.operator_subscriber import null_error
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_error
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_item
from rxpy2._internal.subscribers.operator_subscriber import null_subscription
from rxpy2._internal.subscribers.operator_subscriber import validate_upstream
from rxpy2._internal.subscribers.pass_through import relay_on_next
from rxpy2._internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.exceptions import ProtocolViolationException
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
    "BatchSink",
    "ChecksItems",
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
    "relay_on_next",
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
