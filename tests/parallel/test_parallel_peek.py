"""ParallelFlowable.do_on_next/do_after_next/do_on_error/do_on_complete/do_after_terminated/
do_on_subscribe/do_on_request/do_on_cancel (RxJava 2's ParallelPeek)."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Manual
from probes import ManualSource
from probes import assert_two_rails_joined
from probes import boom
from probes import rail

from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import CompositeException
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def one_rail(build: Any, initial_request: int = 2) -> tuple[Manual, TestSubscriber[Any]]:
    src = Manual()
    ts: TestSubscriber[Any] = TestSubscriber(initial_request)
    build(ParallelFlowable.from_array(src)).subscribe([ts])
    return src, ts


class Log:
    """Every callback of every peek method, recorded in order (with what the rail's
    Subscriber had seen at that moment)."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.ts: TestSubscriber[Any] | None = None

    def seen(self) -> int:
        return self.ts.value_count() + len(self.ts.errors()) + self.ts.completions() \
            if self.ts else 0

    def chain(self, p: ParallelFlowable[Any]) -> ParallelFlowable[Any]:
        e = self.events
        return (p.do_on_subscribe(lambda s: e.append(("subscribe",)))
                .do_on_request(lambda n: e.append(("request", n)))
                .do_on_cancel(lambda: e.append(("cancel",)))
                .do_on_next(lambda x: e.append(("next", x, self.seen())))
                .do_after_next(lambda x: e.append(("after_next", x, self.seen())))
                .do_on_error(lambda err: e.append(("error", type(err), self.seen())))
                .do_on_complete(lambda: e.append(("complete", self.seen())))
                .do_after_terminated(lambda: e.append(("after_terminated", self.seen()))))


def test_every_callback_in_order_on_completion():
    log = Log()
    src, ts = one_rail(log.chain)
    log.ts = ts
    src.subscriber.on_next(7)
    src.subscriber.on_complete()
    ts.cancel()
    ts.assert_result(7)
    assert log.events == [("subscribe",), ("request", 2), ("next", 7, 0), ("after_next", 7, 1),
                          ("complete", 1), ("after_terminated", 2), ("cancel",)]


def test_every_callback_in_order_on_error():
    log = Log()
    src, ts = one_rail(log.chain)
    log.ts = ts
    src.subscriber.on_error(KeyError("x"))
    ts.assert_failure(KeyError)
    assert log.events[-2:] == [("error", KeyError, 0), ("after_terminated", 1)]


def test_many_rails_through_sequential():
    seen: list[int] = []
    completes: list[int] = []
    ts = (Flowable.range(0, 50).parallel(3).do_on_next(seen.append)
          .do_on_complete(lambda: completes.append(1)).sequential().test())
    ts.assert_complete()
    assert sorted(seen) == sorted(ts.values()) == list(range(50))
    assert completes == [1, 1, 1]


# ---------------------------------------------------------------- callbacks that raise


def test_on_next_raising_cancels_the_upstream_and_ends_the_rail():
    errors: list[Any] = []
    src, ts = one_rail(lambda p: p.do_on_next(boom).do_on_error(errors.append))
    src.subscriber.on_next(1)
    ts.assert_failure(ZeroDivisionError)
    assert src.probe.cancelled == 1  # departure: RxJava 2 leaves the rail's upstream running
    src.subscriber.on_next(2)
    ts.assert_failure(ZeroDivisionError)


def test_on_next_raising_runs_on_error_and_after_terminated_of_the_same_peek():
    from rxpy2._internal.operators.parallel.parallel_peek import ParallelPeek

    calls: list[str] = []
    src = Manual()
    ts: TestSubscriber[Any] = TestSubscriber()
    ParallelPeek(ParallelFlowable.from_array(src), on_next=boom,
                 on_error=lambda e: calls.append("error"),
                 on_after_terminated=lambda: calls.append("after")).subscribe([ts])
    src.subscriber.on_next(1)
    ts.assert_failure(ZeroDivisionError)
    assert calls == ["error", "after"]


def test_after_next_raising_after_the_item_went_on():
    src, ts = one_rail(lambda p: p.do_after_next(boom))
    src.subscriber.on_next(1)
    ts.assert_failure(ZeroDivisionError, 1)
    assert src.probe.cancelled == 1


def test_on_error_raising_gives_a_composite():
    src, ts = one_rail(lambda p: p.do_on_error(boom))
    src.subscriber.on_error(KeyError("up"))
    err = ts.errors()[0]
    assert isinstance(err, CompositeException)
    assert [type(e) for e in err.exceptions] == [KeyError, ZeroDivisionError]


def test_on_complete_raising_gives_that_error_and_skips_after_terminated():
    after: list[int] = []
    src = Manual()
    ts: TestSubscriber[Any] = TestSubscriber()
    from rxpy2._internal.operators.parallel.parallel_peek import ParallelPeek

    ParallelPeek(ParallelFlowable.from_array(src), on_complete=boom,
                 on_after_terminated=lambda: after.append(1)).subscribe([ts])
    src.subscriber.on_complete()
    ts.assert_failure(ZeroDivisionError)
    assert after == []


