"""hide, serialize, on_terminate_detach, rebatch_requests."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from probes import Manual

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


class Capture(FlowableSubscriber[int]):
    """Keeps the Subscription it receives; signals are ignored."""

    def __init__(self) -> None:
        self.subscription = None

    def on_subscribe(self, s):
        self.subscription = s

    def on_next(self, item):
        pass

    def on_error(self, error):
        pass

    def on_complete(self):
        pass


# ---------------------------------------------------------------------------- hide

def test_hide_values_and_errors():
    Flowable.range(1, 3).hide().test().assert_result(1, 2, 3)
    Flowable.error(RuntimeError()).hide().test().assert_failure(RuntimeError)


def test_hide_hides_identity():
    src = Flowable.just(1)
    assert isinstance(src, Callable)
    hidden = src.hide()
    assert hidden is not src
    assert not isinstance(hidden, Callable)


def test_hide_hides_subscription_and_stops_fusion():
    src = Manual()
    cap = Capture()
    src.hide().subscribe(cap)
    assert cap.subscription is not src.probe
    assert not isinstance(cap.subscription, QueueSubscription)
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.range(1, 3).hide().subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(1, 2, 3)


def test_hide_is_not_conditional():
    seen = []

    class Source(Flowable[int]):
        def subscribe_actual(self, subscriber):
            seen.append(isinstance(subscriber, ConditionalSubscriber))
            Flowable.range(1, 3).subscribe(subscriber)

    Source().hide().filter(lambda x: True).test().assert_result(1, 2, 3)
    assert seen == [False]


def test_hide_requests_and_cancel_pass_through():
    src = Manual()
    ts = src.hide().test(0)
    ts.request(2)
    ts.request(LONG_MAX)
    assert src.probe.requests == [2, LONG_MAX]
    ts.cancel()
    assert src.probe.cancelled == 1


@pytest.mark.parametrize("downstream", ["map", "subscribe(f)", "TestSubscriber", "FlowableSubscriber"])
def test_hide_hands_its_upstream_a_checking_on_next(downstream):
    """hide relays items to a downstream that checks them itself (ChecksItems) straight from
    its upstream, else through its own check: either way a None item raises to the sender."""
    from probes import ManualSource

    src = ManualSource()
    got: list[int] = []
    if downstream == "map":
        src.hide().map(lambda x: x + 1).subscribe(got.append)
    elif downstream == "subscribe(f)":
        src.hide().subscribe(got.append)
    elif downstream == "TestSubscriber":
        ts = src.hide().test()
    else:
        class Plain(FlowableSubscriber[int]):
            def on_subscribe(self, s):
                s.request(LONG_MAX)

            def on_next(self, item):
                got.append(item)

            def on_error(self, e):
                pass

            def on_complete(self):
                pass
        src.hide().subscribe(Plain())
    src.emit(1)
    with pytest.raises(TypeError, match="2.13"):
        src.emit(None)
    if downstream == "TestSubscriber":
        ts.assert_values(1)
    else:
        assert got == [2] if downstream == "map" else got == [1]


def test_hide_passes_requests_as_they_are_and_the_upstream_checks_them(plugin_errors):
    src = Manual()
    ts = src.hide().test(0)
    ts.request(3)
    ts.request(0)  # §3.9: the upstream's to report
    assert src.probe.requests[0] == 3


def test_a_map_filter_stage_stops_calling_a_disposed_consumer():
    from probes import ManualSource

    src = ManualSource()  # keeps emitting after cancel, as an upstream may for a while (§3.12)
    got: list[int] = []
    d = src.hide().map(lambda x: x * 2).filter(lambda x: x > 0).subscribe(got.append)
    src.emit(1)
    d.dispose()
    assert src.cancelled
    src.emit(2)
    assert got == [2]


def test_a_map_filter_stage_whose_consumer_raises_cancels_and_signals(plugin_errors):
    from probes import ManualSource

    src = ManualSource()
    errors: list[BaseException] = []
    got: list[int] = []

    def consume(x: int) -> None:
        got.append(x)
        if x == 4:
            raise OSError("consumer")

    src.hide().map(lambda x: x * 2).filter(lambda x: x > 0).subscribe(consume, errors.append)
    src.emit(1, 2, 3)
    assert got == [2, 4] and [type(e) for e in errors] == [OSError]
    assert src.cancelled
    assert got == [2, 4]  # item 3 came after the failure: dropped


# ---------------------------------------------------------------------------- serialize

class OverlapDetector(TestSubscriber[int]):
    """Records whether two signals were ever inside it at the same time (§1.3)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = 0
        self.overlaps = 0
        self._guard = threading.Lock()

    def _enter(self):
        with self._guard:
            self.inside += 1
            if self.inside > 1:
                self.overlaps += 1

    def _leave(self):
        with self._guard:
            self.inside -= 1

    def on_next(self, item):
        self._enter()
        try:
            super().on_next(item)
        finally:
            self._leave()

    def on_complete(self):
        self._enter()
        try:
            super().on_complete()
        finally:
            self._leave()

    def on_error(self, error):
        self._enter()
        try:
            super().on_error(error)
        finally:
            self._leave()


