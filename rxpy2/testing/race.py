"""``race(a, b)``: run two functions at the same moment on two threads, as RxJava's TestHelper.

Under CPython's global interpreter lock two threads only run "at the same time"
by taking turns, and a thread keeps the lock for a whole switch interval (5 ms)
unless it blocks: two short functions started together would simply run one
after the other, and a race test would prove nothing. So :class:`RaceRunner`

* starts both sides with a handshake: each thread flags its arrival and waits,
  yielding the interpreter, until the other has arrived too; then both run;
* preempts both sides at random: while ``a`` and ``b`` run, a trace function
  gives the interpreter to the other thread (``time.sleep(0)``) before a source
  line with probability ``preempt`` (and either side may take the first turn);
  for a long side the probability drops so that a round has about ``switches``
  switches per side, still at random lines over the whole side.
  Only rxpy2's frames (less ``rxpy2.testing``) and those of code outside the
  standard library and the installed packages (the tests) are traced, so the
  interleavings happen where the logic under test is.

``race`` returns when both sides finished and re-raises an error either side
raised (``a``'s first). Call it in a loop of many rounds with fresh objects.
The trace function replaces any other one (a debugger, a coverage tracer) for the
duration of each side and restores it afterwards.
"""

from __future__ import annotations

import os
import random
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["DEFAULT_PREEMPT", "DEFAULT_SWITCHES", "RaceRunner", "race"]

#: The default probability of yielding to the other thread before a traced line.
DEFAULT_PREEMPT = 0.2
#: The default number of forced switches a side gets per round, about (see RaceRunner).
DEFAULT_SWITCHES = 12

_sleep = time.sleep
_monotonic = time.monotonic


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs.add(os.path.dirname(os.__file__))
    return tuple(os.path.join(os.path.realpath(d), "") for d in dirs if d)


_LIBRARY_DIRS = _library_dirs()
_THIS_FILE = os.path.realpath(__file__)
_TESTING_DIR = os.path.join(os.path.dirname(_THIS_FILE), "")
#: rxpy2's own code (less this recording/testing package) is traced wherever it is installed
_RXPY2_DIR = os.path.join(os.path.dirname(os.path.dirname(_THIS_FILE)), "")
_traced_cache: dict[str, bool] = {}


def _is_traced(filename: str) -> bool:
    t = _traced_cache.get(filename)
    if t is None:
        real = os.path.realpath(filename) if not filename.startswith("<") else filename
        if real.startswith(_TESTING_DIR):
            t = False
        else:
            t = real.startswith(_RXPY2_DIR) or not real.startswith(_LIBRARY_DIRS)
        _traced_cache[filename] = t
    return t


def _make_tracer(preempt: float, running: list[bool], other: int,
                 lines: list[int]) -> Callable[..., Any]:
    rnd = random.Random().random

    def local(frame: Any, event: str, arg: Any) -> Any:
        # yield only while the other side still runs: alone, a switch buys nothing
        if event == "line":
            lines[0] += 1
            if running[other] and rnd() < preempt:
                _sleep(0)  # releases the interpreter lock: the other side may run now
        return local

    def on_call(frame: Any, event: str, arg: Any) -> Any:
        if _is_traced(frame.f_code.co_filename):
            return local(frame, event, arg)
        return None

    return on_call


class RaceRunner:
    """A reusable second thread for :func:`race`, so a thousand rounds don't start a
    thousand threads. Use as a context manager or call :meth:`close`.

    ``preempt`` is the probability of a forced thread switch before each traced
    source line (see the module docstring); ``0`` turns the tracing off.
    ``switches`` bounds the cost of long sides: once a side is known to run
    ``L`` traced lines (the average of the rounds so far), its probability is
    ``min(preempt, switches / L)``, so each round still switches at random
    lines spread over the whole side, about ``switches`` times, rather than
    ``preempt * L`` times (each switch is a hand-over of the interpreter lock,
    tens of microseconds).
    """

    def __init__(self, preempt: float = DEFAULT_PREEMPT,
                 switches: int = DEFAULT_SWITCHES) -> None:
        if not 0.0 <= preempt <= 1.0:
            raise ValueError(f"preempt must be within [0, 1], not {preempt}")
        if switches < 1:
            raise ValueError(f"switches must be positive, not {switches}")
        self.preempt = preempt
        self.switches = switches
        self._lines = [0.0, 0.0]  # the running average of traced lines per side
        self._go = threading.Semaphore(0)
        self._done = threading.Semaphore(0)
        self._fn: Callable[[], Any] | None = None
        self._error: BaseException | None = None
        self._arrived = [False, False]
        self._running = [False, False]
        self._deadline = 0.0
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="rxpy2-test-race", daemon=True)
        self._thread.start()

    def _handshake(self, me: int) -> None:
        """Flag arrival, then wait (yielding) until the other side arrived too."""
        self._running[me] = True
        arrived = self._arrived
        arrived[me] = True
        other = 1 - me
        deadline = self._deadline
        while not arrived[other]:
            _sleep(0)
            if _monotonic() > deadline:
                raise TimeoutError("the other side of the race did not start")

    def _run(self, fn: Callable[[], Any], me: int) -> None:
        p = self.preempt
        if p <= 0.0:
            fn()
            return
        running = self._running
        avg = self._lines[me]
        if avg > 0.0:
            p = min(p, self.switches / avg)
        if random.random() < 0.5:  # either side may get the first turn
            _sleep(0)
        counted = [0]
        previous = sys.gettrace()
        sys.settrace(_make_tracer(p, running, 1 - me, counted))
        try:
            fn()
        finally:
            sys.settrace(previous)
            running[me] = False
            self._lines[me] = counted[0] if avg == 0.0 else 0.8 * avg + 0.2 * counted[0]

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            fn = self._fn
            if fn is None:
                return
            try:
                self._handshake(1)
                self._run(fn, 1)
            except BaseException as e:  # re-raised by race() on the caller's thread, fatal
                self._error = e           # ones too: this helper thread must stay alive
            finally:
                self._done.release()

    def race(self, a: Callable[[], Any], b: Callable[[], Any], timeout: float = 10.0) -> None:
        """Run ``a`` here and ``b`` on the runner thread, released together."""
        if self._closed:
            raise RuntimeError("RaceRunner is closed")
        self._error = None
        self._arrived = [False, False]
        self._running = [False, False]
        self._deadline = _monotonic() + timeout
        self._fn = b
        self._go.release()
        err: BaseException | None = None
        try:
            self._handshake(0)
            self._run(a, 0)
        except BaseException as e:  # a fatal one too: wait for the other side, then re-raise
            err = e
        if not self._done.acquire(timeout=timeout):
            raise TimeoutError("the second function of the race did not finish")
        if err is not None:
            raise err
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        """Stop the runner thread (waiting up to 5 s for it); idempotent. A later :meth:`race` raises ``RuntimeError``."""
        if not self._closed:
            self._closed = True
            self._fn = None
            self._go.release()
            self._thread.join(5)

    def __enter__(self) -> RaceRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def race(a: Callable[[], Any], b: Callable[[], Any], timeout: float = 10.0,
         preempt: float = DEFAULT_PREEMPT) -> None:
    """Run ``a`` on the calling thread and ``b`` on a helper thread, started together.

    The helper thread is created per call; inside a loop of many rounds prefer
    ``with RaceRunner() as r: r.race(a, b)``.
    """
    with RaceRunner(preempt) as r:
        r.race(a, b, timeout)
