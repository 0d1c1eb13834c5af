"""Flowable.from_array / just(a, b, ...): the items of a sequence, by index; fuses in SYNC mode."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.operators.flowable._sync_source import SyncSourceSubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableFromArray"]

T = TypeVar("T")


def _none_at(i: int) -> TypeError:
    return TypeError(f"The element at index {i} is None")


def _index_of_none(array: Sequence[Any], start: int) -> int:
    """The index of the first ``None`` at or after ``start`` (the error path of the fast path)."""
    return next(i for i in range(start, len(array)) if array[i] is None)




class FlowableFromArray(Flowable[T], Generic[T]):
    __slots__ = ("array",)

    def __init__(self, array: Sequence[T]) -> None:
        self.array = array

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscriber.on_subscribe(ArrayConditionalSubscription(subscriber, self.array))
        else:
            subscriber.on_subscribe(ArraySubscription(subscriber, self.array))


class _BaseArraySubscription(SyncSourceSubscription[T], Generic[T]):
    __slots__ = ("array", "index")

    def __init__(self, downstream: Subscriber[T], array: Sequence[T]) -> None:
        super().__init__(downstream)
        self.array = array
        self.index = 0

    # fusion (SYNC): the consumer pulls the items itself
    def poll(self) -> T | None:
        i = self.index
        a = self.array
        if i == len(a):
            return None
        self.index = i + 1
        v = a[i]
        if v is None:
            raise _none_at(i)
        return v

    def is_empty(self) -> bool:
        return self.index == len(self.array)

    def clear(self) -> None:
        self.index = len(self.array)


class ArraySubscription(_BaseArraySubscription[T]):
    __slots__ = ()

    def fast_path(self) -> None:
        arr = self.array
        a = self.downstream
        on_next = a.on_next
        start = self.index
        for v in islice(arr, start, len(arr)):  # iterating beats indexing
            if self.cancelled:
                return
            if v is None:
                a.on_error(_none_at(_index_of_none(arr, start)))
                return
            on_next(v)
        if not self.cancelled:
            a.on_complete()

    def slow_path(self, r: int) -> None:
        arr = self.array
        f = len(arr)
        e = 0
        i = self.index
        a = self.downstream
        requested = self.requested
        while True:
            while e != r and i != f:
                if self.cancelled:
                    return
                v = arr[i]
                if v is None:
                    a.on_error(_none_at(i))
                    return
                a.on_next(v)
                e += 1
                i += 1
            if i == f:
                if not self.cancelled:
                    a.on_complete()
                return
            r = requested.get()
            if e == r:
                self.index = i
                r = requested.add_and_get(-e)
                if r == 0:
                    return
                e = 0


class ArrayConditionalSubscription(_BaseArraySubscription[T]):
    __slots__ = ()

    def fast_path(self) -> None:
        arr = self.array
        a = self.downstream
        try_on_next = a.try_on_next
        start = self.index
        for v in islice(arr, start, len(arr)):
            if self.cancelled:
                return
            if v is None:
                a.on_error(_none_at(_index_of_none(arr, start)))
                return
            try_on_next(v)
        if not self.cancelled:
            a.on_complete()

    def slow_path(self, r: int) -> None:
        arr = self.array
        f = len(arr)
        e = 0
        i = self.index
        a = self.downstream
        requested = self.requested
        while True:
            while e != r and i != f:
                if self.cancelled:
                    return
                v = arr[i]
                if v is None:
                    a.on_error(_none_at(i))
                    return
                if a.try_on_next(v):
                    e += 1
                i += 1
            if i == f:
                if not self.cancelled:
                    a.on_complete()
                return
            r = requested.get()
            if e == r:
                self.index = i
                r = requested.add_and_get(-e)
                if r == 0:
                    return
                e = 0
