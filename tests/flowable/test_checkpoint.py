"""Flowable.checkpoint and assembly tracking (rxpy2.plugins.set_assembly_tracking): the
notes an error gets, on the assembling thread and on others; what passes unchanged; the
switch, its environment variable, reset and lockdown."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from probes import Boom

from rxpy2 import Flowable
from rxpy2 import plugins
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.operators.flowable.flowable_checkpoint import CheckpointConditionalSubscriber
from rxpy2.connectable_flowable import ConnectableFlowable
from rxpy2.operator_kit import EmptySubscription
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

HERE = Path(__file__).name


def here() -> int:
    """The line of the caller."""
    return sys._getframe(1).f_lineno


def notes(error: BaseException, prefix: str = "rxpy2") -> list[str]:
    return [n for n in getattr(error, "__notes__", []) if n.startswith(prefix)]


def only_error(ts: TestSubscriber[object]) -> BaseException:
    ts.await_done()
    assert len(ts.errors()) == 1, ts.errors()
    return ts.errors()[0]


def fail(x: object) -> object:
    raise Boom(f"bad {x}")


@pytest.fixture
def tracking():
    plugins.set_assembly_tracking(True)
    yield
    plugins.set_assembly_tracking(False)


# ---------------------------------------------------------------------- checkpoint()


def test_note_names_description_this_file_line_and_chain():
    source = Flowable.range(1, 3).map(fail)
    marked, line = source.checkpoint("parse the feed"), here()
    error = only_error(marked.test())
    assert notes(error) == [f"rxpy2 checkpoint 'parse the feed': assembled at {__file__}:{line} "
                            "in test_note_names_description_this_file_line_and_chain, "
                            "after range(1, 3) → map(fail)"]
    assert f"{HERE}:{line}" in notes(error)[0]


def test_note_without_description():
    line = here(); error = only_error(Flowable.error(Boom("x")).checkpoint().test())  # noqa: E702
    (note,) = notes(error)
    assert note.startswith(f"rxpy2 checkpoint: assembled at {__file__}:{line} in ")
    assert note.endswith("after error(<lambda>)")


def test_error_raised_on_another_thread_names_the_assembly_line():
    threads = []

    def failing(x: int) -> int:
        threads.append(threading.current_thread())
        raise Boom("on a computation thread")

    chain = Flowable.range(1, 5).observe_on(Schedulers.computation()).map(failing)
    marked, line = chain.checkpoint("after the hop"), here()
    error = only_error(marked.test())
    assert threads and threads[0] is not threading.current_thread()
    (note,) = notes(error)
    assert f"'after the hop': assembled at {__file__}:{line} in " in note
    assert "observe_on(ComputationScheduler) → map(failing)" in note


def test_two_checkpoints_two_notes_innermost_first():
    first_line = here(); inner = Flowable.just(1).map(fail).checkpoint("inner")  # noqa: E702
    second_line = here(); outer = inner.filter(bool).checkpoint("outer")  # noqa: E702
    error = only_error(outer.test())
    assert [n.split(":")[0] for n in notes(error)] == ["rxpy2 checkpoint 'inner'",
                                                      "rxpy2 checkpoint 'outer'"]
    assert f":{first_line} in " in notes(error)[0]
    assert f":{second_line} in " in notes(error)[1]


def test_same_exception_through_the_same_checkpoint_twice_is_noted_once():
    error = Boom("shared")
    published = Flowable.error(error).publish()
    marked = published.checkpoint("shared stage")
    ts1, ts2 = marked.test(), marked.test()
    published.connect()
    assert only_error(ts1) is error and only_error(ts2) is error
    assert len(notes(error)) == 1
    # the same error object signalled again on a new subscription: still one note
    again = Flowable.error(error).checkpoint("shared stage")
    for _ in range(3):
        again.test()
    assert len(notes(error)) == 2  # this checkpoint is another line: one note of its own


def test_items_requests_and_cancel_pass_unchanged():
    def run(with_checkpoint: bool) -> tuple[list[int], list[int], int]:
        requests: list[int] = []
        cancels: list[bool] = []
        source = Flowable.range(1, 100).do_on_request(requests.append) \
            .do_on_cancel(lambda: cancels.append(True))
        if with_checkpoint:
            source = source.checkpoint("passes")
        ts = source.test(3)
        ts.request(2)
        ts.request(4)
        values = ts.values()
        ts.cancel()
        return values, requests, len(cancels)

    plain = run(False)
    assert plain == ([1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 2, 4], 1)
    assert run(True) == plain


def test_completion_and_empty_pass():
    Flowable.range(1, 3).checkpoint().test().assert_result(1, 2, 3)
    Flowable.empty().checkpoint().test().assert_result()


def test_sync_fusion_passes_through_and_a_failing_poll_is_noted():
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 4).map(lambda x: x * 10).checkpoint().subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(10, 20, 30, 40)

    fused: TestSubscriber[object] = TestSubscriber().with_fusion(SYNC)
    line = here(); Flowable.range(1, 4).map(fail).checkpoint("fused").subscribe(fused)  # noqa: E702
    fused.assert_fusion_mode(SYNC)
    assert f"{__file__}:{line}" in notes(only_error(fused))[0]


def test_async_fusion_passes_through():
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(ASYNC)
    Flowable.range(1, 3).on_backpressure_buffer().checkpoint().subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result(1, 2, 3)


def filtered_requests(mark: bool) -> tuple[list[int], list[int]]:
    """The values and the requests reaching the range of a filtered chain (a
    ConditionalSubscriber: a dropped item costs no request), with or without a
    checkpoint before the filter."""
    requests: list[int] = []
    source = Flowable.range(1, 10).do_on_request(requests.append)
    if mark:
        source = source.checkpoint()
    ts = source.filter(lambda x: x % 2 == 0).test(2)
    ts.request(1)
    return ts.values(), requests


def test_conditional_downstream_gets_the_conditional_stage():
    built = []
    original = CheckpointConditionalSubscriber.__init__

    def spy(self, downstream, tracer):  # type: ignore[no-untyped-def]
        built.append(type(self))
        original(self, downstream, tracer)

    CheckpointConditionalSubscriber.__init__ = spy  # type: ignore[method-assign]
    try:
        marked = filtered_requests(True)
    finally:
        CheckpointConditionalSubscriber.__init__ = original  # type: ignore[method-assign]
    assert built == [CheckpointConditionalSubscriber]
    assert marked == filtered_requests(False) == ([2, 4, 6], [2, 1, 1, 1, 1])
    Flowable.range(1, 10).checkpoint().filter(lambda x: x % 2 == 0).test(2) \
        .assert_values(2, 4).assert_not_complete()


def test_description_must_be_a_string():
    with pytest.raises(TypeError, match="description must be a str"):
        Flowable.just(1).checkpoint(42)  # type: ignore[arg-type]


def test_repr_shows_the_stage():
    assert repr(Flowable.just(1).checkpoint("here")) == "just(1) → checkpoint('here')"


def test_fatal_exception_is_not_swallowed():
    def interrupt(x: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Flowable.just(1).map(interrupt).checkpoint("fatal").test()
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(SYNC)
    with pytest.raises(KeyboardInterrupt):  # out of a fused poll too
        Flowable.range(1, 2).map(interrupt).checkpoint("fatal").subscribe(ts)


def test_a_note_never_replaces_the_error():
    error = Boom("odd notes")
    error.__notes__ = "not a list"  # type: ignore[assignment]  # add_note would raise
    assert only_error(Flowable.error(error).checkpoint().test()) is error
    assert error.__notes__ == "not a list"  # type: ignore[comparison-overlap]


# ---------------------------------------------------------------------- assembly tracking


def test_tracking_notes_the_failing_operator_and_its_line_once(tracking):
    chain = Flowable.range(1, 5).observe_on(Schedulers.computation())
    line = here(); chain = chain.map(fail)  # noqa: E702
    chain = chain.filter(bool).take(3)
    error = only_error(chain.test())
    (note,) = notes(error, "rxpy2 assembly trace")
    assert note.startswith(f"rxpy2 assembly trace: the error came out of map(fail), "
                           f"assembled at {__file__}:{line} in ")
    assert "(chain: range(1, 5) → observe_on(ComputationScheduler) → map(fail))" in note


def test_tracking_names_a_failing_source(tracking):
    line = here(); source = Flowable.error(Boom("at the source"))  # noqa: E702
    error = only_error(source.map(lambda x: x).test())
    (note,) = notes(error)
    assert "came out of error(<lambda>)" in note and f"{HERE}:{line}" in note


def test_tracking_off_adds_nothing():
    assert not plugins.is_assembly_tracking_enabled()
    error = only_error(Flowable.just(1).map(fail).test())
    assert notes(error) == []


def test_tracking_and_checkpoints_together(tracking):
    error = only_error(Flowable.just(1).map(fail).checkpoint("mine").test())
    kinds = [n.split(":")[0] for n in notes(error)]
    assert kinds == ["rxpy2 assembly trace", "rxpy2 checkpoint 'mine'"]


def test_tracking_keeps_results_types_and_user_hooks(tracking):
    seen = []

    def hook(f):  # type: ignore[no-untyped-def]
        seen.append(type(f).__name__)
        return f

    plugins.set_on_flowable_assembly(hook)
    assert isinstance(Flowable.range(1, 3).publish(), ConnectableFlowable)
    assert "FlowablePublish" in seen
    Flowable.range(1, 10).map(lambda x: x + 1).filter(lambda x: x % 2 == 0) \
        .flat_map(lambda x: Flowable.just(x)).test().assert_result(2, 4, 6, 8, 10)
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).map(lambda x: x * 2).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(2, 4, 6)


def test_tracking_keeps_request_amounts():
    plain = filtered_requests(False)
    plugins.set_assembly_tracking(True)
    try:
        assert filtered_requests(False) == filtered_requests(True) == plain
    finally:
        plugins.set_assembly_tracking(False)


def test_sources_assembled_while_off_are_not_traced():
    untraced = Flowable.just(1).map(fail)
    plugins.set_assembly_tracking(True)
    try:
        assert notes(only_error(untraced.test())) == []
    finally:
        plugins.set_assembly_tracking(False)


def test_switch_reset_and_lockdown():
    assert plugins.is_assembly_tracking_enabled() is False
    plugins.set_assembly_tracking(True)
    assert plugins.is_assembly_tracking_enabled() and plugins.hooks_active
    plugins.reset()
    assert not plugins.is_assembly_tracking_enabled() and not plugins.flags.hooks_active
    with pytest.raises(TypeError):
        plugins.set_assembly_tracking(1)  # type: ignore[arg-type]
    plugins.lockdown()
    try:
        with pytest.raises(RuntimeError, match="locked down"):
            plugins.set_assembly_tracking(True)
        assert not plugins.is_assembly_tracking_enabled()
    finally:
        plugins._unlock_for_tests()


def test_a_user_hook_alone_does_not_track():
    plugins.set_on_flowable_assembly(lambda f: f)
    assert plugins.hooks_active and not plugins.is_assembly_tracking_enabled()
    assert notes(only_error(Flowable.just(1).map(fail).test())) == []


def test_fatal_exception_is_not_swallowed_under_tracking(tracking):
    def interrupt(x: int) -> int:
        raise SystemExit(3)

    with pytest.raises(SystemExit):
        Flowable.just(1).map(interrupt).filter(bool).test()


_CHILD = """
import sys
from rxpy2 import Flowable, plugins
print(plugins.is_assembly_tracking_enabled())
def fail(x):
    raise ValueError(x)
