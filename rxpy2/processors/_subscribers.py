"""The copy-on-write array of a multicasting processor's current subscriptions.

An ``AtomicReference`` holds a tuple that is never mutated: adding or removing
builds a new tuple and swaps it in with compare-and-set, so ``on_next`` iterates
a snapshot without a lock. Two sentinels: :data:`EMPTY` (no subscriber yet or
any more) and :data:`TERMINATED` (the processor ended: nobody is added again and
a late subscriber gets the terminal signal instead).
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.atomic import AtomicReference

__all__ = ["EMPTY", "TERMINATED", "array_add", "array_remove", "array_terminate"]


class _Terminated(tuple[Any, ...]):
    """An empty tuple distinct from ``()``: compared by identity."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "TERMINATED"


EMPTY: tuple[Any, ...] = ()
TERMINATED: tuple[Any, ...] = _Terminated()


def array_add(ref: AtomicReference[tuple[Any, ...]], item: Any) -> bool:
    """Append ``item``; False when the array is TERMINATED."""
    while True:
        a = ref.get()
        if a is TERMINATED:
            return False
        if ref.compare_and_set(a, a + (item,)):  # type: ignore[operator]  # never None (AtomicReference.get() is V | None)
            return True


def array_remove(ref: AtomicReference[tuple[Any, ...]], item: Any) -> None:
    """Remove ``item`` (by identity) unless it is absent or the array is TERMINATED."""
    while True:
        a = ref.get()
        if a is TERMINATED or not a:
            return
        j = next((i for i, x in enumerate(a) if x is item), -1)
        if j < 0:
            return
        b = EMPTY if len(a) == 1 else a[:j] + a[j + 1:]
        if ref.compare_and_set(a, b):
            return


def array_terminate(ref: AtomicReference[tuple[Any, ...]]) -> tuple[Any, ...]:
    """Swap in TERMINATED; return the subscriptions that were there (TERMINATED if already done)."""
    a = ref.get()
    if a is not TERMINATED:
        a = ref.get_and_set(TERMINATED)
    return a  # type: ignore[return-value]  # never None (AtomicReference.get() is V | None)
