"""MulticastProcessor: emits to all its subscribers in lockstep, at the pace of the slowest (RxJava 2's).

Unlike the other processors it is *cold towards its upstream*: it takes one
upstream Subscription (a second one is cancelled, §2.5), requests only
``buffer_size`` items from it, keeps them in a bounded queue and hands each item
out only when every current subscriber has demand for it (coordinated
emission); every ``limit = buffer_size - buffer_size // 4`` items handed out it
requests ``limit`` more. Nothing is lost and nobody is failed for being slow.

* Without an upstream, :meth:`MulticastProcessor.start` (bounded queue) or
  :meth:`MulticastProcessor.start_unbounded` (unbounded queue) lets items be fed
  with :meth:`MulticastProcessor.offer` (False when the bounded queue is full) or
  ``on_next`` (an item the bounded queue cannot take fails the processor with
  MissingBackpressureException).
* ``ref_count=True``: when the last subscriber cancels, the upstream is cancelled
  and the processor terminates (a later subscriber gets ``on_complete``).
* A subscriber that comes after the termination gets the terminal signal; an
  ``on_complete`` reaches the current subscribers only once the queue is drained,
  an ``on_error`` also waits for the items queued before it.
* Fusion: a ``QueueSubscription`` upstream is asked for ``ANY`` mode; in SYNC mode
  its items are polled on demand, in ASYNC mode ``on_next`` only means "poll".
"""

from __future__ import annotations

from typing import Any
from typing import Generic

from rxpy2 import plugins
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.operator_kit import BUFFER_SIZE
from rxpy2.operator_kit import AtomicBoolean
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import BackpressureHelper
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import EmptySubscription
from rxpy2.operator_kit import SpscArrayQueue
from rxpy2.operator_kit import SpscLinkedArrayQueue
from rxpy2.operator_kit import SubscriptionHelper
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import validate_request
from rxpy2.processors._subscribers import EMPTY
from rxpy2.processors._subscribers import TERMINATED
from rxpy2.processors._subscribers import array_add
from rxpy2.processors._subscribers import array_remove
from rxpy2.processors._subscribers import array_terminate
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["MulticastProcessor"]




def _not_started() -> RuntimeError:
    return RuntimeError("MulticastProcessor: no queue yet: call start() or start_unbounded(), "
                        "or subscribe the processor to a source, before on_next/offer")

