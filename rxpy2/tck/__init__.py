"""The Reactive Streams TCK for Python (a port of the official TCK 1.0.4; see docs/tck.md).

It talks to the four interfaces of :mod:`rxpy2.reactivestreams` only, so it
verifies any Python Publisher/Subscriber/Processor that implements them.
"""

from rxpy2.tck.environment import (
    BlackholeSubscriberWithSubscriptionSupport,
    Latch,
    ManualPublisher,
    ManualSubscriber,
    ManualSubscriberWithSubscriptionSupport,
    Promise,
    Receptacle,
    TestEnvironment,
    TestSubscriber,
)
from rxpy2.tck.publisher import PublisherVerification
from rxpy2.tck.support import (
    RuleResult,
    SkipRule,
    TestException,
    not_verified,
    untested,
)
from rxpy2.tck.verification import Verification, run_rule, run_rules

# isort: split
# ---- subscriber and processor verifications (rxpy2/tck/subscriber_*.py, identity_processor.py)
from rxpy2.tck.helper_publisher import HelperPublisher
from rxpy2.tck.identity_processor import IdentityProcessorVerification
from rxpy2.tck.operators import ProbeDownstream, RequestingDownstream
from rxpy2.tck.subscriber_blackbox import SubscriberBlackboxVerification
from rxpy2.tck.subscriber_whitebox import (
    BlackboxSubscriberProxy,
    SubscriberPuppet,
    SubscriberWhiteboxVerification,
    WhiteboxSubscriberProbe,
    WhiteboxTestStage,
)

__all__ = [
    "BlackholeSubscriberWithSubscriptionSupport",
    "Latch",
    "ManualPublisher",
    "ManualSubscriber",
    "ManualSubscriberWithSubscriptionSupport",
    "Promise",
    "PublisherVerification",
    "Receptacle",
    "RuleResult",
    "SkipRule",
    "TestEnvironment",
    "TestException",
    "TestSubscriber",
    "Verification",
    "not_verified",
    "run_rule",
    "run_rules",
    "untested",
    # ---- subscriber and processor verifications
    "ProbeDownstream",
    "RequestingDownstream",
    "BlackboxSubscriberProxy",
    "HelperPublisher",
    "IdentityProcessorVerification",
    "SubscriberBlackboxVerification",
    "SubscriberPuppet",
    "SubscriberWhiteboxVerification",
    "WhiteboxSubscriberProbe",
    "WhiteboxTestStage",
]
