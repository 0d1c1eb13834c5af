"""TestSubscriber and TestObserver: record signals and assert on them, as RxJava's do.

Every assertion returns ``self`` (so they chain) and raises ``AssertionError`` with a
message that shows what was actually received. They also check the Reactive Streams rules
the source must keep (§1.1 more items than requested, §1.7 a signal after the terminal
event, §1.9 a signal before ``on_subscribe``, §2.5/§2.12 a second ``on_subscribe``,
§2.13 ``None``): a violation is recorded and every ``assert_*`` then fails naming the
rule. Signals after ``cancel()`` are allowed (§2.8; see
:meth:`TestSubscriber.assert_no_values_after_cancel` for the strict check); acknowledge a
deliberate violation with :meth:`BaseTestConsumer.assert_protocol_violation`.

Details: docs/operator-authoring.md, "TestSubscriber's rule checks".
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.demand import deferred_request
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["BaseTestConsumer", "TestObserver", "TestSubscriber"]

T = TypeVar("T")
# a class decorated by _check_assertions: the decorator returns the class itself, so
# pyright keeps seeing it (with type[Any] -> type[Any] it saw an Any)
_C = TypeVar("_C", bound=type[Any])

Self = TypeVar("Self", bound="BaseTestConsumer[Any]")

_NO_ARG: Any = object()


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
        self.timeout: bool = False
        self._protocol_errors: list[str] = []
        self._acknowledged = 0  # violations before this index were expected by the test

    def _touch(self) -> None:
        """Note the thread of the signal being received (``last_thread``)."""
        self.last_thread = threading.current_thread()

    # ----------------------------------------------------------- rule checks

    def _violation(self, message: str) -> None:
        """Record a rule violation (called from the source's thread; never raises)."""
        with self._lock:
            self._protocol_errors.append(message)

    def protocol_violations(self) -> list[str]:
        """The rule violations seen so far, each naming its rule (``"§1.1: ..."``)."""
        with self._lock:
            return list(self._protocol_errors)

    def _check_protocol(self) -> None:
        with self._lock:
            pending = self._protocol_errors[self._acknowledged:]
        if pending:
            raise self._fail("Reactive Streams rule violated: " + "; ".join(pending), protocol=False)

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
        """Return how many items arrived so far."""
        return len(self._values)

    def is_terminated(self) -> bool:
        """Return whether ``on_error`` or ``on_complete`` arrived."""
        return self._done.is_set()

    def _record_value(self, item: T) -> None:
        self._touch()
        with self._lock:
            if item is None:  # §2.13: recorded for the assertions, and raised to the caller
                err = TypeError("on_next received None")
                self._protocol_errors.append("§2.13: on_next(None)")
                self._errors.append(err)
                self._count_changed.notify_all()
                raise err
            self._values.append(item)
            self._count_changed.notify_all()

    def _record_error(self, error: BaseException) -> None:
        self._touch()
        with self._lock:
            if error is None:  # §2.13: recorded for the assertions, and raised to the caller
                err = TypeError("on_error received None")
                self._protocol_errors.append("§2.13: on_error(None)")
                self._errors.append(err)
                self._count_changed.notify_all()
                raise err
            self._errors.append(error)
            self._count_changed.notify_all()
        self._done.set()

    def _record_complete(self) -> None:
        self._touch()
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
        """Wait up to ``timeout`` seconds for a terminal event; return whether one arrived.

        Unlike :meth:`await_done`, a time-out neither cancels nor sets ``timeout``.
        """
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

    def _fail(self, message: str, protocol: bool = True) -> AssertionError:
        with self._lock:
            values = list(self._values)
            errors = list(self._errors)
        shown = values if len(values) <= 50 else values[:50] + ["..."]
        detail = (f"{message} (values={len(values)} {shown!r}, errors={len(errors)} "
                  f"{errors!r}, completions={self._completions}"
                  f"{', timeout!' if self.timeout else ''}"
                  f"{', protocol: ' + '; '.join(self._protocol_errors) if protocol and self._protocol_errors else ''})")
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
        """Assert that the item at ``index`` equals ``expected``, or satisfies it if it is callable."""
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
        """Assert that exactly ``n`` items arrived."""
        c = len(self._values)
        if c != n:
            raise self._fail(f"Value counts differ; expected: {n} but was: {c}")
        return self

    def assert_no_values(self: Self) -> Self:
        """Assert that no item arrived."""
        return self.assert_value_count(0)

    def assert_no_errors(self: Self) -> Self:
        """Assert that no error arrived."""
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
            ok = bool(expected(e))  # type: ignore[call-arg]  # expected is a predicate here (not a class)
            what = "an error matching the predicate"
        if not ok:
            raise self._fail(f"Expected {what} but got {e!r}")
        return self

    def assert_error_message(self: Self, message: str) -> Self:
        """Assert exactly one error, whose ``str()`` equals ``message``."""
        errors = self.errors()
        if len(errors) != 1:
            raise self._fail(f"Expected exactly one error but got {len(errors)}")
        if str(errors[0]) != message:
            raise self._fail(f"Error message differs; expected: {message!r} but was: "
                             f"{str(errors[0])!r}")
        return self

    def assert_complete(self: Self) -> Self:
        """Assert exactly one ``on_complete``."""
        c = self._completions
        if c == 0:
            raise self._fail("Not completed")
        if c > 1:
            raise self._fail(f"Multiple completions: {c}")
        return self

    def assert_not_complete(self: Self) -> Self:
        """Assert no ``on_complete`` (more than one fails too)."""
        c = self._completions
        if c == 1:
            raise self._fail("Completed!")
        if c > 1:
            raise self._fail(f"Multiple completions: {c}")
        return self

    def assert_terminated(self: Self) -> Self:
        """Assert exactly one terminal event: one ``on_complete`` or one ``on_error``, not both."""
        c, e = self._completions, len(self._errors)
        if c + e == 0:
            raise self._fail("Not terminated")
        if c > 1 or e > 1 or (c and e):
            raise self._fail(f"Terminated with multiple terminal events: {c} completions, "
                             f"{e} errors")
        return self

    def assert_not_terminated(self: Self) -> Self:
        """Assert that no terminal event arrived."""
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
        """Assert that an :meth:`await_done` or :meth:`await_count` timed out."""
        if not self.timeout:
            raise self._fail("No timeout?!")
        return self

    def assert_no_timeout(self: Self) -> Self:
        """Assert that no :meth:`await_done` or :meth:`await_count` timed out."""
        if self.timeout:
            raise self._fail("Timeout?!")
        return self

    def assert_subscribed(self: Self) -> Self:
        """Assert that ``on_subscribe`` was called (each subclass checks its own subscription)."""
        raise NotImplementedError

    def assert_protocol_ok(self: Self) -> Self:
        """No rule violation was seen (every other assertion checks this too)."""
        self._check_protocol()
        return self

    def assert_protocol_violation(self: Self, text: str) -> Self:
        """A violation whose message contains ``text`` (a rule, ``"§1.1"``, or words) was
        seen. It acknowledges every violation seen so far: the other assertions no longer
        fail on them (a test that provokes rule breaks on purpose)."""
        with self._lock:
            found = any(text in v for v in self._protocol_errors)
            if found:
                self._acknowledged = len(self._protocol_errors)
        if not found:
            raise self._fail(f"No rule violation matching {text!r}")
        return self


def _checks_protocol(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap an assertion: when it passes, it still fails on an unacknowledged violation
    (when it fails, its own message already lists the violations)."""
    @functools.wraps(fn)
    def assertion(self: BaseTestConsumer[Any], *args: Any, **kwargs: Any) -> Any:
        result = fn(self, *args, **kwargs)
        self._check_protocol()
        return result
    return assertion


_UNCHECKED = frozenset({"assert_protocol_ok", "assert_protocol_violation"})


def _check_assertions(cls: _C) -> _C:
    for name, member in list(vars(cls).items()):
        if name.startswith("assert_") and name not in _UNCHECKED and callable(member):
            setattr(cls, name, _checks_protocol(member))
    return cls


_check_assertions(BaseTestConsumer)


@_check_assertions
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
        self._subscribe_calls = 0
        # §1.1: what this subscriber asked for in total (initial + request(n)) and got
        self._total_requested = min(initial_request, LONG_MAX)
        self._received = 0
        self._cancelled = False
        self._after_cancel = 0  # on_next signals after cancel() (allowed in flight, §2.8)
        self.requested_fusion_mode: int = NONE
        self.established_fusion_mode: int = NONE
        self._qs: QueueSubscription[T] | None = None

    # Subscriber
    def on_subscribe(self, s: Subscription) -> None:
        """Keep ``s`` and request the initial amount plus any earlier requests.

        A second Subscription is cancelled and recorded as a violation (§2.5/§2.12), and so is
        ``None`` (§2.13, which also raises ``TypeError``). With :meth:`with_fusion`, a
        ``QueueSubscription`` is fused instead: in SYNC mode it is drained here at once.
        """
        self._touch()
        if s is None:  # §2.13: recorded for the assertions, and raised to the caller
            err = TypeError("on_subscribe received a None Subscription")
            with self._lock:
                self._protocol_errors.append("§2.13: on_subscribe(None)")
                self._errors.append(err)
            raise err
        with self._lock:
            self._subscribe_calls += 1
            calls = self._subscribe_calls
            if calls > 1:  # §2.5/§2.12: at most once; the extra Subscription is cancelled
                self._protocol_errors.append(
                    f"§2.5/§2.12: on_subscribe twice (call #{calls}, {s!r} cancelled)")
                self._errors.append(RuntimeError(f"on_subscribe received multiple subscriptions: {s!r}"))
        if calls > 1 or not self._upstream.compare_and_set(None, s):
            s.cancel()
            if calls == 1:
                self._subscribed = True  # cancelled before: subscribed all the same
            return
        self._subscribed = True
        if self._downstream is not None:
            # its requests go through this subscriber, so §1.1 counts them too
            self._downstream.on_subscribe(_Relay(self))
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

    def _check_signal(self, what: str, arg: Any = _NO_ARG) -> None:
        """§1.9 and §1.7 checks shared by every signal."""
        if self._subscribed and not self._done.is_set():
            return
        if not self._subscribed:  # §1.9: on_subscribe comes first
            with self._lock:
                self._protocol_errors.append(f"§1.9: {what} before on_subscribe")
                self._errors.append(RuntimeError("on_subscribe not called in proper order"))
        if self._done.is_set():  # §1.7: nothing after a terminal signal
            if arg is not _NO_ARG:
                what = f"{what}({arg!r})"
            self._violation(f"§1.7: {what} after a terminal event")

    def on_next(self, item: T) -> None:
        """Record ``item`` and pass it to the ``downstream``.

        An item beyond the requested amount (§1.1), before ``on_subscribe`` (§1.9) or after a
        terminal event (§1.7) is recorded as a violation; ``None`` is recorded as an error and
        raises ``TypeError`` (§2.13). In ASYNC fusion mode the signal means "poll": the queue
        is drained instead.
        """
        if self.established_fusion_mode == 2:  # ASYNC: on_next says "poll"
            self._check_signal("on_next")
            try:
                while True:
                    v = self._qs.poll()  # type: ignore[union-attr]  # set when fusion was established
                    if v is None:
                        break
                    self._record_value(v)
            except Exception as e:
                self._qs.cancel()  # type: ignore[union-attr]  # set when fusion was established
                self._record_error(e)
            return
        self._check_signal("on_next", item)
        with self._lock:
            self._received += 1
            n, r = self._received, self._total_requested
            if self._cancelled:
                self._after_cancel += 1
            if n > r:  # §1.1: never more than requested
                self._protocol_errors.append(
                    f"§1.1: on_next #{n} ({item!r}) beyond the requested amount {r} "
                    f"(more items than requested)")
        self._record_value(item)
        if self._downstream is not None:
            self._downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        """Record ``error`` as the terminal event and pass it to the ``downstream``; out of order it is a violation (§1.7, §1.9), ``None`` raises ``TypeError`` (§2.13)."""
        self._check_signal("on_error", error)
        self._record_error(error)
        if self._downstream is not None:
            self._downstream.on_error(error)

    def on_complete(self) -> None:
        """Record the completion (in ASYNC fusion mode, after draining the queue) and pass it to the ``downstream``; out of order it is a violation (§1.7, §1.9)."""
        self._check_signal("on_complete")
        if self.established_fusion_mode == 2:
            try:
                while True:
                    v = self._qs.poll()  # type: ignore[union-attr]  # set when fusion was established
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
        """Request ``n`` more items from the upstream, counted for the §1.1 check.

        Before ``on_subscribe`` the amount is kept and requested then (an invalid one goes to
        :func:`rxpy2.plugins.on_error`); after that an invalid ``n`` goes upstream as it is,
        for the source to reject (§3.9). After :meth:`cancel` nothing is counted or requested.
        """
        with self._lock:
            # counted before it goes upstream: an item it causes must see it (§1.1)
            r = SubscriptionHelper.request_amount(n)  # an invalid one is the upstream's to report
            if r and not self._cancelled:
                self._total_requested = min(self._total_requested + r, LONG_MAX)  # §3.17
        deferred_request(self._upstream, self._missed_requested, n)

    def cancel(self) -> None:
        """Cancel the upstream (also one that arrives later); idempotent. Items already in flight may still arrive (§2.8)."""
        # the upstream first: a request racing with this is either counted or not forwarded
        SubscriptionHelper.cancel(self._upstream)
        with self._lock:
            self._cancelled = True

    def requested_total(self) -> int:
        """What this subscriber requested in total (``LONG_MAX``: unbounded)."""
        return self._total_requested

    def values_after_cancel(self) -> int:
        """How many ``on_next`` signals arrived after :meth:`cancel` (§2.8 allows some)."""
        return self._after_cancel

    def assert_no_values_after_cancel(self) -> TestSubscriber[T]:
        """Strict (§3.6/§3.7 in spirit): no item arrived once :meth:`cancel` returned.

        Not part of the automatic checks: §2.8 lets items already in flight arrive.
        Use it where the source must stop at once (it runs on the cancelling thread)."""
        if self._after_cancel:
            raise self._fail(f"§2.8/§3.6: {self._after_cancel} on_next signal(s) after cancel() "
                             f"(the source did not stop)")
        return self

    def _cancel_upstream(self) -> None:
        self.cancel()

    def is_cancelled(self) -> bool:
        """Return whether :meth:`cancel` (or :meth:`dispose`) cancelled the upstream."""
        return self._upstream.get() is CANCELLED

    # Disposable
    def dispose(self) -> None:
        """Cancel the upstream, as :meth:`cancel`."""
        self.cancel()

    def is_disposed(self) -> bool:
        """Return whether the upstream was cancelled, as :meth:`is_cancelled`."""
        return self.is_cancelled()

    def has_subscription(self) -> bool:
        """Return whether ``on_subscribe`` was called."""
        return self._subscribed

    def assert_subscribed(self) -> TestSubscriber[T]:
        """Assert that ``on_subscribe`` was called."""
        if not self._subscribed:
            raise self._fail("Not subscribed!")
        return self

    def assert_not_subscribed(self) -> TestSubscriber[T]:
        """Assert that ``on_subscribe`` was not called and no error arrived."""
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
        """Assert that the fusion mode established in ``on_subscribe`` is ``mode`` (``NONE`` when none was)."""
        if self.established_fusion_mode != mode:
            raise self._fail(f"Fusion mode differs; expected: {mode} but was: "
                             f"{self.established_fusion_mode}")
        return self


class _Relay(Subscription):
    """The Subscription a TestSubscriber's ``downstream`` gets: its requests and its
    cancellation are the TestSubscriber's own (counted for §1.1)."""

    __slots__ = ("_ts",)

    def __init__(self, ts: TestSubscriber[Any]) -> None:
        self._ts = ts

    def request(self, n: int) -> None:
        self._ts.request(n)

    def cancel(self) -> None:
        self._ts.cancel()


@_check_assertions
class TestObserver(BaseTestConsumer[T], SingleObserver[T], MaybeObserver[T],
                   CompletableObserver, Disposable):
    """A recording observer for Single, Maybe and Completable (``on_success`` is an item
    followed by completion, as RxJava's TestObserver records it)."""

    def __init__(self) -> None:
        super().__init__()
        self._upstream: AtomicReference[Disposable] = AtomicReference()
        self._subscribed = False
        self._subscribe_calls = 0

    def on_subscribe(self, d: Disposable) -> None:
        """Keep ``d``; a second Disposable is disposed and recorded as a violation (§2.5/§2.12), ``None`` too (§2.13, which also raises ``TypeError``)."""
        self._touch()
        if d is None:  # §2.13: recorded for the assertions, and raised to the caller
            err = TypeError("on_subscribe received a None Disposable")
            with self._lock:
                self._protocol_errors.append("§2.13: on_subscribe(None)")
                self._errors.append(err)
            raise err
        with self._lock:
            self._subscribe_calls += 1
            calls = self._subscribe_calls
            if calls > 1:  # §2.12 (as for a Subscriber): at most once
                self._protocol_errors.append(
                    f"§2.5/§2.12: on_subscribe twice (call #{calls}, {d!r} disposed)")
                self._errors.append(RuntimeError(f"on_subscribe received multiple disposables: {d!r}"))
        if calls > 1 or not self._upstream.compare_and_set(None, d):
            d.dispose()
            if calls == 1:
                self._subscribed = True  # disposed before: subscribed all the same
            return
        self._subscribed = True

    def _check(self, what: str) -> None:
        if not self._subscribed:  # §1.9 (as for a Subscriber): on_subscribe comes first
            with self._lock:
                self._protocol_errors.append(f"§1.9: {what} before on_subscribe")
                self._errors.append(RuntimeError("on_subscribe not called in proper order"))
        if self._done.is_set():  # §1.7 (as for a Subscriber): one terminal signal, then nothing
            self._violation(f"§1.7: {what} after a terminal event")

    def on_success(self, item: T) -> None:
        """Record ``item`` followed by a completion, as RxJava's TestObserver does; out of order it is a violation (§1.7, §1.9)."""
        self._check("on_success")
        self._record_value(item)
        self._record_complete()

    def on_next(self, item: T) -> None:  # lets it observe a Flowable too, if ever needed
        """Record ``item`` (so that a Flowable can be observed too); out of order it is a violation (§1.7, §1.9)."""
        self._check("on_next")
        self._record_value(item)

    def on_error(self, error: BaseException) -> None:
        """Record ``error`` as the terminal event; out of order it is a violation (§1.7, §1.9)."""
        self._check("on_error")
        self._record_error(error)

    def on_complete(self) -> None:
        """Record the completion; out of order it is a violation (§1.7, §1.9)."""
        self._check("on_complete")
        self._record_complete()

    def dispose(self) -> None:
        """Dispose the upstream Disposable (also one that arrives later); idempotent."""
        DisposableHelper.dispose(self._upstream)

    def is_disposed(self) -> bool:
        """Return whether :meth:`dispose` was called."""
        return self._upstream.get() is DISPOSED

    def _cancel_upstream(self) -> None:
        self.dispose()

    def assert_subscribed(self) -> TestObserver[T]:
        """Assert that ``on_subscribe`` was called."""
        if not self._subscribed:
            raise self._fail("Not subscribed!")
        return self
