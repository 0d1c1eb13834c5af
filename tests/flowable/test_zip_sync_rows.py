"""zip over SYNC-fused sources polls a row from each source per emitted item (the
coordinator's ``drain_sync``); the general loop of ``drain`` does the same with its head
bookkeeping. Both must give the same items, pulls, errors, end and cancellation: each case
runs twice, once with ``drain_sync`` switched off (the general loop alone), and the two
logs are compared."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2._internal.operators.flowable.flowable_zip import ZipCoordinator
from rxpy2.testing import TestSubscriber


def _source(log: list[str], name: str, length: int, fail_at: int | None) -> Flowable[int]:
    def items():
        for i in range(length):
            if i == fail_at:
                log.append(f"{name} raises at {i}")
                raise ValueError(f"{name} failed at {i}")
            log.append(f"{name} pulls {i}")
            yield i * 10 + len(name)
    return Flowable.from_iterable(_Reiterable(items))


class _Reiterable:
    def __init__(self, factory: Callable[[], Any]) -> None:
        self.factory = factory

    def __iter__(self):
        return self.factory()


class _CancelsAtTwo(TestSubscriber[Any]):
    """Cancels inside its second on_next: no row may be polled after that."""

    def on_next(self, item: Any) -> None:
        super().on_next(item)
        if len(self.values()) == 2:
            self.cancel()


def _zipper(kind: str, log: list[str]) -> Callable[..., Any] | None:
    rows = itertools.count()

    def zipper(*xs: int) -> Any:
        k = next(rows)
        log.append(f"zipper {xs}")
        if kind == "raises" and k == 2:
            raise KeyError("zipper")
        if kind == "none" and k == 2:
            return None
        return sum(xs)
    return None if kind == "tuple" else zipper


def _run(lengths: tuple[int, ...], fails: tuple[int | None, ...], zipper: str,
         demand: str, general_only: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    if general_only:
        monkeypatch.setattr(ZipCoordinator, "drain_sync", lambda self, r: 0)
    log: list[str] = []
    sources = [_source(log, chr(97 + i), n, f) for i, (n, f) in enumerate(zip(lengths, fails, strict=True))]
    z = Flowable.zip(*sources, zipper=_zipper(zipper, log))
    if demand == "lambda raises":
        seen = itertools.count()

        def on_next(v: Any) -> None:
            log.append(f"next {v}")
            if next(seen) == 1:
                raise OSError("consumer")
        z.subscribe(on_next, lambda e: log.append(f"error {e!r}"), lambda: log.append("complete"))
        monkeypatch.undo()
        return log
    ts: TestSubscriber[Any] = _CancelsAtTwo(0) if demand == "cancel in on_next" else TestSubscriber(0)
    z.subscribe(ts)
    if demand in ("unbounded", "cancel in on_next"):
        ts.request(1 << 62)
    elif demand == "ones":
        for _ in range(8):
            log.append("request 1")
            ts.request(1)
    elif demand == "exact":  # as many as the shortest has: does the end need more demand?
        n = max(min(lengths), 1)
        log.append(f"request {n}")
        ts.request(n)
    elif demand == "cancel":
        ts.request(2)
        log.append("cancel")
        ts.cancel()
        ts.request(5)
    log.append(f"values {ts.values()}")
    log.append(f"errors {[repr(e) for e in ts.errors()]}")
    log.append(f"completions {ts.completions()}")
    monkeypatch.undo()
    return log


@pytest.mark.parametrize("lengths,fails", [
    ((5, 5), (None, None)), ((3, 7), (None, None)), ((7, 3), (None, None)),
    ((0, 4), (None, None)), ((5, 5), (2, None)), ((5, 5), (None, 3)), ((5, 5), (0, None)),
    ((4, 6, 5), (None, None, None)), ((6, 6, 6), (None, 2, None)), ((6, 6, 6), (None, None, 0)),
    ((6, 2, 6), (None, None, None))])
@pytest.mark.parametrize("zipper", ["tuple", "sum", "raises", "none"])
@pytest.mark.parametrize("demand", ["unbounded", "ones", "exact", "cancel", "cancel in on_next",
                                    "lambda raises"])
def test_rows_equal_the_general_loop(lengths, fails, zipper, demand, monkeypatch):
    rows = _run(lengths, fails, zipper, demand, False, monkeypatch)
    general = _run(lengths, fails, zipper, demand, True, monkeypatch)
    assert rows == general


def test_the_rows_path_is_taken(monkeypatch):
    # the comparison above means something only if drain_sync emits the rows
    taken: list[int] = []
    original = ZipCoordinator.drain_sync

    def counted(self: ZipCoordinator[Any], r: int) -> int:
        e = original(self, r)
        taken.append(e)
        return e

    monkeypatch.setattr(ZipCoordinator, "drain_sync", counted)
    Flowable.zip(Flowable.range(0, 100), Flowable.range(0, 50)).test().assert_value_count(50)
    assert sum(taken) == 50
