"""Completable.merge_array_delay_error / merge_delay_error (RxJava 2's
CompletableMergeDelayErrorArray/Iterable, and CompletableMerge over a Publisher) and
start_with (a Completable → concat_array(other, this); a Publisher → a Flowable)."""

from __future__ import annotations

from functools import partial

import pytest
from probes import Boom
from probes import ProbeCompletable

from rxpy2 import LONG_MAX
from rxpy2 import Completable
from rxpy2 import CompositeException
from rxpy2 import Flowable
from rxpy2 import Single

#: sources in a stack-safety test: 20x the recursion limit, so even one frame per source
#: would overflow long before the end
N = 20_000


# ---------------------------------------------------------------- argument checks

def test_arguments_checked_at_assembly():
    with pytest.raises(TypeError):
        Completable.merge_array_delay_error(Completable.complete(), None)
    with pytest.raises(TypeError):
        Completable.merge_array_delay_error(Single.just(1))
    with pytest.raises(TypeError):
        Completable.merge_delay_error(None)
    with pytest.raises(TypeError):
        Completable.merge_delay_error(5)
    with pytest.raises(TypeError):
        Completable.merge_delay_error([Completable.complete()], max_concurrency=2)
    with pytest.raises(ValueError):
        Completable.merge_delay_error(Flowable.just(Completable.complete()), max_concurrency=0)
    for bad in (None, 5, Single.just(1)):
        with pytest.raises(TypeError):
            Completable.complete().start_with(bad)


# ---------------------------------------------------------------- merge_delay_error

@pytest.mark.parametrize("make", [
    lambda a: Completable.merge_array_delay_error(*a), lambda a: Completable.merge_delay_error(a),
    lambda a: Completable.merge_delay_error(iter(a)),
    lambda a: Completable.merge_delay_error(Flowable.from_iterable(a))])
def test_merge_delay_error_waits_for_all(make):
    a, b, c = ProbeCompletable(), ProbeCompletable(), ProbeCompletable()
    ts = make([a, b, c]).test()
    assert a.observers and b.observers and c.observers
    e1, e2 = Boom(1), Boom(2)
    a.error(e1)
    ts.assert_empty()
    b.complete()
    ts.assert_empty()
    c.error(e2)
    ts.assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2]
    make([Completable.complete(), Completable.error(e1)]).test().assert_failure(Boom)
    make([Completable.complete(), Completable.complete()]).test().assert_result()
    make([]).test().assert_result()


def test_merge_delay_error_dispose_reaches_all():
    a, b = ProbeCompletable(), ProbeCompletable()
    ts = Completable.merge_array_delay_error(a, b).test()
    ts.dispose()
    assert a.disposed == 1 and b.disposed == 1
    ts.assert_empty()


def test_merge_delay_error_bad_iterable_waits_for_the_running_sources():
    """RxJava 2's CompletableMergeDelayErrorIterable: the iterable's failure (or a None
    source) ends the subscribing and is signalled with the others' errors at the end."""
    a = ProbeCompletable()

    def broken():
        yield a
        raise Boom(1)
    ts = Completable.merge_delay_error(broken()).test()
    ts.assert_empty()
    a.complete()
    ts.assert_failure(Boom)
    calls = []
    later = Completable.from_action(lambda: calls.append(1))
    Completable.merge_delay_error([Completable.error(Boom()), None, later]).test() \
        .assert_error(CompositeException)
    assert calls == []

    class NoIter:
        def __iter__(self):
            raise Boom()
    Completable.merge_delay_error(NoIter()).test().assert_failure(Boom)


def test_merge_delay_error_publisher_max_concurrency():
    reqs = []
    probes = [ProbeCompletable() for _ in range(3)]
    ts = Completable.merge_delay_error(Flowable.from_iterable(probes).do_on_request(reqs.append),
                                       max_concurrency=2).test()
    assert reqs == [2]
    assert [bool(p.observers) for p in probes] == [True, True, False]
    probes[0].error(Boom())
    assert reqs == [2, 1] and probes[2].observers
    probes[1].complete()
    probes[2].complete()
    ts.assert_failure(Boom)
    reqs = []
    Completable.merge_delay_error(Flowable.just(Completable.complete()).do_on_request(reqs.append)) \
        .test().assert_result()
    assert reqs == [LONG_MAX]


def test_merge_delay_error_many_synchronous_sources():
    Completable.merge_delay_error([Completable.complete()] * N).test().assert_result()
    Completable.merge_array_delay_error(*[Completable.error(Boom())] * 1000).test() \
        .assert_error(CompositeException)


def test_merge_delay_error_race_two_errors(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        a, b = ProbeCompletable(), ProbeCompletable()
        ts = Completable.merge_array_delay_error(a, b).test()
        e1, e2 = Boom(1), Boom(2)
        race_runner.race(partial(a.error, e1), partial(b.error, e2))
        ts.assert_error(CompositeException).assert_protocol_ok()
        assert sorted(ts.errors()[0].exceptions, key=lambda e: e.args) == [e1, e2]
    assert plugin_errors == []


def test_merge_delay_error_race_complete_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds):
        a = ProbeCompletable()
        ts = Completable.merge_array_delay_error(a, Completable.complete()).test()
        race_runner.race(a.complete, ts.dispose)
        assert ts.completions() <= 1
        ts.assert_no_errors().assert_protocol_ok()


