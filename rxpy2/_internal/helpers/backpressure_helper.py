"""Request accounting capped at ``LONG_MAX`` (unbounded), as the operator guide describes."""

from __future__ import annotations

from rxpy2._internal.atomic import AtomicLong
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN

__all__ = ["BackpressureHelper"]


def _report_more_produced(n: int) -> None:
    # a ProtocolViolationException (a RuntimeError): a bug, reported unwrapped
    from rxpy2 import plugins
    from rxpy2.exceptions import ProtocolViolationException
    plugins.on_error(ProtocolViolationException(f"More produced than requested: {n}"))


class BackpressureHelper:
    """Static helpers over an ``AtomicLong`` of outstanding demand.

    A counter at ``LONG_MAX`` means unbounded demand and stays there (§3.17);
    ``*_cancel`` variants also respect ``LONG_MIN`` as a "cancelled" mark that
    nothing changes any more.
    """

    __slots__ = ()

    @staticmethod
    def add_cap(a: int, b: int) -> int:
        """``a + b`` capped at ``LONG_MAX``."""
        u = a + b
        return LONG_MAX if u > LONG_MAX else u

    @staticmethod
    def multiply_cap(a: int, b: int) -> int:
        """``a * b`` capped at ``LONG_MAX``."""
        u = a * b
        return LONG_MAX if u > LONG_MAX else u

    @staticmethod
    def add(requested: AtomicLong, n: int) -> int:
        """Add ``n`` to ``requested`` capped at ``LONG_MAX``; return the previous value."""
        if requested.get() == LONG_MAX:  # unbounded stays unbounded: a lock-free read suffices
            return LONG_MAX
        return requested.get_and_add_cap(n)  # one atomic operation

    @staticmethod
    def add_cancel(requested: AtomicLong, n: int) -> int:
        """As :meth:`add`, but leave a ``LONG_MIN`` (cancelled) counter alone."""
        r = requested.get()
        if r == LONG_MAX or r == LONG_MIN:  # final states: a lock-free read suffices
            return r
        return requested.add_cap_unless(n, LONG_MIN)

    @staticmethod
    def produced(requested: AtomicLong, n: int) -> int:
        """Subtract ``n`` emitted items unless unbounded; return the new value."""
        if requested.get() == LONG_MAX:
            return LONG_MAX
        u = requested.produced(n)
        if u < 0:  # more produced than requested: the counter was set to 0
            _report_more_produced(u)
            return 0
        return u

    @staticmethod
    def produced_cancel(requested: AtomicLong, n: int) -> int:
        """As :meth:`produced`, but leave a ``LONG_MIN`` (cancelled) counter alone."""
        u = requested.produced_unless(n, LONG_MIN)
        if u < 0 and u != LONG_MIN:
            _report_more_produced(u)
            return 0
        return u
