"""What every workload shares: the consumer, the user functions, and the workload records.

Every implementation of a workload hands each item to a consumer made by
:func:`make_sink` (or :func:`make_pair_sink` for tuples, :func:`make_list_sink`
for lists, :func:`make_slow_sink` for a consumer that works a little per item),
which counts the items and adds them up; the implementation returns that ``(count, total)``
checksum, and the runner checks that all implementations of a workload return
the same one: that is how the suite shows they do the same work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
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


def make_list_sink() -> tuple[Callable[[list[int]], None], Callable[[], Checksum]]:
    """As :func:`make_sink` for lists (buffers, groups): counts the lists, sums their items."""
    count = 0
    total = 0

    def consume(xs: list[int]) -> None:
        nonlocal count, total
        count += 1
        total += sum(xs)

    def checksum() -> Checksum:
        return count, total

    return consume, checksum


#: Iterations of the busy loop a slow consumer (:func:`make_slow_sink`) runs per item.
SLOW_SPIN = 25


def make_slow_sink(spin: int = SLOW_SPIN) -> tuple[Callable[[int], None], Callable[[], Checksum]]:
    """As :func:`make_sink`, and a busy loop of ``spin`` iterations per item: a consumer
    slower than the producer, so that a hand-over between threads fills up."""
    count = 0
    total = 0
    spins = range(spin)

    def consume(x: int) -> None:
        nonlocal count, total
        for _ in spins:
            pass
        count += 1
        total += x

    def checksum() -> Checksum:
        return count, total

    return consume, checksum


@dataclass(frozen=True)
class Target:
    """A target an issue sets for one implementation's figure (the report says met or not).

    With ``versus``, the figure is the time ratio of this implementation's median to
    the median of ``versus`` (an implementation of the same workload) and ``bound``
    is in ×; with ``minus``, it is this median less the median of ``minus``, in the
    workload's unit (the import time over ``python -c pass``). ``at_most``: the
    figure must be at most ``bound`` (else at least).
    """

    bound: float
    versus: str | None = None
    minus: str | None = None
    at_most: bool = True
    issue: int = 18
    text: str = ""

    def __post_init__(self) -> None:
        if (self.versus is None) == (self.minus is None):
            raise ValueError("a Target needs exactly one of versus and minus")

    def describe(self, unit: str) -> str:
        """``≤ 2.0× plain loop`` or ``≤ 60 ms over python -c pass``."""
        op = "≤" if self.at_most else "≥"
        if self.versus is not None:
            return f"{op} {self.bound:g}× {self.versus}"
        return f"{op} {self.bound:g} {unit} over {self.minus}"

    def met(self, value: float) -> bool:
        return value <= self.bound if self.at_most else value >= self.bound


@dataclass
class Impl:
    """One implementation of a workload.

    ``run(n)`` does the work over ``n`` source items and returns the checksum.
    ``n_div`` shrinks ``n`` for implementations so slow that the workload's
    ``n`` would take seconds per run (their figure is still per item).
    ``target``: what an issue asks of this implementation's figure.
    """

    name: str
    kind: str
    run: Callable[[int], Checksum]
    n_div: int = 1
    note: str = ""
    target: Target | None = None


@dataclass
class Workload:
    """A piece of work and the implementations that do it.

    ``items(n)`` is the number of items a run over ``n`` source items is
    divided by (``per`` says what they are). ``compare`` names the
    implementations each row is also shown as a ratio of. ``setup`` and
    ``teardown`` run before the first and after the last run (schedulers).
    ``unit``/``unit_ns``: the unit the tables show (``ms`` = 1e6 ns for the import).
    ``runs``: this many timed runs whatever ``--runs`` says; ``fixed_n``: ``n`` is
    not scaled by ``--quick`` nor replaced by ``--items`` (one process per run).
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
    unit: str = "ns"
    unit_ns: float = 1.0
    runs: int | None = None
    fixed_n: bool = False

    def impl(self, name: str) -> Impl:
        for i in self.impls:
            if i.name == name:
                return i
        raise KeyError(name)
