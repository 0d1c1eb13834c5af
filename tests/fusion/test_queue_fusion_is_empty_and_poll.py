"""Queue fusion at its edges: what ``is_empty()`` and ``poll()`` owe a SYNC or ASYNC
consumer (each case found by the fused-vs-unfused comparison).

* ``is_empty()`` at the end of a SYNC source: a consumer that finds the end there
  (observe_on's SYNC loop, flat_map_iterable's drain) never polls ``None``, so
  do_finally's action and do_on_each's ``on_complete`` must run there too.
* ``is_empty()`` must not raise: from_iterable and flat_map_iterable read ahead
  there; an iterator error is kept for the next ``poll``.
* distinct fused in ASYNC mode: its consumer polls after the terminal signal, so
  the keys seen must outlive it.
"""

from __future__ import annotations

from typing import Any

from probes import FusionConsumer

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import SYNC
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers


def _failing_iterable(good: int) -> Any:
    class It:
        def __init__(self) -> None:
            self.i = 0

        def __iter__(self) -> It:
            return self

        def __next__(self) -> int:
            self.i += 1
            if self.i > good:
                raise RuntimeError(f"iterator failed after {good}")
            return self.i
    return It()


# ---------------------------------------------------------------------------- end via is_empty


def test_do_finally_runs_when_a_sync_consumer_finds_the_end_with_is_empty() -> None:
    calls: list[str] = []
    ts = Flowable.range(1, 2).do_finally(lambda: calls.append("finally")) \
        .flat_map_iterable(lambda x: [x]).test(0)
    ts.request(2)  # the demand is used up by the last item: the end is found by is_empty
    ts.assert_values(1, 2).assert_complete()
    assert calls == ["finally"]


def test_do_finally_is_empty_runs_the_action_once_at_the_sync_end() -> None:
    calls: list[str] = []
    c = FusionConsumer(SYNC)
    Flowable.range(1, 2).do_finally(lambda: calls.append("finally")).subscribe(c)
    c.request(2)
    assert c.signals == [("next", 1), ("next", 2), ("complete",)]
    assert calls == ["finally"]
    c.request(1)  # polls None now: no second run
    assert calls == ["finally"]


def test_do_on_complete_runs_when_a_sync_consumer_finds_the_end_with_is_empty() -> None:
    calls: list[str] = []
    c = FusionConsumer(SYNC)
    Flowable.range(1, 2).do_on_complete(lambda: calls.append("complete")) \
        .do_after_terminate(lambda: calls.append("after")).subscribe(c)
    c.request(2)
    assert c.signals == [("next", 1), ("next", 2), ("complete",)]
    assert calls == ["complete", "after"]


def test_do_on_complete_raising_at_the_is_empty_end_is_raised_by_the_next_poll() -> None:
    def fail() -> None:
        raise ValueError("on_complete")

    c = FusionConsumer(SYNC)
    Flowable.just(1).do_on_complete(fail).subscribe(c)
    c.request(1)
    assert c.signals == [("next", 1)]  # is_empty answered "not empty": no completion
    c.request(1)
    assert c.signals == [("next", 1), ("error", "ValueError", "on_complete")]


# ---------------------------------------------------------------------------- is_empty never raises


def test_from_iterable_is_empty_keeps_the_iterator_error_for_poll() -> None:
    c = FusionConsumer(SYNC)
    Flowable.from_iterable(_failing_iterable(1)).subscribe(c)
    c.request(1)  # polls 1, then is_empty reads ahead and meets the error
    assert c.signals == [("next", 1)]
    c.request(1)
    assert c.signals == [("next", 1), ("error", "RuntimeError", "iterator failed after 1")]


def test_observe_on_over_from_iterable_delivers_an_error_met_by_is_empty() -> None:
    ts = Flowable.from_iterable(_failing_iterable(1)).observe_on(Schedulers.trampoline()).test(0)
    ts.request(1)
    ts.assert_values(1).assert_no_errors()
    ts.request(1)
    ts.assert_values(1).assert_error(RuntimeError)  # not lost in the scheduler's worker


def test_flat_map_iterable_is_empty_keeps_the_inner_iterator_error_for_poll() -> None:
    c2 = FusionConsumer(SYNC)
    Flowable.range(0, 2).flat_map_iterable(lambda _: _failing_iterable(1)).subscribe(c2)
    assert c2.granted == SYNC
    c2.request(1)  # polls 1, then is_empty reads the inner iterator ahead: it raises
    assert c2.signals == [("next", 1)]
    c2.request(1)
    assert c2.signals == [("next", 1), ("error", "RuntimeError", "iterator failed after 1")]


# ---------------------------------------------------------------------------- distinct, ASYNC fused


def test_distinct_async_fused_keeps_its_keys_after_the_terminal_signal() -> None:
    up: UnicastProcessor[int] = UnicastProcessor()
    for x in (3, 3, 1, 3, 1, 2):
        up.on_next(x)
    up.on_complete()  # the completion passes distinct before its consumer polls
    c = FusionConsumer(ASYNC)
    up.distinct().subscribe(c)
    assert c.granted == ASYNC
    c.request(LONG_MAX)
    assert c.signals == [("next", 3), ("next", 1), ("next", 2), ("complete",)]


def test_distinct_async_fused_under_concat_map() -> None:
    up: UnicastProcessor[int] = UnicastProcessor()
    for x in (3, 3, 1, 4):
        up.on_next(x)
    up.on_complete()
    ts = up.distinct(lambda x: x % 3).concat_map(lambda x: Flowable.just(x).hide()).test()
    ts.assert_values(3, 1).assert_complete()
