"""Maybe.amb / amb_array / amb_with, concat / concat_array / concat_array_delay_error /
concat_delay_error / concat_array_eager / concat_eager / concat_with, merge / merge_array /
merge_array_delay_error / merge_delay_error / merge_with (RxJava 2's MaybeAmb,
MaybeConcatIterable, MaybeConcatArray(DelayError), MaybeMergeArray, and Flowable operators
over the sources elsewhere)."""

from __future__ import annotations

from functools import partial

import pytest
from probes import Boom
from probes import ProbeMaybe

from rxpy2 import LONG_MAX
from rxpy2 import CompositeException
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single

#: sources in a stack-safety test: 20x the recursion limit, so even one frame per source
#: would overflow long before the end
N = 20_000


def outer(items, requests):
    return Flowable.from_iterable(items).do_on_request(requests.append)


def counted(calls, value=None):
    """A Maybe that records each subscription (``value`` None: empty)."""
    return Maybe.from_callable(lambda: calls.append(value) or value)


# ---------------------------------------------------------------- argument checks

@pytest.mark.parametrize("name", ["concat", "concat_delay_error", "concat_eager", "merge",
                                  "merge_delay_error"])
def test_sources_checked_at_assembly(name):
    with pytest.raises(TypeError):
        getattr(Maybe, name)(None)
    with pytest.raises(TypeError):
        getattr(Maybe, name)(5)


@pytest.mark.parametrize("name", ["amb_array", "concat_array", "concat_array_delay_error",
                                  "concat_array_eager", "merge_array", "merge_array_delay_error"])
def test_array_sources_checked_at_assembly(name):
    with pytest.raises(TypeError):
        getattr(Maybe, name)(Maybe.just(1), None)
    with pytest.raises(TypeError):
        getattr(Maybe, name)(Maybe.just(1), Single.just(2))


def test_other_checked_and_amb_sources():
    for name in ("amb_with", "concat_with", "merge_with"):
        with pytest.raises(TypeError):
            getattr(Maybe.just(1), name)(None)
    with pytest.raises(TypeError):
        Maybe.amb(None)
    with pytest.raises(ValueError):
        Maybe.concat(Flowable.just(Maybe.just(1)), prefetch=0)
    with pytest.raises(ValueError):
        Maybe.merge([Maybe.just(1)], max_concurrency=0)
    with pytest.raises(TypeError):
        Maybe.merge(Maybe.just(Maybe.just(1)), max_concurrency=2)


@pytest.mark.parametrize("name", ["amb", "concat", "concat_delay_error", "concat_eager", "merge",
                                  "merge_delay_error"])
def test_none_or_wrong_source_is_a_type_error_downstream(name):
    op = getattr(Maybe, name)
    ts = op([Maybe.never() if name == "amb" else Maybe.just(1), None]).test()
    ts.assert_error(TypeError)
    op([Maybe.never() if name == "amb" else Maybe.just(1), Single.just(2)]).test() \
        .assert_error(TypeError)


# ---------------------------------------------------------------- amb

def test_amb_first_signal_wins():
    a, b = ProbeMaybe(), ProbeMaybe()
    to = Maybe.amb([a, b]).test()
    b.success(2)
    to.assert_result(2)
    assert a.disposed == 1
    a, b = ProbeMaybe(), ProbeMaybe()
    to = a.amb_with(b).test()
    a.complete()
    to.assert_result()
    assert b.disposed == 1
    a, b = ProbeMaybe(), ProbeMaybe()
    to = Maybe.amb_array(a, b).test()
    b.error(Boom())
    to.assert_failure(Boom)


def test_amb_no_or_one_source():
    Maybe.amb([]).test().assert_result()  # RxJava 2's MaybeAmb: completes
    Maybe.amb_array().test().assert_result()
    m = Maybe.just(1)
    assert Maybe.amb_array(m) is m


