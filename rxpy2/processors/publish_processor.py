"""PublishProcessor: relays each item to the subscribers present when it arrives (RxJava 2's).

Each subscriber has its own request counter. An item goes to every current
subscriber that has demand; a subscriber without demand is cancelled and gets
``MissingBackpressureException`` (the others still get the item): the
processor never buffers. :meth:`PublishProcessor.offer` emits only when every
subscriber has demand, so a producer can retry instead of failing anyone.

A subscriber that arrives after the terminal signal gets it at once.
"""

from __future__ import annotations

from typing import Generic

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import validate_request
from rxpy2.processors._subscribers import EMPTY
from rxpy2.processors._subscribers import TERMINATED
from rxpy2.processors._subscribers import array_add
from rxpy2.processors._subscribers import array_remove
from rxpy2.processors._subscribers import array_terminate
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.processors.flowable_processor import take_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["PublishProcessor"]



class PublishProcessor(FlowableProcessor[T], Generic[T]):
    """Multicasts items to the current subscribers, each under its own demand.

    Backpressure: ``on_next`` cannot wait; a subscriber without demand for an item
    is cancelled and signalled ``MissingBackpressureException`` (use :meth:`offer`, or
    ``on_backpressure_*()`` between the processor and a slow subscriber).
    """

    __slots__ = ("_subscribers", "_error")

    def __init__(self) -> None:
        self._subscribers: AtomicReference[tuple[PublishSubscription[T], ...]] = AtomicReference(EMPTY)
        self._error: BaseException | None = None

    @staticmethod
    def create() -> PublishProcessor[ItemT]:  # type: ignore[override]  # a processor factory, not Flowable.create(source, mode)
        """A new PublishProcessor."""
        return PublishProcessor()

    # ---- Publisher side

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        ps: PublishSubscription[T] = PublishSubscription(subscriber, self)
        subscriber.on_subscribe(ps)
        if array_add(self._subscribers, ps):
            # a cancel() during on_subscribe found nothing to remove: remove now
            if ps.is_cancelled():
                array_remove(self._subscribers, ps)
        else:
            ex = self._error
            if ex is not None:
                subscriber.on_error(ex)
            else:
                subscriber.on_complete()

    # ---- Subscriber side

    def on_subscribe(self, s: Subscription) -> None:
        """Request ``LONG_MAX`` from ``s`` (demand is kept per subscriber, not upstream), or
        cancel ``s`` once terminated; ``None`` raises ``TypeError`` (§2.13)."""
        take_upstream(s, self._subscribers.get() is TERMINATED)  # no request coordination: items beyond demand are refused per subscriber

    def on_next(self, item: T) -> None:
        """Emit ``item`` to every current subscriber that has demand; one without demand gets
        ``MissingBackpressureException`` and is removed (§1.1).

        Nothing is buffered: with no subscriber, or after a terminal signal, the item is dropped.
        ``None`` raises ``TypeError`` (§2.13). Use :meth:`offer` to emit only when every subscriber
        has demand.
        """
        if item is None:
            raise null_item()  # §2.13
        for ps in self._subscribers.get():  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            ps.on_next(item)

    def on_error(self, error: BaseException) -> None:
        """Signal ``error`` to every current subscriber, and later at once to each new one.

        ``None`` raises ``TypeError`` (§2.13); a second terminal signal's error goes to
        :func:`rxpy2.plugins.on_error` (§1.7), as does the error of a subscriber that cancelled
        meanwhile.
        """
        if error is None or self._subscribers.get() is TERMINATED:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self._error = error  # before TERMINATED: a late subscriber reads it after seeing TERMINATED
        for ps in array_terminate(self._subscribers):
            ps.on_error(error)

    def on_complete(self) -> None:
        """Signal ``on_complete`` to every current subscriber, and later at once to each new one;
        a second terminal signal is ignored."""
        if self._subscribers.get() is TERMINATED:
            return
        for ps in array_terminate(self._subscribers):
            ps.on_complete()

    def offer(self, item: T) -> bool:
        """Emit ``item`` only if every current subscriber has demand for it.

        Returns False (emitting nothing) when one has none; True otherwise, also
        when there is no subscriber at all (the item is then dropped, as
        ``on_next`` drops it). ``None`` raises TypeError.
        """
        if item is None:
            raise TypeError("offer called with None")  # §2.13
        array = self._subscribers.get()
        for ps in array:  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            if ps.is_full():
                return False
        for ps in array:  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            ps.on_next(item)
        return True

    # ---- state

    def has_subscribers(self) -> bool:
        return len(self._subscribers.get()) != 0  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def get_throwable(self) -> BaseException | None:
        if self._subscribers.get() is TERMINATED:
            return self._error
        return None

    def has_throwable(self) -> bool:
        return self._subscribers.get() is TERMINATED and self._error is not None

    def has_complete(self) -> bool:
        return self._subscribers.get() is TERMINATED and self._error is None

    def _remove(self, ps: PublishSubscription[T]) -> None:
        array_remove(self._subscribers, ps)


class PublishSubscription(Subscription, Generic[T]):
    """One subscriber of a PublishProcessor: its request counter (``LONG_MIN`` once cancelled)."""

    __slots__ = ("downstream", "parent", "requested")

    def __init__(self, downstream: Subscriber[T], parent: PublishProcessor[T]) -> None:
        self.downstream: Subscriber[T] = downstream
        self.parent: PublishProcessor[T] = parent
        self.requested: AtomicLong = AtomicLong(0)

    def on_next(self, item: T) -> None:
        requested = self.requested
        r = requested.get()
        if r == LONG_MIN:
            return
        if r != 0:
            self.downstream.on_next(item)
            if r != LONG_MAX:
                BackpressureHelper.produced_cancel(requested, 1)
            return
        # no demand: this subscriber cannot keep up; it leaves with an error (§1.1: no item
        # beyond its demand) and nothing is buffered for it
        if requested.get_and_set(LONG_MIN) != LONG_MIN:
            self.parent._remove(self)
            self.downstream.on_error(MissingBackpressureException.lack_of_requests(
                "PublishProcessor", producer="the processor's producer (use offer() to "
                "test for demand first)"))

    def on_error(self, error: BaseException) -> None:
        if self.requested.get() != LONG_MIN:
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.requested.get() != LONG_MIN:
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            BackpressureHelper.add_cancel(self.requested, n)

    def cancel(self) -> None:
        if self.requested.get_and_set(LONG_MIN) != LONG_MIN:  # §3.7: idempotent
            self.parent._remove(self)  # §3.13: drop the reference

    def is_cancelled(self) -> bool:
        return self.requested.get() == LONG_MIN

    def is_full(self) -> bool:
        return self.requested.get() == 0
