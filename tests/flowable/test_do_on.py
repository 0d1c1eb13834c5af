"""Side-effect operators: do_on_each (and its shorthands), do_on_lifecycle (do_on_subscribe,
do_on_request, do_on_cancel), do_after_next, do_finally."""

from __future__ import annotations

import pytest
from _fusion_probes import OddRejecter
from probes import Manual
from probes import SyncFusedProbe

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.operators.flowable.flowable_do_after_next import FlowableDoAfterNext
from rxpy2._internal.operators.flowable.flowable_do_finally import FlowableDoFinally
from rxpy2._internal.operators.flowable.flowable_do_on_each import FlowableDoOnEach
from rxpy2._internal.operators.flowable.flowable_range import FlowableRange
from rxpy2.exceptions import CompositeException
from rxpy2.observers import FlowableSubscriber
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


class LoggingSubscriber(TestSubscriber[int]):
    """A TestSubscriber that also writes its signals into a shared log."""

    def __init__(self, log: list, initial_request: int = LONG_MAX) -> None:
        super().__init__(initial_request)
        self.log = log

    def on_next(self, item):
        self.log.append(("down_next", item))
        super().on_next(item)

    def on_error(self, error):
        self.log.append(("down_error", type(error).__name__))
        super().on_error(error)

    def on_complete(self):
        self.log.append(("down_complete",))
        super().on_complete()


def boom(*_args):
    raise ValueError("boom")


# ---------------------------------------------------------------------------- do_on_each

def test_do_on_each_order_of_callbacks_and_signals():
    log: list = []
    ts = LoggingSubscriber(log)
    Flowable.range(1, 2).do_on_each(
        on_next=lambda x: log.append(("next", x)),
        on_error=lambda e: log.append(("error",)),
        on_complete=lambda: log.append(("complete",)),
        on_after_terminate=lambda: log.append(("after",)),
    ).subscribe(ts)
    ts.assert_result(1, 2)
    assert log == [("next", 1), ("down_next", 1), ("next", 2), ("down_next", 2),
                   ("complete",), ("down_complete",), ("after",)]


def test_do_on_each_error_order():
    log: list = []
    ts = LoggingSubscriber(log)
    err = RuntimeError("x")
    Flowable.just(1, 2).concat_with(Flowable.error(err)).do_on_each(
        on_error=lambda e: log.append(("error", e is err)),
        on_complete=lambda: log.append(("complete",)),
        on_after_terminate=lambda: log.append(("after",)),
    ).subscribe(ts)
    ts.assert_failure(RuntimeError, 1, 2)
    assert log == [("down_next", 1), ("down_next", 2), ("error", True),
                   ("down_error", "RuntimeError"), ("after",)]


def test_do_on_next_raising_cancels_upstream_and_signals_error():
    cancelled = []
    seen = []

    def on_next(x):
        seen.append(x)
        if x == 2:
            raise ValueError("bad item")

    ts = Flowable.range(1, 5).do_on_cancel(lambda: cancelled.append(1)) \
        .do_on_next(on_next).test()
    ts.assert_failure(ValueError, 1)
    assert seen == [1, 2]
    assert cancelled == [1]


def test_do_on_next_raising_runs_on_error_callback():
    errors = []
    Flowable.range(1, 3).do_on_each(on_next=boom, on_error=errors.append).test() \
        .assert_failure(ValueError)
    assert len(errors) == 1 and isinstance(errors[0], ValueError)


def test_do_on_error_raising_gives_composite():
    original = RuntimeError("original")
    ts = Flowable.error(original).do_on_error(boom).test()
    ts.assert_failure(CompositeException)
    ex = ts.errors()[0]
    assert ex.exceptions[0] is original
    assert isinstance(ex.exceptions[1], ValueError)


def test_do_on_complete_raising_becomes_error():
    after = []
    ts = Flowable.range(1, 2).do_on_each(on_complete=boom,
                                         on_after_terminate=lambda: after.append(1)).test()
    ts.assert_failure(ValueError, 1, 2)
    assert after == [1]


def test_do_after_terminate_raising_goes_to_plugins(plugin_errors):
    Flowable.just(1).do_after_terminate(boom).test().assert_result(1)
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