def test_after_terminated_raising_goes_to_plugins(plugin_errors):
    src, ts = one_rail(lambda p: p.do_after_terminated(boom))
    src.subscriber.on_complete()
    ts.assert_result()
    src2, ts2 = one_rail(lambda p: p.do_after_terminated(boom))
    src2.subscriber.on_error(KeyError("x"))
    ts2.assert_failure(KeyError)
    assert [type(e) for e in plugin_errors.causes()] == [ZeroDivisionError, ZeroDivisionError]


def test_on_request_raising_goes_to_plugins_and_the_request_goes_on(plugin_errors):
    src, ts = one_rail(lambda p: p.do_on_request(boom))
    ts.request(3)
    assert src.probe.requests == [2, 3]
    assert [type(e) for e in plugin_errors.causes()] == [ZeroDivisionError, ZeroDivisionError]
    ts.assert_no_errors()


def test_on_cancel_raising_goes_to_plugins_and_the_cancel_goes_on(plugin_errors):
    src, ts = one_rail(lambda p: p.do_on_cancel(boom))
    ts.cancel()
    assert src.probe.cancelled == 1
    assert [type(e) for e in plugin_errors.causes()] == [ZeroDivisionError]


def test_on_subscribe_raising_cancels_and_errors_the_rail():
    calls: list[str] = []
    src = Manual()
    ts: TestSubscriber[Any] = TestSubscriber()
    (ParallelFlowable.from_array(src).do_on_subscribe(boom)
     .subscribe([ts]))
    ts.assert_failure(ZeroDivisionError)
    assert src.probe.cancelled == 1
    assert src.probe.requests == []  # the rail had an EmptySubscription
    from rxpy2._internal.operators.parallel.parallel_peek import ParallelPeek

    src2 = Manual()
    ts2: TestSubscriber[Any] = TestSubscriber()
    ParallelPeek(ParallelFlowable.from_array(src2), on_subscribe=boom,
                 on_error=lambda e: calls.append("error"),
                 on_after_terminated=lambda: calls.append("after")).subscribe([ts2])
    assert calls == ["error", "after"]
    src2.subscriber.on_next(1)  # a rule-breaking upstream: dropped
    src2.subscriber.on_complete()
    ts2.assert_failure(ZeroDivisionError)


def test_on_subscribe_gets_the_upstream_subscription():
    got: list[Any] = []
    src, _ts = one_rail(lambda p: p.do_on_subscribe(got.append))
    assert got == [src.probe]
    assert not isinstance(got[0], EmptySubscription)


def test_error_after_the_end_goes_to_plugins(plugin_errors):
    src, ts = one_rail(lambda p: p.do_on_next(lambda x: None))
    src.subscriber.on_complete()
    src.subscriber.on_error(KeyError("late"))
    src.subscriber.on_complete()
    ts.assert_result()
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


def test_filter_before_a_peek_requests_one_per_dropped_item():
    src, ts = one_rail(lambda p: p.filter(lambda x: x % 2 == 0).do_on_next(lambda x: None))
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    assert src.probe.requests == [2, 1]
    ts.assert_values(2)


def test_bad_arguments():
    p = Flowable.range(0, 3).parallel(2)
    for make in (p.do_on_next, p.do_after_next, p.do_on_error, p.do_on_complete,
                 p.do_after_terminated, p.do_on_subscribe, p.do_on_request, p.do_on_cancel):
        with pytest.raises(TypeError):
            make(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            make(3)  # type: ignore[arg-type]


# ---------------------------------------------------------------- threads


def test_run_on_rails_peeking_on_two_threads():
    for _ in range(20):
        seen: list[int] = []
        after: list[int] = []
        terminated: list[int] = []
        ts = (Flowable.range(0, 400).parallel(2).run_on(Schedulers.computation())
              .do_on_next(seen.append).do_after_next(after.append)
              .do_after_terminated(lambda t=terminated: t.append(1)).sequential().test())
        ts.await_done().assert_complete().assert_no_errors()
        assert sorted(ts.values()) == sorted(seen) == sorted(after) == list(range(400))
        assert terminated == [1, 1]


def test_race_two_rails_peeking_into_sequential(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        seen: list[int] = []
        ts = ParallelFlowable.from_array(a, b).do_on_next(seen.append).sequential().test()

        race_runner.race(rail(a, range(5)), rail(b, range(10, 15)))
        assert_two_rails_joined(ts, list(range(5)), list(range(10, 15)))
        assert sorted(seen) == [*range(5), *range(10, 15)]


def test_race_cancel_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        cancels: list[int] = []
        ts = ParallelFlowable.from_array(a, b).do_on_cancel(lambda c=cancels: c.append(1)) \
            .sequential().test()

        def emit(a=a, b=b):
            a.emit(1, 2)
            b.emit(11, 12)

        race_runner.race(emit, ts.cancel)
        assert cancels == [1, 1]  # each rail's cancel seen once
        assert a.cancels == 1 and b.cancels == 1
        ts.assert_not_complete().assert_no_errors()
