"""A Ctrl-C at any point of a blocking bridge's wait surfaces as ``KeyboardInterrupt``.

CPython's ``threading.Condition.wait`` (and so ``Event.wait``) re-takes its lock in
Python code after the wake-up; a ``KeyboardInterrupt`` delivered in between leaves the
lock unheld, and the ``with`` block around the wait then raises ``RuntimeError: release
unlocked lock`` in its place (gh-118433). A real Ctrl-C hits that window about once in
3000 tries, which is how the SIGINT lifecycle test once failed in CI. The bridges now
wait on a ``Parker`` (``rxpy2/_internal/helpers/parker.py``).

These tests hit every window instead of waiting for luck: a trace function on the main
thread raises ``KeyboardInterrupt`` at the k-th place where CPython 3.11-3.13 can raise
a pending signal (a function's entry, the instruction after a call, a backward jump) in
the bridge's own code and in its wait (the bridge modules, the Parker, ``threading``),
for k = 1, 2, … until a run ends before the k-th place. The producer emits from another
thread only once the main thread is blocked in its wait, so every run goes through the
wait and the wake-up. Each run must end in one of two ways: the items and the normal
end (k beyond the last event), or exactly ``KeyboardInterrupt`` with the upstream
cancelled or already terminated.

Not injected: events under a ``__del__`` (CPython reports and drops an exception raised
there, whatever the library does) and the rest of rxpy2. The lock-backend atomics take
their lock with ``acquire()`` before ``try``; an interrupt right after that call would
leave the lock held (``with`` would close that window at 1.2-2x the cost per operation).
"""

from __future__ import annotations

import dis
import gc
import itertools
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from types import FrameType
from typing import Any

import pytest

import rxpy2._internal.helpers.parker
import rxpy2._internal.observers.blocking
import rxpy2._internal.operators.flowable.flowable_blocking
from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2 import Single

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

#: Innermost Python frames that mean "the main thread is blocked in the bridge's wait".
WAIT_FRAMES = {"park", "wait"}
#: The code an interrupt is injected into: the bridges and what they wait with.
WATCHED = {p for m in (rxpy2._internal.helpers.parker, rxpy2._internal.observers.blocking,
                      rxpy2._internal.operators.flowable.flowable_blocking, threading)
           for p in (str(m.__file__), str(Path(str(m.__file__)).resolve()))}
#: A run longer than this many events is a runaway: the test fails rather than loop on.
MAX_EVENTS = 3000


class Source:
    """``Flowable.create`` whose items 1, 2 and completion come from a helper thread,
    started before the run (so the run's own events are the bridge's), which sends them
    once the main thread is blocked in a wait."""

    def __init__(self) -> None:
        self.completed = False
        self.saw_wait = False
        self.stop = False
        self.emitter: Any = None
        self.where = ""
        self.at_next_entry = False
        self.cancelled_in_bridge = False
        self.thread = threading.Thread(target=self._emit_when_waiting,
                                       name="interrupt-points-producer", daemon=True)
        self.thread.start()

    def flowable(self) -> Flowable[int]:
        def subscribe(emitter: Any) -> None:
            self.emitter = emitter

        return Flowable.create(subscribe, BackpressureStrategy.BUFFER)

    def _emit_when_waiting(self) -> None:
        main = threading.main_thread().ident
        while True:
            if self.stop:
                return
            frame = sys._current_frames().get(main)
            if (self.emitter is not None and frame is not None
                    and frame.f_code.co_name in WAIT_FRAMES):
                break
            time.sleep(0.0002)
        self.saw_wait = True
        emitter = self.emitter
        for i in (1, 2):
            if emitter.is_cancelled():
                return
            emitter.on_next(i)
        self.completed = True
        emitter.on_complete()

    def join(self) -> None:
        self.stop = True
        self.thread.join(5.0)
        assert not self.thread.is_alive()


def _collect_subscribe(f: Flowable[int]) -> list[int]:
    out: list[int] = []
    f.blocking_subscribe(out.append)
    return out


def _collect_iter(f: Flowable[int]) -> list[int]:
    return [x for x in f]


def _collect_latest(f: Flowable[int]) -> list[int]:
    return [x for x in f.blocking_latest()]


def _collect_next(f: Flowable[int]) -> list[int]:
    return [x for x in f.blocking_next()]


def _first(f: Flowable[int]) -> list[int]:
    return [f.blocking_first()]


def _last(f: Flowable[int]) -> list[int]:
    return [f.blocking_last()]


def _single_get(f: Flowable[int]) -> list[int]:
    s: Single[int] = f.last_or_error()
    return [s.blocking_get()]


#: bridge -> (run it, what a run without interrupt returns)
BRIDGES: dict[str, tuple[Callable[[Flowable[int]], list[int]], tuple[list[int], ...]]] = {
    "blocking_subscribe": (_collect_subscribe, ([1, 2],)),
    "for_in_flowable": (_collect_iter, ([1, 2],)),
    # latest may skip 1 when 2 arrives first; next sees the items emitted while it waits
    "blocking_latest": (_collect_latest, ([1, 2], [2])),
    "blocking_next": (_collect_next, ([1, 2], [1], [2], [])),
    "blocking_first": (_first, ([1],)),
    "blocking_last": (_last, ([2],)),
    "single_blocking_get": (_single_get, ([2],)),
}


