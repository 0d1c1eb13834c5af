"""concat_map_eager / concat_map_eager_delay_error / concat_eager and InnerQueuedSubscriber:
eager subscription, ordered emission, request patterns, error modes, cancellation, races."""

from __future__ import annotations

import pytest
from _async_probes import race_cancel_vs_inner_items
from probes import Manual
from probes import ManualSource
from probes import Recorded
from probes import RequestOneInOnNext
from probes import Spy
from probes import boom

from rxpy2 import Flowable
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.operators.flowable.flowable_concat_map_eager import FlowableConcatMapEager
from rxpy2._internal.subscribers.inner_queued import InnerQueuedSubscriber
from rxpy2._internal.subscribers.inner_queued import InnerQueuedSubscriberSupport
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def tens(x):
    return Flowable.range(x * 10, 3)


# ---------------------------------------------------------------------------- values

def test_values_in_order():
    Flowable.range(1, 3).concat_map_eager(tens).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32).assert_protocol_ok()


def test_hidden_sources():
    Flowable.range(1, 3).hide().concat_map_eager(lambda x: tens(x).hide()).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32)


def test_scalar_and_empty_inners():
    Flowable.range(0, 6).concat_map_eager(
        lambda x: Flowable.empty() if x % 2 else Flowable.just(x)).test().assert_result(0, 2, 4)


def test_empty_outer():
    Flowable.empty().concat_map_eager(tens).test().assert_result()


def test_all_inners_subscribed_at_once_and_emitted_in_order():
    sources = [ManualSource() for _ in range(3)]
    ts = Flowable.range(0, 3).concat_map_eager(lambda i: sources[i]).test()
    assert [s.subscriptions for s in sources] == [1, 1, 1]
    sources[2].emit(20, 21)
    sources[1].emit(10)
    ts.assert_no_values()
    sources[0].emit(0)
    ts.assert_values(0)
    sources[1].complete()
    sources[2].complete()
    ts.assert_values(0)
    sources[0].emit(1)
    sources[0].complete()
    ts.assert_result(0, 1, 10, 20, 21)


def test_async_fused_inners():
    ups = [UnicastProcessor.create() for _ in range(2)]
    ts = Flowable.range(0, 2).concat_map_eager(lambda i: ups[i]).test(0)
    ups[1].on_next(10)
    ups[1].on_complete()
    ups[0].on_next(0)
    ts.assert_no_values()
    ts.request(1)
    ts.assert_values(0)
    ups[0].on_complete()
    ts.request(5)
    ts.assert_result(0, 10)


def test_concat_eager_iterable_and_publisher():
    Flowable.concat_eager([Flowable.range(1, 2), Flowable.just(3)]).test().assert_result(1, 2, 3)
    Flowable.concat_eager(Flowable.just(Flowable.range(1, 2), Flowable.just(3))).test() \
        .assert_result(1, 2, 3)


def test_operator_type_and_modes():
    f = Flowable.range(1, 2)
    assert isinstance(f.concat_map_eager(tens), FlowableConcatMapEager)
    assert f.concat_map_eager(tens).error_mode == ErrorMode.IMMEDIATE
    assert f.concat_map_eager_delay_error(tens).error_mode == ErrorMode.END
    assert f.concat_map_eager_delay_error(tens, False).error_mode == ErrorMode.BOUNDARY


def test_bad_arguments():
    f = Flowable.range(1, 2)
    with pytest.raises(TypeError):
        f.concat_map_eager(None)
    with pytest.raises(ValueError):
        f.concat_map_eager(tens, max_concurrency=0)
    with pytest.raises(ValueError):
        f.concat_map_eager(tens, prefetch=0)
    with pytest.raises(ValueError):
        f.concat_map_eager_delay_error(tens, prefetch=-1)


def test_concat_eager_of_10k_publishers():
    sources = [Flowable.range(i * 2, 2) for i in range(10_000)]
    Flowable.concat_eager(Flowable.from_iterable(sources)).test() \
        .assert_value_sequence(list(range(20_000))).assert_complete()


