"""A request that is not an int never becomes demand (§3.9, Python-only input).

An int, or an integer type with ``__index__``, is a request (converted with
``operator.index``); a non-positive one is the §3.9 ``ValueError``; ``bool``, float,
str and ``None`` are a ``TypeError`` naming the type. The relaxed Subscriptions
report it to ``plugins.on_error`` and emit nothing; a plain Subscriber (held by a
``StrictSubscriber``) gets ``on_error`` and its upstream is cancelled, as for §3.9.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2 import FlowableSubscriber
from rxpy2 import TestScheduler
from rxpy2.processors import PublishProcessor
from rxpy2.processors import ReplayProcessor
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.helper_publisher import HelperPublisher
from rxpy2.testing import TestPublisher
from rxpy2.testing import TestSubscriber

NOT_INTS = [2.5, 0.5, "3", None, True, False, 3.0]


class Index:
    """An integer type that is not an int (as ``numpy.int64``)."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v

    def __repr__(self) -> str:  # a stable test id (pytest-xdist workers compare them)
        return f"Index({self.v})"


def _assert_type_error(errors: list[BaseException], n: Any) -> None:
    assert len(errors) == 1, errors
    e = errors[0]
    assert isinstance(e, TypeError), e
    assert "§3.9" in str(e) and type(n).__name__ in str(e)


def _emit_ten(e: Any) -> None:
    for i in range(10):
        e.on_next(i)


SOURCES = {
    "range": lambda: Flowable.range(0, 10),
    "from_iterable": lambda: Flowable.from_iterable(list(range(10))),
    "map_fused": lambda: Flowable.range(0, 10).map(lambda x: x + 1),
    "map_unfused": lambda: Flowable.range(0, 10).hide().map(lambda x: x + 1),
    "map_then_filter_unfused": lambda: Flowable.from_iterable(range(10)).hide()
    .map(lambda x: x + 1).filter(lambda x: True),
    "create": lambda: Flowable.create(_emit_ten, BackpressureStrategy.BUFFER),
}


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("n", NOT_INTS, ids=repr)
def test_a_request_that_is_not_an_int_emits_nothing_and_is_reported(source, n, plugin_errors):
    ts: TestSubscriber[Any] = SOURCES[source]().test(0)
    ts.request(n)
    ts.assert_no_values().assert_not_complete().assert_no_errors()
    _assert_type_error(plugin_errors, n)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_an_integer_type_is_converted_and_requests_exactly_that(source):
    ts: TestSubscriber[Any] = SOURCES[source]().test(0)
    ts.request(Index(2))
    assert len(ts.values()) == 2
    ts.request(Index(3))
    assert len(ts.values()) == 5
    ts.assert_not_complete()


@pytest.mark.parametrize("n", [Index(0), Index(-4)], ids=["Index(0)", "Index(-4)"])
def test_a_non_positive_integer_type_is_the_3_9_value_error(n, plugin_errors):
    ts: TestSubscriber[int] = Flowable.range(0, 10).test(0)
    ts.request(n)
    ts.assert_no_values()
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)
    assert str(n.v) in str(plugin_errors[0])


@pytest.mark.parametrize("n", [2.5, "3", True], ids=repr)
def test_observe_on_refuses_a_request_that_is_not_an_int(n, plugin_errors):
    sched = TestScheduler()
    ts: TestSubscriber[int] = Flowable.range(0, 10).observe_on(sched).test(0)
    sched.trigger_actions()
    ts.request(n)
    sched.trigger_actions()
    ts.assert_no_values().assert_not_complete()
    _assert_type_error(plugin_errors, n)
    ts.request(1)
    sched.trigger_actions()
    ts.assert_values(0)


PROCESSORS = {
    "publish": PublishProcessor.create,
    "replay": ReplayProcessor.create,
    "unicast": UnicastProcessor.create,
}


