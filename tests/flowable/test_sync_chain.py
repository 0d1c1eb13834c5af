"""Macro fusion: a synchronous source and its map/filter/take/... stages as one FlowableSyncChain.

The central check is equivalence: every chain, under every demand script, must
give the signals the separate operators give (built with ``hide()`` between the
stages, which blocks both kinds of fusion), and must read the source iterator
exactly as often, at the same moments (a recording iterable logs each ``next``
interleaved with the consumer's requests).
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from probes import Boom
from probes import boom

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.helpers.stage_compiler import source_text
from rxpy2._internal.operators.flowable.flowable_filter import FlowableFilter
from rxpy2._internal.operators.flowable.flowable_map import FlowableMap
from rxpy2._internal.operators.flowable.flowable_map_filter import FlowableMapFilter
from rxpy2._internal.operators.flowable.flowable_sync_chain import MAX_STAGES
from rxpy2._internal.operators.flowable.flowable_sync_chain import FlowableSyncChain
from rxpy2._internal.operators.flowable.flowable_take import FlowableTake
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber

# ---------------------------------------------------------------------------- helpers


class Log:
    """One shared event log: the source's pulls and the consumer's requests, in order."""

    def __init__(self) -> None:
        self.events: list[Any] = []


class RecordingIterable:
    """Each ``iter()`` logs ("iter",); each item read logs ("pull", item)."""

    def __init__(self, items: list[Any], log: Log) -> None:
        self.items = items
        self.log = log

    def __iter__(self) -> Any:
        self.log.events.append(("iter",))
        for x in self.items:
            self.log.events.append(("pull", x))
            yield x


class Script(FlowableSubscriber[Any]):
    """Requests per a script: ints are requests made at subscription (first) and then
    each time all outstanding demand was delivered; "cancel@k" cancels at the k-th item."""

    def __init__(self, script: list[Any], log: Log, cancel_at: int | None = None) -> None:
        self.script = list(script)
        self.log = log
        self.cancel_at = cancel_at
        self.signals: list[Any] = []
        self.outstanding = 0
        self.s: Any = None

    def _next_request(self) -> None:
        while self.script and self.outstanding == 0:
            n = self.script.pop(0)
            self.outstanding += n if n != LONG_MAX else 10**18
            self.log.events.append(("request", n))
            self.s.request(n)

    def on_subscribe(self, s: Any) -> None:
        self.s = s
        self._next_request()

    def on_next(self, item: Any) -> None:
        self.signals.append(item)
        self.log.events.append(("item", item))
        self.outstanding -= 1
        if self.cancel_at is not None and len(self.signals) == self.cancel_at:
            self.log.events.append(("cancel",))
            self.s.cancel()
            return
        self._next_request()

    def on_error(self, error: BaseException) -> None:
        self.signals.append(("error", type(error).__name__, str(error)))

    def on_complete(self) -> None:
        self.signals.append("complete")


def _source(kind: str, items: list[Any], log: Log) -> Flowable[Any]:
    if kind == "range":
        return Flowable.range(items[0], len(items))
    if kind == "array":
        return Flowable.from_array(list(items))
    return Flowable.from_iterable(RecordingIterable(items, log))


def _apply(f: Flowable[Any], stages: list[tuple[str, Any]], hide: bool) -> Flowable[Any]:
    for kind, arg in stages:
        if hide:
            f = f.hide()
        f = getattr(f, kind)(arg)
    return f


def _fuses(kind: str, items: list[Any], stages: list[tuple[str, Any]]) -> bool:
    """skip(n) joins a chain only as its first stage over a range longer than n: it asks
    for its n items at subscription (RxJava 2), which a chain, run under demand, cannot."""
    return all(k != "skip" or (i == 0 and kind == "range" and len(items) > n)
               for i, (k, n) in enumerate(stages))


def _run(kind: str, items: list[Any], stages: list[tuple[str, Any]], script: list[Any],
         hide: bool, cancel_at: int | None = None) -> tuple[list[Any], list[Any]]:
    log = Log()
    f = _apply(_source(kind, items, log), stages, hide)
    if not hide and stages and _fuses(kind, items, stages):
        assert isinstance(f, FlowableSyncChain), f
    sub = Script(script, log, cancel_at)
    f.subscribe(sub)
    return sub.signals, log.events


def _same(kind: str, items: list[Any], stages: list[tuple[str, Any]], script: list[Any],
          cancel_at: int | None = None) -> None:
    fused = _run(kind, items, stages, script, False, cancel_at)
    plain = _run(kind, items, stages, script, True, cancel_at)
    assert fused[0] == plain[0], "signals differ"
    assert fused[1] == plain[1], "source reads / requests differ"


def is_odd(x: int) -> bool:
    return x % 2 == 1


def below(n: int) -> Any:
    return lambda x: x < n


def plus(k: int) -> Any:
    return lambda x: x + k


STAGE_CHOICES: list[Any] = [
    ("map", plus(1)), ("map", lambda x: x * 3), ("filter", is_odd), ("filter", lambda x: x % 3 != 0),
    ("do_on_next", lambda x: None), ("take", 1), ("take", 4), ("take", 50), ("skip", 1), ("skip", 3),
    ("take_while", below(40)), ("skip_while", below(5)),
]
SCRIPTS = [[LONG_MAX], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [2, 3, 1000], [7, LONG_MAX], [1, 100]]


# ---------------------------------------------------------------------------- assembly


def test_stages_over_a_sync_source_assemble_into_one_chain() -> None:
    f = Flowable.range(0, 10).skip(1).map(plus(1)).filter(is_odd).take(3)
    assert isinstance(f, FlowableSyncChain)
    assert [k.name for k, _ in f.stages] == ["skip", "map", "filter", "take"]
    assert repr(f) == "range(0, 10) → skip(1) → map(<lambda>) → filter(is_odd) → take(3)"
    for src in (Flowable.just(1), Flowable.from_array([1, 2]), Flowable.from_iterable([1, 2]),
                Flowable.from_array((1, 2)), Flowable.just(1, 2)):
        assert isinstance(src.map(plus(1)), FlowableSyncChain), src


def test_other_sources_and_stages_do_not_form_a_chain() -> None:
    # skip(n) requests its n items at subscription: only over a longer bare range may a
    # chain (which runs under demand) skip them later, unobserved
    assert not isinstance(Flowable.range(0, 5).map(plus(1)).skip(1), FlowableSyncChain)
    assert not isinstance(Flowable.from_iterable([1, 2]).skip(1), FlowableSyncChain)
    assert not isinstance(Flowable.range(0, 3).skip(3), FlowableSyncChain)
    assert not isinstance(Flowable.range(0, 5).hide().map(plus(1)), FlowableSyncChain)
    # scan_with's seed is supplied per subscription (scan(f, seed), skip_last, buffer(count)
    # and distinct_until_changed(key, comparer) do join: tests/fusion/test_fused_holding_stages)
    assert not isinstance(Flowable.range(0, 5).scan_with(lambda: 0, lambda a, b: a + b),
                          FlowableSyncChain)
    # take(0) keeps the operator's own behaviour (completes at subscription)
    assert not isinstance(Flowable.range(0, 5).take(0), FlowableSyncChain)


def test_each_intermediate_chain_stays_usable() -> None:
    a = Flowable.range(0, 6).map(plus(10))
    b = a.filter(is_odd)
    assert a.test().values() == [10, 11, 12, 13, 14, 15]
    assert b.test().values() == [11, 13, 15]
    assert a.test().values() == [10, 11, 12, 13, 14, 15]


def test_a_chain_longer_than_the_cap_continues_with_operators() -> None:
    f: Flowable[int] = Flowable.range(0, 3)
    for _ in range(MAX_STAGES + 5):
        f = f.map(plus(1))
    assert not isinstance(f, FlowableSyncChain)
    assert f.test().values() == [MAX_STAGES + 5, MAX_STAGES + 6, MAX_STAGES + 7]


def test_many_filters_nest_within_the_cap() -> None:
    f: Flowable[int] = Flowable.range(0, 100)
    for _ in range(MAX_STAGES):
        f = f.filter(lambda x: x >= 0)
    assert isinstance(f, FlowableSyncChain)
    assert f.test().values() == list(range(100))


def test_the_generated_loop_is_readable_text() -> None:
    text = source_text([(FlowableMap.STAGE, None), (FlowableFilter.STAGE, None),
                        (FlowableTake.STAGE, 3)], "plain")
    assert "x = f0(x)" in text and "if f1(x):" in text and "s2 -= 1" in text


def test_consecutive_map_filter_over_other_sources_collapse_into_one_stage() -> None:
    f = Flowable.range(0, 10).hide().map(plus(1)).filter(is_odd).map(lambda x: x * 2)
    assert isinstance(f, FlowableMapFilter)
    assert [k.name for k, _ in f.stages] == ["map", "filter", "map"]
    assert f.test().values() == [2, 6, 10, 14, 18]


# ---------------------------------------------------------------------------- equivalence


@pytest.mark.parametrize("kind", ["range", "array", "iterable"])
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: "-".join(map(str, s)))
@pytest.mark.parametrize("stages", [
    [("map", plus(1))],
    [("filter", is_odd)],
    [("map", plus(1)), ("filter", is_odd)],
    [("take", 4)],
    [("filter", is_odd), ("take", 3), ("map", plus(100))],
    [("take", 3), ("filter", is_odd)],
    [("skip", 3), ("take_while", below(12))],
    [("skip_while", below(4)), ("do_on_next", lambda x: None), ("take", 5)],
    [("take_while", below(0))],
    [("take", 20)],  # exactly the source's length
], ids=lambda st: "+".join(k for k, _ in st))
def test_fused_and_operator_chains_agree(kind: str, script: list[Any],
                                         stages: list[tuple[str, Any]]) -> None:
    _same(kind, list(range(20)), stages, script)


def test_random_chains_agree_with_the_operators() -> None:
    rnd = random.Random(20261122)
    for _ in range(300):
        stages = [rnd.choice(STAGE_CHOICES) for _ in range(rnd.randint(1, 6))]
        if all(k == "take" and a == 0 for k, a in stages):
            continue
        kind = rnd.choice(["range", "array", "iterable"])
        n = rnd.randint(1, 30)
        script = rnd.choice(SCRIPTS)
        cancel_at = rnd.choice([None, None, 1, 3])
        _same(kind, list(range(n)), stages, script, cancel_at)


@pytest.mark.parametrize("kind", ["array", "iterable"])
@pytest.mark.parametrize("script", [[LONG_MAX], [1, 1, 1, 1, 1], [2, 10]])
def test_a_none_item_of_the_source_is_the_same_error(kind: str, script: list[Any]) -> None:
    _same(kind, [1, 2, None, 4], [("map", plus(1))], script)
    fused, _ = _run(kind, [1, 2, None, 4], [("map", plus(1))], [LONG_MAX], False)
    assert fused[-1][0] == "error" and fused[-1][1] == "TypeError"


@pytest.mark.parametrize("script", [[LONG_MAX], [1, 1, 1, 1, 1]])
@pytest.mark.parametrize("stages", [
    [("map", lambda x: None if x == 2 else x), ("filter", is_odd)],
    [("map", lambda x: 1 // (2 - x))],
    [("filter", lambda x: 1 // (2 - x) is not None)],
    [("take_while", lambda x: 1 // (2 - x) > -5)],
    [("skip_while", lambda x: 1 // (2 - x) >= 0), ("map", plus(1))],
    [("do_on_next", lambda x: 1 // (2 - x))],
], ids=["none", "map", "filter", "take_while", "skip_while", "do_on_next"])
def test_a_failing_stage_is_the_same_error(script: list[Any], stages: list[Any]) -> None:
    _same("iterable", list(range(6)), stages, script)
    signals, _ = _run("range", list(range(6)), stages, script, False)
    assert signals[-1][0] == "error"


@pytest.mark.parametrize("cancel_at", [1, 2, 4])
@pytest.mark.parametrize("stages", [
    [("map", plus(1))], [("filter", is_odd), ("map", plus(1))], [("take", 4)], [("take", 2)],
], ids=lambda st: "+".join(k for k, _ in st) if isinstance(st, list) else st)
def test_cancel_inside_on_next_reads_no_further(cancel_at: int, stages: list[Any]) -> None:
    for script in ([LONG_MAX], [1, 1, 1, 1, 1, 1], [3, 3]):
        _same("iterable", list(range(10)), stages, script, cancel_at)


# ---------------------------------------------------------------------------- direct sink


def test_subscribe_with_functions_gets_every_item_and_completion() -> None:
    out: list[Any] = []
    Flowable.range(0, 1000).map(plus(1)).filter(is_odd).subscribe(out.append, None,
                                                                   lambda: out.append("done"))
    assert out == [x for x in range(1, 1001) if x % 2] + ["done"]


def test_a_raising_on_next_function_cancels_and_goes_to_on_error() -> None:
    pulled: list[int] = []
    errors: list[BaseException] = []

    def gen() -> Any:
        for i in range(10):
            pulled.append(i)
            yield i

    def consume(x: int) -> None:
        if x == 3:
            raise Boom()

    Flowable.from_iterable(gen()).map(plus(1)).subscribe(consume, errors.append)
    assert [type(e) for e in errors] == [Boom]
    assert pulled == [0, 1, 2]


def test_disposing_inside_on_next_stops_the_loop() -> None:
    out: list[int] = []
    holder: list[Any] = []

    def consume(x: int) -> None:
        out.append(x)
        if x == 4:
            holder[0].dispose()

    holder.append(None)
    f = Flowable.range(0, 100).map(plus(0))
    # subscribe returns the Disposable only after the synchronous run; take it from on_subscribe
    from rxpy2._internal.subscribers.lambda_subscriber import LambdaSubscriber
    ls = LambdaSubscriber(consume, None, lambda: out.append(-1))
    holder[0] = ls
    f.subscribe(ls)
    assert out == [0, 1, 2, 3, 4]


def test_a_stage_error_reaches_the_on_error_function() -> None:
    errors: list[BaseException] = []
    done: list[bool] = []
    Flowable.range(0, 5).map(boom).subscribe(lambda x: None, errors.append,
                                              lambda: done.append(True))
    assert len(errors) == 1 and not done


# ---------------------------------------------------------------------------- fusion


def test_a_sync_fused_consumer_polls_the_chain() -> None:
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(ANY)
    Flowable.range(0, 10).map(plus(1)).filter(is_odd).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 3, 5, 7, 9)


def test_a_chain_with_a_stage_rxjava_does_not_fuse_offers_no_fusion() -> None:
    """RxJava 2.2.21's take, skip, take_while and skip_while are plain Subscribers: a
    consumer asking for fusion gets NONE, so the chain behaves as those operators would."""
    for f in (Flowable.range(0, 10).map(plus(1)).filter(is_odd).take(3),
              Flowable.range(0, 10).take_while(lambda x: x < 6).filter(is_odd),
              Flowable.range(0, 10).skip_while(lambda x: x < 1).filter(is_odd).take(3)):
        ts: TestSubscriber[int] = TestSubscriber().with_fusion(ANY)
        f.subscribe(ts)
        ts.assert_fusion_mode(NONE).assert_result(1, 3, 5)


def test_boundary_refuses_fusion_over_user_code_only() -> None:
    class Probe(FlowableSubscriber[Any]):
        def __init__(self, mode: int) -> None:
            self.mode = mode
            self.granted = -1

        def on_subscribe(self, s: Any) -> None:
            self.granted = s.request_fusion(self.mode)
            s.cancel()

        def on_next(self, item: Any) -> None: ...

        def on_error(self, error: BaseException) -> None: ...

        def on_complete(self) -> None: ...

    # (chain, granted to ANY | BOUNDARY, granted to ANY): a take/skip chain offers nothing
    for f, with_boundary, without in ((Flowable.range(0, 5).map(plus(1)), NONE, SYNC),
                                      (Flowable.range(0, 5).take(3), NONE, NONE),
                                      (Flowable.range(0, 5).skip(1).take(3), NONE, NONE)):
        p = Probe(ANY | BOUNDARY)
        f.subscribe(p)
        assert p.granted == with_boundary, f
        p = Probe(ANY)
        f.subscribe(p)
        assert p.granted == without, f
        p = Probe(ASYNC)
        f.subscribe(p)
        assert p.granted == NONE, f


def test_poll_is_empty_and_clear() -> None:
    got: list[Any] = []

    class Poller(FlowableSubscriber[Any]):
        def on_subscribe(self, s: Any) -> None:
            assert s.request_fusion(SYNC) == SYNC
            got.append(s.is_empty())
            got.append(s.poll())
            got.append(s.poll())
            got.append(s.is_empty())
            s.clear()
            got.append(s.is_empty())
            got.append(s.poll())

        def on_next(self, item: Any) -> None: ...

        def on_error(self, error: BaseException) -> None: ...

        def on_complete(self) -> None: ...

    Flowable.from_iterable([1, 2, 3, 4]).map(plus(1)).subscribe(Poller())
    assert got == [False, 2, 3, False, True, None]


def test_is_empty_runs_no_stage_and_poll_raises_a_stage_error() -> None:
    got: list[Any] = []

    class Poller(FlowableSubscriber[Any]):
        def on_subscribe(self, s: Any) -> None:
            assert s.request_fusion(SYNC) == SYNC
            got.append(s.poll())
            got.append(s.is_empty())
            with pytest.raises(ZeroDivisionError):
                s.poll()
            got.append(s.poll())

        def on_next(self, item: Any) -> None: ...

        def on_error(self, error: BaseException) -> None: ...

        def on_complete(self) -> None: ...

    Flowable.range(0, 5).map(lambda x: 1 // (1 - x)).subscribe(Poller())
    assert got == [1, False, None]


def test_is_empty_keeps_an_iterator_error_for_the_next_poll() -> None:
    got: list[Any] = []

    def gen() -> Any:
        yield 1
        raise Boom()

    class Poller(FlowableSubscriber[Any]):
        def on_subscribe(self, s: Any) -> None:
            assert s.request_fusion(SYNC) == SYNC
            got.append(s.poll())
            got.append(s.is_empty())
            with pytest.raises(Boom):
                s.poll()
            got.append(s.poll())

        def on_next(self, item: Any) -> None: ...

        def on_error(self, error: BaseException) -> None: ...

        def on_complete(self) -> None: ...

    Flowable.from_iterable(gen()).map(plus(1)).subscribe(Poller())
    assert got == [2, False, None]


def test_poll_raises_a_stage_error() -> None:
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(SYNC)
    Flowable.range(0, 5).map(lambda x: 1 // (2 - x)).subscribe(ts)
    assert ts.values() == [0, 1]
    assert len(ts.errors()) == 1 and isinstance(ts.errors()[0], ZeroDivisionError)


@pytest.mark.usefixtures("shutdown_schedulers")
def test_observe_on_gets_the_chain_s_items_fused_or_not() -> None:
    from rxpy2.schedulers import Schedulers
    for f, expected in ((Flowable.range(0, 500).skip(2).take(300), list(range(2, 302))),
                        (Flowable.range(0, 500).map(plus(1)), list(range(1, 501)))):
        f.observe_on(Schedulers.single()).test().await_done(5).assert_result(*expected)


# ---------------------------------------------------------------------------- conditional


def test_a_conditional_downstream_is_used_for_dropped_items() -> None:
    # the filter after hide() is not part of the chain: it answers try_on_next to it
    seen: list[int] = []
    f = Flowable.range(0, 10).map(plus(1)).filter(is_odd)  # the chain
    f2 = Flowable.range(0, 10).map(plus(1)).do_on_next(seen.append).filter(is_odd)
    assert f.test(2).values() == [1, 3]
    ts = f2.test(2)
    assert ts.values() == [1, 3] and seen == [1, 2, 3]


# ---------------------------------------------------------------------------- threads


def test_requests_from_two_threads_deliver_each_item_once(race_runner: Any,
                                                          race_rounds: int) -> None:
    for _ in range(race_rounds // 10):
        ts: TestSubscriber[int] = TestSubscriber(0)
        Flowable.range(0, 40).map(plus(1)).filter(lambda x: x % 5 != 0).subscribe(ts)
        race_runner.race(lambda ts=ts: ts.request(7), lambda ts=ts: ts.request(9))
        ts.request(100)
        ts.assert_result(*[x for x in range(1, 41) if x % 5 != 0])


def test_cancel_from_another_thread_stops_the_stream(race_runner: Any, race_rounds: int) -> None:
    for _ in range(race_rounds // 10):
        ts: TestSubscriber[int] = TestSubscriber(0)
        Flowable.range(0, 1000).map(plus(1)).subscribe(ts)
        race_runner.race(lambda ts=ts: ts.request(LONG_MAX), ts.cancel)
        n = len(ts.values())
        assert ts.values() == list(range(1, n + 1))
        assert ts.completions() in (0, 1) and (ts.completions() == 0 or n == 1000)
        assert not ts.errors()


def test_subscriptions_are_independent_across_threads() -> None:
    f = Flowable.range(0, 2000).map(plus(1)).filter(is_odd).take(500)
    results: list[list[int]] = []

    def run() -> None:
        results.append(f.test().values())

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = [x for x in range(1, 2001) if x % 2][:500]
    assert results == [expected] * 4


def test_deep_synchronous_reentrant_requests_use_no_stack() -> None:
    class OneByOne(FlowableSubscriber[int]):
        def __init__(self) -> None:
            self.n = 0
            self.done = False

        def on_subscribe(self, s: Any) -> None:
            self.s = s
            s.request(1)

        def on_next(self, item: int) -> None:
            self.n += 1
            self.s.request(1)

        def on_error(self, error: BaseException) -> None:
            raise error

        def on_complete(self) -> None:
            self.done = True

    sub = OneByOne()
    Flowable.range(0, 50_000).map(plus(1)).filter(lambda x: True).subscribe(sub)
    assert sub.n == 50_000 and sub.done


def test_sync_fused_poll_passes_a_functions_stop_iteration_on() -> None:
    """A map function raising StopIteration inside the SYNC-fused chain (polled as a
    generator, where PEP 479 turns it into RuntimeError) reaches the consumer as the
    StopIteration it is, as from the unfused operator."""
    def f(x: int) -> int:
        if x == 2:
            raise StopIteration("stop")
        return x

    for source in (Flowable.range(0, 5), Flowable.range(0, 5).hide()):
        ts = Flowable.zip(source.map(f), Flowable.range(0, 5)).test()  # zip polls SYNC
        ts.assert_error(StopIteration).assert_not_complete()


def test_skip_first_items_come_after_on_subscribe_returns_as_the_operator() -> None:
    """RxJava 2's skip asks for its n items after its downstream's on_subscribe returned, so
    a request made inside on_subscribe gets its items only then: a consumer that requests
    again whenever its demand is used up sees the same requests fused as with the operators."""
    stages = [("skip", 1), ("skip_while", below(5)), ("map", plus(1))]
    _same("range", list(range(23)), stages, [1] * 10, 3)
    for script in ([1] * 10, [2, 3, 1000], [LONG_MAX], [7, LONG_MAX]):
        for cancel_at in (None, 1, 3):
            _same("range", list(range(23)), [("skip", 2), ("map", plus(1))], script, cancel_at)


def test_random_skip_first_chains_agree_with_the_operators() -> None:
    rnd = random.Random(20261125)
    for _ in range(300):
        stages = [("skip", rnd.choice([1, 3]))]
        stages += [rnd.choice(STAGE_CHOICES) for _ in range(rnd.randint(0, 5))]
        n = rnd.randint(4, 30)
        _same("range", list(range(n)), stages, rnd.choice(SCRIPTS),
              rnd.choice([None, None, 1, 3]))
