"""Flowable.generate: a pull source; ``generator(state, emitter)`` is called once per unit of demand.

Each call may signal at most one ``on_next`` (a second one in the same call
fails the stream with ``ProtocolViolationException``) and/or a terminal signal,
and returns the next state. Each call uses one unit of demand, whether or not
it emitted. ``dispose_state`` runs exactly once: at completion, at an error, or
at cancellation; if it raises, the error goes to ``rxpy2.plugins.on_error``.

Only the ``request`` that moves the demand off zero runs the generator loop, so
a ``request`` from inside ``on_next`` adds demand to the running loop instead of
recursing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.emitter import Emitter
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableGenerate"]

T = TypeVar("T")
S = TypeVar("S")


class FlowableGenerate(Flowable[T], Generic[T, S]):
    __slots__ = ("initial_state", "generator", "dispose_state")

    def __init__(self, initial_state: Callable[[], S] | None,
                 generator: Callable[[S, Emitter[T]], S],
                 dispose_state: Callable[[S], Any] | None) -> None:
        self.initial_state = initial_state
        self.generator = generator
        self.dispose_state = dispose_state

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        state: Any = None
        supplier = self.initial_state
        if supplier is not None:
            try:
                state = supplier()
            except Exception as e:
                EmptySubscription.error(e, subscriber)
                return
        subscriber.on_subscribe(
            GeneratorSubscription(subscriber, self.generator, self.dispose_state, state))


class GeneratorSubscription(Emitter[T], Subscription, Generic[T, S]):
    """The downstream's Subscription and the generator's Emitter at once."""

    __slots__ = ("downstream", "generator", "dispose_state", "state", "requested",
                 "cancelled", "terminate", "has_next")

    def __init__(self, downstream: Subscriber[T], generator: Callable[[S, Emitter[T]], S],
                 dispose_state: Callable[[S], Any] | None, state: S) -> None:
        self.downstream = downstream
        self.generator = generator
        self.dispose_state = dispose_state
        self.state: Any = state  # None once disposed
        self.requested = AtomicLong()
        self.cancelled = False
        self.terminate = False
        self.has_next = False

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        requested = self.requested
        if add_request(requested, n) != 0:
            return  # a loop is running (maybe our caller, via on_next): it sees the new demand
        e = 0
        s = self.state
        f = self.generator
        while True:
            while e != n:
                if self.cancelled:
                    self.state = None
                    self._dispose(s)
                    return
                self.has_next = False
                try:
                    s = f(s, self)
                except Exception as ex:
                    self.cancelled = True
                    self.state = None
                    self.on_error(ex)
                    self._dispose(s)
                    return
                if self.terminate:
                    self.cancelled = True
                    self.state = None
                    self._dispose(s)
                    return
                e += 1
            n = requested.get()
            if e == n:
                self.state = s
                n = requested.add_and_get(-e)
                if n == 0:
                    return
                e = 0

    def _dispose(self, s: Any) -> None:
        call_reporting(self.dispose_state, s)

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            # with no loop running, this call owns the state; else the loop disposes it
            if add_request(self.requested, 1) == 0:
                s = self.state
                self.state = None
                self._dispose(s)

    # ---- Emitter, for the generator function
    def on_next(self, item: T) -> None:
        if self.terminate:
            return
        if self.has_next:
            self.on_error(ProtocolViolationException(
                "on_next already called in this generate turn"))
        elif item is None:
            self.on_error(TypeError("on_next called with None; None is never an item"))
        else:
            self.has_next = True
            self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if self.terminate:
            plugins.on_error(error)
            return
        if error is None:
            error = TypeError("on_error called with None")
        self.terminate = True
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if not self.terminate:
            self.terminate = True
            self.downstream.on_complete()

    def __repr__(self) -> str:
        return f"GeneratorSubscription(requested={self.requested.get()})"
