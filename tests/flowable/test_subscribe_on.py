"""subscribe_on / unsubscribe_on."""

from __future__ import annotations

import threading

import pytest
from _async_probes import CapturingSource

from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def name() -> str:
    return threading.current_thread().name


def test_subscribes_and_emits_on_the_worker():
    seen: list[str] = []
    ts = (Flowable.range(1, 5).do_on_subscribe(lambda _: seen.append(name()))
          .subscribe_on(Schedulers.io()).test())
    ts.await_done(5).assert_result(1, 2, 3, 4, 5)
    assert seen[0].startswith("rxpy2-io-")
    assert ts.last_thread.name.startswith("rxpy2-")


def test_subscription_arrives_downstream_at_once():
    s = TestScheduler()
    ts = Flowable.range(1, 3).subscribe_on(s).test()
    ts.assert_subscribed().assert_no_values()
    s.trigger_actions()
    ts.assert_result(1, 2, 3)
    assert s.pending_count() == 0


def test_requests_before_the_subscription_are_deferred():
    s = TestScheduler()
    log: list[int] = []
    ts = Flowable.range(0, 10).do_on_request(log.append).subscribe_on(s).test(0)
    ts.request(2)
    ts.request(3)
    assert log == []
    s.trigger_actions()
    assert log == [5]
    ts.assert_values(0, 1, 2, 3, 4)


def test_later_requests_run_on_the_worker_when_request_on():
    s = TestScheduler()
    log: list[int] = []
    ts = Flowable.range(0, 10).do_on_request(log.append).subscribe_on(s).test(0)
    s.trigger_actions()  # the worker's "thread" is this one now: request from another
    t = threading.Thread(target=lambda: ts.request(2))
    t.start()
    t.join()
    assert log == []  # scheduled, not yet run
    s.trigger_actions()
    assert log == [2]
    ts.assert_values(0, 1)


def test_requests_go_direct_without_request_on():
    s = TestScheduler()
    log: list[int] = []
    ts = Flowable.range(0, 10).do_on_request(log.append).subscribe_on(s, request_on=False).test(0)
    s.trigger_actions()
    ts.request(2)
    assert log == [2]
    ts.assert_values(0, 1)


def test_requests_go_direct_for_create():
    s = TestScheduler()
    log: list[int] = []
    emitters = []
    src = Flowable.create(emitters.append, BackpressureStrategy.BUFFER)
    ts = src.subscribe_on(s).test(0)
    s.trigger_actions()
    emitters[0].set_cancellable(lambda: log.append(-1))
    ts.request(3)
    assert emitters[0].requested() == 3
    ts.cancel()
    assert log == [-1]


def test_requests_from_the_worker_thread_go_direct():
    from rxpy2 import FlowableSubscriber
    inside = [False]
    seen: list[bool] = []
    done = threading.Event()

    class OneByOne(FlowableSubscriber[int]):
        def on_subscribe(self, s):
            self.s = s
            threading.Thread(target=lambda: s.request(1)).start()  # not the worker: scheduled

        def on_next(self, item):
            inside[0] = True
            self.s.request(1)  # on the worker: direct, so it runs before on_next returns
            inside[0] = False

        def on_error(self, e):
            done.set()

        def on_complete(self):
            done.set()

    Flowable.range(0, 20).do_on_request(lambda _: seen.append(inside[0])) \
        .subscribe_on(Schedulers.single()).subscribe(OneByOne())
    assert done.wait(5)
    assert seen[0] is False and all(seen[1:]) and len(seen) == 21


def test_real_thread_request_routing():
    threads: set[str] = set()
    ts = (Flowable.range(0, 100).do_on_request(lambda _: threads.add(name()))
          .subscribe_on(Schedulers.computation()).test(0))
    for _ in range(100):
        ts.request(1)
    ts.await_done(5).assert_value_sequence(list(range(100))).assert_complete()
    assert threads and all(t.startswith("rxpy2-") for t in threads)


# ---- consecutive subscribe_on: the one nearest the source decides


def test_a_chain_of_subscribe_on_is_one_stage():
    """Over subscribe_on(a), subscribe_on(b) would only move the subscribing of that stage
    onto b on its way to a: 3,000 of them cost one task, not 3,000 tasks and 3,000 nested
    on_next frames (a RecursionError from a thousand on)."""
    from rxpy2 import plugins

    tasks = [0]

    def count(fn):
        tasks[0] += 1
        return fn

    plugins.set_schedule_handler(count)
    seen: list[str] = []
    f = Flowable.range(0, 10).do_on_subscribe(lambda _: seen.append(name()))
    f = f.subscribe_on(Schedulers.single())
    for _ in range(3000):
        f = f.subscribe_on(Schedulers.computation())
    f.test().await_done(5).assert_result(*range(10))
    assert seen[0].startswith("rxpy2-single-")  # subscribed on the innermost's worker
    assert tasks[0] == 1, tasks[0]


def test_a_requesting_stage_over_a_direct_one_stays():
    # inner request_on=False, outer request_on=True: a later request from this thread runs
    # on the outer's worker and from there straight up: without the outer stage, here
    inner, outer = TestScheduler(), TestScheduler()
    log: list[int] = []
    ts = (Flowable.range(0, 10).do_on_request(log.append)
          .subscribe_on(inner, request_on=False).subscribe_on(outer).test(0))
    outer.trigger_actions()
    inner.trigger_actions()
    t = threading.Thread(target=lambda: ts.request(2))
    t.start()
    t.join()
    assert log == []  # on the outer's worker, not yet run
    outer.trigger_actions()
    assert log == [2]
    ts.assert_values(0, 1)


