"""The TCK's test environment: timeouts, asynchronous-error bookkeeping, test subscribers.

A test subscriber that sees something wrong on the Publisher's thread cannot raise; it
*flops*: :meth:`TestEnvironment.flop` records the error and returns, and the test thread
later calls :meth:`TestEnvironment.verify_no_async_errors`, which raises the first one as
an ``AssertionError``. :meth:`TestEnvironment.flop_and_fail` records and raises.

Timeouts are in milliseconds (defaults: :attr:`TestEnvironment.default_timeout_ms`,
:attr:`TestEnvironment.default_no_signals_timeout_ms`; ``(timeout_ms, msg)`` methods also
take ``msg`` alone). Environment variables: ``RXPY2_TCK_TIMEOUT_MS`` (100),
``RXPY2_TCK_NO_SIGNALS_TIMEOUT_MS`` (the timeout), ``RXPY2_TCK_POLL_TIMEOUT_MS`` (10).
The ``..._or_end_of_stream`` methods return ``None`` for end-of-stream (§2.13).

More: docs/tck.md, "The test environment".
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any
from typing import Generic
from typing import NoReturn
from typing import TypeVar

from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.support import SubscriberBufferOverflowException

__all__ = [
    "BlackholeSubscriberWithSubscriptionSupport",
    "DEFAULT_POLL_TIMEOUT_MS",
    "DEFAULT_TIMEOUT_MS",
    "END_OF_STREAM",
    "ENV_NO_SIGNALS_TIMEOUT_MS",
    "ENV_POLL_TIMEOUT_MS",
    "ENV_TIMEOUT_MS",
    "ExpectedClosedLatchException",
    "ExpectedOpenLatchException",
    "Latch",
    "ManualPublisher",
    "ManualSubscriber",
    "ManualSubscriberWithSubscriptionSupport",
    "Promise",
    "Receptacle",
    "TEST_BUFFER_SIZE",
    "TestEnvironment",
    "TestSubscriber",
]

T = TypeVar("T")
E = TypeVar("E", bound=BaseException)

#: The buffer size the test subscribers are built around (a Receptacle holds twice as many).
TEST_BUFFER_SIZE = 16

ENV_TIMEOUT_MS = "RXPY2_TCK_TIMEOUT_MS"
ENV_NO_SIGNALS_TIMEOUT_MS = "RXPY2_TCK_NO_SIGNALS_TIMEOUT_MS"
ENV_POLL_TIMEOUT_MS = "RXPY2_TCK_POLL_TIMEOUT_MS"
DEFAULT_TIMEOUT_MS = 100
DEFAULT_POLL_TIMEOUT_MS = 10


class _EndOfStream:
    __slots__ = ()

    def __repr__(self) -> str:
        return "END_OF_STREAM"


#: What :meth:`Receptacle.drain` returns for an ``on_complete`` among the items.
END_OF_STREAM: Any = _EndOfStream()

_UNSET: Any = object()


def _env_ms(name: str, default: float | None) -> float | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"Unable to parse the {name} environment value {raw!r} as milliseconds") from None
    if value < 0:
        raise ValueError(f"{name} must not be negative, was {raw!r}")
    return int(value) if value.is_integer() else value


def _timeout_and_msg(timeout_ms: Any, msg: str | None, default_timeout: float,
                     default_msg: str) -> tuple[float, str]:
    """Resolve a ``(timeout_ms, msg)`` pair; a string in the timeout slot is the message."""
    if isinstance(timeout_ms, str):
        timeout_ms, msg = None, timeout_ms
    return (default_timeout if timeout_ms is None else timeout_ms,
            default_msg if msg is None else msg)


def _seconds(ms: float) -> float:
    return max(0.0, ms / 1000.0)


def _describe(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    notes = getattr(error, "__notes__", None)
    if notes:
        text += " (" + "; ".join(str(n) for n in notes) + ")"
    return text


class TestEnvironment:
    """Timeouts plus the list of asynchronous errors ("flops") of the running test. Thread-safe."""

    __test__ = False  # not a pytest test class

    def __init__(self, default_timeout_ms: float | None = None,
                 default_no_signals_timeout_ms: float | None = None,
                 default_poll_timeout_ms: float | None = None,
                 print_debug: bool = False) -> None:
        timeout = (default_timeout_ms if default_timeout_ms is not None
                   else _env_ms(ENV_TIMEOUT_MS, DEFAULT_TIMEOUT_MS))
        assert timeout is not None
        no_signals = (default_no_signals_timeout_ms if default_no_signals_timeout_ms is not None
                      else _env_ms(ENV_NO_SIGNALS_TIMEOUT_MS, timeout))
        poll = (default_poll_timeout_ms if default_poll_timeout_ms is not None
                else _env_ms(ENV_POLL_TIMEOUT_MS, DEFAULT_POLL_TIMEOUT_MS))
        for label, v in (("default_timeout_ms", timeout),
                         ("default_no_signals_timeout_ms", no_signals),
                         ("default_poll_timeout_ms", poll)):
            if v is None or v < 0:
                raise ValueError(f"{label} must be >= 0, was {v!r}")
        self._timeout_ms: float = timeout
        self._no_signals_timeout_ms: float = no_signals  # type: ignore[assignment]  # checked not None just above
        self._poll_timeout_ms: float = poll  # type: ignore[assignment]  # checked not None just above
        self._print_debug = bool(print_debug)
        self._lock = threading.Lock()
        self._async_errors: list[BaseException] = []

    def __repr__(self) -> str:
        return (f"TestEnvironment(default_timeout_ms={self._timeout_ms}, "
                f"default_no_signals_timeout_ms={self._no_signals_timeout_ms}, "
                f"default_poll_timeout_ms={self._poll_timeout_ms})")

    # ---- configuration -------------------------------------------------------------------

    @property
    def default_timeout_ms(self) -> float:
        """How long to wait for an expected signal."""
        return self._timeout_ms

    @property
    def default_no_signals_timeout_ms(self) -> float:
        """How long to wait when asserting that no further signal arrives."""
        return self._no_signals_timeout_ms

    @property
    def default_poll_timeout_ms(self) -> float:
        """The poll step while waiting for an asynchronous error."""
        return self._poll_timeout_ms

    @property
    def debug_enabled(self) -> bool:
        """Whether the environment was made with ``print_debug=True`` (then :meth:`debug` prints)."""
        return self._print_debug

    @staticmethod
    def env_default_timeout_ms() -> float:
        """``RXPY2_TCK_TIMEOUT_MS`` or 100."""
        v = _env_ms(ENV_TIMEOUT_MS, DEFAULT_TIMEOUT_MS)
        assert v is not None
        return v

    @staticmethod
    def env_default_no_signals_timeout_ms() -> float:
        """``RXPY2_TCK_NO_SIGNALS_TIMEOUT_MS`` or the default timeout."""
        v = _env_ms(ENV_NO_SIGNALS_TIMEOUT_MS, TestEnvironment.env_default_timeout_ms())
        assert v is not None
        return v

    @staticmethod
    def env_default_poll_timeout_ms() -> float:
        """``RXPY2_TCK_POLL_TIMEOUT_MS`` or 10."""
        v = _env_ms(ENV_POLL_TIMEOUT_MS, DEFAULT_POLL_TIMEOUT_MS)
        assert v is not None
        return v

    # ---- asynchronous errors -------------------------------------------------------------

    @property
    def async_errors(self) -> list[BaseException]:
        """A snapshot of the recorded errors, oldest first."""
        with self._lock:
            return list(self._async_errors)

    def flop(self, error_or_msg: BaseException | str, msg: str | None = None) -> None:
        """Record a failure without raising ("fail asynchronously").

        ``flop(msg)`` records ``AssertionError(msg)``; ``flop(error)`` and
        ``flop(error, msg)`` record ``error`` itself (``msg`` is attached as a note).
        """
        if isinstance(error_or_msg, BaseException):
            error = error_or_msg
            if msg:
                try:
                    if msg not in getattr(error, "__notes__", ()):
                        error.add_note(msg)
                except Exception:  # an exception type that refuses notes
                    pass
        else:
            error = AssertionError(str(error_or_msg))
        with self._lock:
            self._async_errors.append(error)
        if self._print_debug:
            self.debug(f"flop: {_describe(error)}")

    def flop_and_fail(self, msg: str) -> NoReturn:
        """Record ``AssertionError(msg)`` and raise it."""
        error = AssertionError(msg)
        with self._lock:
            self._async_errors.append(error)
        if self._print_debug:
            self.debug(f"flop_and_fail: {msg}")
        raise error

    def clear_async_errors(self) -> None:
        """Forget every recorded asynchronous error."""
        with self._lock:
            self._async_errors.clear()

    def drop_async_error(self) -> BaseException | None:
        """Remove and return the oldest recorded error, or None."""
        with self._lock:
            return self._async_errors.pop(0) if self._async_errors else None

    def verify_no_async_errors(self, delay_ms: float | None = None) -> None:
        """Fail at once if an error was recorded; else wait ``delay_ms`` (default: the
        no-signals timeout) and check again."""
        self.verify_no_async_errors_no_delay()
        time.sleep(_seconds(self._no_signals_timeout_ms if delay_ms is None else delay_ms))
        self.verify_no_async_errors_no_delay()

    def verify_no_async_errors_no_delay(self) -> None:
        """Raise the first recorded error (a non-assertion error wrapped in an AssertionError)."""
        with self._lock:
            first = self._async_errors[0] if self._async_errors else None
        if first is None:
            return
        if isinstance(first, AssertionError):
            raise first
        raise AssertionError(f"Async error during test execution: {_describe(first)}") from first

    def expect_error(self, error_type: type[E], timeout_ms: Any = None, msg: str | None = None,
                     poll_timeout_ms: float | None = None) -> E:
        """Wait for a recorded error, take it out and check that it is an ``error_type``."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self._timeout_ms,
                                        f"Expected on_error({error_type.__name__})")
        poll = self._poll_timeout_ms if poll_timeout_ms is None else poll_timeout_ms
        deadline = time.monotonic() + _seconds(timeout)
        while True:
            error = self.drop_async_error()
            if error is not None:
                if isinstance(error, error_type):
                    return error
                return self.flop_and_fail(
                    f"{msg} within {timeout} ms; Got {_describe(error)} but expected "
                    f"{error_type.__name__}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return self.flop_and_fail(f"{msg} within {timeout} ms")
            time.sleep(min(_seconds(poll) or 0.001, remaining))

    def expect_throwing_error_matching(self, fn: Callable[[], Any], error_type: type[E],
                                       message_part: str | Iterable[str] | None = None,
                                       msg: str | None = None) -> E:
        """Call ``fn`` on this thread; it must raise an ``error_type`` (whose message holds
        ``message_part`` or one of several parts, when given). Returns the error."""
        what = msg or f"Expected {getattr(fn, '__name__', fn)!s} to raise {error_type.__name__}"
        try:
            fn()
        except error_type as e:
            if message_part is not None:
                parts = [message_part] if isinstance(message_part, str) else list(message_part)
                if not any(p in str(e) for p in parts):
                    raise AssertionError(f"{what}: got {_describe(e)} but its message contains "
                                         f"none of {parts!r}") from e
            return e
        except Exception as e:
            raise AssertionError(f"{what}, but it raised {_describe(e)}") from e
        raise AssertionError(f"{what}, but it returned normally")

    # ---- debugging -----------------------------------------------------------------------

    def debug(self, msg: str) -> None:
        """Print ``[TCK-DEBUG] msg`` when the environment was made with ``print_debug=True``."""
        if self._print_debug:
            print(f"[TCK-DEBUG] {msg}", flush=True)

    def find_caller_method_in_stack_trace(self, method: str) -> traceback.FrameSummary | None:
        """The innermost frame of the calling thread's stack running a function named
        ``method`` (e.g. "was this called from on_complete?"), or None."""
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_name == method:
                return traceback.FrameSummary(frame.f_code.co_filename, frame.f_lineno,
                                              frame.f_code.co_name, lookup_line=False)
            frame = frame.f_back  # type: ignore[assignment]  # the loop ends on None
        return None

    # ---- subscribing -----------------------------------------------------------------------

    def subscribe(self, pub: Publisher[T], sub: TestSubscriber[T],
                  timeout_ms: float | None = None) -> None:
        """Subscribe ``sub`` and wait until it received its Subscription."""
        timeout = self._timeout_ms if timeout_ms is None else timeout_ms
        pub.subscribe(sub)
        sub.subscription.expect_completion(timeout, f"Could not subscribe {sub!r} to Publisher {pub!r}")
        self.verify_no_async_errors_no_delay()

    def new_blackhole_subscriber(self, pub: Publisher[T]) -> ManualSubscriber[T]:
        """A subscribed subscriber that discards items (to drain a publisher quickly)."""
        sub: BlackholeSubscriberWithSubscriptionSupport[T] = BlackholeSubscriberWithSubscriptionSupport(self)
        self.subscribe(pub, sub, self._timeout_ms)
        return sub

    def new_manual_subscriber(self, pub: Publisher[T],
                              timeout_ms: float | None = None) -> ManualSubscriber[T]:
        """A subscribed :class:`ManualSubscriberWithSubscriptionSupport` (requests nothing yet)."""
        sub: ManualSubscriberWithSubscriptionSupport[T] = ManualSubscriberWithSubscriptionSupport(self)
        self.subscribe(pub, sub, timeout_ms)
        return sub


# ---- latches, promises, receptacles --------------------------------------------------------


class ExpectedOpenLatchException(AssertionError):
    """A latch was closed where it had to be open (flopped by :meth:`Latch.assert_open`)."""


class ExpectedClosedLatchException(AssertionError):
    """A latch was open where it had to be closed (flopped by :meth:`Latch.assert_closed`)."""


class Latch:
    """A one-shot latch that can be re-opened; ``expect_close`` waits for it."""

    def __init__(self, env: TestEnvironment) -> None:
        self.env = env
        self._event = threading.Event()

    def re_open(self) -> None:
        """Open the latch again, so that :meth:`expect_close` waits for a new :meth:`close`."""
        self._event = threading.Event()

    def is_closed(self) -> bool:
        """Return whether :meth:`close` was called since the latch was made or re-opened."""
        return self._event.is_set()

    def close(self) -> None:
        """Close the latch, releasing every thread waiting in :meth:`expect_close`; closing twice is harmless."""
        self._event.set()

    def assert_closed(self, open_error_msg: str) -> None:
        """Flop an :class:`ExpectedClosedLatchException` with ``open_error_msg`` if the latch is still open."""
        if not self.is_closed():
            self.env.flop(ExpectedClosedLatchException(open_error_msg))

    def assert_open(self, closed_error_msg: str) -> None:
        """Flop an :class:`ExpectedOpenLatchException` with ``closed_error_msg`` if the latch is closed."""
        if self.is_closed():
            self.env.flop(ExpectedOpenLatchException(closed_error_msg))

    def expect_close(self, timeout_ms: Any = None, msg: str | None = None) -> None:
        """Wait for :meth:`close`; flop ``"<msg> within <t> ms"`` when it does not come."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected close")
        if not self._event.wait(_seconds(timeout)):
            self.env.flop(f"{msg} within {timeout} ms")


class Promise(Generic[T]):
    """A value that is set exactly once, possibly from another thread."""

    def __init__(self, env: TestEnvironment) -> None:
        self.env = env
        self._lock = threading.Lock()
        self._event = threading.Event()
        self._value: Any = _UNSET

    @classmethod
    def completed(cls, env: TestEnvironment, value: T) -> Promise[T]:
        """Return a promise already completed with ``value``."""
        p: Promise[T] = cls(env)
        p.complete(value)
        return p

    def value(self) -> T | None:
        """The value; before completion this flops and returns None."""
        v = self._value
        if v is _UNSET:
            self.env.flop("Cannot access promise value before completion")
            return None
        return v  # type: ignore[no-any-return]  # the promise holds Any

    def is_completed(self) -> bool:
        """Return whether the value was set."""
        return self._value is not _UNSET

    def complete(self, value: T) -> None:
        """Set the value and wake the threads waiting in :meth:`expect_completion`.

        A second completion flops (the first value stays). ``complete_immediately`` is the same method.
        """
        with self._lock:
            present = self._value
            if present is _UNSET:
                self._value = value
                self._event.set()
                return
        self.env.flop(f"Cannot complete a promise more than once! Present value: {present!r}, "
                      f"attempted to set: {value!r}")

    complete_immediately = complete

    def expect_completion(self, timeout_ms: Any = None, msg: str | None = None) -> None:
        """Wait up to ``timeout_ms`` for the value to be set; flop ``"<msg> within <t> ms"`` when it is not."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected completion")
        if not self._event.wait(_seconds(timeout)):
            self.env.flop(f"{msg} within {timeout} ms")


