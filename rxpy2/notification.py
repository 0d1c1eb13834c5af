"""Notification: a signal as a value (``materialize``/``dematerialize``)."""

from __future__ import annotations

from typing import Any
from typing import Generic

from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T

__all__ = ["Notification"]


_COMPLETE: Any = object()


class Notification(Generic[T]):
    """One of: an ``on_next`` value, an ``on_error`` error, or ``on_complete``."""

    __slots__ = ("_value", "_error")

    def __init__(self, value: Any, error: BaseException | None) -> None:
        self._value: T | None = value
        self._error = error

    @staticmethod
    def create_on_next(value: ItemT) -> Notification[ItemT]:
        """Return an ``on_next`` notification holding ``value``; ``None`` raises ``TypeError``."""
        if value is None:
            raise TypeError("value is None")
        return Notification(value, None)

    @staticmethod
    def create_on_error(error: BaseException) -> Notification[ItemT]:
        """Return an ``on_error`` notification holding ``error``; ``None`` raises ``TypeError``."""
        if error is None:
            raise TypeError("error is None")
        return Notification(None, error)

    @staticmethod
    def create_on_complete() -> Notification[ItemT]:
        """Return the ``on_complete`` notification (one shared instance)."""
        return _ON_COMPLETE

    def is_on_next(self) -> bool:
        """Return True when this stands for an ``on_next`` (``value`` is the item)."""
        return self._value is not None

    def is_on_error(self) -> bool:
        """Return True when this stands for an ``on_error`` (``error`` is the error)."""
        return self._error is not None

    def is_on_complete(self) -> bool:
        """Return True when this stands for ``on_complete`` (neither value nor error)."""
        return self._value is None and self._error is None

    @property
    def value(self) -> T | None:
        """The item of an ``on_next`` notification, else ``None``."""
        return self._value

    @property
    def error(self) -> BaseException | None:
        """The error of an ``on_error`` notification, else ``None``."""
        return self._error

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Notification):
            return NotImplemented
        if self.is_on_error() or other.is_on_error():
            return self._error is other._error or (
                type(self._error) is type(other._error)
                and self._error is not None and other._error is not None
                and self._error.args == other._error.args)
        return self._value == other._value

    def __hash__(self) -> int:
        return hash((self._value, type(self._error)))

    def __repr__(self) -> str:
        if self.is_on_next():
            return f"OnNextNotification[{self._value!r}]"
        if self.is_on_error():
            return f"OnErrorNotification[{self._error!r}]"
        return "OnCompleteNotification"


_ON_COMPLETE: Notification[Any] = Notification(None, None)