def test_consecutive_subscribe_on_without_request_on_over_one_with_it_are_one_stage():
    s = TestScheduler()
    inner = Flowable.range(0, 10).subscribe_on(s)
    assert inner.subscribe_on(Schedulers.single(), request_on=False) is inner
    assert inner.subscribe_on(Schedulers.single()) is inner
    direct = Flowable.range(0, 10).subscribe_on(s, request_on=False)
    assert direct.subscribe_on(Schedulers.single(), request_on=False) is direct
    assert direct.subscribe_on(Schedulers.single()) is not direct


def test_an_assembly_hook_sees_every_subscribe_on():
    from rxpy2 import plugins

    seen: list[object] = []

    def hook(f):
        seen.append(f)
        return f

    plugins.set_on_flowable_assembly(hook)
    try:
        f = Flowable.range(0, 3).subscribe_on(Schedulers.single()).subscribe_on(Schedulers.single())
    finally:
        plugins.set_on_flowable_assembly(None)
    assert len({id(x) for x in seen}) == 3  # range and both stages
    f.test().await_done(5).assert_result(0, 1, 2)


def test_error_passes_and_worker_disposed():
    s = TestScheduler()
    ts = Flowable.error(ValueError("x")).subscribe_on(s).test()
    s.trigger_actions()
    ts.assert_failure(ValueError)
    assert s.pending_count() == 0


def test_cancel_before_subscribe_runs_never_subscribes():
    s = TestScheduler()
    subscribed: list[int] = []
    ts = Flowable.range(0, 3).do_on_subscribe(lambda _: subscribed.append(1)).subscribe_on(s).test()
    ts.cancel()
    s.trigger_actions()
    assert subscribed == []
    ts.assert_no_values()


def test_cancel_reaches_the_source():
    s = TestScheduler()
    src = CapturingSource()
    ts = src.subscribe_on(s).test(0)
    s.trigger_actions()
    ts.cancel()
    assert src.cancelled == 1


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.range(0, 1).subscribe_on(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(0, 1).unsubscribe_on(object())  # type: ignore[arg-type]


def test_race_request_vs_subscribe(race_runner, race_rounds):
    s = Schedulers.trampoline()
    for _ in range(race_rounds):
        log: list[int] = []
        f = Flowable.range(0, 10).do_on_request(log.append).subscribe_on(s)
        ts = f.test(0)  # subscribed inside test(); then requests from two threads at once
        race_runner.race(lambda ts=ts: ts.request(3), lambda ts=ts: ts.request(4))
        ts.assert_value_sequence(list(range(7)))
        assert sum(log) == 7


def test_race_deferred_request_vs_upstream_arrival(race_runner, race_rounds):
    for _ in range(race_rounds):
        s = TestScheduler()
        log: list[int] = []
        ts = Flowable.range(0, 10).do_on_request(log.append).subscribe_on(s, request_on=False).test(0)
        race_runner.race(s.trigger_actions, lambda ts=ts: ts.request(5))
        ts.assert_value_sequence(list(range(5)))
        assert log == [5]


# ---------------------------------------------------------------- unsubscribe_on

def test_unsubscribe_on_cancels_on_the_scheduler():
    cancel_threads: list[str] = []
    done = threading.Event()

    def on_cancel():
        cancel_threads.append(name())
        done.set()

    ts = Flowable.range(0, 1000).do_on_cancel(on_cancel).unsubscribe_on(Schedulers.io()).test(3)
    ts.assert_values(0, 1, 2)
    ts.cancel()
    assert done.wait(5)
    assert cancel_threads[0].startswith("rxpy2-io-")


def test_unsubscribe_on_virtual_time():
    s = TestScheduler()
    src = CapturingSource()
    ts = src.unsubscribe_on(s).test()
    src.emit(1)
    ts.cancel()
    assert src.cancelled == 0
    src.emit(2)  # dropped once cancelled
    s.trigger_actions()
    assert src.cancelled == 1
    ts.assert_values(1)


def test_unsubscribe_on_passes_values_and_requests():
    s = TestScheduler()
    log: list[int] = []
    ts = Flowable.range(0, 5).do_on_request(log.append).unsubscribe_on(s).test(2)
    ts.request(3)
    ts.assert_result(0, 1, 2, 3, 4)
    assert log == [2, 3]


def test_unsubscribe_on_late_error_goes_to_plugins(plugin_errors):
    s = TestScheduler()
    src = CapturingSource()
    ts = src.unsubscribe_on(s).test()
    ts.cancel()
    err = ValueError("late")
    src.error(err)
    assert plugin_errors.causes() == [err]


def test_a_sync_fused_source_goes_to_a_batch_sink_in_batches(monkeypatch):
    """Over a SYNC-fusable source, subscribe_on polls on its worker and hands a subscriber
    that declares it takes batches (BatchSink: observe_on) a batch per call."""
    from rxpy2._internal.fuseable import BatchSink
    from rxpy2._internal.operators.flowable.flowable_observe_on import ObserveOnSubscriber

    assert issubclass(ObserveOnSubscriber, BatchSink)
    sizes: list[int] = []
    original = ObserveOnSubscriber.on_next_batch

    def counted(self, items):
        items = list(items)
        sizes.append(len(items))
        original(self, items)

    monkeypatch.setattr(ObserveOnSubscriber, "on_next_batch", counted)
    (Flowable.range(0, 1000).subscribe_on(Schedulers.single()).observe_on(Schedulers.single())
     .test().await_done(5).assert_value_sequence(list(range(1000))).assert_complete())
    assert sum(sizes) == 1000 and max(sizes) > 1
