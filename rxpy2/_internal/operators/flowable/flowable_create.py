"""Flowable.create: a push source driven by a user function through a :class:`FlowableEmitter`.

The emitter is the downstream's Subscription. What happens to an item that
finds no outstanding demand depends on the :class:`BackpressureStrategy`:

* MISSING: emitted anyway (a later operator must buffer or drop);
* ERROR: the stream fails with ``MissingBackpressureException``;
* DROP: the item is dropped;
* BUFFER: every item is kept in an unbounded queue and drained under demand;
* LATEST: only the latest unrequested item is kept.

Termination and cancellation dispose the resource given to ``set_cancellable``
/ ``set_disposable``, once. ``serialize()`` gives an emitter that several
threads may call at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.cancellable import CancellableDisposable
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2.backpressure import BackpressureStrategy
from rxpy2.disposables import Disposable
from rxpy2.emitter import Cancellable
from rxpy2.emitter import FlowableEmitter
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import BUFFER_SIZE
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableCreate"]

T = TypeVar("T")



def _none_item() -> TypeError:
    return TypeError("on_next called with None; None is never an item")


def _none_error() -> TypeError:
    return TypeError("on_error called with None")


class FlowableCreate(Flowable[T], Generic[T]):
    __slots__ = ("source", "mode", "capacity_hint")

    def __init__(self, source: Callable[[FlowableEmitter[T]], Any], mode: BackpressureStrategy,
                 buffer_size: int = BUFFER_SIZE) -> None:
        self.source = source
        self.mode = mode
        self.capacity_hint = buffer_size  # chunk size hint of the BUFFER strategy's queue

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        mode = self.mode
        emitter: _BaseEmitter[T]
        if mode is BackpressureStrategy.MISSING:
            emitter = MissingEmitter(subscriber)
        elif mode is BackpressureStrategy.ERROR:
            emitter = ErrorEmitter(subscriber)
        elif mode is BackpressureStrategy.DROP:
            emitter = DropEmitter(subscriber)
        elif mode is BackpressureStrategy.LATEST:
            emitter = LatestEmitter(subscriber)
        else:
            emitter = BufferEmitter(subscriber, self.capacity_hint)
        subscriber.on_subscribe(emitter)
        try:
            self.source(emitter)
        except Exception as e:
            emitter.on_error(e)  # after termination it goes to plugins.on_error


class _BaseEmitter(FlowableEmitter[T], Subscription, Generic[T]):
    """Demand counter, the resource slot (``DISPOSED`` once cancelled or terminated),
    and the terminal signals shared by every strategy."""

    __slots__ = ("downstream", "_requested", "_resource")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self._requested = AtomicLong()
        self._resource: AtomicReference[Disposable] = AtomicReference()

    # ---- terminal signals
    def on_complete(self) -> None:
        self._complete()

    def _complete(self) -> None:
        if self._resource.get() is DISPOSED:
            return
        try:
            self.downstream.on_complete()
        finally:
            DisposableHelper.dispose(self._resource)

    def on_error(self, error: BaseException) -> None:
        if not self.try_on_error(error):
            plugins.on_error(error)  # the stream already ended or was cancelled

    def try_on_error(self, error: BaseException) -> bool:
        return self._error(error)

    def _error(self, error: BaseException) -> bool:
        if error is None:
            error = _none_error()
        if self._resource.get() is DISPOSED:
            return False
        try:
            self.downstream.on_error(error)
        finally:
            DisposableHelper.dispose(self._resource)
        return True

    # ---- Subscription
    def request(self, n: int) -> None:
        if n := validate_request(n):
            add_request(self._requested, n)
            self._on_requested()

    def _on_requested(self) -> None:
        pass

    def cancel(self) -> None:
        DisposableHelper.dispose(self._resource)
        self._on_unsubscribed()

    def _on_unsubscribed(self) -> None:
        pass

    # ---- FlowableEmitter
    def requested(self) -> int:
        return self._requested.get()

    def is_cancelled(self) -> bool:
        return self._resource.get() is DISPOSED

    def set_disposable(self, disposable: Disposable | None) -> None:
        DisposableHelper.set(self._resource, disposable)

    def set_cancellable(self, cancellable: Cancellable | None) -> None:
        self.set_disposable(CancellableDisposable.of(cancellable))

    def serialize(self) -> FlowableEmitter[T]:
        return SerializedEmitter(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(requested={self._requested.get()})"


class MissingEmitter(_BaseEmitter[T]):
    """Emits every item whatever the demand; only counts the demand down."""

    __slots__ = ()

    def on_next(self, item: T) -> None:
        if self._resource.get() is DISPOSED:
            return
        if item is None:
            self.on_error(_none_item())
            return
        self.downstream.on_next(item)
        requested = self._requested
        while True:
            r = requested.get()
            if r == 0 or r == LONG_MAX or requested.compare_and_set(r, r - 1):
                return


class _NoOverflowEmitter(_BaseEmitter[T]):
    """Emits an item only when there is demand; otherwise calls ``_on_overflow``."""

    __slots__ = ()

    def on_next(self, item: T) -> None:
        if self._resource.get() is DISPOSED:
            return
        if item is None:
            self.on_error(_none_item())
            return
        requested = self._requested
        if requested.get() != 0:
            self.downstream.on_next(item)
            produced(requested, 1)
        else:
            self._on_overflow()

    def _on_overflow(self) -> None:
        raise NotImplementedError


class DropEmitter(_NoOverflowEmitter[T]):
    __slots__ = ()

    def _on_overflow(self) -> None:
        pass  # the item is dropped


class ErrorEmitter(_NoOverflowEmitter[T]):
    __slots__ = ()

    def _on_overflow(self) -> None:
        self.on_error(MissingBackpressureException.lack_of_requests(
            "create", producer="the emitter (BackpressureStrategy.ERROR)"))


class _DrainingEmitter(_BaseEmitter[T]):
    """BUFFER and LATEST: an item that finds no demand (or older items waiting) goes to a
    store; a drain loop (a ``Drain``) emits stored items under demand, so ``request`` from inside
    ``on_next`` never recurses. Subclasses set ``_offer``/``_poll``/``_is_empty``/``_clear``
    to their store's operations."""

    __slots__ = ("_error_value", "done", "gate", "_offer", "_poll", "_is_empty", "_clear")

    _offer: Callable[[T], object]
    _poll: Callable[[], T | None]
    _is_empty: Callable[[], bool]
    _clear: Callable[[], None]

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream)
        self._error_value: BaseException | None = None
        self.done = False
        self.gate = Drain()

    def on_next(self, item: T) -> None:
        if self.done or self._resource.get() is DISPOSED:
            return
        if item is None:
            self.on_error(_none_item())
            return
        gate = self.gate
        if gate.try_enter():  # free: emit directly (not counted, as RxJava's CAS 0 -> 1)
            requested = self._requested
            if requested.get() != 0 and self._is_empty():
                # nothing stored and demand is there: emit directly
                self.downstream.on_next(item)
                produced(requested, 1)
                if not gate.leave():
                    return
            else:
                self._offer(item)
        else:
            self._offer(item)
            if not gate.enter():  # counted: the owner's next pass sees the item
                return
        self._drain_loop()

    def try_on_error(self, error: BaseException) -> bool:
        if self.done or self._resource.get() is DISPOSED:
            return False
        if error is None:
            error = _none_error()
        self._error_value = error
        self.done = True
        self._drain()
        return True

    def on_complete(self) -> None:
        self.done = True
        self._drain()

    def _on_requested(self) -> None:
        self._drain()

    def _on_unsubscribed(self) -> None:
        if self.gate.enter():
            self._clear()

    def _finish(self) -> None:
        ex = self._error_value
        if ex is not None:
            self._error(ex)
        else:
            self._complete()

    def _drain(self) -> None:
        if self.gate.enter():
            self._drain_loop()

    def _drain_loop(self) -> None:
        gate = self.gate
        on_next = self.downstream.on_next
        requested = self._requested
        resource = self._resource
        poll = self._poll
        while True:
            r = requested.get()
            e = 0
            while e != r:
                if resource.get() is DISPOSED:
                    self._clear()
                    return
                d = self.done
                v = poll()
                if v is None:
                    if d:
                        self._finish()
                        return
                    break
                on_next(v)
                e += 1
            if e == r:
                if resource.get() is DISPOSED:
                    self._clear()
                    return
                if self.done and self._is_empty():
                    self._finish()
                    return
            if e != 0:
                produced(requested, e)
            if not gate.leave():
                return


