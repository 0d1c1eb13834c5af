"""Flowable.from_iterable: the items of an iterable under demand; fuses in SYNC mode.

Each subscriber calls ``iter()`` anew. The iterator is read one item ahead so
that completion arrives together with the last item: the first item is fetched
at subscription (an empty iterable completes at once, an ``iter()``/``next()``
that raises signals ``on_error`` at once), and after each emitted item the next
one is fetched before the demand is checked, never more. A ``None`` item
signals ``TypeError`` in its place.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.operators.flowable._sync_source import SyncSourceSubscription
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableFromIterable"]

T = TypeVar("T")


class _Sentinel:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: The iterator is exhausted.
_END: Any = _Sentinel("END")
#: (fused mode) no item is held: the next ``poll`` reads the iterator.
_UNFETCHED: Any = _Sentinel("UNFETCHED")


class _Failed:
    """(fused mode) ``is_empty`` read ahead and the iterator raised: ``poll`` raises it."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _none_item() -> TypeError:
    return TypeError("The iterator returned a None item")


class FlowableFromIterable(Flowable[T], Generic[T]):
    __slots__ = ("iterable",)

    def __init__(self, iterable: Iterable[T]) -> None:
        self.iterable = iterable

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            it = iter(self.iterable)
            first = next(it, _END)
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        if first is _END:
            EmptySubscription.complete(subscriber)
            return
        if is_conditional(subscriber):
            subscriber.on_subscribe(IteratorConditionalSubscription(subscriber, it, first))
        else:
            subscriber.on_subscribe(IteratorSubscription(subscriber, it, first))


class _BaseIteratorSubscription(SyncSourceSubscription[T], Generic[T]):
    """``pending`` holds the item read ahead (not yet emitted)."""

    __slots__ = ("it", "pending")

    def __init__(self, downstream: Subscriber[T], it: Iterator[T], first: T) -> None:
        super().__init__(downstream)
        self.it = it
        self.pending: Any = first

    # fusion (SYNC): the consumer pulls from the iterator itself
    def poll(self) -> T | None:
        v = self.pending
        if v is _UNFETCHED:
            v = next(self.it, _END)
        elif v is _END:
            return None
        else:
            self.pending = _UNFETCHED
            if v.__class__ is _Failed:
                self.pending = _END
                raise v.error
        if v is _END:
            self.pending = _END
            return None
        if v is None:
            self.pending = _END
            raise _none_item()
        return v  # type: ignore[no-any-return]  # an item: the markers were handled above

    def is_empty(self) -> bool:
        if self.pending is _UNFETCHED:
            try:
                self.pending = next(self.it, _END)
            except Exception as e:  # is_empty must not raise (no consumer expects it)
                self.pending = _Failed(e)
        return self.pending is _END

    def clear(self) -> None:
        self.pending = _END


class IteratorSubscription(_BaseIteratorSubscription[T]):
    __slots__ = ()

    def fast_path(self) -> None:
        a = self.downstream
        on_next = a.on_next
        v = self.pending
        if self.cancelled:  # §3.6: a cancel before the first request emits nothing
            return
        if v is None:
            a.on_error(_none_item())
            return
        on_next(v)
        if self.cancelled:
            return
        error: BaseException | None = None
        emitting = False  # tells the iterator's exceptions from the downstream's
        try:
            for v in self.it:  # next() runs only after the cancelled check below
                if v is None:
                    error = _none_item()
                    break
                emitting = True
                on_next(v)
                emitting = False
                if self.cancelled:
                    return
        except Exception as ex:
            if emitting:
                raise
            error = ex
        if error is not None:
            a.on_error(error)
        elif not self.cancelled:
            a.on_complete()

    def slow_path(self, r: int) -> None:
        e = 0
        a = self.downstream
        it = self.it
        requested = self.requested
        v = self.pending
        while True:
            while e != r:
                if self.cancelled:
                    return
                if v is None:
                    a.on_error(_none_item())
                    return
                a.on_next(v)
                if self.cancelled:
                    return
                try:
                    v = next(it, _END)  # read ahead: completion comes with the last item
                except Exception as ex:
                    a.on_error(ex)
                    return
                if v is _END:
                    if not self.cancelled:
                        a.on_complete()
                    return
                e += 1
            r = requested.get()
            if e == r:
                self.pending = v
                r = requested.add_and_get(-e)
                if r == 0:
                    return
                e = 0


class IteratorConditionalSubscription(_BaseIteratorSubscription[T]):
    """Uses ``try_on_next``: an item the downstream drops does not count against demand."""

    __slots__ = ()

    def fast_path(self) -> None:
        a = self.downstream
        try_on_next = a.try_on_next
        v = self.pending
        if self.cancelled:  # §3.6: a cancel before the first request emits nothing
            return
        if v is None:
            a.on_error(_none_item())
            return
        try_on_next(v)
        if self.cancelled:
            return
        error: BaseException | None = None
        emitting = False
        try:
            for v in self.it:
                if v is None:
                    error = _none_item()
                    break
                emitting = True
                try_on_next(v)
                emitting = False
                if self.cancelled:
                    return
        except Exception as ex:
            if emitting:
                raise
            error = ex
        if error is not None:
            a.on_error(error)
        elif not self.cancelled:
            a.on_complete()

    def slow_path(self, r: int) -> None:
        e = 0
        a = self.downstream
        try_on_next = a.try_on_next
        it = self.it
        requested = self.requested
        v = self.pending
        while True:
            while e != r:
                if self.cancelled:
                    return
                if v is None:
                    a.on_error(_none_item())
                    return
                consumed = try_on_next(v)
                if self.cancelled:
                    return
                try:
                    v = next(it, _END)
                except Exception as ex:
                    a.on_error(ex)
                    return
                if v is _END:
                    if not self.cancelled:
                        a.on_complete()
                    return
                if consumed:
                    e += 1
            r = requested.get()
            if e == r:
                self.pending = v
                r = requested.add_and_get(-e)
                if r == 0:
                    return
                e = 0
