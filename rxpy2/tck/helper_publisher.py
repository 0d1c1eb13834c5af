"""The helper Publisher the subscriber and processor verifications feed their subjects from.

:class:`HelperPublisher` emits ``create(0), create(1), ...`` asynchronously on a
``concurrent.futures`` executor, strictly under demand, and keeps every Publisher
rule itself: signals to one Subscriber never overlap (each Subscription is an
actor that handles one queued signal at a time on the executor), ``request(n <= 0)``
ends the stream with ``on_error(ValueError)`` and a request that is not an int with
``on_error(TypeError)`` (§3.9, rxpy2's one request check), demand adds up to
``LONG_MAX`` (§3.17), cancel drops the Subscriber (§3.13), a long stream is
emitted in batches so one Subscription never holds a worker for long.

It depends on the four Reactive Streams interfaces (and ``threading``) and on the
request check of ``SubscriptionHelper`` only, so it can feed any Python Subscriber
under test.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import Executor
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["HelperPublisher", "default_publisher_executor"]

T = TypeVar("T")

#: Above this many elements the helper stream is unbounded, as the official TCK's
#: helper is for anything above ``Integer.MAX_VALUE``.
INT_MAX = 2**31 - 1

_executor_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def default_publisher_executor() -> Executor:
    """The process-wide executor of helper publishers (4 worker threads, made on first use)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tck-helper")
        return _executor


class HelperPublisher(Publisher[T], Generic[T]):
    """Emits ``create(i)`` for ``i`` in ``range(elements)`` (unbounded above ``2**31 - 1``).

    ``create(i)`` raising ends that Subscriber's stream with ``on_error``. Every
    Subscription it hands out is remembered until :meth:`cancel_all` (the
    verifications call it after each rule, so no helper stream outlives its test).
    """

    def __init__(self, create: Callable[[int], T], elements: int,
                 executor: Executor | None = None, batch_size: int = 64) -> None:
        if elements < 0:
            raise ValueError(f"elements must be >= 0 but it was {elements}")
        self._create = create
        self._elements = elements
        self._executor = executor if executor is not None else default_publisher_executor()
        self._batch_size = max(1, batch_size)
        self._lock = threading.Lock()
        self._subscriptions: list[_HelperSubscription[T]] = []

    def _iterator(self) -> Iterator[int]:
        if self._elements > INT_MAX:
            return itertools.count()
        return iter(range(self._elements))

    def subscribe(self, subscriber: Subscriber[T]) -> None:
        """Hand ``subscriber`` its own Subscription and start its stream; ``None`` raises ``TypeError`` (§1.9).

        ``on_subscribe`` and every later signal run on the executor, never on the calling thread.
        """
        if subscriber is None:
            raise TypeError("subscriber is None (§1.9)")
        s = _HelperSubscription(subscriber, self._iterator(), self._create, self._executor,
                                self._batch_size)
        with self._lock:
            self._subscriptions.append(s)
        s.start()

    def cancel_all(self) -> None:
        """Cancel every Subscription handed out so far."""
        with self._lock:
            subs, self._subscriptions = self._subscriptions, []
        for s in subs:
            s.cancel()

    def __repr__(self) -> str:
        n = "unbounded" if self._elements > INT_MAX else self._elements
        return f"HelperPublisher(elements={n})"


# the signals an actor handles, in order
_SUBSCRIBE = "subscribe"
_REQUEST = "request"
_CANCEL = "cancel"
_SEND = "send"


class _HelperSubscription(Subscription, Generic[T]):
    """One Subscriber's Subscription: a queue of signals run one at a time on the executor."""

    def __init__(self, subscriber: Subscriber[T], source: Iterator[int],
                 create: Callable[[int], T], executor: Executor, batch_size: int) -> None:
        self._subscriber: Subscriber[T] | None = subscriber
        self._source = source
        self._create = create
        self._executor = executor
        self._batch_size = batch_size
        self._signals: deque[tuple[str, Any]] = deque()
        self._lock = threading.Lock()
        self._scheduled = False
        # touched only by the actor (one signal at a time)
        self._demand = 0
        self._cancelled = False

    # ------------------------------------------------------------- Subscription
    def request(self, n: int) -> None:
        self._signal(_REQUEST, n)

    def cancel(self) -> None:
        self._signal(_CANCEL, None)

    def start(self) -> None:
        self._signal(_SUBSCRIBE, None)

    # ------------------------------------------------------------- the actor
    def _signal(self, kind: str, arg: Any) -> None:
        with self._lock:
            self._signals.append((kind, arg))
            if self._scheduled:
                return
            self._scheduled = True
        self._schedule()

    def _schedule(self) -> None:
        try:
            self._executor.submit(self._run)
        except RuntimeError:
            # the executor is shut down (interpreter exit): nobody will run the signals
            self._terminate()

    def _run(self) -> None:
        kind, arg = self._signals.popleft()
        try:
            if kind == _REQUEST:
                self._do_request(arg)
            elif kind == _SEND:
                self._do_send()
            elif kind == _CANCEL:
                self._terminate()
            else:
                self._do_subscribe()
        finally:
            with self._lock:
                more = bool(self._signals)
                if not more:
                    self._scheduled = False
            if more:
                self._schedule()

    def _terminate(self) -> None:
        self._cancelled = True
        self._subscriber = None  # §3.13: drop the Subscriber
        self._demand = 0

    def _do_subscribe(self) -> None:
        sub = self._subscriber
        if self._cancelled or sub is None:
            return
        try:
            sub.on_subscribe(self)
        except Exception:
            # §2.13: a throwing Subscriber may be considered cancelled
            self._terminate()
            return
        self._peek_end()

    def _peek_end(self) -> None:
        """An empty source completes right after on_subscribe, without demand (§1.5)."""
        try:
            first = next(self._source)
        except StopIteration:
            self._complete()
            return
        self._source = itertools.chain((first,), self._source)

    def _do_request(self, n: int) -> None:
        if self._cancelled:
            return
        r = SubscriptionHelper.request_amount(n)
        if r == 0:  # §3.9
            sub = self._subscriber
            self._terminate()
            if sub is not None:
                self._safe(sub.on_error, SubscriptionHelper.bad_request(n))
            return
        n = r
        was = self._demand
        self._demand = min(LONG_MAX, was + n)  # §3.17
        if was == 0:
            self._do_send()

    def _do_send(self) -> None:
        left = self._batch_size
        create = self._create
        while not self._cancelled and self._demand > 0 and left > 0:
            try:
                i = next(self._source)
            except StopIteration:
                self._complete()
                return
            sub = self._subscriber
            try:
                item = create(i)
            except Exception as e:
                self._terminate()
                if sub is not None:
                    self._safe(sub.on_error, RuntimeError(f"Failed to create element for id {i}: {e!r}"))
                return
            if sub is None:
                return
            self._demand -= 1
            left -= 1
            if not self._safe(sub.on_next, item):
                return
        if not self._cancelled and self._demand > 0:
            # a long stream continues in a later turn: other actors get the worker meanwhile
            with self._lock:
                self._signals.append((_SEND, None))

    def _complete(self) -> None:
        sub = self._subscriber
        self._terminate()
        if sub is not None:
            self._safe(sub.on_complete)

    def _safe(self, signal: Callable[..., Any], *args: Any) -> bool:
        """Run a Subscriber method; one that raises ends the Subscription (§2.13)."""
        try:
            signal(*args)
            return True
        except Exception:
            self._terminate()
            return False