def test_amb_race_success_vs_success(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        to = a.amb_with(b).test()
        race_runner.race(partial(a.success, 1), partial(b.success, 2))
        to.assert_complete().assert_protocol_ok()
        assert to.values() in ([1], [2])
    assert plugin_errors == []


# ---------------------------------------------------------------- concat

@pytest.mark.parametrize("make", [
    lambda a: Maybe.concat(a), lambda a: Maybe.concat(iter(a)),
    lambda a: Maybe.concat(Flowable.from_iterable(a)), lambda a: Maybe.concat_array(*a),
    lambda a: Maybe.concat_array_delay_error(*a), lambda a: Maybe.concat_delay_error(a),
    lambda a: Maybe.concat_eager(a), lambda a: Maybe.concat_array_eager(*a)])
def test_concat_order_skips_empties(make):
    make([Maybe.just(1), Maybe.empty(), Maybe.just(3)]).test().assert_result(1, 3)
    make([]).test().assert_result()
    make([Maybe.just(1)]).test().assert_result(1)


def test_concat_with():
    Maybe.just(1).concat_with(Maybe.just(2)).test().assert_result(1, 2)
    Maybe.empty().concat_with(Maybe.just(2)).test().assert_result(2)


@pytest.mark.parametrize("make", [lambda a: Maybe.concat(a), lambda a: Maybe.concat_array(*a),
                                  lambda a: Maybe.concat(Flowable.from_iterable(a))])
def test_concat_error_at_once(make):
    calls = []
    make([Maybe.just(1), Maybe.error(Boom()), counted(calls, 3)]).test().assert_failure(Boom, 1)
    assert calls == []


@pytest.mark.parametrize("make", [lambda a: Maybe.concat_array_delay_error(*a),
                                  lambda a: Maybe.concat_delay_error(a)])
def test_concat_delay_error_runs_all(make):
    e1, e2 = Boom(1), Boom(2)
    make([Maybe.just(1), Maybe.error(e1), Maybe.just(3)]).test().assert_failure(Boom, 1, 3)
    ts = make([Maybe.error(e1), Maybe.just(2), Maybe.error(e2)]).test()
    ts.assert_values(2).assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_concat_next_source_only_after_the_item_went_out():
    """MaybeConcat(Iterable/Array): the next source is subscribed once the item is emitted."""
    calls = []
    for f in (Maybe.concat([counted(calls, 1), counted(calls, 2)]),
              Maybe.concat_array(counted(calls, 1), counted(calls, 2)),
              Maybe.concat_array_delay_error(counted(calls, 1), counted(calls, 2))):
        calls.clear()
        ts = f.test(0)
        assert calls == [1]
        ts.assert_empty()
        ts.request(1)
        ts.assert_values(1)
        assert calls == [1, 2]
        ts.request(1)
        ts.assert_result(1, 2)


def test_concat_empty_sources_run_without_demand():
    calls = []
    ts = Maybe.concat([counted(calls), counted(calls), counted(calls, 3)]).test(0)
    assert calls == [None, None, 3]
    ts.request(1)
    ts.assert_result(3)


def test_concat_publisher_requests_as_rxjava2():
    reqs = []
    Maybe.concat(outer([Maybe.just(i) for i in range(5)], reqs)).test() \
        .assert_result(0, 1, 2, 3, 4)
    assert reqs == [2, 2, 2]
    reqs = []
    Maybe.concat_delay_error(outer([Maybe.just(i) for i in range(5)], reqs)).test() \
        .assert_result(0, 1, 2, 3, 4)
    assert reqs == [2, 2, 2]


def test_concat_iterable_failures():
    def broken():
        yield Maybe.just(1)
        raise Boom()
    Maybe.concat(broken()).test().assert_failure(Boom, 1)

    class NoIter:
        def __iter__(self):
            raise Boom()
    Maybe.concat(NoIter()).test().assert_failure(Boom)


def test_concat_cancel():
    a, b = ProbeMaybe(), ProbeMaybe()
    ts = Maybe.concat([a, b]).test()
    ts.cancel()
    assert a.disposed == 1
    a.success(1)
    ts.assert_empty()
    assert b.observers == []


def test_concat_many_synchronous_sources_no_recursion():
    for f in (Maybe.concat([Maybe.just(1)] * N), Maybe.concat_array(*[Maybe.just(1)] * N),
              Maybe.concat_array_delay_error(*[Maybe.just(1)] * N),
              Maybe.concat_delay_error([Maybe.just(1)] * N), Maybe.concat_eager([Maybe.just(1)] * N)):
        f.test().assert_value_count(N).assert_complete()
    Maybe.concat([Maybe.empty()] * N).test().assert_result()
    ts = Maybe.concat_array(*[Maybe.just(1)] * N).test(0)
    for _ in range(N):
        ts.request(1)
    ts.assert_value_count(N).assert_complete()


def test_concat_race_cancel_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        ts = Maybe.concat_array(a, b).test()
        race_runner.race(partial(a.success, 1), ts.cancel)
        assert ts.values() in ([], [1])
        ts.assert_not_complete().assert_protocol_ok()


def test_concat_race_request_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        ts = Maybe.concat([a, b]).test(0)
        race_runner.race(partial(a.success, 1), partial(ts.request, 2))
        ts.assert_values(1)
        b.success(2)
        ts.assert_result(1, 2).assert_protocol_ok()


# ---------------------------------------------------------------- merge

def test_merge_array_as_they_come():
    a, b, c = ProbeMaybe(), ProbeMaybe(), ProbeMaybe()
    ts = Maybe.merge_array(a, b, c).test()
    c.success(3)
    b.complete()
    ts.assert_values(3).assert_not_complete()
    a.success(1)
    ts.assert_result(3, 1)
    Maybe.merge_array().test().assert_result()
    Maybe.just(1).merge_with(Maybe.empty()).test().assert_result(1)
    Maybe.merge_array(Maybe.just(1)).test().assert_result(1)


def test_merge_array_bounded_demand():
    ts = Maybe.merge_array(Maybe.just(1), Maybe.empty(), Maybe.just(3)).test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 3)


