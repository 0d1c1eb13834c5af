"""Flowable.debounce(selector): RxJava 2's FlowableDebounce.

Each item starts the Publisher ``selector(item)``; the item is due when that Publisher
signals its first item or completes, unless a newer item came first (it cancels the
previous indicator). The timed debounce's subscriber (``flowable_debounce_timed.py``)
does the rest: the index, the ``ready`` emitters, the drain, the item still waiting at
completion, ``MissingBackpressureException`` for a due item without demand. Its
"worker" is the :class:`SerialDisposable` holding the current indicator here, so a
terminal signal or a cancel disposes that indicator.

An indicator's error ends the stream. RxJava 2 leaves the upstream running then (it
only disposes the indicator); here the upstream is cancelled too, as for a selector
that raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable.flowable_debounce_timed import DebounceEmitter
from rxpy2._internal.operators.flowable.flowable_debounce_timed import DebounceTimedSubscriber
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.operators.flowable.flowable_timeout import IndicatorSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDebounce"]

T = TypeVar("T")


class FlowableDebounce(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``debounce(selector)``: the upstream is requested without bound (as the timed one)."""

    __slots__ = ("source", "selector")

    def __init__(self, source: Publisher[T], selector: Callable[[T], Publisher[Any]]) -> None:
        self.source = source
        self.selector = selector

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, DebounceSelectorSubscriber(subscriber, self.selector))


class DebounceSelectorSubscriber(DebounceTimedSubscriber[T], Generic[T]):
    __slots__ = ("selector",)

    def __init__(self, downstream: Subscriber[T], selector: Callable[[T], Publisher[Any]]) -> None:
        super().__init__(downstream, 0.0, None)  # type: ignore[arg-type]  # no worker: the selector variant never schedules
        self.worker = self.timer  # type: ignore[assignment]  # disposing it drops the indicator
        self.selector = selector

    def hook_on_next(self, item: T) -> None:
        idx = self.index + 1
        self.index = idx
        d = self.timer.get()
        if d is not None:
            d.dispose()
        try:
            p = check_inner(self.selector(item), self.selector, "debounce")
        except Exception as ex:
            self.fail(ex)
            return
        de = DebounceEmitter(item, idx, self)
        self.pending = de
        inner = DebounceIndicator(self, de)
        if self.timer.replace(inner):
            p.subscribe(inner)

    def indicator_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.upstream.cancel()  # RxJava 2 keeps it running (see the module docstring)
        self.on_error(error)


class DebounceIndicator(IndicatorSubscriber):
    """The indicator of one item: its first item or completion makes that item due."""

    __slots__ = ("parent", "emitter")

    def __init__(self, parent: DebounceSelectorSubscriber[Any], emitter: DebounceEmitter[Any]) -> None:
        super().__init__()
        self.parent = parent
        self.emitter = emitter

    def fire(self) -> None:
        self.parent.fire(self.emitter)

    def fire_error(self, error: BaseException) -> None:
        self.parent.indicator_error(error)
