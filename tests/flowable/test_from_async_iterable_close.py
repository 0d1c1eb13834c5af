"""Flowable.from_async_iterable: cancelling closes the async iterator (``aclose()``)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from probes import Boom

from rxpy2 import Flowable


async def settle(rounds=10):
    for _ in range(rounds):
        await asyncio.sleep(0)


def counting(state, forever=True):
    async def gen():
        i = 0
        try:
            while forever or i < 3:
                state.setdefault("pulled", []).append(i)
                yield i
                i += 1
        finally:
            state["closed"] = state.get("closed", 0) + 1
    return gen()


def test_cancel_between_pulls_closes_the_generator():
    state = {}

    async def main():
        it = counting(state)  # held here: only aclose, not garbage collection, may close it
        ts = Flowable.from_async_iterable(it).test(1)
        await settle()
        ts.assert_values(0)
        assert "closed" not in state
        ts.cancel()
        await settle()
        assert state["closed"] == 1  # its finally block ran
        assert state["pulled"] == [0]

    asyncio.run(main())


def test_take_closes_the_generator_after_the_last_item():
    state = {}

    async def main():
        ts = Flowable.from_async_iterable(counting(state)).take(2).test()
        await settle()
        ts.assert_result(0, 1)
        assert state["closed"] == 1

    asyncio.run(main())


def test_cancel_with_a_pending_pull_closes_once():
    state = {}

    async def slow():
        try:
            yield 1
            await asyncio.Event().wait()
            yield 2
        finally:
            state["closed"] = state.get("closed", 0) + 1

    async def main():
        ts = Flowable.from_async_iterable(slow()).test()
        await settle()
        ts.assert_values(1)
        ts.cancel()
        await settle()
        assert state == {"closed": 1}

    asyncio.run(main())


def test_completion_needs_no_close():
    state = {}

    async def main():
        ts = Flowable.from_async_iterable(counting(state, forever=False)).test()
        await settle()
        ts.assert_result(0, 1, 2)
        ts.cancel()
        await settle()
        assert state["closed"] == 1  # ended by itself, closed by nobody else

    asyncio.run(main())


def test_an_iterator_without_aclose_is_only_cancelled():
    class Numbers:
        def __init__(self):
            self.i = 0

        def __aiter__(self):
            return self

        async def __anext__(self):
            self.i += 1
            return self.i

    async def main():
        ts = Flowable.from_async_iterable(Numbers()).test(2)
        await settle()
        ts.assert_values(1, 2)
        ts.cancel()
        await settle()
        ts.assert_values(1, 2).assert_not_complete()

    asyncio.run(main())


def test_an_aclose_that_raises_goes_to_plugins(plugin_errors):
    async def bad():
        try:
            yield 1
            yield 2
        finally:
            raise Boom("clean-up")

    async def main():
        ts = Flowable.from_async_iterable(bad()).test(1)
        await settle()
        ts.cancel()
        await settle()

    asyncio.run(main())
    assert len(plugin_errors) == 1
    assert isinstance(plugin_errors[0].__cause__, Boom)  # UndeliverableException(Boom)


def test_cancel_from_another_thread_closes_on_the_loop():
    state = {}
    closed_on = []

    async def gen():
        try:
            i = 0
            while True:
                yield i
                i += 1
        finally:
            closed_on.append(threading.get_ident())
            state["closed"] = True

    async def main():
        loop = asyncio.get_running_loop()
        f = Flowable.from_async_iterable(gen(), loop)
        ts = await loop.run_in_executor(None, f.test, 1)
        await settle()
        ts.assert_values(0)
        await loop.run_in_executor(None, ts.cancel)
        await settle()
        assert state == {"closed": True}
        assert closed_on == [threading.get_ident()]

    asyncio.run(main())


@pytest.mark.parametrize("n", [1, 3])
def test_closing_a_long_chain_of_requests(n):
    state = {}

    async def main():
        it = counting(state)  # held here: only aclose, not garbage collection, may close it
        ts = Flowable.from_async_iterable(it).test(0)
        for _ in range(n):
            ts.request(1)
            await settle()
        ts.cancel()
        await settle()
        ts.assert_values(*range(n))
        assert state["closed"] == 1

    asyncio.run(main())