class BufferEmitter(_DrainingEmitter[T]):
    """Keeps every unrequested item in an unbounded queue."""

    __slots__ = ("queue",)

    def __init__(self, downstream: Subscriber[T], capacity_hint: int = BUFFER_SIZE) -> None:
        super().__init__(downstream)
        q: SpscLinkedArrayQueue[T] = SpscLinkedArrayQueue(capacity_hint)
        self.queue = q
        self._offer = q.offer
        self._poll = q.poll
        self._is_empty = q.is_empty
        self._clear = q.clear


class LatestEmitter(_DrainingEmitter[T]):
    """Keeps only the latest unrequested item."""

    __slots__ = ("latest",)

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream)
        latest: AtomicReference[T] = AtomicReference()
        self.latest = latest
        self._offer = latest.set
        self._poll = self._take_latest
        self._is_empty = self._nothing_kept
        self._clear = self._drop_latest

    def _take_latest(self) -> T | None:
        latest = self.latest
        if latest.get() is None:
            return None
        return latest.get_and_set(None)

    def _nothing_kept(self) -> bool:
        return self.latest.get() is None

    def _drop_latest(self) -> None:
        self.latest.set(None)


class SerializedEmitter(FlowableEmitter[T], Generic[T]):
    """Serializes ``on_next``/``on_error``/``on_complete`` from any number of threads.

    The thread that enters the ``Drain`` emits directly; the others leave their item
    in an MPSC queue (or their error in an AtomicThrowable) for it to drain (§1.3).
    """

    __slots__ = ("emitter", "errors", "queue", "done", "gate")

    def __init__(self, emitter: _BaseEmitter[T]) -> None:
        self.emitter = emitter
        self.errors = AtomicThrowable()
        self.queue: MpscLinkedQueue[T] = MpscLinkedQueue()
        self.done = False
        self.gate = Drain()

    def on_next(self, item: T) -> None:
        emitter = self.emitter
        if self.done or emitter.is_cancelled():
            return
        if item is None:
            self.on_error(_none_item())
            return
        gate = self.gate
        if gate.try_enter():  # free: emit directly (not counted, as RxJava's CAS 0 -> 1)
            emitter.on_next(item)
            if not gate.leave():
                return
        else:
            self.queue.offer(item)
            if not gate.enter():  # counted: the owner's next pass sees the item
                return
        self._drain_loop()

    def on_error(self, error: BaseException) -> None:
        if not self.try_on_error(error):
            plugins.on_error(error if error is not None else _none_error())

    def try_on_error(self, error: BaseException) -> bool:
        if self.done or self.emitter.is_cancelled():
            return False
        if error is None:
            error = _none_error()
        if self.errors.try_add_throwable(error):
            self.done = True
            self._drain()
            return True
        return False

    def on_complete(self) -> None:
        if self.done or self.emitter.is_cancelled():
            return
        self.done = True
        self._drain()

    def _drain(self) -> None:
        if self.gate.enter():
            self._drain_loop()

    def _drain_loop(self) -> None:
        emitter = self.emitter
        q = self.queue
        errors = self.errors
        gate = self.gate
        while True:
            while True:
                if emitter.is_cancelled():
                    q.clear()
                    errors.try_terminate_and_report()  # an error that lost to cancellation
                    return
                if errors.get() is not None:
                    q.clear()
                    ex = errors.terminate()
                    if ex is not None and ex is not TERMINATED:
                        emitter.on_error(ex)
                    return
                d = self.done
                v = q.poll()
                if v is None:
                    if d:
                        ex = errors.terminate()  # later errors are reported, not lost
                        if ex is None or ex is TERMINATED:
                            emitter.on_complete()
                        else:
                            emitter.on_error(ex)
                        return
                    break
                emitter.on_next(v)
            if not gate.leave():
                return

    # delegated to the wrapped emitter
    def requested(self) -> int:
        return self.emitter.requested()

    def is_cancelled(self) -> bool:
        return self.emitter.is_cancelled()

    def set_disposable(self, disposable: Disposable | None) -> None:
        self.emitter.set_disposable(disposable)

    def set_cancellable(self, cancellable: Cancellable | None) -> None:
        self.emitter.set_cancellable(cancellable)

    def serialize(self) -> FlowableEmitter[T]:
        return self

    def __repr__(self) -> str:
        return f"SerializedEmitter({self.emitter!r})"
