"""Flowable.map: apply a function to each item; fuses (SYNC/ASYNC) by mapping in ``poll``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import ChecksItems
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableMap"]

T = TypeVar("T")
R = TypeVar("R")


def _none_result(mapper: Callable[[Any], Any]) -> TypeError:
    return returned_none("map", mapper)  # §2.13: names the function


def _map_lines(i: int, stop: Lines) -> Lines:
    return [f"x = f{i}(x)", "if x is None:", f"    raise mapper_none(f{i})"]


def _map_step(i: int) -> Lines:
    return _map_lines(i, ())


class FlowableMap(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper")

    #: as a fused stage: ``x = fN(x)``; a None result raises the operator's TypeError
    STAGE: ClassVar[FusedStage] = FusedStage(
        "map", operator=lambda up, f: FlowableMap(up, f), loop=_map_lines, step=_map_step,
        names={"mapper_none": _none_result}, rxjava_fuseable=True, before_flatten=True,
        one_to_one=True)

    def __init__(self, source: Publisher[T], mapper: Callable[[T], R]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, MapConditionalSubscriber(subscriber, self.mapper))
        else:
            subscribe_tail(self.source, MapSubscriber(subscriber, self.mapper))


class MapSubscriber(BasicFuseableSubscriber[T, R], ChecksItems, Generic[T, R]):
    def __init__(self, downstream: Subscriber[R], mapper: Callable[[T], R]) -> None:
        super().__init__(downstream)
        self.mapper = mapper

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.source_mode != NONE:  # ASYNC fused: the item is a "ready" signal
            self.downstream.on_next(None)
            return
        if item is None:
            raise null_item()  # §2.13
        try:
            v = self.mapper(item)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(_none_result(self.mapper))
            return
        self.downstream.on_next(v)

    def poll(self) -> R | None:
        t = self.qs.poll()
        if t is None:
            return None
        v = self.mapper(t)
        if v is None:
            raise _none_result(self.mapper)
        return v


class MapConditionalSubscriber(BasicFuseableConditionalSubscriber[T, R], Generic[T, R]):
    downstream: ConditionalSubscriber[R]  # (the base says Any)

    def __init__(self, downstream: ConditionalSubscriber[R], mapper: Callable[[T], R]) -> None:
        super().__init__(downstream)
        self.mapper = mapper

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.source_mode != NONE:
            self.downstream.on_next(None)  # type: ignore[arg-type]  # None: the fused "poll now" signal
            return
        if item is None:
            raise null_item()  # §2.13
        try:
            v = self.mapper(item)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(_none_result(self.mapper))
            return
        self.downstream.on_next(v)

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True  # nothing more will come; don't ask for a replacement
        if item is None:
            raise null_item()  # §2.13
        try:
            v = self.mapper(item)
        except Exception as e:
            self.fail(e)
            return True
        if v is None:
            self.fail(_none_result(self.mapper))
            return True
        return self.downstream.try_on_next(v)

    def poll(self) -> R | None:
        t = self.qs.poll()
        if t is None:
            return None
        v = self.mapper(t)
        if v is None:
            raise _none_result(self.mapper)
        return v
