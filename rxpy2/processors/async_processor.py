"""AsyncProcessor: emits only the last item, at completion, to every subscriber (RxJava 2's).

Items are not relayed while they arrive; ``on_complete`` delivers the last one
(then completion) to each subscriber as soon as that subscriber has requested,
each under its own demand (a ``DeferredScalarSubscription`` per subscriber).
Without any item it just completes; an error is relayed at once and the last
item is forgotten. A late subscriber gets the same outcome.
"""

from __future__ import annotations

from typing import Generic

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.processors._subscribers import EMPTY
from rxpy2.processors._subscribers import TERMINATED
from rxpy2.processors._subscribers import array_add
from rxpy2.processors._subscribers import array_remove
from rxpy2.processors._subscribers import array_terminate
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.processors.flowable_processor import take_upstream
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["AsyncProcessor"]



class AsyncProcessor(FlowableProcessor[T], Generic[T]):
    """Keeps the latest item; on completion emits it to every subscriber, under its demand."""

    __slots__ = ("_subscribers", "_error", "_value")

    def __init__(self) -> None:
        self._subscribers: AtomicReference[tuple[AsyncSubscription[T], ...]] = AtomicReference(EMPTY)
        self._error: BaseException | None = None
        self._value: T | None = None

    @staticmethod
    def create() -> AsyncProcessor[ItemT]:  # type: ignore[override]  # a processor factory, not Flowable.create(source, mode)
        """A new AsyncProcessor."""
        return AsyncProcessor()

    # ---- Subscriber side

    def on_subscribe(self, s: Subscription) -> None:
        """Request ``LONG_MAX`` from ``s`` (the processor keeps only the last item), or cancel
        ``s`` once terminated; ``None`` raises ``TypeError`` (§2.13)."""
        take_upstream(s, self._subscribers.get() is TERMINATED)

    def on_next(self, item: T) -> None:
        """Keep ``item`` as the latest, replacing the one before; nothing is emitted until
        completion. ``None`` raises ``TypeError`` (§2.13); after a terminal signal the item is
        dropped."""
        if item is None or self._subscribers.get() is TERMINATED:
            null_or_late_item(item)  # §2.13
            return
        self._value = item

    def on_error(self, error: BaseException) -> None:
        """Forget the latest item and signal ``error`` to every current subscriber, and later to
        each new one.

        ``None`` raises ``TypeError`` (§2.13); a second terminal signal's error goes to
        :func:`rxpy2.plugins.on_error` (§1.7). A subscriber that cancelled meanwhile has its error
        reported there too.
        """
        if error is None or self._subscribers.get() is TERMINATED:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self._value = None
        self._error = error
        for s in array_terminate(self._subscribers):
            s.signal_error(error)

    def on_complete(self) -> None:
        """Emit the latest item (when there is one) then ``on_complete`` to every subscriber, each
        once it has requested; without an item, just complete.

        A later subscriber gets the same outcome. A second terminal signal is ignored.
        """
        if self._subscribers.get() is TERMINATED:
            return
        v = self._value
        array = array_terminate(self._subscribers)
        if v is None:
            for s in array:
                s.signal_complete()
        else:
            for s in array:
                s.complete(v)

    # ---- Publisher side

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        s: AsyncSubscription[T] = AsyncSubscription(subscriber, self)
        subscriber.on_subscribe(s)
        if array_add(self._subscribers, s):
            if s.is_cancelled():
                array_remove(self._subscribers, s)
        else:
            ex = self._error
            if ex is not None:
                subscriber.on_error(ex)
            else:
                v = self._value
                if v is not None:
                    s.complete(v)
                else:
                    s.signal_complete()

    # ---- state

    def has_subscribers(self) -> bool:
        return len(self._subscribers.get()) != 0  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def has_throwable(self) -> bool:
        return self._subscribers.get() is TERMINATED and self._error is not None

    def has_complete(self) -> bool:
        return self._subscribers.get() is TERMINATED and self._error is None

    def get_throwable(self) -> BaseException | None:
        return self._error if self._subscribers.get() is TERMINATED else None

    def has_value(self) -> bool:
        """True once the processor completed with an item."""
        return self._subscribers.get() is TERMINATED and self._value is not None

    def get_value(self) -> T | None:
        """The item it completed with; None before completion or without an item."""
        return self._value if self._subscribers.get() is TERMINATED else None

    def _remove(self, s: AsyncSubscription[T]) -> None:
        array_remove(self._subscribers, s)


class AsyncSubscription(DeferredScalarSubscription[T], Generic[T]):
    """One subscriber of an AsyncProcessor: emits the final item once it was requested."""

    __slots__ = ("parent",)

    value: T | None  # DeferredScalarSubscription's slot, cleared by cancel() here

    def __init__(self, downstream: Subscriber[T], parent: AsyncProcessor[T]) -> None:
        super().__init__(downstream)
        self.parent: AsyncProcessor[T] = parent

    def cancel(self) -> None:
        if self.try_cancel():
            self.value = None
            self.parent._remove(self)  # §3.13

    def signal_complete(self) -> None:
        if not self.is_cancelled():
            self.downstream.on_complete()

    def signal_error(self, error: BaseException) -> None:
        if self.is_cancelled():
            plugins.on_error(error)
        else:
            self.downstream.on_error(error)
