"""amb / amb_array / amb_with: the first source to signal wins; requests; cancellation; races."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Spy

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX


def sources(n):
    return [ManualSource() for _ in range(n)]


@pytest.fixture(params=["amb", "amb_array"])
def amb(request):
    """Flowable.amb(list) or Flowable.amb_array(*sources)."""
    if request.param == "amb":
        return lambda ss: Flowable.amb(ss)
    return lambda ss: Flowable.amb_array(*ss)


# ----------------------------------------------------------------- winning


@pytest.mark.parametrize("winner", [0, 1, 2])
def test_first_to_emit_wins_and_the_others_are_cancelled(amb, winner):
    ss = sources(3)
    ts = amb(ss).test()
    assert [s.subscriptions for s in ss] == [1, 1, 1]
    ss[winner].emit(1)
    for i, s in enumerate(ss):
        if i != winner:
            s.emit(99)
            s.complete()
    ss[winner].emit(2)
    ss[winner].complete()
    ts.assert_result(1, 2).assert_protocol_ok()
    assert [s.cancels for s in ss] == [0 if i == winner else 1 for i in range(3)]


def test_error_first_wins(amb):
    ss = sources(3)
    ts = amb(ss).test()
    e = ValueError("first")
    ss[1].error(e)
    ss[0].emit(1)
    ts.assert_failure(e)
    assert [s.cancels for s in ss] == [1, 0, 1]


def test_completion_first_wins(amb):
    ss = sources(2)
    ts = amb(ss).test()
    ss[1].complete()
    ss[0].emit(1)
    ts.assert_result()
    assert [s.cancels for s in ss] == [1, 0]


def test_losing_error_goes_to_plugins(amb, plugin_errors):
    ss = sources(2)
    ts = amb(ss).test()
    ss[0].emit(1)
    e = ValueError("lost")
    ss[1].error(e)
    ts.assert_values(1).assert_not_terminated()
    assert plugin_errors == [e]


def test_synchronous_winner_stops_subscribing(amb):
    ss = sources(2)
    ts = amb([Flowable.just(7), *ss]).test()
    ts.assert_result(7)
    assert [s.subscriptions for s in ss] == [0, 0]


def test_synchronous_sources():
    Flowable.amb_array(Flowable.range(1, 3), Flowable.range(10, 3)).test().assert_result(1, 2, 3)
    Flowable.amb_array(Flowable.never(), Flowable.range(10, 3)).test().assert_result(10, 11, 12)
    Flowable.range(1, 2).amb_with(Flowable.never()).test().assert_result(1, 2)
    Flowable.never().amb_with(Flowable.range(1, 2)).test().assert_result(1, 2)


# ----------------------------------------------------------------- requests


def test_requests_before_the_win_reach_every_source_after_only_the_winner(amb):
    ss = sources(3)
    ts = amb(ss).test(0)
    assert [s.requests for s in ss] == [[], [], []]
    ts.request(3)
    assert [s.requests for s in ss] == [[3], [3], [3]]
    ss[2].emit(1)
    ts.request(2)
    assert [s.requests for s in ss] == [[3], [3], [3, 2]]
    ts.assert_values(1)


def test_requests_before_subscription_are_deferred(amb):
    """The downstream requests in on_subscribe, before any source is subscribed to."""
    ss = sources(2)
    amb(ss).test(5)
    assert [s.requests for s in ss] == [[5], [5]]


def test_unbounded_requests(amb):
    ss = sources(2)
    amb(ss).test()
    assert [s.requests for s in ss] == [[LONG_MAX], [LONG_MAX]]


def test_backpressure_one_by_one():
    ts = Flowable.amb_array(Flowable.never(), Flowable.range(1, 3)).test(0)
    for i in range(1, 4):
        ts.request(1)
        ts.assert_value_sequence(list(range(1, i + 1)))
    ts.assert_complete()


def test_bad_request_is_reported(plugin_errors):
    ss = sources(2)
    ts = Flowable.amb_array(*ss).test(0)
    ts.request(0)  # the TestSubscriber passes it on: the operator reports §3.9
    assert [s.requests for s in ss] == [[], []]
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)


# ----------------------------------------------------------------- cancellation


def test_cancel_before_a_winner_cancels_all(amb):
    ss = sources(3)
    ts = amb(ss).test()
    ts.cancel()
    assert [s.cancels for s in ss] == [1, 1, 1]
    ss[0].emit(1)
    ts.assert_empty()


def test_cancel_after_the_win_cancels_the_winner(amb):
    ss = sources(2)
    ts = amb(ss).test()
    ss[0].emit(1)
    ts.cancel()
    assert [s.cancels for s in ss] == [1, 1]
    ts.request(5)
    assert ss[0].requests == [LONG_MAX]


def test_cancelled_downstream_stops_subscribing():
    ss = sources(2)
    Flowable.amb_array(*ss).test(cancel=True)
    assert [s.subscriptions for s in ss] == [0, 0]


# ----------------------------------------------------------------- the sources argument


def test_iterable_is_iterated_at_each_subscription():
    calls = []

    class Sources:
        def __iter__(self):
            calls.append(1)
            return iter([Flowable.never(), Flowable.just(1)])

    f = Flowable.amb(Sources())
    assert calls == []
    f.test().assert_result(1)
    f.test().assert_result(1)
    assert calls == [1, 1]


def test_generator_of_sources():
    Flowable.amb(s for s in [Flowable.never(), Flowable.range(1, 2)]).test().assert_result(1, 2)


def test_iteration_error():
    def gen():
        yield Flowable.never()
        raise KeyError("iter")

    Flowable.amb(gen()).test().assert_failure(KeyError)

    class Bad:
        def __iter__(self):
            raise KeyError("iter")

    Flowable.amb(Bad()).test().assert_failure(KeyError)


@pytest.mark.parametrize("bad", [None, 5])
def test_not_a_publisher_in_the_iterable(bad):
    Flowable.amb([Flowable.never(), bad]).test().assert_failure(TypeError)
    Flowable.amb((Flowable.never(), bad)).test().assert_failure(TypeError)


def test_no_sources_completes():
    Flowable.amb([]).test().assert_result()
    Flowable.amb_array().test().assert_result()


def test_one_source_is_subscribed_directly():
    spy = Spy(Flowable.range(1, 3))
    ts = Flowable.amb([spy]).test(2)
    ts.assert_values(1, 2)
    assert spy.requests == [2]
    ts.cancel()
    assert spy.cancels == 1
    Flowable.amb_array(Flowable.range(1, 2)).test().assert_result(1, 2)


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.amb(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.amb_array(Flowable.never(), None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.never().amb_with(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.never().amb_with(5)  # type: ignore[arg-type]


def test_many_sources():
    ss = [Flowable.never() for _ in range(10_000)]
    Flowable.amb([*ss, Flowable.just(1)]).test().assert_result(1)


# ----------------------------------------------------------------- races


def test_race_two_sources_emit(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.amb_array(a, b).test()

        def emit_a(a=a):
            a.emit(1, 2)
            a.complete()

        def emit_b(b=b):
            b.emit(10, 20)
            b.complete()

        race_runner.race(emit_a, emit_b)
        assert ts.values() in ([1, 2], [10, 20])
        ts.assert_complete().assert_protocol_ok()
        winner, loser = (a, b) if ts.values() == [1, 2] else (b, a)
        assert winner.cancels == 0 and loser.cancels >= 1


def test_race_emit_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.amb_array(a, b).test(0)
        race_runner.race(lambda a=a: a.emit(1), lambda ts=ts: ts.request(3))
        if ts.protocol_violations():
            # ManualSource emits regardless of demand: when emit wins the race the item
            # comes before any request, the probe's §1.1 break (amb only relays it)
            ts.assert_protocol_violation("§1.1: on_next #1 (1) beyond the requested amount 0")
        ts.assert_values(1)
        # the request reached the winner whatever the order; the loser got it at most
        assert a.requests == [3] and b.requests in ([], [3])
        assert b.cancels == 1 and a.cancels == 0


def test_race_emit_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.amb_array(a, b).test()
        race_runner.race(lambda a=a: a.emit(1), ts.cancel)
        assert ts.values() in ([], [1])
        assert a.cancels >= 1 and b.cancels >= 1
        ts.assert_not_terminated()
