"""Atomic variables with Java's ``java.util.concurrent.atomic`` API.

Two backends implement the same API: ``lock`` (a plain attribute, writes and
read-modify-writes under a ``threading.Lock``; the default, being the faster one through
Python) and ``hardware`` (the ``atomics`` package's lock-free instructions for the
integer types, imported only when used; ``AtomicReference`` is lock-guarded in both).
Chosen once at import by ``RXPY2_ATOMICS``; :data:`BACKEND` tells which one is in force.

Why two, and how they differ: docs/architecture.md, "Atomics" and "``atomic.py``: the
backends in detail".
"""

from __future__ import annotations

import os
from threading import Lock
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar

__all__ = [
    "BACKEND",
    "AtomicBoolean",
    "AtomicInteger",
    "AtomicLong",
    "AtomicReference",
    "LockAtomicBoolean",
    "LockAtomicLong",
    "HardwareAtomicBoolean",
    "HardwareAtomicLong",
]

V = TypeVar("V")

_LONG_MIN = -(2**63)
_LONG_MAX = 2**63 - 1


class LockAtomicLong:
    """An integer cell; every write or read-modify-write holds a lock.

    The lock cells take their lock with ``with``: Ctrl-C (a signal handler's exception) can
    be raised at any call's return, so between an ``acquire()`` and the ``try`` that
    releases it; ``with`` leaves no such gap (docs/architecture.md, "Atomics")."""

    __slots__ = ("_value", "_lock")

    def __init__(self, value: int = 0) -> None:
        self._value = value
        self._lock = Lock()

    def get(self) -> int:
        """Return the current value (a plain read, no lock: Java's volatile ``get``)."""
        return self._value

    def set(self, value: int) -> None:
        """Store ``value`` under the lock; ``lazy_set`` is the same method (Java's ordered
        write)."""
        with self._lock:
            self._value = value

    lazy_set = set

    def compare_and_set(self, expect: int, update: int) -> bool:
        """Store ``update`` if the value equals ``expect``; return whether it did."""
        with self._lock:
            if self._value == expect:
                self._value = update
                return True
            return False

    def get_and_set(self, value: int) -> int:
        """Store ``value`` and return the value it replaced."""
        with self._lock:
            old = self._value
            self._value = value
            return old

    def get_and_add(self, delta: int) -> int:
        """Add ``delta`` and return the value before the addition."""
        with self._lock:
            old = self._value
            self._value = old + delta
            return old

    def add_and_get(self, delta: int) -> int:
        """Add ``delta`` and return the value after the addition."""
        with self._lock:
            v = self._value + delta
            self._value = v
            return v

    def get_and_increment(self) -> int:
        """Add one and return the value before it."""
        with self._lock:
            old = self._value
            self._value = old + 1
            return old

    def increment_and_get(self) -> int:
        """Add one and return the new value."""
        with self._lock:
            v = self._value + 1
            self._value = v
            return v

    def get_and_decrement(self) -> int:
        """Subtract one and return the value before it."""
        with self._lock:
            old = self._value
            self._value = old - 1
            return old

    def decrement_and_get(self) -> int:
        """Subtract one and return the new value."""
        with self._lock:
            v = self._value - 1
            self._value = v
            return v

    # -- single-operation demand arithmetic (one lock acquire each)

    def get_and_add_cap(self, n: int, mark: int = _LONG_MAX) -> int:
        """Add ``n`` capped at ``LONG_MAX``; a ``LONG_MAX`` cell stays, and so does a
        cell holding ``mark`` (:meth:`add_cap_unless`). Returns the previous value."""
        with self._lock:
            r = self._value
            if r != _LONG_MAX and r != mark:
                u = r + n
                self._value = _LONG_MAX if u > _LONG_MAX else u
            return r

    #: ``add_cap_unless(n, mark)``: :meth:`get_and_add_cap` that leaves a ``mark`` cell.
    add_cap_unless = get_and_add_cap

    def produced(self, n: int, mark: int = _LONG_MAX) -> int:
        """Subtract ``n`` unless the cell is ``LONG_MAX`` or ``mark`` (returned as is).

        Returns ``previous - n``; when that is negative (more produced than
        requested) the cell is set to 0 and the negative difference is returned
        for the caller to report.
        """
        with self._lock:
            r = self._value
            if r == _LONG_MAX or r == mark:
                return r
            u = r - n
            self._value = 0 if u < 0 else u
            return u

    #: ``produced_unless(n, mark)``: :meth:`produced` that leaves a ``mark`` cell.
    produced_unless = produced

    def get_and_add_cap_low(self, n: int) -> int:
        """Post-complete request: add ``n`` to the low 63 bits (the demand) capped at
        ``LONG_MAX``, keeping the sign bit (the "completed" mark). Returns the previous value."""
        with self._lock:
            r = self._value
            u = (r & _LONG_MAX) + n
            self._value = (r & _LONG_MIN) | (_LONG_MAX if u > _LONG_MAX else u)
            return r

    def get_and_or(self, bits: int) -> int:
        """Set ``bits`` (``value | bits``); returns the previous value."""
        with self._lock:
            r = self._value
            self._value = r | bits
            return r

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._value})"


