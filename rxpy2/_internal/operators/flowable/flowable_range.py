"""Flowable.range: ``count`` consecutive ints, under demand; fuses in SYNC mode."""

from __future__ import annotations

from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.operators.flowable._sync_source import SyncSourceSubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableRange"]


class FlowableRange(Flowable[int]):
    __slots__ = ("start", "end")

    def __init__(self, start: int, count: int) -> None:
        self.start = start
        self.end = start + count

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        if is_conditional(subscriber):
            subscriber.on_subscribe(RangeConditionalSubscription(subscriber, self.start, self.end))
        else:
            subscriber.on_subscribe(RangeSubscription(subscriber, self.start, self.end))


class _BaseRangeSubscription(SyncSourceSubscription[int]):
    __slots__ = ("index", "end")

    def __init__(self, downstream: Subscriber[int], start: int, end: int) -> None:
        super().__init__(downstream)
        self.index = start
        self.end = end

    # fusion (SYNC): the consumer pulls the ints itself
    def poll(self) -> int | None:
        i = self.index
        if i == self.end:
            return None
        self.index = i + 1
        return i

    def poll_many(self, limit: int) -> range:
        """SYNC fusion, a batch at once: the next ``limit`` ints, fewer only at the end
        (used by ``subscribe_on`` to fill ``observe_on``'s queue in one C call)."""
        i = self.index
        j = i + limit
        if j > self.end:
            j = self.end
        self.index = j
        return range(i, j)

    def is_empty(self) -> bool:
        return self.index == self.end

    def clear(self) -> None:
        self.index = self.end


class RangeSubscription(_BaseRangeSubscription):
    __slots__ = ()

    def fast_path(self) -> None:
        on_next = self.downstream.on_next
        for i in range(self.index, self.end):
            if self.cancelled:
                return
            on_next(i)
        if not self.cancelled:
            self.downstream.on_complete()

    def slow_path(self, r: int) -> None:
        e = 0
        f = self.end
        i = self.index
        a = self.downstream
        requested = self.requested
        while True:
            while e != r and i != f:
                if self.cancelled:
                    return
                a.on_next(i)
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


class RangeConditionalSubscription(_BaseRangeSubscription):
    """Uses ``try_on_next``: an item the downstream drops does not count against demand."""

    __slots__ = ()

    def fast_path(self) -> None:
        try_on_next = self.downstream.try_on_next
        for i in range(self.index, self.end):
            if self.cancelled:
                return
            try_on_next(i)
        if not self.cancelled:
            self.downstream.on_complete()

    def slow_path(self, r: int) -> None:
        e = 0
        f = self.end
        i = self.index
        a = self.downstream
        requested = self.requested
        while True:
            while e != r and i != f:
                if self.cancelled:
                    return
                if a.try_on_next(i):
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
