"""pipe(*functions) on Flowable and the 0-1 types: ``f.pipe(a, b)`` is ``b(a(f))``."""

from __future__ import annotations

import pytest

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single


def test_flowable_pipe_applies_in_order():
    calls = []

    def a(f):
        calls.append("a")
        return f.map(lambda x: x + 1)

    def b(f):
        calls.append("b")
        return f.filter(lambda x: x % 2 == 0)

    piped = Flowable.range(1, 5).pipe(a, b)
    assert calls == ["a", "b"]  # called now, at assembly
    piped.test().assert_result(2, 4, 6)


def test_pipe_results_need_not_be_flowables():
    assert Flowable.range(1, 3).pipe(lambda f: f.to_list(), lambda s: s.blocking_get(),
                                     len) == 3


def test_pipe_of_nothing_is_the_source():
    f = Flowable.just(1)
    assert f.pipe() is f
    s = Single.just(1)
    assert s.pipe() is s


def test_pipe_six_and_more_functions():
    inc = lambda f: f.map(lambda x: x + 1)  # noqa: E731
    Flowable.just(0).pipe(*[inc] * 6).test().assert_result(6)
    Flowable.just(0).pipe(*[inc] * 9).test().assert_result(9)


def test_zero_one_pipe():
    Single.just(2).pipe(lambda s: s.map(lambda x: x * 3), lambda s: s.to_flowable()) \
        .test().assert_result(6)
    Maybe.empty().pipe(lambda m: m.default_if_empty(5)).test().assert_result(5)
    assert Completable.complete().pipe(lambda c: c.to_single_default(1),
                                       lambda s: s.blocking_get()) == 1


def test_pipe_refuses_what_is_not_callable_before_calling_any():
    calls = []
    with pytest.raises(TypeError, match="function 1"):
        Flowable.just(1).pipe(lambda f: calls.append(f) or f, 42)
    assert calls == []
    with pytest.raises(TypeError):
        Single.just(1).pipe(None)
