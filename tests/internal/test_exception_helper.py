"""ExceptionHelper / AtomicThrowable: combining errors, the TERMINATED mark, and races."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers import TERMINATED
from rxpy2._internal.helpers import AtomicThrowable
from rxpy2._internal.helpers import ExceptionHelper as EH
from rxpy2._internal.subscriptions import BooleanSubscription
from rxpy2.exceptions import CompositeException
from rxpy2.testing import TestSubscriber


def _subscribed() -> TestSubscriber:
    ts: TestSubscriber = TestSubscriber()
    ts.on_subscribe(BooleanSubscription())
    return ts


def _leaves(e: BaseException | None) -> list[BaseException]:
    if e is None or e is TERMINATED:
        return []
    if isinstance(e, CompositeException):
        return list(e.exceptions)
    return [e]


def test_add_first_error_is_kept_as_is():
    ref = AtomicReference()
    e = ValueError("a")
    assert EH.add_throwable(ref, e) is True
    assert ref.get() is e


def test_add_combines_into_composite_with_every_cause():
    ref = AtomicReference()
    errors = [ValueError("a"), KeyError("b"), RuntimeError("c"), ZeroDivisionError("d")]
    for e in errors:
        assert EH.add_throwable(ref, e) is True
    combined = ref.get()
    assert isinstance(combined, CompositeException)
    assert combined.exceptions == errors  # flat, in order, every cause
    assert combined.size == 4


def test_terminate_returns_content_and_locks_out():
    ref = AtomicReference()
    e = ValueError("a")
    EH.add_throwable(ref, e)
    assert EH.terminate(ref) is e
    assert ref.get() is TERMINATED
    assert EH.add_throwable(ref, KeyError("late")) is False
    assert EH.terminate(ref) is TERMINATED
    assert ref.get() is TERMINATED


def test_terminate_empty_returns_none():
    ref = AtomicReference()
    assert EH.terminate(ref) is None
    assert ref.get() is TERMINATED


def test_terminated_marker():
    assert EH.TERMINATED is TERMINATED
    assert isinstance(TERMINATED, BaseException)
    assert repr(TERMINATED) == "TERMINATED"


def test_atomic_throwable_methods(plugin_errors):
    at = AtomicThrowable()
    assert not at.is_terminated()
    assert at.try_add_throwable(ValueError("x"))
    assert at.try_add_throwable_or_report(KeyError("y"))
    assert plugin_errors == []
    e = at.terminate()
    assert [type(x) for x in _leaves(e)] == [ValueError, KeyError]
    assert at.is_terminated()
    late = RuntimeError("late")
    assert at.try_add_throwable(late) is False
    assert at.try_add_throwable_or_report(late) is False
    assert plugin_errors.causes() == [late]


def test_try_terminate_consumer_complete():
    ts = _subscribed()
    at = AtomicThrowable()
    at.try_terminate_consumer(ts)
    ts.assert_no_errors().assert_complete()
    at.try_terminate_consumer(ts)  # TERMINATED: nothing more
    ts.assert_complete().assert_protocol_ok()


def test_try_terminate_consumer_error():
    ts = _subscribed()
    at = AtomicThrowable()
    e = ValueError("boom")
    at.try_add_throwable(e)
    at.try_terminate_consumer(ts)
    ts.assert_error(e).assert_not_complete()
    at.try_terminate_consumer(ts)
    assert len(ts.errors()) == 1
    ts.assert_protocol_ok()


def test_try_terminate_and_report(plugin_errors):
    at = AtomicThrowable()
    e = ValueError("boom")
    at.try_add_throwable(e)
    at.try_terminate_and_report()
    assert plugin_errors.causes() == [e]
    at.try_terminate_and_report()  # already terminated: nothing more
    assert len(plugin_errors) == 1
    empty = AtomicThrowable()
    empty.try_terminate_and_report()
    assert len(plugin_errors) == 1


def test_race_add_vs_add_keeps_both(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ref = AtomicReference()
        a, b = ValueError("a"), KeyError("b")
        race_runner.race(lambda: EH.add_throwable(ref, a), lambda: EH.add_throwable(ref, b))
        leaves = _leaves(ref.get())
        assert len(leaves) == 2 and a in leaves and b in leaves


def test_race_add_vs_terminate_never_loses_an_error(race_runner, race_rounds):
    for i in range(race_rounds):
        ref = AtomicReference()
        first = ValueError("first")
        EH.add_throwable(ref, first)
        errors = [RuntimeError(f"e{k}") for k in range(1 + i % 3)]
        accepted: list[bool] = []
        taken: list[BaseException | None] = []

        def adder():
            for e in errors:
                accepted.append(EH.add_throwable(ref, e))

        race_runner.race(adder, lambda: taken.append(EH.terminate(ref)))
        delivered = _leaves(taken[0])
        assert delivered[0] is first
        for e, ok in zip(errors, accepted, strict=True):
            # in the terminated value if accepted; rejected (False) otherwise; never both
            assert (e in delivered) is ok, (e, ok, delivered)
        assert len(delivered) == 1 + sum(accepted)
        assert ref.get() is TERMINATED
        # once one add was rejected, every later one is too
        assert accepted == sorted(accepted, reverse=True)
