"""SinglePostCompleteSubscriber: relays items, then one extra item after upstream completes.

For operators that append a final item (``materialize``'s completion notice,
``on_error_return``'s fallback, ``default_if_empty``'s default ...). The final
item needs demand of its own: if there is none when upstream completes, it
waits for the next ``request``.

The state is one ``AtomicLong``: the low 63 bits are the outstanding demand,
the sign bit (``COMPLETE_MASK``) marks "completed". Each transition is one
atomic operation (no retry loop): :meth:`SinglePostCompleteSubscriber.complete`
sets the mark with ``get_and_or`` and emits at once if it found demand;
``request`` adds demand with ``get_and_add_cap_low`` (the mark stays) and emits
the waiting item if it found the mark with no demand, so exactly one of the two
emits it.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.helpers.demand import produced
from rxpy2._internal.helpers.demand import validate_request
from rxpy2._internal.subscribers.operator_subscriber import OperatorSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Subscriber

__all__ = ["SinglePostCompleteSubscriber"]

T = TypeVar("T")
R = TypeVar("R")

COMPLETE_MASK = LONG_MIN
REQUEST_MASK = LONG_MAX


class SinglePostCompleteSubscriber(OperatorSubscriber[T, R], Generic[T, R]):
    """Relays the upstream's items, then emits one final item of its own once there is demand.

    The protocol for a subclass:

    * for each item relayed downstream in ``on_next``, add one to ``self.produced``
      (the demand the final item needs is what is left after those);
    * when the upstream terminates, call :meth:`complete` with the final item
      (``on_error``/``on_complete`` of the subclass): it emits the item and
      ``on_complete`` now if the downstream has outstanding demand, otherwise the
      first later ``request`` does, on whatever thread that request comes from;
    * :meth:`on_drop` is called with a final item that arrives after the stream
      already completed (a protocol violation upstream).

    ``request`` forwards to the upstream until completion; ``cancel`` cancels it, and
    the final item is then never emitted: a request after the cancel is a no-op (§3.6),
    even one that finds the item waiting (RxJava 2.2.21 emits it then).
    """

    __slots__ = ("value", "produced", "state", "cancelled")

    done: bool  # OneTerminal's slot, also set here once the final item went downstream

    def __init__(self, downstream: Subscriber[R]) -> None:
        super().__init__(downstream)
        self.value: R | None = None
        self.produced: int = 0
        self.state: AtomicLong = AtomicLong()
        self.cancelled: bool = False

    def cancel(self) -> None:
        # ``value`` stays: a request racing this cancel may have passed its check and read it
        self.cancelled = True
        self.upstream.cancel()

    def complete(self, n: R) -> None:
        """Emit ``n`` and ``on_complete`` now if there is demand, else on the next request."""
        p = self.produced
        state = self.state
        if p != 0:
            produced(state, p)
        if state.get() & COMPLETE_MASK:
            self.on_drop(n)
            return
        if self.cancelled:  # §3.6: nothing more after a cancel
            return
        self.value = n  # before the mark: a request that sees the mark emits it
        r = state.get_and_or(COMPLETE_MASK)  # one atomic operation
        if r & COMPLETE_MASK:  # completed concurrently (a §1.3 violation upstream)
            self.on_drop(n)
            return
        if r & REQUEST_MASK:  # demand is there: we emit (a later request sees demand > 0)
            self.value = None
            self.done = True
            self.downstream.on_next(n)
            self.downstream.on_complete()
        # else: no demand yet; the next request finds exactly COMPLETE_MASK and emits

    def on_drop(self, n: R) -> None:
        """Hook: the final item could not be emitted (already completed)."""

    def request(self, n: int) -> None:
        if not (n := validate_request(n)) or self.cancelled:  # §3.6: a no-op after cancel
            return
        r = self.state.get_and_add_cap_low(n)  # one atomic operation; the mark stays
        if r & COMPLETE_MASK:
            if r == COMPLETE_MASK:  # completed, no demand before this one: we emit
                v = self.value
                self.value = None
                self.done = True
                self.downstream.on_next(v)  # type: ignore[arg-type]  # the value was set before the completion mark
                self.downstream.on_complete()
            return
        self.upstream.request(n)