def test_do_on_terminate_runs_before_downstream():
    log: list = []
    ts = LoggingSubscriber(log)
    Flowable.just(1).do_on_terminate(lambda: log.append(("terminate",))).subscribe(ts)
    assert log == [("down_next", 1), ("terminate",), ("down_complete",)]
    log.clear()
    ts = LoggingSubscriber(log)
    Flowable.error(RuntimeError()).do_on_terminate(lambda: log.append(("terminate",))) \
        .subscribe(ts)
    assert log == [("terminate",), ("down_error", "RuntimeError")]


def test_do_on_each_requests_pass_through_unchanged():
    requests: list[int] = []
    ts = Flowable.range(1, 10).do_on_request(requests.append).do_on_next(lambda x: None).test(0)
    ts.request(1)
    ts.request(3)
    ts.assert_values(1, 2, 3, 4)
    ts.cancel()
    assert requests == [1, 3]
    requests.clear()
    Flowable.range(1, 3).do_on_request(requests.append).do_on_next(lambda x: None).test() \
        .assert_result(1, 2, 3)
    assert requests == [LONG_MAX]


def test_do_on_each_cancel_reaches_source():
    src = Manual()
    ts = src.do_on_next(lambda x: None).test(5)
    assert src.probe.requests == [5]
    ts.cancel()
    assert src.probe.cancelled == 1


def test_do_on_each_drops_signals_after_failure(plugin_errors):
    src = Manual()
    seen = []
    ts = src.do_on_each(on_next=boom, on_complete=lambda: seen.append("c")).test()
    src.subscriber.on_next(1)
    ts.assert_failure(ValueError)
    src.subscriber.on_next(2)
    src.subscriber.on_complete()
    late = RuntimeError("late")
    src.subscriber.on_error(late)
    assert seen == []
    assert src.probe.cancelled == 1
    ts.assert_value_count(0).assert_protocol_ok()
    assert plugin_errors.causes() == [late]


def test_do_on_each_sync_fused():
    log: list = []
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.range(1, 3).do_on_each(
        on_next=lambda x: log.append(x),
        on_complete=lambda: log.append("c"),
        on_after_terminate=lambda: log.append("a"),
    ).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 2, 3)
    assert log == [1, 2, 3, "c", "a"]


def test_do_on_each_sync_fused_on_next_raises():
    errors = []
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).do_on_each(on_next=lambda x: boom() if x == 2 else None,
                                    on_error=errors.append).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_failure(ValueError, 1)
    assert [type(e) for e in errors] == [ValueError]


def test_do_on_each_sync_fused_on_complete_raises():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 2).do_on_complete(boom).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_failure(ValueError, 1, 2)


