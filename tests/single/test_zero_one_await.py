"""``await`` on Single, Maybe and Completable, and ``Single.from_awaitable`` (loops run with
asyncio.run)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from probes import Boom
from zero_one_kinds import FAILING
from zero_one_kinds import KINDS
from zero_one_kinds import NEVER
from zero_one_kinds import OK

from rxpy2 import Completable
from rxpy2 import Maybe
from rxpy2 import Schedulers
from rxpy2 import Single
from rxpy2.schedulers import TestScheduler

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def run(coro_fn):
    return asyncio.run(coro_fn())


# ---- await


@pytest.mark.parametrize("kind", KINDS)
def test_await_returns_the_item_or_none(kind):
    async def main():
        return await OK[kind]()

    assert run(main) == (None if kind == "completable" else 1)


def test_await_empty_maybe_is_none():
    async def main():
        return await Maybe.empty()

    assert run(main) is None


@pytest.mark.parametrize("kind", KINDS)
def test_await_raises_the_error(kind):
    async def main():
        await FAILING[kind]()

    with pytest.raises(Boom):
        run(main)


def test_await_subscribes_only_when_awaited_and_each_time():
    subscriptions = []
    s = Single.defer(lambda: subscriptions.append(1) or Single.just(len(subscriptions)))

    async def main():
        it = s.__await__()  # the awaitable made, not run yet
        assert subscriptions == []
        it.close()
        assert subscriptions == []
        first = await s
        second = await s
        return first, second

    assert run(main) == (1, 2)
    assert subscriptions == [1, 1]


@pytest.mark.parametrize("kind", KINDS)
def test_signal_from_another_thread_resumes_on_the_loop(kind):
    signal_threads = []

    async def main():
        source = OK[kind]().subscribe_on(Schedulers.new_thread())
        source = source.do_on_terminate(lambda: signal_threads.append(threading.get_ident()))
        result = await source
        return result, threading.get_ident()

    result, awaiting_thread = run(main)
    assert result == (None if kind == "completable" else 1)
    assert signal_threads and signal_threads[0] != awaiting_thread


def test_error_from_another_thread_is_raised_on_the_loop():
    boom = Boom()

    async def main():
        await Single.error(boom).subscribe_on(Schedulers.new_thread())

    with pytest.raises(Boom) as info:
        run(main)
    assert info.value is boom


def test_await_timer_on_the_computation_scheduler():
    async def main():
        return await Single.timer(0.01).map(lambda x: x + 5)

    assert run(main) == 5


@pytest.mark.parametrize("kind", KINDS)
def test_cancelling_the_awaiting_task_disposes(kind):
    disposed = []
    threads_before = threading.active_count()

    async def main():
        task = asyncio.ensure_future(_await(NEVER[kind]().do_on_dispose(lambda: disposed.append(1))))
        for _ in range(5):
            await asyncio.sleep(0)
        assert disposed == []
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(main)
    assert disposed == [1]
    assert threading.active_count() == threads_before  # awaiting starts no thread


async def _await(source):
    return await source


def test_cancelling_an_awaited_timer_cancels_its_scheduled_task():
    ts = TestScheduler()
    disposed = []

    async def main():
        task = asyncio.ensure_future(_await(
            Single.timer(10.0, ts).do_on_dispose(lambda: disposed.append(1))))
        await asyncio.sleep(0)
        assert ts.pending_count() == 1
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert ts.pending_count() == 0  # the timer's task is cancelled with the await

    run(main)
    assert disposed == [1]


def test_awaited_timer_completes_when_the_test_scheduler_advances():
    ts = TestScheduler()

    async def main():
        task = asyncio.ensure_future(_await(Single.timer(10.0, ts).map(lambda x: "fired")))
        await asyncio.sleep(0)
        assert not task.done()
        ts.advance_time_by(10.0)
        return await task

    assert run(main) == "fired"


def test_wait_for_timeout_disposes():
    disposed = []

    async def main():
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_await(Single.never().do_on_dispose(lambda: disposed.append(1))),
                                   0.01)

    run(main)
    assert disposed == [1]


def test_await_outside_a_loop_is_an_error_and_subscribes_nothing():
    subscribed = []
    it = Single.just(1).do_on_subscribe(lambda d: subscribed.append(d)).__await__()
    with pytest.raises(RuntimeError):
        next(it)
    assert subscribed == []


def test_a_signal_after_the_loop_closed_is_dropped():
    release = threading.Event()
    delivered = threading.Event()

    def late():
        release.wait(5)
        return 1

    async def main():
        source = (Single.from_callable(late).subscribe_on(Schedulers.new_thread())
                  .do_after_success(lambda _v: delivered.set()))
        return asyncio.ensure_future(_await(source))

    loop = asyncio.new_event_loop()
    task = loop.run_until_complete(main())
    loop.run_until_complete(asyncio.sleep(0))  # the task subscribes
    loop.close()  # the awaiting task never finishes
    release.set()
    assert delivered.wait(5)  # the observer took the signal without raising (plugins empty)
    assert not task.done()


def test_typed_results():
    async def main():
        x: int = await Single.just(1)
        y: str | None = await Maybe.just("a")
        z = await Completable.complete()
        return x, y, z

    assert run(main) == (1, "a", None)


# ---- Single.from_awaitable


async def _value(v, delay=0.0):
    await asyncio.sleep(delay)
    return v


def test_from_awaitable_coroutine():
    async def main():
        return await Single.from_awaitable(_value(3)).map(lambda x: x * 2)

    assert run(main) == 6


def test_from_awaitable_signals_on_the_loop_thread():
    threads = []

    async def main():
        s = Single.from_awaitable(_value(1)).do_on_success(
            lambda _v: threads.append(threading.get_ident()))
        await s
        return threading.get_ident()

    assert threads == [run(main)]


def test_from_awaitable_error_and_none():
    async def failing():
        raise Boom()

    async def nothing():
        return None

    async def main():
        with pytest.raises(Boom):
            await Single.from_awaitable(failing())
        with pytest.raises(TypeError):
            await Single.from_awaitable(nothing())

    run(main)


def test_from_awaitable_future_and_dispose_keeps_the_users_future():
    async def main():
        loop = asyncio.get_running_loop()
        shared = loop.create_future()
        d = Single.from_awaitable(shared).subscribe(lambda v: pytest.fail("disposed"))
        later = Single.from_awaitable(shared).to_future()
        await asyncio.sleep(0)
        d.dispose()
        await asyncio.sleep(0)
        assert not shared.cancelled()
        shared.set_result("r")
        return await asyncio.wrap_future(later)

    assert run(main) == "r"


def test_from_awaitable_cancelled_future_is_cancelled_error():
    async def main():
        fut = asyncio.get_running_loop().create_future()
        fut.cancel()
        with pytest.raises(asyncio.CancelledError):
            await Single.from_awaitable(fut)
        return "ok"

    assert run(main) == "ok"


def test_from_awaitable_dispose_cancels_the_coroutine():
    state = {}

    async def slow():
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            state["cancelled"] = True
            raise
        return 1

    async def main():
        to = Single.from_awaitable(slow()).test()
        for _ in range(3):
            await asyncio.sleep(0)
        to.dispose()
        for _ in range(3):
            await asyncio.sleep(0)
        to.assert_empty()
        assert state == {"cancelled": True}  # before asyncio.run cancels what is left

    run(main)


def test_cancelling_the_task_awaiting_from_awaitable_cancels_the_coroutine():
    state = {}

    async def slow():
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            state["cancelled"] = True
            raise

    async def main():
        task = asyncio.ensure_future(_await(Single.from_awaitable(slow())))
        for _ in range(3):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(3):
            await asyncio.sleep(0)
        assert state == {"cancelled": True}  # before asyncio.run cancels what is left

    run(main)


def test_from_awaitable_with_a_loop_subscribed_from_another_thread():
    async def main():
        loop = asyncio.get_running_loop()
        s = Single.from_awaitable(_value(9, 0.001), loop)
        return await loop.run_in_executor(None, lambda: s.blocking_get(5))

    assert run(main) == 9


def test_from_awaitable_a_future_of_a_loop_on_another_thread():
    loop = asyncio.new_event_loop()
    t = threading.Thread(target=loop.run_forever, name="test-loop")
    t.start()
    try:
        fut = asyncio.run_coroutine_threadsafe(_make_future(), loop).result(5)
        result = Single.from_awaitable(fut).to_future()  # no loop here: the future's own
        loop.call_soon_threadsafe(fut.set_result, 4)
        assert result.result(5) == 4
    finally:
        loop.call_soon_threadsafe(loop.stop)
        t.join(5)
        loop.close()


async def _make_future():
    return asyncio.get_running_loop().create_future()


def test_from_awaitable_without_a_loop_is_an_error_and_closes_the_coroutine():
    coro = _value(1)
    Single.from_awaitable(coro).test().assert_failure(RuntimeError)
    assert coro.cr_frame is None  # closed: no "never awaited" warning


def test_from_awaitable_coroutine_runs_once():
    async def main():
        s = Single.from_awaitable(_value(1))
        first = await s
        with pytest.raises(RuntimeError):
            await s
        return first

    assert run(main) == 1


def test_from_awaitable_per_subscriber_with_defer():
    calls = []

    async def make():
        calls.append(1)
        return len(calls)

    async def main():
        s = Single.defer(lambda: Single.from_awaitable(make()))
        return [await s, await s]

    assert run(main) == [1, 2]


def test_from_awaitable_bad_arguments():
    with pytest.raises(TypeError):
        Single.from_awaitable(None)
    with pytest.raises(TypeError):
        Single.from_awaitable(42)
    coro = _value(1)
    with pytest.raises(TypeError):
        Single.from_awaitable(coro, loop=42)
    coro.close()
