"""Identity Processors for the processor verification: one correct, and broken ones.

``LockstepIdentityProcessor`` is a small correct multicast identity Processor
written against the four Reactive Streams interfaces only: it requests
``buffer_size`` items upstream, keeps them until every current Subscriber has
requested one (coordinated emission), replenishes upstream demand in batches,
passes an upstream error on at once, completes once its buffer is drained, and
cancels upstream when its last Subscriber leaves.

Every broken Processor below overrides exactly one hook of it to violate one
rule; the processor verification must fail on that rule.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Processor
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription


class _Inner(Subscription):
    """One downstream Subscriber of the processor."""

    def __init__(self, parent: LockstepIdentityProcessor, downstream: Subscriber[Any]) -> None:
        self.parent = parent
        self.downstream = downstream
        self.requested = 0  # guarded by parent._lock
        self.emitted = 0  # touched by the drain loop only
        self.cancelled = False
        self.bad_request: int | None = None

    def request(self, n: int) -> None:
        self.parent._request(self, n)

    def cancel(self) -> None:
        self.parent._cancel(self)


class LockstepIdentityProcessor(Processor[Any, Any]):
    """A correct identity Processor with coordinated emission (see the module doc)."""

    def __init__(self, buffer_size: int = 16) -> None:
        self.buffer_size = max(1, buffer_size)
        self.limit = self.buffer_size - (self.buffer_size >> 2)
        self._lock = threading.Lock()
        self._upstream: Subscription | None = None
        self._upstream_cancelled = False
        self._queue: deque[Any] = deque()
        self._done = False
        self._error: BaseException | None = None
        self._subscribers: list[_Inner] = []
        self._terminated = False
        self._wip = 0
        self._consumed = 0

    # ---- Subscriber side ----
    def on_subscribe(self, subscription: Subscription) -> None:
        if subscription is None:
            raise TypeError("subscription is None (§2.13)")
        with self._lock:
            accept = self._upstream is None and not self._upstream_cancelled
            if accept:
                self._upstream = subscription
        if not accept:
            subscription.cancel()  # §2.5
            return
        self.request_upstream(subscription, self.buffer_size)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise TypeError("item is None (§2.13)")
        with self._lock:
            self._queue.append(item)
        self._drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise TypeError("error is None (§2.13)")
        self.handle_upstream_error(error)

    def on_complete(self) -> None:
        with self._lock:
            self._done = True
        self._drain()

    # ---- hooks the broken processors override ----
    def request_upstream(self, upstream: Subscription, n: int) -> None:
        upstream.request(n)

    def handle_upstream_error(self, error: BaseException) -> None:
        with self._lock:
            self._error = error
            self._done = True
        self._drain()

    def remove_on_cancel(self, inner: _Inner) -> None:
        with self._lock:
            if inner in self._subscribers:
                self._subscribers.remove(inner)
            last = not self._subscribers and not self._terminated
            upstream = self._upstream if last else None
            if last:
                self._upstream_cancelled = True
        if upstream is not None:
            upstream.cancel()

    def ready_count(self, subscribers: list[_Inner]) -> int:
        """How many items may go out now: the smallest outstanding demand."""
        return min(s.requested - s.emitted for s in subscribers)

    # ---- Publisher side ----
    def subscribe(self, subscriber: Subscriber[Any]) -> None:
        if subscriber is None:
            raise TypeError("subscriber is None (§1.9)")
        inner = _Inner(self, subscriber)
        subscriber.on_subscribe(inner)
        with self._lock:
            terminated = self._terminated
            if not terminated and not inner.cancelled:
                self._subscribers.append(inner)
            error = self._error
        if terminated:
            if error is not None:
                subscriber.on_error(error)
            else:
                subscriber.on_complete()
            return
        self._drain()

    def _request(self, inner: _Inner, n: int) -> None:
        with self._lock:
            if inner.cancelled:
                return
            if n <= 0:
                inner.bad_request = n
            else:
                inner.requested = min(LONG_MAX, inner.requested + n)  # §3.17
        self._drain()

    def _cancel(self, inner: _Inner) -> None:
        with self._lock:
            if inner.cancelled:
                return
            inner.cancelled = True
        self.remove_on_cancel(inner)
        self._drain()

    # ---- the drain loop: the only place signals go downstream ----
    def _drain(self) -> None:
        with self._lock:
            self._wip += 1
            if self._wip != 1:
                return
        missed = 1
        while True:
            self._drain_once()
            with self._lock:
                self._wip -= missed
                missed = self._wip
                if missed == 0:
                    return

    def _drain_once(self) -> None:
        while True:
            with self._lock:
                bad = [s for s in self._subscribers if s.bad_request is not None]
                for s in bad:
                    s.cancelled = True
                    self._subscribers.remove(s)
            for s in bad:  # §3.9
                s.downstream.on_error(ValueError(
                    f"§3.9 violated: positive request amount required but it was {s.bad_request}"))
            with self._lock:
                subs = [s for s in self._subscribers if not s.cancelled]
                done, error, empty = self._done, self._error, not self._queue
                if done and (error is not None or empty):
                    self._terminated = True
                    self._subscribers = []
                    self._queue.clear()
            if done and (error is not None or empty):
                for s in subs:
                    if error is not None:
                        s.downstream.on_error(error)
                    else:
                        s.downstream.on_complete()
                return
            if not subs or empty or self.ready_count(subs) <= 0:
                return
            with self._lock:
                item = self._queue.popleft()
                upstream = self._upstream
            for s in subs:
                s.emitted += 1
                s.downstream.on_next(item)
            self._consumed += 1
            if self._consumed == self.limit:
                self._consumed = 0
                if upstream is not None:
                    self.request_upstream(upstream, self.limit)


# ---- broken processors: each breaks one rule -------------------------------------------------


class IgnoresDemandProcessor(LockstepIdentityProcessor):
    """§1.1: emits whatever it has buffered, requested or not."""

    def ready_count(self, subscribers: list[_Inner]) -> int:
        return 1


class SignalsAfterCancelProcessor(LockstepIdentityProcessor):
    """§3.6/§3.12: cancel is ignored, requests after it are served."""

    def _cancel(self, inner: _Inner) -> None:
        pass


class KeepsSubscriberAfterCancelProcessor(LockstepIdentityProcessor):
    """§3.13: a cancelled Subscriber stays in the list (and upstream is never cancelled)."""

    def remove_on_cancel(self, inner: _Inner) -> None:
        pass


class SwallowsUpstreamErrorProcessor(LockstepIdentityProcessor):
    """§4.1 (§1.4 downstream): an error from upstream is dropped."""

    def handle_upstream_error(self, error: BaseException) -> None:
        pass


class RequestsOnceProcessor(LockstepIdentityProcessor):
    """§2.1/§4.1: requests one item upstream, ever; later demand never reaches upstream."""

    def __init__(self, buffer_size: int = 16) -> None:
        super().__init__(buffer_size)
        self._requested_once = False

    def request_upstream(self, upstream: Subscription, n: int) -> None:
        if not self._requested_once:
            self._requested_once = True
            upstream.request(1)


class AcceptsSecondSubscriptionProcessor(LockstepIdentityProcessor):
    """§2.5: a second Subscription replaces the first instead of being cancelled."""

    def on_subscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._upstream = subscription
        self.request_upstream(subscription, self.buffer_size)


class AcceptsNoneProcessor(LockstepIdentityProcessor):
    """§2.13: on_next(None) is taken as an item instead of raising TypeError."""

    def on_next(self, item: Any) -> None:
        with self._lock:
            self._queue.append(item)
        self._drain()


class RaisesOnBadRequestProcessor(LockstepIdentityProcessor):
    """§3.9: request(0) raises instead of signalling on_error(ValueError)."""

    def _request(self, inner: _Inner, n: int) -> None:
        if n <= 0:
            raise ValueError(f"request({n})")
        super()._request(inner, n)


class RecursiveProcessor(LockstepIdentityProcessor):
    """§3.3: no drain guard: request inside on_next emits the next item on the same stack."""

    def _drain(self) -> None:
        self._drain_once()

    def subscribe(self, subscriber: Subscriber[Any]) -> None:
        # let the (asynchronous) upstream fill the buffer first, so that the recursion
        # request -> on_next -> request happens on every run, not only in a lucky one
        deadline = time.monotonic() + 1.0
        while len(self._queue) < 2 and not self._done and time.monotonic() < deadline:
            time.sleep(0.001)
        super().subscribe(subscriber)


class FirstSubscriberOnlyProcessor(LockstepIdentityProcessor):
    """§1.4 with several Subscribers: only the first one is served (later ones hear nothing)."""

    def subscribe(self, subscriber: Subscriber[Any]) -> None:
        with self._lock:
            first = not self._subscribers and not self._terminated
        if first:
            super().subscribe(subscriber)
        else:
            subscriber.on_subscribe(_Inner(self, subscriber))  # a dead Subscription
