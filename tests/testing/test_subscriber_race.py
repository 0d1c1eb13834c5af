"""The TestSubscriber's own demand accounting under races: a request racing with cancel,
with another request, or with the items it causes never yields a false §1.1."""

# ruff: noqa: B023

from __future__ import annotations

from rxpy2.flowable import Flowable
from rxpy2.schedulers import Schedulers


def test_race_request_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        ts = Flowable.range(1, 100).test(0)
        race_runner.race(ts.cancel, lambda: ts.request(5))
        n = ts.value_count()
        assert 0 <= n <= 5  # cancel may stop the range in the middle
        ts.assert_values(*range(1, n + 1)).assert_not_terminated().assert_protocol_ok()


def test_race_request_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        ts = Flowable.range(1, 10).test(0)
        race_runner.race(lambda: ts.request(3), lambda: ts.request(4))
        ts.assert_values(*range(1, 8)).assert_protocol_ok()
        assert ts.requested_total() == 7


def test_race_request_vs_items_on_another_thread(race_runner, race_rounds):
    for _ in range(race_rounds // 10):
        ts = Flowable.range(1, 6).observe_on(Schedulers.single(), buffer_size=2).test(1)

        def more():
            for _ in range(5):
                ts.request(1)

        race_runner.race(more, lambda: None)
        ts.await_done(5).assert_result(1, 2, 3, 4, 5, 6)
