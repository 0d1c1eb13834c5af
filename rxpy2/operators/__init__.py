"""The supported API for writing operators: what rxpy2's own operators are built from.

``rxpy2.internal`` is private (its names may change); this module is public and
stable. Everything a custom operator needs is here:

* :class:`OperatorSubscriber`: the base of an operator's subscriber (typed
  upstream, §2.13 checks, ``on_subscribe``/``request``/``cancel``/``fail``,
  one terminal signal);
* :class:`Drain`: the drain/serialization primitive (``enter()``: you own the
  drain; ``leave()``: run again?), used by every operator that serializes
  emissions or drains a queue; :data:`DRAIN_BACKEND` says which backend runs;
* demand arithmetic: :func:`add_cap`, :func:`multiply_cap`, :func:`add_request`,
  :func:`produced`, :func:`validate_request`, deferred requests
  (:func:`deferred_request`, :func:`deferred_set_once`), and the atomics they act on;
* queues: :class:`SpscArrayQueue`, :class:`SpscLinkedArrayQueue`, :class:`MpscLinkedQueue`;
* fusion: :class:`FusionMode`, :class:`QueueSubscription`,
  :class:`ConditionalSubscriber`, :class:`ScalarCallable`, :class:`DirectSink` (a
  subscriber's function called per item in place of ``on_next``);
* the patterns of the operator guide as classes: :class:`SinglePostCompleteSubscriber`
  (emit one last value after completion, under demand), :class:`DeferredScalarSubscription`
  (one value, whenever it and a request are both there), :class:`SubscriptionArbiter`
  (switch upstreams, keep the demand), :class:`HalfSerializer` (``on_next`` from one
  thread, terminal signals from any), :class:`AtomicThrowable` (collect errors once);
* argument checks (:func:`require_callable`, :func:`require_positive`, ...), the
  :data:`ABSENT` sentinel and :data:`BUFFER_SIZE`;
* :func:`subscribe_tail`: subscribe upstream as the last act of ``subscribe_actual``
  without growing the stack.

See ``docs/operator-authoring.md`` for worked examples and how to verify an
operator with the TCK (:mod:`rxpy2.tck`) and the test kit (:mod:`rxpy2.testing`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rxpy2.exceptions import MissingBackpressureException, ProtocolViolationException
    from rxpy2.internal.atomic import AtomicBoolean, AtomicInteger, AtomicLong, AtomicReference
    from rxpy2.internal.fuseable import (
        Callable,
        ConditionalSubscriber,
        DirectSink,
        FusionMode,
        QueueSubscription,
        ScalarCallable,
    )
    from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
    from rxpy2.internal.helpers.exception_helper import AtomicThrowable
    from rxpy2.internal.helpers.half_serializer import HalfSerializer
    from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
    from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
    from rxpy2.internal.queues import MpscLinkedQueue, SpscArrayQueue, SpscLinkedArrayQueue
    from rxpy2.internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
    from rxpy2.internal.subscriptions.arbiter import SubscriptionArbiter
    from rxpy2.internal.subscriptions.deferred_scalar import DeferredScalarSubscription
    from rxpy2.internal.subscriptions.empty import EmptySubscription
    from rxpy2.operators.arguments import (
        ABSENT,
        BUFFER_SIZE,
        require,
        require_callable,
        require_non_negative,
        require_positive,
        require_publisher,
        require_scheduler,
    )
    from rxpy2.operators.demand import (
        add_cap,
        add_request,
        deferred_request,
        deferred_set_once,
        multiply_cap,
        produced,
        validate_request,
    )
    from rxpy2.operators.drain import BACKEND as DRAIN_BACKEND
    from rxpy2.operators.drain import Drain
    from rxpy2.operators.subscriber import (
        UNSUBSCRIBED,
        OperatorSubscriber,
        null_error,
        null_item,
        null_subscription,
        validate_upstream,
    )
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
    "null_subscription",
    "produced",
    "require",
    "require_callable",
    "require_non_negative",
    "require_positive",
    "require_publisher",
    "require_scheduler",
    "subscribe_tail",
    "validate_request",
    "validate_upstream",
]

# Loaded on first use: importing rxpy2 (whose Flowable uses rxpy2.operators.arguments)
# must not load every helper module.
_LAZY: dict[str, tuple[str, str]] = {
    "MissingBackpressureException": ("rxpy2.exceptions", "MissingBackpressureException"),
    "ProtocolViolationException": ("rxpy2.exceptions", "ProtocolViolationException"),
    "AtomicBoolean": ("rxpy2.internal.atomic", "AtomicBoolean"),
    "AtomicInteger": ("rxpy2.internal.atomic", "AtomicInteger"),
    "AtomicLong": ("rxpy2.internal.atomic", "AtomicLong"),
    "AtomicReference": ("rxpy2.internal.atomic", "AtomicReference"),
    "Callable": ("rxpy2.internal.fuseable", "Callable"),
    "ConditionalSubscriber": ("rxpy2.internal.fuseable", "ConditionalSubscriber"),
    "DirectSink": ("rxpy2.internal.fuseable", "DirectSink"),
    "FusionMode": ("rxpy2.internal.fuseable", "FusionMode"),
    "QueueSubscription": ("rxpy2.internal.fuseable", "QueueSubscription"),
    "ScalarCallable": ("rxpy2.internal.fuseable", "ScalarCallable"),
    "BackpressureHelper": ("rxpy2.internal.helpers.backpressure_helper", "BackpressureHelper"),
    "AtomicThrowable": ("rxpy2.internal.helpers.exception_helper", "AtomicThrowable"),
    "HalfSerializer": ("rxpy2.internal.helpers.half_serializer", "HalfSerializer"),
    "subscribe_tail": ("rxpy2.internal.helpers.subscribe_loop", "subscribe_tail"),
    "CANCELLED": ("rxpy2.internal.helpers.subscription_helper", "CANCELLED"),
    "SubscriptionHelper": ("rxpy2.internal.helpers.subscription_helper", "SubscriptionHelper"),
    "MpscLinkedQueue": ("rxpy2.internal.queues", "MpscLinkedQueue"),
    "SpscArrayQueue": ("rxpy2.internal.queues", "SpscArrayQueue"),
    "SpscLinkedArrayQueue": ("rxpy2.internal.queues", "SpscLinkedArrayQueue"),
    "SinglePostCompleteSubscriber": ("rxpy2.internal.subscribers.single_post_complete", "SinglePostCompleteSubscriber"),
    "SubscriptionArbiter": ("rxpy2.internal.subscriptions.arbiter", "SubscriptionArbiter"),
    "DeferredScalarSubscription": ("rxpy2.internal.subscriptions.deferred_scalar", "DeferredScalarSubscription"),
    "EmptySubscription": ("rxpy2.internal.subscriptions.empty", "EmptySubscription"),
    "ABSENT": ("rxpy2.operators.arguments", "ABSENT"),
    "BUFFER_SIZE": ("rxpy2.operators.arguments", "BUFFER_SIZE"),
    "require": ("rxpy2.operators.arguments", "require"),
    "require_callable": ("rxpy2.operators.arguments", "require_callable"),
    "require_non_negative": ("rxpy2.operators.arguments", "require_non_negative"),
    "require_positive": ("rxpy2.operators.arguments", "require_positive"),
    "require_publisher": ("rxpy2.operators.arguments", "require_publisher"),
    "require_scheduler": ("rxpy2.operators.arguments", "require_scheduler"),
    "DRAIN_BACKEND": ("rxpy2.operators.drain", "BACKEND"),
    "Drain": ("rxpy2.operators.drain", "Drain"),
    "UNSUBSCRIBED": ("rxpy2.operators.subscriber", "UNSUBSCRIBED"),
    "OperatorSubscriber": ("rxpy2.operators.subscriber", "OperatorSubscriber"),
    "null_error": ("rxpy2.operators.subscriber", "null_error"),
    "null_item": ("rxpy2.operators.subscriber", "null_item"),
    "null_subscription": ("rxpy2.operators.subscriber", "null_subscription"),
    "validate_upstream": ("rxpy2.operators.subscriber", "validate_upstream"),
    "LONG_MAX": ("rxpy2.reactivestreams", "LONG_MAX"),
    "add_cap": ("rxpy2.operators.demand", "add_cap"),
    "add_request": ("rxpy2.operators.demand", "add_request"),
    "deferred_request": ("rxpy2.operators.demand", "deferred_request"),
    "deferred_set_once": ("rxpy2.operators.demand", "deferred_set_once"),
    "multiply_cap": ("rxpy2.operators.demand", "multiply_cap"),
    "produced": ("rxpy2.operators.demand", "produced"),
    "validate_request": ("rxpy2.operators.demand", "validate_request"),
}


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'rxpy2.operators' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
