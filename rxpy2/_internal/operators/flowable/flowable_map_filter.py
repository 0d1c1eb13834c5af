"""Consecutive ``map``/``filter`` stages collapsed into one stage (macro fusion).

``source.map(f).filter(p).map(g)`` over a source that is not a synchronous
chain head (a processor, ``observe_on``, ``hide()``, ...) is assembled as one
:class:`FlowableMapFilter` whose subscriber runs a compiled ``step(x)``
(:func:`rxpy2._internal.helpers.stage_compiler.compile_step`): one subscriber and
one call per item instead of one subscriber per stage. Behaviour is the
operators': a raising function or a ``None`` mapper result cancels upstream and
signals the error; a dropped item is replaced with ``request(1)`` upstream, or
answered ``False`` to a ConditionalSubscriber upstream; fusion is forwarded
(SYNC/ASYNC, refused across a BOUNDARY since the stages run user code) and, when
fused, the stages run in ``poll()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import ChecksItems
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import direct_sink
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.stage_compiler import DROP
from rxpy2._internal.helpers.stage_compiler import compile_push
from rxpy2._internal.helpers.stage_compiler import compile_step
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_filter import FlowableFilter
from rxpy2._internal.operators.flowable.flowable_map import FlowableMap
from rxpy2._internal.subscribers.basic_fuseable import FilteringConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import FilteringSubscriber
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["MAX_STAGES", "FlowableMapFilter", "collapse_map_filter"]

T = TypeVar("T")
R = TypeVar("R")

#: The most stages one collapsed stage holds.
MAX_STAGES = 32


def collapse_map_filter(upstream: Publisher[Any], stage: FusedStage,
                        fn: Callable[[Any], Any]) -> Flowable[Any] | None:
    """``upstream`` (a map, filter or collapsed stage) and one more map/filter as one stage."""
    t = type(upstream)
    if t is FlowableMapFilter:
        if len(upstream.stages) >= MAX_STAGES:  # type: ignore[attr-defined]  # upstream is a FlowableMapFilter here
            return None
        stages = (*upstream.stages, (stage, fn))  # type: ignore[attr-defined]  # upstream is a FlowableMapFilter here
    elif t is FlowableMap:
        stages = ((FlowableMap.STAGE, upstream.mapper), (stage, fn))  # type: ignore[attr-defined]  # upstream is a FlowableMap here
    elif t is FlowableFilter:
        stages = ((FlowableFilter.STAGE, upstream.predicate), (stage, fn))  # type: ignore[attr-defined]  # upstream is a FlowableFilter here
    else:
        return None
    return FlowableMapFilter(upstream.source, stages)  # type: ignore[attr-defined]  # upstream is one of the three here


class FlowableMapFilter(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    """``source`` then ``stages`` ((map's or filter's stage, function) pairs) as one operator."""

    __slots__ = ("source", "stages", "step", "push")

    def __init__(self, source: Publisher[T], stages: tuple[tuple[FusedStage, Any], ...]) -> None:
        self.source = source
        self.stages = stages
        self.step = compile_step(stages)
        self.push = compile_push(stages)

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, MapFilterConditionalSubscriber(subscriber, self.step))
        else:
            subscribe_tail(self.source, MapFilterSubscriber(subscriber, self.step, self.push))


class _StepMixin:
    """The stages in ``try_on_next`` and ``poll`` (``FilteringSubscriber``'s, with a step that
    transforms the item as well as dropping it); ``on_next`` and ``pass_on`` come from it."""

    qs: Any
    step: Callable[[Any], Any]
    source_mode: int
    done: bool
    downstream: Any
    fail: Any
    pass_on: Any

    def try_on_next(self, item: Any) -> bool:
        if self.done:
            return True  # nothing more will come; don't ask for a replacement
        if self.source_mode != NONE:  # ASYNC fused: the item is a "ready" signal
            self.downstream.on_next(item)
            return True
        try:
            v = self.step(item)
        except Exception as e:
            self.fail(e)
            return True
        if v is DROP:
            return False
        return self.pass_on(v)  # type: ignore[no-any-return]  # the compiled stage function returns Any

    def poll(self) -> Any:
        qs = self.qs
        step = self.step
        while True:
            t = qs.poll()
            if t is None:
                return None
            v = step(t)
            if v is not DROP:
                return v
            if self.source_mode == ASYNC:
                qs.request(1)  # a dropped item is replaced, as on the non-fused path


class MapFilterSubscriber(_StepMixin, FilteringSubscriber[T], ChecksItems, Generic[T, R]):
    """The stages over a plain downstream: ``on_next`` is the compiled ``push`` (the
    stages inline, a DirectSink consumer's function called directly); ``poll`` and
    ``try_on_next`` (fused, or over a conditional upstream) run ``step``."""

    def __init__(self, downstream: Subscriber[R], step: Callable[[T], Any],
                 push: Callable[..., Callable[[Any], None]]) -> None:
        super().__init__(downstream)  # type: ignore[arg-type]  # the stages change the item type
        self.step = step
        # a DirectSink downstream (a callback consumer): its function is called per item,
        # and what it raises goes to its sink_failed (which cancels us, then on_error)
        sink = direct_sink(downstream)
        emit, failed = sink if sink is not None else (downstream.on_next, None)
        # set before anyone reads it (a relaying upstream takes our on_next when it is made)
        self.on_next = push(self, emit, failed, null_item, NONE)  # type: ignore[method-assign, assignment]  # the compiled on_next of this subscription

    def cancel(self) -> None:
        self.done = True  # no item reaches a direct sink after its dispose()
        super().cancel()


class MapFilterConditionalSubscriber(_StepMixin, FilteringConditionalSubscriber[T],
                                     Generic[T, R]):
    def __init__(self, downstream: ConditionalSubscriber[R], step: Callable[[T], Any]) -> None:
        super().__init__(downstream)  # type: ignore[arg-type]  # the stages change the item type
        self.step = step
