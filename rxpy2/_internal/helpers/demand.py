"""Demand arithmetic for operator authors: RxJava's ``BackpressureHelper`` and the
request parts of ``SubscriptionHelper`` as functions (re-exported by :mod:`rxpy2.operator_kit`)."""

from __future__ import annotations

from typing import Final

from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper

__all__ = ["add_cap", "add_request", "deferred_request", "deferred_set_once", "multiply_cap",
           "produced", "validate_request"]

#: ``a + b`` capped at ``LONG_MAX`` (unbounded demand stays unbounded, §3.17).
add_cap: Final = BackpressureHelper.add_cap
#: ``a * b`` capped at ``LONG_MAX``.
multiply_cap: Final = BackpressureHelper.multiply_cap
#: Add ``n`` to an ``AtomicLong`` of demand, capped; returns the previous value.
add_request: Final = BackpressureHelper.add
#: Subtract ``n`` emitted items from an ``AtomicLong`` of demand unless unbounded; returns the new value.
produced: Final = BackpressureHelper.produced
#: ``n`` as a positive int, or 0 after the §3.9 ``ValueError`` (non-positive) or ``TypeError``
#: (not an int: ``bool``, float, str, ``None``) went to :func:`rxpy2.plugins.on_error`.
validate_request: Final = SubscriptionHelper.validate_request
#: Request ``n`` from the Subscription in ``ref``, or keep it until one arrives.
deferred_request: Final = SubscriptionHelper.deferred_request
#: Set the late Subscription into ``ref`` and request what accumulated before it.
deferred_set_once: Final = SubscriptionHelper.deferred_set_once
