"""on_error_return(_item) (the fallback item waits for demand) and on_error_resume_next
(the fallback gets the remaining demand through the arbiter)."""

from __future__ import annotations

from functools import partial

import pytest
from probes import ManualSource
from probes import Spy
from probes import failing

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX


def boom(*_args):
    raise ZeroDivisionError("boom")


# ----------------------------------------------------------------- on_error_return

def test_on_error_return_values():
    failing(1, 2).on_error_return(lambda e: 99).test().assert_result(1, 2, 99)


def test_on_error_return_gets_the_error():
    err = ValueError("x")
    seen = []
    failing(error=err).on_error_return(lambda e: seen.append(e) or 0).test().assert_result(0)
    assert seen == [err]


def test_on_error_return_item():
    failing(1).on_error_return_item(7).test().assert_result(1, 7)


def test_on_error_return_no_error_passthrough():
    Flowable.range(1, 3).on_error_return(boom).test().assert_result(1, 2, 3)


def test_on_error_return_fallback_waits_for_demand():
    src = ManualSource()
    ts = src.on_error_return(lambda e: 99).test(2)
    src.emit(1, 2)
    src.error(ValueError())
    ts.assert_values(1, 2).assert_not_terminated()
    ts.request(1)
    ts.assert_result(1, 2, 99)
    assert src.requests == [2]


def test_on_error_return_fallback_with_leftover_demand_emits_at_once():
    src = ManualSource()
    ts = src.on_error_return(lambda e: 99).test(5)
    src.emit(1)
    src.error(ValueError())
    ts.assert_result(1, 99)


def test_on_error_return_requests_pass_through():
    spy = Spy(Flowable.range(1, 5))
    ts = spy.on_error_return(lambda e: 0).test(0)
    ts.request(2)
    ts.request(1)
    ts.assert_values(1, 2, 3)
    assert spy.requests == [2, 1]


def test_on_error_return_fn_raises_is_composite():
    err = ValueError("orig")
    ts = failing(1, error=err).on_error_return(boom).test()
    ts.assert_failure(CompositeException, 1)
    ex = ts.errors()[0]
    assert ex.exceptions[0] is err
    assert isinstance(ex.exceptions[1], ZeroDivisionError)


def test_on_error_return_fn_none_is_composite_with_type_error():
    err = ValueError("orig")
    ts = failing(error=err).on_error_return(lambda e: None).test()
    ts.assert_failure(CompositeException)
    ex = ts.errors()[0]
    assert ex.exceptions[0] is err
    assert isinstance(ex.exceptions[1], TypeError)


def test_on_error_return_cancel_reaches_source():
    src = ManualSource()
    src.on_error_return(lambda e: 0).test().cancel()
    assert src.cancelled


def test_on_error_return_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).on_error_return(None)
    with pytest.raises(TypeError):
        Flowable.just(1).on_error_return_item(None)


