"""``TestPublisher``: a Flowable driven by the test, that can break the rules on purpose.

As Reactor's ``TestPublisher``: the test calls :meth:`TestPublisher.next`,
:meth:`~TestPublisher.complete`, :meth:`~TestPublisher.error` or
:meth:`~TestPublisher.emit`, and every current subscriber receives the signal; the
assertions tell what the subscribers asked for (requests, cancellation). Being a
:class:`~rxpy2.flowable.Flowable`, it can be the upstream of any operator, so an
operator author can check the operator's defences against a misbehaving source.

``TestPublisher.create()`` is well-behaved:

* an item for a subscriber without demand is not delivered: that subscriber gets
  ``on_error(MissingBackpressureException("Can't deliver value due to lack of
  requests"))`` and is removed (Reactor signals an IllegalStateException);
* ``next(None)``/``error(None)`` raise ``TypeError`` at the caller (§2.13);
* a terminal signal removes every subscriber (later signals reach nobody); a
  subscriber arriving after it gets ``on_subscribe`` then that terminal signal;
* ``cancel()`` removes the subscriber; ``request(n <= 0)`` signals
  ``on_error(ValueError)`` (§3.9).

``TestPublisher.create_noncompliant(*violations)`` relaxes the :class:`Violation` s given.
"""

from __future__ import annotations

import enum
import threading
from typing import Generic

from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["TestPublisher", "Violation"]



class Violation(enum.Enum):
    """The rules a non-compliant :class:`TestPublisher` may break (Reactor's names)."""

    #: §1.1: ``next`` delivers items to a subscriber whatever its demand.
    REQUEST_OVERFLOW = "request_overflow"
    #: §2.13: ``next(None)`` and ``error(None)`` are signalled as they are.
    ALLOW_NULL = "allow_null"
    #: §1.7: terminal signals do not remove the subscribers: ``complete()``/``error()``
    #: can be signalled several times, and ``next`` after them still reaches them.
    CLEANUP_ON_TERMINATE = "cleanup_on_terminate"
    #: §3.6/§3.7-ish: ``cancel()`` is recorded but ignored: the subscriber stays and
    #: keeps receiving the signals.
    DEFER_CANCELLATION = "defer_cancellation"


class _TestSubscription(Subscription, Generic[T]):
    __slots__ = ("parent", "downstream", "requested", "total", "cancelled")

    def __init__(self, parent: TestPublisher[T], downstream: Subscriber[T]) -> None:
        self.parent = parent
        self.downstream = downstream
        self.requested = 0  # outstanding demand (LONG_MAX: unbounded)
        self.total = 0      # requested in all
        self.cancelled = False

    def request(self, n: int) -> None:
        parent = self.parent
        r = SubscriptionHelper.request_amount(n)
        if r == 0:  # §3.9
            if parent._remove(self):
                self.downstream.on_error(SubscriptionHelper.bad_request(n))
            return
        n = r
        with parent._lock:
            self.requested = min(self.requested + n, LONG_MAX)  # §3.17
            self.total = min(self.total + n, LONG_MAX)
            parent._requested_total = min(parent._requested_total + n, LONG_MAX)

    def cancel(self) -> None:
        parent = self.parent
        with parent._lock:
            self.cancelled = True
            parent._cancel_count += 1
        if Violation.DEFER_CANCELLATION not in parent.violations:
            parent._remove(self)

    def __repr__(self) -> str:
        return (f"TestPublisher.Subscription(requested={self.requested}, "
                f"cancelled={self.cancelled})")


