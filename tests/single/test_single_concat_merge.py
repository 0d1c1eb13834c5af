"""Single.concat / concat_array / concat_array_eager / concat_eager / concat_with / merge /
merge_delay_error / merge_with: RxJava 2 builds them as Flowable operators (concat_map,
flat_map, concat_map_eager) over a Flowable of the sources; so does rxpy2."""

from __future__ import annotations

from functools import partial

import pytest
from probes import Boom
from probes import ProbeSingle

from rxpy2 import LONG_MAX
from rxpy2 import CompositeException
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single

#: sources in a stack-safety test: 20x the recursion limit, so even one frame per source
#: would overflow long before the end
N = 20_000


def outer(items, requests):
    """The sources as a Publisher that records the requests reaching it."""
    return Flowable.from_iterable(items).do_on_request(requests.append)


# ---------------------------------------------------------------- argument checks

@pytest.mark.parametrize("name", ["concat", "concat_eager", "merge", "merge_delay_error"])
def test_sources_checked_at_assembly(name):
    with pytest.raises(TypeError):
        getattr(Single, name)(None)
    with pytest.raises(TypeError):
        getattr(Single, name)(5)


@pytest.mark.parametrize("name", ["concat_array", "concat_array_eager"])
def test_array_sources_checked_at_assembly(name):
    with pytest.raises(TypeError):
        getattr(Single, name)(Single.just(1), None)
    with pytest.raises(TypeError):
        getattr(Single, name)(Single.just(1), 2)


def test_with_checks_other():
    for name in ("concat_with", "merge_with"):
        with pytest.raises(TypeError):
            getattr(Single.just(1), name)(None)
        with pytest.raises(TypeError):
            getattr(Single.just(1), name)(Flowable.just(1))


def test_prefetch_checked():
    with pytest.raises(ValueError):
        Single.concat([Single.just(1)], prefetch=0)


@pytest.mark.parametrize("name", ["concat", "concat_eager", "merge", "merge_delay_error"])
def test_none_or_wrong_source_is_a_type_error_downstream(name):
    op = getattr(Single, name)
    op([Single.just(1), None]).test().assert_failure(TypeError, 1)
    op([Single.just(1), Flowable.just(2)]).test().assert_failure(TypeError, 1)


# ---------------------------------------------------------------- concat

def test_concat_order_iterable_and_publisher():
    a = [Single.just(1), Single.just(2), Single.just(3)]
    Single.concat(a).test().assert_result(1, 2, 3)
    Single.concat(iter(a)).test().assert_result(1, 2, 3)
    Single.concat(Flowable.from_iterable(a)).test().assert_result(1, 2, 3)
    Single.concat_array(*a).test().assert_result(1, 2, 3)
    Single.concat_array().test().assert_result()
    Single.just(1).concat_with(Single.just(2)).test().assert_result(1, 2)


def test_concat_iterable_per_subscriber():
    calls = []

    def gen():
        calls.append(1)
        yield Single.just(1)

    f = Single.concat(gen())
    f.test().assert_result(1)
    c = Single.concat(type("It", (), {"__iter__": lambda self: gen()})())
    c.test().assert_result(1)
    c.test().assert_result(1)
    assert len(calls) == 3


def test_concat_one_at_a_time():
    a, b = ProbeSingle(), ProbeSingle()
    ts = Single.concat([a, b]).test()
    assert len(a.observers) == 1 and b.observers == []
    a.success(1)
    assert len(b.observers) == 1
    b.success(2)
    ts.assert_result(1, 2)


@pytest.mark.parametrize("make", [
    lambda a: Single.concat(a), lambda a: Single.concat_array(*a)])
def test_concat_error_stops(make):
    calls = []
    later = Single.from_callable(lambda: calls.append(1) or 3)
    make([Single.just(1), Single.error(Boom()), later]).test().assert_failure(Boom, 1)
    assert calls == []


