"""BehaviorProcessor: relays items, and first replays the latest one to each new subscriber.

A new subscriber receives the current value (the last item, or the default
given to :meth:`BehaviorProcessor.create_default`), then every later item.
Demand is per subscriber, as in :class:`~rxpy2.processors.PublishProcessor`: an
item (the replayed one included) that finds a subscriber without demand cancels
it with ``MissingBackpressureException``; :meth:`BehaviorProcessor.offer` emits
only when every subscriber has demand. After the terminal signal a new
subscriber gets only that signal.

A subscriber that subscribes while ``on_next`` runs gets either the value that
was current when it subscribed followed by the new one, or only the new one:
each subscription tracks which version of the value it already emitted
(``index``) and queues signals that arrive while it is still emitting the first
one (an emitter loop per subscription).
"""

from __future__ import annotations

from threading import Lock
from typing import Any
from typing import Generic

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.processors._subscribers import EMPTY
from rxpy2.processors._subscribers import TERMINATED
from rxpy2.processors._subscribers import array_add
from rxpy2.processors._subscribers import array_remove
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.processors.flowable_processor import take_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["BehaviorProcessor"]



class _Complete:
    __slots__ = ()

    def __repr__(self) -> str:
        return "COMPLETE"


#: The stored "value" once the processor completed; also the terminal_event of a completion.
_COMPLETE = _Complete()


