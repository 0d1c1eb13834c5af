"""to_serialized(): every processor fed from several threads at once."""

from __future__ import annotations

from functools import partial

import pytest
from probes import ManualSource
from processor_probes import SerialChecker
from processor_probes import emit
from processor_probes import feed_from_two_threads
from processor_probes import race

from rxpy2 import AsyncProcessor
from rxpy2 import BehaviorProcessor
from rxpy2 import PublishProcessor
from rxpy2 import ReplayProcessor
from rxpy2 import UnicastProcessor
from rxpy2.processors import SerializedProcessor
from rxpy2.reactivestreams import LONG_MAX

FACTORIES = {
    "publish": PublishProcessor.create,
    "behavior": BehaviorProcessor.create,
    "replay": ReplayProcessor.create,
    "replay_size": lambda: ReplayProcessor.create_with_size(4),
    "unicast": UnicastProcessor.create,
}


def test_to_serialized_wraps_once_and_delegates_state():
    pp = PublishProcessor.create()
    sp = pp.to_serialized()
    assert isinstance(sp, SerializedProcessor)
    assert sp.to_serialized() is sp
    assert not sp.has_subscribers()
    ts = sp.test()
    assert sp.has_subscribers() and pp.has_subscribers()
    e = ValueError()
    sp.on_error(e)
    ts.assert_failure(e)
    assert sp.has_throwable() and sp.get_throwable() is e and not sp.has_complete()


def test_none_raises_type_error():
    sp = PublishProcessor.create().to_serialized()
    ts = sp.test()
    with pytest.raises(TypeError):
        sp.on_next(None)
    with pytest.raises(TypeError):
        sp.on_error(None)
    with pytest.raises(TypeError):
        sp.on_subscribe(None)
    ts.assert_empty()


def test_signals_after_termination(plugin_errors):
    sp = ReplayProcessor.create().to_serialized()
    sp.on_next(1)
    sp.on_complete()
    sp.on_next(2)
    sp.on_complete()
    e = ValueError()
    sp.on_error(e)
    sp.test().assert_result(1)
    assert plugin_errors.causes() == [e]


def test_on_subscribe_forwards_and_cancels_after_termination():
    sp = PublishProcessor.create().to_serialized()
    src = ManualSource()
    src.subscribe(sp)
    assert src.requests == [LONG_MAX]
    sp.on_complete()
    late = ManualSource()
    late.subscribe(sp)
    assert late.cancelled


@pytest.mark.parametrize("kind", FACTORIES)
def test_on_next_from_two_threads(race_runner, race_rounds, kind):
    for _ in range(race_rounds // 40):
        sp = FACTORIES[kind]().to_serialized()
        sub = SerialChecker()
        sp.subscribe(sub)
        feed_from_two_threads(race_runner, sp, 50)
        sp.on_complete()
        assert sub.problems == []
        assert sorted(sub.values) == list(range(100))
        assert [v for v in sub.values if v < 50] == list(range(50))  # each thread's order kept
        assert sub.completions == 1 and sub.errors == []


@pytest.mark.parametrize("kind", ["publish", "behavior"])
def test_without_serialization_the_checker_sees_overlaps(race_runner, race_rounds, kind):
    """The negative control: the same feeding without to_serialized() overlaps (so the test
    above would notice a broken serializer)."""
    overlaps = 0
    for _ in range(race_rounds // 40):
        p = FACTORIES[kind]()
        sub = SerialChecker()
        p.subscribe(sub)
        feed_from_two_threads(race_runner, p, 50)
        overlaps += len(sub.problems)
    assert overlaps > 0


def test_error_vs_on_next_from_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 8):
        sp = PublishProcessor.create().to_serialized()
        sub = SerialChecker()
        sp.subscribe(sub)
        e = ValueError()
        race(race_runner, partial(emit, sp, range(5)), partial(sp.on_error, e))
        sp.on_next(99)
        assert sub.problems == []
        assert sub.errors == [e] and sub.completions == 0
        assert sub.values == list(range(len(sub.values)))  # a prefix, nothing after the error


def test_complete_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 8):
        sp = BehaviorProcessor.create().to_serialized()
        sub = SerialChecker()
        sp.subscribe(sub)
        race(race_runner, sp.on_complete, sp.on_complete)
        assert sub.completions == 1 and sub.problems == []


def test_async_processor_from_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 40):
        sp = AsyncProcessor.create().to_serialized()
        sub = SerialChecker()
        sp.subscribe(sub)
        feed_from_two_threads(race_runner, sp, 20)
        sp.on_complete()
        assert sub.problems == [] and len(sub.values) == 1 and sub.completions == 1
        assert sub.values[0] in (19, 39)  # the last item of one of the threads
