"""Parker: one thread waits for a wake-up that other threads give, safe under Ctrl-C.

A :class:`Parker` holds at most one permit, as Java's ``LockSupport.park``/``unpark``:
``unpark()`` makes the permit available (a second ``unpark`` before it is taken adds
nothing), ``park()`` waits until it is available and takes it. A waiter therefore
loops: set a flag or check its state, ``park()``, check again. A wake-up given between
the check and ``park()`` is not lost (the permit waits for it), and a stale permit only
makes one ``park()`` return early, which the loop's check absorbs.

Why not ``threading.Condition`` or ``threading.Event`` (whose ``wait`` is a Condition's):
``Condition.wait`` re-takes its lock in Python code after the wake-up. A
``KeyboardInterrupt`` delivered between the wake-up and that re-take leaves the lock
unheld, and the ``with`` block around the wait then fails with ``RuntimeError:
release unlocked lock``, which replaces the ``KeyboardInterrupt`` (CPython issue
gh-118433; it is a window of a few bytecodes, hit about once in 3000 Ctrl-C on a
consumer that is woken often). Here the permit is one ``_thread`` lock, taken and
given by C calls only: an interrupt before the take leaves the permit in place, an
interrupt after it leaves nothing to restore, and no other lock is held across the
wait. ``park()`` stays interruptible (a blocking lock acquire is, on POSIX).

Only the blocking bridges' consumers wait on a Parker; the threads that wake them call
``unpark()``, which never blocks.
"""

from __future__ import annotations

from threading import TIMEOUT_MAX
from threading import Lock

__all__ = ["Parker"]


class Parker:
    """A single permit: :meth:`park` waits for it and takes it, :meth:`unpark` gives it."""

    __slots__ = ("_permit",)

    def __init__(self) -> None:
        permit = Lock()
        permit.acquire()  # held: no permit yet
        self._permit = permit

    def unpark(self) -> None:
        """Make the permit available: wakes the parked thread, or lets the next
        :meth:`park` return at once. Never blocks; any thread may call it."""
        permit = self._permit
        if permit.locked():
            try:
                permit.release()
            except RuntimeError:  # another unpark() gave the permit in between
                pass

    def park(self, timeout: float | None = None) -> bool:
        """Wait until the permit is available and take it; ``False`` if ``timeout``
        seconds passed without it. May return without a matching ``unpark()`` (a stale
        permit): callers re-check what they wait for."""
        if timeout is None:
            return self._permit.acquire()
        return self._permit.acquire(True, min(max(timeout, 0.0), TIMEOUT_MAX))
