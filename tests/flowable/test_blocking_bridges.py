"""blocking_first/last/single/for_each, blocking_latest/next/most_recent, to_future, from_future."""

from __future__ import annotations

import concurrent.futures
import gc
import threading
import weakref

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2 import TestScheduler
from rxpy2.reactivestreams import LONG_MAX

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def recorded(f: Flowable, requests: list, cancels: list) -> Flowable:
    return f.do_on_request(requests.append).do_on_cancel(lambda: cancels.append(1))


def emit_later(src: ManualSource, *items, error=None):
    """Signal ``items`` then completion (or ``error``) from another thread once subscribed."""
    def run():
        while src.subscriber is None:
            threading.Event().wait(0.001)
        src.emit(*items)
        if error is not None:
            src.error(error)
        else:
            src.complete()
    t = threading.Thread(target=run)
    t.start()
    return t


# ---- blocking_first / last / single


def test_blocking_first_value_and_cancels_after_first():
    req, canc = [], []
    assert recorded(Flowable.range(1, 10), req, canc).blocking_first() == 1
    assert req == [LONG_MAX]
    assert canc == [1]


def test_blocking_first_empty_default_and_index_error():
    assert Flowable.empty().blocking_first(5) == 5
    with pytest.raises(IndexError):
        Flowable.empty().blocking_first()


def test_blocking_first_error_reraised():
    with pytest.raises(Boom):
        Flowable.error(Boom()).blocking_first()
    with pytest.raises(Boom):
        Flowable.error(Boom()).blocking_first(1)  # the default is for an empty stream only


def test_blocking_first_from_another_thread():
    src = ManualSource()
    t = emit_later(src, 7, 8)
    assert src.blocking_first() == 7
    t.join()
    assert src.cancels == 1


def test_blocking_last():
    assert Flowable.range(1, 10).blocking_last() == 10
    assert Flowable.empty().blocking_last(-1) == -1
    with pytest.raises(IndexError):
        Flowable.empty().blocking_last()
    with pytest.raises(Boom):
        Flowable.range(1, 3).concat_with(Flowable.error(Boom())).blocking_last(0)


def test_blocking_last_from_another_thread():
    src = ManualSource()
    t = emit_later(src, 1, 2, 3)
    assert src.blocking_last() == 3
    t.join()


def test_blocking_single():
    assert Flowable.just(4).blocking_single() == 4
    assert Flowable.empty().blocking_single(9) == 9
    with pytest.raises(IndexError):
        Flowable.empty().blocking_single()
    with pytest.raises(Boom):
        Flowable.error(Boom()).blocking_single()


def test_blocking_single_more_than_one_cancels():
    req, canc = [], []
    with pytest.raises(ValueError):
        recorded(Flowable.range(1, 10), req, canc).blocking_single(0)
    assert canc == [1]


def test_blocking_error_after_done_goes_to_plugins(plugin_errors):
    src = ManualSource()
    t = emit_later(src, 1)
    assert src.blocking_first() == 1
    t.join()
    src.error(Boom())
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_blocking_for_each():
    out = []
    Flowable.range(1, 5).blocking_for_each(out.append)
    assert out == [1, 2, 3, 4, 5]
    with pytest.raises(Boom):
        Flowable.range(1, 2).concat_with(Flowable.error(Boom())).blocking_for_each(out.append)
    with pytest.raises(TypeError):
        Flowable.range(1, 2).blocking_for_each(None)


def test_blocking_for_each_fn_raises_cancels():
    req, canc = [], []

    def f(x):
        if x == 3:
            raise Boom()

    with pytest.raises(Boom):
        recorded(Flowable.range(1, 10), req, canc).blocking_for_each(f)
    assert canc == [1]


# ---- latest / next / most_recent


def test_blocking_latest_skips_to_latest():
    src = ManualSource()
    it = iter(src.blocking_latest())
    assert src.requests == [LONG_MAX]
    src.emit(1, 2, 3)
    assert next(it) == 3
    src.emit(4)
    assert next(it) == 4
    src.emit(5)
    src.complete()
    assert list(it) == [5]


def test_blocking_latest_waits_and_error():
    src = ManualSource()
    it = iter(src.blocking_latest())
    t = emit_later(src, 1, error=Boom())
    got = []
    with pytest.raises(Boom):
        for x in it:
            got.append(x)
    t.join()
    assert got in ([1], [])


def test_blocking_latest_close_cancels():
    src = ManualSource()
    it = iter(src.blocking_latest())
    src.emit(1)
    assert next(it) == 1
    it.close()
    assert src.cancels == 1
    with pytest.raises(StopIteration):
        next(it)


def test_blocking_latest_break_cancels():
    req, canc = [], []
    for x in recorded(Flowable.never(), req, canc).start_with(1).blocking_latest():
        assert x == 1
        break
    assert canc == [1]


def test_blocking_next_only_items_emitted_while_waiting():
    src = ManualSource()
    it = iter(src.blocking_next())
    src.emit(1, 2)  # nobody waits: skipped
    started = threading.Event()

    def run():
        started.wait()
        while True:  # emit until the consumer took one
            with it.lock:
                if it.waiting:
                    break
            threading.Event().wait(0.001)
        src.emit(3)

    t = threading.Thread(target=run)
    t.start()
    started.set()
    assert next(it) == 3
    t.join()
    src.complete()
    assert list(it) == []


def test_blocking_next_error():
    it = iter(Flowable.error(Boom()).blocking_next())
    with pytest.raises(Boom):
        next(it)


def test_blocking_most_recent():
    src = ManualSource()
    it = iter(src.blocking_most_recent(0))
    assert next(it) == 0
    assert next(it) == 0
    src.emit(1, 2)
    assert next(it) == 2
    src.complete()
    assert list(it) == []


