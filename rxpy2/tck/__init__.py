"""The Reactive Streams TCK for Python (a port of the official TCK 1.0.4; see docs/tck.md).

It talks to the four interfaces of :mod:`rxpy2.reactivestreams` only, so it
verifies any Python Publisher/Subscriber/Processor that implements them.
"""

from rxpy2.tck.environment import BlackholeSubscriberWithSubscriptionSupport
from rxpy2.tck.environment import Latch
from rxpy2.tck.environment import ManualPublisher
from rxpy2.tck.environment import ManualSubscriber
from rxpy2.tck.environment import ManualSubscriberWithSubscriptionSupport
from rxpy2.tck.environment import Promise
from rxpy2.tck.environment import Receptacle
from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.environment import TestSubscriber
from rxpy2.tck.publisher import PublisherVerification
from rxpy2.tck.support import RuleResult
from rxpy2.tck.support import SkipRule
from rxpy2.tck.support import TestException
from rxpy2.tck.support import not_verified
from rxpy2.tck.support import untested
from rxpy2.tck.verification import Verification
from rxpy2.tck.verification import run_rule
from rxpy2.tck.verification import run_rules

# isort: split
# ---- subscriber and processor verifications (rxpy2/tck/subscriber_*.py, identity_processor.py)
from rxpy2.tck.helper_publisher import HelperPublisher
from rxpy2.tck.identity_processor import IdentityProcessorVerification
from rxpy2.tck.operators import ProbeDownstream
from rxpy2.tck.operators import RequestingDownstream
from rxpy2.tck.subscriber_blackbox import SubscriberBlackboxVerification
from rxpy2.tck.subscriber_whitebox import BlackboxSubscriberProxy
from rxpy2.tck.subscriber_whitebox import SubscriberPuppet
from rxpy2.tck.subscriber_whitebox import SubscriberWhiteboxVerification
from rxpy2.tck.subscriber_whitebox import WhiteboxSubscriberProbe
from rxpy2.tck.subscriber_whitebox import WhiteboxTestStage

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
