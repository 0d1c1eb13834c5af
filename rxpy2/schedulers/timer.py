"""The timer of a scheduler: one daemon thread and a heap of due times.

Every delayed task of a scheduler waits here, on one thread named ``rxpy2-timer-N``, in a
heap ordered by ``(due time, sequence)`` (``time.monotonic()`` seconds): no thread per
delayed task. A due entry's action only hands the task to its worker. The thread starts
with the first entry and ends after idling ``keep_alive`` seconds or on
:meth:`TimerQueue.shutdown`. It survives huge due times, raising actions, fatal
exceptions, interpreter finalization and ``os.fork()``.

How: docs/schedulers.md, "The timer thread".
"""

from __future__ import annotations

import heapq
import itertools
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable

from rxpy2 import plugins

__all__ = ["MAX_WAIT", "TimerEntry", "TimerQueue", "start_daemon_thread"]

_timer_ids = itertools.count(1)
_monotonic = time.monotonic

#: The longest single wait of a timer thread, in seconds. ``Condition.wait`` and
#: ``time.sleep`` raise ``OverflowError`` beyond ``threading.TIMEOUT_MAX`` (about 292
#: years on Linux); a later due time is reached by waiting again.
MAX_WAIT = min(threading.TIMEOUT_MAX, 86400.0)


def start_daemon_thread(target: Callable[[], object], name: str) -> threading.Thread | None:
    """Start a daemon thread running ``target``; ``None`` if the interpreter is finalizing.

    At interpreter exit (module teardown, a ``__del__`` that disposes a worker) a
    new thread can never run: CPython 3.11's ``Thread.start`` then blocks forever
    waiting for it to start, 3.12+ raise ``RuntimeError``. Nothing that is started
    then could do any work, so nothing is started. Any other failure to start a
    thread (``RuntimeError: can't start new thread``) is raised to the caller.
    """
    if sys.is_finalizing():
        return None
    t = threading.Thread(target=target, name=name, daemon=True)
    try:
        t.start()
    except RuntimeError:
        if sys.is_finalizing():
            return None
        raise
    return t


class TimerEntry:
    """A pending action of a :class:`TimerQueue`; ``cancel()`` drops it.

    ``action`` is ``None`` once the entry fired or was cancelled; ``dropped`` says
    the queue refused it (shut down, or the interpreter is finalizing): it will
    never fire. The two differ for a short delay, which may fire on the timer
    thread before ``schedule_at``'s caller looks at the entry.
    """

    __slots__ = ("action", "_timer", "dropped")

    def __init__(self, action: Callable[[], object], timer: TimerQueue) -> None:
        self.action: Callable[[], object] | None = action
        self._timer = timer
        self.dropped: bool = False

    def cancel(self) -> None:
        """Drop the pending action so it never fires; a no-op once it fired or was cancelled."""
        if self.action is not None:
            self.action = None
            self._timer._cancelled()