class TestPublisher(Flowable[T]):
    """A Flowable whose signals the test makes, with assertions on its subscribers."""

    __test__ = False  # not a pytest test class
    __slots__ = ("violations", "_lock", "_subscribers", "_terminal", "_subscribe_count",
                 "_cancel_count", "_requested_total", "_overflowed")

    def __init__(self, violations: frozenset[Violation] = frozenset()) -> None:
        self.violations: frozenset[Violation] = violations
        self._lock = threading.Lock()
        self._subscribers: list[_TestSubscription[T]] = []
        self._terminal: tuple[bool, BaseException | None] | None = None  # (error?, error)
        self._subscribe_count = 0
        self._cancel_count = 0
        self._requested_total = 0
        self._overflowed = False  # an item went beyond a subscriber's demand

    # ------------------------------------------------------------------ factories

    @staticmethod
    def create() -> TestPublisher[ItemT]:  # type: ignore[override]  # a publisher factory, not Flowable.create(source, mode)
        """A well-behaved TestPublisher (see the module)."""
        return TestPublisher()

    @staticmethod
    def create_noncompliant(first: Violation, *more: Violation) -> TestPublisher[ItemT]:
        """A TestPublisher that breaks the rules named by these :class:`Violation` s."""
        violations = frozenset((first, *more))
        for v in violations:
            if not isinstance(v, Violation):
                raise TypeError(f"not a Violation: {v!r}")
        return TestPublisher(violations)

    # ------------------------------------------------------------------ Flowable

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        """Add ``subscriber`` and call its ``on_subscribe``; after a terminal signal it gets that signal at once and is not kept (under CLEANUP_ON_TERMINATE it is kept, and gets no terminal signal)."""
        sub = _TestSubscription(self, subscriber)
        with self._lock:
            self._subscribe_count += 1
            terminal = self._terminal
            if terminal is None or Violation.CLEANUP_ON_TERMINATE in self.violations:
                self._subscribers.append(sub)
        subscriber.on_subscribe(sub)
        if terminal is not None and Violation.CLEANUP_ON_TERMINATE not in self.violations:
            if terminal[0]:
                subscriber.on_error(terminal[1])  # type: ignore[arg-type]  # terminal[0] says it is an error
            else:
                subscriber.on_complete()

    def _remove(self, sub: _TestSubscription[T]) -> bool:
        with self._lock:
            try:
                self._subscribers.remove(sub)
            except ValueError:
                return False
            return True

    def _snapshot(self) -> list[_TestSubscription[T]]:
        with self._lock:
            return list(self._subscribers)

    # ------------------------------------------------------------------ signals

    def next(self, first: T, *rest: T) -> TestPublisher[T]:
        """Signal these items to every subscriber, in order (see the module for a
        subscriber without demand)."""
        for item in (first, *rest):
            self._next(item)
        return self

    def _next(self, item: T) -> None:
        if item is None and Violation.ALLOW_NULL not in self.violations:
            raise TypeError("emitted values must not be None (§2.13)")
        overflow = Violation.REQUEST_OVERFLOW in self.violations
        for sub in self._snapshot():
            deliver, fail = True, False
            with self._lock:
                r = sub.requested
                if r == 0:
                    if overflow:  # §1.1 broken on purpose
                        self._overflowed = True
                    else:
                        deliver = False
                        if sub in self._subscribers:
                            self._subscribers.remove(sub)
                            fail = True
                elif r != LONG_MAX:
                    sub.requested = r - 1
            if deliver:
                sub.downstream.on_next(item)
            elif fail:  # §1.1 kept: no item without demand
                sub.downstream.on_error(MissingBackpressureException(
                    "Can't deliver value due to lack of requests"))

    def error(self, error: BaseException) -> TestPublisher[T]:  # type: ignore[override]  # TestPublisher.error emits; Flowable.error is a factory
        """Signal ``on_error(error)`` to every subscriber (and to later ones)."""
        if error is None and Violation.ALLOW_NULL not in self.violations:
            raise TypeError("error must not be None (§2.13)")
        for sub in self._terminate(True, error):
            sub.downstream.on_error(error)
        return self

    def complete(self) -> TestPublisher[T]:
        """Signal ``on_complete`` to every subscriber (and to later ones)."""
        for sub in self._terminate(False, None):
            sub.downstream.on_complete()
        return self

    def emit(self, *items: T) -> TestPublisher[T]:
        """``next(*items)`` then ``complete()``."""
        for item in items:
            self._next(item)
        return self.complete()

    def _terminate(self, is_error: bool, error: BaseException | None
                   ) -> list[_TestSubscription[T]]:
        with self._lock:
            if self._terminal is None:
                self._terminal = (is_error, error)
            subs = list(self._subscribers)
            if Violation.CLEANUP_ON_TERMINATE not in self.violations:
                self._subscribers.clear()  # §1.7: terminated subscribers hear nothing more
        return subs

    # ------------------------------------------------------------------ state

    @property
    def requested(self) -> int:
        """The total requested by all subscribers so far (``LONG_MAX``: unbounded)."""
        return self._requested_total

    def subscribe_count(self) -> int:
        """Return how many times the publisher was subscribed to (also after termination)."""
        return self._subscribe_count

    def subscriber_count(self) -> int:
        """Return how many subscribers are current: neither cancelled, nor removed by a terminal signal or a missing request."""
        with self._lock:
            return len(self._subscribers)

    def was_subscribed(self) -> bool:
        """Return whether anyone ever subscribed."""
        return self._subscribe_count > 0

    def was_requested(self) -> bool:
        """Return whether any subscriber ever requested a positive amount."""
        return self._requested_total > 0

    def was_cancelled(self) -> bool:
        """Return whether any subscriber ever called ``cancel()`` (recorded under DEFER_CANCELLATION too)."""
        return self._cancel_count > 0

    # ------------------------------------------------------------------ assertions

    def _verify(self, ok: bool, message: str) -> TestPublisher[T]:
        if not ok:
            raise AssertionError(f"TestPublisher: {message}")
        return self

    def _demands(self) -> list[int]:
        with self._lock:
            return [s.requested for s in self._subscribers]

    def assert_was_subscribed(self) -> TestPublisher[T]:
        """Assert that someone subscribed; raise ``AssertionError`` otherwise. Returns self."""
        return self._verify(self.was_subscribed(), "expected a subscription but there was none")

    def assert_was_not_subscribed(self) -> TestPublisher[T]:
        """Assert that nobody ever subscribed. Returns self."""
        return self._verify(not self.was_subscribed(), f"expected no subscription but there "
                            f"were {self._subscribe_count}")

    def assert_was_requested(self) -> TestPublisher[T]:
        """Assert that some subscriber requested a positive amount. Returns self."""
        return self._verify(self.was_requested(), "expected a request but there was none")

    def assert_was_not_requested(self) -> TestPublisher[T]:
        """Assert that no subscriber requested anything. Returns self."""
        return self._verify(not self.was_requested(), f"expected no request but "
                            f"{self.requested} were requested")

    def assert_min_requested(self, n: int) -> TestPublisher[T]:
        """Every current subscriber has an outstanding demand of at least ``n``."""
        demands = self._demands()
        self._verify(bool(demands), "no subscriber to check the demand of")
        low = min(demands)
        return self._verify(low >= n, f"expected a minimum demand of {n} but the lowest was "
                            f"{low} (demands {demands})")

    def assert_max_requested(self, n: int) -> TestPublisher[T]:
        """No current subscriber has an outstanding demand above ``n``."""
        demands = self._demands()
        high = max(demands, default=0)
        return self._verify(high <= n, f"expected a maximum demand of {n} but the highest was "
                            f"{high} (demands {demands})")

    def assert_was_cancelled(self, times: int | None = None) -> TestPublisher[T]:
        """Assert that some subscriber cancelled, or, with ``times``, that ``cancel()`` was called exactly that often in all. Returns self."""
        c = self._cancel_count
        return self._verify(c != 0 and (times is None or c == times),
                            f"expected {'a' if times is None else times} cancellation(s) but "
                            f"there were {c}")

    def assert_not_cancelled(self) -> TestPublisher[T]:
        """Assert that no subscriber ever called ``cancel()``. Returns self."""
        return self._verify(not self._cancel_count, f"expected no cancellation but there were "
                            f"{self._cancel_count}")

    def assert_subscribers(self, n: int | None = None) -> TestPublisher[T]:
        """Some subscriber is current (not cancelled or terminated), or exactly ``n``."""
        c = self.subscriber_count()
        return self._verify(c != 0 if n is None else c == n,
                            f"expected {'subscribers' if n is None else n} but there were {c}")

    def assert_no_subscribers(self) -> TestPublisher[T]:
        """Assert that no subscriber is current (see :meth:`subscriber_count`). Returns self."""
        return self.assert_subscribers(0)

    def assert_request_overflow(self) -> TestPublisher[T]:
        """(REQUEST_OVERFLOW) an item was delivered beyond a subscriber's demand."""
        return self._verify(self._overflowed, "expected a request overflow but none happened")

    def assert_no_request_overflow(self) -> TestPublisher[T]:
        """Assert that no item went to a subscriber beyond its demand (possible only under REQUEST_OVERFLOW). Returns self."""
        return self._verify(not self._overflowed, "an item was delivered beyond the demand")

    def __repr__(self) -> str:
        v = ", ".join(sorted(x.name for x in self.violations))
        return (f"TestPublisher({'non-compliant: ' + v + ', ' if v else ''}"
                f"subscribers={self.subscriber_count()}, terminated={self._terminal is not None})")