def test_serialize_values_and_errors():
    Flowable.range(1, 3).serialize().test().assert_result(1, 2, 3)
    Flowable.error(RuntimeError()).serialize().test().assert_failure(RuntimeError)


def test_serialize_requests_and_cancel_pass_through():
    src = Manual()
    ts = src.serialize().test(0)
    ts.request(3)
    assert src.probe.requests == [3]
    ts.cancel()
    assert src.probe.cancelled == 1


def test_serialize_drops_after_terminal(plugin_errors):
    src = Manual()
    ts = src.serialize().test()
    s = src.subscriber
    s.on_next(1)
    s.on_complete()
    s.on_next(2)
    s.on_complete()
    late = RuntimeError("late")
    s.on_error(late)
    ts.assert_result(1).assert_protocol_ok()
    assert plugin_errors.causes() == [late]


def test_serialize_race_on_next_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        ts = OverlapDetector()
        src.map(lambda x: x).serialize().subscribe(ts)
        s = src.subscriber

        def emit(base, s=s):
            for i in range(base, base + 5):
                s.on_next(i)

        race_runner.race(lambda: emit(0), lambda: emit(100))
        s.on_complete()
        values = ts.values()
        assert sorted(values) == [0, 1, 2, 3, 4, 100, 101, 102, 103, 104]  # none lost/duplicated
        assert [v for v in values if v < 100] == [0, 1, 2, 3, 4]  # each thread's order kept
        assert [v for v in values if v >= 100] == [100, 101, 102, 103, 104]
        assert ts.overlaps == 0
        ts.assert_complete().assert_protocol_ok()


def test_serialize_race_on_next_vs_on_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        ts = OverlapDetector()
        src.serialize().subscribe(ts)
        s = src.subscriber

        def emit_a(s=s):
            for i in range(5):
                s.on_next(i)

        def emit_b_then_complete(s=s):
            for i in range(100, 103):
                s.on_next(i)
            s.on_complete()

        race_runner.race(emit_a, emit_b_then_complete)
        values = ts.values()
        # everything B sent before its completion arrived, exactly once
        assert [v for v in values if v >= 100] == [100, 101, 102]
        # A's items are a prefix of A's sequence (those after the completion are dropped)
        a_items = [v for v in values if v < 100]
        assert a_items == list(range(len(a_items)))
        assert values[-1] == 102 or values[-1] < 100
        assert ts.overlaps == 0
        ts.assert_complete().assert_no_errors().assert_protocol_ok()


