"""SubscriptionArbiter: one downstream Subscription over a sequence of upstream ones.

Used where the upstream changes while demand must carry over (``concat``,
``retry``, ``repeat``, ``switch_if_empty``, ``on_error_resume_next`` ...): the
arbiter keeps the outstanding demand; a new upstream set with
:meth:`set_subscription` receives what is left; the operator reports what it
emitted with :meth:`produced` before switching. All three calls may come from
any thread; they are serialized with a wip counter (a call that finds the
section busy leaves its part in a ``missed_*`` field for the drainer).
"""

from __future__ import annotations

from rxpy2.internal.atomic import AtomicInteger, AtomicLong, AtomicReference
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.reactivestreams import LONG_MAX, Subscription

__all__ = ["SubscriptionArbiter"]

_add_cap = BackpressureHelper.add_cap


class SubscriptionArbiter(Subscription):
    """Arbitrates demand between a downstream and successive upstream Subscriptions."""

    # no __slots__: operators subclass it and add their own fields

    def __init__(self, cancel_on_replace: bool = True) -> None:
        self.arbiter_actual: Subscription | None = None
        self.arbiter_requested = 0
        self.missed_subscription: AtomicReference[Subscription] = AtomicReference()
        self.missed_requested = AtomicLong()
        self.missed_produced = AtomicLong()
        self.arbiter_wip = AtomicInteger()
        self.cancel_on_replace = cancel_on_replace
        self.unbounded = False
        self.cancelled = False

    def set_subscription(self, s: Subscription) -> None:
        """Switch to upstream ``s``; it gets the demand not yet satisfied."""
        if self.cancelled:
            s.cancel()
            return
        wip = self.arbiter_wip
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            if self.cancelled:
                # cancel() ran its whole drain between the check above and here:
                # nobody else would cancel ``s`` any more
                s.cancel()
                if wip.decrement_and_get() != 0:
                    self._drain_loop()
                return
            a = self.arbiter_actual
            if a is not None and self.cancel_on_replace:
                a.cancel()
            self.arbiter_actual = s
            r = self.arbiter_requested
            if wip.decrement_and_get() != 0:
                self._drain_loop()
            if r != 0:
                s.request(r)
            return
        ms = self.missed_subscription.get_and_set(s)
        if ms is not None and self.cancel_on_replace:
            ms.cancel()
        self._drain()

    def request(self, n: int) -> None:
        if not SubscriptionHelper.validate_request(n) or self.unbounded:
            return
        wip = self.arbiter_wip
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            r = self.arbiter_requested
            if r != LONG_MAX:
                r = _add_cap(r, n)
                self.arbiter_requested = r
                if r == LONG_MAX:
                    self.unbounded = True
            a = self.arbiter_actual
            if wip.decrement_and_get() != 0:
                self._drain_loop()
            if a is not None:
                a.request(n)
            return
        BackpressureHelper.add(self.missed_requested, n)
        self._drain()

    def produced(self, n: int) -> None:
        """Report ``n`` items emitted from the current upstream."""
        if self.unbounded:
            return
        wip = self.arbiter_wip
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            r = self.arbiter_requested
            if r != LONG_MAX:
                u = r - n
                if u < 0:
                    SubscriptionHelper.report_more_produced(u)
                    u = 0
                self.arbiter_requested = u
            if wip.decrement_and_get() == 0:
                return
            self._drain_loop()
            return
        BackpressureHelper.add(self.missed_produced, n)
        self._drain()

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self._drain()

    def is_cancelled(self) -> bool:
        return self.cancelled

    def is_unbounded(self) -> bool:
        return self.unbounded

    def _drain(self) -> None:
        if self.arbiter_wip.get_and_increment() != 0:
            return
        self._drain_loop()

    def _drain_loop(self) -> None:
        missed = 1
        request_amount = 0
        request_target: Subscription | None = None
        while True:
            ms = self.missed_subscription.get()
            if ms is not None:
                ms = self.missed_subscription.get_and_set(None)
            mr = self.missed_requested.get()
            if mr != 0:
                mr = self.missed_requested.get_and_set(0)
            mp = self.missed_produced.get()
            if mp != 0:
                mp = self.missed_produced.get_and_set(0)
            a = self.arbiter_actual
            if self.cancelled:
                if a is not None:
                    a.cancel()
                    self.arbiter_actual = None
                if ms is not None:
                    ms.cancel()
                request_amount = 0  # nothing more goes upstream once cancelled
                request_target = None
            else:
                r = self.arbiter_requested
                if r != LONG_MAX:
                    u = _add_cap(r, mr)
                    if u != LONG_MAX:
                        v = u - mp
                        if v < 0:
                            SubscriptionHelper.report_more_produced(v)
                            v = 0
                        r = v
                    else:
                        r = u
                    self.arbiter_requested = r
                if ms is not None:
                    if a is not None and self.cancel_on_replace:
                        a.cancel()
                    self.arbiter_actual = ms
                    # ``r`` already counts every missed request so far: the new
                    # upstream gets exactly that, not r plus what an earlier pass
                    # of this loop meant for the upstream it replaces
                    request_amount = r
                    request_target = ms if r != 0 else None
                elif a is not None and mr != 0:
                    request_amount = _add_cap(request_amount, mr)
                    request_target = a
            missed = self.arbiter_wip.add_and_get(-missed)
            if missed == 0:
                if request_amount != 0 and request_target is not None:
                    request_target.request(request_amount)
                return
