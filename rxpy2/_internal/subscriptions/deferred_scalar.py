"""DeferredScalarSubscription: one item computed later, emitted whenever both it and demand are there.

Public as :class:`rxpy2.operator_kit.DeferredScalarSubscription` (the "deferred
scalar" pattern of the operator guide). A subclass, or the operator holding one,
calls :meth:`DeferredScalarSubscription.complete` with the value (or signals
``downstream.on_complete()`` itself when there is none). Value and request may
arrive in either order, from different threads: a small state machine (one
atomic ``state``, changed by compare-and-set) emits the item exactly once, after
both, and never after ``cancel()``. Fuses in ASYNC mode (the consumer polls the
single value after the ``on_next`` "ready" signal). ``repr`` shows the state.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.demand import validate_request
from rxpy2.reactivestreams import Subscriber

__all__ = ["DeferredScalarSubscription"]

T = TypeVar("T")

NO_REQUEST_NO_VALUE = 0
NO_REQUEST_HAS_VALUE = 1
HAS_REQUEST_NO_VALUE = 2
HAS_REQUEST_HAS_VALUE = 3
CANCELLED = 4
FUSED_EMPTY = 8
FUSED_READY = 16
FUSED_CONSUMED = 32


class DeferredScalarSubscription(QueueSubscription[T], Generic[T]):
    """Call :meth:`complete` with the value (or signal ``downstream.on_complete()`` for none).

    ``downstream`` is the Subscriber, ``value`` the item kept until requested.
    """

    __slots__ = ("downstream", "value", "state")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream: Subscriber[T] = downstream
        self.value: T | None = None
        self.state: AtomicInteger = AtomicInteger(NO_REQUEST_NO_VALUE)

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        state = self.state
        while True:
            st = state.get()
            if st & ~NO_REQUEST_HAS_VALUE:  # requested already, cancelled, or fused
                return
            if st == NO_REQUEST_HAS_VALUE:
                if state.compare_and_set(NO_REQUEST_HAS_VALUE, HAS_REQUEST_HAS_VALUE):
                    v = self.value
                    if v is not None:
                        self.value = None
                        a = self.downstream
                        a.on_next(v)
                        if state.get() != CANCELLED:
                            a.on_complete()
                return
            if state.compare_and_set(NO_REQUEST_NO_VALUE, HAS_REQUEST_NO_VALUE):
                return

    def complete(self, v: T) -> None:
        """Emit ``v`` now if requested, or keep it until the first request."""
        state = self.state
        st = state.get()
        while True:
            if st == FUSED_EMPTY:
                self.value = v
                # a CAS, not a plain store: a concurrent cancel() must stay in force
                if not state.compare_and_set(FUSED_EMPTY, FUSED_READY):
                    self.value = None
                    return
                a = self.downstream
                a.on_next(v)
                if state.get() != CANCELLED:
                    a.on_complete()
                return
            if st & ~HAS_REQUEST_NO_VALUE:  # has a value already, cancelled, or fused
                return
            if st == HAS_REQUEST_NO_VALUE:
                self.value = None  # an earlier pass may have stored it; it goes out directly
                if not state.compare_and_set(HAS_REQUEST_NO_VALUE, HAS_REQUEST_HAS_VALUE):
                    return  # cancelled meanwhile
                a = self.downstream
                a.on_next(v)
                if state.get() != CANCELLED:
                    a.on_complete()
                return
            self.value = v
            if state.compare_and_set(NO_REQUEST_NO_VALUE, NO_REQUEST_HAS_VALUE):
                return
            st = state.get()
            if st == CANCELLED:
                self.value = None
                return

    def request_fusion(self, mode: int) -> int:
        if mode & ASYNC:
            self.state.lazy_set(FUSED_EMPTY)
            return ASYNC
        return NONE

    def poll(self) -> T | None:
        if self.state.get() == FUSED_READY:
            self.state.lazy_set(FUSED_CONSUMED)
            v = self.value
            self.value = None
            return v
        return None

    def is_empty(self) -> bool:
        """Return True unless fused and the value is ready to :meth:`poll`."""
        return self.state.get() != FUSED_READY

    def clear(self) -> None:
        """Drop the value, as consumed (a fused consumer's cancellation)."""
        self.state.lazy_set(FUSED_CONSUMED)
        self.value = None

    def cancel(self) -> None:
        self.state.set(CANCELLED)
        self.value = None

    def is_cancelled(self) -> bool:
        """Return True once :meth:`cancel` was called."""
        return self.state.get() == CANCELLED

    def try_cancel(self) -> bool:
        """Cancel; True if this call did it."""
        return self.state.get_and_set(CANCELLED) != CANCELLED

    def __repr__(self) -> str:
        st = self.state.get()
        return f"{type(self).__name__}({_STATE_NAMES.get(st, st)})"


_STATE_NAMES = {
    NO_REQUEST_NO_VALUE: "NO_REQUEST_NO_VALUE",
    NO_REQUEST_HAS_VALUE: "NO_REQUEST_HAS_VALUE",
    HAS_REQUEST_NO_VALUE: "HAS_REQUEST_NO_VALUE",
    HAS_REQUEST_HAS_VALUE: "HAS_REQUEST_HAS_VALUE",
    CANCELLED: "CANCELLED",
    FUSED_EMPTY: "FUSED_EMPTY",
    FUSED_READY: "FUSED_READY",
    FUSED_CONSUMED: "FUSED_CONSUMED",
}
