"""join: pairs of items whose windows overlap; both sides unbounded; races of the two sides."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.observers import FlowableSubscriber
from rxpy2.processors import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription


def pair(a, b):
    return (a, b)


def setup(initial_request: int = LONG_MAX):
    left, right = ManualSource(), ManualSource()
    left_ends: dict[int, PublishProcessor] = {}
    right_ends: dict[str, PublishProcessor] = {}

    def left_end(x):
        return left_ends.setdefault(x, PublishProcessor())

    def right_end(x):
        return right_ends.setdefault(x, PublishProcessor())

    ts = left.join(right, left_end, right_end, pair).test(initial_request)
    return left, right, left_ends, right_ends, ts


def test_pairs_of_open_windows():
    left, right, lends, rends, ts = setup()
    left.emit(1)
    right.emit("a")
    left.emit(2)
    ts.assert_values((1, "a"), (2, "a"))
    lends[1].on_next("close")   # the first item closes the window
    right.emit("b")
    ts.assert_values((1, "a"), (2, "a"), (2, "b"))
    rends["a"].on_complete()    # completion closes it too
    left.emit(3)
    ts.assert_values((1, "a"), (2, "a"), (2, "b"), (3, "b"))
    assert not lends[1].has_subscribers() and not rends["a"].has_subscribers()
    left.complete()
    ts.assert_not_complete()
    right.complete()
    ts.assert_complete().assert_no_errors()
    assert not lends[2].has_subscribers()  # the open windows' ends are cancelled


def test_both_sides_are_requested_without_bound():
    left, right, _, _, _ = setup(initial_request=1)
    assert left.requests == [LONG_MAX] and right.requests == [LONG_MAX]


def test_cross_join_of_never_closing_windows():
    ts = Flowable.range(1, 3).join(Flowable.just("a", "b"), lambda _: Flowable.never(),
                                   lambda _: Flowable.never(), pair).test()
    ts.assert_result((1, "a"), (2, "a"), (3, "a"), (1, "b"), (2, "b"), (3, "b"))


def test_empty_windows_meet_nothing():
    ts = Flowable.range(1, 3).join(Flowable.just("a"), lambda _: Flowable.empty(),
                                   lambda _: Flowable.empty(), pair).test()
    ts.assert_result()


def test_no_demand_is_missing_backpressure():
    left, right, _, _, ts = setup(initial_request=1)
    left.emit(1)
    right.emit("a")
    ts.assert_values((1, "a"))
    right.emit("b")
    ts.assert_error(MissingBackpressureException)
    assert left.cancelled and right.cancelled


def test_demand_is_counted():
    left, right, _, _, ts = setup(initial_request=2)
    left.emit(1, 2)
    right.emit("a")
    ts.assert_values((1, "a"), (2, "a")).assert_no_errors()
    ts.request(1)
    left.emit(3)
    ts.assert_values((1, "a"), (2, "a"), (3, "a")).assert_no_errors()


@pytest.mark.parametrize("side", ["left", "right"])
def test_side_error(side):
    left, right, lends, _, ts = setup()
    left.emit(1)
    (left if side == "left" else right).error(Boom())
    ts.assert_failure(Boom)
    other = right if side == "left" else left
    assert other.cancelled and not lends[1].has_subscribers()


def test_end_error():
    left, right, lends, _, ts = setup()
    left.emit(1)
    lends[1].on_error(Boom())
    ts.assert_failure(Boom)
    assert left.cancelled and right.cancelled


def test_end_selector_raises():
    left, right = ManualSource(), ManualSource()
    ts = left.join(right, lambda _: 1 / 0, lambda _: Flowable.never(), pair).test()
    left.emit(1)
    ts.assert_failure(ZeroDivisionError)
    assert left.cancelled and right.cancelled


def test_end_selector_returns_none():
    ts = Flowable.just(1).join(Flowable.never(), lambda _: None, lambda _: Flowable.never(),
                               pair).test()
    ts.assert_failure(TypeError)
    assert "left_end" in str(ts.errors()[0])


def test_result_selector_raises_or_returns_none():
    ts = Flowable.just(1).join(Flowable.just(2), lambda _: Flowable.never(),
                               lambda _: Flowable.never(), lambda a, b: a / 0).test()
    ts.assert_failure(ZeroDivisionError)
    ts = Flowable.just(1).join(Flowable.just(2), lambda _: Flowable.never(),
                               lambda _: Flowable.never(), lambda a, b: None).test()
    ts.assert_failure(TypeError)


def test_end_publisher_failing_at_once():
    ts = Flowable.just(1).join(Flowable.never(), lambda _: Flowable.error(Boom()),
                               lambda _: Flowable.never(), pair).test()
    ts.assert_failure(Boom)


def test_second_error_goes_to_plugins(plugin_errors):
    left, right, _, _, ts = setup()
    left.error(Boom())
    right.error(ValueError("late"))
    ts.assert_failure(Boom)
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)


def test_cancel():
    left, right, lends, _, ts = setup()
    left.emit(1)
    ts.cancel()
    assert left.cancelled and right.cancelled and not lends[1].has_subscribers()
    right.emit("a")
    ts.assert_no_values().assert_not_complete()


class CancelAtFirst(FlowableSubscriber[Any]):
    """Records every item that arrives (nothing filters after the cancel) and cancels in
    the first ``on_next``."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.upstream: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.upstream = s
        s.request(LONG_MAX)

    def on_next(self, item: Any) -> None:
        self.items.append(item)
        assert self.upstream is not None
        self.upstream.cancel()

    def on_error(self, error: BaseException) -> None:
        self.items.append(error)

    def on_complete(self) -> None:
        self.items.append("complete")


