"""AtomicLong/AtomicInteger/AtomicBoolean/AtomicReference on both backends, and the switch."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from rxpy2._internal import atomic
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.atomic import HardwareAtomicBoolean
from rxpy2._internal.atomic import HardwareAtomicLong
from rxpy2._internal.atomic import LockAtomicBoolean
from rxpy2._internal.atomic import LockAtomicLong
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.testing import RaceRunner

LONGS = [LockAtomicLong, HardwareAtomicLong]
BOOLS = [LockAtomicBoolean, HardwareAtomicBoolean]


# ---------------------------------------------------------------- AtomicLong / AtomicInteger

@pytest.mark.parametrize("cls", LONGS)
def test_long_default_and_initial(cls):
    assert cls().get() == 0
    assert cls(42).get() == 42
    assert cls(-7).get() == -7
    assert cls(LONG_MAX).get() == LONG_MAX
    assert cls(LONG_MIN).get() == LONG_MIN


@pytest.mark.parametrize("cls", LONGS)
def test_long_set_and_lazy_set(cls):
    a = cls(1)
    a.set(5)
    assert a.get() == 5
    a.lazy_set(6)
    assert a.get() == 6


@pytest.mark.parametrize("cls", LONGS)
def test_long_compare_and_set(cls):
    a = cls(3)
    assert a.compare_and_set(4, 10) is False
    assert a.get() == 3
    assert a.compare_and_set(3, 10) is True
    assert a.get() == 10
    assert a.compare_and_set(3, 11) is False
    assert a.get() == 10


@pytest.mark.parametrize("cls", LONGS)
def test_long_get_and_set(cls):
    a = cls(3)
    assert a.get_and_set(9) == 3
    assert a.get() == 9


@pytest.mark.parametrize("cls", LONGS)
def test_long_get_and_add_add_and_get(cls):
    a = cls(10)
    assert a.get_and_add(5) == 10
    assert a.get() == 15
    assert a.add_and_get(-20) == -5
    assert a.get() == -5


@pytest.mark.parametrize("cls", LONGS)
def test_long_increments_and_decrements(cls):
    a = cls(0)
    assert a.get_and_increment() == 0
    assert a.get() == 1
    assert a.increment_and_get() == 2
    assert a.get_and_decrement() == 2
    assert a.get() == 1
    assert a.decrement_and_get() == 0
    assert a.decrement_and_get() == -1


@pytest.mark.parametrize("cls", LONGS)
def test_long_extremes_and_masks_round_trip(cls):
    # the post-complete counters keep LONG_MIN | demand in one cell
    a = cls(LONG_MIN)
    assert a.add_and_get(5) == LONG_MIN + 5
    assert a.get() & LONG_MIN != 0
    assert a.get() & LONG_MAX == 5
    assert a.compare_and_set(LONG_MIN + 5, LONG_MIN | LONG_MAX)
    assert a.get() == -1


@pytest.mark.parametrize("cls", LONGS)
def test_long_repr(cls):
    assert repr(cls(5)) == f"{cls.__name__}(5)"


def test_hardware_long_wraps_like_java_long():
    a = HardwareAtomicLong(LONG_MAX)
    assert a.increment_and_get() == LONG_MIN
    assert a.get() == LONG_MIN
    assert a.decrement_and_get() == LONG_MAX
    assert a.add_and_get(2) == LONG_MIN + 1  # the result is what the cell holds
    assert a.get() == LONG_MIN + 1
    assert a.get_and_add(-2) == LONG_MIN + 1
    assert a.get() == LONG_MAX
    with pytest.raises(OverflowError):
        a.set(LONG_MAX + 1)


def test_lock_long_is_a_python_int():
    a = LockAtomicLong(LONG_MAX)
    assert a.increment_and_get() == LONG_MAX + 1


def test_atomic_integer_is_atomic_long():
    assert atomic.AtomicInteger is atomic.AtomicLong


# ---------------------------------------------------------------- AtomicBoolean

@pytest.mark.parametrize("cls", BOOLS)
def test_boolean_methods(cls):
    b = cls()
    assert b.get() is False
    assert cls(True).get() is True
    b.set(True)
    assert b.get() is True
    b.lazy_set(False)
    assert b.get() is False
    assert b.compare_and_set(True, True) is False
    assert b.get() is False
    assert b.compare_and_set(False, True) is True
    assert b.get() is True
    assert b.get_and_set(False) is True
    assert b.get_and_set(False) is False
    assert b.get() is False
    assert repr(b) == f"{cls.__name__}(False)"


@pytest.mark.parametrize("cls", BOOLS)
def test_boolean_normalises_truthy_values(cls):
    b = cls(1)  # type: ignore[arg-type]
    assert b.get() is True
    b.set(0)  # type: ignore[arg-type]
    assert b.get() is False


# ---------------------------------------------------------------- AtomicReference

def test_reference_methods():
    x, y = object(), object()
    r: AtomicReference[object] = AtomicReference()
    assert r.get() is None
    r.set(x)
    assert r.get() is x
    r.lazy_set(y)
    assert r.get() is y
    assert r.get_and_set(x) is y
    assert r.compare_and_set(y, None) is False
    assert r.compare_and_set(x, None) is True
    assert r.get() is None
    assert AtomicReference(x).get() is x
    assert repr(AtomicReference(5)) == "AtomicReference(5)"


def test_reference_compares_by_identity_not_equality():
    a, b = [1], [1]  # equal, not identical
    r = AtomicReference(a)
    assert r.compare_and_set(b, "x") is False
    assert r.get() is a
    assert r.compare_and_set(a, "x") is True


# ---------------------------------------------------------------- races

LOOPS = 10_000


@pytest.fixture
def loop_runner(request):
    """A RaceRunner tuned to the backend of the test's ``cls``.

    Every hardware operation is a C call that releases the interpreter lock, so two
    loops of them interleave by themselves; a lock-backend operation is a few
    Python lines, which interleave only under the runner's preemption.
    """
    cls = request.node.callspec.params["cls"]
    with RaceRunner(preempt=0.0 if cls.__name__.startswith("Hardware") else 0.05) as r:
        yield r


@pytest.mark.parametrize("cls", LONGS)
def test_race_get_and_increment_exact(cls, loop_runner):
    a = cls()
    olds: list[list[int]] = []

    def loop():
        seen = []
        inc = a.get_and_increment
        for _ in range(LOOPS):
            seen.append(inc())
        olds.append(seen)

    loop_runner.race(loop, loop, timeout=60)
    assert a.get() == 2 * LOOPS
    # each old value was handed out exactly once
    assert sorted(olds[0] + olds[1]) == list(range(2 * LOOPS))


@pytest.mark.parametrize("cls", LONGS)
def test_race_compare_and_set_loop_exact(cls, loop_runner):
    a = cls()
    failures = [0, 0]

    def loop(i):
        for _ in range(LOOPS):
            while True:
                v = a.get()
                if a.compare_and_set(v, v + 1):
                    break
                failures[i] += 1

    loop_runner.race(lambda: loop(0), lambda: loop(1), timeout=60)
    assert a.get() == 2 * LOOPS
    # how often the loops contended depends on the scheduler (none at all is possible on a
    # quiet interpreter): the interleaving that makes a compare_and_set fail is pinned below


@pytest.mark.parametrize("cls", LONGS)
def test_compare_and_set_fails_after_another_thread_changed_the_value(cls):
    """The contended interleaving, made on purpose: this thread reads, another thread's
    compare_and_set wins, this thread's fails, and its retry over the new value succeeds."""
    a = cls(5)
    v = a.get()
    other = threading.Thread(target=lambda: a.compare_and_set(5, 6))
    other.start()
    other.join()
    assert not a.compare_and_set(v, v + 1)
    assert a.get() == 6
    v = a.get()
    assert a.compare_and_set(v, v + 1)
    assert a.get() == 7


