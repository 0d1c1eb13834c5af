"""``async for x in flowable`` (Flowable.__aiter__): to_async_iterable's demand and cancel."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


async def collect(f):
    return [x async for x in f]


def test_values():
    assert asyncio.run(collect(Flowable.range(1, 1000))) == list(range(1, 1001))


def test_demand_follows_the_consumer():
    req = []
    out = asyncio.run(collect(Flowable.range(0, 300).hide().do_on_request(req.append)))
    assert out == list(range(300))
    assert req[0] == 128 and set(req[1:]) == {96}  # as to_async_iterable(): prefetch 128


def test_no_request_before_the_first_anext():
    src = ManualSource()

    async def main():
        it = src.__aiter__()
        assert src.subscriptions == 0
        t = asyncio.ensure_future(it.__anext__())
        await asyncio.sleep(0)
        assert src.requests == [128]
        src.emit(7)
        assert await t == 7
        await it.aclose()

    asyncio.run(main())
    assert src.cancels == 1


def test_each_loop_is_a_new_subscription():
    f = Flowable.range(0, 3)

    async def main():
        return await collect(f), await collect(f)

    assert asyncio.run(main()) == ([0, 1, 2], [0, 1, 2])


def test_error_is_raised_in_the_loop():
    async def main():
        got = []
        with pytest.raises(Boom):
            async for x in Flowable.just(1).concat_with(Flowable.error(Boom())):
                got.append(x)
        return got

    assert asyncio.run(main()) == [1]


def test_break_cancels_the_upstream():
    src = ManualSource()

    async def main():
        async def feed():
            await asyncio.sleep(0)
            src.emit(1, 2, 3)

        asyncio.ensure_future(feed())
        async for x in src:
            if x == 2:
                break
        return x

    assert asyncio.run(main()) == 2
    assert src.cancels == 1


def test_items_from_another_thread():
    f = Flowable.range(0, 500).subscribe_on(Schedulers.computation())
    assert asyncio.run(collect(f)) == list(range(500))


def test_race_cancel_vs_item(race_runner, race_rounds):
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, name="test-async-for-loop")
    runner.start()
    try:
        for _ in range(race_rounds // 4):
            src = ManualSource()
            got: list[int] = []
            done = threading.Event()

            async def consume(src=src, got=got, done=done):
                try:
                    async for x in src:
                        got.append(x)
                finally:  # the generator's own finally (the cancel) has run by now
                    done.set()

            fut = asyncio.run_coroutine_threadsafe(consume(), loop)
            while not src.requests:  # subscribed on the loop's thread, waiting for items
                time.sleep(0.0001)
            race_runner.race(fut.cancel, lambda src=src: src.emit(1, 2, 3))
            assert done.wait(5)
            assert src.cancels == 1
            assert got == [1, 2, 3][:len(got)]  # nothing lost in the middle, nothing twice
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