def test_cancel_inside_on_next_stops_the_pairs():
    # one right item pairs with the three open left items at once; after a cancel in the
    # first on_next no more of them arrive (RxJava 2 goes on emitting them)
    right: PublishProcessor[str] = PublishProcessor.create()
    s = CancelAtFirst()
    Flowable.range(1, 3).join(right, lambda _: Flowable.never(),
                              lambda _: Flowable.never(), pair).subscribe(s)
    right.on_next("a")
    assert s.items == [(1, "a")]


def test_deep_synchronous_streams():
    n = 100_000
    ts = Flowable.range(0, n).join(Flowable.just("a"), lambda _: Flowable.never(),
                                   lambda _: Flowable.never(), pair).test()
    assert len(ts.values()) == n
    ts.assert_complete()


def test_bad_arguments():
    f = Flowable.just(1)
    never = Flowable.never()
    with pytest.raises(TypeError):
        f.join(None, lambda _: never, lambda _: never, pair)
    with pytest.raises(TypeError):
        f.join(never, None, lambda _: never, pair)
    with pytest.raises(TypeError):
        f.join(never, lambda _: never, 1, pair)
    with pytest.raises(TypeError):
        f.join(never, lambda _: never, lambda _: never, None)


def test_race_left_and_right_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        left, right = ManualSource(), ManualSource()
        ts = left.join(right, lambda _: Flowable.never(), lambda _: Flowable.never(), pair).test()
        race_runner.race(lambda left=left: left.emit(1, 2, 3),
                         lambda right=right: right.emit("a", "b"))
        race_runner.race(left.complete, right.complete)
        ts.assert_complete().assert_no_errors()
        assert sorted(ts.values()) == sorted((x, y) for x in (1, 2, 3) for y in ("a", "b"))


def test_race_cancel_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        left, right = ManualSource(), ManualSource()
        ts = left.join(right, lambda _: Flowable.never(), lambda _: Flowable.never(), pair).test()
        left.emit(1)
        race_runner.race(ts.cancel, lambda right=right: right.emit("a", "b"))
        assert left.cancels == 1 and right.cancels == 1
        assert ts.values() in ([], [(1, "a")], [(1, "a"), (1, "b")])
        ts.assert_not_complete()