def test_do_on_each_sync_fused_upstream_poll_raises_runs_on_error():
    errors = []
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).map(lambda x: 1 // (x - 2)).do_on_error(errors.append).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_failure(ZeroDivisionError, -1)
    assert [type(e) for e in errors] == [ZeroDivisionError]


def test_do_on_each_refuses_fusion_across_boundary():
    ts = TestSubscriber().with_fusion(SYNC | BOUNDARY)
    Flowable.range(1, 3).do_on_next(lambda x: None).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(1, 2, 3)


def test_do_on_each_conditional_path():
    log: list = []
    requests: list[int] = []
    # range -> do_on_next (conditional variant, since filter is conditional) -> filter
    ts = Flowable.range(1, 10).do_on_next(log.append).filter(lambda x: x % 2 == 0).test(2)
    ts.assert_values(2, 4).assert_not_complete()
    assert log == [1, 2, 3, 4]
    ts.request(LONG_MAX)
    ts.assert_result(2, 4, 6, 8, 10)
    # a dropped item in the conditional path costs no request upstream of a hide
    Flowable.range(1, 6).hide().do_on_request(requests.append).do_on_next(lambda x: None) \
        .filter(lambda x: x > 3).test(3).assert_result(4, 5, 6)
    assert requests == [3, 1, 1, 1]


def test_do_on_each_conditional_on_next_raises():
    cancelled = []
    Flowable.range(1, 10).do_on_cancel(lambda: cancelled.append(1)) \
        .do_on_next(lambda x: boom() if x == 3 else None).filter(lambda x: True) \
        .test().assert_failure(ValueError, 1, 2)
    assert cancelled == [1]
    # and through range's own conditional path (no lifecycle stage in between)
    Flowable.range(1, 10).do_on_next(lambda x: boom() if x == 3 else None) \
        .filter(lambda x: True).test(5).assert_failure(ValueError, 1, 2)


def test_do_on_each_bad_arguments():
    f = Flowable.just(1)
    with pytest.raises(TypeError):
        f.do_on_next(None)
    with pytest.raises(TypeError):
        f.do_on_error(None)
    with pytest.raises(TypeError):
        f.do_on_complete(None)
    with pytest.raises(TypeError):
        f.do_on_each(on_next=42)
    with pytest.raises(TypeError):
        f.do_after_terminate(None)


def test_do_on_next_return_value_is_ignored():
    # a side-effect function returning None is fine: the item passes unchanged
    Flowable.just(1, 2).do_on_next(lambda x: None).test().assert_result(1, 2)


# ---------------------------------------------------------------------------- do_on_lifecycle

def test_do_on_subscribe_gets_upstream_subscription_before_downstream():
    src = Manual()
    got = []
    ts = src.do_on_subscribe(got.append).test(0)
    assert got == [src.probe]
    ts.assert_subscribed()


def test_do_on_subscribe_raising_cancels_and_errors():
    src = Manual()
    ts = src.do_on_subscribe(boom).test()
    ts.assert_failure(ValueError)
    ts.assert_subscribed()
    assert src.probe.cancelled == 1
    assert src.probe.requests == []


def test_do_on_subscribe_raising_ignores_later_upstream_signals(plugin_errors):
    src = Manual()
    ts = src.do_on_subscribe(boom).test()
    src.subscriber.on_complete()
    late = RuntimeError("late")
    src.subscriber.on_error(late)
    ts.assert_failure(ValueError).assert_protocol_ok()
    assert plugin_errors.causes() == [late]


def test_do_on_request_records_amounts():
    requests: list[int] = []
    ts = Flowable.range(1, 5).do_on_request(requests.append).test(0)
    ts.request(1)
    ts.request(2)
    ts.request(LONG_MAX)
    ts.assert_result(1, 2, 3, 4, 5)
    assert requests == [1, 2, LONG_MAX]


def test_do_on_request_raising_goes_to_plugins_and_request_proceeds(plugin_errors):
    src = Manual()
    ts = src.do_on_request(boom).test(0)
    ts.request(3)
    assert src.probe.requests == [3]
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]
    ts.assert_empty()


def test_do_on_cancel_once():
    src = Manual()
    calls = []
    ts = src.do_on_cancel(lambda: calls.append(1)).test()
    ts.cancel()
    ts.cancel()
    assert calls == [1]
    assert src.probe.cancelled == 1


def test_do_on_cancel_raising_goes_to_plugins_and_cancel_proceeds(plugin_errors):
    src = Manual()
    ts = src.do_on_cancel(boom).test()
    ts.cancel()
    assert src.probe.cancelled == 1
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


def test_do_on_cancel_not_called_on_normal_completion():
    calls = []
    Flowable.range(1, 3).do_on_cancel(lambda: calls.append(1)).test().assert_result(1, 2, 3)
    assert calls == []


def test_do_on_lifecycle_drops_signals_after_cancel(plugin_errors):
    src = Manual()
    ts = src.do_on_lifecycle(on_cancel=lambda: None).test()
    ts.cancel()
    src.subscriber.on_complete()
    late = RuntimeError("late")
    src.subscriber.on_error(late)
    ts.assert_empty()
    assert plugin_errors.causes() == [late]


def test_do_on_lifecycle_passes_values_and_errors():
    Flowable.range(1, 3).do_on_lifecycle(lambda s: None, lambda n: None, lambda: None).test() \
        .assert_result(1, 2, 3)
    Flowable.error(RuntimeError()).do_on_request(lambda n: None).test() \
        .assert_failure(RuntimeError)


