"""merge_with(Single | Maybe): RxJava 2's FlowableMergeWithSingle/FlowableMergeWithMaybe.

The main source is asked for 128 items, then 96 each time 96 of its items went downstream
(not flat_map's per-inner replenishment); the other's item goes as soon as there is demand
for it; the completion waits for both; either side's error cancels the other."""

from __future__ import annotations

from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.processors import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestPublisher


def _requests(f: Any) -> tuple[Flowable[Any], list[int]]:
    seen: list[int] = []
    return f.do_on_request(seen.append), seen


@pytest.mark.parametrize("other", [Single.just(-1), Maybe.just(-1)], ids=["single", "maybe"])
def test_main_requests_are_a_prefetch_of_128_replenished_by_96(other: Any) -> None:
    """The fuzzer's seed 194 (base 7): rxpy2 asked [128, 32] through merge_array;
    RxJava 2.2.21 asks [128], then 96 each time 96 items were taken."""
    main, seen = _requests(Flowable.range(0, 300))
    ts = main.merge_with(other).test(0)
    assert seen == [128]
    ts.request(1)
    assert ts.values() == [-1]  # the other's item first: it waited for demand
    ts.request(95)
    assert seen == [128]
    ts.request(1)  # the 96th main item
    assert seen == [128, 96]
    ts.request(LONG_MAX)
    assert seen == [128, 96, 96, 96]
    ts.assert_result(-1, *range(300))


def test_the_other_item_goes_between_main_items_when_it_arrives() -> None:
    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.first_or_error()).test()
    main.next(1).next(2)
    other.on_next(9)
    main.next(3).complete()
    ts.assert_result(1, 2, 9, 3)


def test_without_demand_items_wait_in_order() -> None:
    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.first_element()).test(0)
    main.next(1).next(2)
    other.on_next(9)
    main.complete()
    ts.assert_no_values()
    ts.request(1)
    ts.assert_values(9)  # the other's item leaves first once there is demand
    ts.request(2)
    ts.assert_result(9, 1, 2)


def test_completes_when_both_ended() -> None:
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = Flowable.just(1, 2).merge_with(other.first_or_error()).test()
    ts.assert_values(1, 2).assert_not_complete()
    other.on_next(3)
    ts.assert_result(1, 2, 3)

    ts = Flowable.just(1, 2).merge_with(Maybe.empty()).test()
    ts.assert_result(1, 2)

    main: TestPublisher[int] = TestPublisher.create()
    ts = main.merge_with(Maybe.just(5)).test()
    ts.assert_values(5).assert_not_complete()
    main.complete()
    ts.assert_result(5)


def test_an_error_of_either_side_cancels_the_other() -> None:
    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.first_or_error()).test()
    main.next(1)
    other.on_error(KeyError("other"))
    ts.assert_values(1).assert_error(KeyError)
    assert main.was_cancelled()

    main2: TestPublisher[int] = TestPublisher.create()
    other2: PublishProcessor[int] = PublishProcessor.create()
    ts = main2.merge_with(other2.single_element()).test()
    main2.error(ValueError("main"))
    ts.assert_error(ValueError)
    assert not other2.has_subscribers()


def test_cancel_cancels_both_and_signals_nothing() -> None:
    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.first_or_error()).test(0)
    ts.cancel()
    assert main.was_cancelled() and not other.has_subscribers()
    other.on_next(1)
    ts.assert_no_values().assert_not_terminated()


def test_main_and_other_racing_lose_and_duplicate_nothing(race_runner: Any) -> None:
    for _ in range(300):
        main: PublishProcessor[int] = PublishProcessor.create()
        other: PublishProcessor[int] = PublishProcessor.create()
        ts = main.merge_with(other.first_or_error()).test()

        def emit_main(main: PublishProcessor[int] = main) -> None:
            for i in range(20):
                main.on_next(i)
            main.on_complete()

        race_runner.race(emit_main, lambda other=other: other.on_next(-1))
        ts.await_done(5)
        assert sorted(ts.values()) == sorted([-1, *range(20)])
        assert [v for v in ts.values() if v >= 0] == list(range(20))
        ts.assert_complete()


def test_merge_with_single_is_its_own_operator() -> None:
    f = Flowable.range(0, 3).merge_with(Single.just(7))
    assert type(f).__name__ == "FlowableMergeWithSingle"
    assert f.test().values() == [0, 1, 2, 7]
