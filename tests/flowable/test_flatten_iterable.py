"""flat_map_iterable / concat_map_iterable: values, request pattern, laziness, errors, fusion."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded
from probes import RequestOneInOnNext
from probes import boom
from probes import failing

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.processors import UnicastProcessor
from rxpy2.testing import TestSubscriber


def pairs(x: int) -> list[int]:
    return [x, x * 10]


class Pulls:
    """Iterables (generators) that record every element pulled from them."""

    def __init__(self, size: int = 2) -> None:
        self.pulled: list[int] = []
        self.size = size

    def __call__(self, x: int):
        for i in range(self.size):
            v = x * 10 + i
            self.pulled.append(v)
            yield v


# ----------------------------------------------------------------- values


@pytest.mark.parametrize("hide", [False, True])
def test_values_in_order(hide):
    src = Flowable.range(1, 3)
    if hide:
        src = src.hide()
    src.flat_map_iterable(pairs).test().assert_result(1, 10, 2, 20, 3, 30).assert_protocol_ok()


def test_concat_map_iterable_values():
    Flowable.range(1, 3).hide().concat_map_iterable(pairs).test() \
        .assert_result(1, 10, 2, 20, 3, 30).assert_protocol_ok()


def test_empty_iterables_are_skipped():
    Flowable.range(1, 6).hide().flat_map_iterable(lambda x: [x] if x % 2 else []) \
        .test().assert_result(1, 3, 5)
    Flowable.range(1, 6).hide().flat_map_iterable(lambda x: (y for y in [x] if x % 2)) \
        .test().assert_result(1, 3, 5)


def test_all_kinds_of_iterables():
    its = [[1], (2,), range(3, 4), "ab", {5: 0}, {6}, (x for x in [7]), iter([8]), b"\x09"]
    Flowable.from_array(list(range(len(its)))).hide() \
        .flat_map_iterable(lambda i: its[i]) \
        .test().assert_result(1, 2, 3, "a", "b", 5, 6, 7, 8, 9)


def test_empty_source_completes_without_calling_mapper():
    Flowable.empty().hide().flat_map_iterable(boom).test().assert_result()
    Flowable.empty().flat_map_iterable(boom).test().assert_result()


def test_source_error_passes_through():
    failing(1, 2).flat_map_iterable(pairs).test().assert_failure(ValueError, 1, 10, 2, 20)


# ----------------------------------------------------------------- requests at the source


def test_request_pattern_prefetch_then_75_percent():
    rec = Recorded(1, 100)
    ts = rec.flowable.flat_map_iterable(lambda x: [x], prefetch=16).test(0)
    assert rec.requests == [16]
    ts.request(11)
    assert rec.requests == [16]  # 11 used: not yet 12
    ts.request(1)
    assert rec.requests == [16, 12]
    ts.request(12)
    assert rec.requests == [16, 12, 12]
    ts.request(1000)
    ts.assert_value_sequence(list(range(1, 101))).assert_complete()
    assert rec.requests[0] == 16 and set(rec.requests[1:]) == {12}


def test_request_pattern_counts_iterables_not_elements():
    rec = Recorded(1, 10)
    ts = rec.flowable.flat_map_iterable(lambda x: range(5), prefetch=4).test(0)
    assert rec.requests == [4]
    ts.request(14)  # 2 iterables used up (and a third begun): limit is 3
    assert rec.requests == [4]
    ts.request(1)  # the 3rd is used up
    assert rec.requests == [4, 3]


def test_default_prefetch_and_concat_map_iterable_prefetch():
    rec = Recorded(1, 1000)
    rec.flowable.flat_map_iterable(lambda x: [x]).test().assert_value_count(1000)
    assert rec.requests[0] == 128 and set(rec.requests[1:]) == {96}
    rec = Recorded(1, 10)
    rec.flowable.concat_map_iterable(lambda x: [x]).test().assert_value_count(10)
    assert set(rec.requests) == {2}


def test_empty_iterables_count_for_replenishing():
    rec = Recorded(1, 10)
    ts = rec.flowable.flat_map_iterable(lambda x: [], prefetch=4).test(0)
    ts.assert_result()  # no demand needed to skip empty iterables and complete
    assert rec.requests == [4, 3, 3, 3]


class SyncProbe(Flowable[int]):
    """A source that fuses in SYNC mode over ``items`` and records any request made to it."""

    def __init__(self, items: list[int]) -> None:
        self.items = items
        self.requests: list[int] = []
        self.cancels = 0

    def subscribe_actual(self, subscriber):
        probe = self

        class Qs(QueueSubscription):
            def __init__(self) -> None:
                self.items = list(probe.items)

            def request_fusion(self, mode):
                return mode & SYNC

            def poll(self):
                return self.items.pop(0) if self.items else None

            def is_empty(self):
                return not self.items

            def clear(self):
                self.items.clear()

            def request(self, n):
                probe.requests.append(n)

            def cancel(self):
                probe.cancels += 1

        subscriber.on_subscribe(Qs())


def test_sync_fused_source_is_polled_never_requested():
    src = SyncProbe([1, 2, 3])
    ts = src.flat_map_iterable(pairs, prefetch=2).test(0)
    ts.request(3)
    ts.assert_values(1, 10, 2)
    ts.request(10)
    ts.assert_result(1, 10, 2, 20, 3, 30)
    assert src.requests == [] and src.cancels == 0


def test_sync_fused_source_cancelled_on_mapper_error():
    src = SyncProbe([1, 2, 3])
    src.flat_map_iterable(lambda x: boom() if x == 2 else [x]).test() \
        .assert_failure(ZeroDivisionError, 1)
    assert src.cancels == 1


# ----------------------------------------------------------------- backpressure and laziness


@pytest.mark.parametrize("hide", [False, True])
def test_one_by_one(hide):
    src = Flowable.range(1, 3)
    if hide:
        src = src.hide()
    ts = src.flat_map_iterable(pairs).test(0)
    ts.assert_no_values().assert_not_terminated()
    expected = [1, 10, 2, 20, 3, 30]
    for i in range(6):
        ts.request(1)
        ts.assert_value_sequence(expected[:i + 1])
    ts.assert_complete()  # lists: the end is known with the last element


def test_never_pulls_an_element_beyond_demand():
    gen = Pulls(3)
    ts = Flowable.range(1, 2).hide().flat_map_iterable(gen).test(0)
    assert gen.pulled == []
    for k in range(1, 7):
        ts.request(1)
        assert len(gen.pulled) == k
        assert ts.value_count() == k
    ts.assert_values(10, 11, 12, 20, 21, 22).assert_not_complete()
    # whether a generator is used up shows only when it is asked, with demand
    ts.request(1)
    ts.assert_result(10, 11, 12, 20, 21, 22)
    assert len(gen.pulled) == 6


def test_never_pulls_beyond_demand_sync_fused_source():
    gen = Pulls(2)
    ts = Flowable.range(1, 3).flat_map_iterable(gen).test(0)
    assert gen.pulled == []
    ts.request(3)
    assert gen.pulled == [10, 11, 20]
    ts.assert_values(10, 11, 20)


def test_request_inside_on_next():
    sub = RequestOneInOnNext()
    Flowable.range(1, 3).hide().flat_map_iterable(pairs).subscribe(sub)
    assert sub.values == [1, 10, 2, 20, 3, 30] and sub.completed == 1


def test_cancel_inside_on_next_stops_at_once():
    gen = Pulls(5)
    sub = RequestOneInOnNext(stop_after=3)
    src = ManualSource()
    src.flat_map_iterable(gen).subscribe(sub)
    src.emit(1, 2)
    assert sub.values == [10, 11, 12]
    assert gen.pulled == [10, 11, 12]
    assert src.cancelled


# ----------------------------------------------------------------- errors


def test_mapper_raises():
    src = ManualSource()
    ts = src.flat_map_iterable(boom).test()
    src.emit(1)
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled
    src.emit(2)
    src.complete()
    ts.assert_failure(ZeroDivisionError)


def test_mapper_returns_none():
    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: None).test()
    src.emit(1)
    ts.assert_failure(TypeError)
    assert src.cancelled


def test_mapper_returns_not_iterable():
    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: 5).test()
    src.emit(1)
    ts.assert_failure(TypeError)
    assert src.cancelled


def test_iter_raises():
    class Bad:
        def __iter__(self):
            raise KeyError("iter")

    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: Bad()).test()
    src.emit(1)
    ts.assert_failure(KeyError)
    assert src.cancelled


def test_iterator_raises_midway():
    def gen(x):
        yield x
        raise KeyError("next")

    src = ManualSource()
    ts = src.flat_map_iterable(gen).test()
    src.emit(1, 2)
    ts.assert_failure(KeyError, 1)
    assert src.cancelled


def test_none_element():
    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: [x, None, x]).test()
    src.emit(1)
    ts.assert_failure(TypeError, 1)
    assert src.cancelled


def test_upstream_error_overtakes_pending_elements():
    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: range(x, x + 5)).test(2)
    src.emit(1)
    src.error(ValueError("up"))
    ts.assert_failure(ValueError, 1, 2)


def test_error_after_terminal_goes_to_plugins(plugin_errors):
    src = ManualSource()
    ts = src.flat_map_iterable(boom).test()
    src.emit(1)
    late = ValueError("late")
    src.error(late)
    ts.assert_failure(ZeroDivisionError)
    assert plugin_errors == [late]


def test_missing_backpressure():
    src = ManualSource()
    ts = src.flat_map_iterable(pairs, prefetch=2).test(0)
    src.emit(1, 2, 3)  # 1 became the current iterable: 2 and 3 fill the queue
    ts.assert_empty()
    src.emit(4)
    ts.assert_failure(MissingBackpressureException)
    assert src.cancelled


# ----------------------------------------------------------------- cancellation


def test_cancel_reaches_upstream_and_stops():
    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: range(100)).test(3)
    src.emit(1)
    ts.cancel()
    assert src.cancelled
    ts.request(10)
    src.emit(2)
    ts.assert_values(0, 1, 2).assert_not_terminated()


def test_cancel_clears_the_queue():
    src = ManualSource()
    ts = src.flat_map_iterable(pairs).test(0)
    src.emit(1, 2, 3)
    parent = src.subscriber
    ts.cancel()
    assert parent.queue.is_empty() and parent.current is None  # type: ignore[union-attr]


# ----------------------------------------------------------------- scalar source (just)


def test_just_source():
    Flowable.just(3).flat_map_iterable(range).test().assert_result(0, 1, 2)
    ts = Flowable.just(3).flat_map_iterable(range).test(0)
    ts.request(2)
    ts.assert_values(0, 1).assert_not_complete()
    ts.request(1)
    ts.assert_result(0, 1, 2)


def test_just_source_mapper_fails():
    Flowable.just(3).flat_map_iterable(boom).test().assert_failure(ZeroDivisionError)
    Flowable.just(3).flat_map_iterable(lambda x: None).test().assert_failure(TypeError)
    Flowable.just(3).flat_map_iterable(lambda x: 3).test().assert_failure(TypeError)


# ----------------------------------------------------------------- fusion


def test_output_fusion_sync_over_sync_source():
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.range(1, 3).flat_map_iterable(pairs).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 10, 2, 20, 3, 30)


def test_no_output_fusion_across_boundary_or_without_sync_source():
    ts = TestSubscriber().with_fusion(ANY | BOUNDARY)
    Flowable.range(1, 3).flat_map_iterable(pairs).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(1, 10, 2, 20, 3, 30)
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.range(1, 3).hide().flat_map_iterable(pairs).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(1, 10, 2, 20, 3, 30)


def test_output_fusion_errors():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).flat_map_iterable(lambda x: [x, None]).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_failure(TypeError, 1)
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).flat_map_iterable(boom).subscribe(ts)
    ts.assert_failure(ZeroDivisionError)


@pytest.mark.parametrize("inner", [pairs, lambda x: (y for y in pairs(x)),
                                   lambda x: [] if x == 2 else pairs(x)])
def test_nested_flat_map_iterable_polls_the_fused_one(inner):
    """The outer operator fuses the inner one (SYNC) and uses its poll/is_empty."""
    expected = [v for x in range(1, 4) for y in inner(x) for v in (y, -y)]
    ts = Flowable.range(1, 3).flat_map_iterable(inner).flat_map_iterable(lambda y: [y, -y]).test(0)
    for i in range(len(expected)):
        ts.request(1)
        ts.assert_value_sequence(expected[:i + 1])
    ts.request(1)
    ts.assert_result(*expected)


def test_async_fused_source():
    up: UnicastProcessor[int] = UnicastProcessor()
    ts = up.flat_map_iterable(pairs, prefetch=4).test(0)
    up.on_next(1)
    up.on_next(2)
    ts.assert_no_values()
    ts.request(3)
    ts.assert_values(1, 10, 2)
    for i in range(3, 10):
        up.on_next(i)
    up.on_complete()
    ts.request(100)
    ts.assert_result(*[v for x in range(1, 10) for v in pairs(x)])


def test_async_fused_source_with_fusing_downstream():
    up: UnicastProcessor[int] = UnicastProcessor()
    ts = TestSubscriber().with_fusion(ANY)
    up.flat_map_iterable(pairs).subscribe(ts)
    ts.assert_fusion_mode(NONE)  # only a SYNC source makes a SYNC output
    up.on_next(1)
    up.on_complete()
    ts.assert_result(1, 10)


# ----------------------------------------------------------------- deep synchronous streams


@pytest.mark.parametrize("hide", [False, True])
def test_deep_many_items(hide):
    src = Flowable.range(0, 100_000)
    if hide:
        src = src.hide()
    src.flat_map_iterable(lambda x: [x]).test().assert_value_count(100_000).assert_complete()


def test_deep_one_by_one_in_on_next():
    sub = RequestOneInOnNext()
    Flowable.range(0, 100_000).hide().flat_map_iterable(lambda x: (x,)).subscribe(sub)
    assert len(sub.values) == 100_000 and sub.completed == 1


def test_deep_long_iterable_and_many_empty_ones():
    Flowable.just(1).hide().flat_map_iterable(lambda x: range(100_000)).test() \
        .assert_value_count(100_000).assert_complete()
    Flowable.range(0, 100_000).hide().flat_map_iterable(lambda x: [] if x else [x]).test() \
        .assert_result(0)


# ----------------------------------------------------------------- assembly


def test_bad_arguments():
    f = Flowable.range(1, 3)
    with pytest.raises(TypeError):
        f.flat_map_iterable(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.concat_map_iterable(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        f.flat_map_iterable(pairs, prefetch=0)
    with pytest.raises(ValueError):
        f.concat_map_iterable(pairs, prefetch=-1)


# ----------------------------------------------------------------- races


def test_race_on_next_vs_request(race_runner, race_rounds):
    expected = [v for x in range(1, 6) for v in pairs(x)]
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.flat_map_iterable(pairs, prefetch=8).test(0)

        def produce(src=src):
            src.emit(1, 2, 3, 4, 5)
            src.complete()

        def consume(ts=ts):
            for _ in range(len(expected)):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_result(*expected).assert_protocol_ok()


def test_race_cancel_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.flat_map_iterable(pairs, prefetch=8).test(0)
        src.emit(1, 2, 3)
        parent = src.subscriber
        race_runner.race(ts.cancel, lambda ts=ts: ts.request(4))
        n = ts.value_count()
        ts.assert_value_sequence([1, 10, 2, 20, 3, 30][:n]).assert_not_terminated()
        assert src.cancelled
        assert parent.queue.is_empty()  # type: ignore[union-attr]