def test_many_inners_bounded_concurrency_and_demand_no_recursion():
    sub = RequestOneInOnNext()
    Flowable.range(0, 20_000).concat_map_eager(Flowable.just, max_concurrency=2).subscribe(sub)
    assert sub.values == list(range(20_000)) and sub.completed == 1


# ---------------------------------------------------------------------------- requests

def test_upstream_unbounded_requests_long_max():
    rec = Recorded(1, 5)
    rec.flowable.concat_map_eager(Flowable.just, max_concurrency=LONG_MAX).test() \
        .assert_result(1, 2, 3, 4, 5)
    assert rec.requests == [LONG_MAX]


@pytest.mark.parametrize(("kwargs", "first"), [({"max_concurrency": 2}, 2), ({}, 128)],
                         ids=["bounded", "default_buffer_size"])  # RxJava 2's default
def test_upstream_bounded_requests_max_concurrency_then_one_per_finished_inner(kwargs, first):
    rec = Recorded(1, 5)
    rec.flowable.concat_map_eager(Flowable.just, **kwargs).test() \
        .assert_result(1, 2, 3, 4, 5)
    assert rec.requests == [first, 1, 1, 1, 1, 1]


def test_upstream_bounded_waits_for_the_head_to_be_consumed():
    rec = Recorded(1, 5)
    ts = rec.flowable.concat_map_eager(tens, max_concurrency=2).test(0)
    assert rec.requests == [2]
    ts.request(2)
    assert rec.requests == [2]  # the head inner still has an item
    ts.request(1)
    ts.assert_values(10, 11, 12)
    assert rec.requests == [2, 1]


def test_inner_prefetch_and_replenish():
    spy = Spy(Flowable.range(0, 10))
    ts = Flowable.just(0).hide().concat_map_eager(lambda _: spy, prefetch=4).test(0)
    assert spy.requests == [4]  # prefetched at once, whatever the downstream asked
    ts.request(2)
    assert spy.requests == [4]
    ts.request(1)
    assert spy.requests == [4, 3]  # 3 consumed: 75% of 4
    ts.request(LONG_MAX)
    ts.assert_result(*range(10))
    assert spy.requests == [4, 3, 3, 3]


def test_later_inners_prefetch_before_any_demand():
    spies = [Spy(Flowable.range(i * 10, 5)) for i in range(3)]
    ts = Flowable.range(0, 3).concat_map_eager(lambda i: spies[i], prefetch=8).test(0)
    assert [s.requests for s in spies] == [[8], [8], [8]]
    ts.assert_no_values()


def test_backpressure_exact_one_by_one():
    ts = Flowable.range(0, 3).concat_map_eager(lambda i: Flowable.range(i * 10, 2)).test(0)
    expected = [0, 1, 10, 11, 20, 21]
    for k in range(1, 7):
        ts.request(1)
        ts.assert_values(*expected[:k])
    ts.assert_complete()


# ---------------------------------------------------------------------------- errors

def test_immediate_inner_error_cancels_everything():
    src = ManualSource()
    inners = [Manual() for _ in range(3)]
    ts = src.concat_map_eager(lambda i: inners[i]).test()
    src.emit(0, 1, 2)
    inners[0].subscriber.on_next("a")
    inners[1].subscriber.on_next("b")
    inners[1].subscriber.on_error(KeyError("x"))
    ts.assert_failure(KeyError, "a")
    assert src.cancelled
    assert inners[0].probe.cancelled == 1 and inners[2].probe.cancelled == 1


def test_immediate_outer_error():
    src, inner = ManualSource(), Manual()
    ts = src.concat_map_eager(lambda i: inner).test()
    src.emit(0)
    inner.subscriber.on_next("a")
    src.error(ValueError("outer"))
    ts.assert_failure(ValueError, "a")
    assert inner.probe.cancelled == 1


