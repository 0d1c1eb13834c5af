"""Reliability regressions: multicast termination races, huge request amounts,
error messages that name their operator."""

from __future__ import annotations

import pytest

from rxpy2 import PublishProcessor, TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

#: The late-subscriber race hit 307/500 (publish) and 14/500 (replay) rounds before the fix.
TERMINATE_RACE_ROUNDS = 1000


# ---- item 4: a subscriber arriving while the upstream terminates


@pytest.mark.parametrize("make", [
    pytest.param(lambda pp: pp.publish().ref_count(), id="publish-ref_count"),
    pytest.param(lambda pp: pp.share(), id="share"),
    pytest.param(lambda pp: pp.replay().ref_count(), id="replay-ref_count"),
])
def test_ref_count_subscribe_vs_upstream_complete_race(race_runner, make):
    for i in range(TERMINATE_RACE_ROUNDS):
        pp: PublishProcessor[int] = PublishProcessor.create()
        f = make(pp)
        first = f.test()
        late: TestSubscriber[int] = TestSubscriber()
        race_runner.race(pp.on_complete, lambda f=f, late=late: f.subscribe(late))
        first.await_done(5).assert_result()
        # the late one joined the old connection (its terminal event) or a new one (which
        # subscribes the completed processor: completes at once); never nothing
        assert late.await_terminal_event(2), f"round {i}: the late subscriber hangs"
        late.assert_result()


@pytest.mark.parametrize("make", [
    pytest.param(lambda pp: pp.publish().ref_count(), id="publish-ref_count"),
    pytest.param(lambda pp: pp.replay().ref_count(), id="replay-ref_count"),
])
def test_ref_count_subscribe_vs_upstream_error_race(race_runner, make):
    for i in range(TERMINATE_RACE_ROUNDS // 2):
        pp: PublishProcessor[int] = PublishProcessor.create()
        f = make(pp)
        first = f.test()
        late: TestSubscriber[int] = TestSubscriber()
        err = ValueError("boom")
        race_runner.race(lambda pp=pp, err=err: pp.on_error(err),
                         lambda f=f, late=late: f.subscribe(late))
        first.await_done(5).assert_failure(ValueError)
        assert late.await_terminal_event(2), f"round {i}: the late subscriber hangs"
        # the old connection's error, or a new connection to the failed processor (its error)
        late.assert_failure(ValueError)
