"""Races on the Drain-based loops of zip, combine_latest, concat_map(_eager), sequence_equal
and retry: sources emitting from two threads, or against requests / completions. Nothing is
lost, duplicated, or signalled after the terminal event; the requests stay exact."""

from __future__ import annotations

from _async_probes import race_items_vs_requests
from probes import ManualSource
from probes import rail

from rxpy2 import Flowable


def test_race_zip_sources_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.zip(a, b).test()
        race_runner.race(rail(a, (1, 2, 3)), rail(b, (10, 20, 30), complete=False))
        ts.assert_result((1, 10), (2, 20), (3, 30)).assert_protocol_ok()
        assert b.cancelled  # the zip ended with ``a``: ``b`` is cancelled


def test_race_zip_items_vs_requests(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.zip(a, b).test(0)
        b.emit(10, 20, 30, 40)
        race_items_vs_requests(race_runner, a, (1, 2, 3, 4), ts)
        ts.assert_result((1, 10), (2, 20), (3, 30), (4, 40)).assert_protocol_ok()


def test_race_combine_latest_sources_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.combine_latest(a, b).test()
        race_runner.race(rail(a, (1, 2, 3)), rail(b, (10, 20, 30)))
        ts.assert_complete().assert_protocol_ok()
        values = ts.values()
        assert values[-1] == (3, 30)
        assert len(values) == len(set(values))  # each combination once
        xs = [x for x, _ in values]
        ys = [y for _, y in values]
        assert xs == sorted(xs) and ys == sorted(ys)  # each source's order kept


def test_race_combine_latest_items_vs_requests(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.combine_latest(a, b, combiner=lambda x, y: x + y).test(0)
        b.emit(10)
        b.complete()
        race_items_vs_requests(race_runner, a, (1, 2, 3), ts)
        ts.assert_result(11, 12, 13).assert_protocol_ok()


def test_race_concat_map_inner_completion_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        first, second = ManualSource(), ManualSource()
        ts = Flowable.from_iterable([first, second]).concat_map(lambda p: p).test(0)
        ts.request(1)
        first.emit(1)
        race_runner.race(first.complete, lambda ts=ts: ts.request(2))
        second.emit(2, 3)
        second.complete()
        ts.assert_result(1, 2, 3).assert_protocol_ok()
        assert sum(second.requests) == 2  # exactly the outstanding demand


def test_race_concat_map_eager_inner_completion_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        first, second = ManualSource(), ManualSource()
        ts = Flowable.from_iterable([first, second]).concat_map_eager(lambda p: p).test(0)
        second.emit(2, 3)
        second.complete()
        first.emit(1)
        race_runner.race(first.complete, lambda ts=ts: ts.request(3))
        ts.assert_result(1, 2, 3).assert_protocol_ok()


def test_race_sequence_equal_sources_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        to = Flowable.sequence_equal(a, b).test()
        race_runner.race(rail(a, (1, 2, 3)), rail(b, (1, 2, 3)))
        to.assert_result(True)


def test_race_retry_resubscription_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        ts = src.retry(1).test(0)
        ts.request(1)
        src.emit(1)
        race_runner.race(lambda src=src: src.error(ValueError("x")),
                         lambda ts=ts: ts.request(2))
        assert src.subscriptions == 2
        src.emit(2, 3)
        src.complete()
        ts.assert_result(1, 2, 3).assert_protocol_ok()
        assert src.requests[-1] == 2  # the new subscription: the 2 still outstanding
