"""Exception types that rxpy2 signals or reports."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "CompositeException",
    "MissingBackpressureException",
    "OnErrorNotImplementedException",
    "ProtocolViolationException",
    "UndeliverableException",
]


class CompositeException(Exception):
    """Several errors that happened together; ``exceptions`` keeps every cause, in order.

    Nested CompositeExceptions are flattened, so ``exceptions`` lists leaves only.
    """

    def __init__(self, *errors: BaseException | Iterable[BaseException]) -> None:
        flat: list[BaseException] = []
        for e in errors:
            if isinstance(e, BaseException):
                flat.extend(_flatten(e))
            else:
                for x in e:
                    flat.extend(_flatten(x))
        if not flat:
            raise ValueError("CompositeException needs at least one error")
        self.exceptions: list[BaseException] = flat
        super().__init__(f"{len(flat)} exceptions occurred: " + "; ".join(
            f"{type(x).__name__}: {x}" for x in flat))
        self.__cause__: BaseException | None = flat[0]

    @property
    def size(self) -> int:
        """The number of errors in ``exceptions`` (after flattening nested CompositeExceptions)."""
        return len(self.exceptions)


def _flatten(e: BaseException) -> list[BaseException]:
    if isinstance(e, CompositeException):
        return list(e.exceptions)
    return [e]


#: What to do when a producer that cannot slow down (a timer, a processor) finds no demand.
SLOWER_HINT = ("add on_backpressure_buffer()/on_backpressure_drop()/on_backpressure_latest() "
               "after it, or request more")


class MissingBackpressureException(Exception):
    """An item arrived that nobody requested and there was no room to keep it.

    Build one with :meth:`for_operator` (or its two shorthands): the message names
    the operator that failed, says what it could not do, and suggests the fix.
    """

    @classmethod
    def for_operator(cls, operator: str, what: str,
                     hint: str | None = None) -> MissingBackpressureException:
        """``"<operator>: <what>; <hint>"``, e.g. ``buffer_time: could not emit a buffer
        due to lack of requests; the downstream is slower than the timer: add ...``."""
        return cls(f"{operator}: {what}; {hint}" if hint else f"{operator}: {what}")

    @classmethod
    def lack_of_requests(cls, operator: str, what: str = "a value",
                         producer: str = "the timer") -> MissingBackpressureException:
        """A producer that cannot be slowed down (``producer``) had ``what`` to emit and no
        demand for it (time-driven operators, processors, ``create(ERROR)``)."""
        return cls.for_operator(
            operator, f"could not emit {what} due to lack of requests",
            f"the downstream is slower than {producer}: {SLOWER_HINT}")

    @classmethod
    def buffer_full(cls, operator: str, capacity: int) -> MissingBackpressureException:
        """``on_backpressure_buffer(capacity)`` (overflow strategy ERROR) overflowed."""
        return cls.for_operator(
            operator, f"the buffer of {capacity} items is full (the downstream is slower "
            "than the upstream)", "increase capacity, choose the DROP_OLDEST/DROP_LATEST "
            "overflow strategy, or use on_backpressure_drop()/on_backpressure_latest()")

    @classmethod
    def queue_full(cls, operator: str, capacity: int | None, size_param: str = "buffer_size",
                   inner: bool = False) -> MissingBackpressureException:
        """The upstream (``inner``: an inner Publisher) emitted more than ``operator`` asked
        for and its bounded queue of ``capacity`` items overflowed: that source ignores
        backpressure (§1.1)."""
        queue = f"the queue of {capacity} items" if capacity is not None else "the queue"
        source = "an inner Publisher" if inner else "the upstream"
        where = "to the inner Publishers" if inner else f"before {operator}"
        return cls.for_operator(
            operator,
            f"{queue} is full: {source} emitted more than it was asked for (it ignores "
            "backpressure, §1.1)",
            f"increase {size_param} or add on_backpressure_buffer()/on_backpressure_drop()/"
            f"on_backpressure_latest() {where}")


class ProtocolViolationException(RuntimeError):
    """A Reactive Streams rule was broken (e.g. a second ``on_subscribe``, §2.5)."""


class OnErrorNotImplementedException(RuntimeError):
    """An error reached a ``subscribe(...)`` call that gave no ``on_error`` callback."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"The error was not handled by an on_error callback: {cause!r}")
        self.__cause__: BaseException | None = cause


class UndeliverableException(RuntimeError):
    """Wraps an error that could not be delivered downstream (the stream had ended)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"The error could not be delivered to the consumer: {cause!r}")
        self.__cause__: BaseException | None = cause
