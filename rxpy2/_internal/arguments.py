"""Argument checks at assembly time, the "argument not given" sentinel and the default sizes.

Shared by ``Flowable``, ``Single``/``Maybe``/``Completable``, ``ParallelFlowable``,
the processors, ``rxpy2.spark`` and custom operators, so every entry point reports
bad input the same way: ``TypeError`` for ``None`` where a value is required or for
a value of the wrong kind, ``ValueError`` for a bad size.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable
from typing import Any
from typing import TypeVar

from rxpy2 import plugins
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = [
    "ABSENT",
    "BUFFER_SIZE",
    "assembly",
    "checked_cast",
    "int_after_sources",
    "refuse_rxpy_observer",
    "require",
    "require_callable",
    "require_duration",
    "require_non_negative",
    "require_positive",
    "require_publisher",
    "require_scheduler",
    "require_subscriber",
    "require_type",
    "retry_function_form",
    "seed_first_form",
    "sources_one_by_one",
    "subscriber_like",
    "trailing_function",
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


# ---------------------------------------------------------------------- RxJava's call forms
# The forms of RxJava 2's calls that rxpy2 takes besides its own, where they cannot be
# mistaken for rxpy2's (docs/rxjava-differences.md, "Call forms").

def sources_one_by_one(is_source: Callable[[Any], bool], spread: Callable[[tuple[Any, ...]], Any]
                       ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """RxJava 2's ``merge(s1, s2[, s3, s4])`` form of a static that takes an iterable or
    a Publisher of sources, then ints: when its second positional argument is itself a
    source (``is_source``), every positional argument is a source and the call is
    ``spread(args)`` (the ``*_array`` form, which checks each). Any other call goes to
    the method as it is; ``inspect.signature`` still shows the method's own. (Typed
    ``Callable[..., Any]``: the ``@overload`` signatures above the method say both forms.)"""
    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            if len(args) >= 2 and is_source(args[1]):
                if kwargs:
                    raise TypeError(f"{method.__name__}(s1, s2, ...) of sources one by one "
                                    f"takes no keyword arguments, not {', '.join(kwargs)}")
                return spread(args)
            return method(*args, **kwargs)
        return call
    return decorate


def int_after_sources(value: Any, name: str, method: str, array: str,
                      kind: str = "Publisher") -> None:
    """The int argument after the sources of ``merge``/``concat`` & co. (``max_concurrency``,
    ``prefetch``): a ``TypeError`` naming rxpy2's forms when it is neither an int nor
    ``None`` (a source that is not a ``kind``, given one by one, lands here)."""
    if value is not None and not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}: did you mean "
                        f"{array}(a, b) or {method}([a, b])? (sources given one by one must "
                        f"each be a {kind})")


def trailing_function(args: tuple[Any, ...], fn: Any, name: str) -> tuple[tuple[Any, ...], Any]:
    """RxJava's ``zip(a, b, zipper)`` form: a callable that is not a Publisher as the last
    positional argument is the function ``name`` (as ``name=fn``); ``(args, fn)`` as
    they are otherwise. Given both ways is a ``TypeError``."""
    if args and callable(args[-1]) and not isinstance(args[-1], Publisher):
        if fn is not None:
            raise TypeError(f"{name} given twice: as the last positional argument and as {name}=")
        return args[:-1], args[-1]
    return args, fn


def seed_first_form(fn: Any, seed: Any) -> tuple[Any, Any]:
    """RxJava's ``reduce(seed, reducer)`` / ``scan(seed, accumulator)`` order: ``(fn, seed)``
    swapped when the first argument is not callable and the second is; as given
    otherwise. A callable first argument is always rxpy2's function (so a callable seed
    is given as ``reduce(fn, seed)``, never ``reduce(seed, fn)``)."""
    if not callable(fn) and seed is not ABSENT and callable(seed):
        return seed, fn
    return fn, seed


def _takes(fn: Any, n: int) -> bool | None:
    """Whether ``fn`` can be called with ``n`` positional arguments; ``None`` when its
    signature cannot be read."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*range(n))
    except TypeError:
        return False
    return True


def retry_function_form(times: Any, predicate: Any, bi_predicate: Any,
                        default_times: Any) -> tuple[Any, Any, Any]:
    """RxJava 2's ``retry(Predicate)`` and ``retry(BiPredicate)``: a function given as the
    first positional argument (``times``) is the ``predicate(error)`` when it takes one
    argument, the ``bi_predicate(attempt, error)`` when it takes two; ``(times, predicate,
    bi_predicate)`` with ``times`` back to ``default_times`` then. A function that could
    take either (``*args``, a default) or whose signature cannot be read is a
    ``TypeError`` naming the keyword forms."""
    if not callable(times):
        return times, predicate, bi_predicate
    if predicate is not None or bi_predicate is not None:
        raise TypeError("retry(fn) takes the function alone; with times, write "
                        "retry(times, predicate)")
    one, two = _takes(times, 1), _takes(times, 2)
    if one and not two:
        return default_times, times, None
    if two and not one:
        return default_times, None, times
    raise TypeError(f"retry({getattr(times, '__name__', type(times).__name__)}): cannot tell "
                    "from its signature whether it takes (error) or (attempt, error): did you "
                    "mean retry(predicate=fn) or retry(bi_predicate=fn)?")


def refuse_rxpy_observer(obj: Any, expected: str) -> None:
    """``TypeError`` for an observer written for RxPY (``on_next``, ``on_error``,
    ``on_completed`` and no ``on_complete``): rxpy2 names the completion ``on_complete``,
    as RxJava's ``onComplete``; it is refused, never taken as it is. ``expected``
    names the methods the type's observer has."""
    if (callable(getattr(obj, "on_completed", None)) and callable(getattr(obj, "on_next", None))
            and callable(getattr(obj, "on_error", None)) and not hasattr(obj, "on_complete")):
        raise TypeError(f"{type(obj).__name__} has on_completed, RxPY's name: rxpy2's observers "
                        f"have on_complete (RxJava's onComplete); expected {expected}")
