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
        self.__cause__ = flat[0]

    @property
    def size(self) -> int:
        return len(self.exceptions)


def _flatten(e: BaseException) -> list[BaseException]:
    if isinstance(e, CompositeException):
        return list(e.exceptions)
    return [e]


class MissingBackpressureException(Exception):
    """An item arrived that nobody requested and there was no room to keep it."""


class ProtocolViolationException(RuntimeError):
    """A Reactive Streams rule was broken (e.g. a second ``on_subscribe``, §2.5)."""


class OnErrorNotImplementedException(RuntimeError):
    """An error reached a ``subscribe(...)`` call that gave no ``on_error`` callback."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"The error was not handled by an on_error callback: {cause!r}")
        self.__cause__ = cause


class UndeliverableException(RuntimeError):
    """Wraps an error that could not be delivered downstream (the stream had ended)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"The error could not be delivered to the consumer: {cause!r}")
        self.__cause__ = cause
