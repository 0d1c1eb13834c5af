"""SubscriptionArbiter: one downstream Subscription over a sequence of upstream ones.

Used where the upstream changes while demand must carry over (``concat``,
``retry``, ``repeat``, ``switch_if_empty``, ``on_error_resume_next`` ...): the
arbiter keeps the outstanding demand; a new upstream set with
:meth:`set_subscription` receives what is left; the operator reports what it
emitted with :meth:`produced` before switching. All three calls may come from
any thread; they are serialized with a :class:`~rxpy2._internal.drain.Drain`
(a call that does not get the drain leaves its part in a ``missed_*`` field;
the owner folds it in: a direct pass ends by checking those fields (and
``set_subscription`` starts by it), and runs the drain loop when they, or
``leave()``, show something).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.demand import add_cap
from rxpy2._internal.helpers.demand import add_request
from rxpy2._internal.helpers.demand import validate_request
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription

if TYPE_CHECKING:
    from rxpy2._internal.drain import Drain

__all__ = ["SubscriptionArbiter"]



class SubscriptionArbiter(Subscription):
    """Arbitrates demand between a downstream and successive upstream Subscriptions.

    An operator whose upstream changes over time (``concat``, ``retry``,
    ``repeat``, ``switch_if_empty`` ...) hands the arbiter downstream as the
    Subscription, then:

    * :meth:`set_subscription` with each new upstream: it receives the demand not
      yet satisfied (the previous one is cancelled when ``cancel_on_replace``);
    * :meth:`produced` with the number of items emitted from the current upstream,
      before switching to the next one;
    * ``request``/``cancel`` come from the downstream.

    All of these may be called from any thread; they never run concurrently
    (one :class:`~rxpy2._internal.drain.Drain`), and requests to an upstream are
    made outside the serialized section. ``cancel`` cancels the current upstream
    and any later one.
    """

    # no __slots__: operators subclass it and add their own fields

    def __init__(self, cancel_on_replace: bool = True) -> None:
        self.arbiter_actual: Subscription | None = None
        self.arbiter_requested: int = 0
        self.missed_subscription: AtomicReference[Subscription] = AtomicReference()
        self.missed_requested: AtomicLong = AtomicLong()
        self.missed_produced: AtomicLong = AtomicLong()
        # imported here: rxpy2.operator_kit (the package of drain) imports this module
        from rxpy2._internal.drain import Drain

        self.arbiter_gate: Drain = Drain()
        self.cancel_on_replace: bool = cancel_on_replace
        self.unbounded: bool = False
        self.cancelled: bool = False

    def set_subscription(self, s: Subscription) -> None:
        """Switch to upstream ``s``; it gets the demand not yet satisfied."""
        if self.cancelled:
            s.cancel()
            return
        gate = self.arbiter_gate
        if gate.enter():
            if self._pending():  # the new upstream's demand must count them: fold first
                ms = self.missed_subscription.get_and_set(s)
                if ms is not None and self.cancel_on_replace:
                    ms.cancel()
                self._drain_loop()
                return
            if self.cancelled:
                # cancel() ran its whole drain between the check above and here:
                # nobody else would cancel ``s`` any more
                s.cancel()
                self._release()
                return
            a = self.arbiter_actual
            if a is not None and self.cancel_on_replace:
                a.cancel()
            self.arbiter_actual = s
            r = self.arbiter_requested
            self._release()
            if r != 0:
                s.request(r)
            return
        ms = self.missed_subscription.get_and_set(s)
        if ms is not None and self.cancel_on_replace:
            ms.cancel()
        self._drain()

    def request(self, n: int) -> None:
        if not (n := validate_request(n)) or self.unbounded:
            return
        if self.arbiter_gate.enter():
            r = self.arbiter_requested
            if r != LONG_MAX:
                r = add_cap(r, n)
                self.arbiter_requested = r
                if r == LONG_MAX:
                    self.unbounded = True
            a = self.arbiter_actual
            self._release()
            if a is not None:
                a.request(n)
            return
        add_request(self.missed_requested, n)
        self._drain()

    def produced(self, n: int) -> None:
        """Report ``n`` items emitted from the current upstream."""
        if self.unbounded:
            return
        if self.arbiter_gate.enter():
            r = self.arbiter_requested
            if r != LONG_MAX:
                u = r - n
                if u < 0:
                    SubscriptionHelper.report_more_produced(u)
                    u = 0
                self.arbiter_requested = u
            self._release()
            return
        add_request(self.missed_produced, n)
        self._drain()

    def _pending(self) -> bool:
        """Something left by calls that did not get the drain (read at the start of a
        direct pass: a call whose ``enter()`` overlapped ours is covered by our pass)."""
        return (self.missed_subscription.get() is not None or self.missed_requested.get() != 0
                or self.missed_produced.get() != 0)

    def _release(self) -> None:
        """End a direct pass: run the drain loop if anything was signalled meanwhile."""
        if self._pending() or self.arbiter_gate.leave():
            self._drain_loop()

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self._drain()

    def is_cancelled(self) -> bool:
        """Return True once :meth:`cancel` was called."""
        return self.cancelled

    def is_unbounded(self) -> bool:
        """Return True once the downstream's demand reached ``LONG_MAX``: from then on requests
        and :meth:`produced` are not counted."""
        return self.unbounded

    def _drain(self) -> None:
        if self.arbiter_gate.enter():
            self._drain_loop()

    def _drain_loop(self) -> None:
        """The owner's passes (the caller owns ``arbiter_gate``); releases it at the end."""
        leave = self.arbiter_gate.leave
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
                    u = add_cap(r, mr)
                    if u != LONG_MAX:
                        v = u - mp
                        if v < 0:
                            SubscriptionHelper.report_more_produced(v)
                            v = 0
                        r = v
                    else:
                        r = u
                    self.arbiter_requested = r
                    if r == LONG_MAX:
                        self.unbounded = True
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
                    request_amount = add_cap(request_amount, mr)
                    request_target = a
            if not leave():
                if request_amount != 0 and request_target is not None:
                    request_target.request(request_amount)
                return

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else "active"
        r = "unbounded" if self.unbounded else self.arbiter_requested
        return f"{type(self).__name__}({state}, requested={r})"
