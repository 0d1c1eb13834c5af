"""Maybe.concat(iterable) / concat_array / concat_array_delay_error / concat_with
(RxJava 2's MaybeConcatIterable, MaybeConcatArray, MaybeConcatArrayDelayError).

A Flowable of the sources' items, one source at a time. ``current`` holds the
item of the source that just succeeded, or ``_DONE`` when it ended without one
(the start behaves as if a source had just completed). One
:class:`~rxpy2.operator_kit.Drain` loop emits the item when downstream demand allows
(``produced`` counts the emitted items against the never-decremented ``requested``,
as RxJava 2 does), then subscribes the next source. A source that signals while
being subscribed only marks the drain as missed: the loop, further up the stack,
runs again, so any number of synchronous sources runs in constant stack depth.
After the terminal signal or a cancel the loop keeps the drain for good.

Without ``delay_errors`` a source's error goes downstream at once (nothing else
can be emitting: the previous item was delivered before this source was
subscribed); with it, the error is kept, the next source runs, and at the end
the errors go downstream (several as a :class:`CompositeException`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.exception_helper import append_error
from rxpy2._internal.helpers.exception_helper import signal_end
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.disposables import Disposable
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["MaybeConcat"]

T = TypeVar("T")

_DONE: Any = object()  # the current source ended without an item: on to the next
_END: Any = object()


class MaybeConcat(Flowable[T], Generic[T]):
    """The items of ``sources`` (an iterable, iterated per subscriber), in order."""

    __slots__ = ("sources", "delay_errors")

    def __init__(self, sources: Iterable[Maybe[T]], delay_errors: bool) -> None:
        self.sources = sources
        self.delay_errors = delay_errors

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            it = iter(self.sources)
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        parent: ConcatMaybeObserver[T] = ConcatMaybeObserver(subscriber, it, self.delay_errors)
        subscriber.on_subscribe(parent)
        parent.drain()


class ConcatMaybeObserver(MaybeObserver[T], Subscription, Generic[T]):
    """Observes each source in turn; is the downstream's Subscription."""

    __slots__ = ("downstream", "sources", "delay_errors", "requested", "produced", "current",
                 "sd", "gate", "errors")

    def __init__(self, downstream: Subscriber[T], sources: Iterator[Maybe[T]],
                 delay_errors: bool) -> None:
        self.downstream = downstream
        self.sources = sources
        self.delay_errors = delay_errors
        self.requested = AtomicLong(0)
        self.produced = 0  # items emitted (only the drain owner touches it)
        self.current: Any = _DONE
        self.sd = SerialDisposable()  # the current source's Disposable; cancel disposes it
        self.gate = Drain()
        self.errors: list[BaseException] | None = None  # delayed (append_error)

    # ---- Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        self.sd.dispose()

    # ---- MaybeObserver

    def on_subscribe(self, d: Disposable) -> None:
        self.sd.replace(d)

    def on_success(self, item: T) -> None:
        self.current = item
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if self.delay_errors:
            self.errors = append_error(self.errors, error)
            self.current = _DONE
            self.drain()
        else:
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.current = _DONE
        self.drain()

    # ---- the loop

    def _finish(self, error: BaseException | None) -> None:
        errors, self.errors = self.errors, None
        signal_end(self.downstream, errors, error)

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # counted: the owner makes another pass
        sd = self.sd
        sources = self.sources
        while True:
            if sd.is_disposed():
                self.current = None  # §3.13: let the item go
                return
            o = self.current
            if o is not None:
                go_next = True
                if o is _DONE:
                    self.current = None
                else:
                    p = self.produced
                    if p != self.requested.get():
                        self.produced = p + 1
                        self.current = None
                        self.downstream.on_next(o)
                    else:
                        go_next = False  # wait for demand
                if go_next and not sd.is_disposed():
                    try:
                        m = next(sources, _END)
                        if m is not _END and not isinstance(m, Maybe):
                            raise TypeError(
                                "The iterator returned a None source" if m is None else
                                f"The iterator returned a {type(m).__name__}, not a Maybe")
                    except Exception as e:  # the user's iterable failed
                        self._finish(e)
                        return
                    if m is _END:
                        self._finish(None)
                        return
                    m._subscribe(self)
            if not gate.leave():
                return