class LockAtomicBoolean:
    """A boolean cell; writes and compare-and-set hold a lock."""

    __slots__ = ("_value", "_lock")

    def __init__(self, value: bool = False) -> None:
        self._value = bool(value)
        self._lock = Lock()

    def get(self) -> bool:
        """Return the current value (a plain read, no lock)."""
        return self._value

    def set(self, value: bool) -> None:
        """Store ``bool(value)`` under the lock; ``lazy_set`` is the same method."""
        with self._lock:
            self._value = bool(value)

    lazy_set = set

    def compare_and_set(self, expect: bool, update: bool) -> bool:
        """Store ``update`` if the value equals ``expect``; return whether it did."""
        with self._lock:
            if self._value == expect:
                self._value = bool(update)
                return True
            return False

    def get_and_set(self, value: bool) -> bool:
        """Store ``value`` and return the value it replaced."""
        with self._lock:
            old = self._value
            self._value = bool(value)
            return old

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._value})"


class AtomicReference(Generic[V]):
    """An object reference; compare-and-set compares by identity (``is``), as Java does."""

    __slots__ = ("_value", "_lock")

    def __init__(self, value: V | None = None) -> None:
        self._value = value
        self._lock = Lock()

    def get(self) -> V | None:
        """Return the object held (``None`` when empty), a plain read."""
        return self._value

    def set(self, value: V | None) -> None:
        """Hold ``value`` from now on (under the lock); ``lazy_set`` is the same method."""
        with self._lock:
            self._value = value

    lazy_set = set

    def compare_and_set(self, expect: V | None, update: V | None) -> bool:
        """Hold ``update`` if the current object *is* ``expect`` (identity, not ``==``); return
        whether it did."""
        with self._lock:
            if self._value is expect:
                self._value = update
                return True
            return False

    def get_and_set(self, value: V | None) -> V | None:
        """Hold ``value`` and return the object it replaced."""
        with self._lock:
            old = self._value
            self._value = value
            return old

    def get_and_set_unless(self, value: V | None, mark: object) -> V | None:
        """Store ``value`` unless the reference holds ``mark`` (by identity); returns the
        previous value, which is ``mark`` when nothing was stored."""
        with self._lock:
            old = self._value
            if old is not mark:
                self._value = value
            return old

    def __repr__(self) -> str:
        return f"AtomicReference({self._value!r})"


#: The ``atomics`` package once a hardware cell was made (see :func:`_load_atomics`).
_atomics: Any = None


