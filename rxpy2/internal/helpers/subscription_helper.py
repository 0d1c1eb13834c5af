"""Subscription bookkeeping: the CANCELLED sentinel, validation, deferred request/set."""

from __future__ import annotations

from rxpy2 import plugins
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.internal.atomic import AtomicLong, AtomicReference
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.reactivestreams import Subscription

__all__ = ["CANCELLED", "UNSUBSCRIBED", "NoopSubscription", "SubscriptionHelper", "null_subscription"]


def null_subscription() -> TypeError:
    """The §2.13 error for ``on_subscribe(None)``, raised to the caller."""
    return TypeError("§2.13 violated: on_subscribe(None): the Subscription must not be None")


class NoopSubscription(Subscription):
    """A stateless Subscription that ignores ``request`` and ``cancel``; its ``repr``
    is the class attribute ``NAME``. The base of the placeholders a field holds
    instead of ``None`` (:data:`CANCELLED`, ``UNSUBSCRIBED``)."""

    __slots__ = ()

    NAME = "NoopSubscription"

    def request(self, n: int) -> None:
        pass

    def cancel(self) -> None:
        pass

    def __repr__(self) -> str:
        return self.NAME


class _Unsubscribed(NoopSubscription):
    """The upstream of a subscriber that has had no ``on_subscribe`` yet: requests and
    cancels go nowhere (nobody can make them: the downstream gets the operator only
    from ``on_subscribe``)."""

    __slots__ = ()

    NAME = "UNSUBSCRIBED"


#: The placeholder upstream before ``on_subscribe``: never ``None``, so no ``Optional``.
UNSUBSCRIBED: Subscription = _Unsubscribed()


class _Cancelled(NoopSubscription):
    """The sentinel stored in a subscription reference once it was cancelled."""

    __slots__ = ()

    NAME = "CANCELLED"


#: The unique "cancelled" Subscription: a reference holding it stays cancelled forever.
CANCELLED: Subscription = _Cancelled()


def _bad_request(n: int) -> ValueError:
    return ValueError(f"§3.9 violated: positive request amount required but it was {n}")


class SubscriptionHelper:
    """Static helpers over a Subscription field or an ``AtomicReference`` of one."""

    __slots__ = ()

    CANCELLED = CANCELLED

    @staticmethod
    def bad_request(n: int) -> ValueError:
        """The error a non-positive request ``n`` is reported with (§3.9)."""
        return _bad_request(n)

    @staticmethod
    def validate(current: Subscription | None, next_: Subscription | None) -> bool:
        """``on_subscribe`` check: True when ``current`` is unset and ``next_`` is valid.

        A second subscription is cancelled and reported (§2.5).
        """
        if next_ is None:
            plugins.on_error(TypeError("next subscription is None"))
            return False
        if current is not None:
            next_.cancel()
            SubscriptionHelper.report_subscription_set()
            return False
        return True

    @staticmethod
    def validate_request(n: int) -> bool:
        """True for ``n > 0``; otherwise report the §3.9 violation (the relaxed form)."""
        if n <= 0:
            plugins.on_error(_bad_request(n))
            return False
        return True

    @staticmethod
    def report_subscription_set() -> None:
        plugins.on_error(ProtocolViolationException("§2.5 violated: Subscription already set!"))

    @staticmethod
    def report_more_produced(n: int) -> None:
        plugins.on_error(ProtocolViolationException(f"More produced than requested: {n}"))

    @staticmethod
    def is_cancelled(s: Subscription | None) -> bool:
        return s is CANCELLED

    @staticmethod
    def set_once(ref: AtomicReference[Subscription], s: Subscription) -> bool:
        """Set ``s`` once (``None`` raises, §2.13); if already set, cancel ``s`` (and report
        unless cancelled, §2.5)."""
        if s is None:
            raise null_subscription()  # §2.13
        if not ref.compare_and_set(None, s):
            s.cancel()
            if ref.get() is not CANCELLED:
                SubscriptionHelper.report_subscription_set()
            return False
        return True

    @staticmethod
    def set_once_request(ref: AtomicReference[Subscription], s: Subscription, n: int) -> bool:
        """:meth:`set_once`, then ``s.request(n)`` when it was set."""
        if SubscriptionHelper.set_once(ref, s):
            s.request(n)
            return True
        return False

    @staticmethod
    def replace(ref: AtomicReference[Subscription], s: Subscription | None) -> bool:
        """Put ``s`` in place of the current one without cancelling that; False if cancelled."""
        if ref.get_and_set_unless(s, CANCELLED) is CANCELLED:  # one atomic operation
            if s is not None:
                s.cancel()
            return False
        return True

    @staticmethod
    def set(ref: AtomicReference[Subscription], s: Subscription | None) -> bool:
        """Put ``s`` in place of the current one and cancel that; False if cancelled."""
        current = ref.get_and_set_unless(s, CANCELLED)  # one atomic operation
        if current is CANCELLED:
            if s is not None:
                s.cancel()
            return False
        if current is not None:
            current.cancel()
        return True

    @staticmethod
    def cancel(ref: AtomicReference[Subscription]) -> bool:
        """Atomically swap in CANCELLED and cancel what was there; True if this call did it."""
        current = ref.get()
        if current is not CANCELLED:
            current = ref.get_and_set(CANCELLED)
            if current is not CANCELLED:
                if current is not None:
                    current.cancel()
                return True
        return False

    @staticmethod
    def deferred_set_once(ref: AtomicReference[Subscription], requested: AtomicLong,
                          s: Subscription) -> bool:
        """Set the late-arriving ``s`` and request what accumulated before it came."""
        if SubscriptionHelper.set_once(ref, s):
            r = requested.get_and_set(0)
            if r != 0:
                s.request(r)
            return True
        return False

    @staticmethod
    def deferred_request(ref: AtomicReference[Subscription], requested: AtomicLong,
                         n: int) -> None:
        """Request ``n`` now if the Subscription is there, else keep it for deferred_set_once."""
        s = ref.get()
        if s is not None:
            s.request(n)
        elif SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(requested, n)
            s = ref.get()
            if s is not None:  # it arrived meanwhile: hand over what we accumulated
                r = requested.get_and_set(0)
                if r != 0:
                    s.request(r)
