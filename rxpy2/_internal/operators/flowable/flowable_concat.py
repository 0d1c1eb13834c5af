"""Flowable.concat / concat_array (and start_with, concat_with): sources one after another.

One :class:`SubscriptionArbiter` (``cancel_on_replace=False``: a source that
completed needs no cancel) faces the downstream for the whole sequence. Before
subscribing to the next source the subscriber reports what the finished one
emitted with ``produced(n)``, so the next source is asked for exactly the demand
still outstanding.

The next subscription happens in a loop guarded by a :class:`Drain`: only the
``on_complete`` whose ``enter()`` succeeds loops over the sources; a source that
completes synchronously inside ``subscribe`` fails ``enter()`` (it is counted)
and returns, and the owner's ``leave()`` sends it round again, so any number of
sources runs in constant stack depth (a loop, never recursion).

With ``delay_error`` an error moves on to the next source too; at the end the
errors go downstream together (one error as itself, several as a
:class:`CompositeException`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.exception_helper import append_error
from rxpy2._internal.helpers.exception_helper import signal_end
from rxpy2._internal.subscribers.arbiter_relay import ArbiterRelay
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableConcatArray", "FlowableConcatIterable"]

T = TypeVar("T")

_END = object()
_NO_SOURCES: Iterator[Any] = iter(())


def _none_source(i: int) -> TypeError:
    return TypeError(f"The source at index {i} is None")


def _not_publisher(i: int, p: object) -> TypeError:
    return TypeError(f"The source at index {i} is not a Publisher but {type(p).__name__}")


class FlowableConcatArray(Flowable[T], Generic[T]):
    __slots__ = ("sources", "delay_error")

    def __init__(self, sources: Sequence[Publisher[T]], delay_error: bool) -> None:
        self.sources = sources
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: ConcatArraySubscriber[T] = ConcatArraySubscriber(
            subscriber, iter(self.sources), self.delay_error)
        subscriber.on_subscribe(parent)
        parent.on_complete()  # subscribes to the first source


class FlowableConcatIterable(Flowable[T], Generic[T]):
    """The sources of an iterable; each subscriber calls ``iter()`` anew."""

    __slots__ = ("sources", "delay_error")

    def __init__(self, sources: Iterable[Publisher[T]], delay_error: bool) -> None:
        self.sources = sources
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            it = iter(self.sources)
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        parent: ConcatArraySubscriber[T] = ConcatArraySubscriber(
            subscriber, it, self.delay_error)
        subscriber.on_subscribe(parent)
        parent.on_complete()


class ConcatArraySubscriber(ArbiterRelay[T], Generic[T]):
    """Subscribes to each source in turn."""

    def __init__(self, downstream: Subscriber[T], sources: Iterator[Publisher[T]],
                 delay_error: bool) -> None:
        super().__init__(downstream)
        self.sources = sources
        self.delay_error = delay_error
        self.index = 0
        self.errors: list[BaseException] | None = None  # delayed (append_error)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.delay_error:
            self.errors = append_error(self.errors, error)
            self.on_complete()  # on to the next source
        else:
            self.downstream.on_error(error)

    def _finish(self, error: BaseException | None) -> None:
        """Signal the end: ``error`` (with any delayed ones) or the delayed errors or completion."""
        errors, self.errors = self.errors, None
        signal_end(self.downstream, errors, error)

    def _bad_source(self, error: BaseException) -> bool:
        """A source is None or no Publisher: True if the stream goes on (delay_error)."""
        if not self.delay_error:
            self._finish(error)
            return False
        self.errors = append_error(self.errors, error)
        return True

    def on_complete(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the loop below (further up this stack, or on another thread) goes on
        sources = self.sources
        while True:
            if self.cancelled:
                self.sources = _NO_SOURCES  # let the remaining sources go
                return
            i = self.index
            try:
                p = next(sources, _END)
            except Exception as e:  # the user's iterable failed
                self._finish(e)
                return
            if p is _END:
                self._finish(None)
                return
            self.index = i + 1
            if p is None or not isinstance(p, Publisher):
                if self._bad_source(_none_source(i) if p is None else _not_publisher(i, p)):
                    continue  # delay_error: on to the next source, no signal to wait for
                return
            self.carry_over()  # the next source gets only the outstanding demand
            p.subscribe(self)
            if not gate.leave():
                return
