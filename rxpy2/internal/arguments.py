"""Argument checks at assembly time, the "argument not given" sentinel and the default sizes.

Shared by ``Flowable``, ``Single``/``Maybe``/``Completable``, ``ParallelFlowable``,
the processors, ``rxpy2.spark`` and custom operators, so every entry point reports
bad input the same way: ``TypeError`` for ``None`` where a value is required or for
a value of the wrong kind, ``ValueError`` for a bad size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from rxpy2 import plugins
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = [
    "ABSENT",
    "BUFFER_SIZE",
    "assembly",
    "checked_cast",
    "require",
    "require_callable",
    "require_duration",
    "require_non_negative",
    "require_positive",
    "require_publisher",
    "require_scheduler",
    "require_subscriber",
    "require_type",
    "subscriber_like",
]


class _Absent:
    """Marks an argument that was not given (``None`` has a meaning of its own)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


#: The value of an optional argument that was not given.
ABSENT: Any = _Absent()

#: The default prefetch/buffer size of the operators that have one (RxJava's ``bufferSize()``).
BUFFER_SIZE = 128


def require(value: Any, name: str) -> None:
    """``TypeError`` when ``value`` is ``None``."""
    if value is None:
        raise TypeError(f"{name} is None")


def require_callable(fn: Any, name: str) -> None:
    """``TypeError`` when ``fn`` is ``None`` or not callable."""
    if fn is None:
        raise TypeError(f"{name} is None")
    if not callable(fn):
        raise TypeError(f"{name} must be callable, not {type(fn).__name__}")


def require_positive(n: int, name: str) -> None:
    """``TypeError`` for a non-int (``bool`` included), ``ValueError`` for ``n <= 0``."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    if n <= 0:
        raise ValueError(f"{name} > 0 required but it was {n}")


def require_non_negative(n: int, name: str) -> None:
    """``TypeError`` for a non-int (``bool`` included), ``ValueError`` for ``n < 0``."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{name} >= 0 required but it was {n}")


def require_duration(value: Any, name: str, *, finite: bool = False) -> float:
    """``value`` as a float number of seconds >= 0: ``TypeError`` for a non-number
    (``bool`` included), ``ValueError`` naming ``name`` for NaN, a negative number, an int
    too large for a float, and, with ``finite``, for infinity. ``finite`` is for the
    period of a periodic task (``buffer_time``, ``window_time``, ``sample``, as
    ``interval``'s period): the scheduler refuses an infinite one, and at subscription
    that error could only reach ``plugins.on_error`` while the subscriber waits forever.
    Elsewhere ``inf`` is a one-shot delay that never fires (``timeout(inf)``: no timeout).
    """
    if type(value) is float and 0.0 <= value < math.inf:  # the common case
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    try:
        v = float(value)
    except OverflowError:  # an int beyond float range, e.g. 10**400
        raise ValueError(f"{name} is too large for a float; use float('inf')") from None
    if math.isnan(v) or v < 0.0:
        raise ValueError(f"{name} >= 0 required but it was {value}")
    if finite and math.isinf(v):
        raise ValueError(f"{name} must be >= 0 and finite, not {v}")
    return v


def require_publisher(p: Any, name: str) -> None:
    """``TypeError`` when ``p`` is ``None`` or not a Reactive Streams Publisher."""
    if p is None:
        raise TypeError(f"{name} is None")
    if not isinstance(p, Publisher):
        raise TypeError(f"{name} must be a Publisher, not {type(p).__name__}")


_SUBSCRIBER_METHODS = ("on_subscribe", "on_next", "on_error", "on_complete")


def subscriber_like(obj: Any) -> bool:
    """An object with the four Subscriber methods (another Reactive Streams library's
    Subscriber): subscribed as a plain Subscriber, held to the spec by a StrictSubscriber."""
    return all(callable(getattr(obj, m, None)) for m in _SUBSCRIBER_METHODS)


def require_subscriber(s: Any, name: str) -> None:
    """``TypeError`` when ``s`` is ``None`` or neither a Subscriber nor :func:`subscriber_like`."""
    if s is None:
        raise TypeError(f"{name} is None")
    if not isinstance(s, Subscriber) and not subscriber_like(s):
        raise TypeError(f"{name} must be a Subscriber (on_subscribe, on_next, on_error, "
                        f"on_complete), not {type(s).__name__}")


def require_scheduler(scheduler: Any, name: str = "scheduler") -> None:
    """``TypeError`` when ``scheduler`` is ``None`` or not an rxpy2 Scheduler."""
    from rxpy2.schedulers.scheduler import Scheduler

    if scheduler is None:
        raise TypeError(f"{name} is None")
    if not isinstance(scheduler, Scheduler):
        raise TypeError(f"{name} must be a Scheduler, not {type(scheduler).__name__}")


_O = TypeVar("_O")


def assembly(kind: str, obj: _O) -> _O:
    """Apply the assembly hook of ``kind`` (``"flowable"``, ``"single"``, ``"maybe"``,
    ``"completable"``, ``"parallel"``) when hooks are installed; else ``obj`` itself."""
    return plugins.on_assembly(kind, obj) if plugins.hooks_active else obj


def require_type(cls: Any) -> None:
    """``of_type``/``cast``: a class or a tuple of classes, as ``isinstance`` takes."""
    require(cls, "cls")
    if not isinstance(cls, type) and not (isinstance(cls, tuple)
                                          and all(isinstance(c, type) for c in cls)):
        raise TypeError(f"cls must be a class or a tuple of classes, not {type(cls).__name__}")


def checked_cast(cls: Any) -> Callable[[Any], Any]:
    """``cast``: the function that passes an instance of ``cls`` on and refuses anything else."""
    def cast(item: Any) -> Any:
        if isinstance(item, cls):
            return item
        raise TypeError(f"cannot cast {type(item).__name__} to "
                        f"{getattr(cls, '__name__', cls)}")
    return cast
