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
Over a synchronous source, with the default set, it is a stage of a fused chain (its
``STAGES``: docs/fusion.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import FilteringConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import FilteringSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDistinct"]

T = TypeVar("T")


def _none_key() -> TypeError:
    return TypeError("The key function returned None")


def _seen_lines(i: int, stop: Lines) -> Lines:
    # as the operator: the rest of the chain runs for an item not seen before, recorded first
    return [f"if x not in s{i}:", f"    s{i}.add(x)"]


def _seen_key_lines(i: int, stop: Lines) -> Lines:
    return [f"k{i} = f{i}(x)", f"if k{i} is None:", "    raise key_none()",
            f"if k{i} not in s{i}:", f"    s{i}.add(k{i})"]


def _seen_load(i: int) -> Lines:
    return [f"if s{i} is None:", f"    s{i} = set()"]  # made at the first run


class FlowableDistinct(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "key", "collection_factory")


    #: as fused stages, with the default ``set`` of seen keys (``sN``), of the items
    #: themselves or of their keys ``fN(x)``; RxJava 2's FlowableDistinct is fuseable, and
    #: the keys' hash and ``==`` are user code too
    STAGES: ClassVar[tuple[FusedStage, ...]] = (
        FusedStage("distinct_set", operator=lambda up, arg: FlowableDistinct(up, None),
                   loop=_seen_lines, nests=True, load=_seen_load, params=(),
                   state=("s",), initial=lambda arg: (None,), rxjava_fuseable=True),
        FusedStage("distinct_set_key", operator=lambda up, key: FlowableDistinct(up, key),
                   loop=_seen_key_lines, nests=True, load=_seen_load, state=("s",),
                   initial=lambda key: (None,), names={"key_none": _none_key},
                   rxjava_fuseable=True))

    @staticmethod
    def fused_stage(key: Callable[[Any], Any] | None) -> tuple[FusedStage, Any]:
        """The stage (and its argument) of ``distinct(key)`` keeping its keys in a set."""
        plain, with_key = FlowableDistinct.STAGES
        return (plain, None) if key is None else (with_key, key)

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
