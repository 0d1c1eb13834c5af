"""Flowable.distinct_until_changed: drops an item whose key equals the previous item's key.

The key is the item itself unless a ``key`` function is given; two keys are
equal by ``==`` unless a ``comparer(previous, current)`` is given. A dropped
item is replaced by ``request(1)`` upstream, or, to a conditional upstream,
answered with ``try_on_next(item) -> False``. A raising key function or
comparer, or a key function returning ``None`` (``TypeError``), cancels the
upstream and signals the error. Fuses by dropping in ``poll``. The stage is a
``FilteringSubscriber`` (internal/subscribers/basic_fuseable.py) whose test compares keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.fused_stage import NOTHING
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import FilteringConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import FilteringSubscriber
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDistinctUntilChanged"]

T = TypeVar("T")

KeyFn = Callable[[T], Any] | None
Comparer = Callable[[Any, Any], bool] | None


def _none_key() -> TypeError:
    return TypeError("The key function returned None")


def _distinct_lines(key: str, same: str) -> Callable[[int, Lines], Lines]:
    """The rest of the chain runs when the item's key (``key``) differs from the previous
    one ``sN`` (``same``: they are the same; ``tN`` the previous key)."""
    def lines(i: int, stop: Lines) -> Lines:
        k, x = key.format(i=i), []
        if k != "x":
            x = [f"{k} = f{i}(x)", f"if {k} is None:", "    raise key_none()"]
        return [*x, f"t{i} = s{i}", f"s{i} = {k}", f"if t{i} is NOTHING or not {same.format(i=i)}:"]
    return lines


def _distinct_stage(name: str, key: str, same: str, params: tuple[str, ...],
                    arguments: Callable[[Any], tuple[Any, ...]] | None,
                    operator: Callable[[Any, Any], Any]) -> FusedStage:
    return FusedStage(name, operator=operator, loop=_distinct_lines(key, same), nests=True,
                      params=params, arguments=arguments, state=("s",),
                      initial=lambda arg: (NOTHING,), names={"key_none": _none_key},
                      rxjava_fuseable=True)


class FlowableDistinctUntilChanged(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "key", "comparer")

    #: as fused stages (plain, with a key function, a comparer, both: ``(key, comparer)``);
    #: plain compares the items with ``==``, user code too (RxJava 2 refuses BOUNDARY)
    STAGES: ClassVar[tuple[FusedStage, ...]] = (
        _distinct_stage("distinct", "x", "t{i} == x", (), lambda arg: (),
                        lambda up, arg: FlowableDistinctUntilChanged(up, None, None)),
        _distinct_stage("distinct_key", "k{i}", "t{i} == k{i}", ("f",), None,
                        lambda up, f: FlowableDistinctUntilChanged(up, f, None)),
        _distinct_stage("distinct_cmp", "x", "f{i}(t{i}, x)", ("f",), None,
                        lambda up, c: FlowableDistinctUntilChanged(up, None, c)),
        _distinct_stage("distinct_both", "k{i}", "g{i}(t{i}, k{i})", ("f", "g"), tuple,
                        lambda up, kc: FlowableDistinctUntilChanged(up, *kc)))

    @staticmethod
    def fused_stage(key: KeyFn[Any], comparer: Comparer) -> tuple[FusedStage, Any]:
        """The stage (and its argument) of ``distinct_until_changed(key, comparer)``."""
        plain, with_key, with_comparer, with_both = FlowableDistinctUntilChanged.STAGES
        if key is None:
            return (plain, None) if comparer is None else (with_comparer, comparer)
        return (with_key, key) if comparer is None else (with_both, (key, comparer))

    def __init__(self, source: Publisher[T], key: KeyFn[T], comparer: Comparer) -> None:
        self.source = source
        self.key = key
        self.comparer = comparer

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source,
                DistinctUntilChangedConditionalSubscriber(subscriber, self.key, self.comparer))
        else:
            subscribe_tail(self.source,
                DistinctUntilChangedSubscriber(subscriber, self.key, self.comparer))


class _DistinctUntilChangedMixin(Generic[T]):
    """The shared state and test: ``passes(item)`` says whether ``item`` is to be emitted."""

    key: KeyFn[T]
    comparer: Comparer
    last: Any
    has_last: bool

    def _init_state(self, key: KeyFn[T], comparer: Comparer) -> None:
        self.key = key
        self.comparer = comparer
        self.last = None
        self.has_last = False

    def passes(self, item: T) -> bool:
        """True when the key changed (the item goes on); may raise (the user's key function or comparer)."""
        key = self.key
        k = item if key is None else key(item)
        if k is None:
            raise _none_key()
        if not self.has_last:
            self.has_last = True
            self.last = k
            return True
        cmp = self.comparer
        equal = (self.last == k) if cmp is None else cmp(self.last, k)
        self.last = k
        return not equal


class DistinctUntilChangedSubscriber(_DistinctUntilChangedMixin[T], FilteringSubscriber[T],
                                     Generic[T]):
    def __init__(self, downstream: Subscriber[T], key: KeyFn[T], comparer: Comparer) -> None:
        FilteringSubscriber.__init__(self, downstream)
        self._init_state(key, comparer)


class DistinctUntilChangedConditionalSubscriber(_DistinctUntilChangedMixin[T],
                                                FilteringConditionalSubscriber[T],
                                                Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], key: KeyFn[T],
                 comparer: Comparer) -> None:
        FilteringConditionalSubscriber.__init__(self, downstream)
        self._init_state(key, comparer)
