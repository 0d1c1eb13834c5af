"""SpscArrayQueue, SpscLinkedArrayQueue, MpscLinkedQueue: contracts and producer/consumer threads."""

from __future__ import annotations

import threading
import time

import pytest

from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.queues import round_to_power_of_2

ALL = [lambda: SpscArrayQueue(16), lambda: SpscLinkedArrayQueue(16), MpscLinkedQueue]
IDS = ["spsc-array", "spsc-linked", "mpsc-linked"]


@pytest.mark.parametrize("n,expected", [(1, 1), (2, 2), (3, 4), (5, 8), (8, 8), (9, 16),
                                        (127, 128), (128, 128), (129, 256)])
def test_round_to_power_of_2(n, expected):
    assert round_to_power_of_2(n) == expected


@pytest.mark.parametrize("n", [0, -1])
def test_round_to_power_of_2_rejects_non_positive(n):
    with pytest.raises(ValueError):
        round_to_power_of_2(n)


@pytest.mark.parametrize("requested,capacity", [(1, 1), (3, 4), (10, 16), (16, 16), (17, 32)])
def test_spsc_array_capacity_rounded_up(requested, capacity):
    q = SpscArrayQueue(requested)
    assert q.capacity == capacity
    for i in range(capacity):
        assert q.offer(i) is True
    assert q.offer(-1) is False  # full: refused, not stored
    assert len(q) == capacity
    assert [q.poll() for _ in range(capacity)] == list(range(capacity))
    assert q.poll() is None


def test_spsc_array_offer_again_after_poll():
    q = SpscArrayQueue(2)
    assert q.offer(1) and q.offer(2)
    assert not q.offer(3)
    assert q.poll() == 1
    assert q.offer(3)
    assert [q.poll(), q.poll(), q.poll()] == [2, 3, None]


def test_spsc_array_offer2_is_all_or_nothing():
    q = SpscArrayQueue(4)
    assert q.offer2(1, 2) is True
    assert q.offer(3) is True
    assert q.offer2(4, 5) is False  # only one slot left: neither item goes in
    assert len(q) == 3
    assert q.offer(4) is True
    assert [q.poll() for _ in range(5)] == [1, 2, 3, 4, None]


def test_spsc_array_peek():
    q = SpscArrayQueue(4)
    assert q.peek() is None
    q.offer("a")
    q.offer("b")
    assert q.peek() == "a"
    assert q.poll() == "a"
    assert q.peek() == "b"


@pytest.mark.parametrize("make", ALL, ids=IDS)
def test_fifo_empty_poll_and_is_empty(make):
    q = make()
    assert q.is_empty()
    assert q.poll() is None
    for i in range(10):
        assert q.offer(i)
    assert not q.is_empty()
    assert len(q) == 10
    assert [q.poll() for _ in range(10)] == list(range(10))
    assert q.poll() is None
    assert q.is_empty()


@pytest.mark.parametrize("make", ALL, ids=IDS)
def test_clear(make):
    q = make()
    for i in range(5):
        q.offer(i)
    q.clear()
    assert q.is_empty()
    assert q.poll() is None
    q.offer(7)
    assert q.poll() == 7


@pytest.mark.parametrize("make", ALL, ids=IDS)
def test_offer2_keeps_order(make):
    q = make()
    assert q.offer2("t1", "v1")
    assert q.offer("x")
    assert q.offer2("t2", "v2")
    assert [q.poll() for _ in range(6)] == ["t1", "v1", "x", "t2", "v2", None]


@pytest.mark.parametrize("make", ALL, ids=IDS)
def test_none_is_never_an_item(make):
    q = make()
    with pytest.raises(TypeError):
        q.offer(None)
    with pytest.raises(TypeError):
        q.offer2(1, None)
    with pytest.raises(TypeError):
        q.offer2(None, 1)
    assert q.is_empty()


@pytest.mark.parametrize("make", ALL, ids=IDS)
def test_falsy_items_are_items(make):
    q = make()
    for v in (0, "", False, []):
        assert q.offer(v)
    assert q.poll() == 0 and q.poll() == "" and q.poll() is False and q.poll() == []
    assert q.poll() is None


def test_spsc_linked_is_unbounded():
    q = SpscLinkedArrayQueue(8)
    assert q.chunk_size == 8
    n = 100_000
    for i in range(n):
        assert q.offer(i)
    assert len(q) == n
    assert all(q.poll() == i for i in range(n))
    assert q.poll() is None


def test_spsc_linked_chunk_size_rounded():
    assert SpscLinkedArrayQueue(100).chunk_size == 128
    assert SpscLinkedArrayQueue(1).chunk_size == 8


def test_mpsc_is_unbounded():
    q = MpscLinkedQueue()
    for i in range(10_000):
        assert q.offer(i)
    assert len(q) == 10_000


# ---------------------------------------------------------------- threads

N = 100_000


def _run_threads(*targets):
    errors: list[BaseException] = []

    def wrap(fn):
        def run():
            try:
                fn()
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)
        return run

    threads = [threading.Thread(target=wrap(t)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
        assert not t.is_alive()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("make", [lambda: SpscArrayQueue(256), lambda: SpscLinkedArrayQueue(64)],
                         ids=["spsc-array", "spsc-linked"])
def test_spsc_producer_consumer_threads_in_order(make):
    q = make()
    received: list[int] = []
    bounded = isinstance(q, SpscArrayQueue)
    full_seen = [0]

    def produce():
        for i in range(N):
            while not q.offer(i):  # bounded queue full: wait for the consumer
                full_seen[0] += 1
                time.sleep(0)

    def consume():
        append = received.append
        poll = q.poll
        while len(received) < N:
            v = poll()
            if v is None:
                time.sleep(0)
                continue
            append(v)

    _run_threads(produce, consume)
    assert received == list(range(N))
    assert q.poll() is None
    if not bounded:
        assert full_seen[0] == 0


def test_spsc_offer2_pairs_never_torn_across_threads():
    q = SpscLinkedArrayQueue()
    pairs = 20_000
    got: list[tuple[int, int]] = []

    def produce():
        for i in range(pairs):
            q.offer2(i, -i)

    def consume():
        while len(got) < pairs:
            a = q.poll()
            if a is None:
                time.sleep(0)
                continue
            b = q.poll()
            assert b is not None, "the second item of a pair was not there with the first"
            got.append((a, b))

    _run_threads(produce, consume)
    assert got == [(i, -i) for i in range(pairs)]


def test_mpsc_several_producers():
    q = MpscLinkedQueue()
    producers, per = 4, 25_000
    received: list[tuple[int, int]] = []

    def producer(p):
        def run():
            for i in range(per):
                q.offer((p, i))
        return run

    def consume():
        while len(received) < producers * per:
            v = q.poll()
            if v is None:
                time.sleep(0)
                continue
            received.append(v)

    _run_threads(consume, *[producer(p) for p in range(producers)])
    assert len(received) == producers * per
    assert q.poll() is None
    # nothing lost or duplicated, and each producer's items in its own order
    for p in range(producers):
        assert [i for (pp, i) in received if pp == p] == list(range(per))
