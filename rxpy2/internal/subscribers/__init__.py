"""Reusable Subscribers (RxJava 2's ``internal.subscribers``)."""

from rxpy2.internal.subscribers.basic import BasicSubscriber
from rxpy2.internal.subscribers.basic_fuseable import (
    BasicFuseableConditionalSubscriber,
    BasicFuseableSubscriber,
)
from rxpy2.internal.subscribers.deferred_scalar import DeferredScalarSubscriber
from rxpy2.internal.subscribers.drain_support import (
    DrainSubscriptionMixin,
    DrainTerminalsMixin,
    fuse_upstream,
    missing_backpressure,
)
from rxpy2.internal.subscribers.inner_queued import (
    InnerQueuedSubscriber,
    InnerQueuedSubscriberSupport,
)
from rxpy2.internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2.internal.subscribers.prefetching_inner import PrefetchingInnerSubscriber
from rxpy2.internal.subscribers.serialized import SerializedSubscriber
from rxpy2.internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2.internal.subscribers.stable_prefetch import StablePrefetchSubscriber
from rxpy2.internal.subscribers.strict import StrictSubscriber
from rxpy2.internal.subscribers.to_observer import ItemOrMissingSubscriber, ToObserverSubscriber

__all__ = [
    "BasicFuseableConditionalSubscriber",
    "BasicFuseableSubscriber",
    "BasicSubscriber",
    "DeferredScalarSubscriber",
    "DrainSubscriptionMixin",
    "DrainTerminalsMixin",
    "InnerQueuedSubscriber",
    "InnerQueuedSubscriberSupport",
    "LambdaSubscriber",
    "PrefetchingInnerSubscriber",
    "SerializedSubscriber",
    "ItemOrMissingSubscriber",
    "SinglePostCompleteSubscriber",
    "StablePrefetchSubscriber",
    "StrictSubscriber",
    "ToObserverSubscriber",
    "fuse_upstream",
    "missing_backpressure",
]