def test_do_on_lifecycle_passes_itself_downstream():
    src = Manual()
    got = []

    class Capture(FlowableSubscriber[int]):
        def on_subscribe(self, s):
            got.append(s)

        def on_next(self, item):
            pass

        def on_error(self, error):
            pass

        def on_complete(self):
            pass

    src.do_on_request(lambda n: None).subscribe(Capture())
    assert got and got[0] is not src.probe


def test_do_on_lifecycle_bad_arguments():
    f = Flowable.just(1)
    with pytest.raises(TypeError):
        f.do_on_subscribe(None)
    with pytest.raises(TypeError):
        f.do_on_request(None)
    with pytest.raises(TypeError):
        f.do_on_cancel(None)
    with pytest.raises(TypeError):
        f.do_on_lifecycle(on_request="x")


def test_do_on_cancel_race_runs_once(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        calls = []
        ts = src.do_on_cancel(lambda c=calls: c.append(1)).test()
        race_runner.race(ts.cancel, ts.cancel)
        assert calls == [1]
        assert src.probe.cancelled == 1


# ---------------------------------------------------------------------------- do_after_next

def test_do_after_next_runs_after_downstream():
    log: list = []
    ts = LoggingSubscriber(log)
    Flowable.range(1, 2).do_after_next(lambda x: log.append(("after", x))).subscribe(ts)
    ts.assert_result(1, 2)
    assert log == [("down_next", 1), ("after", 1), ("down_next", 2), ("after", 2),
                   ("down_complete",)]


def test_do_after_next_raising_cancels_and_errors():
    cancelled = []
    ts = Flowable.range(1, 5).do_on_cancel(lambda: cancelled.append(1)) \
        .do_after_next(lambda x: boom() if x == 2 else None).test()
    ts.assert_failure(ValueError, 1, 2)
    assert cancelled == [1]


def test_do_after_next_conditional():
    seen = []
    Flowable.range(1, 6).do_after_next(seen.append).filter(lambda x: x % 2 == 1).test() \
        .assert_result(1, 3, 5)
    assert seen == [1, 2, 3, 4, 5, 6]
    Flowable.range(1, 6).do_after_next(lambda x: boom() if x == 3 else None) \
        .filter(lambda x: True).test().assert_failure(ValueError, 1, 2, 3)


def test_do_after_next_sync_fused():
    seen = []
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).do_after_next(seen.append).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 2, 3)
    assert seen == [1, 2, 3]


def test_do_after_next_requests_and_error_passthrough():
    requests: list[int] = []
    ts = Flowable.range(1, 5).do_on_request(requests.append).do_after_next(lambda x: None) \
        .test(2)
    ts.request(1)
    ts.assert_values(1, 2, 3)
    assert requests == [2, 1]
    Flowable.error(RuntimeError()).do_after_next(lambda x: None).test() \
        .assert_failure(RuntimeError)


def test_do_after_next_bad_argument():
    with pytest.raises(TypeError):
        Flowable.just(1).do_after_next(None)


# ---------------------------------------------------------------------------- do_finally

def test_do_finally_after_complete():
    log: list = []
    ts = LoggingSubscriber(log)
    Flowable.range(1, 2).do_finally(lambda: log.append(("finally",))).subscribe(ts)
    ts.assert_result(1, 2)
    assert log == [("down_next", 1), ("down_next", 2), ("down_complete",), ("finally",)]


def test_do_finally_after_error():
    log: list = []
    ts = LoggingSubscriber(log)
    Flowable.error(RuntimeError()).do_finally(lambda: log.append(("finally",))).subscribe(ts)
    assert log == [("down_error", "RuntimeError"), ("finally",)]


def test_do_finally_on_cancel_once():
    src = Manual()
    calls = []
    ts = src.do_finally(lambda: calls.append(1)).test()
    ts.cancel()
    assert calls == [1]
    assert src.probe.cancelled == 1
    src.subscriber.on_complete()  # a late completion: still once
    assert calls == [1]


def test_do_finally_complete_then_cancel_once():
    src = Manual()
    calls = []
    seen = []

    class CancelOnComplete(TestSubscriber[int]):
        def on_complete(self):
            super().on_complete()
            seen.append("complete")
            self.cancel()

    ts = CancelOnComplete()
    src.do_finally(lambda: calls.append(1)).subscribe(ts)
    src.subscriber.on_complete()
    assert calls == [1]
    assert seen == ["complete"]