class MulticastProcessor(FlowableProcessor[T], Generic[T]):
    """Relays its upstream's items to every subscriber in lockstep (see the module doc)."""

    __slots__ = ("_gate", "_upstream", "_subscribers", "_once", "_buffer_size", "_limit",
                 "_ref_count", "_queue", "_done", "_error", "_consumed", "_fusion_mode")

    def __init__(self, buffer_size: int = BUFFER_SIZE, ref_count: bool = False) -> None:
        if not isinstance(buffer_size, int) or isinstance(buffer_size, bool):
            raise TypeError(f"buffer_size must be an int, not {type(buffer_size).__name__}")
        if buffer_size <= 0:
            raise ValueError(f"buffer_size > 0 required but it was {buffer_size}")
        self._buffer_size = buffer_size
        self._limit = buffer_size - (buffer_size >> 2)
        self._ref_count = bool(ref_count)
        self._gate = Drain()
        self._upstream: AtomicReference[Subscription] = AtomicReference()
        self._subscribers: AtomicReference[tuple[MulticastSubscription[T], ...]] = AtomicReference(EMPTY)
        self._once = AtomicBoolean(False)  # a terminal signal came in (or ref_count ended it)
        self._queue: Any = None  # SpscArrayQueue / SpscLinkedArrayQueue / the fused upstream
        self._done = False
        self._error: BaseException | None = None
        self._consumed = 0  # touched by the drain owner only
        self._fusion_mode = NONE

    @staticmethod
    def create(buffer_size: int = BUFFER_SIZE,  # type: ignore[override]  # a processor factory, not Flowable.create(source, mode)
               ref_count: bool = False) -> MulticastProcessor[ItemT]:
        """A new MulticastProcessor prefetching ``buffer_size`` items; ``ref_count=True``
        cancels the upstream (and terminates) when the last subscriber cancels."""
        return MulticastProcessor(buffer_size, ref_count)

    # ---- without an upstream

    def start(self) -> None:
        """Act as if subscribed to an upstream, with a bounded queue of ``buffer_size`` for
        :meth:`offer`/``on_next``; no-op once an upstream (or a start) is there."""
        if SubscriptionHelper.set_once(self._upstream, EmptySubscription.INSTANCE):
            self._queue = SpscArrayQueue(self._buffer_size)

    def start_unbounded(self) -> None:
        """As :meth:`start`, with an unbounded queue (``offer`` always succeeds)."""
        if SubscriptionHelper.set_once(self._upstream, EmptySubscription.INSTANCE):
            self._queue = SpscLinkedArrayQueue(self._buffer_size)

    # ---- Subscriber side

    def on_subscribe(self, s: Subscription) -> None:
        """Take ``s`` as the one upstream and request ``buffer_size`` items (fusing with a
        QueueSubscription in ``ANY`` mode); a second Subscription, or one after :meth:`start`, is
        cancelled (§2.5)."""
        if not SubscriptionHelper.set_once(self._upstream, s):  # §2.5: one upstream only
            return
        m, self._queue = fuse_upstream(s, self._buffer_size, ANY)
        self._fusion_mode = m
        if m == SYNC:
            self._done = True
            self._drain()
        else:
            s.request(self._buffer_size)

    def on_next(self, item: T) -> None:
        """Queue ``item`` and hand queued items out as every subscriber has demand for them.

        An item the bounded queue cannot take cancels the upstream and fails the processor with
        ``MissingBackpressureException``. ``None`` raises ``TypeError`` (§2.13), except from a fused
        ASYNC upstream where it means "poll"; before an upstream or :meth:`start` it raises
        ``RuntimeError``; after a terminal signal the item is dropped.
        """
        if self._once.get():
            return
        if self._fusion_mode == NONE:  # fused ASYNC: on_next(None) means "poll the upstream"
            if item is None:
                raise null_item()  # §2.13
            q = self._queue
            if q is None:
                raise _not_started()
            if not q.offer(item):
                SubscriptionHelper.cancel(self._upstream)
                self.on_error(MissingBackpressureException.queue_full(
                    "MulticastProcessor", q.capacity))
                return
        self._drain()

    def offer(self, item: T) -> bool:
        """Queue ``item`` for the subscribers; False if the processor terminated, the queue is
        full or the upstream is fused (then items come from it only). Call :meth:`start`
        (or subscribe the processor) first. ``None`` raises TypeError."""
        if self._once.get():
            return False
        if item is None:
            raise TypeError("offer called with None")  # §2.13
        q = self._queue
        if q is None:
            raise _not_started()
        if self._fusion_mode == NONE and q.offer(item):
            self._drain()
            return True
        return False

    def on_error(self, error: BaseException) -> None:
        """Signal ``error`` to the subscribers once the items queued before it were handed out; a
        later subscriber gets it at once.

        ``None`` raises ``TypeError`` (§2.13); a second terminal signal's error goes to
        :func:`rxpy2.plugins.on_error` (§1.7).
        """
        if error is None:
            raise null_error()  # §2.13
        if self._once.compare_and_set(False, True):
            self._error = error
            self._done = True
            self._drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        """Complete the subscribers once the queue is drained; a later subscriber completes at
        once. A second terminal signal is ignored."""
        if self._once.compare_and_set(False, True):
            self._done = True
            self._drain()

    # ---- state

    def has_subscribers(self) -> bool:
        return len(self._subscribers.get()) != 0  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def has_throwable(self) -> bool:
        return self._once.get() and self._error is not None

    def has_complete(self) -> bool:
        return self._once.get() and self._error is None

    def get_throwable(self) -> BaseException | None:
        return self._error if self._once.get() else None

    # ---- Publisher side

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        ms: MulticastSubscription[T] = MulticastSubscription(subscriber, self)
        subscriber.on_subscribe(ms)
        if array_add(self._subscribers, ms):
            if ms.requested.get() == LONG_MIN:  # cancelled in on_subscribe: nothing was removed
                self._remove(ms)
            else:
                self._drain()
            return
        if self._once.get() or not self._ref_count:
            ex = self._error
            if ex is not None:
                subscriber.on_error(ex)
                return
        subscriber.on_complete()

    def _remove(self, inner: MulticastSubscription[T]) -> None:
        if not self._ref_count:
            array_remove(self._subscribers, inner)
            return
        ref = self._subscribers
        while True:
            a = ref.get()
            j = next((i for i, x in enumerate(a) if x is inner), -1)  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)
            if j < 0:
                return
            if len(a) == 1:  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)
                if ref.compare_and_set(a, TERMINATED):  # the last one left: end it all
                    SubscriptionHelper.cancel(self._upstream)
                    self._once.set(True)
                    return
            elif ref.compare_and_set(a, a[:j] + a[j + 1:]):  # type: ignore[index]  # never None (AtomicReference.get() is V | None)
                return

    # ---- drain

    def _terminate(self) -> None:
        ex = self._error
        if ex is not None:
            for inner in array_terminate(self._subscribers):
                inner.on_error(ex)
        else:
            for inner in array_terminate(self._subscribers):
                inner.on_complete()

    def _drain(self) -> None:
        gate = self._gate
        if not gate.enter():
            return
        subs = self._subscribers
        c = self._consumed
        lim = self._limit
        fm = self._fusion_mode
        while True:
            q = self._queue
            a = subs.get()
            if a is TERMINATED:  # ended by ref_count (a drain that terminates never comes back)
                if q is not None:
                    q.clear()  # §3.13: let the items go; RxJava 2 keeps them until a later pass
                return  # the drain is kept for good
            if q is not None and a:
                # the smallest outstanding demand among the subscribers not cancelled
                r = -1
                for inner in a:
                    ra = inner.requested.get()
                    if ra >= 0:
                        ra -= inner.emitted
                        if r == -1 or ra < r:
                            r = ra
                changed = False
                while r > 0:
                    b = subs.get()
                    if b is TERMINATED:  # ref_count ended it: drop what is left
                        q.clear()
                        return  # the drain is kept for good
                    if b is not a:  # a subscriber came or left: recompute the demand
                        changed = True
                        break
                    d = self._done
                    try:
                        v = q.poll()
                    except Exception as ex:  # a fused upstream's function failed
                        SubscriptionHelper.cancel(self._upstream)
                        d = True
                        v = None
                        self._error = ex
                        self._done = True
                    if v is None:
                        if d:
                            self._terminate()
                            return
                        break
                    for inner in a:
                        inner.on_next(v)
                    r -= 1
                    if fm != SYNC:
                        c += 1
                        if c == lim:
                            c = 0
                            self._upstream.get().request(lim)  # type: ignore[union-attr]  # set before items arrive
                if changed:
                    continue
                if r == 0:
                    b = subs.get()
                    if b is TERMINATED:
                        q.clear()
                        return
                    if b is not a:
                        continue
                    if self._done and q.is_empty():  # complete (or fail) without demand
                        self._terminate()
                        return
            self._consumed = c
            if not gate.leave():
                return


