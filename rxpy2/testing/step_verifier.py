"""``StepVerifier``: a scripted verifier for a Publisher, as Reactor's (pythonic names).

Build a script of expectations and actions, then run it with :meth:`StepVerifier.verify`::

    StepVerifier.create(Flowable.range(1, 5), initial_request=2) \\
        .expect_next(1, 2) \\
        .then_request(3) \\
        .expect_next_count(3) \\
        .verify_complete()

A rule-checking :class:`~rxpy2.testing.TestSubscriber` runs the script, so a rule broken
by the source fails it too. :meth:`StepVerifier.with_virtual_time` runs it on a
:class:`~rxpy2.schedulers.test_scheduler.TestScheduler`. A failure names the step and what
was seen instead. More: docs/operator-authoring.md, "StepVerifier".
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any
from typing import Generic

from rxpy2 import plugins
from rxpy2._internal.arguments import require_non_negative
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.test_scheduler import TestScheduler
from rxpy2.testing.test_subscriber import TestSubscriber

__all__ = ["DEFAULT_VERIFY_TIMEOUT", "StepVerifier"]


#: The default time limit of :meth:`StepVerifier.verify`, seconds of real time.
DEFAULT_VERIFY_TIMEOUT = 10.0

_SCHEDULER_KINDS = ("computation", "io", "single", "new_thread")

_NEXT, _ERROR, _COMPLETE = "on_next", "on_error", "on_complete"


def _show(event: tuple[str, Any] | None) -> str:
    if event is None:
        return "no event"
    kind, value = event
    return f"{kind}()" if kind == _COMPLETE else f"{kind}({value!r})"


class _Recorder(TestSubscriber[T]):
    """The rule-checking TestSubscriber plus an ordered log of the signals."""

    def __init__(self, initial_request: int) -> None:
        super().__init__(initial_request)
        self.events: list[tuple[str, Any]] = []
        self.changed = threading.Condition()

    def _log(self, kind: str, value: Any) -> None:
        with self.changed:
            self.events.append((kind, value))
            self.changed.notify_all()

    def on_subscribe(self, s: Subscription) -> None:
        try:
            super().on_subscribe(s)
        finally:
            with self.changed:
                self.changed.notify_all()

    def on_next(self, item: T) -> None:
        try:
            super().on_next(item)
        finally:
            self._log(_NEXT, item)

    def on_error(self, error: BaseException) -> None:
        try:
            super().on_error(error)
        finally:
            self._log(_ERROR, error)

    def on_complete(self) -> None:
        try:
            super().on_complete()
        finally:
            self._log(_COMPLETE, None)


class _StepFailure(AssertionError):
    pass


class _Run(Generic[T]):
    """One execution of a script."""

    def __init__(self, recorder: _Recorder[T], deadline: float | None,
                 scheduler: TestScheduler | None) -> None:
        self.ts = recorder
        self.deadline = deadline
        self.scheduler = scheduler
        self.cursor = 0
        self.step = ""

    def fail(self, message: str) -> _StepFailure:
        events = self.ts.events
        seen = ", ".join(_show(e) for e in events[:20]) + (", ..." if len(events) > 20 else "")
        violations = self.ts.protocol_violations()
        extra = f"; rule violations: {'; '.join(violations)}" \
            if violations and not message.startswith("Reactive Streams") else ""
        return _StepFailure(f"StepVerifier failed at {self.step}: {message} "
                            f"(signals so far: [{seen}]{extra})")

    def check_rules(self) -> None:
        violations = self.ts.protocol_violations()
        if violations:
            raise self.fail("Reactive Streams rule violated: " + "; ".join(violations))

    def _wait(self, ready: Callable[[], bool], what: str) -> None:
        ts = self.ts
        with ts.changed:
            while not ready():
                if self.deadline is None:
                    ts.changed.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left <= 0:
                    raise self.fail(f"timed out waiting for {what}")
                ts.changed.wait(left)

    def await_subscription(self) -> None:
        self._wait(lambda: self.ts.has_subscription() or bool(self.ts.events), "on_subscribe")
        if not self.ts.has_subscription():
            raise self.fail(f"expected on_subscribe but got {_show(self.ts.events[0])}")

    def peek(self, what: str) -> tuple[str, Any]:
        self.await_subscription()
        self._wait(lambda: len(self.ts.events) > self.cursor, what)
        self.check_rules()
        return self.ts.events[self.cursor]

    def take(self, what: str) -> tuple[str, Any]:
        event = self.peek(what)
        self.cursor += 1
        return event

    def take_item(self, what: str) -> Any:
        kind, value = self.take(what)
        if kind != _NEXT:
            raise self.fail(f"expected {what} but got {_show((kind, value))}")
        return value

    def pass_time(self, duration: float | None) -> None:
        if self.scheduler is not None:
            if duration is None:
                self.scheduler.trigger_actions()
            else:
                self.scheduler.advance_time_by(duration)
        elif duration:
            time.sleep(duration)


_Step = tuple[str, Callable[["_Run[Any]"], None], bool]  # (call, action, ends the script)


def _describe(name: str, *args: Any) -> str:
    def one(a: Any) -> str:
        if callable(a) and not isinstance(a, type):
            return getattr(a, "__name__", repr(a))
        if isinstance(a, type):
            return a.__name__
        return repr(a)
    return f"{name}({', '.join(one(a) for a in args)})"


def _error_check(expected: Any) -> tuple[str, Callable[[BaseException], bool]]:
    if expected is None:
        return "any error", lambda e: True
    if isinstance(expected, type) and issubclass(expected, BaseException):
        return f"an error of type {expected.__name__}", lambda e: isinstance(e, expected)
    if isinstance(expected, BaseException):
        return f"the error {expected!r}", lambda e: e is expected
    raise TypeError(f"expect_error takes an exception type or instance, not {expected!r} "
                    f"(use expect_error_matches for a predicate)")


class StepVerifier(Generic[T]):
    """A script of expectations about one subscription to a Publisher (see the module)."""

    __test__ = False  # not a pytest test class

    def __init__(self, supplier: Callable[..., Publisher[T]], initial_request: int,
                 virtual_time: bool, scheduler: TestScheduler | None = None) -> None:
        require_non_negative(initial_request, "initial_request")
        self._supplier = supplier
        self._initial_request = initial_request
        self._virtual_time = virtual_time
        self._scheduler = scheduler
        self._steps: list[_Step] = []
        #: The TestSubscriber of the last :meth:`verify` (for more assertions afterwards).
        self.subscriber: TestSubscriber[T] | None = None

    # ------------------------------------------------------------------ factories

    @staticmethod
    def create(publisher: Publisher[ItemT], initial_request: int = LONG_MAX) -> StepVerifier[ItemT]:
        """A script for ``publisher``, subscribed at :meth:`verify` with this initial request
        (``0``: nothing until :meth:`then_request`)."""
        if publisher is None:
            raise TypeError("publisher is None")
        return StepVerifier(lambda: publisher, initial_request, False)

    @staticmethod
    def with_virtual_time(supplier: Callable[..., Publisher[ItemT]],
                          initial_request: int = LONG_MAX,
                          scheduler: TestScheduler | None = None) -> StepVerifier[ItemT]:
        """A script on virtual time: ``supplier()`` or ``supplier(test_scheduler)`` makes
        the publisher at :meth:`verify` time, while the standard schedulers are the
        :class:`TestScheduler` (a new one unless ``scheduler`` is given)."""
        if not callable(supplier):
            raise TypeError("supplier must be callable")
        return StepVerifier(supplier, initial_request, True, scheduler)

    # ------------------------------------------------------------------ steps

    def _add(self, call: str, action: Callable[[_Run[Any]], None],
             ends: bool = False) -> StepVerifier[T]:
        if self._steps and self._steps[-1][2]:
            raise ValueError(f"{call} after {self._steps[-1][0]}: the script already ended")
        self._steps.append((call, action, ends))
        return self

    def expect_subscription(self) -> StepVerifier[T]:
        """``on_subscribe`` arrived (every other expectation waits for it too)."""
        return self._add("expect_subscription()", lambda run: run.await_subscription())

    def expect_next(self, *items: T) -> StepVerifier[T]:
        """The next items are equal to these, in order."""
        def action(run: _Run[Any]) -> None:
            for i, expected in enumerate(items):
                what = f"on_next({expected!r})" + (f" (item {i + 1} of {len(items)})"
                                                    if len(items) > 1 else "")
                value = run.take_item(what)
                if value != expected:
                    raise run.fail(f"expected {what} but got on_next({value!r})")
        return self._add(_describe("expect_next", *items), action)

    def expect_next_sequence(self, items: Iterable[T]) -> StepVerifier[T]:
        """The next items are those of ``items``, in order."""
        return self.expect_next(*items)

    def expect_next_count(self, n: int) -> StepVerifier[T]:
        """``n`` more items, whatever they are."""
        if n < 0:
            raise ValueError(f"n >= 0 required but it was {n}")

        def action(run: _Run[Any]) -> None:
            for i in range(n):
                run.take_item(f"on_next (item {i + 1} of {n})")
        return self._add(f"expect_next_count({n})", action)

    def expect_next_matches(self, predicate: Callable[[Any], bool]) -> StepVerifier[T]:
        """One item satisfying ``predicate``."""
        def action(run: _Run[Any]) -> None:
            value = run.take_item("an on_next matching the predicate")
            if not predicate(value):
                raise run.fail(f"on_next({value!r}) does not match the predicate")
        return self._add(_describe("expect_next_matches", predicate), action)

    def consume_next_with(self, consumer: Callable[[Any], Any]) -> StepVerifier[T]:
        """One item, handed to ``consumer`` (which asserts on it; its AssertionError fails
        the step)."""
        def action(run: _Run[Any]) -> None:
            value = run.take_item("an on_next")
            try:
                consumer(value)
            except AssertionError as e:
                raise run.fail(f"on_next({value!r}) rejected: {e}") from e
        return self._add(_describe("consume_next_with", consumer), action)

    def then_consume_while(self, predicate: Callable[[Any], bool]) -> StepVerifier[T]:
        """Skip the items as long as they satisfy ``predicate`` (waits for the first one
        that does not, or for the terminal event)."""
        def action(run: _Run[Any]) -> None:
            while True:
                kind, value = run.peek("an event")
                if kind != _NEXT or not predicate(value):
                    return
                run.cursor += 1
        return self._add(_describe("then_consume_while", predicate), action)

    def then_request(self, n: int) -> StepVerifier[T]:
        """Request ``n`` more items."""
        def action(run: _Run[Any]) -> None:
            run.await_subscription()
            run.ts.request(n)
        return self._add(f"then_request({n})", action)

    def then(self, task: Callable[[], Any]) -> StepVerifier[T]:
        """Run ``task()`` (drive a TestPublisher, a processor, ...)."""
        return self._add(_describe("then", task), lambda run: task())

    def then_await(self, duration: float | None = None) -> StepVerifier[T]:
        """Let ``duration`` seconds pass: advance virtual time, or sleep. Without a duration,
        virtual time runs the tasks already due."""
        return self._add(_describe("then_await", *(() if duration is None else (duration,))),
                         lambda run: run.pass_time(duration))

    def expect_no_event(self, duration: float) -> StepVerifier[T]:
        """Nothing is signalled while ``duration`` seconds pass (virtual or real)."""
        def action(run: _Run[Any]) -> None:
            run.await_subscription()
            run.pass_time(duration)
            run.check_rules()
            events = run.ts.events
            if len(events) > run.cursor:
                raise run.fail(f"expected no event for {duration} s but got "
                               f"{_show(events[run.cursor])}")
        return self._add(f"expect_no_event({duration})", action)

    def then_cancel(self) -> StepVerifier[T]:
        """Cancel the subscription; ends the script (items in flight are allowed, §2.8)."""
        def action(run: _Run[Any]) -> None:
            run.await_subscription()
            run.ts.cancel()
        return self._add("then_cancel()", action, ends=True)

    def expect_complete(self) -> StepVerifier[T]:
        """The next signal is ``on_complete``; ends the script."""
        def action(run: _Run[Any]) -> None:
            event = run.take("on_complete()")
            if event[0] != _COMPLETE:
                raise run.fail(f"expected on_complete() but got {_show(event)}")
        return self._add("expect_complete()", action, ends=True)

    def expect_error(self, expected: type[BaseException] | BaseException | None = None
                     ) -> StepVerifier[T]:
        """The next signal is ``on_error`` with an error of this type, this very error, or
        any error (``None``); ends the script."""
        what, check = _error_check(expected)

        def action(run: _Run[Any]) -> None:
            event = run.take(f"on_error with {what}")
            if event[0] != _ERROR or not check(event[1]):
                raise run.fail(f"expected on_error with {what} but got {_show(event)}")
        return self._add(_describe("expect_error", *(() if expected is None else (expected,))),
                         action, ends=True)

    def expect_error_matches(self, predicate: Callable[[BaseException], bool]) -> StepVerifier[T]:
        """The next signal is ``on_error`` with an error satisfying ``predicate``; ends the
        script."""
        def action(run: _Run[Any]) -> None:
            event = run.take("on_error matching the predicate")
            if event[0] != _ERROR:
                raise run.fail(f"expected on_error matching the predicate but got {_show(event)}")
            if not predicate(event[1]):
                raise run.fail(f"{_show(event)} does not match the predicate")
        return self._add(_describe("expect_error_matches", predicate), action, ends=True)

    def expect_error_message(self, message: str) -> StepVerifier[T]:
        """The next signal is ``on_error`` with an error whose ``str()`` is ``message``."""
        def action(run: _Run[Any]) -> None:
            event = run.take(f"on_error with message {message!r}")
            if event[0] != _ERROR or str(event[1]) != message:
                raise run.fail(f"expected on_error with message {message!r} but got "
                               f"{_show(event)}")
        return self._add(_describe("expect_error_message", message), action, ends=True)

    # ------------------------------------------------------------------ running

    def verify(self, timeout: float | None = DEFAULT_VERIFY_TIMEOUT) -> float:
        """Subscribe, run the script, and return the real time it took (seconds).

        ``timeout`` bounds the whole script (``None``: no limit). The script must end
        with a terminal expectation or :meth:`then_cancel`. Rule violations seen by the
        TestSubscriber at any point fail the verification."""
        if not self._steps or not self._steps[-1][2]:
            raise ValueError("the script must end with expect_complete(), expect_error...() "
                             "or then_cancel()")
        start = time.monotonic()
        deadline = None if timeout is None else start + timeout
        scheduler = None
        restore: dict[str, Any] | None = None
        if self._virtual_time:
            scheduler = self._scheduler if self._scheduler is not None else TestScheduler()
            restore = _install(scheduler)
        recorder: _Recorder[T] = _Recorder(self._initial_request)
        self.subscriber = recorder
        run = _Run(recorder, deadline, scheduler)
        try:
            run.step = "subscribe"
            publisher = _call_supplier(self._supplier, scheduler) if self._virtual_time \
                else self._supplier()
            if publisher is None:
                raise run.fail("the supplier returned None")
            publisher.subscribe(recorder)
            for number, (call, action, _ends) in enumerate(self._steps, 1):
                run.step = f"step {number} {call}"
                action(run)
            run.step = f"the end (after step {len(self._steps)} {self._steps[-1][0]})"
            run.check_rules()
        finally:
            if not recorder.is_terminated():
                recorder.cancel()
            if restore is not None:
                _uninstall(restore)
        return time.monotonic() - start

    def verify_complete(self, timeout: float | None = DEFAULT_VERIFY_TIMEOUT) -> float:
        """``expect_complete().verify(timeout)``."""
        return self.expect_complete().verify(timeout)

    def verify_error(self, expected: type[BaseException] | BaseException | None = None,
                     timeout: float | None = DEFAULT_VERIFY_TIMEOUT) -> float:
        """``expect_error(expected).verify(timeout)``."""
        return self.expect_error(expected).verify(timeout)

    def verify_error_matches(self, predicate: Callable[[BaseException], bool],
                             timeout: float | None = DEFAULT_VERIFY_TIMEOUT) -> float:
        """``expect_error_matches(predicate).verify(timeout)``."""
        return self.expect_error_matches(predicate).verify(timeout)

    def verify_error_message(self, message: str,
                             timeout: float | None = DEFAULT_VERIFY_TIMEOUT) -> float:
        """``expect_error_message(message).verify(timeout)``."""
        return self.expect_error_message(message).verify(timeout)


def _takes_argument(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    for p in params:
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            return True
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY,
                      inspect.Parameter.POSITIONAL_OR_KEYWORD) and p.default is p.empty:
            return True
    return False


def _call_supplier(supplier: Callable[..., Publisher[T]],
                   scheduler: TestScheduler | None) -> Publisher[T]:
    return supplier(scheduler) if _takes_argument(supplier) else supplier()


def _install(scheduler: TestScheduler) -> dict[str, Any] | None:
    """Make the standard schedulers ``scheduler``; returns what to restore (``None`` when
    the plugins are locked down: then only the supplier's argument is virtual)."""
    if plugins.is_locked_down():
        return None
    previous = {kind: plugins._scheduler_handlers.get(kind) for kind in _SCHEDULER_KINDS}
    for kind in _SCHEDULER_KINDS:
        plugins._set_scheduler_handler(kind, lambda _standard: scheduler)
    return previous


def _uninstall(previous: dict[str, Any]) -> None:
    if plugins.is_locked_down():
        return
    for kind, handler in previous.items():
        plugins._set_scheduler_handler(kind, handler)
