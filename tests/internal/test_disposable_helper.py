"""DisposableHelper and the Disposable containers built on it."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import threading

import pytest

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers import DISPOSED
from rxpy2._internal.helpers import DisposableHelper as DH
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposable
from rxpy2.disposables import Disposables
from rxpy2.disposables import SerialDisposable
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import ProtocolViolationException


class Probe(Disposable):
    def __init__(self) -> None:
        self.disposed = 0
        self._lock = threading.Lock()

    def dispose(self) -> None:
        with self._lock:
            self.disposed += 1

    def is_disposed(self) -> bool:
        return self.disposed > 0


def test_disposed_sentinel():
    assert DH.DISPOSED is DISPOSED
    assert DISPOSED.is_disposed()
    DISPOSED.dispose()
    assert DH.is_disposed(DISPOSED)
    assert not DH.is_disposed(Probe())
    assert not DH.is_disposed(None)
    assert repr(DISPOSED) == "DISPOSED"


def test_validate(plugin_errors):
    p = Probe()
    assert DH.validate(None, p) is True
    q = Probe()
    assert DH.validate(p, q) is False
    assert q.disposed == 1 and p.disposed == 0
    assert DH.validate(None, None) is False
    assert [type(e) for e in plugin_errors] == [ProtocolViolationException, TypeError]


def test_set_once(plugin_errors):
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    assert DH.set_once(ref, p1) is True
    assert DH.set_once(ref, p2) is False
    assert p2.disposed == 1 and p1.disposed == 0
    assert [type(e) for e in plugin_errors] == [ProtocolViolationException]
    with pytest.raises(TypeError):
        DH.set_once(ref, None)  # type: ignore[arg-type]


def test_set_once_after_dispose_is_silent():
    ref = AtomicReference()
    DH.dispose(ref)
    p = Probe()
    assert DH.set_once(ref, p) is False
    assert p.disposed == 1


def test_set_disposes_previous():
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    assert DH.set(ref, p1) and DH.set(ref, p2)
    assert p1.disposed == 1 and p2.disposed == 0
    assert DH.set(ref, None) is True
    assert p2.disposed == 1


def test_replace_keeps_previous():
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    assert DH.replace(ref, p1) and DH.replace(ref, p2)
    assert p1.disposed == 0
    assert ref.get() is p2


@pytest.mark.parametrize("op", [DH.set, DH.replace])
def test_set_replace_after_dispose(op):
    ref = AtomicReference()
    DH.dispose(ref)
    p = Probe()
    assert op(ref, p) is False
    assert p.disposed == 1
    assert op(ref, None) is False
    assert ref.get() is DISPOSED


def test_dispose_once():
    ref = AtomicReference()
    p = Probe()
    DH.set(ref, p)
    assert DH.dispose(ref) is True
    assert DH.dispose(ref) is False
    assert p.disposed == 1
    assert DH.dispose(AtomicReference()) is True


def test_try_set():
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    assert DH.try_set(ref, p1) is True
    assert DH.try_set(ref, p2) is False
    assert p2.disposed == 0  # not disposed: the caller decides
    DH.dispose(ref)
    p3 = Probe()
    assert DH.try_set(ref, p3) is False
    assert p3.disposed == 1


def test_race_set_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ref = AtomicReference()
        first, second = Probe(), Probe()
        DH.set(ref, first)
        race_runner.race(lambda: DH.set(ref, second), lambda: DH.dispose(ref))
        assert first.disposed == 1 and second.disposed == 1
        assert ref.get() is DISPOSED


def test_race_set_once_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ref = AtomicReference()
        p = Probe()
        race_runner.race(lambda: DH.set_once(ref, p), lambda: DH.dispose(ref))
        assert p.disposed == 1


# ---------------------------------------------------------------- Disposables & containers

def test_from_action_runs_once():
    calls = []
    d = Disposables.from_action(lambda: calls.append(1))
    assert not d.is_disposed()
    d.dispose()
    d.dispose()
    assert calls == [1] and d.is_disposed()
    with pytest.raises(TypeError):
        Disposables.from_action(None)  # type: ignore[arg-type]


def test_empty_and_disposed():
    e = Disposables.empty()
    assert not e.is_disposed()
    e.dispose()
    assert e.is_disposed()
    assert Disposables.disposed().is_disposed()


def test_disposable_as_context_manager():
    calls = []
    with Disposables.from_action(lambda: calls.append(1)):
        assert calls == []
    assert calls == [1]


def test_race_from_action_dispose_runs_action_once(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        calls = []
        d = Disposables.from_action(lambda: calls.append(1))
        race_runner.race(d.dispose, d.dispose)
        assert calls == [1]


def test_composite_add_remove_delete_dispose():
    c = CompositeDisposable()
    p1, p2, p3 = Probe(), Probe(), Probe()
    assert c.add(p1) and c.add(p2) and c.add(p3)
    assert c.size() == 3
    assert c.remove(p1) is True and p1.disposed == 1
    assert c.remove(p1) is False
    assert c.delete(p2) is True and p2.disposed == 0
    assert c.size() == 1
    c.dispose()
    assert p3.disposed == 1 and c.is_disposed()
    p4 = Probe()
    assert c.add(p4) is False and p4.disposed == 1  # added after dispose: disposed at once
    assert c.delete(p4) is False
    with pytest.raises(TypeError):
        c.add(None)  # type: ignore[arg-type]


def test_composite_clear_keeps_it_usable_and_is_noop_after_dispose():
    p1 = Probe()
    c = CompositeDisposable([p1])
    c.clear()
    assert p1.disposed == 1 and c.size() == 0 and not c.is_disposed()
    p2 = Probe()
    c.add(p2)
    c.dispose()
    c.clear()
    assert c.size() == 0 and c.is_disposed()
    p3 = Probe()
    assert c.add(p3) is False and p3.disposed == 1


def test_composite_dispose_collects_errors():
    def boom():
        raise ValueError("a")

    def boom2():
        raise KeyError("b")

    c = CompositeDisposable([Disposables.from_action(boom)])
    with pytest.raises(ValueError):
        c.dispose()
    c2 = CompositeDisposable([Disposables.from_action(boom), Disposables.from_action(boom2)])
    with pytest.raises(CompositeException) as ei:
        c2.dispose()
    assert sorted(type(e).__name__ for e in ei.value.exceptions) == ["KeyError", "ValueError"]


def test_race_composite_add_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        c = CompositeDisposable()
        p = Probe()
        race_runner.race(lambda: c.add(p), c.dispose)
        assert p.disposed == 1  # either disposed by dispose() or at add()


def test_serial_disposable():
    s = SerialDisposable()
    p1, p2, p3 = Probe(), Probe(), Probe()
    assert s.set(p1) and s.get() is p1
    assert s.set(p2) and p1.disposed == 1
    assert s.replace(p3) and p2.disposed == 0
    s.dispose()
    assert p3.disposed == 1 and s.is_disposed()
    assert s.get().is_disposed()
    p4 = Probe()
    assert s.set(p4) is False and p4.disposed == 1