def _load_atomics() -> Any:
    """Import the ``atomics`` package (the ``hardware`` extra) the first time a hardware
    cell is made. It is not imported with this module: it pulls in cffi and pycparser,
    40-70 ms that ``import rxpy2`` does not pay under the default ``lock`` backend."""
    global _atomics
    if _atomics is None:
        try:
            import atomics
        except ImportError:  # pragma: no cover - only without the extra
            raise RuntimeError("RXPY2_ATOMICS=hardware needs the 'atomics' package: "
                               "pip install 'rxpy2[hardware]'") from None
        _atomics = atomics
    return _atomics


_MASK64 = 2**64 - 1


def _wrap64(v: int) -> int:
    """``v`` as Java's ``long`` arithmetic leaves it (two's complement, 64 bits)."""
    return ((v - _LONG_MIN) & _MASK64) + _LONG_MIN


if TYPE_CHECKING:  # what rxpy2 uses of an ``atomics`` integer (the package is untyped)
    from typing import Protocol

    class _CmpXchgResult(Protocol):
        success: bool
        expected: int

    class _HardwareCell(Protocol):
        def load(self) -> int: ...
        def store(self, value: int) -> None: ...
        def exchange(self, value: int) -> int: ...
        def fetch_add(self, delta: int) -> int: ...
        def fetch_inc(self) -> int: ...
        def fetch_dec(self) -> int: ...
        def cmpxchg_strong(self, expect: int, update: int) -> _CmpXchgResult: ...
        def cmpxchg_weak(self, expect: int, update: int) -> _CmpXchgResult: ...


class HardwareAtomicLong:
    """A signed 64-bit integer cell on the CPU's atomic instructions (``atomics`` package).

    Arithmetic wraps at 64 bits like Java's ``long`` (and the ``*_and_get`` results
    are the wrapped value that was stored); ``set`` of a value outside the signed
    64-bit range raises ``OverflowError``. rxpy2's request accounting caps at
    ``LONG_MAX`` and so never wraps.
    """

    __slots__ = ("_a",)
    _a: _HardwareCell

    def __init__(self, value: int = 0) -> None:
        at = _atomics or _load_atomics()
        self._a = at.atomic(width=8, atype=at.INT)
        self._a.store(value)

    def get(self) -> int:
        """Return the current value (an atomic load)."""
        return self._a.load()

    def set(self, value: int) -> None:
        """Store ``value`` atomically; outside the signed 64-bit range it raises
        ``OverflowError``. ``lazy_set`` is the same method."""
        self._a.store(value)

    lazy_set = set

    def compare_and_set(self, expect: int, update: int) -> bool:
        """Store ``update`` if the value equals ``expect`` (a strong compare-exchange); return
        whether it did."""
        return self._a.cmpxchg_strong(expect, update).success

    def get_and_set(self, value: int) -> int:
        """Store ``value`` and return the value it replaced (an atomic exchange)."""
        return self._a.exchange(value)

    def get_and_add(self, delta: int) -> int:
        """Add ``delta`` (wrapping at 64 bits) and return the value before the addition."""
        return self._a.fetch_add(delta)

    def add_and_get(self, delta: int) -> int:
        """Add ``delta`` and return the value stored, wrapped at 64 bits as Java's ``long``."""
        v = self._a.fetch_add(delta) + delta
        if _LONG_MIN <= v <= _LONG_MAX:
            return v
        return _wrap64(v)  # what the 64-bit cell now holds

    def get_and_increment(self) -> int:
        """Add one and return the value before it."""
        return self._a.fetch_inc()

    def increment_and_get(self) -> int:
        """Add one and return the new value (``LONG_MAX + 1`` wraps to ``LONG_MIN``)."""
        v = self._a.fetch_inc()
        return v + 1 if v != _LONG_MAX else _LONG_MIN

    def get_and_decrement(self) -> int:
        """Subtract one and return the value before it."""
        return self._a.fetch_dec()

    def decrement_and_get(self) -> int:
        """Subtract one and return the new value (``LONG_MIN - 1`` wraps to ``LONG_MAX``)."""
        v = self._a.fetch_dec()
        return v - 1 if v != _LONG_MIN else _LONG_MAX

    # -- single-operation demand arithmetic: a compare-and-swap loop on the cell
    #    (the hardware primitive); results agree with the lock backend

    def get_and_add_cap(self, n: int, mark: int = _LONG_MAX) -> int:
        """Add ``n`` capped at ``LONG_MAX``; a ``LONG_MAX`` or ``mark`` cell stays. Returns the previous value."""
        a = self._a
        r = a.load()
        while r != _LONG_MAX and r != mark:
            u = r + n
            res = a.cmpxchg_weak(r, _LONG_MAX if u > _LONG_MAX else u)
            if res.success:
                return r
            r = res.expected
        return r

    add_cap_unless = get_and_add_cap

    def produced(self, n: int, mark: int = _LONG_MAX) -> int:
        """Subtract ``n`` unless ``LONG_MAX`` or ``mark`` (returned as is); returns
        ``previous - n`` (stored as 0 if negative)."""
        a = self._a
        r = a.load()
        while r != _LONG_MAX and r != mark:
            u = r - n
            res = a.cmpxchg_weak(r, 0 if u < 0 else u)
            if res.success:
                return u
            r = res.expected
        return r

    produced_unless = produced

    def get_and_add_cap_low(self, n: int) -> int:
        """Post-complete request: add ``n`` to the low 63 bits capped, keep the sign bit."""
        a = self._a
        r = a.load()
        while True:
            u = (r & _LONG_MAX) + n
            res = a.cmpxchg_weak(r, (r & _LONG_MIN) | (_LONG_MAX if u > _LONG_MAX else u))
            if res.success:
                return r
            r = res.expected

    def get_and_or(self, bits: int) -> int:
        """Set ``bits`` (``value | bits``); returns the previous value."""
        a = self._a
        r = a.load()
        while True:
            res = a.cmpxchg_weak(r, r | bits)
            if res.success:
                return r
            r = res.expected

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.get()})"


