"""The setup, terminal and cancel pieces shared by queue-drain operators.

A queue-drain operator serializes its emissions in one drain loop guarded by a
:class:`~rxpy2._internal.drain.Drain` (``gate``); everything else only records state and
calls ``drain()``. These pieces are that "everything else" (the drain loops stay in the
operators): :class:`DrainTerminalsMixin` (``on_error``/``on_complete``),
:class:`DrainSubscriptionMixin` (``request``/``cancel``/``drain``), :func:`fuse_upstream`
(the fusion negotiation) and :func:`missing_backpressure`.

What each does and who uses them: docs/architecture.md, "Queue-drain pieces".
"""

from __future__ import annotations

from typing import Any
from typing import Protocol

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.drain import Drain
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.demand import add_request
from rxpy2._internal.helpers.demand import validate_request
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_error
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import Subscription

__all__ = ["DrainSubscriptionMixin", "DrainTerminalsMixin", "fuse_upstream",
           "missing_backpressure"]


def missing_backpressure(operator: str, capacity: int | None = None,
                         size_param: str = "prefetch",
                         inner: bool = False) -> MissingBackpressureException:
    """The error for an item that finds ``operator``'s bounded queue (of ``capacity``,
    set by its ``size_param`` argument) full: the upstream (``inner``: an inner
    Publisher) emitted more than it was asked for."""
    return MissingBackpressureException.queue_full(operator, capacity, size_param, inner)


def fuse_upstream(s: Subscription, prefetch: int, mode: int = ANY | BOUNDARY) -> tuple[int, Any]:
    """Negotiate fusion with the upstream ``s``: ``(source_mode, queue)``.

    A ``QueueSubscription`` is asked for ``mode``: SYNC or ASYNC makes ``s``
    itself the queue (SYNC: the caller polls it and never requests; ASYNC: the
    caller still requests ``prefetch``). Otherwise ``(NONE, SpscArrayQueue(prefetch))``.
    The caller then signals its own subscriber(s) and requests.
    """
    if mode and isinstance(s, QueueSubscription):
        m = s.request_fusion(mode)
        if m == SYNC or m == ASYNC:
            return m, s
    return NONE, SpscArrayQueue(prefetch)


class _Terminals(Protocol):
    done: bool
    error: BaseException | None

    def drain(self) -> None: ...


class _Requested(Protocol):
    requested: AtomicLong

    def drain(self) -> None: ...


class _Cancelled(Protocol):
    gate: Drain
    cancelled: bool

    def cancel_upstream(self) -> None: ...

    def cleanup(self) -> None: ...


class _Drained(Protocol):
    gate: Drain

    def drain_loop(self) -> None: ...


class DrainTerminalsMixin:
    """``on_error``/``on_complete`` of a subscriber whose drain delivers the terminal signal.

    The class provides ``done``, ``error`` and ``drain()`` (declared here as
    annotations and in the ``self`` type only, so nothing shadows them in the MRO).
    """

    __slots__ = ()

    done: bool
    error: BaseException | None

    def on_error(self: _Terminals, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self: _Terminals) -> None:
        if self.done:
            return
        self.done = True
        self.drain()


class DrainSubscriptionMixin:
    """``request``/``cancel``/``drain`` of the Subscription a drain loop emits under.

    The class provides ``requested`` (AtomicLong), ``gate`` (a Drain),
    ``cancelled`` (plain flag), ``drain_loop()`` (the caller owns ``gate`` and
    releases it with ``leave()``),
    ``cancel_upstream()`` and ``cleanup()`` (drop what is buffered: run by
    whoever holds the drain after a cancel); they are only declared here, in the
    ``self`` type (each method's own: a class that writes its own ``drain`` needs no
    ``drain_loop``).
    """

    __slots__ = ()

    def request(self: _Requested, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.drain()

    def cancel(self: _Cancelled) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.cancel_upstream()
        if self.gate.enter():
            self.cleanup()  # no drain running: the cleanup is ours; never leave (§3.7)
        # else the owner's next pass sees ``cancelled`` and cleans up

    def drain(self: _Drained) -> None:
        if self.gate.enter():
            self.drain_loop()