def test_boundary_waits_for_the_head_then_cancels_the_rest():
    src = ManualSource()
    inners = [Manual() for _ in range(3)]
    ts = src.concat_map_eager_delay_error(lambda i: inners[i], till_the_end=False).test()
    src.emit(0, 1, 2)
    inners[0].subscriber.on_next("a")
    inners[1].subscriber.on_error(KeyError("x"))
    assert src.cancelled
    ts.assert_values("a").assert_not_terminated()
    inners[0].subscriber.on_next("b")
    inners[0].subscriber.on_complete()
    ts.assert_failure(KeyError, "a", "b")
    assert inners[2].probe.cancelled == 1


def test_end_collects_every_error():
    e_outer = ValueError("outer")
    errs = {1: KeyError(1), 3: KeyError(3)}

    def inner(i):
        if i in errs:
            return Flowable.just(i * 10).concat_with(Flowable.error(errs[i]))
        return Flowable.just(i)

    outer = Flowable.range(0, 4).concat_with(Flowable.error(e_outer))
    ts = outer.concat_map_eager_delay_error(inner).test()
    ts.assert_failure(CompositeException, 0, 10, 2, 30)
    assert ts.errors()[0].exceptions == [errs[1], errs[3], e_outer]


def test_end_single_error_as_is():
    err = KeyError("x")
    Flowable.range(0, 3).concat_map_eager_delay_error(
        lambda i: Flowable.error(err) if i == 1 else Flowable.just(i)).test() \
        .assert_failure(lambda e: e is err, 0, 2)


@pytest.mark.parametrize("op", ["concat_map_eager", "concat_map_eager_delay_error"])
def test_mapper_raising_cancels_upstream(op):
    rec = Recorded(1, 5)
    ts = getattr(rec.flowable, op)(lambda x: boom() if x == 3 else Flowable.just(x)).test()
    ts.assert_failure(ZeroDivisionError, 1, 2)
    assert rec.cancels == [1]


def test_mapper_returning_none():
    rec = Recorded(1, 5)
    rec.flowable.concat_map_eager(lambda x: None).test().assert_failure(TypeError)
    assert rec.cancels == [1]


def test_fused_inner_poll_raising_immediate():
    ts = Flowable.range(0, 3).concat_map_eager(
        lambda i: Flowable.range(i * 10, 3).map(lambda v: boom() if v == 11 else v)).test()
    ts.assert_failure(ZeroDivisionError, 0, 1, 2, 10)


def test_fused_inner_poll_raising_end():
    ts = Flowable.range(0, 3).concat_map_eager_delay_error(
        lambda i: Flowable.range(i * 10, 3).map(lambda v: boom() if v == 11 else v)).test()
    ts.assert_failure(ZeroDivisionError, 0, 1, 2, 10, 20, 21, 22)


def test_inner_overflow_is_missing_backpressure():
    inner = ManualSource()
    ts = Flowable.just(0).hide().concat_map_eager(lambda _: inner, prefetch=2).test(0)
    inner.emit(1, 2, 3)
    ts.request(5)
    ts.assert_failure(MissingBackpressureException)
    assert inner.cancelled


def test_late_error_goes_to_plugins(plugin_errors):
    src, inner = ManualSource(), Manual()
    ts = src.concat_map_eager(lambda i: inner).test()
    src.emit(0)
    e1, e2 = ValueError("first"), KeyError("late")
    inner.subscriber.on_error(e1)
    inner.subscriber.on_error(e2)
    ts.assert_failure(lambda e: e is e1)
    assert plugin_errors.causes() == [e2]


# ---------------------------------------------------------------------------- cancellation