def test_merge_array_error_overtakes_queued_items():
    """MaybeMergeArray: the error goes out as soon as the drain sees it (RxJava 2)."""
    ts = Maybe.merge_array(Maybe.just(1), Maybe.error(Boom()), Maybe.just(3)).test(0)
    ts.assert_failure(Boom)


def test_merge_array_error_disposes_rest_and_stops_subscribing(plugin_errors):
    a, b = ProbeMaybe(), ProbeMaybe()
    calls = []
    ts = Maybe.merge_array(a, Maybe.error(Boom()), counted(calls, 1)).test()
    ts.assert_failure(Boom)
    assert a.disposed == 1 and calls == []
    a.error(Boom(2))  # a late error goes to the plugin handler
    assert len(plugin_errors) == 1
    ts = Maybe.merge_array(a, b).test()
    ts.cancel()
    assert b.disposed == 1


@pytest.mark.parametrize("make", [
    lambda a: Maybe.merge(a), lambda a: Maybe.merge(Flowable.from_iterable(a)),
    lambda a: Maybe.merge_array(*a)])
def test_merge_error_at_once(make):
    a = ProbeMaybe()
    ts = make([a, Maybe.error(Boom())]).test()
    ts.assert_failure(Boom)
    assert a.disposed == 1


@pytest.mark.parametrize("make", [
    lambda a: Maybe.merge_delay_error(a), lambda a: Maybe.merge_delay_error(Flowable.from_iterable(a)),
    lambda a: Maybe.merge_array_delay_error(*a)])
def test_merge_delay_error(make):
    e1, e2 = Boom(1), Boom(2)
    a = ProbeMaybe()
    ts = make([Maybe.error(e1), a, Maybe.just(2), Maybe.error(e2)]).test()
    ts.assert_values(2).assert_not_complete()
    a.success(1)
    ts.assert_values(2, 1).assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_merge_requests_as_rxjava2():
    reqs = []
    Maybe.merge(outer([Maybe.just(i) for i in range(3)], reqs)).test().assert_result(0, 1, 2)
    assert reqs[0] == LONG_MAX
    reqs = []
    Maybe.merge(outer([Maybe.just(i) for i in range(3)], reqs), max_concurrency=2).test() \
        .assert_result(0, 1, 2)
    assert reqs == [2, 1, 1, 1]
    reqs = []  # a Publisher: no limit by default
    Maybe.merge_delay_error(outer([Maybe.just(i) for i in range(3)], reqs)).test() \
        .assert_result(0, 1, 2)
    assert reqs[0] == LONG_MAX


def test_merge_delay_error_iterable_runs_128_at_once():
    """RxJava 2: ``fromIterable(sources).flatMap(mapper, true)``, so 128 sources at a time;
    a Publisher of sources runs them all (``max_concurrency`` changes either)."""
    probes = [ProbeMaybe() for _ in range(130)]
    ts = Maybe.merge_delay_error(probes).test()
    assert sum(1 for p in probes if p.observers) == 128
    probes[0].complete()
    assert sum(1 for p in probes if p.observers) == 129
    ts.assert_empty()
    probes = [ProbeMaybe() for _ in range(130)]
    Maybe.merge_delay_error(Flowable.from_iterable(probes)).test()
    assert all(p.observers for p in probes)
    probes = [ProbeMaybe() for _ in range(3)]
    Maybe.merge_delay_error(probes, max_concurrency=2).test()
    assert [bool(p.observers) for p in probes] == [True, True, False]


