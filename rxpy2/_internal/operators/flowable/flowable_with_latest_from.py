"""Flowable.with_latest_from: each item combined with the latest items of other Publishers.

The others are subscribed first (so a synchronous one has its item in place),
each with an unbounded request; then the main source. A main item that comes
before every other emitted is dropped: to a ConditionalSubscriber-aware
upstream ``try_on_next`` answers False (no demand used), otherwise the item is
replaced with ``request(1)``. Otherwise ``combiner(item, *latest)`` (a tuple
``(item, *latest)`` when ``combiner`` is None) goes downstream. The main
source's requests and end pass through; its end cancels the others. An
other's error cancels the main source and is signalled. Main items and the
others' terminal signals may come from different threads: they are
half-serialized (:class:`HalfSerializer` over a :class:`Drain`). Both forms' main subscribers share
:class:`_WithLatestFromBase` (deferred subscription and requests, the terminal
signals, cancel); each has its own ``try_on_next`` (the per-item path).

:class:`FlowableWithLatestFrom` (one other): the other completing does nothing
(its last item stays in use). :class:`FlowableWithLatestFromMany`: an other
that completes without ever emitting completes the stream (no item could ever
be combined), cancelling the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import DeferredUpstream
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableWithLatestFrom", "FlowableWithLatestFromMany"]

T = TypeVar("T")
R = TypeVar("R")


def _none_result(combiner: Any) -> TypeError:
    return returned_none("with_latest_from", combiner, "combiner function")  # §2.13


class _WithLatestFromBase(DeferredUpstream, ConditionalSubscriber[T], Subscription, Generic[T, R]):
    """The main source's side of both forms: everything but ``try_on_next`` and
    ``cancel_others`` (the other Publishers, one or many); ``on_subscribe``/``request``:
    :class:`DeferredUpstream`'s."""

    __slots__ = ("downstream", "combiner", "upstream", "requested", "gate", "error", "done")

    def __init__(self, downstream: Subscriber[R], combiner: Callable[..., R] | None) -> None:
        self.downstream = downstream
        self.combiner = combiner
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()  # requests made before the main source arrived
        self.gate = Drain()  # half-serializes the items with the terminal signals
        self.error = AtomicThrowable()
        self.done = False

    def cancel_others(self) -> None:
        raise NotImplementedError

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item) and not self.done:  # (try_on_next checks §2.13)
            s = self.upstream.get()  # set: the item came through it
            if s is not None:
                s.request(1)  # dropped: replace it

    def fail(self, error: BaseException) -> bool:
        """The combiner raised (or returned None): cancel everything, signal ``error``."""
        self.cancel()
        self.on_error(error)
        return True

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.cancel_others()
        HalfSerializer.on_error(self.downstream, error, self.gate, self.error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.cancel_others()
        HalfSerializer.on_complete(self.downstream, self.gate, self.error)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        self.cancel_others()


class FlowableWithLatestFrom(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "other", "combiner")

    def __init__(self, source: Publisher[T], other: Publisher[Any],
                 combiner: Callable[[T, Any], R] | None) -> None:
        self.source = source
        self.other = other
        self.combiner = combiner

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        parent = WithLatestFromSubscriber(subscriber, self.combiner)
        subscriber.on_subscribe(parent)
        self.other.subscribe(WithLatestFromOtherSubscriber(parent))
        if parent.upstream.get() is not CANCELLED:  # not cancelled nor failed by the other
            subscribe_tail(self.source, parent)


class WithLatestFromSubscriber(_WithLatestFromBase[T, R], Generic[T, R]):
    __slots__ = ("other", "value")

    def __init__(self, downstream: Subscriber[R], combiner: Callable[[T, Any], R] | None) -> None:
        super().__init__(downstream, combiner)
        self.other: AtomicReference[Subscription] = AtomicReference()
        self.value: Any = None  # the other's latest item (written by the other's thread)

    def try_on_next(self, item: T) -> bool:
        if item is None:
            raise null_item()  # §2.13
        if self.done:
            return True
        u = self.value
        if u is None:
            return False  # no item of the other yet: dropped
        combiner = self.combiner
        try:
            v = combiner(item, u) if combiner is not None else (item, u)
            if v is None:
                raise _none_result(combiner)
        except Exception as e:
            return self.fail(e)
        HalfSerializer.on_next(self.downstream, v, self.gate, self.error)
        return True

    def cancel_others(self) -> None:
        SubscriptionHelper.cancel(self.other)

    def other_error(self, error: BaseException) -> None:
        SubscriptionHelper.cancel(self.upstream)
        HalfSerializer.on_error(self.downstream, error, self.gate, self.error)


class WithLatestFromOtherSubscriber(FlowableSubscriber[Any]):
    __slots__ = ("parent",)

    def __init__(self, parent: WithLatestFromSubscriber[Any, Any]) -> None:
        self.parent = parent

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.parent.other, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.parent.value = item

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.parent.other_error(error)

    def on_complete(self) -> None:
        pass  # the last item stays in use


class FlowableWithLatestFromMany(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "others", "combiner")

    def __init__(self, source: Publisher[T], others: tuple[Publisher[Any], ...],
                 combiner: Callable[..., R] | None) -> None:
        self.source = source
        self.others = others
        self.combiner = combiner

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        parent: WithLatestFromManySubscriber[T, R] = WithLatestFromManySubscriber(
            subscriber, self.combiner, len(self.others))
        subscriber.on_subscribe(parent)
        parent.subscribe(self.others)
        if parent.upstream.get() is not CANCELLED:  # not cancelled nor ended by an other
            subscribe_tail(self.source, parent)


class WithLatestFromManySubscriber(_WithLatestFromBase[T, R], Generic[T, R]):
    __slots__ = ("subscribers", "values", "ready")

    def __init__(self, downstream: Subscriber[R], combiner: Callable[..., R] | None,
                 n: int) -> None:
        super().__init__(downstream, combiner)
        self.subscribers = [WithLatestInnerSubscriber(self, i) for i in range(n)]
        self.values: list[Any] = [None] * n  # each other's latest item (its thread writes it)
        self.ready = False  # every other has emitted (main thread only)

    def subscribe(self, others: tuple[Publisher[Any], ...]) -> None:
        subs = self.subscribers
        upstream = self.upstream
        for i, p in enumerate(others):
            if upstream.get() is CANCELLED:
                return
            p.subscribe(subs[i])

    def try_on_next(self, item: T) -> bool:
        if item is None:
            raise null_item()  # §2.13
        if self.done:
            return True
        latest = tuple(self.values)
        if not self.ready:
            for x in latest:
                if x is None:
                    return False  # some other has no item yet: dropped
            self.ready = True  # items are only ever replaced from now on
        combiner = self.combiner
        try:
            v = combiner(item, *latest) if combiner is not None else (item, *latest)
            if v is None:
                raise _none_result(combiner)
        except Exception as e:
            return self.fail(e)
        HalfSerializer.on_next(self.downstream, v, self.gate, self.error)
        return True

    def cancel_others(self) -> None:
        self.cancel_all_but(-1)

    def cancel_all_but(self, index: int) -> None:
        for i, inner in enumerate(self.subscribers):
            if i != index:
                inner.cancel()

    def inner_next(self, index: int, item: Any) -> None:
        self.values[index] = item

    def inner_error(self, index: int, error: BaseException) -> None:
        self.done = True
        SubscriptionHelper.cancel(self.upstream)
        self.cancel_all_but(index)
        HalfSerializer.on_error(self.downstream, error, self.gate, self.error)

    def inner_complete(self, index: int, non_empty: bool) -> None:
        if not non_empty:  # no item could ever be combined
            self.done = True
            SubscriptionHelper.cancel(self.upstream)
            self.cancel_all_but(index)
            HalfSerializer.on_complete(self.downstream, self.gate, self.error)


class WithLatestInnerSubscriber(FlowableSubscriber[Any]):
    __slots__ = ("parent", "index", "has_value", "upstream")

    def __init__(self, parent: WithLatestFromManySubscriber[Any, Any], index: int) -> None:
        self.parent = parent
        self.index = index
        self.has_value = False
        self.upstream: AtomicReference[Subscription] = AtomicReference()

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.has_value = True
        self.parent.inner_next(self.index, item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.parent.inner_error(self.index, error)

    def on_complete(self) -> None:
        self.parent.inner_complete(self.index, self.has_value)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
