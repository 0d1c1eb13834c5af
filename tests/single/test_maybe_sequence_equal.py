"""Maybe.sequence_equal (RxJava 2's MaybeEqualSingle) and Maybe.on_exception_resume_next
(RxJava 2's MaybeOnErrorNext with allowFatal=false)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ProbeMaybe

from rxpy2 import Maybe
from rxpy2 import Single

# ---------------------------------------------------------------- sequence_equal


@pytest.mark.parametrize("a,b,expected", [
    (Maybe.just(1), Maybe.just(1), True),
    (Maybe.just(1), Maybe.just(2), False),
    (Maybe.empty(), Maybe.empty(), True),
    (Maybe.just(1), Maybe.empty(), False),
    (Maybe.empty(), Maybe.just(1), False),
])
def test_sequence_equal(a, b, expected):
    Maybe.sequence_equal(a, b).test().assert_result(expected)


def test_sequence_equal_is_single():
    assert isinstance(Maybe.sequence_equal(Maybe.just(1), Maybe.just(1)), Single)


def test_custom_is_equal():
    calls = []

    def same_mod(a, b):
        calls.append((a, b))
        return a % 10 == b % 10
    Maybe.sequence_equal(Maybe.just(13), Maybe.just(3), same_mod).test().assert_result(True)
    assert calls == [(13, 3)]
    # not called when one is empty
    Maybe.sequence_equal(Maybe.just(13), Maybe.empty(), same_mod).test().assert_result(False)
    assert len(calls) == 1


def test_is_equal_raises():
    def bad(a, b):
        raise Boom()
    Maybe.sequence_equal(Maybe.just(1), Maybe.just(1), bad).test().assert_failure(Boom)


@pytest.mark.parametrize("first_fails", [True, False])
def test_error_disposes_the_other(first_fails):
    p1, p2 = ProbeMaybe(), ProbeMaybe()
    to = Maybe.sequence_equal(p1, p2).test()
    (p1 if first_fails else p2).error(Boom())
    to.assert_failure(Boom)
    assert (p2 if first_fails else p1).disposed == 1


def test_second_error_to_plugins(plugin_errors):
    p1, p2 = ProbeMaybe(), ProbeMaybe()
    to = Maybe.sequence_equal(p1, p2).test()
    p1.error(Boom("1"))
    e2 = Boom("2")
    p2.error(e2)
    to.assert_failure(Boom)
    assert plugin_errors.causes() == [e2]


def test_waits_for_both():
    p1, p2 = ProbeMaybe(), ProbeMaybe()
    to = Maybe.sequence_equal(p1, p2).test()
    p2.success(5)
    to.assert_empty()
    p1.success(5)
    to.assert_result(True)


def test_dispose_disposes_both():
    p1, p2 = ProbeMaybe(), ProbeMaybe()
    to = Maybe.sequence_equal(p1, p2).test()
    to.dispose()
    assert p1.disposed == 1 and p2.disposed == 1


def test_arguments_checked():
    m = Maybe.just(1)
    for args in [(None, m), (m, None), (1, m), (m, Single.just(1)), (m, m, 1)]:
        with pytest.raises(TypeError):
            Maybe.sequence_equal(*args)


def test_race_both_succeed(race_runner, race_rounds):
    for _ in range(race_rounds):
        p1, p2 = ProbeMaybe(), ProbeMaybe()
        to = Maybe.sequence_equal(p1, p2).test()
        race_runner.race(lambda p=p1: p.success(1), lambda p=p2: p.success(1))
        to.assert_result(True)


def test_race_error_vs_success(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        p1, p2 = ProbeMaybe(), ProbeMaybe()
        to = Maybe.sequence_equal(p1, p2).test()
        race_runner.race(lambda p=p1: p.error(Boom()), lambda p=p2: p.success(1))
        to.assert_failure(Boom)
    assert not plugin_errors


# ---------------------------------------------------------------- on_exception_resume_next


def test_resumes_on_exception():
    Maybe.error(Boom()).on_exception_resume_next(Maybe.just(2)).test().assert_result(2)
    Maybe.error(Boom()).on_exception_resume_next(Maybe.empty()).test().assert_result()


def test_success_and_empty_pass():
    Maybe.just(1).on_exception_resume_next(Maybe.just(2)).test().assert_result(1)
    Maybe.empty().on_exception_resume_next(Maybe.just(2)).test().assert_result()


class Fatal(BaseException):
    """Not an ``Exception``: RxJava 2's ``Error``, which does not resume."""


def test_base_exception_not_resumed():
    subscribed = []
    fallback = Maybe.defer(lambda: subscribed.append(1) or Maybe.just(2))
    to = Maybe.error(Fatal()).on_exception_resume_next(fallback).test()
    to.assert_failure(Fatal)
    assert subscribed == []


def test_fallback_error_signalled():
    to = Maybe.error(Boom("a")).on_exception_resume_next(Maybe.error(ValueError("b"))).test()
    to.assert_failure(ValueError)


def test_dispose_reaches_fallback():
    p1, p2 = ProbeMaybe(), ProbeMaybe()
    to = p1.on_exception_resume_next(p2).test()
    p1.error(Boom())
    assert len(p2.observers) == 1
    to.dispose()
    assert p2.disposed == 1
    assert p1.disposed == 0


def test_dispose_before_error_does_not_subscribe_fallback():
    p1, p2 = ProbeMaybe(), ProbeMaybe()
    to = p1.on_exception_resume_next(p2).test()
    to.dispose()
    assert p1.disposed == 1
    p1.error(Boom())
    assert p2.observers == []


def test_on_exception_resume_next_argument_checked():
    for bad in (None, 1, Single.just(1), lambda e: Maybe.just(1)):
        with pytest.raises(TypeError):
            Maybe.just(1).on_exception_resume_next(bad)


def test_race_dispose_vs_error(race_runner, race_rounds):
    for _ in range(race_rounds):
        p1, p2 = ProbeMaybe(), ProbeMaybe()
        to = p1.on_exception_resume_next(p2).test()
        race_runner.race(to.dispose, lambda p=p1: p.error(Boom()))
        # the fallback is either never subscribed or disposed
        assert p2.observers == [] or p2.disposed == 1
        to.assert_empty()