def test_do_finally_raising_goes_to_plugins(plugin_errors):
    Flowable.just(1).do_finally(boom).test().assert_result(1)
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


def test_do_finally_sync_fused():
    calls = []
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).do_finally(lambda: calls.append(1)).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 2, 3)
    assert calls == [1]


def test_do_finally_refuses_fusion_across_boundary():
    calls = []
    ts = TestSubscriber().with_fusion(SYNC | BOUNDARY)
    Flowable.range(1, 3).do_finally(lambda: calls.append(1)).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(1, 2, 3)
    assert calls == [1]


def test_do_finally_conditional():
    calls = []
    Flowable.range(1, 5).do_finally(lambda: calls.append(1)).filter(lambda x: x > 2).test() \
        .assert_result(3, 4, 5)
    assert calls == [1]


def test_do_finally_requests_pass_through():
    requests: list[int] = []
    ts = Flowable.range(1, 5).do_on_request(requests.append).do_finally(lambda: None).test(1)
    ts.request(2)
    ts.assert_values(1, 2, 3)
    assert requests == [1, 2]


def test_do_finally_bad_argument():
    with pytest.raises(TypeError):
        Flowable.just(1).do_finally(None)


def test_do_finally_race_cancel_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        calls = []
        ts = src.do_finally(lambda c=calls: c.append(1)).test()
        s = src.subscriber
        race_runner.race(ts.cancel, s.on_complete)
        assert calls == [1]



# ---------------------------------------------------------------- fusion and try_on_next (issue 6)
# The stage classes are built directly over FlowableRange so that no assembly-time
# fusion replaces them; UnicastProcessor is the ASYNC-fusable upstream.

def _do_on_each(src, log):
    return FlowableDoOnEach(src, log.append, None, lambda: log.append("c"), None)


def _do_after_next(src, log):
    return FlowableDoAfterNext(src, log.append)


def _do_finally(src, log):
    return FlowableDoFinally(src, lambda: log.append("f"))


FUSEABLE_STAGES = {"do_on_each": _do_on_each, "do_after_next": _do_after_next,
                   "do_finally": _do_finally}


@pytest.mark.parametrize("stage", list(FUSEABLE_STAGES))
def test_stage_async_fused_forwards_the_ready_signal(stage):
    up = UnicastProcessor()
    log: list = []
    ts = TestSubscriber().with_fusion(ANY)
    FUSEABLE_STAGES[stage](up, log).subscribe(ts)
    ts.assert_fusion_mode(ASYNC)
    up.on_next(1)
    ts.assert_values(1)  # the "ready" signal went through: the consumer polled
    up.on_next(2)
    up.on_complete()
    ts.assert_result(1, 2)
    assert log == {"do_on_each": [1, 2, "c"], "do_after_next": [1, 2],
                   "do_finally": ["f"]}[stage]


@pytest.mark.parametrize("stage", list(FUSEABLE_STAGES))
def test_stage_refuses_fusion_across_a_boundary(stage):
    for make in (lambda: SyncFusedProbe(3), UnicastProcessor):
        src = make()
        ts = TestSubscriber().with_fusion(ANY | BOUNDARY)
        FUSEABLE_STAGES[stage](src, []).subscribe(ts)
        ts.assert_fusion_mode(NONE)
        if isinstance(src, UnicastProcessor):
            src.on_next(5)
            src.on_complete()
            ts.assert_result(5)
        else:
            assert src.modes == []  # refused without asking the source


@pytest.mark.parametrize("stage", list(FUSEABLE_STAGES))
def test_stage_conditional_variant_uses_try_on_next(stage):
    log: list = []
    c = OddRejecter()
    FUSEABLE_STAGES[stage](FlowableRange(0, 10), log).subscribe(c)
    c.s.request(2)
    assert c.accepted == [0, 2] and c.offered == [0, 1, 2]  # a dropped item used no demand
    c.s.request(LONG_MAX)
    assert c.offered == list(range(10)) and c.completed
    assert log == {"do_on_each": list(range(10)) + ["c"], "do_after_next": list(range(10)),
                   "do_finally": ["f"]}[stage]
