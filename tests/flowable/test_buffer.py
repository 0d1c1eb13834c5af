"""buffer(count, skip): exact, skip and overlapping relations."""

from __future__ import annotations

from functools import partial

import pytest
from probes import ManualSource
from probes import Spy
from probes import failing

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX

# ----------------------------------------------------------------- exact (skip == count)


def test_exact_values_with_partial_last():
    Flowable.range(1, 7).buffer(3).test().assert_result([1, 2, 3], [4, 5, 6], [7])


def test_exact_values_without_partial():
    Flowable.range(1, 6).buffer(2, 2).test().assert_result([1, 2], [3, 4], [5, 6])


def test_exact_empty_source_emits_no_list():
    src = ManualSource()
    ts = src.buffer(3).test()
    src.complete()
    ts.assert_result()


def test_exact_request_amounts():
    spy = Spy(Flowable.range(1, 10))
    ts = spy.buffer(3).test(0)
    assert spy.requests == []
    ts.request(1)
    ts.assert_values([1, 2, 3])
    ts.request(2)
    ts.assert_values([1, 2, 3], [4, 5, 6], [7, 8, 9]).assert_not_complete()
    assert spy.requests == [3, 6]
    ts.request(1)
    ts.assert_result([1, 2, 3], [4, 5, 6], [7, 8, 9], [10])


def test_exact_unbounded_request_is_capped():
    spy = Spy(Flowable.range(1, 4))
    spy.buffer(2).test().assert_result([1, 2], [3, 4])
    assert spy.requests == [LONG_MAX]


def test_exact_error_passthrough_drops_partial():
    failing(1, 2, 3).buffer(2).test().assert_failure(ValueError, [1, 2])


def test_exact_cancel_reaches_source():
    src = ManualSource()
    src.buffer(2).test().cancel()
    assert src.cancelled


def test_exact_fresh_lists():
    ts = Flowable.range(1, 4).buffer(2).test()
    a, b = ts.values()
    assert a is not b


# ----------------------------------------------------------------- skip (skip > count)

def test_skip_values():
    Flowable.range(1, 10).buffer(2, 3).test().assert_result([1, 2], [4, 5], [7, 8], [10])


def test_skip_values_no_partial_when_source_ends_in_gap():
    Flowable.range(1, 9).buffer(2, 3).test().assert_result([1, 2], [4, 5], [7, 8])


def test_skip_count_one():
    Flowable.range(1, 7).buffer(1, 3).test().assert_result([1], [4], [7])


def test_skip_first_request_one():
    spy = Spy(Flowable.range(1, 20))
    ts = spy.buffer(2, 3).test(0)
    ts.request(1)
    assert spy.requests == [2]  # one list: no gap yet
    ts.assert_values([1, 2])
    ts.request(2)
    assert spy.requests == [2, 6]  # later: gap + list, per list
    ts.assert_values([1, 2], [4, 5], [7, 8]).assert_not_complete()


def test_skip_first_request_two():
    spy = Spy(Flowable.range(1, 20))
    ts = spy.buffer(2, 5).test(0)
    ts.request(2)
    assert spy.requests == [2 * 2 + 1 * 3]
    ts.assert_values([1, 2], [6, 7]).assert_not_complete()
    ts.request(1)
    assert spy.requests == [7, 5]
    ts.assert_values([1, 2], [6, 7], [11, 12])


def test_skip_unbounded_request_is_capped():
    spy = Spy(Flowable.range(1, 5))
    spy.buffer(1, 2).test().assert_result([1], [3], [5])
    assert spy.requests == [LONG_MAX]


def test_skip_error_passthrough():
    failing(1, 2, 3, 4).buffer(2, 3).test().assert_failure(ValueError, [1, 2])


def test_skip_cancel_reaches_source():
    src = ManualSource()
    src.buffer(2, 3).test().cancel()
    assert src.cancelled


# ----------------------------------------------------------------- overlapping (skip < count)

def test_overlap_values():
    Flowable.range(1, 5).buffer(3, 1).test().assert_result(
        [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5], [5])


def test_overlap_values_skip_two():
    Flowable.range(1, 6).buffer(3, 2).test().assert_result([1, 2, 3], [3, 4, 5], [5, 6])


def test_overlap_source_shorter_than_count():
    Flowable.range(1, 2).buffer(3, 1).test().assert_result([1, 2], [2])


def test_overlap_empty_source():
    src = ManualSource()
    ts = src.buffer(3, 1).test()
    src.complete()
    ts.assert_result()


def test_overlap_first_request_one():
    spy = Spy(Flowable.range(1, 20))
    ts = spy.buffer(3, 1).test(0)
    ts.request(1)
    assert spy.requests == [3]
    ts.assert_values([1, 2, 3])
    ts.request(2)
    assert spy.requests == [3, 2]
    ts.assert_values([1, 2, 3], [2, 3, 4], [3, 4, 5]).assert_not_complete()


def test_overlap_first_request_two():
    spy = Spy(Flowable.range(1, 20))
    ts = spy.buffer(4, 2).test(0)
    ts.request(2)
    assert spy.requests == [4 + 2 * 1]
    ts.assert_values([1, 2, 3, 4], [3, 4, 5, 6]).assert_not_complete()
    ts.request(1)
    assert spy.requests == [6, 2]
    ts.assert_values([1, 2, 3, 4], [3, 4, 5, 6], [5, 6, 7, 8])


