"""The drain primitive: one thread at a time runs a drain loop, and no signal is missed.

Every rxpy2 operator that serializes emissions or drains a queue does it with a
:class:`Drain` (RxJava 2's ``wip`` counter with the "missed" pattern, in one object):
``enter()`` True means you own the drain (False: you were counted, the owner makes
another pass); ``leave()`` True means run again; ``try_enter()`` takes a free drain
without being counted; ``missed`` True means a pass is already due. An owner that
never leaves keeps the drain for good (§3.6, §3.7). Never signal downstream while
holding a lock.

Two backends, chosen once at import (``gil`` under a GIL, ``lock`` when free-threaded;
``RXPY2_DRAIN`` forces one, :data:`DRAIN_BACKEND` tells which). The full contract:
docs/architecture.md, "The Drain contract"; the backends: "Concurrency: one primitive".
"""

from __future__ import annotations

import os
import sys
from threading import Lock
from typing import TYPE_CHECKING

__all__ = ["DRAIN_BACKEND", "Drain", "GilDrain", "LockDrain"]


def _gil_enabled() -> bool:
    probe = getattr(sys, "_is_gil_enabled", None)
    return True if probe is None else bool(probe())


class GilDrain:
    """The ``gil`` backend of :class:`Drain` (see the module docstring)."""

    __slots__ = ("_token", "missed", "_stamp")

    def __init__(self) -> None:
        self._token: list[object] = [0]
        #: True while a pass is due that starts after this read (a hint for producers:
        #: their state change is covered, ``enter()`` may be skipped). Read-only outside.
        self.missed: bool = False
        self._stamp = 0  # the number of releases: each release's token is unique

    def enter(self) -> bool:
        """Try to own the drain; False: counted, the owner will make another pass."""
        token = self._token
        if token:
            try:
                token.pop()
                return True  # ``missed`` untouched: a signal still pending stays pending
            except IndexError:  # another thread popped it between the check and the pop
                pass
        self.missed = True  # read by the owner's leave() after it gives the token back
        if token:  # the owner gave it back meanwhile and may have read the flag before
            try:
                token.pop()
                return True
            except IndexError:
                pass
        return False

    def try_enter(self) -> bool:
        """Own the drain if it is free; False (not counted) if somebody owns it.

        A signal that comes while the caller emits its one item is seen by
        :meth:`leave`. A free drain with a signal still pending (an owner is
        giving it back and will take it again for that signal) counts as taken:
        the caller's item must not overtake the items of that signal."""
        token = self._token
        if token and not self.missed:
            try:
                token.pop()
            except IndexError:
                return False
            return True
        return False

    def leave(self) -> bool:
        """End a pass. True: signalled meanwhile, the caller owns it again and must re-run."""
        if self.missed:  # signalled during the pass: keep the drain (never released)
            self.missed = False  # the pass this True starts reads the state after it
            return True
        token = self._token
        mine = self._stamp + 1  # this release's token (only the owner writes the stamp):
        self._stamp = mine      # only this very token may be taken back below
        token.append(mine)
        if self.missed:
            # signalled between the check and the release. Take back *this* token only:
            # if another thread took it meanwhile, that owner's pass starts after the
            # signal; taking back a token it released again would start a pass with the
            # caller's locals from before that owner's pass (items emitted twice)
            try:
                token.remove(mine)
            except ValueError:
                return False
            self.missed = False
            return True
        return False

    def is_free(self) -> bool:
        """Nobody owns the drain (a hint: another thread may enter right after)."""
        return bool(self._token)

    def __repr__(self) -> str:
        return f"Drain(gil, {'free' if self._token else 'owned'})"


class LockDrain:
    """The ``lock`` backend of :class:`Drain`: counters changed under a lock."""

    __slots__ = ("_lock", "_wip", "_seen")

    #: Always False here: without a GIL a read outside the lock orders nothing, so
    #: every signal goes through :meth:`enter` (see :attr:`GilDrain.missed`).
    missed = False

    def __init__(self) -> None:
        self._lock = Lock()
        self._wip = 0   # signals so far, not yet consumed by the owner
        self._seen = 0  # of those, the ones the owner's current pass covers

    def enter(self) -> bool:
        """Try to own the drain; False: the owner will make another pass."""
        with self._lock:
            w = self._wip
            self._wip = w + 1
            if w == 0:
                self._seen = 1
                return True
            return False

    def try_enter(self) -> bool:
        """Own the drain if it is free; False (not counted) if somebody owns it."""
        with self._lock:
            if self._wip == 0:
                self._wip = 1
                self._seen = 1
                return True
            return False

    def leave(self) -> bool:
        """End a pass. True: signalled meanwhile, the caller owns it again and must re-run."""
        with self._lock:
            w = self._wip - self._seen
            self._wip = w
            self._seen = w
            return w != 0

    def is_free(self) -> bool:
        """Nobody owns the drain (a hint: another thread may enter right after)."""
        return self._wip == 0

    def __repr__(self) -> str:
        return f"Drain(lock, {'free' if self._wip == 0 else 'owned'})"


def _choose() -> str:
    forced = os.environ.get("RXPY2_DRAIN", "").strip().lower()
    if forced in ("gil", "lock"):
        return forced
    if forced:
        raise ImportError(f"RXPY2_DRAIN must be 'gil' or 'lock', not {forced!r}")
    return "gil" if _gil_enabled() else "lock"


#: The backend in force: ``"gil"`` or ``"lock"``.
DRAIN_BACKEND: str = _choose()

if TYPE_CHECKING:
    Drain = GilDrain  # both backends have the same methods
else:
    #: The drain primitive: :class:`GilDrain` or :class:`LockDrain` per :data:`DRAIN_BACKEND`.
    Drain = GilDrain if DRAIN_BACKEND == "gil" else LockDrain
