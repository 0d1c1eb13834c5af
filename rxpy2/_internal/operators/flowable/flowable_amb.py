"""Flowable.amb / amb_array / amb_with: mirror the source that signals first.

``sources`` is iterated at each subscription (``sources_or_terminate``,
internal/helpers/sources_helper.py: an error while iterating, or something
that is not a Publisher, is signalled downstream; no source: completion at
once); one source: the downstream is subscribed to it directly.

Otherwise an :class:`AmbCoordinator` is the downstream's Subscription and an
:class:`AmbInnerSubscriber` observes each source. The first inner subscriber
to signal anything (an item, an error or completion) wins the coordinator's
``winner`` index with a compare-and-set and cancels all the others; from then
on its signals go straight downstream, a loser's are dropped (a losing error
goes to :func:`rxpy2.plugins.on_error`). Requests made before there is a
winner go to every source, those after it to the winner only; a source that
has not called ``on_subscribe`` yet gets them then (deferred requesting).
The sources are subscribed in order, and no more once one has won.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.sources import sources_or_terminate
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import deferred_request
from rxpy2.operator_kit import deferred_set_once
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_subscription
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["AmbCoordinator", "AmbInnerSubscriber", "FlowableAmb"]

T = TypeVar("T")

#: ``winner`` once the downstream cancelled (before or after a winner).
_CANCELLED = -1


class FlowableAmb(Flowable[T], Generic[T]):
    __slots__ = ("sources",)

    def __init__(self, sources: Iterable[Publisher[T]]) -> None:
        self.sources = sources

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        sources = sources_or_terminate(self.sources, subscriber)
        if sources is None:
            return
        n = len(sources)
        if n == 1:
            subscribe_tail(sources[0], subscriber)
        else:
            subscribe_tail(AmbCoordinator(subscriber, n), sources)


class AmbCoordinator(Subscription, Generic[T]):
    """``winner``: 0 while undecided, the winner's index + 1, or -1 once cancelled."""

    __slots__ = ("downstream", "subscribers", "winner")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        self.downstream = downstream
        self.winner = AtomicInteger()
        self.subscribers = [AmbInnerSubscriber(self, i + 1, downstream) for i in range(n)]

    def subscribe(self, sources: tuple[Publisher[T], ...]) -> None:
        self.downstream.on_subscribe(self)
        winner = self.winner
        for p, inner in zip(sources, self.subscribers, strict=True):
            if winner.get() != 0:  # won (or cancelled) already: the rest were cancelled
                return
            p.subscribe(inner)

    def request(self, n: int) -> None:
        if n := validate_request(n):
            w = self.winner.get()
            if w > 0:
                self.subscribers[w - 1].request(n)
            elif w == 0:  # undecided: every source may become the one
                for inner in self.subscribers:
                    inner.request(n)

    def win(self, index: int) -> bool:
        """Try to make ``index`` the winner; the winner cancels all the others."""
        winner = self.winner
        if winner.get() == 0 and winner.compare_and_set(0, index):
            for inner in self.subscribers:
                if inner.index != index:
                    inner.cancel()
            return True
        return False

    def cancel(self) -> None:
        if self.winner.get() != _CANCELLED:
            self.winner.set(_CANCELLED)
            for inner in self.subscribers:
                inner.cancel()


class AmbInnerSubscriber(AtomicReference[Subscription], FlowableSubscriber[T], Subscription,
                         Generic[T]):
    """Observes one source; holds its Subscription (deferred: requests may come first)."""

    __slots__ = ("parent", "index", "downstream", "won", "missed_requested")

    def __init__(self, parent: AmbCoordinator[T], index: int, downstream: Subscriber[T]) -> None:
        super().__init__()
        self.parent = parent
        self.index = index
        self.downstream = downstream
        self.won = False  # only this source's signals (serial, §1.3) touch it
        self.missed_requested = AtomicLong()

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        deferred_set_once(self, self.missed_requested, s)

    def wins(self) -> bool:
        """Whether this source's signal goes downstream: it won already, or wins now."""
        if self.won:
            return True
        if self.parent.win(self.index):
            self.won = True
            return True
        return False

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if self.won or self.wins():  # ``won`` first: no call per item after the race
            self.downstream.on_next(item)
        else:
            self.cancel()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.wins():
            self.downstream.on_error(error)
        else:
            self.cancel()
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.wins():
            self.downstream.on_complete()
        else:
            self.cancel()

    def request(self, n: int) -> None:
        deferred_request(self, self.missed_requested, n)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self)