class HardwareAtomicBoolean:
    """A boolean cell on a 1-byte hardware atomic."""

    __slots__ = ("_a",)
    _a: _HardwareCell

    def __init__(self, value: bool = False) -> None:
        at = _atomics or _load_atomics()
        self._a = at.atomic(width=1, atype=at.UINT)
        self._a.store(1 if value else 0)

    def get(self) -> bool:
        """Return the current value (an atomic load)."""
        return self._a.load() != 0

    def set(self, value: bool) -> None:
        """Store ``value`` atomically; ``lazy_set`` is the same method."""
        self._a.store(1 if value else 0)

    lazy_set = set

    def compare_and_set(self, expect: bool, update: bool) -> bool:
        """Store ``update`` if the value equals ``expect``; return whether it did."""
        return self._a.cmpxchg_strong(1 if expect else 0, 1 if update else 0).success

    def get_and_set(self, value: bool) -> bool:
        """Store ``value`` and return the value it replaced (an atomic exchange)."""
        return self._a.exchange(1 if value else 0) != 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.get()})"


def _select_backend() -> str:
    name = os.environ.get("RXPY2_ATOMICS", "lock").strip().lower() or "lock"
    if name not in ("lock", "hardware"):
        raise ValueError(f"RXPY2_ATOMICS must be 'lock' or 'hardware', not {name!r}")
    if name == "hardware":
        _load_atomics()  # selected: import it now, so a missing package fails at import
    return name


#: The backend in force: ``"lock"`` (default) or ``"hardware"``.
BACKEND: str = _select_backend()

if TYPE_CHECKING:  # one API: type checkers see the lock classes
    AtomicLong = LockAtomicLong
    AtomicBoolean = LockAtomicBoolean
elif BACKEND == "hardware":
    AtomicLong = HardwareAtomicLong
    AtomicBoolean = HardwareAtomicBoolean
else:
    AtomicLong = LockAtomicLong
    AtomicBoolean = LockAtomicBoolean

#: Java's AtomicInteger: the same cell as AtomicLong (Python ints have no width).
AtomicInteger = AtomicLong
