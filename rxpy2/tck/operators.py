"""Verifying an operator's subscriber with the Subscriber verifications.

An operator's subscriber does nothing on its own: it passes items to a downstream and
requests what that downstream asks for. These downstreams make it testable by the TCK::

    class TestMyOperatorWhitebox(SubscriberWhiteboxVerification):
        def create_subscriber(self, probe):
            return MyOperatorSubscriber(ProbeDownstream(probe), ...)

    class TestMyOperatorBlackbox(SubscriberBlackboxVerification):
        def create_subscriber(self):
            return MyOperatorSubscriber(RequestingDownstream(), ...)

:class:`ProbeDownstream` reports every signal to the whitebox probe;
:class:`RequestingDownstream` requests ``batch`` items at a time. More: docs/tck.md,
"Verifying an operator's subscriber".
"""

from __future__ import annotations

from typing import Any

from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.subscriber_whitebox import SubscriberPuppet
from rxpy2.tck.subscriber_whitebox import WhiteboxSubscriberProbe

__all__ = ["ProbeDownstream", "RequestingDownstream", "SubscriptionPuppet"]


class SubscriptionPuppet(SubscriberPuppet):
    """The puppet a whitebox probe gets: requests and cancels through ``subscription``
    (here the operator, as its downstream would)."""

    def __init__(self, subscription: Subscription) -> None:
        self.subscription = subscription

    def trigger_request(self, elements: int) -> None:
        """Call ``request(elements)`` on the subscription."""
        self.subscription.request(elements)

    def signal_cancel(self) -> None:
        """Call ``cancel()`` on the subscription."""
        self.subscription.cancel()


class ProbeDownstream(Subscriber[Any]):
    """The downstream of an operator under a whitebox verification (module docstring)."""

    def __init__(self, probe: WhiteboxSubscriberProbe[Any]) -> None:
        self.probe = probe
        self.operator: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        """Keep the operator's Subscription and register a :class:`SubscriptionPuppet` of it with the probe; a second one is ignored."""
        if self.operator is None:
            self.operator = s
            self.probe.register_on_subscribe(SubscriptionPuppet(s))

    def on_next(self, item: Any) -> None:
        """Register ``item`` with the probe."""
        self.probe.register_on_next(item)

    def on_error(self, error: BaseException) -> None:
        """Register ``error`` with the probe."""
        self.probe.register_on_error(error)

    def on_complete(self) -> None:
        """Register the completion with the probe."""
        self.probe.register_on_complete()


class RequestingDownstream(Subscriber[Any]):
    """The downstream of an operator under a blackbox verification: asks for ``batch``
    items at a time (module docstring)."""

    def __init__(self, batch: int = 1) -> None:
        if batch <= 0:
            raise ValueError(f"batch > 0 required but it was {batch}")
        self.batch = batch
        self.operator: Subscription | None = None
        self.received: int = 0

    def on_subscribe(self, s: Subscription) -> None:
        """Keep the operator's Subscription and request ``batch`` items; a second one is ignored."""
        if self.operator is None:
            self.operator = s
            s.request(self.batch)

    def on_next(self, item: Any) -> None:
        """Count the item; after every ``batch`` items, request ``batch`` more."""
        self.received += 1
        if self.received % self.batch == 0 and self.operator is not None:
            self.operator.request(self.batch)

    def on_error(self, error: BaseException) -> None:
        """Ignore the error: the blackbox verification checks the subscriber, not its downstream."""
        pass

    def on_complete(self) -> None:
        """Ignore the completion."""
        pass
