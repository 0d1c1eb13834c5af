"""The timer of a scheduler: one daemon thread and a heap of due times.

Every delayed task of a scheduler waits here, on one thread named
``rxpy2-timer-N``, in a heap ordered by ``(due time, sequence)``: no thread per
delayed task. When an entry is due the timer thread calls its action, which
only hands the task over to its worker (it never runs user code itself).
The thread starts with the first entry, ends after idling ``keep_alive``
seconds with nothing to wait for, and on :meth:`TimerQueue.shutdown`.
Due times are ``time.monotonic()`` seconds.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable

from rxpy2 import plugins

__all__ = ["TimerEntry", "TimerQueue"]

_timer_ids = itertools.count(1)
_monotonic = time.monotonic


class TimerEntry:
    """A pending action of a :class:`TimerQueue`; ``cancel()`` drops it."""

    __slots__ = ("action", "_timer")

    def __init__(self, action: Callable[[], object], timer: TimerQueue) -> None:
        self.action: Callable[[], object] | None = action
        self._timer = timer

    def cancel(self) -> None:
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

    def schedule_at(self, due: float, action: Callable[[], object]) -> TimerEntry:
        """Call ``action()`` on the timer thread once ``time.monotonic() >= due``.

        After :meth:`shutdown` (until :meth:`start`) the entry is returned cancelled.
        """
        entry = TimerEntry(action, self)
        with self._cond:
            if self._stopped:
                entry.action = None
                return entry
            heap = self._heap
            heapq.heappush(heap, (due, next(self._seq), entry))
            if self._thread is None:
                t = threading.Thread(target=self._run, name=f"rxpy2-timer-{next(_timer_ids)}",
                                     daemon=True)
                self._thread = t
                t.start()
            elif heap[0][2] is entry:
                self._cond.notify()  # a new earliest entry: the thread waits less
        return entry

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
        cond = self._cond
        me = threading.current_thread()
        while True:
            ready: list[TimerEntry] = []
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
                        cond.wait(idle_until - now)
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
                    cond.wait(due - now)
            for entry in ready:
                action = entry.action
                entry.action = None
                if action is not None:
                    try:
                        action()
                    except BaseException as e:  # an action only hands a task over
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
