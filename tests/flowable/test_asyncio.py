"""to_async_iterable, from_async_iterable and AsyncioScheduler (loops run with asyncio.run)."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest
from _fusion_probes import FusionProbe
from _fusion_probes import assert_no_new_threads
from _fusion_probes import rxpy2_threads
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import SYNC
from rxpy2.processors import UnicastProcessor
from rxpy2.schedulers import AsyncioScheduler
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


async def collect(aiterable):
    return [x async for x in aiterable]


# ---- to_async_iterable


def test_to_async_iterable_values():
    assert asyncio.run(collect(Flowable.range(1, 1000).to_async_iterable())) == list(range(1, 1001))


def test_to_async_iterable_requests_follow_consumption():
    req = []
    out = asyncio.run(collect(Flowable.range(0, 100).do_on_request(req.append).to_async_iterable(16)))
    assert out == list(range(100))
    assert req[0] == 16
    assert set(req[1:]) == {12}
    assert len(req) == 1 + (100 - 16) // 12 + 1  # the last request comes with the item that ends the range


def test_to_async_iterable_no_request_before_consumption():
    src = ManualSource()

    async def main():
        it = src.to_async_iterable(8).__aiter__()
        assert src.requests == []  # subscribed at the first __anext__
        t = asyncio.ensure_future(it.__anext__())
        await asyncio.sleep(0)
        assert src.requests == [8]
        src.emit(*range(1, 9))
        assert await t == 1
        assert src.requests == [8]
        for i in range(2, 7):
            assert await it.__anext__() == i
        assert src.requests == [8, 6]  # 6 taken: 3/4 of 8 more
        await it.aclose()
        assert src.cancels == 1

    asyncio.run(main())


def test_to_async_iterable_error_after_items():
    async def main():
        out = []
        with pytest.raises(Boom):
            async for x in Flowable.range(1, 3).concat_with(Flowable.error(Boom())).to_async_iterable():
                out.append(x)
        return out

    assert asyncio.run(main()) == [1, 2, 3]


def test_to_async_iterable_break_cancels():
    cancels = []

    async def main():
        async for x in Flowable.range(1, 1000).do_on_cancel(lambda: cancels.append(1)).to_async_iterable():
            if x == 5:
                break
        gc.collect()
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    asyncio.run(main())
    assert cancels == [1]


def test_to_async_iterable_task_cancel_cancels():
    src = ManualSource()

    async def main():
        async def consume():
            async for _ in src.to_async_iterable():
                pass

        t = asyncio.ensure_future(consume())
        await asyncio.sleep(0)
        assert src.requests == [128]
        t.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t

    asyncio.run(main())
    assert src.cancels == 1


def test_to_async_iterable_loop_end_cancels():
    src = ManualSource()

    async def main():
        it = src.to_async_iterable().__aiter__()
        src_task = asyncio.ensure_future(it.__anext__())
        await asyncio.sleep(0)
        src.emit(1)
        assert await src_task == 1
        # leave the loop with the iteration open: asyncio.run shuts the async generators down

    asyncio.run(main())
    assert src.cancels == 1


def test_to_async_iterable_producer_on_another_thread():
    src = ManualSource()

    def produce():
        while src.subscriber is None:
            threading.Event().wait(0.001)
        n = 0
        while n < 500:  # emit only under the demand that arrived
            with src._lock:
                allowed = min(sum(src.requests), 500)
            while n < allowed:
                n += 1
                src.emit(n)
            threading.Event().wait(0.0005)
        src.complete()

    t = threading.Thread(target=produce)
    t.start()
    out = asyncio.run(collect(src.to_async_iterable(32)))
    t.join()
    assert out == list(range(1, 501))


def test_to_async_iterable_bad_prefetch():
    with pytest.raises(ValueError):
        Flowable.range(1, 2).to_async_iterable(0)


def test_to_async_iterable_each_aiter_subscribes_again():
    ai = Flowable.range(1, 3).to_async_iterable()

    async def main():
        return await collect(ai), await collect(ai)

    assert asyncio.run(main()) == ([1, 2, 3], [1, 2, 3])


# ---- from_async_iterable


async def agen(n, fail=False):
    for i in range(n):
        yield i
    if fail:
        raise Boom()


async def drain_until(ts, done=lambda ts: ts.is_terminated(), rounds=200):
    for _ in range(rounds):
        if done(ts):
            return
        await asyncio.sleep(0)


def test_from_async_iterable_values():
    async def main():
        ts = Flowable.from_async_iterable(agen(5)).test()
        await drain_until(ts)
        return ts

    asyncio.run(main()).assert_result(0, 1, 2, 3, 4)


def test_from_async_iterable_one_pull_per_demand():
    pulls = []

    async def counting():
        for i in range(10):
            pulls.append(i)
            yield i

    async def main():
        ts = Flowable.from_async_iterable(counting()).test(0)
        for _ in range(20):
            await asyncio.sleep(0)
        assert pulls == []
        ts.request(2)
        await drain_until(ts, lambda t: t.value_count() == 2)
        for _ in range(20):
            await asyncio.sleep(0)
        ts.assert_values(0, 1)
        assert pulls == [0, 1]
        ts.request(100)
        await drain_until(ts)
        ts.assert_result(*range(10))

    asyncio.run(main())


def test_from_async_iterable_error():
    async def main():
        ts = Flowable.from_async_iterable(agen(2, fail=True)).test()
        await drain_until(ts)
        return ts

    asyncio.run(main()).assert_failure(Boom, 0, 1)


def test_from_async_iterable_none_is_type_error():
    async def nones():
        yield None

    async def main():
        ts = Flowable.from_async_iterable(nones()).test()
        await drain_until(ts)
        return ts

    asyncio.run(main()).assert_failure(TypeError)


def test_from_async_iterable_cancel_cancels_pending_anext():
    state = {}

    async def slow():
        yield 1
        try:
            await asyncio.Event().wait()
            yield 2
        except asyncio.CancelledError:
            state["cancelled"] = True
            raise

    async def main():
        ts = Flowable.from_async_iterable(slow()).test()
        await drain_until(ts, lambda t: t.value_count() == 1)
        await asyncio.sleep(0)
        ts.cancel()
        for _ in range(10):
            await asyncio.sleep(0)
        ts.assert_values(1).assert_not_complete()

    asyncio.run(main())
    assert state == {"cancelled": True}


def test_from_async_iterable_consumed_on_another_thread():
    async def main():
        loop = asyncio.get_running_loop()
        f = Flowable.from_async_iterable(agen(300), loop)
        result = await loop.run_in_executor(None, lambda: list(f.blocking_iterable(16)))
        return result

    assert asyncio.run(main()) == list(range(300))


def test_from_async_iterable_without_loop_is_error():
    Flowable.from_async_iterable(agen(1)).test().assert_failure(RuntimeError)


def test_from_async_iterable_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.from_async_iterable(None)
    with pytest.raises(TypeError):
        Flowable.from_async_iterable([1, 2])


def test_round_trip():
    async def main():
        return await collect(Flowable.from_async_iterable(agen(50)).map(lambda x: x * 2).to_async_iterable(8))

    assert asyncio.run(main()) == [2 * i for i in range(50)]


# ---- AsyncioScheduler


def test_asyncio_scheduler_runs_on_loop_in_order():
    async def main():
        loop = asyncio.get_running_loop()
        sch = AsyncioScheduler(loop)
        w = sch.create_worker()
        out = []
        done = asyncio.Event()
        me = threading.get_ident()

        def submit():  # from another thread
            for i in range(100):
                w.schedule(lambda i=i: out.append((i, threading.get_ident())))
            w.schedule(lambda: done.set())

        t = threading.Thread(target=submit)
        t.start()
        t.join()
        await done.wait()
        assert [i for i, _ in out] == list(range(100))
        assert {tid for _, tid in out} == {me}
        w.dispose()
        sch.shutdown()

    asyncio.run(main())


def test_asyncio_scheduler_delay_and_dispose():
    async def main():
        loop = asyncio.get_running_loop()
        sch = AsyncioScheduler(loop)
        w = sch.create_worker()
        out = []
        done = asyncio.Event()
        d = w.schedule(lambda: out.append("cancelled"), 0.01)
        w.schedule(lambda: out.append("later"), 0.02)
        w.schedule(done.set, 0.03)
        d.dispose()
        assert d.is_disposed()
        await done.wait()
        assert out == ["later"]
        w.schedule(lambda: out.append("x"), 0.01)
        w.dispose()
        assert w.is_disposed()
        assert w.schedule(lambda: out.append("y")).is_disposed()
        await asyncio.sleep(0.03)
        assert out == ["later"]
        sch.shutdown()

    asyncio.run(main())


def test_asyncio_scheduler_task_error_goes_to_plugins(plugin_errors):
    async def main():
        sch = AsyncioScheduler(asyncio.get_running_loop())
        done = asyncio.Event()
        sch.schedule_direct(lambda: 1 / 0)
        sch.schedule_direct(done.set)
        await done.wait()
        sch.shutdown()

    asyncio.run(main())
    assert [type(e) for e in plugin_errors.causes()] == [ZeroDivisionError]


def test_asyncio_scheduler_closed_loop():
    loop = asyncio.new_event_loop()
    sch = AsyncioScheduler(loop)
    loop.close()
    assert sch.create_worker().schedule(lambda: None).is_disposed()
    with pytest.raises(TypeError):
        AsyncioScheduler(None)


def test_asyncio_scheduler_dispose_vs_schedule_race(race_runner, race_rounds):
    loop = asyncio.new_event_loop()
    try:
        sch = AsyncioScheduler(loop)
        ran = []
        for _ in range(race_rounds // 4):
            w = sch.create_worker()
            race_runner.race(lambda w=w: w.schedule(lambda: ran.append(1)), w.dispose)
            loop.run_until_complete(asyncio.sleep(0))
            assert w.is_disposed()
            assert not w._tasks
        assert len(ran) <= race_rounds // 4
        sch.shutdown()
    finally:
        loop.close()


# ---- to_async_iterable: fusion (issue 6) (FusionProbe: tests/flowable/_fusion_probes.py)


@pytest.mark.parametrize("make, expected", [
    (lambda: Flowable.range(0, 300), list(range(300))),
    (lambda: Flowable.from_array(list(range(300))), list(range(300))),
    (lambda: Flowable.from_iterable(iter(range(300))), list(range(300))),
    (lambda: Flowable.just(5), [5]),
], ids=["range", "from_array", "from_iterable", "just"])
def test_to_async_iterable_sync_fused(make, expected):
    probe = FusionProbe(make())
    assert asyncio.run(collect(probe.to_async_iterable(16))) == expected
    assert probe.asked == [ANY | BOUNDARY] and probe.granted == [SYNC]
    assert probe.requests == []  # no request in SYNC mode
    assert probe.cancels == 0  # the end needs no cancel
    assert probe.polled == len(expected)


def test_to_async_iterable_sync_fused_break_cancels():
    probe = FusionProbe(Flowable.range(0, 10**6))

    async def main():
        got = []
        async for x in probe.to_async_iterable():
            got.append(x)
            if x == 3:
                break
        gc.collect()
        await asyncio.sleep(0)
        return got

    assert asyncio.run(main()) == [0, 1, 2, 3]
    assert probe.granted == [SYNC] and probe.cancels == 1 and probe.polled == 4


def test_to_async_iterable_sync_fused_poll_error_cancels_then_raises():
    probe = FusionProbe(Flowable.range(0, 10), poll_fail_at=3)

    async def main():
        got = []
        try:
            async for x in probe.to_async_iterable():
                got.append(x)
        except Boom:
            return got, probe.cancels  # the cancel came before the error
        return got, None

    assert asyncio.run(main()) == ([0, 1, 2], 1)
    assert probe.cancels == 1


def test_to_async_iterable_async_fused_unicast_from_another_thread():
    up = UnicastProcessor()
    probe = FusionProbe(up)

    def produce():
        for i in range(1000):
            up.on_next(i)
        up.on_complete()

    async def main():
        out = []
        t = None
        async for x in probe.to_async_iterable(8):
            if t is None:
                t = threading.Thread(target=produce, name="test-unicast-producer")
                t.start()
            out.append(x)
        t.join(10)
        return out, threading.current_thread()

    up.on_next(-1)
    out, loop_thread = asyncio.run(main())
    assert out == [-1] + list(range(1000))
    assert probe.asked == [ANY | BOUNDARY] and probe.granted == [ASYNC]
    assert probe.requests[0] == 8 and set(probe.requests[1:]) == {6}
    assert probe.poll_threads == {loop_thread}


def test_to_async_iterable_async_fused_poll_error_cancels_then_raises():
    up = UnicastProcessor()
    probe = FusionProbe(up, poll_fail_at=2)
    for i in range(5):
        up.on_next(i)

    async def main():
        got = []
        with pytest.raises(Boom):
            async for x in probe.to_async_iterable():
                got.append(x)
        return got

    assert asyncio.run(main()) == [0, 1]
    assert probe.granted == [ASYNC] and probe.cancels == 1
    assert not up.has_subscribers()


def test_to_async_iterable_async_fused_observe_on_and_no_thread_left():
    before = rxpy2_threads()
    probe = FusionProbe(Flowable.range(0, 2000).observe_on(Schedulers.new_thread(), buffer_size=16))
    assert asyncio.run(collect(probe.to_async_iterable(32))) == list(range(2000))
    assert probe.granted == [ASYNC] and probe.cancels == 0

    cancels = []
    probe = FusionProbe(Flowable.range(0, 10**9).do_on_cancel(lambda: cancels.append(1))
                        .observe_on(Schedulers.new_thread()))

    async def main():
        async for x in probe.to_async_iterable():
            if x == 300:
                break
        gc.collect()
        await asyncio.sleep(0)

    asyncio.run(main())
    assert probe.granted == [ASYNC] and probe.cancels == 1 and cancels == [1]
    assert_no_new_threads(before)


def test_to_async_iterable_user_code_after_observe_on_stays_on_the_worker():
    threads = set()

    def f(x):
        threads.add(threading.current_thread())
        return x

    async def main():
        return [x async for x in Flowable.range(0, 300).observe_on(Schedulers.new_thread())
                .map(f).to_async_iterable(16)], threading.current_thread()

    out, loop_thread = asyncio.run(main())
    assert out == list(range(300))
    assert loop_thread not in threads and len(threads) == 1


def test_to_async_iterable_async_fused_empty_and_from_callable():
    probe = FusionProbe(Flowable.empty())
    assert asyncio.run(collect(probe.to_async_iterable())) == []
    assert probe.granted == [ASYNC]
    probe = FusionProbe(Flowable.from_callable(lambda: 9))
    assert asyncio.run(collect(probe.to_async_iterable())) == [9]
    assert probe.granted == [ASYNC] and probe.cancels == 0