def test_overlap_unbounded_request_is_capped():
    spy = Spy(Flowable.range(1, 3))
    spy.buffer(2, 1).test().assert_result([1, 2], [2, 3], [3])
    assert spy.requests == [LONG_MAX]


def test_overlap_post_complete_waits_for_demand():
    src = ManualSource()
    ts = src.buffer(3, 1).test(1)
    assert src.requests == [3]
    src.emit(1, 2, 3)
    ts.assert_values([1, 2, 3])
    src.complete()
    ts.assert_values([1, 2, 3]).assert_not_complete()  # [2, 3] and [3] need demand
    ts.request(1)
    ts.assert_values([1, 2, 3], [2, 3]).assert_not_complete()
    ts.request(1)
    ts.assert_result([1, 2, 3], [2, 3], [3])
    assert src.requests == [3]  # no request goes upstream after completion


def test_overlap_post_complete_partial_demand_at_completion():
    src = ManualSource()
    ts = src.buffer(4, 1).test(2)
    src.emit(1, 2, 3, 4)
    ts.assert_values([1, 2, 3, 4])
    src.complete()  # one unit of demand is left: [2, 3, 4] goes at once
    ts.assert_values([1, 2, 3, 4], [2, 3, 4]).assert_not_complete()
    ts.request(5)
    ts.assert_result([1, 2, 3, 4], [2, 3, 4], [3, 4], [4])


def test_overlap_post_complete_cancel_stops_drain():
    src = ManualSource()
    ts = src.buffer(3, 1).test(0)
    ts.request(1)
    src.emit(1, 2, 3)
    src.complete()
    ts.cancel()
    assert src.cancelled
    ts.request(5)
    ts.assert_values([1, 2, 3]).assert_not_terminated()


def test_overlap_error_passthrough_drops_open_lists():
    failing(1, 2, 3, 4).buffer(3, 1).test().assert_failure(ValueError, [1, 2, 3], [2, 3, 4])


def test_overlap_cancel_reaches_source():
    src = ManualSource()
    src.buffer(3, 1).test().cancel()
    assert src.cancelled


def test_overlap_request_from_on_next_during_post_complete():
    """A request made inside on_next of a post-completed list is served by the running drain."""
    from rxpy2.testing import TestSubscriber

    class RequestOnNext(TestSubscriber):
        def on_next(self, item):
            super().on_next(item)
            self.request(1)

    src = ManualSource()
    ts = RequestOnNext(initial_request=1)
    src.buffer(1000, 1).subscribe(ts)
    src.emit(*range(1000))
    src.complete()
    ts.assert_complete().assert_no_errors().assert_value_count(1000)
    assert ts.values()[-1] == [999]


def test_overlap_race_request_vs_complete(race_runner, race_rounds):
    expected = [[1, 2, 3], [2, 3, 4], [3, 4], [4]]
    for i in range(race_rounds):
        src = ManualSource()
        ts = src.buffer(3, 1).test(0)
        ts.request(2)
        src.emit(1, 2, 3, 4)
        ts.assert_values(*expected[:2])
        k = 1 + i % 3  # 1: one list now, one later; 2 and 3: everything
        race_runner.race(src.complete, partial(ts.request, k))
        if k == 1:
            ts.assert_values(*expected[:3]).assert_not_complete()
            ts.request(1)
        ts.assert_result(*expected).assert_protocol_ok()


def test_overlap_race_request_vs_request_after_complete(race_runner, race_rounds):
    expected = [[1, 2], [2, 3], [3]]
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.buffer(2, 1).test(2)
        assert src.requests == [3]
        src.emit(1, 2, 3)
        src.complete()
        ts.assert_values([1, 2], [2, 3]).assert_not_complete()
        # both requests race to serve [3]: exactly one emits it, then on_complete
        race_runner.race(partial(ts.request, 1), partial(ts.request, 1))
        ts.assert_result(*expected).assert_protocol_ok()


# ----------------------------------------------------------------- assembly

def test_buffer_bad_arguments():
    with pytest.raises(ValueError):
        Flowable.just(1).buffer(0)
    with pytest.raises(ValueError):
        Flowable.just(1).buffer(2, 0)
    with pytest.raises(TypeError):
        Flowable.just(1).buffer("2")
    with pytest.raises(TypeError):
        Flowable.just(1).buffer(2, 1.5)


def test_buffer_keeps_flowable_methods_usable():
    # the operator's own fields must not shadow Flowable.count()/skip()
    Flowable.range(1, 5).buffer(2).count().test().assert_result(3)
    Flowable.range(1, 7).buffer(2, 3).count().test().assert_result(3)


def test_a_float_count_points_at_buffer_time():
    with pytest.raises(TypeError, match=r"count must be an int, not float: did you mean "
                                        r"buffer_time\(0\.5\)\?"):
        Flowable.just(1).buffer(0.5)
    with pytest.raises(TypeError, match=r"did you mean buffer_time\(1\.0, timeskip=0\.5\)\?"):
        Flowable.just(1).buffer(1.0, 0.5)
