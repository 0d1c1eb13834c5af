"""Scalar fusion of flat_map / concat_map / switch_map (flowable_scalar_x_map.py).

Over ``just(x)`` the operator disappears at assembly: ``mapper(x)`` is called when
subscribed and the downstream is subscribed straight to its result. Over
``empty()`` the result is ``empty()``. Over a ``Callable`` source (``from_callable``)
the source is evaluated at subscription and the same happens. An inner Publisher
that is itself a Callable is never subscribed to.
"""

from __future__ import annotations

from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.operators.flowable.flowable_empty import FlowableEmpty
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import FlowableScalarXMap
from rxpy2.reactivestreams import Subscriber
from rxpy2.testing import TestSubscriber

FLATTENERS = {
    "flat_map": lambda f, m: f.flat_map(m),
    "concat_map": lambda f, m: f.concat_map(m),
    "concat_map_delay_error": lambda f, m: f.concat_map_delay_error(m),
    "switch_map": lambda f, m: f.switch_map(m),
    "switch_map_delay_error": lambda f, m: f.switch_map_delay_error(m),
}

flatteners = pytest.mark.parametrize("flatten", FLATTENERS.values(), ids=FLATTENERS.keys())


class CountingJust(Flowable[Any], ScalarCallable[Any]):
    """A ``just`` that counts the subscriptions it gets (the fused paths take none)."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.subscriptions = 0
        self.calls = 0

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriptions += 1
        Flowable.just(self.value).subscribe(subscriber)

    def call(self) -> Any:
        self.calls += 1
        return self.value


@flatteners
def test_over_just_is_the_mapped_publisher(flatten):
    f = flatten(Flowable.just(3), lambda x: Flowable.range(x, 3))
    assert isinstance(f, FlowableScalarXMap)
    f.test().assert_result(3, 4, 5)


@flatteners
def test_over_just_calls_the_mapper_per_subscription_not_at_assembly(flatten):
    calls = []
    f = flatten(Flowable.just(1), lambda x: calls.append(x) or Flowable.just(x))
    assert calls == []
    f.test().assert_result(1)
    f.test().assert_result(1)
    assert calls == [1, 1]


@flatteners
def test_over_empty_is_empty(flatten):
    calls = []
    f = flatten(Flowable.empty(), lambda x: calls.append(x) or Flowable.just(x))
    assert isinstance(f, FlowableEmpty)
    f.test().assert_result()
    assert calls == []


@flatteners
def test_inner_scalar_is_not_subscribed(flatten):
    inner = CountingJust(42)
    flatten(Flowable.just(1), lambda _: inner).test().assert_result(42)
    assert inner.subscriptions == 0
    assert inner.calls == 1


@flatteners
def test_inner_scalar_honours_backpressure(flatten):
    ts = flatten(Flowable.just(1), lambda x: Flowable.just(x + 1)).test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(2)


@flatteners
def test_inner_range_stays_fuseable(flatten):
    ts = TestSubscriber().with_fusion(SYNC)
    flatten(Flowable.just(2), lambda x: Flowable.range(x, 2)).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(2, 3)


@flatteners
def test_mapper_raising_is_an_error(flatten):
    flatten(Flowable.just(1), lambda x: 1 // 0).test().assert_failure(ZeroDivisionError)


@flatteners
def test_mapper_returning_none_is_type_error(flatten):
    flatten(Flowable.just(1), lambda x: None).test().assert_failure(TypeError)


@flatteners
def test_mapper_returning_no_publisher_is_type_error(flatten):
    flatten(Flowable.just(1), lambda x: [x]).test().assert_failure(TypeError)


@flatteners
def test_inner_callable_raising_is_an_error(flatten):
    flatten(Flowable.just(1), lambda x: Flowable.from_callable(lambda: 1 // 0)) \
        .test().assert_failure(ZeroDivisionError)


@flatteners
def test_inner_callable_none_is_completion(flatten):
    flatten(Flowable.just(1), lambda x: Flowable.from_callable(lambda: None)).test().assert_result()


# ---- a Callable source (from_callable): evaluated at subscription, by the operator itself

@flatteners
def test_over_callable_evaluated_at_subscription(flatten):
    evaluated = []
    source = Flowable.from_callable(lambda: evaluated.append(1) or 5)
    f = flatten(source, lambda x: Flowable.range(x, 2))
    assert not isinstance(f, FlowableScalarXMap)  # not constant: stays the operator
    assert evaluated == []
    f.test().assert_result(5, 6)
    f.test().assert_result(5, 6)
    assert evaluated == [1, 1]


@flatteners
def test_over_callable_with_scalar_inner_subscribes_nothing(flatten):
    inner = CountingJust("x")
    flatten(Flowable.from_callable(lambda: 1), lambda _: inner).test().assert_result("x")
    assert inner.subscriptions == 0


@flatteners
def test_over_callable_returning_none_completes(flatten):
    calls = []
    flatten(Flowable.from_callable(lambda: None), lambda x: calls.append(x) or Flowable.just(x)) \
        .test().assert_result()
    assert calls == []


@flatteners
def test_over_callable_raising_is_an_error(flatten):
    flatten(Flowable.from_callable(lambda: 1 // 0), Flowable.just) \
        .test().assert_failure(ZeroDivisionError)


@flatteners
def test_over_callable_mapper_raising_is_an_error(flatten):
    flatten(Flowable.from_callable(lambda: 1), lambda x: 1 // 0) \
        .test().assert_failure(ZeroDivisionError)


def test_flat_map_combiner_over_just():
    Flowable.just(10).flat_map(lambda x: Flowable.range(1, 2), combiner=lambda t, u: t + u) \
        .test().assert_result(11, 12)


def test_assembly_hook_sees_the_fused_operator():
    from rxpy2 import plugins
    seen = []
    plugins.set_on_flowable_assembly(lambda f: seen.append(type(f).__name__) or f)
    try:
        Flowable.just(1).flat_map(Flowable.just)
    finally:
        plugins.reset()
    assert "FlowableScalarXMap" in seen