class MulticastSubscription(Subscription, Generic[T]):
    """One subscriber of a MulticastProcessor: its request counter (``LONG_MIN`` once
    cancelled) and how many items it was given (written by the drain owner only)."""

    __slots__ = ("downstream", "parent", "requested", "emitted")

    def __init__(self, downstream: Subscriber[T], parent: MulticastProcessor[T]) -> None:
        self.downstream: Subscriber[T] = downstream
        self.parent: MulticastProcessor[T] = parent
        self.requested: AtomicLong = AtomicLong(0)
        self.emitted: int = 0

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            r = BackpressureHelper.add_cancel(self.requested, n)
            if r != LONG_MIN and r != LONG_MAX:
                self.parent._drain()

    def cancel(self) -> None:
        if self.requested.get_and_set(LONG_MIN) != LONG_MIN:  # §3.7: idempotent
            p = self.parent
            p._remove(self)  # §3.13: drop the reference
            # the others may have been waiting for this one: run a pass for them (RxJava 2 and 3
            # do not, and a subscriber whose demand is all there already could wait forever)
            p._drain()

    def on_next(self, item: T) -> None:
        if self.requested.get() != LONG_MIN:
            self.emitted += 1
            self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if self.requested.get() != LONG_MIN:
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.requested.get() != LONG_MIN:
            self.downstream.on_complete()

    def __repr__(self) -> str:
        return f"MulticastSubscription(requested={self.requested.get()}, emitted={self.emitted})"
