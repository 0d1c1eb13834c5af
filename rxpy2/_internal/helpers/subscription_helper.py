"""Subscription bookkeeping: the CANCELLED sentinel, validation, deferred request/set."""

from __future__ import annotations

import operator

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.exceptions import ProtocolViolationException
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


def _as_int(n: object) -> int | None:
    """``n`` as an int: an int, or an integer type with ``__index__`` (``numpy.int64``)
    converted with ``operator.index``; ``None`` for anything else. ``bool`` is not one
    (``request(True)`` is a bug, not 1), nor is a float, a str or ``None``: Java's ``long``
    cannot be any of these, and taking them as demand lets a source emit everything."""
    if type(n) is int:
        return n
    if isinstance(n, bool) or not hasattr(type(n), "__index__"):
        return None
    try:
        return operator.index(n)  # type: ignore[arg-type]
    except Exception:  # an __index__ that raises: not an int
        return None


def _request_amount(n: object) -> int:
    """``n`` as an int when it is a valid request amount, else 0 (§3.9)."""
    if type(n) is int:  # the fast path: request() is per batch, still keep it cheap
        return n if n > 0 else 0
    i = _as_int(n)
    return i if i is not None and i > 0 else 0


def _bad_request(n: object) -> Exception:
    i = _as_int(n)
    if i is None:  # Python-only input
        return TypeError(f"§3.9 violated: request amount must be an int, not {type(n).__name__}")
    return ValueError(f"§3.9 violated: positive request amount required but it was {i}")


class SubscriptionHelper:
    """Static helpers over a Subscription field or an ``AtomicReference`` of one."""

    __slots__ = ()

    CANCELLED = CANCELLED

    @staticmethod
    def request_amount(n: object) -> int:
        """``n`` as an int when it is a valid request amount (a positive int, or an
        integer type converted with ``operator.index``; not ``bool``), else 0. For the
        Subscriptions that signal a bad request downstream themselves (§3.9 to the
        letter): ``0`` means cancel and ``on_error(bad_request(n))``."""
        return _request_amount(n)

    @staticmethod
    def bad_request(n: object) -> Exception:
        """The error an invalid request ``n`` is reported with (§3.9): ``ValueError``
        for a non-positive int, ``TypeError`` naming the type for anything that is not
        an int (a float, a str, ``None``, a ``bool``)."""
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
    def validate_request(n: object) -> int:
        """The request ``n`` as a positive int, or 0 (falsy) after reporting the §3.9
        violation to :func:`rxpy2.plugins.on_error` (the relaxed form): a non-positive
        int is a ``ValueError``, anything that is not an int (``bool``, float, str,
        ``None``) a ``TypeError``. Use the result, not ``n``:
        ``if (n := validate_request(n)):``."""
        if type(n) is int and n > 0:  # the fast path
            return n
        r = _request_amount(n)
        if r == 0:
            plugins.on_error(_bad_request(n))
        return r

    @staticmethod
    def report_subscription_set() -> None:
        """Report a second Subscription for one subscriber to ``plugins.on_error`` (§2.5)."""
        plugins.on_error(ProtocolViolationException("§2.5 violated: Subscription already set!"))

    @staticmethod
    def report_more_produced(n: int) -> None:
        """Report to ``plugins.on_error`` that ``n`` more items were emitted than requested."""
        plugins.on_error(ProtocolViolationException(f"More produced than requested: {n}"))

    @staticmethod
    def is_cancelled(s: Subscription | None) -> bool:
        """Return True when ``s`` is the CANCELLED mark, i.e. the reference holding it was
        cancelled."""
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
    def request(ref: AtomicReference[Subscription], n: int) -> None:
        """Pass ``request(n)`` to the Subscription in ``ref`` once there is one (before it,
        nothing is asked for: the subscriber requests in ``on_subscribe``)."""
        s = ref.get()
        if s is not None:
            s.request(n)

    @staticmethod
    def deferred_request(ref: AtomicReference[Subscription], requested: AtomicLong,
                         n: int) -> None:
        """Request ``n`` now if the Subscription is there, else keep it for deferred_set_once."""
        s = ref.get()
        if s is not None:
            s.request(n)
        elif n := SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(requested, n)
            s = ref.get()
            if s is not None:  # it arrived meanwhile: hand over what we accumulated
                r = requested.get_and_set(0)
                if r != 0:
                    s.request(r)
