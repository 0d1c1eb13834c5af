"""TestSubscriber and TestObserver: record signals and assert on them, as RxJava's do.

Every assertion returns ``self`` (so they chain) and raises ``AssertionError``
with a message that shows what was actually received.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicLong, AtomicReference
from rxpy2.internal.fuseable import NONE, QueueSubscription
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.observers import (
    CompletableObserver,
    FlowableSubscriber,
    MaybeObserver,
    SingleObserver,
)
from rxpy2.reactivestreams import LONG_MAX, Subscriber, Subscription

__all__ = ["BaseTestConsumer", "TestObserver", "TestSubscriber"]

T = TypeVar("T")

Self = TypeVar("Self", bound="BaseTestConsumer[Any]")


class BaseTestConsumer(Generic[T]):
    """The recording and the assertions shared by TestSubscriber and TestObserver."""

    __test__ = False  # not a pytest test class

    def __init__(self) -> None:
        self._values: list[T] = []
        self._errors: list[BaseException] = []
        self._completions = 0
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._count_changed = threading.Condition(self._lock)
        self.last_thread: threading.Thread | None = None
        self.timeout = False
        self._protocol_errors: list[str] = []

    # ----------------------------------------------------------- recorded state

    def values(self) -> list[T]:
        """A copy of the items received so far."""
        with self._lock:
            return list(self._values)

    def errors(self) -> list[BaseException]:
        """A copy of the errors received so far (0 or 1 for a well-behaved source)."""
        with self._lock:
            return list(self._errors)

    def completions(self) -> int:
        """How many ``on_complete`` signals arrived (0 or 1 for a well-behaved source)."""
        return self._completions

    def value_count(self) -> int:
        return len(self._values)

    def is_terminated(self) -> bool:
        return self._done.is_set()

    def _record_value(self, item: T) -> None:
        self.last_thread = threading.current_thread()
        with self._lock:
            if item is None:  # §2.13: recorded for the assertions, and raised to the caller
                err = TypeError("on_next received None")
                self._errors.append(err)
                self._count_changed.notify_all()
                raise err
            self._values.append(item)
            self._count_changed.notify_all()

    def _record_error(self, error: BaseException) -> None:
        self.last_thread = threading.current_thread()
        with self._lock:
            if error is None:  # §2.13: recorded for the assertions, and raised to the caller
                err = TypeError("on_error received None")
                self._errors.append(err)
                self._count_changed.notify_all()
                raise err
            self._errors.append(error)
            self._count_changed.notify_all()
        self._done.set()

    def _record_complete(self) -> None:
        self.last_thread = threading.current_thread()
        with self._lock:
            self._completions += 1
            self._count_changed.notify_all()
        self._done.set()

    # ----------------------------------------------------------- waiting

    def await_done(self: Self, timeout: float = 5.0) -> Self:
        """Wait until a terminal event arrives; on time-out cancel and set ``timeout``."""
        if not self._done.wait(timeout):
            self.timeout = True
            self._cancel_upstream()
        return self

    def await_terminal_event(self, timeout: float = 5.0) -> bool:
        return self._done.wait(timeout)

    def await_count(self: Self, n: int, timeout: float = 5.0) -> Self:
        """Wait until at least ``n`` items arrived or the stream terminated."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self._values) < n and not self._done.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    self.timeout = True
                    break
                self._count_changed.wait(left)
        return self

    def _cancel_upstream(self) -> None:
        raise NotImplementedError

    # ----------------------------------------------------------- assertions

    def _fail(self, message: str) -> AssertionError:
        with self._lock:
            values = list(self._values)
            errors = list(self._errors)
        shown = values if len(values) <= 50 else values[:50] + ["..."]  # type: ignore[list-item]
        detail = (f"{message} (values={len(values)} {shown!r}, errors={len(errors)} "
                  f"{errors!r}, completions={self._completions}"
                  f"{', timeout!' if self.timeout else ''}"
                  f"{', protocol: ' + '; '.join(self._protocol_errors) if self._protocol_errors else ''})")
        err = AssertionError(detail)
        if errors:
            err.__cause__ = errors[0]
        return err

    def assert_values(self: Self, *expected: Any) -> Self:
        """Exactly these items, in order (``assert_values(1, 2, 3)``)."""
        values = self.values()
        if len(values) != len(expected):
            raise self._fail(f"Value count differs; expected: {len(expected)} {list(expected)!r} "
                             f"but was: {len(values)}")
        for i, (a, e) in enumerate(zip(values, expected, strict=True)):
            if a != e:
                raise self._fail(f"Values at position {i} differ; expected: {e!r} but was: {a!r}")
        return self

    def assert_value_sequence(self: Self, expected: Sequence[Any]) -> Self:
        """Exactly the items of ``expected``, in order."""
        return self.assert_values(*expected)

    def assert_value(self: Self, expected: Any) -> Self:
        """Exactly one item; equal to ``expected``, or satisfying it if it is callable."""
        values = self.values()
        if len(values) != 1:
            raise self._fail(f"expected one value but was {len(values)}")
        v = values[0]
        if callable(expected) and not isinstance(expected, type):
            if not expected(v):
                raise self._fail(f"Value {v!r} does not match the predicate")
        elif v != expected:
            raise self._fail(f"expected: {expected!r} but was: {v!r}")
        return self

    def assert_value_at(self: Self, index: int, expected: Any) -> Self:
        values = self.values()
        if index >= len(values):
            raise self._fail(f"No value at index {index}")
        v = values[index]
        if callable(expected) and not isinstance(expected, type):
            if not expected(v):
                raise self._fail(f"Value at {index} ({v!r}) does not match the predicate")
        elif v != expected:
            raise self._fail(f"Value at {index}: expected {expected!r} but was {v!r}")
        return self

    def assert_value_count(self: Self, n: int) -> Self:
        c = len(self._values)
        if c != n:
            raise self._fail(f"Value counts differ; expected: {n} but was: {c}")
        return self

    def assert_no_values(self: Self) -> Self:
        return self.assert_value_count(0)

    def assert_no_errors(self: Self) -> Self:
        if self._errors:
            raise self._fail(f"Error(s) present: {self._errors!r}")
        return self

    def assert_error(self: Self, expected: type[BaseException] | BaseException |
                     Callable[[BaseException], bool]) -> Self:
        """One error: of this type, this very instance, or satisfying this predicate."""
        errors = self.errors()
        if not errors:
            raise self._fail("No errors")
        if len(errors) > 1:
            raise self._fail(f"Multiple errors: {len(errors)}")
        e = errors[0]
        if isinstance(expected, type) and issubclass(expected, BaseException):
            ok = isinstance(e, expected)
            what = f"an error of type {expected.__name__}"
        elif isinstance(expected, BaseException):
            ok = e is expected
            what = f"the error {expected!r}"
        else:
            ok = bool(expected(e))  # type: ignore[call-arg, operator]
            what = "an error matching the predicate"
        if not ok:
            raise self._fail(f"Expected {what} but got {e!r}")
        return self

    def assert_error_message(self: Self, message: str) -> Self:
        errors = self.errors()
        if len(errors) != 1:
            raise self._fail(f"Expected exactly one error but got {len(errors)}")
        if str(errors[0]) != message:
            raise self._fail(f"Error message differs; expected: {message!r} but was: "
                             f"{str(errors[0])!r}")
        return self

    def assert_complete(self: Self) -> Self:
        c = self._completions
        if c == 0:
            raise self._fail("Not completed")
        if c > 1:
            raise self._fail(f"Multiple completions: {c}")
        return self

    def assert_not_complete(self: Self) -> Self:
        c = self._completions
        if c == 1:
            raise self._fail("Completed!")
        if c > 1:
            raise self._fail(f"Multiple completions: {c}")
        return self

    def assert_terminated(self: Self) -> Self:
        c, e = self._completions, len(self._errors)
        if c + e == 0:
            raise self._fail("Not terminated")
        if c > 1 or e > 1 or (c and e):
            raise self._fail(f"Terminated with multiple terminal events: {c} completions, "
                             f"{e} errors")
        return self

    def assert_not_terminated(self: Self) -> Self:
        if self._done.is_set():
            raise self._fail("Terminated")
        return self

    def assert_result(self: Self, *expected: Any) -> Self:
        """These items, then completion, and no error."""
        return self.assert_subscribed().assert_values(*expected).assert_no_errors() \
            .assert_complete()

    def assert_failure(self: Self, error: Any, *expected: Any) -> Self:
        """These items, then the given error (type, instance or predicate), no completion."""
        return self.assert_subscribed().assert_values(*expected).assert_error(error) \
            .assert_not_complete()

    def assert_empty(self: Self) -> Self:
        """Subscribed, and nothing else happened."""
        return self.assert_subscribed().assert_no_values().assert_no_errors() \
            .assert_not_complete()

    def assert_timeout(self: Self) -> Self:
        if not self.timeout:
            raise self._fail("No timeout?!")
        return self

    def assert_no_timeout(self: Self) -> Self:
        if self.timeout:
            raise self._fail("Timeout?!")
        return self

    def assert_subscribed(self: Self) -> Self:
        raise NotImplementedError

    def assert_protocol_ok(self: Self) -> Self:
        """No protocol violation was seen (signal before on_subscribe, after terminal, ...)."""
        if self._protocol_errors:
            raise self._fail("Protocol violations: " + "; ".join(self._protocol_errors))
        return self