@pytest.mark.parametrize("cls", LONGS)
def test_race_add_and_decrement_balance(cls, loop_runner):
    a = cls(0)

    def loop():
        for _ in range(LOOPS // 5):
            a.add_and_get(3)
            a.get_and_add(-1)
            a.decrement_and_get()
            a.increment_and_get()
            a.get_and_decrement()

    loop_runner.race(loop, loop, timeout=60)
    assert a.get() == 2 * (LOOPS // 5)


@pytest.mark.parametrize("cls", BOOLS)
def test_race_boolean_compare_and_set_has_one_winner(cls, race_runner, race_rounds):
    for _ in range(race_rounds):
        b = cls()
        wins = []
        race_runner.race(lambda: wins.append(b.compare_and_set(False, True)),
                         lambda: wins.append(b.compare_and_set(False, True)))
        assert sorted(wins) == [False, True]
        assert b.get() is True


def test_race_reference_get_and_set_hands_each_value_once(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        x, y = object(), object()
        r = AtomicReference()
        got = []
        race_runner.race(lambda: got.append(r.get_and_set(x)),
                         lambda: got.append(r.get_and_set(y)))
        final = r.get()
        assert final in (x, y)
        # one side saw None, the other saw the value the first one put in
        assert None in got
        other = [g for g in got if g is not None]
        assert len(other) == 1 and other[0] is not final


# ---------------------------------------------------------------- the RXPY2_ATOMICS switch

def _probe(value: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("RXPY2_ATOMICS", None)
    if value is not None:
        env["RXPY2_ATOMICS"] = value
    code = ("from rxpy2._internal import atomic as a; "
            "print(a.BACKEND, a.AtomicLong.__name__, a.AtomicBoolean.__name__, "
            "a.AtomicInteger.__name__, type(a.AtomicLong(1).get()).__name__)")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("value,expected", [
    ("hardware", "hardware HardwareAtomicLong HardwareAtomicBoolean HardwareAtomicLong int"),
    ("lock", "lock LockAtomicLong LockAtomicBoolean LockAtomicLong int"),
    (" Hardware ", "hardware HardwareAtomicLong HardwareAtomicBoolean HardwareAtomicLong int"),
    ("", "lock LockAtomicLong LockAtomicBoolean LockAtomicLong int"),
    (None, "lock LockAtomicLong LockAtomicBoolean LockAtomicLong int"),
])
def test_backend_switch(value, expected):
    r = _probe(value)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == expected


def test_backend_switch_invalid_value_raises_value_error():
    r = _probe("spinlock")
    assert r.returncode != 0
    assert "ValueError" in r.stderr
    assert "RXPY2_ATOMICS must be 'lock' or 'hardware'" in r.stderr


def test_backend_in_this_process_matches_classes():
    if atomic.BACKEND == "hardware":
        assert atomic.AtomicLong is HardwareAtomicLong
        assert atomic.AtomicBoolean is HardwareAtomicBoolean
    else:
        assert atomic.BACKEND == "lock"
        assert atomic.AtomicLong is LockAtomicLong
        assert atomic.AtomicBoolean is LockAtomicBoolean


# ---------------------------------------------------------------- single-operation demand arithmetic

@pytest.mark.parametrize("cls", LONGS)
def test_get_and_add_cap(cls):
    a = cls(5)
    assert a.get_and_add_cap(3) == 5
    assert a.get() == 8
    assert a.get_and_add_cap(LONG_MAX) == 8
    assert a.get() == LONG_MAX  # capped
    assert a.get_and_add_cap(1) == LONG_MAX
    assert a.get() == LONG_MAX  # unbounded stays


@pytest.mark.parametrize("cls", LONGS)
def test_add_cap_unless_mark(cls):
    a = cls(LONG_MIN)
    assert a.add_cap_unless(3, LONG_MIN) == LONG_MIN
    assert a.get() == LONG_MIN  # the mark stays
    a.set(4)
    assert a.add_cap_unless(LONG_MAX, LONG_MIN) == 4
    assert a.get() == LONG_MAX
    assert a.add_cap_unless(1, LONG_MIN) == LONG_MAX


@pytest.mark.parametrize("cls", LONGS)
def test_produced_and_produced_unless(cls):
    a = cls(5)
    assert a.produced(3) == 2
    assert a.get() == 2
    assert a.produced(3) == -1  # more produced than requested: reported by the caller
    assert a.get() == 0
    a.set(LONG_MAX)
    assert a.produced(3) == LONG_MAX
    assert a.get() == LONG_MAX
    a.set(LONG_MIN)
    assert a.produced_unless(3, LONG_MIN) == LONG_MIN
    assert a.get() == LONG_MIN
    a.set(5)
    assert a.produced_unless(2, LONG_MIN) == 3


@pytest.mark.parametrize("cls", LONGS)
def test_get_and_add_cap_low_keeps_the_mark(cls):
    a = cls(LONG_MIN)
    assert a.get_and_add_cap_low(3) == LONG_MIN
    assert a.get() == LONG_MIN | 3
    assert a.get_and_add_cap_low(LONG_MAX) == LONG_MIN | 3
    assert a.get() == LONG_MIN | LONG_MAX  # the low bits capped, the mark kept
    a.set(7)
    assert a.get_and_add_cap_low(LONG_MAX) == 7
    assert a.get() == LONG_MAX


@pytest.mark.parametrize("cls", LONGS)
def test_get_and_or(cls):
    a = cls(7)
    assert a.get_and_or(LONG_MIN) == 7
    assert a.get() == LONG_MIN | 7
    assert a.get_and_or(LONG_MIN) == LONG_MIN | 7
    assert a.get() == LONG_MIN | 7


def test_reference_get_and_set_unless():
    mark = object()
    r: AtomicReference[object] = AtomicReference("a")
    assert r.get_and_set_unless("b", mark) == "a"
    assert r.get() == "b"
    r.set(mark)
    assert r.get_and_set_unless("c", mark) is mark
    assert r.get() is mark


@pytest.mark.parametrize("cls", LONGS)
def test_race_get_and_add_cap_exact(cls, loop_runner):
    a = cls()
    olds: list[int] = []

    def loop():
        add = a.get_and_add_cap
        seen = [add(1) for _ in range(LOOPS)]
        olds.extend(seen)

    loop_runner.race(loop, loop, timeout=60)
    assert a.get() == 2 * LOOPS
    assert sorted(olds) == list(range(2 * LOOPS))  # each previous value seen once


@pytest.mark.parametrize("cls", LONGS)
def test_race_add_cap_and_produced_balance(cls, loop_runner):
    a = cls(LOOPS)  # enough demand that produced never goes below 0
    negatives: list[int] = []

    def adder():
        add = a.add_cap_unless
        for _ in range(LOOPS):
            add(1, LONG_MIN)

    def producer():
        prod = a.produced_unless
        for _ in range(LOOPS):
            if prod(1, LONG_MIN) < 0:
                negatives.append(1)

    loop_runner.race(adder, producer, timeout=60)
    assert a.get() == LOOPS
    assert negatives == []


@pytest.mark.parametrize("cls", LONGS)
def test_race_produced_against_cancel_mark(cls, race_runner, race_rounds):
    for _ in range(race_rounds):
        a = cls(10)
        race_runner.race(lambda: a.produced_unless(3, LONG_MIN), lambda: a.set(LONG_MIN))
        assert a.get() == LONG_MIN  # the mark, once set, is never overwritten
        assert a.add_cap_unless(5, LONG_MIN) == LONG_MIN
        assert a.get() == LONG_MIN


@pytest.mark.parametrize("cls", LONGS)
def test_race_post_complete_request_and_mark(cls, race_runner, race_rounds):
    for _ in range(race_rounds):
        a = cls(0)
        got: list[int] = []
        race_runner.race(lambda: got.append(a.get_and_add_cap_low(2)),
                         lambda: got.append(a.get_and_or(LONG_MIN)))
        assert a.get() == LONG_MIN | 2  # neither the demand nor the mark lost
        assert sorted(got) in ([LONG_MIN, 0], [0, 2])  # one saw the other or nothing


@pytest.mark.parametrize("cls", LONGS)
def test_race_get_and_add_cap_low_exact(cls, loop_runner):
    a = cls(LONG_MIN)

    def loop():
        add = a.get_and_add_cap_low
        for _ in range(LOOPS):
            add(1)

    loop_runner.race(loop, loop, timeout=60)
    assert a.get() == LONG_MIN | (2 * LOOPS)


# ---------------------------------------------------------------- Ctrl-C inside a locked operation

_INTERRUPTED = r'''
import _thread, random, threading, time
from rxpy2._internal.atomic import AtomicReference, LockAtomicBoolean, LockAtomicLong
from rxpy2._internal.drain import LockDrain
from rxpy2._internal.helpers.exception_helper import ExceptionHelper

long_, ref, flag, drain = LockAtomicLong(), AtomicReference(), LockAtomicBoolean(), LockDrain()
errors = AtomicReference()
locks = [long_._lock, ref._lock, flag._lock, drain._lock, errors._lock]
armed = threading.Event()

def interrupter():
    # one interrupt per round, sent only once the main thread is inside its ``try``: an
    # interrupt can then never land outside the handler that counts it
    rng = random.Random(7)
    for _ in range(300):
        armed.wait()
        armed.clear()
        time.sleep(rng.random() * 0.0005)
        _thread.interrupt_main()  # KeyboardInterrupt at the main thread's next check

threading.Thread(target=interrupter, daemon=True).start()
interrupts = held = 0
while interrupts < 300:
    try:
        armed.set()
        while True:
            long_.compare_and_set(0, 0); long_.add_and_get(1); long_.get_and_add_cap(1)
            long_.produced(1); ref.get_and_set(None); ref.compare_and_set(None, None)
            flag.compare_and_set(False, False)
            if drain.enter():
                drain.leave()
            ExceptionHelper.add_throwable(errors, RuntimeError()); errors.set(None)
    except KeyboardInterrupt:
        interrupts += 1
        for lock in locks:
            if lock.locked():  # only this thread takes them: held means leaked
                held += 1
                lock.release()
print(interrupts, held)
'''


def test_ctrl_c_inside_a_locked_operation_never_leaves_the_lock_held() -> None:
    """KeyboardInterrupt is raised at the return of any call: between an ``acquire()`` and
    the ``try`` that releases it, the lock would stay held (a hang at the next use).
    Hundreds of interrupts land all over the lock cells' and the lock drain's operations;
    none leaves its lock held."""
    env = dict(os.environ, RXPY2_ATOMICS="lock")
    out = subprocess.run([sys.executable, "-c", _INTERRUPTED], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    interrupts, held = map(int, out.stdout.split())
    assert interrupts == 300
    assert held == 0