def test_serialize_race_on_next_vs_on_error(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        ts = OverlapDetector()
        src.serialize().subscribe(ts)
        s = src.subscriber
        err = RuntimeError("x")

        def emit(s=s):
            for i in range(5):
                s.on_next(i)

        race_runner.race(emit, lambda s=s, err=err: s.on_error(err))
        values = ts.values()
        assert values == list(range(len(values)))
        assert ts.overlaps == 0
        ts.assert_error(err).assert_not_complete().assert_protocol_ok()


# ---------------------------------------------------------------------------- detach

def test_detach_values_errors_requests():
    Flowable.range(1, 3).on_terminate_detach().test().assert_result(1, 2, 3)
    Flowable.error(RuntimeError()).on_terminate_detach().test().assert_failure(RuntimeError)
    src = Manual()
    ts = src.on_terminate_detach().test(0)
    ts.request(4)
    assert src.probe.requests == [4]
    ts.cancel()
    assert src.probe.cancelled == 1


def _detach_keeps(terminate: str, detach: bool) -> bool:
    """True if the source's reference to its subscriber still keeps the consumer alive."""
    src = Manual()
    ts: TestSubscriber[int] | None = TestSubscriber()
    f = src.on_terminate_detach() if detach else src.hide()
    f.subscribe(ts)
    ref = weakref.ref(ts)
    if terminate == "cancel":
        ts.cancel()  # type: ignore[union-attr]
    else:
        src.subscriber.on_complete()
    ts = None
    gc.collect()
    alive = ref() is not None
    assert src.subscriber is not None  # the source still holds the stage
    return alive


@pytest.mark.parametrize("terminate", ["cancel", "complete"])
def test_detach_drops_downstream_reference(terminate):
    assert _detach_keeps(terminate, detach=True) is False
    # without detach the consumer stays reachable: the test above can fail
    assert _detach_keeps(terminate, detach=False) is True


def test_detach_drops_upstream_reference():
    src = Manual()
    cap = Capture()
    src.on_terminate_detach().subscribe(cap)
    probe_ref = weakref.ref(src.probe)
    stage = cap.subscription
    src.subscriber.on_complete()
    src.probes.clear()
    gc.collect()
    assert probe_ref() is None
    stage.request(1)  # a no-op now
    stage.cancel()


def test_detach_signals_after_cancel_are_dropped(plugin_errors):
    src = Manual()
    ts = src.on_terminate_detach().test()
    ts.cancel()
    src.subscriber.on_next(1)
    src.subscriber.on_complete()
    late = RuntimeError("late")
    src.subscriber.on_error(late)
    ts.assert_empty()
    assert plugin_errors.causes() == [late]


# ---------------------------------------------------------------------------- rebatch_requests

def test_rebatch_requests_pattern_unbounded_downstream():
    requests: list[int] = []
    Flowable.range(1, 10).do_on_request(requests.append).rebatch_requests(4).test() \
        .assert_result(*range(1, 11))
    assert requests == [4, 3, 3, 3]


def test_rebatch_requests_pattern_small_downstream_requests():
    requests: list[int] = []
    ts = Flowable.range(1, 20).do_on_request(requests.append).rebatch_requests(4).test(0)
    assert requests == [4]  # prefetch whatever the downstream asks
    ts.request(1)
    ts.assert_values(1)
    assert requests == [4]
    ts.request(2)
    ts.assert_values(1, 2, 3)
    assert requests == [4, 3]  # 3 emitted: replenish 3
    ts.request(6)
    ts.assert_values(*range(1, 10))
    assert requests == [4, 3, 3, 3]
    ts.request(LONG_MAX)
    ts.assert_result(*range(1, 21))
    assert requests == [4, 3, 3, 3, 3, 3, 3]


def test_rebatch_requests_large_batch():
    requests: list[int] = []
    Flowable.range(1, 250).do_on_request(requests.append).rebatch_requests(100).test() \
        .assert_value_count(250).assert_complete()
    assert requests == [100, 75, 75, 75]


def test_rebatch_requests_one():
    requests: list[int] = []
    Flowable.range(1, 3).do_on_request(requests.append).rebatch_requests(1).test() \
        .assert_result(1, 2, 3)
    assert requests == [1, 1, 1, 1]


def test_rebatch_requests_cancel_reaches_source_and_clears_queue():
    src = Manual()
    ts = src.rebatch_requests(4).test(0)
    assert src.probe.requests == [4]
    for i in range(1, 4):
        src.subscriber.on_next(i)
    stage = src.subscriber
    assert len(stage.queue) == 3
    ts.cancel()
    assert src.probe.cancelled == 1
    assert len(stage.queue) == 0
    ts.request(5)
    ts.assert_empty()


def test_rebatch_requests_error_waits_behind_the_queued_items():
    """RxJava 2.2.21 ``rebatchRequests(n)`` is ``observeOn(ImmediateThinScheduler, true, n)``:
    with ``delayError`` the queued items go first, under demand, then the error."""
    src = Manual()
    ts = src.rebatch_requests(4).test(0)
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    src.subscriber.on_error(RuntimeError())
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(1).assert_no_errors()
    ts.request(1)
    ts.assert_failure(RuntimeError, 1, 2)
    assert src.probe.requests == [4]


def test_rebatch_requests_completion_waits_for_queued_items():
    src = Manual()
    ts = src.rebatch_requests(4).test(0)
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    src.subscriber.on_complete()
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2)


def test_rebatch_requests_overflow_is_missing_backpressure():
    """RxJava 2.2.21 FlowableObserveOn: a full queue cancels the upstream and the
    MissingBackpressureException is delayed like any error (``delayError``)."""
    src = Manual()
    ts = src.rebatch_requests(4).test(0)
    for i in range(5):
        src.subscriber.on_next(i)
    assert src.probe.cancelled == 1
    ts.assert_empty()
    ts.request(10)
    ts.assert_failure(MissingBackpressureException, 0, 1, 2, 3)


def test_rebatch_requests_bad_arguments():
    with pytest.raises(ValueError):
        Flowable.just(1).rebatch_requests(0)
    with pytest.raises(TypeError):
        Flowable.just(1).rebatch_requests(None)


def test_rebatch_requests_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        ts = src.rebatch_requests(4).test(0)
        s = src.subscriber

        def produce(s=s):
            for i in range(4):
                s.on_next(i)
            s.on_complete()

        race_runner.race(lambda ts=ts: ts.request(4), produce)
        ts.assert_result(0, 1, 2, 3).assert_protocol_ok()
        assert src.probe.requests == [4, 3]
