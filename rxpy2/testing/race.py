"""``race(a, b)``: run two functions at the same moment on two threads, as RxJava's TestHelper.

Both threads wait at a barrier, then run; ``race`` returns when both finished
and re-raises the first error either raised. Call it in a loop of many rounds
to shake out interleavings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["RaceRunner", "race"]


class RaceRunner:
    """A reusable second thread for :func:`race`, so a thousand rounds don't start a
    thousand threads. Use as a context manager or call :meth:`close`."""

    def __init__(self) -> None:
        self._go = threading.Semaphore(0)
        self._done = threading.Semaphore(0)
        self._barrier = threading.Barrier(2)
        self._fn: Callable[[], Any] | None = None
        self._error: BaseException | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="rxpy2-test-race", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            fn = self._fn
            if fn is None:
                return
            try:
                self._barrier.wait()
                fn()
            except BaseException as e:  # reported to the caller by race()
                self._error = e
            finally:
                self._done.release()

    def race(self, a: Callable[[], Any], b: Callable[[], Any], timeout: float = 10.0) -> None:
        """Run ``a`` here and ``b`` on the runner thread, released together."""
        if self._closed:
            raise RuntimeError("RaceRunner is closed")
        self._error = None
        self._fn = b
        self._go.release()
        err: BaseException | None = None
        try:
            self._barrier.wait(timeout)
            a()
        except BaseException as e:
            err = e
        if not self._done.acquire(timeout=timeout):
            raise TimeoutError("the second function of the race did not finish")
        if err is not None:
            raise err
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._fn = None
            self._go.release()
            self._thread.join(5)

    def __enter__(self) -> RaceRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()




def race(a: Callable[[], Any], b: Callable[[], Any], timeout: float = 10.0) -> None:
    """Run ``a`` on the calling thread and ``b`` on a helper thread, started together.

    The helper thread is created per call; inside a loop of many rounds prefer
    ``with RaceRunner() as r: r.race(a, b)``.
    """
    with RaceRunner() as r:
        r.race(a, b, timeout)