class Receptacle(Generic[T]):
    """A bounded thread-safe queue of received items plus "end-of-stream"."""

    QUEUE_SIZE = 2 * TEST_BUFFER_SIZE

    def __init__(self, env: TestEnvironment) -> None:
        self.env = env
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=self.QUEUE_SIZE)
        self._completed = Latch(env)

    def add(self, value: T) -> None:
        """Queue a received item.

        Flops if the stream already completed (the item is still queued); when the queue is full
        (:attr:`QUEUE_SIZE` items), flops and raises :class:`SubscriberBufferOverflowException`.
        """
        self._completed.assert_open(f"Unexpected element {value!r} received after stream completed")
        try:
            self._queue.put_nowait(value)
        except queue.Full:
            error = SubscriberBufferOverflowException(
                f"Received more than bufferSize ({self.QUEUE_SIZE}) on_next signals. "
                "The Publisher probably emitted more signals than expected!")
            self.env.flop(error)
            raise error from None

    def complete(self) -> None:
        """Record end-of-stream: close the completion latch and queue :data:`END_OF_STREAM`; a second completion flops."""
        self._completed.assert_open("Unexpected additional complete signal received!")
        self._completed.close()
        try:
            self._queue.put_nowait(END_OF_STREAM)
        except queue.Full:
            self.env.flop(SubscriberBufferOverflowException(
                f"No room for the completion signal: more than bufferSize ({self.QUEUE_SIZE}) "
                "signals are waiting"))

    def is_completed(self) -> bool:
        """Return whether :meth:`complete` was called."""
        return self._completed.is_closed()

    def _poll(self, timeout_ms: float) -> Any:
        try:
            return self._queue.get(timeout=_seconds(timeout_ms))
        except queue.Empty:
            return _UNSET

    def next(self, timeout_ms: Any = None, msg: str | None = None) -> T:
        """Return the next queued item, waiting up to ``timeout_ms``.

        Flops and raises ``AssertionError`` on timeout or when end-of-stream comes instead.
        """
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected element")
        value = self._poll(timeout)
        if value is _UNSET:
            return self.env.flop_and_fail(f"{msg} within {timeout} ms")
        if value is END_OF_STREAM:
            return self.env.flop_and_fail("Expected element but got end-of-stream")
        return value  # type: ignore[no-any-return]  # the queue holds Any

    def next_or_end_of_stream(self, timeout_ms: Any = None, msg: str | None = None) -> T | None:
        """The next item, or None at end-of-stream (and, after a flop, on timeout)."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected stream completion")
        value = self._poll(timeout)
        if value is _UNSET:
            self.env.flop(f"{msg} within {timeout} ms")
            return None
        if value is END_OF_STREAM:
            return None
        return value  # type: ignore[no-any-return]  # the queue holds Any

    def next_n(self, elements: int, timeout_ms: Any = None, msg: str | None = None) -> list[T]:
        """``elements`` items, all within ``timeout_ms`` in total."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected element")
        deadline = time.monotonic() + _seconds(timeout)
        result: list[T] = []
        for _ in range(elements):
            remaining_ms = max(0.0, (deadline - time.monotonic()) * 1000.0)
            value = self._poll(remaining_ms)
            if value is _UNSET:
                return self.env.flop_and_fail(
                    f"{msg} within {timeout} ms (got {len(result)} of {elements})")
            if value is END_OF_STREAM:
                return self.env.flop_and_fail(
                    f"Expected element but got end-of-stream (got {len(result)} of {elements})")
            result.append(value)
        return result

    def expect_completion(self, timeout_ms: Any = None, msg: str | None = None) -> None:
        """Wait up to ``timeout_ms`` for the next signal; flop unless it is end-of-stream."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected stream completion")
        value = self._poll(timeout)
        if value is _UNSET:
            self.env.flop(f"{msg} within {timeout} ms")
        elif value is not END_OF_STREAM:
            self.env.flop(f"Expected end-of-stream but got element [{value!r}]")

    def expect_error(self, error_type: type[E], timeout_ms: Any = None, msg: str | None = None,
                     poll_timeout_ms: float | None = None) -> E:
        """Wait for an error flopped into the environment; see :meth:`TestEnvironment.expect_error`."""
        return self.env.expect_error(error_type, timeout_ms, msg, poll_timeout_ms)

    def expect_none(self, within_ms: Any = None, msg_prefix: str | None = None) -> None:
        """Wait ``within_ms`` (default: no-signals timeout); then nothing may be queued."""
        within, prefix = _timeout_and_msg(within_ms, msg_prefix, self.env.default_no_signals_timeout_ms,
                                          "Did not expect an element but got element")
        time.sleep(_seconds(within))
        try:
            value = self._queue.get_nowait()
        except queue.Empty:
            return
        if value is END_OF_STREAM:
            self.env.flop("Expected no element but got end-of-stream")
        else:
            self.env.flop(f"{prefix} [{value!r}]")

    def drain(self) -> list[Any]:
        """Take everything queued right now, without waiting (:data:`END_OF_STREAM` for completion)."""
        out: list[Any] = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out


# ---- test subscribers ----------------------------------------------------------------------


class TestSubscriber(Subscriber[T]):
    """A Subscriber that flops on every signal; subclasses override what they expect.

    ``subscription`` is a :class:`Promise` of the received Subscription.
    """

    __test__ = False  # not a pytest test class

    def __init__(self, env: TestEnvironment) -> None:
        self.env = env
        self.subscription: Promise[Subscription] = Promise(env)

    def on_error(self, error: BaseException) -> None:
        """Flop ``error`` (with an "unexpected on_error" note): this subscriber expects no error."""
        self.env.flop(error, f"Unexpected Subscriber.on_error({error!r})")

    def on_complete(self) -> None:
        """Flop: this subscriber expects no completion."""
        self.env.flop("Unexpected Subscriber.on_complete()")

    def on_next(self, item: T) -> None:
        """Flop: this subscriber expects no item."""
        self.env.flop(f"Unexpected Subscriber.on_next({item!r})")

    def on_subscribe(self, subscription: Subscription) -> None:
        """Flop: this subscriber expects no Subscription (subclasses that want one override this)."""
        self.env.flop(f"Unexpected Subscriber.on_subscribe({subscription!r})")

    def cancel(self) -> None:
        """Cancel the received Subscription; before one arrived, flop instead."""
        if self.subscription.is_completed():
            s = self.subscription.value()
            assert s is not None
            s.cancel()
        else:
            self.env.flop("Cannot cancel a subscription before having received it")


class ManualSubscriber(TestSubscriber[T]):
    """A Subscriber the test steers: it requests on command and queues what it receives.

    ``on_error`` is inherited from :class:`TestSubscriber`: the error is flopped
    into the environment, where :meth:`expect_error` finds it.
    """

    def __init__(self, env: TestEnvironment) -> None:
        super().__init__(env)
        self.received: Receptacle[T] = Receptacle(env)

    def on_next(self, item: T) -> None:
        """Queue ``item`` for :meth:`next_element` and the other expectations.

        A ``None`` item flops and raises ``TypeError`` (§2.13); a full queue flops and raises
        :class:`SubscriberBufferOverflowException`.
        """
        if item is None:  # §2.13
            self.env.flop("Subscriber.on_next(None): None is not a valid item (§2.13)")
            raise TypeError("on_next(None): None is not a valid item (§2.13)")
        self.received.add(item)

    def on_complete(self) -> None:
        """Queue end-of-stream for :meth:`expect_completion`; a second completion flops."""
        self.received.complete()

    # ---- demand ----

    def request(self, elements: int) -> None:
        """Call ``request(elements)`` on the Subscription; before one arrived, flop and raise ``AssertionError``."""
        s = self.subscription.value()
        if s is None:
            self.env.flop_and_fail(f"Cannot request({elements}) before having received a Subscription")
        s.request(elements)

    def request_next_element(self, timeout_ms: Any = None, msg: str | None = None) -> T:
        """Request one item and return it (see :meth:`next_element`)."""
        self.request(1)
        return self.next_element(timeout_ms, msg)

    def request_next_element_or_end_of_stream(self, timeout_ms: Any = None,
                                              msg: str | None = None) -> T | None:
        """Request one item and return it, or None at end-of-stream (see :meth:`next_element_or_end_of_stream`)."""
        self.request(1)
        return self.next_element_or_end_of_stream(timeout_ms, msg)

    def request_end_of_stream(self, timeout_ms: Any = None, msg: str | None = None) -> None:
        """Request one item and expect end-of-stream instead (see :meth:`expect_completion`)."""
        self.request(1)
        self.expect_completion(timeout_ms, msg)

    def request_next_elements(self, elements: int, timeout_ms: Any = None,
                              msg: str | None = None) -> list[T]:
        """Request ``elements`` items and return them, all received within ``timeout_ms`` in total."""
        self.request(elements)
        if msg is None and not isinstance(timeout_ms, str):
            msg = f"Did not receive {elements} expected elements"
        return self.next_elements(elements, timeout_ms, msg)

    # ---- expectations ----

    def next_element(self, timeout_ms: Any = None, msg: str | None = None) -> T:
        """Return the next received item, waiting up to ``timeout_ms``; request nothing.

        Flops and raises ``AssertionError`` on timeout or at end-of-stream.
        """
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected element")
        return self.received.next(timeout, msg)

    def next_element_or_end_of_stream(self, timeout_ms: Any = None, msg: str | None = None) -> T | None:
        """The next item, or None at end-of-stream."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected stream completion")
        return self.received.next_or_end_of_stream(timeout, msg)

    def next_elements(self, elements: int, timeout_ms: Any = None, msg: str | None = None) -> list[T]:
        """Return the next ``elements`` received items, all within ``timeout_ms`` in total; flop and raise when they do not come."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected element or completion")
        return self.received.next_n(elements, timeout, msg)

    def expect_next(self, expected: T, timeout_ms: float | None = None) -> None:
        """Wait for the next item; flop unless it equals ``expected`` (flop and raise on timeout)."""
        got = self.next_element(timeout_ms, "Did not receive expected element on downstream")
        if got != expected:
            self.env.flop(f"Expected element {expected!r} on downstream but received {got!r}")

    def expect_completion(self, timeout_ms: Any = None, msg: str | None = None) -> None:
        """Wait up to ``timeout_ms`` for the next signal; flop unless it is ``on_complete``."""
        timeout, msg = _timeout_and_msg(timeout_ms, msg, self.env.default_timeout_ms,
                                        "Did not receive expected stream completion")
        self.received.expect_completion(timeout, msg)

    def expect_error(self, error_type: type[E], timeout_ms: Any = None, msg: str | None = None,
                     poll_timeout_ms: float | None = None) -> E:
        """Wait until an ``on_error`` (flopped into the environment) arrives; it must be an
        ``error_type``. The error is taken out of the environment and returned."""
        return self.received.expect_error(error_type, timeout_ms, msg, poll_timeout_ms)

    def expect_error_with_message(self, error_type: type[E], message_parts: str | Iterable[str],
                                  timeout_ms: float | None = None,
                                  poll_timeout_ms: float | None = None) -> E:
        """:meth:`expect_error`, plus: the message holds one of ``message_parts``."""
        parts = [message_parts] if isinstance(message_parts, str) else list(message_parts)
        error = self.expect_error(error_type, timeout_ms, None, poll_timeout_ms)
        text = str(error)
        if not any(p in text for p in parts):
            raise AssertionError(f"Got expected exception [{type(error).__name__}] but missing "
                                 f"message part [anyOf: {parts!r}], was: {text}")
        return error

    def expect_none(self, within_ms: Any = None, msg_prefix: str | None = None) -> None:
        """Nothing (no item, no completion) arrives within ``within_ms`` (default: no-signals timeout)."""
        self.received.expect_none(within_ms, msg_prefix)


class ManualSubscriberWithSubscriptionSupport(ManualSubscriber[T]):
    """A :class:`ManualSubscriber` that keeps its Subscription and checks that
    ``on_subscribe`` comes first and only once."""

    def on_next(self, item: T) -> None:
        """Queue ``item`` as :meth:`ManualSubscriber.on_next` does; before ``on_subscribe``, flop instead (§1.9)."""
        if self.env.debug_enabled:
            self.env.debug(f"{self!r}.on_next({item!r})")
        if self.subscription.is_completed():
            super().on_next(item)
        else:
            self.env.flop(f"Subscriber.on_next({item!r}) called before Subscriber.on_subscribe")

    def on_complete(self) -> None:
        """Queue end-of-stream as :meth:`ManualSubscriber.on_complete` does; before ``on_subscribe``, flop instead."""
        if self.env.debug_enabled:
            self.env.debug(f"{self!r}.on_complete()")
        if self.subscription.is_completed():
            super().on_complete()
        else:
            self.env.flop("Subscriber.on_complete() called before Subscriber.on_subscribe")

    def on_subscribe(self, subscription: Subscription) -> None:
        """Keep ``subscription`` in :attr:`subscription`; a second ``on_subscribe`` flops (§2.5)."""
        if self.env.debug_enabled:
            self.env.debug(f"{self!r}.on_subscribe({subscription!r})")
        if not self.subscription.is_completed():
            self.subscription.complete(subscription)
        else:
            self.env.flop("Subscriber.on_subscribe called on an already-subscribed Subscriber")

    def on_error(self, error: BaseException) -> None:
        """Flop ``error`` for :meth:`expect_error` to find; before ``on_subscribe``, flop it with a note saying so."""
        if self.env.debug_enabled:
            self.env.debug(f"{self!r}.on_error({error!r})")
        if self.subscription.is_completed():
            super().on_error(error)
        else:
            self.env.flop(error, f"Subscriber.on_error({error!r}) called before Subscriber.on_subscribe")


class BlackholeSubscriberWithSubscriptionSupport(ManualSubscriberWithSubscriptionSupport[T]):
    """Discards items (it cannot be asked for them); for draining a publisher quickly."""

    def on_next(self, item: T) -> None:
        """Discard ``item``; before ``on_subscribe``, flop."""
        if self.env.debug_enabled:
            self.env.debug(f"{self!r}.on_next({item!r})")
        if not self.subscription.is_completed():
            self.env.flop(f"Subscriber.on_next({item!r}) called before Subscriber.on_subscribe")

    def next_element(self, timeout_ms: Any = None, msg: str | None = None) -> T:
        """Raise ``RuntimeError``: a blackhole keeps no items."""
        raise RuntimeError("Can not expect elements from a BlackholeSubscriber, use ManualSubscriber instead!")

    def next_elements(self, elements: int, timeout_ms: Any = None, msg: str | None = None) -> list[T]:
        """Raise ``RuntimeError``: a blackhole keeps no items."""
        raise RuntimeError("Can not expect elements from a BlackholeSubscriber, use ManualSubscriber instead!")


# ---- test publisher ------------------------------------------------------------------------


class _ManualSubscription(Subscription):
    def __init__(self, publisher: ManualPublisher[Any]) -> None:
        self._publisher = publisher

    def request(self, n: int) -> None:
        self._publisher.requests.add(n)

    def cancel(self) -> None:
        self._publisher.cancelled.close()

    def __repr__(self) -> str:
        return f"ManualSubscription({self._publisher!r})"


class ManualPublisher(Publisher[T]):
    """A Publisher for one Subscriber that the test drives: it records requests and
    cancellation and sends the signals it is told to."""

    def __init__(self, env: TestEnvironment) -> None:
        self.env = env
        self.pending_demand: int = 0
        self.subscriber: Promise[Subscriber[T]] = Promise(env)
        self.requests: Receptacle[int] = Receptacle(env)
        self.cancelled: Latch = Latch(env)

    def subscribe(self, subscriber: Subscriber[T]) -> None:
        """Take ``subscriber`` (the only one) and call its ``on_subscribe``.

        The Subscription records ``request(n)`` in :attr:`requests` and ``cancel`` in
        :attr:`cancelled`. ``None`` raises ``TypeError`` (§1.9); a second subscriber flops.
        """
        if subscriber is None:
            raise TypeError("subscriber is None")  # §1.9
        if not self.subscriber.is_completed():
            self.subscriber.complete(subscriber)
            subscriber.on_subscribe(_ManualSubscription(self))
        else:
            self.env.flop("ManualPublisher doesn't support more than one Subscriber")

    def _target(self, what: str) -> Subscriber[T] | None:
        if self.subscriber.is_completed():
            return self.subscriber.value()
        self.env.flop(f"Cannot {what} before having a Subscriber")
        return None

    def send_next(self, item: T) -> None:
        """Call ``on_next(item)`` on the subscriber, on this thread, ignoring demand; without a subscriber, flop."""
        s = self._target("send_next")
        if s is not None:
            s.on_next(item)

    def send_completion(self) -> None:
        """Call ``on_complete()`` on the subscriber; without a subscriber, flop."""
        s = self._target("send_completion")
        if s is not None:
            s.on_complete()

    def send_error(self, error: BaseException) -> None:
        """Call ``on_error(error)`` on the subscriber; without a subscriber, flop."""
        s = self._target("send_error")
        if s is not None:
            s.on_error(error)

    def expect_request(self, timeout_ms: float | None = None, msg_addendum: str | None = None) -> int:
        """Wait for the next ``request(n)``; ``n`` must be positive. Returns ``n``."""
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        msg = "Did not receive expected `request` call"
        if msg_addendum:
            msg = f"{msg}. {msg_addendum}"
        received = self.requests.next(timeout, msg)
        n = SubscriptionHelper.request_amount(received)
        if n == 0:
            return self.env.flop_and_fail(
                f"Requests cannot be zero or negative but received request({received!r})")
        self.pending_demand += n
        return n

    def expect_exact_request(self, expected: int, timeout_ms: float | None = None) -> None:
        """Wait for the next ``request(n)`` (see :meth:`expect_request`); flop unless ``n == expected``."""
        n = self.expect_request(timeout_ms)
        if n != expected:
            self.env.flop(f"Received `request({n})` on upstream but expected `request({expected})`")

    def expect_no_request(self, timeout_ms: float | None = None) -> None:
        """Wait ``timeout_ms`` (default: the timeout); flop if a ``request`` arrived meanwhile or was still unread."""
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        self.requests.expect_none(timeout, "Received an unexpected call to: request: ")

    def expect_cancelling(self, timeout_ms: float | None = None) -> None:
        """Wait up to ``timeout_ms`` for the Subscription to be cancelled; flop when it is not."""
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        self.cancelled.expect_close(timeout, "Did not receive expected cancelling of upstream subscription")

    def is_cancelled(self) -> bool:
        """Return whether the subscriber cancelled its Subscription."""
        return self.cancelled.is_closed()
