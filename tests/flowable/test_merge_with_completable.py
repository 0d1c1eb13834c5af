"""merge_with(Completable): RxJava 2's FlowableMergeWithCompletable passes the requests
through to the main source (nothing is prefetched: a Completable adds no items) and
completes once both sides completed; either side's error cancels the other."""

from __future__ import annotations

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestPublisher


def test_requests_pass_through_to_the_main_source() -> None:
    """The fuzzer's seed 20261630 (base 20261125): ``merge_with(RecordingSource(3)
    .ignore_elements())`` under a request(1) asked its main source for 128 (flat_map's
    prefetch); RxJava 2.2.21 asks for what the downstream asked for."""
    main: TestPublisher[int] = TestPublisher.create()
    ts = main.merge_with(Completable.complete()).test(0)
    assert main.requested == 0
    ts.request(1)
    assert main.requested == 1
    main.next(1)
    ts.request(5)
    assert main.requested == 6  # in all
    main.next(2).complete()
    ts.assert_result(1, 2)


def test_unbounded_request_and_items() -> None:
    ts = Flowable.range(0, 300).merge_with(Completable.complete()).test(0)
    ts.request(7)
    assert ts.values() == list(range(7))
    ts.request(LONG_MAX)
    ts.assert_result(*range(300))


def test_completes_when_both_completed() -> None:
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = Flowable.just(1, 2).merge_with(other.ignore_elements()).test()
    ts.assert_values(1, 2).assert_not_complete()
    other.on_complete()
    ts.assert_result(1, 2)

    main: TestPublisher[int] = TestPublisher.create()
    ts = main.merge_with(Completable.complete()).test()
    main.next(3)
    ts.assert_values(3).assert_not_complete()
    main.complete()
    ts.assert_result(3)


def test_an_error_of_either_side_cancels_the_other() -> None:
    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.ignore_elements()).test()
    main.next(1)
    other.on_error(KeyError("other"))
    ts.assert_values(1).assert_error(KeyError)
    assert main.was_cancelled()

    main = TestPublisher.create()
    other = PublishProcessor.create()
    ts = main.merge_with(other.ignore_elements()).test()
    assert other.has_subscribers()
    main.error(KeyError("main"))
    ts.assert_error(KeyError)
    assert not other.has_subscribers()


def test_cancel_reaches_both_sides() -> None:
    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.ignore_elements()).test()
    ts.cancel()
    assert main.was_cancelled()
    assert not other.has_subscribers()


def test_nothing_after_a_cancel(plugin_errors: list[BaseException]) -> None:
    """The fuzzer's seed 8145 (base 1): the main source's first item made the consumer
    cancel before the Completable was subscribed; ``Completable.error()`` fails at once
    when subscribed, and that error went downstream after the cancel."""
    ts = Flowable.just(1, 2).merge_with(Completable.error(KeyError("late"))).take(1).test()
    ts.assert_result(1)
    assert [type(e.__cause__ or e) for e in plugin_errors] == [KeyError]

    main: TestPublisher[int] = TestPublisher.create()
    other: PublishProcessor[int] = PublishProcessor.create()
    ts = main.merge_with(other.ignore_elements()).test()
    main.complete()
    ts.cancel()
    other.on_complete()  # (the processor had no subscriber left: nothing to complete)
    ts.assert_no_errors().assert_not_complete()
