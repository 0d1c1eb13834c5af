"""element_at, first*, last*, single* (Flowable to Single/Maybe)."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded

from rxpy2 import Flowable
from rxpy2.maybe import Maybe
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.single import Single

# ----------------------------------------------------------------- element_at


def test_element_at_maybe_found_cancels_upstream():
    src = Recorded(1, 10)
    m = src.flowable.element_at(2)
    assert isinstance(m, Maybe)
    m.test().assert_result(3)
    assert src.requests == [LONG_MAX]
    assert src.cancels == [1]


def test_element_at_maybe_missing_is_empty():
    Flowable.range(1, 3).element_at(3).test().assert_result()


def test_element_at_single_default():
    s = Flowable.range(1, 3).element_at(5, 42)
    assert isinstance(s, Single)
    s.test().assert_result(42)
    Flowable.range(1, 3).element_at(1, 42).test().assert_result(2)


def test_element_at_or_error():
    Flowable.range(1, 3).element_at_or_error(0).test().assert_result(1)
    Flowable.range(1, 3).element_at_or_error(3).test().assert_failure(IndexError)


def test_element_at_error_passthrough():
    src = ManualSource()
    to = src.element_at(5).test()
    src.emit(1)
    src.error(ValueError("x"))
    to.assert_failure(ValueError)
    src2 = ManualSource()
    to2 = src2.element_at_or_error(5).test()
    src2.error(KeyError("k"))
    to2.assert_failure(KeyError)


def test_element_at_late_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    to = src.element_at(0).test()
    src.emit(1)
    src.error(ValueError("late"))
    to.assert_result(1).assert_protocol_ok()
    assert src.cancelled
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


def test_element_at_dispose_cancels_upstream():
    src = ManualSource()
    to = src.element_at(3).test()
    to.dispose()
    assert src.cancelled
    src2 = ManualSource()
    src2.element_at(3, 0).test().dispose()
    assert src2.cancelled


def test_element_at_bad_arguments():
    with pytest.raises(ValueError):
        Flowable.range(1, 3).element_at(-1)
    with pytest.raises(TypeError):
        Flowable.range(1, 3).element_at("0")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(1, 3).element_at(0, None)
    with pytest.raises(ValueError):
        Flowable.range(1, 3).element_at_or_error(-1)


# ----------------------------------------------------------------- first


def test_first_variants():
    Flowable.range(5, 3).first(0).test().assert_result(5)
    Flowable.empty().first(0).test().assert_result(0)
    Flowable.range(5, 3).first_element().test().assert_result(5)
    Flowable.empty().first_element().test().assert_result()
    Flowable.range(5, 3).first_or_error().test().assert_result(5)
    Flowable.empty().first_or_error().test().assert_failure(IndexError)


def test_first_cancels_upstream_after_first_item():
    src = Recorded(1, 10)
    src.flowable.first_or_error().test().assert_result(1)
    assert src.cancels == [1]


# ----------------------------------------------------------------- last


def test_last_variants():
    Flowable.range(1, 3).last(0).test().assert_result(3)
    Flowable.empty().last(0).test().assert_result(0)
    Flowable.range(1, 3).last_element().test().assert_result(3)
    Flowable.empty().last_element().test().assert_result()
    Flowable.range(1, 3).last_or_error().test().assert_result(3)
    Flowable.empty().last_or_error().test().assert_failure(IndexError)


def test_last_requests_unbounded_and_error():
    src = Recorded(1, 3)
    src.flowable.last_element().test().assert_result(3)
    assert src.requests == [LONG_MAX]
    Flowable.error(ValueError("x")).last(1).test().assert_failure(ValueError)
    Flowable.error(ValueError("x")).last_element().test().assert_failure(ValueError)


def test_last_dispose_cancels_upstream():
    src = ManualSource()
    to = src.last_or_error().test()
    src.emit(1)
    to.dispose()
    assert src.cancelled
    assert to.is_disposed()


def test_last_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).last(None)


# ----------------------------------------------------------------- single


def test_single_variants():
    Flowable.just(7).single(0).test().assert_result(7)
    Flowable.empty().single(0).test().assert_result(0)
    Flowable.just(7).single_element().test().assert_result(7)
    Flowable.empty().single_element().test().assert_result()
    Flowable.just(7).single_or_error().test().assert_result(7)
    Flowable.empty().single_or_error().test().assert_failure(IndexError)


@pytest.mark.parametrize("make", [
    lambda f: f.single(0), lambda f: f.single_element(), lambda f: f.single_or_error(),
])
def test_single_more_than_one_is_value_error_and_cancels(make):
    src = Recorded(1, 10)
    to = make(src.flowable).test()
    to.assert_failure(ValueError).assert_error_message("Sequence contains more than one element")
    to.assert_protocol_ok()
    assert src.cancels == [1]
    assert src.requests == [LONG_MAX]


def test_single_error_passthrough_and_late_error(plugin_errors):
    Flowable.error(ValueError("x")).single_or_error().test().assert_failure(ValueError)
    src = ManualSource()
    to = src.single_element().test()
    src.emit(1, 2)
    src.error(KeyError("late"))
    to.assert_failure(ValueError)
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


def test_single_dispose_cancels_upstream():
    src = ManualSource()
    src.single(1).test().dispose()
    assert src.cancelled


def test_single_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).single(None)


def test_disposed_before_subscribe_cancels_upstream():
    for make in (lambda f: f.element_at(1), lambda f: f.last_element(),
                 lambda f: f.single_or_error(), lambda f: f.first(0)):
        src = Recorded(1, 5)
        to = make(src.flowable).test(cancel=True)
        assert src.cancels == [1]
        to.assert_no_values().assert_no_errors().assert_not_complete()