@pytest.mark.parametrize("op", ["concat_map_eager", "concat_map_eager_delay_error"])
def test_cancel_reaches_upstream_and_every_inner(op):
    src = ManualSource()
    inners = [Manual() for _ in range(3)]
    ts = getattr(src, op)(lambda i: inners[i]).test()
    src.emit(0, 1, 2)
    inners[0].subscriber.on_next("a")
    ts.cancel()
    assert src.cancelled
    assert [m.probe.cancelled for m in inners] == [1, 1, 1]
    inners[0].subscriber.on_next("b")
    ts.assert_values("a").assert_not_terminated()


def test_item_after_cancel_subscribes_nothing_lasting():
    src, inner = ManualSource(), Manual()
    ts = src.concat_map_eager(lambda i: inner).test()
    ts.cancel()
    src.emit(0)  # a source that missed the cancel
    assert inner.subscriptions == 0


def test_take_cancels_everything():
    rec = Recorded(1, 100)
    Flowable.from_publisher(rec.flowable).concat_map_eager(tens, max_concurrency=3).take(4) \
        .test().assert_result(10, 11, 12, 20)
    assert rec.cancels == [1]


# ---------------------------------------------------------------------------- InnerQueuedSubscriber

class _Support(InnerQueuedSubscriberSupport):
    def __init__(self):
        self.events = []

    def inner_next(self, inner, item):
        inner.queue.offer(item)
        self.events.append(("next", item))

    def inner_error(self, inner, error):
        self.events.append(("error", error))

    def inner_complete(self, inner):
        inner.set_done()
        self.events.append(("complete",))

    def drain(self):
        self.events.append(("drain",))


def test_inner_queued_subscriber_sync_fusion_completes_at_once():
    sup = _Support()
    inner = InnerQueuedSubscriber(sup, 4)
    Flowable.range(1, 3).subscribe(inner)
    assert sup.events == [("complete",)] and inner.is_done()
    assert [inner.queue.poll() for _ in range(4)] == [1, 2, 3, None]


def test_inner_queued_subscriber_request_one_replenishes():
    sup = _Support()
    inner = InnerQueuedSubscriber(sup, 8)
    spy = Spy(Flowable.range(1, 20))
    spy.subscribe(inner)
    assert spy.requests == [8]
    for _ in range(6):
        inner.request_one()
    assert spy.requests == [8, 6]
    inner.request(5)  # below the limit of 6: kept
    assert spy.requests == [8, 6]
    inner.request(3)
    assert spy.requests == [8, 6, 8]
    inner.cancel()
    assert spy.cancels == 1 and inner.is_cancelled()


# ---------------------------------------------------------------------------- threads

def test_end_to_end_inners_on_computation():
    ts = Flowable.range(0, 30).concat_map_eager(
        lambda i: Flowable.range(i * 10, 10).observe_on(Schedulers.computation()),
        max_concurrency=4, prefetch=4).test()
    ts.await_done(10).assert_value_sequence(list(range(300))).assert_complete()


def test_race_two_inners_emitting_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.range(0, 2).concat_map_eager(lambda i, a=a, b=b: a if i == 0 else b).test()

        def first(a=a):
            a.emit(0, 1, 2, 3)
            a.complete()

        def second(b=b):
            b.emit(10, 11, 12, 13)
            b.complete()

        race_runner.race(first, second)
        ts.assert_result(0, 1, 2, 3, 10, 11, 12, 13).assert_protocol_ok()


def test_race_two_inners_with_bounded_demand(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.range(0, 2).concat_map_eager(lambda i, a=a, b=b: a if i == 0 else b).test(0)

        def first(a=a, ts=ts):
            a.emit(0, 1)
            ts.request(2)
            a.complete()

        def second(b=b, ts=ts):
            b.emit(10, 11)
            b.complete()
            ts.request(2)

        race_runner.race(first, second)
        ts.assert_result(0, 1, 10, 11).assert_protocol_ok()


def test_race_cancel_vs_inner_on_next(race_runner, race_rounds):
    race_cancel_vs_inner_items(
        race_runner, race_rounds,
        lambda inner: Flowable.just(0).hide().concat_map_eager(lambda _: inner).test())
