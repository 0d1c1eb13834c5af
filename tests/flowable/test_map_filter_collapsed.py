"""map/filter stages over a source that does not fuse are one stage (FlowableMapFilter),
whose on_next runs the stages inline (the compiled ``push``). It must do what the
operators one by one do: the same items, request amounts at the source (a dropped item
replaced with request(1)), errors, cancellation. Each case runs collapsed
(``src.hide().map(f).filter(p)...``) and one by one (a ``hide()`` between the stages) and
compares the logs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2._internal.operators.flowable.flowable_map_filter import FlowableMapFilter
from rxpy2.testing import TestSubscriber


def _stages(log: list[str], kind: str) -> list[tuple[str, Callable[[int], Any]]]:
    def f(x: int) -> Any:
        log.append(f"f {x}")
        if kind == "map raises" and x == 4:
            raise KeyError("f")
        if kind == "map returns None" and x == 4:
            return None
        return x * 3

    def p(x: int) -> bool:
        log.append(f"p {x}")
        if kind == "filter raises" and x == 9:
            raise LookupError("p")
        return x % 2 == 0

    def g(x: int) -> int:
        log.append(f"g {x}")
        return x + 1
    return [("map", f), ("filter", p), ("map", g)]


def _chain(src: Flowable[int], stages: list[tuple[str, Callable[[int], Any]]],
           collapsed: bool) -> Flowable[Any]:
    f: Flowable[Any] = src.hide()
    for name, fn in stages:
        f = f.map(fn) if name == "map" else f.filter(fn)
        if not collapsed:
            f = f.hide()
    return f


def _run(kind: str, demand: str, collapsed: bool) -> list[str]:
    log: list[str] = []
    src = Flowable.range(0, 12).do_on_request(lambda n: log.append(f"request {n}")) \
        .do_on_cancel(lambda: log.append("cancel"))
    chain = _chain(src, _stages(log, kind), collapsed)
    if collapsed:
        assert isinstance(chain, FlowableMapFilter)
    if demand == "subscribe(f)":
        def consume(v: int) -> None:
            log.append(f"next {v}")
            if v == 19:
                raise OSError("consumer")
        chain.subscribe(consume, lambda e: log.append(f"error {e!r}"),
                        lambda: log.append("complete"))
        return log
    ts: TestSubscriber[Any] = TestSubscriber(0)
    chain.subscribe(ts)
    if demand == "unbounded":
        ts.request(1 << 62)
    elif demand == "one by one":
        for _ in range(8):
            ts.request(1)
    elif demand == "cancel":
        ts.request(2)
        ts.cancel()
        ts.request(3)
    log.append(f"values {ts.values()} errors {[repr(e) for e in ts.errors()]} "
               f"completions {ts.completions()}")
    return log


@pytest.mark.parametrize("kind", ["plain", "map raises", "map returns None", "filter raises"])
@pytest.mark.parametrize("demand", ["unbounded", "one by one", "cancel", "subscribe(f)"])
def test_collapsed_stages_do_what_the_operators_do(kind, demand):
    collapsed = _run(kind, demand, True)
    one_by_one = _run(kind, demand, False)
    assert collapsed == one_by_one


def test_a_none_item_from_a_broken_upstream_raises_to_it():
    from probes import ManualSource

    src = ManualSource()
    got: list[int] = []
    src.hide().map(lambda x: x + 1).filter(lambda x: x > 0).subscribe(got.append)
    src.emit(1)
    with pytest.raises(TypeError, match="2.13"):
        src.emit(None)
    assert got == [2]