class TimerQueue:
    """A heap of ``(due, sequence, entry)`` served by one daemon thread (see the module)."""

    def __init__(self, keep_alive: float = 10.0) -> None:
        self.keep_alive = keep_alive
        self._cond = threading.Condition(threading.Lock())
        self._heap: list[tuple[float, int, TimerEntry]] = []
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._ncancelled = 0
        _queues.add(self)

    def schedule_at(self, due: float, action: Callable[[], object]) -> TimerEntry:
        """Call ``action()`` on the timer thread once ``time.monotonic() >= due``.

        After :meth:`shutdown` (until :meth:`start`) the entry is returned cancelled.
        """
        entry = TimerEntry(action, self)
        with self._cond:
            if self._stopped:
                entry.action = None
                entry.dropped = True
                return entry
            heap = self._heap
            heapq.heappush(heap, (due, next(self._seq), entry))
            if self._thread is None:
                try:
                    started = self._start_thread_locked()
                except BaseException:
                    entry.action = None  # never fires: the purge drops it from the heap
                    entry.dropped = True
                    raise
                if not started:
                    entry.action = None  # finalizing: it could never fire
                    entry.dropped = True
            elif heap[0][2] is entry:
                self._cond.notify()  # a new earliest entry: the thread waits less
        return entry

    def _start_thread_locked(self) -> bool:
        """Start the timer thread (the lock held); ``False`` if the interpreter is finalizing.

        ``_thread`` is set before the thread starts (its loop checks it is the
        current one) and cleared again if it could not start, so a failed start
        never leaves a thread that is believed to run.
        """
        if sys.is_finalizing():
            return False
        t = threading.Thread(target=self._run, name=f"rxpy2-timer-{next(_timer_ids)}",
                             daemon=True)
        self._thread = t
        try:
            t.start()
        except BaseException:
            self._thread = None
            if sys.is_finalizing():
                return False
            raise
        return True

    def _cancelled(self) -> None:
        with self._cond:
            self._ncancelled += 1
            heap = self._heap
            if self._ncancelled > 64 and self._ncancelled * 2 > len(heap):
                # purge the cancelled entries so disposed tasks don't pile up
                self._heap = [e for e in heap if e[2].action is not None]
                heapq.heapify(self._heap)
                self._ncancelled = 0

    def __len__(self) -> int:
        """The number of live (not cancelled, not yet fired) entries."""
        with self._cond:
            return sum(1 for e in self._heap if e[2].action is not None)

    def _run(self) -> None:
        ready: list[TimerEntry] = []
        try:
            self._loop(ready)
        except BaseException:
            # Only a fatal exception gets here (an action's Exception is reported in
            # _loop): put the taken entries back and let a new thread serve the heap,
            # so the timer is not dead for good; then the exception ends this thread.
            self._take_over(ready)
            raise

    def _take_over(self, ready: list[TimerEntry]) -> None:
        me = threading.current_thread()
        with self._cond:
            if self._thread is not me:
                return  # shut down, or already replaced
            self._thread = None
            now = _monotonic()
            for entry in reversed(ready):  # the earliest is last (see _loop)
                if entry.action is not None:
                    heapq.heappush(self._heap, (now, next(self._seq), entry))
            if self._heap and not self._stopped:
                try:
                    self._start_thread_locked()
                except Exception as e:  # the fatal one in flight matters more
                    plugins.on_error(e)

    def _loop(self, ready: list[TimerEntry]) -> None:
        cond = self._cond
        me = threading.current_thread()
        while True:
            ready.clear()
            with cond:
                idle_until: float | None = None
                while True:
                    if self._stopped or self._thread is not me:
                        return
                    heap = self._heap
                    while heap and heap[0][2].action is None:
                        heapq.heappop(heap)
                        if self._ncancelled > 0:
                            self._ncancelled -= 1
                    now = _monotonic()
                    if not heap:
                        if idle_until is None:
                            idle_until = now + self.keep_alive
                        elif now >= idle_until:
                            self._thread = None  # the next schedule_at starts a new one
                            return
                        cond.wait(min(idle_until - now, MAX_WAIT))
                        continue
                    idle_until = None
                    due = heap[0][0]
                    if due <= now:
                        while heap and heap[0][0] <= now:
                            entry = heapq.heappop(heap)[2]
                            if entry.action is not None:
                                ready.append(entry)
                            elif self._ncancelled > 0:
                                self._ncancelled -= 1
                        break
                    # an infinite or huge due time: wait in bounded steps (never fires)
                    cond.wait(min(due - now, MAX_WAIT))
            ready.reverse()  # popped from the end: the earliest first
            while ready:
                entry = ready.pop()
                action = entry.action
                entry.action = None
                if action is not None:
                    try:
                        action()
                    except Exception as e:  # an action only hands a task over
                        plugins.on_error(e)

    def start(self) -> None:
        """Accept entries again after :meth:`shutdown`."""
        with self._cond:
            self._stopped = False

    def shutdown(self, timeout: float | None = None) -> None:
        """Drop every entry, stop the thread and wait (up to ``timeout``) for it to end."""
        with self._cond:
            self._stopped = True
            for e in self._heap:
                e[2].action = None
            self._heap = []
            self._ncancelled = 0
            t, self._thread = self._thread, None
            self._cond.notify_all()
        if t is not None and t is not threading.current_thread():
            t.join(timeout)

    def thread(self) -> threading.Thread | None:
        """The timer thread, if one runs now."""
        return self._thread

    def _after_fork_in_child(self) -> None:
        # The child has only the forking thread: the timer thread and the lock's
        # owner (if another thread held it) are gone. The entries were scheduled by
        # the parent's workers, which are reset too: drop them.
        self._cond = threading.Condition(threading.Lock())
        for e in self._heap:
            e[2].action = None
        self._heap = []
        self._ncancelled = 0
        self._thread = None


_queues: weakref.WeakSet[TimerQueue] = weakref.WeakSet()


def _reset_after_fork() -> None:
    for q in list(_queues):
        q._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)