_CALLS = {"CALL", "CALL_FUNCTION_EX", "CALL_KW"}
_POINTS: dict[CodeType, frozenset[int]] = {}


def _signal_points(code: CodeType) -> frozenset[int]:
    """Where CPython 3.11-3.13 may raise a pending ``KeyboardInterrupt`` in ``code``: the
    instruction after a call (the interpreter checks for signals as a call returns) and a
    backward jump (each loop turn). The third place, a function's entry, is the trace's
    ``call`` event. Elsewhere a signal waits for the next of these places."""
    points = _POINTS.get(code)
    if points is None:
        ins = list(dis.get_instructions(code))
        after_call = {b.offset for a, b in itertools.pairwise(ins) if a.opname in _CALLS}
        jumps = {i.offset for i in ins if i.opname.startswith("JUMP_BACKWARD")}
        points = _POINTS[code] = frozenset(after_call | jumps)
    return points


def _run_interrupted_at(k: int, run: Callable[[Flowable[int]], list[int]],
                        ) -> tuple[bool, BaseException | list[int], Source]:
    """Run the bridge with a ``KeyboardInterrupt`` raised at the k-th traced event."""
    src = Source()
    f = src.flowable()
    watched = WATCHED
    count = 0
    injected = False

    def inject(frame: FrameType, what: str) -> None:
        nonlocal count, injected
        count += 1
        if count == k:
            injected = True
            src.at_next_entry = what == "function entry" and frame.f_code.co_name == "__next__"
            src.where = (f"event {k}: {what} in {frame.f_code.co_name} "
                         f"({frame.f_code.co_filename}:{frame.f_lineno}), called from\n"
                         + "".join(traceback.format_stack(frame.f_back)[-6:]))
            raise KeyboardInterrupt(f"injected at {src.where}")

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if injected:
            return None
        if event == "opcode" and frame.f_lasti in _signal_points(frame.f_code):
            inject(frame, f"opcode {dis.opname[frame.f_code.co_code[frame.f_lasti]]}")
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if injected or frame.f_code.co_filename not in watched:
            return None  # not counted (what it calls gets its own call event)
        f: FrameType | None = frame
        while f is not None:
            if f.f_code.co_name == "__del__":
                return None
            f = f.f_back
        inject(frame, "function entry")  # event == "call"
        frame.f_trace_lines = False
        frame.f_trace_opcodes = True
        return local

    outcome: BaseException | list[int]
    sys.settrace(tracer)
    try:
        outcome = run(f)
    except BaseException as e:  # noqa: BLE001 - the outcome under test
        outcome = e
    finally:
        sys.settrace(None)
    emitter = src.emitter
    src.cancelled_in_bridge = emitter is not None and emitter.is_cancelled()
    if isinstance(outcome, BaseException):
        # the traceback holds the bridge's frames (an iterator among them): drop it, as
        # the end of an ``except`` block does, so ``__del__`` may run
        outcome.__traceback__ = None
        outcome.__context__ = None
        gc.collect()
    src.join()
    return injected, outcome, src


@pytest.mark.parametrize("bridge", list(BRIDGES))
def test_an_interrupt_at_any_point_is_a_keyboard_interrupt(bridge: str) -> None:
    run, normal = BRIDGES[bridge]
    plain = Source()
    assert run(plain.flowable()) in normal  # untraced, the bridge works
    plain.join()
    assert plain.saw_wait
    # one traced run without an interrupt first: CPython 3.12+ gives no opcode events
    # in the first traced run of a code object, so the runs below see the same events
    injected, outcome, _ = _run_interrupted_at(0, run)
    assert not injected and outcome in normal
    waited = False
    for k in range(1, MAX_EVENTS):
        injected, outcome, src = _run_interrupted_at(k, run)
        if not injected:
            assert outcome in normal, (k, outcome)
            assert k > 5, f"{bridge}: only {k - 1} traced events: the trace saw nothing"
            assert waited, f"{bridge}: no run went through the wait"
            return
        waited = waited or src.saw_wait
        assert type(outcome) is KeyboardInterrupt, (
            f"{bridge}: the interrupt at {src.where} became {outcome!r} "
            f"(context {getattr(outcome, '__context__', None)!r})")
        emitter = src.emitter
        if emitter is None:  # interrupted before the subscription: nothing to cancel
            continue
        # an interrupt as ``__next__`` starts is one in the consumer's loop: the iterator's
        # owner has it, and dropping it (the traceback) cancels; anywhere else the bridge
        # itself cancels before the interrupt leaves it
        cancelled = (emitter.is_cancelled() if src.at_next_entry
                     else src.cancelled_in_bridge)
        assert cancelled or src.completed, (
            f"{bridge}: interrupted at {src.where} and the upstream neither cancelled"
            f"{'' if src.at_next_entry else ' by the bridge'} nor terminated")
    pytest.fail(f"{bridge}: still running after {MAX_EVENTS} events")