class TestSubscriber(BaseTestConsumer[T], FlowableSubscriber[T], Subscription, Disposable):
    """A recording Subscriber with RxJava's assertions.

    ``initial_request`` is requested in ``on_subscribe`` (``0`` requests nothing:
    call :meth:`request` later; above ``LONG_MAX`` it is ``LONG_MAX``, unbounded, §3.17).
    Requests made before ``on_subscribe`` are kept and handed over then.
    ``downstream`` (optional) receives every signal too.
    """

    def __init__(self, initial_request: int = LONG_MAX,
                 downstream: Subscriber[T] | None = None) -> None:
        super().__init__()
        if initial_request < 0:
            raise ValueError(f"initial_request >= 0 required but it was {initial_request}")
        self._downstream = downstream
        self._upstream: AtomicReference[Subscription] = AtomicReference()
        # §3.17: more than LONG_MAX is unbounded; a 64-bit cell cannot hold it
        self._missed_requested = AtomicLong(min(initial_request, LONG_MAX))
        self._subscribed = False
        self.requested_fusion_mode = NONE
        self.established_fusion_mode = NONE
        self._qs: QueueSubscription[T] | None = None

    # Subscriber
    def on_subscribe(self, s: Subscription) -> None:
        self.last_thread = threading.current_thread()
        if s is None:  # §2.13: recorded for the assertions, and raised to the caller
            err = TypeError("on_subscribe received a None Subscription")
            self._errors.append(err)
            raise err
        if not self._upstream.compare_and_set(None, s):
            s.cancel()
            if self._upstream.get() is not CANCELLED:
                self._errors.append(RuntimeError(f"on_subscribe received multiple subscriptions: {s!r}"))
                self._protocol_errors.append("on_subscribe twice")
            else:
                self._subscribed = True  # cancelled before: subscribed all the same
            return
        self._subscribed = True
        if self._downstream is not None:
            self._downstream.on_subscribe(s)
        if self.requested_fusion_mode != NONE and isinstance(s, QueueSubscription):
            self._qs = s
            mode = s.request_fusion(self.requested_fusion_mode)
            self.established_fusion_mode = mode
            if mode == 1:  # SYNC: drain it all now
                try:
                    while True:
                        v = s.poll()
                        if v is None:
                            break
                        self._record_value(v)
                    self._record_complete()
                except Exception as e:
                    self._record_error(e)
                return
        r = self._missed_requested.get_and_set(0)
        if r != 0:
            s.request(r)

    def on_next(self, item: T) -> None:
        if not self._subscribed:
            self._protocol_errors.append("on_next before on_subscribe")
            self._errors.append(RuntimeError("on_subscribe not called in proper order"))
        if self._done.is_set():
            self._protocol_errors.append(f"on_next({item!r}) after a terminal event")
        if self.established_fusion_mode == 2:  # ASYNC: on_next says "poll"
            try:
                while True:
                    v = self._qs.poll()  # type: ignore[union-attr]
                    if v is None:
                        break
                    self._record_value(v)
            except Exception as e:
                self._qs.cancel()  # type: ignore[union-attr]
                self._record_error(e)
            return
        self._record_value(item)
        if self._downstream is not None:
            self._downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if not self._subscribed:
            self._protocol_errors.append("on_error before on_subscribe")
            self._errors.append(RuntimeError("on_subscribe not called in proper order"))
        if self._done.is_set():
            self._protocol_errors.append(f"on_error({error!r}) after a terminal event")
        self._record_error(error)
        if self._downstream is not None:
            self._downstream.on_error(error)

    def on_complete(self) -> None:
        if not self._subscribed:
            self._protocol_errors.append("on_complete before on_subscribe")
            self._errors.append(RuntimeError("on_subscribe not called in proper order"))
        if self._done.is_set():
            self._protocol_errors.append("on_complete after a terminal event")
        if self.established_fusion_mode == 2:
            try:
                while True:
                    v = self._qs.poll()  # type: ignore[union-attr]
                    if v is None:
                        break
                    self._record_value(v)
            except Exception as e:
                self._record_error(e)
                return
        self._record_complete()
        if self._downstream is not None:
            self._downstream.on_complete()

    # Subscription
    def request(self, n: int) -> None:
        SubscriptionHelper.deferred_request(self._upstream, self._missed_requested, n)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self._upstream)

    def _cancel_upstream(self) -> None:
        self.cancel()

    def is_cancelled(self) -> bool:
        return self._upstream.get() is CANCELLED

    # Disposable
    def dispose(self) -> None:
        self.cancel()

    def is_disposed(self) -> bool:
        return self.is_cancelled()

    def has_subscription(self) -> bool:
        return self._subscribed

    def assert_subscribed(self) -> TestSubscriber[T]:
        if not self._subscribed:
            raise self._fail("Not subscribed!")
        return self

    def assert_not_subscribed(self) -> TestSubscriber[T]:
        if self._subscribed:
            raise self._fail("Subscribed!")
        if self._errors:
            raise self._fail("Not subscribed but errors found")
        return self

    def request_more(self, n: int) -> TestSubscriber[T]:
        """``request(n)`` that returns self, for chaining in tests."""
        self.request(n)
        return self

    def with_fusion(self, mode: int) -> TestSubscriber[T]:
        """Ask for this fusion mode in ``on_subscribe`` (before subscribing)."""
        self.requested_fusion_mode = mode
        return self

    def assert_fusion_mode(self, mode: int) -> TestSubscriber[T]:
        if self.established_fusion_mode != mode:
            raise self._fail(f"Fusion mode differs; expected: {mode} but was: "
                             f"{self.established_fusion_mode}")
        return self