def test_on_error_return_race_request_vs_error(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.on_error_return(lambda e: 99).test(1)
        src.emit(1)
        race_runner.race(partial(src.error, ValueError()), partial(ts.request, 1))
        ts.assert_result(1, 99).assert_protocol_ok()


# ----------------------------------------------------------------- on_error_resume_next

def test_resume_next_publisher():
    failing(1, 2).on_error_resume_next(Flowable.range(10, 3)).test() \
        .assert_result(1, 2, 10, 11, 12)


def test_resume_next_function_gets_the_error():
    err = ValueError("x")
    seen = []

    def fallback(e):
        seen.append(e)
        return Flowable.just(5)

    failing(1, error=err).on_error_resume_next(fallback).test().assert_result(1, 5)
    assert seen == [err]


def test_resume_next_no_error_passthrough():
    Flowable.range(1, 3).on_error_resume_next(boom).test().assert_result(1, 2, 3)


def test_resume_next_carries_remaining_demand():
    fallback = Spy(Flowable.range(10, 10))
    ts = failing(1, 2).on_error_resume_next(fallback).test(5)
    ts.assert_values(1, 2, 10, 11, 12).assert_not_terminated()
    assert fallback.requests == [3]
    ts.request(2)
    assert fallback.requests == [3, 2]
    ts.assert_values(1, 2, 10, 11, 12, 13, 14)


def test_resume_next_carries_remaining_demand_after_small_requests():
    main = Spy(failing(1, 2))
    fallback = Spy(Flowable.range(10, 10))
    ts = main.on_error_resume_next(fallback).test(0)
    ts.request(1)
    ts.assert_values(1)
    ts.request(3)  # 2, then the error: 2 of these 3 are left for the fallback
    ts.assert_values(1, 2, 10, 11).assert_not_terminated()
    assert main.requests == [1, 3]
    assert fallback.requests == [2]


def test_resume_next_no_demand_left_waits():
    fallback = Spy(Flowable.range(10, 2))
    ts = failing(1, 2).on_error_resume_next(fallback).test(2)
    ts.assert_values(1, 2).assert_not_terminated()
    assert fallback.subscriptions == 1 and fallback.requests == []
    ts.request(5)
    assert fallback.requests == [5]
    ts.assert_result(1, 2, 10, 11)


def test_resume_next_unbounded():
    fallback = Spy(Flowable.range(10, 2))
    failing(1).on_error_resume_next(fallback).test().assert_result(1, 10, 11)
    assert fallback.requests == [LONG_MAX]


def test_resume_next_only_once_fallback_error_goes_downstream():
    calls = []
    second = ValueError("second")

    def fallback(e):
        calls.append(e)
        return failing(3, error=second)

    failing(1).on_error_resume_next(fallback).test().assert_failure(second, 1, 3)
    assert len(calls) == 1


def test_resume_next_fn_raises_is_composite():
    err = ValueError("orig")
    ts = failing(1, error=err).on_error_resume_next(boom).test()
    ts.assert_failure(CompositeException, 1)
    ex = ts.errors()[0]
    assert ex.exceptions[0] is err
    assert isinstance(ex.exceptions[1], ZeroDivisionError)


@pytest.mark.parametrize("bad", [None, 5])
def test_resume_next_fn_not_a_publisher_is_composite_with_type_error(bad):
    err = ValueError("orig")
    ts = failing(error=err).on_error_resume_next(lambda e: bad).test()
    ts.assert_failure(CompositeException)
    assert ts.errors()[0].exceptions[0] is err
    assert isinstance(ts.errors()[0].exceptions[1], TypeError)


def test_resume_next_cancel_reaches_main_source():
    src = ManualSource()
    fallback = ManualSource()
    ts = src.on_error_resume_next(fallback).test()
    ts.cancel()
    assert src.cancelled
    assert fallback.subscriber is None


def test_resume_next_cancel_reaches_fallback_after_switch():
    src = ManualSource()
    fallback = ManualSource()
    ts = src.on_error_resume_next(fallback).test(3)
    src.emit(1)
    src.error(ValueError())
    assert fallback.requests == [2]
    fallback.emit(5)
    ts.cancel()
    assert fallback.cancelled
    ts.assert_values(1, 5).assert_not_terminated()


def test_resume_next_main_requests_pass_through():
    main = Spy(Flowable.range(1, 5))
    ts = main.on_error_resume_next(Flowable.just(0)).test(0)
    ts.request(2)
    ts.request(3)
    ts.assert_result(1, 2, 3, 4, 5)
    assert main.requests == [2, 3]


def test_resume_next_with_concat_with_source():
    """just(1, 2) followed by an error, built with concat_with and Flowable.error."""
    fallback = Spy(Flowable.range(10, 10))
    src = Flowable.just(1, 2).concat_with(Flowable.error(ValueError("boom")))
    ts = src.on_error_resume_next(fallback).test(5)
    ts.assert_values(1, 2, 10, 11, 12).assert_not_terminated()
    assert fallback.requests == [3]


def test_resume_next_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).on_error_resume_next(None)
    with pytest.raises(TypeError):
        Flowable.just(1).on_error_resume_next(5)


def test_resume_next_race_request_vs_switch(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        fallback = Spy(Flowable.range(10, 10))
        ts = src.on_error_resume_next(fallback).test(1)
        src.emit(1)
        race_runner.race(partial(src.error, ValueError()), partial(ts.request, 3))
        ts.assert_values(1, 10, 11, 12).assert_no_errors().assert_not_complete()
        assert sum(fallback.requests) == 3
