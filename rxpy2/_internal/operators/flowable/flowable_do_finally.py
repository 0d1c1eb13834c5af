"""Flowable.do_finally: run an action once, after the terminal signal or on cancel.

Whichever comes first of ``on_error``/``on_complete`` (after it went downstream)
and ``cancel()`` runs the action; a compare-and-set makes it run exactly once
even when they race. The action raising goes to :func:`rxpy2.plugins.on_error`.
Fuses (SYNC/ASYNC), but not across a thread boundary (the action would move to
the consumer's thread); in SYNC mode the end of the source, reported by ``poll``
or by ``is_empty``, runs the action (just before the consumer signals completion).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDoFinally"]

T = TypeVar("T")


class FlowableDoFinally(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "fn")

    def __init__(self, source: Publisher[T], fn: Callable[[], Any]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, DoFinallyConditionalSubscriber(subscriber, self.fn))
        else:
            subscribe_tail(self.source, DoFinallySubscriber(subscriber, self.fn))


class _DoFinallyMixin:
    """The once-only action and the signal handling shared by both variants."""

    downstream: Any
    upstream: Any
    qs: Any
    done: bool
    source_mode: int
    _fn: Callable[[], Any]
    _once: Any

    def _set_action(self, fn: Callable[[], Any]) -> None:
        self._fn = fn
        self._once = AtomicInteger()

    def run_finally(self) -> None:
        if self._once.compare_and_set(0, 1):
            call_reporting(self._fn)

    def on_next(self, item: Any) -> None:
        if item is None and self.source_mode != ASYNC:  # ASYNC: None only says "poll"
            raise null_item()  # §2.13
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)
        self.run_finally()

    def on_complete(self) -> None:
        self.downstream.on_complete()
        self.run_finally()

    def cancel(self) -> None:
        self.upstream.cancel()
        self.run_finally()

    def poll(self) -> Any:
        v = self.qs.poll()
        if v is None and self.source_mode == SYNC:
            self.run_finally()  # the end of a SYNC source
        return v

    def is_empty(self) -> bool:
        empty = bool(self.qs.is_empty())
        if empty and self.source_mode == SYNC:
            self.run_finally()  # the end of a SYNC source, found without a poll
        return empty


class DoFinallySubscriber(_DoFinallyMixin, BasicFuseableSubscriber[T, T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], fn: Callable[[], Any]) -> None:
        super().__init__(downstream)
        self._set_action(fn)


class DoFinallyConditionalSubscriber(_DoFinallyMixin, BasicFuseableConditionalSubscriber[T, T],
                                     Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], fn: Callable[[], Any]) -> None:
        super().__init__(downstream)
        self._set_action(fn)

    def try_on_next(self, item: T) -> bool:
        if item is None and self.source_mode != ASYNC:
            raise null_item()  # §2.13
        return self.downstream.try_on_next(item)  # type: ignore[no-any-return]  # the downstream is Any-typed