class TestObserver(BaseTestConsumer[T], SingleObserver[T], MaybeObserver[T],
                   CompletableObserver, Disposable):
    """A recording observer for Single, Maybe and Completable (``on_success`` is an item
    followed by completion, as RxJava's TestObserver records it)."""

    def __init__(self) -> None:
        super().__init__()
        self._upstream: AtomicReference[Disposable] = AtomicReference()
        self._subscribed = False

    def on_subscribe(self, d: Disposable) -> None:
        self.last_thread = threading.current_thread()
        if d is None:  # §2.13: recorded for the assertions, and raised to the caller
            err = TypeError("on_subscribe received a None Disposable")
            self._errors.append(err)
            raise err
        if not self._upstream.compare_and_set(None, d):
            d.dispose()
            if self._upstream.get() is not DISPOSED:
                self._errors.append(RuntimeError(f"on_subscribe received multiple disposables: {d!r}"))
                self._protocol_errors.append("on_subscribe twice")
            else:
                self._subscribed = True  # disposed before: subscribed all the same
            return
        self._subscribed = True

    def _check(self, what: str) -> None:
        if not self._subscribed:
            self._protocol_errors.append(f"{what} before on_subscribe")
            self._errors.append(RuntimeError("on_subscribe not called in proper order"))
        if self._done.is_set():
            self._protocol_errors.append(f"{what} after a terminal event")

    def on_success(self, item: T) -> None:
        self._check("on_success")
        self._record_value(item)
        self._record_complete()

    def on_next(self, item: T) -> None:  # lets it observe a Flowable too, if ever needed
        self._check("on_next")
        self._record_value(item)

    def on_error(self, error: BaseException) -> None:
        self._check("on_error")
        self._record_error(error)

    def on_complete(self) -> None:
        self._check("on_complete")
        self._record_complete()

    def dispose(self) -> None:
        DisposableHelper.dispose(self._upstream)

    def is_disposed(self) -> bool:
        return self._upstream.get() is DISPOSED

    def _cancel_upstream(self) -> None:
        self.dispose()

    def assert_subscribed(self) -> TestObserver[T]:
        if not self._subscribed:
            raise self._fail("Not subscribed!")
        return self
