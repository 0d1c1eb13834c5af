"""Consumer interfaces beyond Reactive Streams' Subscriber.

* :class:`FlowableSubscriber`: a Subscriber that accepts RxJava 2's four
  relaxations of the spec (see below); every rxpy2 operator's subscriber is one.
  ``Flowable.subscribe`` wraps any other Subscriber in a ``StrictSubscriber``
  that enforces the spec to the letter.
* :class:`SingleObserver`, :class:`MaybeObserver`, :class:`CompletableObserver`:
  consumers of the 0-1 reactive types, which receive a ``Disposable`` instead of
  a Subscription because there is nothing to request.

The relaxations of a FlowableSubscriber:

- §1.3: ``on_next`` may run concurrently with the rest of ``on_subscribe`` when
  ``on_subscribe`` calls ``request``; the subscriber must be ready for that.
- §2.3: calling ``request``/``cancel`` from ``on_complete``/``on_error`` is a no-op.
- §2.12: a subscriber subscribed to several sources keeps its methods thread-safe.
- §3.9: a non-positive ``request`` does not stop the stream; it is reported to
  :func:`rxpy2.plugins.on_error` as a ``ValueError`` naming §3.9.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from typing import Generic
from typing import TypeVar

from rxpy2._internal.disposable import Disposable
from rxpy2.reactivestreams import Subscriber

__all__ = ["CompletableObserver", "FlowableSubscriber", "MaybeObserver", "SingleObserver"]

T = TypeVar("T")


class FlowableSubscriber(Subscriber[T], Generic[T]):
    """A Subscriber that accepts RxJava 2's relaxations of §1.3, §2.3, §2.12 and §3.9."""

    __slots__ = ()


class SingleObserver(ABC, Generic[T]):
    """Receives exactly one of ``on_success(item)`` or ``on_error(error)``."""

    __slots__ = ()

    @abstractmethod
    def on_subscribe(self, d: Disposable) -> None:
        """Receive the Disposable that cancels this subscription; called once, before any other
        signal."""

    @abstractmethod
    def on_success(self, item: T) -> None:
        """Receive the one item; no other signal follows."""

    @abstractmethod
    def on_error(self, error: BaseException) -> None:
        """Receive the failure instead of an item; no other signal follows."""


class MaybeObserver(ABC, Generic[T]):
    """Receives one of ``on_success(item)``, ``on_complete()`` or ``on_error(error)``."""

    __slots__ = ()

    @abstractmethod
    def on_subscribe(self, d: Disposable) -> None:
        """Receive the Disposable that cancels this subscription; called once, before any other
        signal."""

    @abstractmethod
    def on_success(self, item: T) -> None:
        """Receive the one item; no other signal follows (there is no ``on_complete`` after it)."""

    @abstractmethod
    def on_error(self, error: BaseException) -> None:
        """Receive the failure; no other signal follows."""

    @abstractmethod
    def on_complete(self) -> None:
        """Learn that the source ended without an item; no other signal follows."""


class CompletableObserver(ABC):
    """Receives one of ``on_complete()`` or ``on_error(error)``."""

    __slots__ = ()

    @abstractmethod
    def on_subscribe(self, d: Disposable) -> None:
        """Receive the Disposable that cancels this subscription; called once, before any other
        signal."""

    @abstractmethod
    def on_error(self, error: BaseException) -> None:
        """Receive the failure; no other signal follows."""

    @abstractmethod
    def on_complete(self) -> None:
        """Learn that the source finished successfully; no other signal follows."""
