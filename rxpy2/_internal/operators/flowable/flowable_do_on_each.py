"""Flowable.do_on_each (do_on_next, do_on_error, do_on_complete, do_after_terminate ...).

Calls the given functions as the signals pass, before they go downstream
(``on_after_terminate`` after the terminal signal went downstream):

* ``on_next`` raising: the upstream is cancelled and the error goes downstream.
* ``on_error`` raising: the downstream gets ``CompositeException(original, new)``.
* ``on_complete`` raising: the downstream gets that error instead of completion.
* ``on_after_terminate`` raising: the error goes to :func:`rxpy2.plugins.on_error`.

Fuses (SYNC/ASYNC) by calling the functions in ``poll``: ``on_next`` for each
polled item, ``on_error`` when polling fails, and, in SYNC mode, ``on_complete``
when ``poll`` or ``is_empty`` reports the end (``on_complete`` raising there is
raised by the next ``poll``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableSubscriber
from rxpy2.exceptions import CompositeException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableDoOnEach"]

T = TypeVar("T")

OnNext = Callable[[Any], Any] | None
OnError = Callable[[BaseException], Any] | None
Action = Callable[[], Any] | None


def _on_next_lines(i: int, stop: Lines) -> Lines:
    return [f"f{i}(x)"]


class FlowableDoOnEach(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "on_next", "on_error", "on_complete", "on_after_terminate")

    #: do_on_next as a fused stage: ``fN(x)``
    STAGE: ClassVar[FusedStage] = FusedStage(
        "do_on_next", operator=lambda up, f: FlowableDoOnEach(up, f, None, None, None),
        loop=_on_next_lines, rxjava_fuseable=True, before_flatten=True, one_to_one=True)

    def __init__(self, source: Publisher[T], on_next: OnNext, on_error: OnError,
                 on_complete: Action, on_after_terminate: Action) -> None:
        self.source = source
        self.on_next = on_next
        self.on_error = on_error
        self.on_complete = on_complete
        self.on_after_terminate = on_after_terminate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, DoOnEachConditionalSubscriber(
                subscriber, self.on_next, self.on_error, self.on_complete,
                self.on_after_terminate))
        else:
            subscribe_tail(self.source, DoOnEachSubscriber(
                subscriber, self.on_next, self.on_error, self.on_complete,
                self.on_after_terminate))


class _DoOnEachMixin(Generic[T]):
    """The callbacks and the signal handling shared by both variants."""

    downstream: Any
    upstream: Subscription
    qs: Any
    done: bool
    source_mode: int
    _on_next: OnNext
    _on_error: OnError
    _on_complete: Action
    _on_after_terminate: Action
    fail: Callable[[BaseException], None]  # from the fuseable base

    def _set_callbacks(self, on_next: OnNext, on_error: OnError, on_complete: Action,
                       on_after_terminate: Action) -> None:
        self._on_next = on_next
        self._on_error = on_error
        self._on_complete = on_complete
        self._on_after_terminate = on_after_terminate
        self._end_error: BaseException | None = None  # on_complete raised in is_empty

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.source_mode != NONE:  # ASYNC fused: the item is a "ready" signal
            self.downstream.on_next(None)
            return
        if item is None:
            raise null_item()  # §2.13
        f = self._on_next
        if f is not None:
            try:
                f(item)
            except Exception as e:
                self.fail(e)
                return
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        f = self._on_error
        if f is not None:
            try:
                f(error)
            except Exception as e:
                error = CompositeException(error, e)
        self.downstream.on_error(error)
        self._after_terminate()

    def on_complete(self) -> None:
        if self.done:
            return
        f = self._on_complete
        if f is not None:
            try:
                f()
            except Exception as e:
                self.fail(e)  # cancels (a no-op now) and runs the on_error path
                return
        self.done = True
        self.downstream.on_complete()
        self._after_terminate()

    def _after_terminate(self) -> None:
        call_reporting(self._on_after_terminate)

    def _poll_failed(self, error: BaseException) -> BaseException:
        """Polling (or ``on_next`` on a polled item) raised: the consumer will signal it."""
        self.done = True
        f = self._on_error
        if f is not None:
            try:
                f(error)
            except Exception as e:
                error = CompositeException(error, e)
        self._after_terminate()
        return error

    def poll(self) -> T | None:
        end_error = self._end_error
        if end_error is not None:  # on_complete raised in is_empty: report it now
            self._end_error = None
            raise self._poll_failed(end_error)
        try:
            v = self.qs.poll()
            if v is not None:
                f = self._on_next
                if f is not None:
                    f(v)
                return v  # type: ignore[no-any-return]  # the queue holds Any
        except Exception as e:
            error: BaseException = e
        else:
            if self.source_mode != SYNC or self.done:
                return None
            # the end of a SYNC source: the consumer signals the completion downstream
            self.done = True
            on_complete = self._on_complete
            try:
                if on_complete is not None:
                    on_complete()
            except Exception as e:
                error = e
            else:
                self._after_terminate()
                return None
        raise self._poll_failed(error)

    def is_empty(self) -> bool:
        if not self.qs.is_empty():
            return False
        if self.source_mode != SYNC or self.done:
            return True
        # the end of a SYNC source, found without a poll: what poll() does at the end
        self.done = True
        on_complete = self._on_complete
        try:
            if on_complete is not None:
                on_complete()
        except Exception as e:  # is_empty must not raise: the next poll() raises it
            self._end_error = e
            return False
        self._after_terminate()
        return True


class DoOnEachSubscriber(_DoOnEachMixin[T], BasicFuseableSubscriber[T, T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], on_next: OnNext, on_error: OnError,
                 on_complete: Action, on_after_terminate: Action) -> None:
        super().__init__(downstream)
        self._set_callbacks(on_next, on_error, on_complete, on_after_terminate)


class DoOnEachConditionalSubscriber(_DoOnEachMixin[T], BasicFuseableConditionalSubscriber[T, T],
                                    Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], on_next: OnNext,
                 on_error: OnError, on_complete: Action, on_after_terminate: Action) -> None:
        super().__init__(downstream)
        self._set_callbacks(on_next, on_error, on_complete, on_after_terminate)

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True  # nothing more will come; don't ask for a replacement
        if item is None:
            raise null_item()  # §2.13
        f = self._on_next
        if f is not None:
            try:
                f(item)
            except Exception as e:
                self.fail(e)
                return True
        return self.downstream.try_on_next(item)  # type: ignore[no-any-return]  # the downstream is Any-typed
