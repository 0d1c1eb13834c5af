"""QueueDrainHelper post-complete: items held at completion are emitted only under demand."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

from collections import deque

from rx_internal_support import COMPLETE
from rx_internal_support import Recorder

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.helpers import QueueDrainHelper as QDH
from rxpy2._internal.helpers.queue_drain_helper import COMPLETED_MASK
from rxpy2._internal.helpers.queue_drain_helper import REQUESTED_MASK
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN


class PostCompleteStage:
    """The shape of an operator that holds items until its upstream completes
    (as ``take_last`` does): ``requests_upstream`` counts the requests that reached
    the upstream because the stage had not completed yet."""

    def __init__(self, items, downstream) -> None:
        self.queue = deque(items)
        self.state = AtomicLong()
        self.downstream = downstream
        self.cancelled = False
        self.requests_upstream: list[int] = []

    def is_cancelled(self) -> bool:
        return self.cancelled

    def request(self, n: int) -> None:
        if not QDH.post_complete_request(n, self.downstream, self.queue, self.state,
                                         self.is_cancelled):
            self.requests_upstream.append(n)

    def complete(self) -> None:
        QDH.post_complete(self.downstream, self.queue, self.state, self.is_cancelled)

    def cancel(self) -> None:
        self.cancelled = True


def test_masks():
    assert COMPLETED_MASK == LONG_MIN and REQUESTED_MASK == LONG_MAX
    assert QDH.COMPLETED_MASK == COMPLETED_MASK


def test_complete_without_demand_waits_for_requests():
    r = Recorder()
    st = PostCompleteStage([1, 2, 3, 4, 5], r)
    st.complete()
    assert r.events == []
    assert st.state.get() == COMPLETED_MASK
    st.request(2)
    assert r.events == [1, 2]
    st.request(2)
    assert r.events == [1, 2, 3, 4]
    st.request(1)
    assert r.events == [1, 2, 3, 4, 5, COMPLETE]  # completes with the last requested item
    st.request(5)
    assert r.events == [1, 2, 3, 4, 5, COMPLETE]
    r.assert_well_formed()
    assert st.requests_upstream == []


def test_demand_before_completion_is_used_at_completion():
    r = Recorder()
    st = PostCompleteStage([1, 2, 3, 4], r)
    st.request(3)
    assert st.requests_upstream == [3]  # not completed: the operator requests upstream
    st.complete()
    assert r.events == [1, 2, 3]
    st.request(1)
    assert r.events == [1, 2, 3, 4, COMPLETE]
    r.assert_well_formed()


def test_more_demand_than_items_completes_at_once():
    r = Recorder()
    st = PostCompleteStage([1, 2], r)
    st.request(10)
    st.complete()
    assert r.events == [1, 2, COMPLETE]


def test_unbounded_demand():
    r = Recorder()
    st = PostCompleteStage(range(1000), r)
    st.request(LONG_MAX)
    st.complete()
    assert r.items() == list(range(1000)) and r.terminals() == [COMPLETE]


def test_unbounded_demand_after_completion():
    r = Recorder()
    st = PostCompleteStage(range(10), r)
    st.complete()
    st.request(LONG_MAX)
    assert r.items() == list(range(10)) and r.terminals() == [COMPLETE]


def test_empty_queue_completes_without_demand():
    r = Recorder()
    st = PostCompleteStage([], r)
    st.complete()
    assert r.events == [COMPLETE]


def test_cancel_stops_the_drain():
    def cancel_at_3(rec, item):
        if item == 3:
            st.cancel()

    r = Recorder(cancel_at_3)
    st = PostCompleteStage(range(1, 10), r)
    st.complete()
    st.request(100)
    assert r.events == [1, 2, 3]


def test_request_from_on_next_does_not_recurse():
    n = 10_000  # far beyond the recursion limit if each request drained recursively

    def request_one(rec, item):
        st.request(1)

    r = Recorder(request_one)
    st = PostCompleteStage(range(n), r)
    st.complete()
    st.request(1)
    assert r.items() == list(range(n))
    assert r.terminals() == [COMPLETE]
    r.assert_well_formed()


def test_race_request_vs_complete(race_runner, race_rounds):
    for i in range(race_rounds):
        n = 1 + i % 6
        r = Recorder()
        st = PostCompleteStage(range(n), r)
        k = 1 + i % 4
        amounts = [k] * (n // k + 1)  # enough demand in total for every item

        def requester():
            for a in amounts:
                st.request(a)

        race_runner.race(st.complete, requester)
        r.assert_well_formed()
        assert r.items() == list(range(n)), (n, amounts, r.events)
        assert r.terminals() == [COMPLETE]


def test_race_partial_demand_vs_complete(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        n = 5
        r = Recorder()
        st = PostCompleteStage(range(n), r)
        k = 1 + i % 4  # less than n: exactly k items, no completion yet
        race_runner.race(st.complete, lambda: st.request(k))
        r.assert_well_formed()
        assert r.items() == list(range(k)) and r.terminals() == []
        st.request(n - k)
        assert r.items() == list(range(n)) and r.terminals() == [COMPLETE]


def test_race_request_vs_request_after_completion(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        n = 6
        r = Recorder()
        st = PostCompleteStage(range(n), r)
        st.complete()
        race_runner.race(lambda: st.request(3), lambda: st.request(3))
        r.assert_well_formed()
        assert r.items() == list(range(n)) and r.terminals() == [COMPLETE]
