"""What sequential_delay_error delivers, as RxJava 2.2.21's ParallelJoin: the rails'
errors are gathered with AtomicThrowable.addThrowable and delivered with terminate(),
so exactly one failed rail delivers its error itself (no CompositeException around
it), two or more a CompositeException of them, in the order they failed; retry's
predicate sees that same error."""

from __future__ import annotations

from typing import Any

from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2.exceptions import CompositeException


def _rails(*failing: bool) -> ParallelFlowable[int]:
    return ParallelFlowable.from_publishers(*[
        Flowable.just(i).concat_with(Flowable.error(ValueError(f"rail {i}"))) if bad
        else Flowable.just(i) for i, bad in enumerate(failing)])


def test_one_failed_rail_delivers_its_error_itself():
    ts = _rails(True, False, False).sequential_delay_error().test()
    assert sorted(ts.values()) == [0, 1, 2]
    [e] = ts.errors()
    assert type(e) is ValueError and str(e) == "rail 0"


def test_two_failed_rails_deliver_a_composite_exception_of_both():
    ts = _rails(True, False, True).sequential_delay_error().test()
    assert sorted(ts.values()) == [0, 1, 2]
    [e] = ts.errors()
    assert isinstance(e, CompositeException)
    assert [str(x) for x in e.exceptions] == ["rail 0", "rail 2"]


def _retried(*failing: bool) -> tuple[list[BaseException], Any]:
    seen: list[BaseException] = []

    def predicate(e: BaseException) -> bool:
        seen.append(e)
        return len(seen) < 2

    ts = _rails(*failing).sequential_delay_error().retry(predicate=predicate).test()
    return seen, ts


def test_retry_predicate_sees_the_composite_exception_of_two_failed_rails():
    seen, ts = _retried(True, True)
    assert len(seen) == 2 and all(isinstance(e, CompositeException) for e in seen)
    assert [str(x) for x in seen[0].exceptions] == ["rail 0", "rail 1"]  # type: ignore[attr-defined]
    assert sorted(ts.values()) == [0, 0, 1, 1]  # subscribed again once
    assert ts.errors() == [seen[1]]


def test_retry_predicate_sees_the_lone_error_of_one_failed_rail():
    seen, ts = _retried(False, True)
    assert [type(e) for e in seen] == [ValueError, ValueError]
    assert sorted(ts.values()) == [0, 0, 1, 1]
    assert ts.errors() == [seen[1]]