class _ErrorValue:
    """The stored "value" once the processor failed."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class BehaviorProcessor(FlowableProcessor[T], Generic[T]):
    """Emits the current value to each new subscriber, then the items that follow.

    Backpressure: ``on_next`` cannot wait; a subscriber without demand for an item
    is cancelled and signalled ``MissingBackpressureException`` (use :meth:`offer`, or
    ``on_backpressure_*()`` between the processor and a slow subscriber).
    """

    __slots__ = ("_subscribers", "_lock", "_value", "_terminal_event", "_index")

    def __init__(self, default_value: T | None = None) -> None:
        self._subscribers: AtomicReference[tuple[BehaviorSubscription[T], ...]] = AtomicReference(EMPTY)
        self._lock = Lock()  # guards (index, _value) as one pair
        self._value: Any = default_value
        self._terminal_event: AtomicReference[Any] = AtomicReference(None)
        self._index = 0

    @staticmethod
    def create() -> BehaviorProcessor[ItemT]:  # type: ignore[override]  # a processor factory, not Flowable.create(source, mode)
        """A BehaviorProcessor without a value: a subscriber gets nothing until the first item."""
        return BehaviorProcessor()

    @staticmethod
    def create_default(default_value: ItemT) -> BehaviorProcessor[ItemT]:
        """A BehaviorProcessor whose current value is ``default_value`` until the first item."""
        if default_value is None:
            raise TypeError("default_value is None")
        return BehaviorProcessor(default_value)

    # ---- Publisher side

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        bs: BehaviorSubscription[T] = BehaviorSubscription(subscriber, self)
        subscriber.on_subscribe(bs)
        if array_add(self._subscribers, bs):
            if bs.cancelled:
                array_remove(self._subscribers, bs)
            else:
                bs.emit_first()
        else:
            ex = self._terminal_event.get()
            if ex is _COMPLETE:
                subscriber.on_complete()
            else:
                subscriber.on_error(ex)  # type: ignore[arg-type]  # terminated: the event is set (an error here)

    # ---- Subscriber side

    def on_subscribe(self, s: Subscription) -> None:
        """Request ``LONG_MAX`` from ``s``, or cancel ``s`` once terminated; ``None`` raises
        ``TypeError`` (§2.13)."""
        take_upstream(s, self._terminal_event.get() is not None)

    def on_next(self, item: T) -> None:
        """Make ``item`` the current value and emit it to every current subscriber; one without
        demand is cancelled and gets ``MissingBackpressureException`` (§1.1).

        ``None`` raises ``TypeError`` (§2.13); after a terminal signal the item is dropped. Use
        :meth:`offer` to emit only when every subscriber has demand.
        """
        if item is None or self._terminal_event.get() is not None:
            null_or_late_item(item)  # §2.13
            return
        self._set_current(item)
        index = self._index
        for bs in self._subscribers.get():  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            bs.emit_next(item, index)

    def on_error(self, error: BaseException) -> None:
        """Drop the current value and signal ``error`` to every current subscriber, and later to
        each new one.

        ``None`` raises ``TypeError`` (§2.13); a second terminal signal's error goes to
        :func:`rxpy2.plugins.on_error` (§1.7).
        """
        if error is None or not self._terminal_event.compare_and_set(None, error):
            null_or_late_error(error)  # §2.13, §1.7
            return
        o = _ErrorValue(error)
        for bs in self._terminate(o):
            bs.emit_next(o, self._index)

    def on_complete(self) -> None:
        """Drop the current value and signal ``on_complete`` to every current subscriber, and
        later to each new one; a second terminal signal is ignored."""
        if not self._terminal_event.compare_and_set(None, _COMPLETE):
            return
        for bs in self._terminate(_COMPLETE):
            bs.emit_next(_COMPLETE, self._index)

    def offer(self, item: T) -> bool:
        """Emit ``item`` only if every current subscriber has demand for it (else False,
        and the current value stays as it was). ``None`` raises TypeError."""
        if item is None:
            raise TypeError("offer called with None")  # §2.13
        array = self._subscribers.get()
        for bs in array:  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            if bs.is_full():
                return False
        self._set_current(item)
        index = self._index
        for bs in array:  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            bs.emit_next(item, index)
        return True

    def _terminate(self, terminal_value: Any) -> tuple[BehaviorSubscription[T], ...]:
        a = self._subscribers.get()
        if a is not TERMINATED:
            a = self._subscribers.get_and_set(TERMINATED)
            if a is not TERMINATED:
                self._set_current(terminal_value)
        return a  # type: ignore[return-value]  # never None (AtomicReference.get() is V | None)

    def _set_current(self, o: Any) -> None:
        with self._lock:
            self._index += 1
            self._value = o

    def _snapshot(self) -> tuple[int, Any]:
        with self._lock:
            return self._index, self._value

    def _remove(self, bs: BehaviorSubscription[T]) -> None:
        array_remove(self._subscribers, bs)

    # ---- state

    def has_subscribers(self) -> bool:
        return len(self._subscribers.get()) != 0  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def subscriber_count(self) -> int:
        """Return how many subscribers are subscribed now (0 once terminated)."""
        return len(self._subscribers.get())  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def get_throwable(self) -> BaseException | None:
        o = self._value
        return o.error if type(o) is _ErrorValue else None

    def get_value(self) -> T | None:
        """The current value; None when there is none or the processor terminated."""
        o = self._value
        if o is _COMPLETE or type(o) is _ErrorValue:
            return None
        return o  # type: ignore[no-any-return]  # the value slot holds Any (items or markers)

    def has_value(self) -> bool:
        """Return True when there is a current value (an item or the default) and the processor
        has not terminated."""
        o = self._value
        return o is not None and o is not _COMPLETE and type(o) is not _ErrorValue

    def has_complete(self) -> bool:
        return self._value is _COMPLETE

    def has_throwable(self) -> bool:
        return type(self._value) is _ErrorValue


class BehaviorSubscription(Subscription, Generic[T]):
    """One subscriber of a BehaviorProcessor: its demand and its emission guard."""

    __slots__ = ("downstream", "state", "requested", "_lock", "next", "emitting", "queue",
                 "fast_path", "cancelled", "index")

    def __init__(self, downstream: Subscriber[T], state: BehaviorProcessor[T]) -> None:
        self.downstream: Subscriber[T] = downstream
        self.state: BehaviorProcessor[T] = state
        self.requested: AtomicLong = AtomicLong(0)
        self._lock = Lock()
        self.next: bool = False  # the first value was taken (by emit_first or by an emit_next)
        self.emitting: bool = False  # emit_first is still emitting: emit_next queues
        self.queue: list[Any] | None = None
        self.fast_path: bool = False  # past the first value: emit_next needs no lock any more
        self.cancelled: bool = False
        self.index: int = 0  # the version of the value emit_first read

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.state._remove(self)  # §3.13

    def emit_first(self) -> None:
        """Emit the value current at subscription time, unless an emit_next came first."""
        if self.cancelled:
            return
        with self._lock:
            if self.cancelled or self.next:
                return
            self.index, o = self.state._snapshot()
            self.emitting = o is not None
            self.next = True
        if o is not None:
            if self.test(o):
                return
            self._emit_loop()

    def emit_next(self, value: Any, state_index: int) -> None:
        if self.cancelled:
            return
        if not self.fast_path:
            with self._lock:
                if self.cancelled:
                    return
                if self.index == state_index:
                    return  # emit_first read (and emits) this very version already
                if self.emitting:
                    q = self.queue
                    if q is None:
                        q = self.queue = []
                    q.append(value)
                    return
                self.next = True
            self.fast_path = True
        self.test(value)

    def test(self, o: Any) -> bool:
        """Signal ``o`` downstream; True when this subscription is finished."""
        if self.cancelled:
            return True
        if o is _COMPLETE:
            self.downstream.on_complete()
            return True
        if type(o) is _ErrorValue:
            self.downstream.on_error(o.error)
            return True
        requested = self.requested
        r = requested.get()
        if r != 0:
            self.downstream.on_next(o)
            if r != LONG_MAX:
                requested.decrement_and_get()
            return False
        self.cancel()
        self.downstream.on_error(MissingBackpressureException.lack_of_requests(
            "BehaviorProcessor", producer="the processor's producer (use offer() to test "
            "for demand first)"))
        return True

    def _emit_loop(self) -> None:
        while True:
            if self.cancelled:
                return
            with self._lock:
                q = self.queue
                if q is None:
                    self.emitting = False
                    return
                self.queue = None
            for o in q:
                if self.test(o):
                    return

    def is_full(self) -> bool:
        return self.requested.get() == 0
