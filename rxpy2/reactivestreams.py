"""The four Reactive Streams interfaces (spec 1.0.4) and the demand constants.

These are abstract base classes: any object implementing the methods may subclass
them. Nothing here depends on the rest of rxpy2, so a third-party publisher can
implement them and be verified with :mod:`rxpy2.tck`.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from typing import Generic
from typing import TypeVar

__all__ = ["LONG_MAX", "LONG_MIN", "Processor", "Publisher", "Subscriber", "Subscription"]

T = TypeVar("T")
R = TypeVar("R")

#: Java's ``Long.MAX_VALUE``: a request of this size means "unbounded" (§3.17).
LONG_MAX: int = 2**63 - 1
#: Java's ``Long.MIN_VALUE``: the mark that operators use for "cancelled" in a request counter.
LONG_MIN: int = -(2**63)


class Subscription(ABC):
    """The link between one Subscriber and one Publisher (§3)."""

    __slots__ = ()

    @abstractmethod
    def request(self, n: int) -> None:
        """Add ``n`` (> 0, §3.9) to the outstanding demand."""

    @abstractmethod
    def cancel(self) -> None:
        """Ask the Publisher to stop signalling; idempotent (§3.5, §3.7)."""


class Subscriber(ABC, Generic[T]):
    """Receives at most the demanded number of items, then at most one terminal signal (§1.3)."""

    __slots__ = ()

    @abstractmethod
    def on_subscribe(self, subscription: Subscription) -> None:
        """Receive the Subscription of this subscription, once, before any other signal (§1.9);
        nothing flows until it is requested from (§2.1)."""

    @abstractmethod
    def on_next(self, item: T) -> None:
        """Receive one item, never ``None`` (§2.13) and never more than requested (§1.1)."""

    @abstractmethod
    def on_error(self, error: BaseException) -> None:
        """Receive the failure that ends the stream; no signal follows (§1.7). ``None`` is a
        §2.13 violation."""

    @abstractmethod
    def on_complete(self) -> None:
        """Learn that the stream ended successfully; no signal follows (§1.7)."""


class Publisher(ABC, Generic[T]):
    """A provider of a potentially unbounded number of items, under demand (§1)."""

    __slots__ = ()

    @abstractmethod
    def subscribe(self, subscriber: Subscriber[T]) -> None:
        """Start a new subscription for ``subscriber``: its ``on_subscribe`` comes first (§1.9);
        a ``None`` subscriber must raise ``TypeError`` (§1.9)."""


class Processor(Subscriber[T], Publisher[R], Generic[T, R]):
    """Both a Subscriber and a Publisher, obeying the contracts of both (§4)."""

    __slots__ = ()
