"""Single's converting and element operators (RxJava 2.2.21): from_future, from_publisher,
to_future, to_maybe, ignore_element, materialize, dematerialize, contains,
flat_map_completable, flatten_as_flowable."""

from __future__ import annotations

import concurrent.futures
import gc
import weakref

import pytest
from probes import Boom
from probes import ManualSource
from probes import ProbeCompletable
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Schedulers
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2.notification import Notification
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.fixture
def reported():
    errors: list[BaseException] = []
    previous = plugins.get_error_handler()
    plugins.set_error_handler(lambda e: errors.append(e.__cause__ or e))  # unwrap Undeliverable
    yield errors
    plugins.set_error_handler(previous)


# ---------------------------------------------------------------- argument checks

def test_arguments_checked_at_assembly():
    s = Single.just(1)
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    with pytest.raises(TypeError):
        Single.from_future(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Single.from_future(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Single.from_future(f, -1)
    with pytest.raises(TypeError):
        Single.from_future(f, "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Single.from_future(f, 1, object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Single.from_publisher(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Single.from_publisher([1])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.dematerialize(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.contains(None)
    with pytest.raises(TypeError):
        s.contains(1, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.flat_map_completable(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.flatten_as_flowable(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- from_future

def test_from_future_success_after_subscribe():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(f).test()
    to.assert_subscribed().assert_empty()
    f.set_result(5)
    to.assert_result(5)


def test_from_future_already_done():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    f.set_result(5)
    Single.from_future(f).test().assert_result(5)
    Single.from_future(f).test().assert_result(5)  # per subscriber


def test_from_future_none_result_is_type_error():
    f: concurrent.futures.Future[None] = concurrent.futures.Future()
    f.set_result(None)
    Single.from_future(f).test().assert_failure(TypeError)  # RxJava 2: NullPointerException


def test_from_future_exception_and_cancel():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(f).test()
    f.set_exception(Boom())
    to.assert_failure(Boom)
    g: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(g).test()
    g.cancel()
    to.assert_failure(concurrent.futures.CancelledError)


def test_from_future_dispose_does_not_cancel_the_future():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(f).test()
    to.dispose()
    assert not f.cancelled()
    f.set_result(1)
    to.assert_empty()


def test_from_future_disposed_before_subscribe_registers_nothing():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    Single.from_future(f).test(cancel=True)
    assert f._done_callbacks == []  # no callback keeps the observer alive


def test_from_future_timeout(sched):
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(f, 2, sched).test()
    sched.advance_time_by(1.9)
    to.assert_empty()
    sched.advance_time_by(0.1)
    to.assert_failure(TimeoutError)
    f.set_result(1)  # too late: nothing more
    to.assert_failure(TimeoutError)


def test_from_future_success_cancels_the_timer(sched):
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(f, 2, sched).test()
    f.set_result(1)
    to.assert_result(1)
    sched.advance_time_by(5)
    to.assert_result(1)


def test_from_future_dispose_cancels_the_timer(sched):
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Single.from_future(f, 2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()


def test_from_future_real_executor():
    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        assert Single.from_future(ex.submit(lambda: 42)).blocking_get(5) == 42


def test_from_future_race_result_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds):
        f: concurrent.futures.Future[int] = concurrent.futures.Future()
        to = Single.from_future(f).test()
        race_runner.race(lambda f=f: f.set_result(1), to.dispose)
        assert to.values() in ([], [1]) and not to.errors()
        to.assert_protocol_ok()


def test_from_future_race_result_vs_timeout(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        f: concurrent.futures.Future[int] = concurrent.futures.Future()
        to = Single.from_future(f, 1, sched).test()
        race_runner.race(lambda f=f: f.set_result(1), lambda: sched.advance_time_by(1))
        assert len(to.values()) + len(to.errors()) == 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- from_publisher

def test_from_publisher_one_item():
    Single.from_publisher(Flowable.just(1)).test().assert_result(1)


def test_from_publisher_empty_is_index_error():
    Single.from_publisher(Flowable.empty()).test().assert_failure(IndexError)


def test_from_publisher_error():
    Single.from_publisher(Flowable.error(Boom())).test().assert_failure(Boom)


def test_from_publisher_dispose_after_success_still_cancels():
    src = ManualSource()
    to = Single.from_publisher(src).test()
    src.emit(1)
    src.complete()
    to.assert_result(1)
    to.dispose()  # as RxJava 2's SingleFromPublisher: cancelled even after the end
    assert src.cancelled


def test_from_publisher_second_item_cancels():
    src = ManualSource()
    to = Single.from_publisher(src).test()
    assert src.requests == [2**63 - 1]
    src.emit(1)
    to.assert_empty()
    src.emit(2)
    assert src.cancelled
    to.assert_failure(IndexError)
    src.emit(3)
    src.complete()
    to.assert_failure(IndexError)


def test_from_publisher_late_error_reported(reported):
    src = ManualSource()
    to = Single.from_publisher(src).test()
    src.emit(1)
    src.emit(2)
    src.error(Boom())
    to.assert_failure(IndexError)
    assert len(reported) == 1 and isinstance(reported[0], Boom)


def test_from_publisher_dispose_cancels():
    src = ManualSource()
    to = Single.from_publisher(src).test()
    to.dispose()
    assert src.cancelled


def test_from_publisher_many_items_synchronous():
    Single.from_publisher(Flowable.range(1, 100_000)).test().assert_failure(IndexError)


# ---------------------------------------------------------------- to_future

def test_to_future_success():
    f = Single.just(1).to_future()
    assert f.result(0) == 1


def test_to_future_error():
    f = Single.error(Boom()).to_future()
    assert isinstance(f.exception(0), Boom)


def test_to_future_async():
    f = Single.timer(0.01).to_future()
    assert f.result(5) == 0


def test_to_future_cancel_disposes():
    p = ProbeSingle()
    f = p.to_future()
    assert f.cancel()
    assert p.disposed == 1
    p.success(1)  # dropped
    assert f.cancelled()


def test_to_future_error_after_cancel_reported(reported):
    p = ProbeSingle()
    f = p.to_future()
    f.cancel()
    p.error(Boom())
    assert len(reported) == 1 and isinstance(reported[0], Boom)


def test_to_future_keyboard_interrupt_while_waiting_disposes(monkeypatch):
    p = ProbeSingle()
    f = p.to_future()

    def interrupted(self, timeout=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(concurrent.futures.Future, "result", interrupted)
    with pytest.raises(KeyboardInterrupt):
        f.result()
    monkeypatch.undo()
    assert f.cancelled() and p.disposed == 1


def test_to_future_race_cancel_vs_success(race_runner, race_rounds, reported):
    for _ in range(race_rounds):
        p = ProbeSingle()
        f = p.to_future()
        race_runner.race(f.cancel, lambda p=p: p.success(1))
        assert f.done()
        if f.cancelled():
            assert p.disposed == 1
        else:
            assert f.result(0) == 1
    assert reported == []


def test_to_future_race_cancel_vs_error(race_runner, race_rounds, reported):
    for _ in range(race_rounds):
        p = ProbeSingle()
        f = p.to_future()
        e = Boom()
        race_runner.race(f.cancel, lambda p=p, e=e: p.error(e))
        assert f.done()
        if f.cancelled():
            # the error lost the race: reported, never lost
            assert reported.pop() is e
        else:
            assert f.exception(0) is e
    assert reported == []


# ---------------------------------------------------------------- to_maybe / ignore_element

def test_to_maybe():
    Single.just(1).to_maybe().test().assert_result(1)
    Single.error(Boom()).to_maybe().test().assert_failure(Boom)


def test_to_maybe_dispose():
    p = ProbeSingle()
    p.to_maybe().test().dispose()
    assert p.disposed == 1


def test_ignore_element():
    Single.just(1).ignore_element().test().assert_result()
    Single.error(Boom()).ignore_element().test().assert_failure(Boom)
    assert isinstance(Single.just(1).ignore_element(), Completable)


def test_ignore_element_dispose():
    p = ProbeSingle()
    to = p.ignore_element().test()
    to.dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- materialize / dematerialize

def test_materialize():
    Single.just(1).materialize().test().assert_result(Notification.create_on_next(1))
    to = Single.error(Boom()).materialize().test()
    n = to.values()[0]
    assert n.is_on_error() and isinstance(n.error, Boom)
    to.assert_complete()


def test_materialize_dispose():
    p = ProbeSingle()
    to = p.materialize().test()
    to.dispose()
    assert p.disposed == 1


def test_dematerialize_each_kind():
    Single.just(1).dematerialize(Notification.create_on_next).test().assert_result(1)
    Single.just(1).dematerialize(lambda _: Notification.create_on_complete()).test().assert_result()
    (Single.just(1).dematerialize(lambda _: Notification.create_on_error(Boom())).test()
     .assert_failure(Boom))
    Single.error(Boom()).dematerialize(Notification.create_on_next).test().assert_failure(Boom)


def test_dematerialize_round_trip():
    Single.just(5).materialize().dematerialize(lambda n: n).test().assert_result(5)
    Single.error(Boom()).materialize().dematerialize(lambda n: n).test().assert_failure(Boom)


def test_dematerialize_selector_errors():
    Single.just(1).dematerialize(lambda _: None).test().assert_failure(TypeError)
    Single.just(1).dematerialize(lambda _: 5).test().assert_failure(TypeError)

    def boom(_):
        raise Boom()

    Single.just(1).dematerialize(boom).test().assert_failure(Boom)


def test_dematerialize_dispose():
    p = ProbeSingle()
    to = p.dematerialize(Notification.create_on_next).test()
    to.dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- contains

def test_contains():
    Single.just(1).contains(1).test().assert_result(True)
    Single.just(1).contains(2).test().assert_result(False)
    Single.error(Boom()).contains(1).test().assert_failure(Boom)


def test_contains_comparer():
    seen = []

    def cmp(a, b):
        seen.append((a, b))
        return a % 10 == b

    Single.just(13).contains(3, cmp).test().assert_result(True)
    assert seen == [(13, 3)]

    def boom(a, b):
        raise Boom()

    Single.just(1).contains(1, boom).test().assert_failure(Boom)


# ---------------------------------------------------------------- flat_map_completable

def test_flat_map_completable():
    Single.just(1).flat_map_completable(lambda _: Completable.complete()).test().assert_result()
    (Single.just(1).flat_map_completable(lambda _: Completable.error(Boom())).test()
     .assert_failure(Boom))
    (Single.error(Boom()).flat_map_completable(lambda _: Completable.complete()).test()
     .assert_failure(Boom))


def test_flat_map_completable_mapper_errors():
    Single.just(1).flat_map_completable(lambda _: None).test().assert_failure(TypeError)
    Single.just(1).flat_map_completable(lambda _: Single.just(1)).test().assert_failure(TypeError)

    def boom(_):
        raise Boom()

    Single.just(1).flat_map_completable(boom).test().assert_failure(Boom)


def test_flat_map_completable_dispose_reaches_source_then_inner():
    p = ProbeSingle()
    c = ProbeCompletable()
    to = p.flat_map_completable(lambda _: c).test()
    p.success(1)
    assert len(c.observers) == 1
    to.dispose()
    assert c.disposed == 1 and p.disposed == 0


def test_flat_map_completable_dispose_before_success():
    p = ProbeSingle()
    c = ProbeCompletable()
    to = p.flat_map_completable(lambda _: c).test()
    to.dispose()
    assert p.disposed == 1
    p.success(1)
    assert c.observers == []


def test_flat_map_completable_race_dispose_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        p = ProbeSingle()
        c = ProbeCompletable()
        to = p.flat_map_completable(lambda _, c=c: c).test()
        race_runner.race(to.dispose, lambda p=p: p.success(1))
        # whichever won, the running source is disposed
        assert p.disposed == 1 or c.disposed == 1
        to.assert_empty()


# ---------------------------------------------------------------- flatten_as_flowable

def test_flatten_as_flowable_unbounded():
    Single.just(3).flatten_as_flowable(range).test().assert_result(0, 1, 2)


def test_flatten_as_flowable_backpressure_completes_with_last():
    ts = Single.just(3).flatten_as_flowable(lambda n: iter(range(n))).test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(0).assert_not_complete()
    ts.request(2)
    ts.assert_result(0, 1, 2)  # the read-ahead completes with the last element


def test_flatten_as_flowable_request_before_success():
    p = ProbeSingle()
    ts = p.flatten_as_flowable(range).test(2)
    p.success(5)
    ts.assert_values(0, 1)
    ts.request(10)
    ts.assert_result(0, 1, 2, 3, 4)


def test_flatten_as_flowable_empty_iterable_completes():
    Single.just(0).flatten_as_flowable(range).test(0).assert_result()


def test_flatten_as_flowable_errors():
    Single.error(Boom()).flatten_as_flowable(range).test().assert_failure(Boom)
    Single.just(1).flatten_as_flowable(lambda _: None).test().assert_failure(TypeError)
    Single.just(1).flatten_as_flowable(lambda _: 5).test().assert_failure(TypeError)
    Single.just(1).flatten_as_flowable(lambda _: [1, None, 3]).test().assert_failure(TypeError, 1)
    Single.just(1).flatten_as_flowable(lambda _: [None]).test(1).assert_failure(TypeError)


def _failing_after(n):
    def gen(_):
        yield from range(n)
        raise Boom()
    return gen


def test_flatten_as_flowable_iterator_raises():
    Single.just(1).flatten_as_flowable(_failing_after(0)).test().assert_failure(Boom)
    Single.just(1).flatten_as_flowable(_failing_after(2)).test().assert_failure(Boom, 0, 1)
    ts = Single.just(1).flatten_as_flowable(_failing_after(2)).test(1)
    ts.assert_values(0)
    ts.request(1)
    ts.assert_failure(Boom, 0, 1)


def test_flatten_as_flowable_cancel_disposes_source():
    p = ProbeSingle()
    ts = p.flatten_as_flowable(range).test(0)
    ts.cancel()
    assert p.disposed == 1


def test_flatten_as_flowable_cancel_in_on_next_stops_both_paths():
    for initial in (2**63 - 1, 5):
        pulled = []

        def source(_, pulled=pulled):
            for i in range(10):
                pulled.append(i)
                yield i

        ts: TestSubscriber[int] = TestSubscriber(initial)
        Single.just(1).flatten_as_flowable(source).do_on_next(
            lambda v, ts=ts: ts.cancel() if v == 1 else None).subscribe(ts)
        ts.assert_values(0, 1).assert_not_complete()
        assert pulled == [0, 1]  # nothing pulled after the cancel


def test_flatten_as_flowable_cancel_drops_the_iterator():
    class Big:
        pass

    made = []

    def gen(_):
        for _i in range(3):
            b = Big()
            made.append(weakref.ref(b))
            yield b

    ts = Single.just(1).flatten_as_flowable(gen).test(1)
    assert len(made) == 2  # one emitted, one read ahead
    ts.cancel()
    gc.collect()
    assert made[1]() is None  # the element read ahead and the iterator are gone


def test_flatten_as_flowable_huge_synchronous():
    ts = Single.just(100_000).flatten_as_flowable(range).test()
    assert ts.value_count() == 100_000
    ts.assert_complete()


def test_flatten_as_flowable_fused_async():
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(ASYNC)
    Single.just(3).flatten_as_flowable(range).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result(0, 1, 2)


def test_flatten_as_flowable_refuses_fusion_across_boundary():
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(ASYNC | BOUNDARY)
    Single.just(3).flatten_as_flowable(range).subscribe(ts)
    ts.assert_fusion_mode(0).assert_result(0, 1, 2)


def test_flatten_as_flowable_observe_on():
    vals = (Single.just(1000).flatten_as_flowable(range).observe_on(Schedulers.computation())
            .to_list().blocking_get(5))
    assert vals == list(range(1000))


def test_flatten_as_flowable_race_request_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        ts = Single.just(10).flatten_as_flowable(range).test(0)
        race_runner.race(lambda ts=ts: ts.request(5), lambda ts=ts: ts.request(5))
        ts.assert_result(*range(10))


def test_flatten_as_flowable_race_request_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        ts = Single.just(10).flatten_as_flowable(range).test(0)
        race_runner.race(lambda ts=ts: ts.request(10), ts.cancel)
        vals = ts.values()
        assert vals == list(range(len(vals)))
        assert not ts.errors()
        # a cancel between the tenth item and on_complete drops the completion (RxJava's
        # flatten-iterable checks cancelled before onComplete too): 0 or 1 after ten items
        assert ts.completions() <= (1 if len(vals) == 10 else 0)


def test_flatten_as_flowable_race_success_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        p = ProbeSingle()
        ts = p.flatten_as_flowable(range).test(0)
        race_runner.race(lambda ts=ts: ts.request(3), lambda p=p: p.success(3))
        ts.assert_result(0, 1, 2)


def test_flatten_as_flowable_race_success_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        p = ProbeSingle()
        ts = p.flatten_as_flowable(range).test()
        race_runner.race(ts.cancel, lambda p=p: p.success(3))
        assert p.disposed == 1
        vals = ts.values()
        assert vals in ([], [0], [0, 1], [0, 1, 2]) and not ts.errors()


def test_result_types():
    # Single's methods return the RxJava 2 types
    assert isinstance(Single.just(1).to_maybe(), Maybe)
    assert isinstance(Single.just(1).dematerialize(Notification.create_on_next), Maybe)
    assert isinstance(Single.just(1).flatten_as_flowable(range), Flowable)