@pytest.mark.parametrize("kind", sorted(PROCESSORS))
@pytest.mark.parametrize("n", [2.5, None, True], ids=repr)
def test_a_processor_refuses_a_request_that_is_not_an_int(kind, n, plugin_errors):
    p: Any = PROCESSORS[kind]()
    ts: TestSubscriber[int] = p.test(0)
    ts.request(n)
    p.on_next(1)
    p.on_next(2)
    ts.assert_no_values()
    _assert_type_error(plugin_errors, n)


class Plain(Subscriber[Any]):
    """A plain Subscriber: ``Flowable.subscribe`` holds it to the spec (StrictSubscriber)."""

    def __init__(self, first: Any) -> None:
        self.first = first
        self.values: list[Any] = []
        self.errors: list[BaseException] = []
        self.completed = False
        self.s: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        s.request(self.first)

    def on_next(self, item: Any) -> None:
        self.values.append(item)

    def on_error(self, e: BaseException) -> None:
        self.errors.append(e)

    def on_complete(self) -> None:
        self.completed = True


class Relaxed(Plain, FlowableSubscriber[Any]):
    pass


@pytest.mark.parametrize("n", NOT_INTS, ids=repr)
def test_a_plain_subscriber_gets_on_error_type_error_and_upstream_is_cancelled(n):
    tp: TestPublisher[int] = TestPublisher.create()
    sub = Plain(n)
    tp.subscribe(sub)
    assert tp.subscriber_count() == 0  # cancelled (§3.9)
    assert sub.values == [] and not sub.completed
    _assert_type_error(sub.errors, n)


@pytest.mark.parametrize("n", [2.5, "3", True], ids=repr)
def test_a_plain_subscriber_of_range_gets_on_error_and_nothing_more(n):
    sub = Plain(n)
    Flowable.range(0, 10).subscribe(sub)
    assert sub.s is not None
    sub.s.request(5)  # after the terminal signal: a no-op (§3.6)
    assert sub.values == [] and not sub.completed
    _assert_type_error(sub.errors, n)


def test_a_plain_subscriber_requesting_an_integer_type_gets_that_many():
    sub = Plain(Index(3))
    Flowable.range(0, 10).subscribe(sub)
    assert sub.values == [0, 1, 2] and sub.errors == []


@pytest.mark.parametrize("n", [2.5, "3", True, None], ids=repr)
def test_test_publisher_signals_type_error_for_a_request_that_is_not_an_int(n):
    tp: TestPublisher[int] = TestPublisher.create()
    sub = Relaxed(n)  # no StrictSubscriber: TestPublisher's own check
    tp.subscribe(sub)
    assert tp.subscriber_count() == 0
    _assert_type_error(sub.errors, n)


def test_test_subscriber_does_not_count_a_request_that_is_not_an_int(plugin_errors):
    ts: TestSubscriber[int] = Flowable.range(0, 10).test(0)
    ts.request(2.5)
    ts.request(True)
    ts.request(Index(2))
    assert ts.requested_total() == 2
    assert len(plugin_errors) == 2


class Waiting(Plain):
    def __init__(self, first: Any) -> None:
        super().__init__(first)
        self.done = threading.Event()

    def on_error(self, e: BaseException) -> None:
        super().on_error(e)
        self.done.set()

    def on_complete(self) -> None:
        super().on_complete()
        self.done.set()


@pytest.mark.parametrize("n", [2.5, "3", True, None], ids=repr)
def test_the_tck_helper_publisher_signals_type_error_for_a_request_that_is_not_an_int(n):
    with ThreadPoolExecutor(1) as executor:
        sub = Waiting(n)
        HelperPublisher(lambda i: i, 10, executor).subscribe(sub)
        assert sub.done.wait(10)
    assert sub.values == [] and not sub.completed
    _assert_type_error(sub.errors, n)


def test_the_tck_helper_publisher_converts_an_integer_type():
    with ThreadPoolExecutor(1) as executor:
        sub = Waiting(Index(20))
        HelperPublisher(lambda i: i, 10, executor).subscribe(sub)
        assert sub.done.wait(10)
    assert sub.values == list(range(10)) and sub.completed and sub.errors == []