ts = Flowable.just(1).map(fail).test()
print(len([n for n in getattr(ts.errors()[0], "__notes__", []) if n.startswith("rxpy2")]))
plugins.reset()
print(plugins.is_assembly_tracking_enabled())
"""


@pytest.mark.parametrize(("value", "expected"), [("1", ["True", "1", "True"]),
                                                 ("on", ["True", "1", "True"]),
                                                 ("0", ["False", "0", "False"]),
                                                 (None, ["False", "0", "False"])])
def test_environment_variable_at_import(value, expected):
    env = {k: v for k, v in os.environ.items() if k != "RXPY2_ASSEMBLY_TRACKING"}
    if value is not None:
        env["RXPY2_ASSEMBLY_TRACKING"] = value
    root = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                         text=True, timeout=60, check=True).stdout.split()
    assert out == expected


def test_the_stage_hides_no_protocol_violation_of_its_upstream():
    def source(s):  # type: ignore[no-untyped-def]
        s.on_subscribe(EmptySubscription.INSTANCE)
        s.on_complete()
        s.on_next(3)  # after the end: the consumer's checks must still see it

    ts: TestSubscriber[int] = TestSubscriber()
    Flowable.unsafe_create(source).checkpoint().subscribe(ts)
    assert ts.values() == [3] and ts.completions() == 1
    plugins.set_assembly_tracking(True)
    try:
        traced: TestSubscriber[int] = TestSubscriber()
        Flowable.unsafe_create(source).hide().subscribe(traced)
    finally:
        plugins.set_assembly_tracking(False)
    assert traced.values() == [3] and traced.completions() == 1