def test_blocking_most_recent_error_and_close():
    src = ManualSource()
    it = iter(src.blocking_most_recent(0))
    src.error(Boom())
    with pytest.raises(Boom):
        next(it)
    src2 = ManualSource()
    it2 = iter(src2.blocking_most_recent(0))
    it2.close()
    assert src2.cancels == 1
    with pytest.raises(TypeError):
        Flowable.empty().blocking_most_recent(None)


# ---- to_future


def test_to_future_single_value():
    assert Flowable.just(3).to_future().result(timeout=5) == 3


def test_to_future_empty_index_error():
    with pytest.raises(IndexError):
        Flowable.empty().to_future().result(timeout=5)


def test_to_future_more_than_one_value_error_and_cancel():
    req, canc = [], []
    f = recorded(Flowable.range(1, 5), req, canc).to_future()
    with pytest.raises(ValueError):
        f.result(timeout=5)
    assert req == [LONG_MAX]
    assert canc == [1]


def test_to_future_error():
    with pytest.raises(Boom):
        Flowable.error(Boom()).to_future().result(timeout=5)


def test_to_future_cancel_cancels_subscription():
    src = ManualSource()
    f = src.to_future()
    assert f.cancel()
    assert src.cancels == 1
    src.emit(1)
    src.complete()  # ignored: the future is cancelled
    assert f.cancelled()


def test_to_future_from_another_thread():
    src = ManualSource()
    f = src.to_future()
    t = emit_later(src, 42)
    assert f.result(timeout=5) == 42
    t.join()


# ---- from_future


def test_from_future_value_under_demand():
    f = concurrent.futures.Future()
    ts = Flowable.from_future(f).test(0)
    f.set_result(5)
    ts.assert_no_values().assert_not_complete()
    ts.request(1)
    ts.assert_result(5)


def test_from_future_done_already_and_none_is_empty():
    f = concurrent.futures.Future()
    f.set_result(1)
    Flowable.from_future(f).test().assert_result(1)
    g = concurrent.futures.Future()
    g.set_result(None)
    Flowable.from_future(g).test().assert_result()


def test_from_future_error_and_cancelled_future():
    f = concurrent.futures.Future()
    ts = Flowable.from_future(f).test()
    f.set_exception(Boom())
    ts.assert_failure(Boom)
    g = concurrent.futures.Future()
    ts2 = Flowable.from_future(g).test()
    g.cancel()
    ts2.assert_failure(concurrent.futures.CancelledError)


def test_from_future_on_executor_thread():
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        gate = threading.Event()
        f = pool.submit(lambda: gate.wait() and 9)
        ts = Flowable.from_future(f).test()
        ts.assert_no_values()
        gate.set()
        ts.await_done().assert_result(9)


def test_from_future_cancel_ignores_result():
    f = concurrent.futures.Future()
    ts = Flowable.from_future(f).test()
    ts.cancel()
    f.set_result(1)
    ts.assert_no_values().assert_not_complete()
    assert not f.cancelled()  # the future is not ours to cancel


@pytest.mark.parametrize("kind", [Flowable, Single, Maybe, Completable])
@pytest.mark.parametrize("end", ["cancel", "timeout"])
def test_from_future_lets_go_of_the_consumer_when_cancelled_or_timed_out(kind, end):
    # the future cannot unregister its done-callback: a future that never completes
    # must not keep the consumer (here a map and the test consumer) alive after the
    # subscription ended
    sch = TestScheduler()
    f = concurrent.futures.Future()
    src = kind.from_future(f, timeout=1.0 if end == "timeout" else None, scheduler=sch)
    consumer = (src.map(lambda x: x) if kind is not Completable else src).test()
    if end == "cancel" and kind is Flowable:
        consumer.cancel()
    elif end == "cancel":
        consumer.dispose()
    else:
        sch.advance_time_by(1.0)
        consumer.assert_failure(TimeoutError)
    ref = weakref.ref(consumer)
    del consumer
    gc.collect()
    assert ref() is None
    f.set_result(1)  # the callback the future still holds does nothing


def test_from_future_timeout_with_test_scheduler():
    sch = TestScheduler()
    f = concurrent.futures.Future()
    ts = Flowable.from_future(f, timeout=1.0, scheduler=sch).test()
    sch.advance_time_by(0.5)
    ts.assert_not_terminated()
    sch.advance_time_by(0.5)
    ts.assert_failure(TimeoutError)
    f.set_result(1)  # too late: ignored
    ts.assert_value_count(0)


def test_from_future_completes_before_timeout():
    sch = TestScheduler()
    f = concurrent.futures.Future()
    ts = Flowable.from_future(f, timeout=1.0, scheduler=sch).test()
    f.set_result(3)
    sch.advance_time_by(2)
    ts.assert_result(3)


def test_from_future_timeout_on_computation():
    f = concurrent.futures.Future()
    ts = Flowable.from_future(f, timeout=0.01).test()
    ts.await_done().assert_failure(TimeoutError)


def test_from_future_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.from_future(None)
    with pytest.raises(TypeError):
        Flowable.from_future(42)
    with pytest.raises(TypeError):
        Flowable.from_future(concurrent.futures.Future(), timeout="x")


def test_from_future_complete_vs_cancel_race(race_runner, race_rounds):
    for _ in range(race_rounds):
        f = concurrent.futures.Future()
        ts = Flowable.from_future(f).test()
        race_runner.race(lambda f=f: f.set_result(1), ts.cancel)
        assert ts.values() in ([], [1])
        assert ts.completions() <= len(ts.values())  # a cancel may come between the two
        assert not ts.errors()