# ---------------------------------------------------------------- start_with

def test_start_with_completable_runs_other_first():
    order = []
    c = Completable.from_action(lambda: order.append("this"))
    c.start_with(Completable.from_action(lambda: order.append("other"))).test().assert_result()
    assert order == ["other", "this"]
    order.clear()
    c.start_with(Completable.error(Boom())).test().assert_failure(Boom)
    assert order == []


def test_start_with_waits_and_dispose_reaches_current():
    a, b = ProbeCompletable(), ProbeCompletable()
    ts = b.start_with(a).test()
    assert a.observers and not b.observers
    a.complete()
    assert b.observers
    ts.dispose()
    assert b.disposed == 1


def test_start_with_publisher_is_a_flowable():
    f = Completable.complete().start_with(Flowable.just(1, 2))
    assert isinstance(f, Flowable)
    f.test().assert_result(1, 2)
    Completable.error(Boom()).start_with(Flowable.just(1)).test().assert_failure(Boom, 1)
    ts = Completable.complete().start_with(Flowable.range(1, 5)).test(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(3)
    ts.assert_result(1, 2, 3, 4, 5)


def test_start_with_chain_flattens():
    order = []
    c = Completable.from_action(lambda: order.append(0))
    for i in range(1, 10_001):
        c = c.start_with(Completable.from_action(lambda i=i: order.append(i)))
    c = c.concat_with(Completable.from_action(lambda: order.append(-1)))
    c.test().assert_result()
    assert order == list(range(10_000, -1, -1)) + [-1]


# ---------------------------------------------------------------- concat / merge of a Publisher

def test_concat_and_merge_of_a_publisher_do_not_block():
    """RxJava 2's concat(Publisher)/merge(Publisher): subscribed, never iterated in a blocking
    way (a Flowable is iterable too, blocking: it must not be taken for an iterable)."""
    for op in (Completable.concat, Completable.merge, Completable.merge_delay_error):
        ts = op(Flowable.never()).test()
        ts.assert_empty()
        ts.dispose()


def test_concat_publisher_requests_as_rxjava2():
    reqs = []
    order = []
    sources = [Completable.from_action(lambda i=i: order.append(i)) for i in range(5)]
    Completable.concat(Flowable.from_iterable(sources).do_on_request(reqs.append)).test() \
        .assert_result()
    assert order == [0, 1, 2, 3, 4] and reqs == [2, 2, 2]
    reqs = []
    Completable.concat(Flowable.from_iterable(sources).do_on_request(reqs.append), prefetch=4) \
        .test().assert_result()
    assert reqs == [4, 3]  # 75% of 4 after 3 ran (RxJava 2: limit = prefetch - prefetch // 4)
    Completable.concat(Flowable.just(Completable.error(Boom()), Completable.complete())).test() \
        .assert_failure(Boom)
    Completable.concat(Flowable.from_iterable([Completable.complete(), None])).test() \
        .assert_failure(TypeError)
    Completable.concat(Flowable.from_iterable([Completable.complete()] * N)).test().assert_result()


def test_merge_publisher_max_concurrency_and_errors():
    reqs = []
    probes = [ProbeCompletable() for _ in range(3)]
    ts = Completable.merge(Flowable.from_iterable(probes).do_on_request(reqs.append),
                           max_concurrency=2).test()
    assert reqs == [2] and not probes[2].observers
    probes[0].complete()
    assert reqs == [2, 1] and probes[2].observers
    probes[1].error(Boom())
    ts.assert_failure(Boom)
    assert probes[2].disposed == 1
    with pytest.raises(TypeError):
        Completable.merge([Completable.complete()], max_concurrency=2)
    with pytest.raises(ValueError):
        Completable.concat(Flowable.just(Completable.complete()), prefetch=0)


# ---------------------------------------------------------------- Completables one by one

@pytest.mark.parametrize(("name", "array"), [("concat", "concat_array"),
                                             ("merge", "merge_array"),
                                             ("merge_delay_error", "merge_array_delay_error")])
def test_sources_one_by_one_are_the_array_form(name, array):
    """As Flowable's and Single's merge(a, b): every positional argument a Completable."""
    ran: list[int] = []
    method = getattr(Completable, name)
    sources = [Completable.from_action(partial(ran.append, i)) for i in range(3)]
    method(*sources).test().assert_complete()
    assert ran == [0, 1, 2]
    assert type(method(*sources)) is type(getattr(Completable, array)(*sources))


def test_merge_delay_error_one_by_one_delays_the_error():
    ran: list[int] = []
    Completable.merge_delay_error(Completable.error(Boom()),
                                  Completable.from_action(partial(ran.append, 1))).test() \
        .assert_error(Boom)
    assert ran == [1]


def test_sources_one_by_one_checked_and_wrong_forms_named():
    c = Completable.complete()
    with pytest.raises(TypeError, match="source 2 must be a Completable, not SingleJust"):
        Completable.merge(c, c, Single.just(1))
    with pytest.raises(TypeError, match=r"max_concurrency must be an int, not SingleJust: did you "
                                        r"mean merge_array\(a, b\) or merge\(\[a, b\]\)\?"):
        Completable.merge(c, Single.just(1))
    with pytest.raises(TypeError, match=r"prefetch must be an int, not FlowableJust: did you mean "
                                        r"concat_array\(a, b\)"):
        Completable.concat(c, Flowable.just(1))
