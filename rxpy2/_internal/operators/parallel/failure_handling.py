"""The rail subscriber of ``map``/``filter``/``do_on_next`` with ``error_handling=``.

RxJava 2's ``ParallelMapTry``/``ParallelFilterTry``/``ParallelDoOnNextTry`` share
one shape, :class:`TryRailSubscriber`: it is a ConditionalSubscriber towards its
upstream, runs the rail's function on an item (:meth:`TryRailSubscriber.attempt`)
and, when the function raises, asks the handler ``error_handler(count, error)``
(``count`` is 1 for the item's first failure, then 2, ...) what to do:

* ``RETRY``: call the function again with the same item;
* ``SKIP``: drop the item; ``on_next`` asks the upstream for one more
  (``try_on_next`` answers False instead);
* ``STOP``: cancel the upstream and complete the rail;
* ``ERROR``: cancel the upstream and end the rail with the error.

A handler that raises, or answers something that is not a
:class:`~rxpy2.parallel.ParallelFailureHandling` (RxJava: ``null``), cancels
the upstream and ends the rail with ``CompositeException(error, handler_error)``.
A rail whose Subscriber is conditional gets the item through ``try_on_next``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.function_names import function_name
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2.exceptions import CompositeException
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.parallel.parallel_failure_handling import ParallelFailureHandling
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ErrorHandler", "ParallelTry", "TryRailSubscriber"]

T = TypeVar("T")
R = TypeVar("R")

ErrorHandler = Callable[[int, BaseException], ParallelFailureHandling]

RETRY = ParallelFailureHandling.RETRY
STOP = ParallelFailureHandling.STOP
ERROR = ParallelFailureHandling.ERROR


class TryRailSubscriber(OperatorSubscriber[T, R], ConditionalSubscriber[T], Generic[T, R]):
    """One rail: :meth:`attempt` runs the function, :meth:`emit` passes its result on."""

    __slots__ = ("fn", "error_handler", "conditional")

    def __init__(self, downstream: Subscriber[R], fn: Callable[[T], Any],
                 error_handler: ErrorHandler) -> None:
        super().__init__(downstream)
        self.fn = fn
        self.error_handler = error_handler
        self.conditional = is_conditional(downstream)

    def attempt(self, item: T) -> Any:
        """Run the function on ``item``; raise when it fails."""
        raise NotImplementedError

    def emit(self, item: T, result: Any) -> bool:
        """Pass ``item`` (or the function's ``result``) on; False: nothing went downstream."""
        raise NotImplementedError

    def deliver(self, value: R) -> bool:
        if self.conditional:
            return bool(self.downstream.try_on_next(value))  # type: ignore[attr-defined]  # a ConditionalSubscriber
        self.downstream.on_next(value)
        return True

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item) and not self.done:
            self.upstream.request(1)  # dropped or skipped: the rail's demand still stands

    def try_on_next(self, item: T) -> bool:
        if item is None:
            raise null_item()  # §2.13
        if self.done:
            return False
        count = 0
        while True:
            try:
                result = self.attempt(item)
                break
            except Exception as e:
                count += 1
                if not self.recover(count, e):
                    return False
        return self.emit(item, result)

    def recover(self, count: int, error: Exception) -> bool:
        """The handler's answer to the ``count``-th failure of an item: True retries."""
        try:
            h = self.error_handler(count, error)
            if not isinstance(h, ParallelFailureHandling):
                raise TypeError(f"the error_handler {function_name(self.error_handler)} returned "
                                f"{h!r}, not a ParallelFailureHandling")
        except Exception as handler_error:
            self.fail(CompositeException(error, handler_error))
            return False
        if h is RETRY:
            return True
        if h is STOP:
            self.complete_early()
        elif h is ERROR:
            self.fail(error)
        return False  # SKIP (or the rail has ended)


class ParallelTry(ParallelPerRail[T, R], Generic[T, R]):
    """A per-rail operator whose rails are ``subscriber_type(rail, fn, error_handler)``."""

    __slots__ = ("fn", "error_handler")

    subscriber_type: type[TryRailSubscriber[Any, Any]]

    def __init__(self, source: ParallelFlowable[T], fn: Callable[[T], Any],
                 error_handler: ErrorHandler) -> None:
        super().__init__(source)
        self.fn = fn
        self.error_handler = error_handler

    def rail_subscriber(self, subscriber: Subscriber[R]) -> Subscriber[Any]:
        return self.subscriber_type(subscriber, self.fn, self.error_handler)
