"""merge, merge_delay_error, merge_array, merge_array_delay_error and merge_with (all built
on flat_map): lists, iterables and Publishers of Publishers, max_concurrency, errors,
cancellation, backpressure, many sources, real threads."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Boom
from probes import ManualSource
from probes import RequestOneInOnNext
from probes import Spy

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2._internal.operators.flowable.flowable_flat_map import FlowableFlatMap
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


class PlainPublisher(Publisher[Any]):
    """A Publisher that is not a Flowable."""

    def __init__(self, source: Publisher[Any]) -> None:
        self.source = source

    def subscribe(self, subscriber: Subscriber[Any]) -> None:
        self.source.subscribe(subscriber)


# ---------------------------------------------------------------------------- values

def test_merge_list():
    f = Flowable.merge([Flowable.range(0, 3), Flowable.just(10), Flowable.range(20, 2).hide()])
    assert isinstance(f, FlowableFlatMap)
    f.test().assert_result(0, 1, 2, 10, 20, 21)


def test_merge_tuple_and_iterable():
    Flowable.merge((Flowable.just(1), Flowable.just(2))).test().assert_result(1, 2)
    Flowable.merge(Flowable.range(i, 2) for i in range(3)).test().assert_result(0, 1, 1, 2, 2, 3)


def test_merge_empty_list_completes():
    Flowable.merge([]).test().assert_result()
    Flowable.merge_array().test().assert_result()


def test_merge_of_publisher_of_publishers():
    sources = Flowable.range(0, 4).map(lambda i: Flowable.range(i * 10, 2))
    Flowable.merge(sources).test().assert_result(0, 1, 10, 11, 20, 21, 30, 31)


def test_merge_of_plain_publishers():
    outer = PlainPublisher(Flowable.from_array([PlainPublisher(Flowable.range(0, 2)),
                                                PlainPublisher(Flowable.just(5))]))
    Flowable.merge(outer).test().assert_result(0, 1, 5)


def test_merge_of_single_publisher_of_publishers_fuses():
    Flowable.merge(Flowable.just(Flowable.range(0, 3))).test().assert_result(0, 1, 2)


def test_merge_with():
    Flowable.range(0, 2).merge_with(Flowable.range(10, 2)).test().assert_result(0, 1, 10, 11)


def test_merge_with_a_single_maybe_or_completable():
    """RxJava 2's mergeWith(SingleSource | MaybeSource | CompletableSource)."""
    a = ManualSource()
    ts = Flowable.from_publisher(a).merge_with(Single.just(10)).test()
    ts.assert_values(10)
    a.emit(1)
    a.complete()
    ts.assert_result(10, 1)
    Flowable.range(0, 2).merge_with(Maybe.empty()).test().assert_result(0, 1)
    Flowable.range(0, 2).merge_with(Completable.complete()).test().assert_result(0, 1)
    Flowable.never().merge_with(Completable.error(RuntimeError())).test().assert_failure(
        RuntimeError)
    with pytest.raises(TypeError, match="Publisher, Single, Maybe or Completable, not str"):
        Flowable.just(1).merge_with("x")  # type: ignore[arg-type]


def test_merge_array_interleaves_async_sources():
    a = ManualSource()
    b = ManualSource()
    ts = Flowable.merge_array(a, b).test()
    a.emit(1)
    b.emit(10)
    a.emit(2)
    b.emit(11)
    b.complete()
    ts.assert_values(1, 10, 2, 11).assert_not_complete()
    a.complete()
    ts.assert_complete()


