"""Flowable.distinct: items whose key (the item itself by default) was not seen before.

The keys seen are kept in a ``set`` (so they must be hashable), or in the
collection ``collection_factory()`` makes per subscriber (RxJava 2's
``distinct(keySelector, collectionSupplier)``: here any collection with ``in``,
``add`` (or ``append``) and ``clear``; a key is new when it is not ``in`` it), until
the stream terminates (fused: until the consumer's ``clear``, as it polls after the terminal
signal). A dropped item is replaced by ``request(1)`` upstream, or, to a
conditional upstream, answered with ``try_on_next(item) -> False``; to a
conditional downstream the items go by ``try_on_next`` too. A key
function that raises, or returns ``None`` (``TypeError``), cancels the upstream
and signals the error. Fuses by dropping seen keys in ``poll``. The stage is a
``FilteringSubscriber`` (internal/subscribers/basic_fuseable.py) whose test is the key check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import (
    NONE,
    ConditionalSubscriber,
    HasUpstreamPublisher,
    is_conditional,
)
from rxpy2.internal.helpers.function_names import returned_none
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.subscribers.basic_fuseable import (
    FilteringConditionalSubscriber,
    FilteringSubscriber,
)
from rxpy2.internal.subscriptions.empty import EmptySubscription
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableDistinct"]

T = TypeVar("T")


def _none_key() -> TypeError:
    return TypeError("The key function returned None")


class FlowableDistinct(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "key", "collection_factory")

    def __init__(self, source: Publisher[T], key: Callable[[T], Any] | None,
                 collection_factory: Callable[[], Any] | None = None) -> None:
        self.source = source
        self.key = key
        self.collection_factory = collection_factory

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        factory = self.collection_factory
        seen: Any = None
        if factory is not None:
            try:
                seen = factory()
                if seen is None:
                    raise returned_none("distinct", factory, "collection_factory")
                if not (hasattr(seen, "add") or hasattr(seen, "append")):
                    raise TypeError("distinct: the collection_factory's collection has no "
                                    f"add nor append method ({type(seen).__name__})")
            except Exception as e:
                EmptySubscription.error(e, subscriber)
                return
        if is_conditional(subscriber):
            subscribe_tail(self.source, DistinctConditionalSubscriber(subscriber, self.key, seen))
        else:
            subscribe_tail(self.source, DistinctSubscriber(subscriber, self.key, seen))


class _DistinctMixin(Generic[T]):
    """The seen-keys state, the key test (``passes``) and the terminal clean-up."""

    key: Callable[[T], Any] | None
    seen: Any
    remember: Callable[[Any], Any]
    done: bool
    source_mode: int

    def _init_state(self, key: Callable[[T], Any] | None, seen: Any) -> None:
        self.key = key
        if seen is None:
            seen = set()
        self.seen = seen
        remember = getattr(seen, "add", None)
        self.remember = seen.append if remember is None else remember

    def passes(self, item: T) -> bool:
        """True if ``item``'s key is new (and records it); may raise (the key function)."""
        key = self.key
        k = item if key is None else key(item)
        if k is None:
            raise _none_key()
        seen = self.seen
        if k in seen:  # an unhashable key raises TypeError here
            return False
        self.remember(k)
        return True

    # fused, the consumer still polls (and the keys still count) after the terminal signal
    def on_error(self, error: BaseException) -> None:
        if not self.done and self.source_mode == NONE:
            self.seen.clear()
        super().on_error(error)  # type: ignore[misc]  # the fuseable base class of the mixin has it

    def on_complete(self) -> None:
        if not self.done and self.source_mode == NONE:
            self.seen.clear()
        super().on_complete()  # type: ignore[misc]  # the fuseable base class of the mixin has it

    def clear(self) -> None:
        self.seen.clear()
        super().clear()  # type: ignore[misc]  # the fuseable base class of the mixin has it


class DistinctSubscriber(_DistinctMixin[T], FilteringSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], key: Callable[[T], Any] | None,
                 seen: Any = None) -> None:
        FilteringSubscriber.__init__(self, downstream)
        self._init_state(key, seen)


class DistinctConditionalSubscriber(_DistinctMixin[T], FilteringConditionalSubscriber[T],
                                    Generic[T]):
    """Over a ConditionalSubscriber: an item it drops costs no request either."""

    def __init__(self, downstream: ConditionalSubscriber[T],
                 key: Callable[[T], Any] | None, seen: Any = None) -> None:
        FilteringConditionalSubscriber.__init__(self, downstream)
        self._init_state(key, seen)
