"""What every workload shares: the consumer, the user functions, and the workload records.

Every implementation of a workload hands each item to a consumer made by
:func:`make_sink` (or :func:`make_pair_sink` for tuples), which counts the
items and adds them up; the implementation returns that ``(count, total)``
checksum, and the runner checks that all implementations of a workload return
the same one: that is how the suite shows they do the same work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Checksum = tuple[int, int]

#: Implementation kinds, in the order the tables list them.
PLAIN = "plain"
BUILTINS = "builtins"
RXPY2 = "rxpy2"
RXPY = "RxPY"


def f(x: int) -> int:
    """The mapper of the chains."""
    return x + 1


def p(x: int) -> bool:
    """The predicate of the chains (keeps two items in three)."""
    return x % 3 != 0


def add(a: int, b: int) -> int:
    """The accumulator of scan."""
    return a + b


def identity(x: int) -> int:
    """The mapper of the plain ``map`` chain that flat_map-to-just is compared with."""
    return x


def make_sink() -> tuple[Callable[[int], None], Callable[[], Checksum]]:
    """A consumer that counts and sums its items, and the function that reads the checksum."""
    count = 0
    total = 0

    def consume(x: int) -> None:
        nonlocal count, total
        count += 1
        total += x

    def checksum() -> Checksum:
        return count, total

    return consume, checksum


def make_pair_sink() -> tuple[Callable[[tuple[int, int]], None], Callable[[], Checksum]]:
    """As :func:`make_sink` for ``(a, b)`` pairs: adds ``b - a`` (catches misaligned pairs)."""
    count = 0
    total = 0

    def consume(t: tuple[int, int]) -> None:
        nonlocal count, total
        count += 1
        total += t[1] - t[0]

    def checksum() -> Checksum:
        return count, total

    return consume, checksum


@dataclass
class Impl:
    """One implementation of a workload.

    ``run(n)`` does the work over ``n`` source items and returns the checksum.
    ``n_div`` shrinks ``n`` for implementations so slow that the workload's
    ``n`` would take seconds per run (their figure is still per item).
    """

    name: str
    kind: str
    run: Callable[[int], Checksum]
    n_div: int = 1
    note: str = ""


@dataclass
class Workload:
    """A piece of work and the implementations that do it.

    ``items(n)`` is the number of items a run over ``n`` source items is
    divided by (``per`` says what they are). ``compare`` names the
    implementations each row is also shown as a ratio of. ``setup`` and
    ``teardown`` run before the first and after the last run (schedulers).
    """

    key: str
    title: str
    n: int
    per: str
    impls: list[Impl]
    compare: list[str]
    items: Callable[[int], int] = lambda n: n
    setup: Callable[[], Any] | None = None
    teardown: Callable[[], Any] | None = None
    notes: list[str] = field(default_factory=list)

    def impl(self, name: str) -> Impl:
        for i in self.impls:
            if i.name == name:
                return i
        raise KeyError(name)