def test_merge_with_none_element_is_type_error():
    Flowable.merge([Flowable.just(1), None]).test().assert_values(1).assert_error(TypeError)
    Flowable.merge([Flowable.just(1), 5]).test().assert_values(1).assert_error(TypeError)


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.merge(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.merge_array(Flowable.just(1), None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.just(1).merge_with(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Flowable.merge([Flowable.just(1)], max_concurrency=0)
    with pytest.raises(ValueError):
        Flowable.merge_delay_error([Flowable.just(1)], buffer_size=0)


# ---------------------------------------------------------------------------- max_concurrency

def test_merge_max_concurrency_subscribes_at_most_that_many():
    sources = [ManualSource() for _ in range(4)]
    ts = Flowable.merge(sources, max_concurrency=2).test()
    assert [s.subscriptions for s in sources] == [1, 1, 0, 0]
    sources[1].emit("b")
    sources[1].complete()
    assert [s.subscriptions for s in sources] == [1, 1, 1, 0]
    sources[0].complete()
    assert [s.subscriptions for s in sources] == [1, 1, 1, 1]
    sources[2].complete()
    sources[3].emit("d")
    sources[3].complete()
    ts.assert_result("b", "d")


def test_merge_publisher_of_publishers_request_pattern():
    outer = ManualSource()
    inners = [ManualSource() for _ in range(3)]
    ts = Flowable.merge(outer, max_concurrency=2).test()
    assert outer.requests == [2]
    outer.emit(inners[0], inners[1])
    inners[0].emit(1)
    inners[0].complete()
    assert outer.requests == [2, 1]
    outer.emit(inners[2])
    inners[1].complete()
    inners[2].complete()
    assert outer.requests == [2, 1, 1, 1]
    outer.complete()
    ts.assert_result(1)


@pytest.mark.parametrize("merge", [Flowable.merge, Flowable.merge_delay_error])
def test_merge_publisher_of_publishers_requests_128(merge):
    """RxJava 2.2.21 Flowable.merge(Publisher) / mergeDelayError(Publisher) use
    maxConcurrency = bufferSize(): 128 asked for; the just is counted towards a batch of
    64, the finished range asked for again at once."""
    outer = ManualSource()
    ts = merge(outer).test()
    assert outer.requests == [128]
    outer.emit(Flowable.just(1), Flowable.range(2, 2))
    outer.complete()
    ts.assert_result(1, 2, 3)
    assert outer.requests == [128, 1]


def test_merge_iterable_requests_128():
    """RxJava 2.2.21 Flowable.merge(Iterable) is fromIterable(sources).flatMap(identity)."""
    spy = Spy(Flowable.from_iterable([Flowable.range(i, 2) for i in range(200)]))
    Flowable.merge(spy).test().assert_value_count(400).assert_complete()
    assert spy.requests[0] == 128 and sum(spy.requests) == 328


def test_merge_array_requests_one_per_source_and_inners_buffer():
    spies = [Spy(Flowable.range(i * 10, 3)) for i in range(3)]
    Flowable.merge_array(*spies).test().assert_result(0, 1, 2, 10, 11, 12, 20, 21, 22)
    assert [s.requests for s in spies] == [[128], [128], [128]]


def test_merge_max_concurrency_one_is_sequential():
    f = Flowable.merge([Flowable.range(0, 3).hide(), Flowable.range(10, 3).hide()],
                       max_concurrency=1)
    f.test().assert_result(0, 1, 2, 10, 11, 12)


def test_merge_buffer_size_reaches_inners():
    spy = Spy(Flowable.range(0, 20))
    Flowable.merge([spy, Flowable.empty()], buffer_size=8).test() \
        .assert_value_count(20).assert_complete()
    assert spy.requests == [8] + [2] * 10  # RxJava 2.2.21: limit = bufferSize >> 2
    # one source only: the scalar source is fused away and the inner faces the consumer
    spy = Spy(Flowable.range(0, 20))
    Flowable.merge([spy], buffer_size=8).test().assert_value_count(20).assert_complete()
    assert spy.requests == [LONG_MAX]


# ---------------------------------------------------------------------------- errors

def test_merge_error_cancels_the_others():
    a = ManualSource()
    b = ManualSource()
    ts = Flowable.merge_array(a, b).test()
    a.emit(1)
    b.error(ValueError("b"))
    ts.assert_values(1).assert_error(ValueError)
    assert a.cancels == 1


def test_merge_delay_error_list_collects_in_order():
    e1, e2 = ValueError("1"), KeyError("2")
    ts = Flowable.merge_delay_error([Flowable.error(e1), Flowable.range(0, 2),
                                     Flowable.error(e2), Flowable.just(5)]).test()
    ts.assert_values(0, 1, 5).assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_merge_array_delay_error():
    e = ValueError("x")
    Flowable.merge_array_delay_error(Flowable.error(e), Flowable.range(0, 2)).test() \
        .assert_values(0, 1).assert_error(e)


def test_merge_delay_error_of_publisher_of_publishers_with_outer_error():
    e_inner, e_outer = ValueError("inner"), KeyError("outer")
    a = ManualSource()
    outer = Flowable.just(Flowable.error(e_inner), a).concat_with(Flowable.error(e_outer))
    ts = Flowable.merge_delay_error(outer, max_concurrency=2).test()
    ts.assert_not_terminated()
    assert a.cancels == 0
    a.emit(1)
    a.complete()
    ts.assert_values(1).assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e_inner, e_outer]


def test_merge_delay_error_waits_for_every_source():
    a = ManualSource()
    e = ValueError("x")
    ts = Flowable.merge_delay_error([Flowable.error(e), a]).test()
    ts.assert_not_terminated()
    a.emit(1)
    a.complete()
    ts.assert_values(1).assert_error(e)


# ---------------------------------------------------------------------------- cancel, backpressure

def test_merge_cancel_reaches_every_source():
    sources = [ManualSource() for _ in range(3)]
    ts = Flowable.merge(sources).test()
    ts.cancel()
    assert [s.cancels for s in sources] == [1, 1, 1]
    sources[0].emit(1)
    ts.assert_no_values().assert_not_terminated()


def test_merge_backpressure_one_by_one():
    f = Flowable.merge([Flowable.range(0, 5), Flowable.just(10), Flowable.range(20, 3).hide(),
                        Flowable.empty(), Flowable.range(30, 2)], max_concurrency=2)
    ts = f.test(0)
    for k in range(11):
        ts.request(1)
        assert ts.value_count() == k + 1
    ts.assert_complete()
    assert sorted(ts.values()) == [0, 1, 2, 3, 4, 10, 20, 21, 22, 30, 31]


def test_merge_request_in_on_next():
    sub = RequestOneInOnNext()
    Flowable.merge([Flowable.range(0, 500).hide() for _ in range(4)]).subscribe(sub)
    assert len(sub.values) == 2000 and sub.completed == 1


# ---------------------------------------------------------------------------- many sources

def test_merge_many_sources():
    sources = [Flowable.just(i) for i in range(10_000)]
    Flowable.merge(sources).test().assert_value_sequence(list(range(10_000))).assert_complete()


def test_merge_array_many_sources():
    sources = [Flowable.range(i, 1).hide() for i in range(10_000)]
    Flowable.merge_array(*sources).test().assert_value_count(10_000).assert_complete()


def test_merge_many_sources_max_concurrency_one():
    sources = [Flowable.range(i * 2, 2) for i in range(10_000)]
    Flowable.merge(sources, max_concurrency=1).test() \
        .assert_value_sequence(list(range(20_000))).assert_complete()


def test_merge_many_empty_sources():
    Flowable.merge([Flowable.empty().hide() for _ in range(10_000)], max_concurrency=3).test() \
        .assert_result()


# ---------------------------------------------------------------------------- real threads

def test_merge_async_sources():
    sources = [Flowable.range(i * 1000, 300).subscribe_on(Schedulers.computation())
               for i in range(6)]
    ts = Flowable.merge(sources, max_concurrency=3).test()
    ts.await_done(10).assert_no_errors().assert_complete()
    assert sorted(ts.values()) == sorted(i * 1000 + k for i in range(6) for k in range(300))


def test_merge_with_async_small_batches():
    f = Flowable.range(0, 200).observe_on(Schedulers.computation(), buffer_size=4) \
        .merge_with(Flowable.range(1000, 200).subscribe_on(Schedulers.io()))
    ts = f.test(0)
    got = 0
    while got < 400:
        ts.request(3)
        got = min(400, got + 3)
        ts.await_count(got, timeout=10)
        assert not ts.timeout
    ts.await_done(10).assert_no_errors().assert_complete()
    assert sorted(ts.values()) == list(range(200)) + list(range(1000, 1200))


# ---------------------------------------------------------------- RxJava 2's merge(source1, source2, ...)

@pytest.mark.parametrize(("name", "array"), [("merge", "merge_array"),
                                             ("merge_delay_error", "merge_array_delay_error")])
def test_sources_one_by_one_are_the_array_form(name, array):
    """RxJava 2's merge(p1, p2[, p3, p4]): the second positional argument is a Publisher,
    so every positional argument is a source (the *_array implementation)."""
    merge = getattr(Flowable, name)
    a, b, c = Flowable.just(1, 2), Flowable.just(3), Flowable.range(10, 2)
    merge(a, b).test().assert_result(1, 2, 3)
    merge(a, b, c, a).test().assert_result(1, 2, 3, 10, 11, 1, 2)
    assert type(merge(a, b)) is type(getattr(Flowable, array)(a, b))


def test_merge_delay_error_one_by_one_delays_the_error():
    Flowable.merge_delay_error(Flowable.error(Boom()), Flowable.just(1)).test() \
        .assert_failure(Boom, 1)
    Flowable.merge(Flowable.error(Boom()), Flowable.just(1)).test().assert_failure(Boom)


def test_the_iterable_and_publisher_forms_keep_their_ints():
    a, b = Flowable.just(1), Flowable.just(2)
    Flowable.merge([a, b], 1, 1).test().assert_result(1, 2)
    Flowable.merge(Flowable.just(a, b), 1).test().assert_result(1, 2)
    with pytest.raises(ValueError, match="max_concurrency"):
        Flowable.merge([a, b], 0)


def test_sources_one_by_one_refuse_what_is_not_a_source():
    a, b = Flowable.just(1), Flowable.just(2)
    with pytest.raises(TypeError, match="source 2 must be a Publisher, not int"):
        Flowable.merge(a, b, 3)
    with pytest.raises(TypeError, match="takes no keyword arguments, not max_concurrency"):
        Flowable.merge(a, b, max_concurrency=2)
    with pytest.raises(TypeError, match=r"max_concurrency must be an int, not SingleJust: did you "
                                        r"mean merge_array\(a, b\) or merge\(\[a, b\]\)\?"):
        Flowable.merge(a, Single.just(1))
    with pytest.raises(TypeError, match=r"did you mean merge_array_delay_error\(a, b\)"):
        Flowable.merge_delay_error(a, "b")