def test_merge_max_concurrency_one_runs_in_turn():
    a, b = ProbeMaybe(), ProbeMaybe()
    ts = Maybe.merge([a, b], max_concurrency=1).test()
    assert a.observers and not b.observers
    a.complete()
    assert b.observers
    b.success(2)
    ts.assert_result(2)


def test_merge_maybe_of_maybe_is_a_maybe():
    m = Maybe.merge(Maybe.just(Maybe.just(5)))
    assert isinstance(m, Maybe)
    m.test().assert_result(5)
    Maybe.merge(Maybe.empty()).test().assert_result()
    Maybe.merge(Maybe.just(Maybe.empty())).test().assert_result()
    Maybe.merge(Maybe.just(3)).test().assert_failure(TypeError)


def test_merge_many_synchronous_sources_no_recursion():
    for f in (Maybe.merge([Maybe.just(1)] * N), Maybe.merge_array(*[Maybe.just(1)] * N),
              Maybe.merge_array_delay_error(*[Maybe.just(1)] * N),
              Maybe.merge_delay_error([Maybe.just(1)] * N)):
        f.test().assert_value_count(N).assert_complete()


@pytest.mark.parametrize("make", [lambda a, b: Maybe.merge_array(a, b),
                                  lambda a, b: Maybe.merge([a, b]),
                                  lambda a, b: Maybe.merge_array_delay_error(a, b)])
def test_merge_race_two_successes(make, race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        ts = make(a, b).test()
        race_runner.race(partial(a.success, 1), partial(b.success, 2))
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == [1, 2]


def test_merge_array_race_success_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        ts = Maybe.merge_array(a, b).test(0)
        a.success(1)
        race_runner.race(partial(b.success, 2), partial(ts.request, 2))
        ts.assert_result(1, 2).assert_protocol_ok()


def test_merge_array_race_cancel_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        ts = Maybe.merge_array(a, b).test()
        race_runner.race(partial(a.success, 1), ts.cancel)
        assert ts.values() in ([], [1])
        ts.assert_not_complete().assert_no_errors().assert_protocol_ok()


# ---------------------------------------------------------------- RxJava 2's merge(source1, source2, ...)

@pytest.mark.parametrize(("name", "array"), [("concat", "concat_array"),
                                             ("merge", "merge_array"),
                                             ("merge_delay_error", "merge_array_delay_error"),
                                             ("concat_delay_error", "concat_array_delay_error")])
def test_sources_one_by_one_are_the_array_form(name, array):
    """RxJava 2's concat/merge/mergeDelayError(m1, m2[, m3, m4]) are concatArray/mergeArray/
    mergeArrayDelayError; concat_delay_error(a, b) is concat_array_delay_error."""
    method = getattr(Maybe, name)
    a, b = Maybe.just(1), Maybe.empty()
    method(a, b, Maybe.just(3)).test().assert_result(1, 3)
    assert type(method(a, b)) is type(getattr(Maybe, array)(a, b))


@pytest.mark.parametrize("name", ["merge_delay_error", "concat_delay_error"])
def test_delay_error_one_by_one_delays_the_error(name):
    getattr(Maybe, name)(Maybe.error(Boom()), Maybe.just(2)).test().assert_failure(Boom, 2)


@pytest.mark.parametrize("name", ["concat", "merge", "merge_delay_error", "concat_delay_error"])
def test_sources_one_by_one_checked_at_assembly(name):
    method = getattr(Maybe, name)
    a = Maybe.just(1)
    with pytest.raises(TypeError, match="source 2 must be a Maybe, not SingleJust"):
        method(a, a, Single.just(1))
    with pytest.raises(TypeError, match="takes no keyword arguments"):
        method(a, a, max_concurrency=2)


def test_a_second_argument_that_is_no_maybe_names_the_forms():
    a = Maybe.just(1)
    with pytest.raises(TypeError, match=r"max_concurrency must be an int, not SingleJust: did you "
                                        r"mean merge_array\(a, b\) or merge\(\[a, b\]\)\?"):
        Maybe.merge(a, Single.just(1))
    with pytest.raises(TypeError, match=r"did you mean merge_array_delay_error\(a, b\)"):
        Maybe.merge_delay_error(a, "b")
    with pytest.raises(TypeError, match=r"did you mean concat_array\(a, b\)"):
        Maybe.concat(a, Single.just(1))
    with pytest.raises(TypeError, match=r"source 1 must be a Maybe, not int: concat_delay_error "
                                        r"takes Maybes one by one"):
        Maybe.concat_delay_error(a, 2)
    Maybe.merge([a, a], 1).test().assert_result(1, 1)
