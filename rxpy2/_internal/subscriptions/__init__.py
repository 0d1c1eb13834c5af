"""Ready-made Subscriptions (RxJava 2's ``internal.subscriptions``)."""

from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2._internal.subscriptions.basic import BasicQueueSubscription
from rxpy2._internal.subscriptions.basic import BooleanSubscription
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2._internal.subscriptions.scalar import ScalarSubscription

__all__ = [
    "BasicQueueSubscription",
    "BooleanSubscription",
    "DeferredScalarSubscription",
    "EmptySubscription",
    "ScalarSubscription",
    "SubscriptionArbiter",
]
