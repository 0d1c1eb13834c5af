"""Flowable.do_after_next: call a function with each item after it went downstream.

``fn`` raising cancels the upstream and signals the error downstream. Fuses
(SYNC/ASYNC): in ``poll`` the function runs on the item just before the
consumer emits it, since a fused consumer emits after ``poll`` returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDoAfterNext"]

T = TypeVar("T")


class FlowableDoAfterNext(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "fn")

    def __init__(self, source: Publisher[T], fn: Callable[[T], Any]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, DoAfterNextConditionalSubscriber(subscriber, self.fn))
        else:
            subscribe_tail(self.source, DoAfterNextSubscriber(subscriber, self.fn))


class _AfterNext(Generic[T]):
    """``on_next`` and ``poll`` of both subscribers (over a plain or a conditional
    Subscriber: ``try_on_next`` is the conditional one's own)."""

    downstream: Any
    qs: Any
    done: bool
    source_mode: int
    fn: Callable[[T], Any]
    fail: Any  # _FuseableBase.fail

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if item is None and self.source_mode == NONE:  # ASYNC fused: None is "ready"
            raise null_item()  # §2.13
        self.downstream.on_next(item)  # ASYNC fused: passes the "ready" signal on
        if self.source_mode == NONE:
            try:
                self.fn(item)
            except Exception as e:
                self.fail(e)

    def poll(self) -> T | None:
        v: T | None = self.qs.poll()
        if v is not None:
            self.fn(v)
        return v


class DoAfterNextSubscriber(_AfterNext[T], BasicFuseableSubscriber[T, T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], fn: Callable[[T], Any]) -> None:
        super().__init__(downstream)
        self.fn = fn


class DoAfterNextConditionalSubscriber(_AfterNext[T], BasicFuseableConditionalSubscriber[T, T],
                                       Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], fn: Callable[[T], Any]) -> None:
        super().__init__(downstream)
        self.fn = fn

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True
        if item is None:
            raise null_item()  # §2.13
        b = self.downstream.try_on_next(item)
        try:
            self.fn(item)
        except Exception as e:
            self.fail(e)
            return True
        return bool(b)
