"""Reusable Subscribers (RxJava 2's ``internal.subscribers``)."""

from rxpy2.internal.subscribers.basic_fuseable import (
    BasicFuseableConditionalSubscriber,
    BasicFuseableSubscriber,
)
from rxpy2.internal.subscribers.deferred_scalar import DeferredScalarSubscriber
from rxpy2.internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2.internal.subscribers.serialized import SerializedSubscriber
from rxpy2.internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2.internal.subscribers.strict import StrictSubscriber

__all__ = [
    "BasicFuseableConditionalSubscriber",
    "BasicFuseableSubscriber",
    "DeferredScalarSubscriber",
    "LambdaSubscriber",
    "SerializedSubscriber",
    "SinglePostCompleteSubscriber",
    "StrictSubscriber",
]