def test_concat_requests_as_rxjava2():
    """concat_map with prefetch 2: the sources are asked for 2, then 2 more after 2 ran."""
    reqs = []
    Single.concat(outer([Single.just(i) for i in range(5)], reqs)).test() \
        .assert_result(0, 1, 2, 3, 4)
    assert reqs == [2, 2, 2]
    reqs = []
    Single.concat(outer([Single.just(i) for i in range(5)], reqs), prefetch=3).test() \
        .assert_result(0, 1, 2, 3, 4)
    assert reqs == [3, 3]


def test_concat_bounded_demand():
    ts = Single.concat([Single.just(i) for i in range(5)]).test(0)
    ts.assert_empty()
    ts.request(2)
    ts.assert_values(0, 1).assert_not_complete()
    ts.request(3)
    ts.assert_result(0, 1, 2, 3, 4)


def test_concat_cancel_disposes_current():
    a, b = ProbeSingle(), ProbeSingle()
    ts = Single.concat_array(a, b).test()
    ts.cancel()
    assert a.disposed == 1 and b.observers == []


def test_concat_many_synchronous_sources_no_recursion():
    Single.concat([Single.just(1)] * N).test().assert_value_count(N).assert_complete()
    Single.concat_array(*[Single.just(1)] * N).test().assert_value_count(N).assert_complete()
    ts = Single.concat([Single.just(1)] * N).test(0)
    for _ in range(N):
        ts.request(1)
    ts.assert_value_count(N).assert_complete()


def test_concat_race_cancel_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        ts = Single.concat([a, b]).test()
        race_runner.race(partial(a.success, 1), ts.cancel)
        assert ts.values() in ([], [1])
        ts.assert_not_complete().assert_protocol_ok()
        assert len(b.observers) <= 1


# ---------------------------------------------------------------- concat_eager

def test_concat_eager_subscribes_all_keeps_order():
    a, b = ProbeSingle(), ProbeSingle()
    for f in (Single.concat_eager([a, b]), Single.concat_array_eager(a, b),
              Single.concat_eager(Flowable.just(a, b))):
        ts = f.test()
        assert a.observers and b.observers
        b.success(2)
        ts.assert_empty()
        a.success(1)
        ts.assert_result(1, 2)
        a.observers.clear()
        b.observers.clear()


def test_concat_eager_requests_as_rxjava2():
    reqs = []
    Single.concat_eager(outer([Single.just(i) for i in range(3)], reqs)).test() \
        .assert_result(0, 1, 2)
    assert reqs == [128, 1, 1, 1]


def test_concat_eager_error():
    a = ProbeSingle()
    Single.concat_array_eager(a, Single.error(Boom())).test().assert_failure(Boom)
    assert a.disposed == 1


def test_concat_eager_no_recursion():
    Single.concat_eager([Single.just(1)] * N).test().assert_value_count(N).assert_complete()


# ---------------------------------------------------------------- merge

def test_merge_as_they_come():
    a, b = ProbeSingle(), ProbeSingle()
    ts = Single.merge([a, b]).test()
    b.success(2)
    a.success(1)
    ts.assert_result(2, 1)
    a, b = ProbeSingle(), ProbeSingle()
    ts = a.merge_with(b).test()
    b.success(2)
    ts.assert_values(2).assert_not_complete()
    a.success(1)
    ts.assert_result(2, 1)
    Single.merge(Flowable.just(Single.just(1), Single.just(2))).test().assert_result(1, 2)


def test_merge_requests_as_rxjava2():
    """flat_map without a concurrency limit: LONG_MAX, then one more per ended source
    (RxJava 2 asks for those too; a request on top of LONG_MAX changes nothing)."""
    reqs = []
    Single.merge(outer([Single.just(i) for i in range(3)], reqs)).test().assert_result(0, 1, 2)
    assert reqs[0] == LONG_MAX


def test_merge_bounded_demand():
    ts = Single.merge([Single.just(i) for i in range(4)]).test(1)
    ts.assert_values(0)
    ts.request(3)
    ts.assert_result(0, 1, 2, 3)


def test_merge_error_disposes_rest():
    a, b = ProbeSingle(), ProbeSingle()
    ts = Single.merge([a, b]).test()
    a.error(Boom())
    ts.assert_failure(Boom)
    assert b.disposed == 1


def test_merge_delay_error_waits_and_composes():
    a, b, c = ProbeSingle(), ProbeSingle(), ProbeSingle()
    ts = Single.merge_delay_error([a, b, c]).test()
    e1, e2 = Boom(1), Boom(2)
    a.error(e1)
    ts.assert_empty()
    b.success(2)
    c.error(e2)
    ts.assert_values(2).assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2]
    Single.merge_delay_error([Single.error(Boom()), Single.just(1)]).test().assert_failure(Boom, 1)


def test_merge_single_of_single_is_a_single():
    s = Single.merge(Single.just(Single.just(5)))
    assert isinstance(s, Single)
    s.test().assert_result(5)
    Single.merge(Single.just(Single.error(Boom()))).test().assert_failure(Boom)
    Single.merge(Single.just(7)).test().assert_failure(TypeError)


def test_merge_dispose_disposes_all():
    a, b = ProbeSingle(), ProbeSingle()
    Single.merge([a, b]).test().cancel()
    assert a.disposed == 1 and b.disposed == 1


def test_merge_no_recursion():
    Single.merge([Single.just(1)] * N).test().assert_value_count(N).assert_complete()


def test_merge_race_two_successes(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        ts = Single.merge([a, b]).test()
        race_runner.race(partial(a.success, 1), partial(b.success, 2))
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == [1, 2]


def test_merge_race_cancel_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        a = ProbeSingle()
        ts = Single.merge([a, Single.never()]).test()
        race_runner.race(partial(a.success, 1), ts.cancel)
        assert ts.values() in ([], [1])
        ts.assert_not_complete().assert_no_errors().assert_protocol_ok()


# ---------------------------------------------------------------- RxJava 2's merge(source1, source2, ...)

@pytest.mark.parametrize("name", ["concat", "merge", "merge_delay_error"])
def test_sources_one_by_one(name):
    """RxJava 2's concat/merge/mergeDelayError(s1, s2[, s3, s4]): concat/merge of
    Flowable.fromArray(s1, s2...), which is rxpy2's form over the tuple."""
    method = getattr(Single, name)
    method(Single.just(1), Single.just(2)).test().assert_result(1, 2)
    method(Single.just(1), Single.just(2), Single.just(3), Single.just(4)).test() \
        .assert_result(1, 2, 3, 4)
    ts = method(Single.just(1), Single.just(2)).test(0)
    ts.request(1)
    ts.assert_values(1)


def test_merge_delay_error_one_by_one_delays_the_error():
    Single.merge_delay_error(Single.error(Boom()), Single.just(2)).test().assert_failure(Boom, 2)
    Single.merge(Single.error(Boom()), Single.just(2)).test().assert_failure(Boom)


@pytest.mark.parametrize("name", ["concat", "merge", "merge_delay_error"])
def test_sources_one_by_one_checked_at_assembly(name):
    method = getattr(Single, name)
    a = Single.just(1)
    with pytest.raises(TypeError, match="source 2 must be a Single, not MaybeJust"):
        method(a, a, Maybe.just(1))
    with pytest.raises(TypeError, match="source 0 must be a Single, not int"):
        method(1, a)
    with pytest.raises(TypeError, match="takes no keyword arguments"):
        method(a, a, prefetch=2)


def test_a_second_argument_that_is_no_single_names_the_forms():
    a = Single.just(1)
    with pytest.raises(TypeError, match=r"source 1 must be a Single, not FlowableJust: merge takes "
                                        r"Singles one by one \(merge\(a, b\)\) or an iterable"):
        Single.merge(a, Flowable.just(1))
    with pytest.raises(TypeError, match=r"merge_delay_error\(\[a, b\]\)"):
        Single.merge_delay_error(a, 2)
    with pytest.raises(TypeError, match=r"prefetch must be an int, not MaybeJust: did you mean "
                                        r"concat_array\(a, b\) or concat\(\[a, b\]\)\?"):
        Single.concat(a, Maybe.just(1))
    Single.concat([a, a], 1).test().assert_result(1, 1)
