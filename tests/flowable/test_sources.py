"""Sources: from_iterable, from_array (None items), empty, never, error, from_callable, defer."""

from __future__ import annotations

import pytest
from _fusion_probes import OddRejecter
from probes import RequestOneInOnNext

from rxpy2 import Flowable
from rxpy2 import FlowableSubscriber
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.operators.flowable.flowable_empty import FlowableEmpty
from rxpy2._internal.operators.flowable.flowable_never import FlowableNever
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


class Counting:
    """An iterable that counts ``iter()`` and ``next()`` calls, optionally failing."""

    def __init__(self, items, fail_at=None, fail_iter=False):
        self.items = list(items)
        self.fail_at = fail_at
        self.fail_iter = fail_iter
        self.iters = 0
        self.nexts = 0

    def __iter__(self):
        self.iters += 1
        if self.fail_iter:
            raise RuntimeError("iter failed")
        return self._gen()

    def _gen(self):
        for i, x in enumerate(self.items):
            self.nexts += 1
            if i == self.fail_at:
                raise ValueError(f"next failed at {i}")
            yield x
        self.nexts += 1  # the call that found the end


class CancelAfter(TestSubscriber):
    """A TestSubscriber that cancels from inside on_next once it has ``n`` items."""

    def __init__(self, n, initial_request=2**63 - 1):
        super().__init__(initial_request)
        self.n = n

    def on_next(self, item):
        super().on_next(item)
        if self.value_count() == self.n:
            self.cancel()


# ---------------------------------------------------------------- from_iterable

def test_from_iterable_values_and_completion():
    Flowable.from_iterable([1, 2, 3]).test().assert_result(1, 2, 3)
    Flowable.from_iterable(x * x for x in range(4)).test().assert_result(0, 1, 4, 9)


def test_from_iterable_calls_iter_per_subscriber():
    src = Counting([1, 2])
    f = Flowable.from_iterable(src)
    assert src.iters == 0
    f.test().assert_result(1, 2)
    f.test().assert_result(1, 2)
    assert src.iters == 2


def test_from_iterable_empty_completes_without_items_or_request():
    src = Counting([])
    ts = Flowable.from_iterable(src).test(0)
    ts.assert_result()
    assert src.nexts == 1


def test_from_iterable_backpressure_exact():
    ts = Flowable.from_iterable(range(5)).test(0)
    ts.assert_empty()
    ts.request(2)
    ts.assert_values(0, 1).assert_not_complete()
    ts.request(1)
    ts.assert_values(0, 1, 2).assert_not_complete()
    ts.request(10)
    ts.assert_result(0, 1, 2, 3, 4)


def test_from_iterable_completion_arrives_with_last_item():
    Flowable.from_iterable([1, 2, 3]).test(3).assert_result(1, 2, 3)


def test_from_iterable_reads_only_one_item_ahead():
    src = Counting(range(10))
    ts = Flowable.from_iterable(src).test(0)
    assert src.nexts == 1  # the first item, read at subscription to detect "empty"
    ts.request(2)
    ts.assert_values(0, 1)
    assert src.nexts == 3  # 2 emitted + 1 read ahead
    ts.request(3)
    assert src.nexts == 6


def test_from_iterable_next_raises_mid_stream():
    Flowable.from_iterable(Counting(range(5), fail_at=3)).test() \
        .assert_failure(ValueError, 0, 1, 2)


def test_from_iterable_next_raises_mid_stream_slow_path():
    ts = Flowable.from_iterable(Counting(range(5), fail_at=3)).test(1)
    ts.assert_values(0).assert_not_terminated()
    ts.request(1)
    # the read-ahead after item 1 hits the failure: it is signalled at once
    ts.assert_values(0, 1).assert_not_terminated()
    ts.request(1)
    ts.assert_failure(ValueError, 0, 1, 2)


def test_from_iterable_next_raises_on_first_item():
    Flowable.from_iterable(Counting(range(5), fail_at=0)).test(0).assert_failure(ValueError)


def test_from_iterable_iter_raises():
    src = Counting([1], fail_iter=True)
    ts = Flowable.from_iterable(src).test(0)
    ts.assert_subscribed().assert_failure(RuntimeError)


def test_from_iterable_not_iterable_is_type_error():
    Flowable.from_iterable(5).test().assert_failure(TypeError)  # type: ignore[arg-type]


def test_from_iterable_none_argument_at_assembly():
    with pytest.raises(TypeError):
        Flowable.from_iterable(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("initial", [2**63 - 1, 1])
def test_from_iterable_none_item_is_type_error(initial):
    ts = Flowable.from_iterable([1, None, 3]).test(initial)
    if initial == 1:
        ts.assert_values(1).assert_not_terminated()
        ts.request(5)
    ts.assert_failure(TypeError, 1)


def test_from_iterable_none_first_item():
    Flowable.from_iterable([None]).test().assert_failure(TypeError)


@pytest.mark.parametrize("initial", [2**63 - 1, 5])
def test_from_iterable_cancel_in_on_next_stops_reading(initial):
    src = Counting(range(100))
    ts = CancelAfter(2, initial)
    Flowable.from_iterable(src).subscribe(ts)
    ts.assert_values(0, 1).assert_not_terminated()
    assert src.nexts == 2  # nothing read after the cancel
    ts.request(5)
    ts.assert_values(0, 1)


def test_from_iterable_cancel_through_operator():
    cancelled = []
    ts = Flowable.from_iterable(range(10)).do_on_cancel(lambda: cancelled.append(1)).test(2)
    ts.cancel()
    assert cancelled == [1]


def test_from_iterable_unbounded_request_is_one_request():
    requests = []
    Flowable.from_iterable(range(5)).do_on_request(requests.append).test() \
        .assert_result(0, 1, 2, 3, 4)
    assert requests == [2**63 - 1]


def test_from_iterable_non_positive_request_reported(plugin_errors):
    ts = Flowable.from_iterable(range(3)).test(0)
    ts.request(0)
    ts.assert_empty()
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)
    assert "3.9" in str(plugin_errors[0])


def test_from_iterable_request_in_on_next_does_not_recurse():
    s = RequestOneInOnNext()
    Flowable.from_iterable(range(100_000)).subscribe(s)
    assert s.errors == []
    assert s.values == list(range(100_000))
    assert s.completed == 1


def test_from_iterable_request_in_on_next_does_not_recurse_test0():
    class Requester(FlowableSubscriber):
        def on_subscribe(self, s):
            self.s = s

        def on_next(self, item):
            self.s.request(1)  # from inside on_next, while the source is emitting

        def on_error(self, error):
            pass

        def on_complete(self):
            pass

    ts = TestSubscriber(0, downstream=Requester())
    Flowable.from_iterable(range(100_000)).subscribe(ts)
    ts.assert_empty()
    ts.request(1)
    ts.assert_value_count(100_000).assert_complete()
    assert ts.values()[-1] == 99_999


def test_from_iterable_sync_fusion():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.from_iterable(range(5)).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(0, 1, 2, 3, 4)


def test_from_iterable_sync_fusion_any():
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.from_iterable(iter([1, 2])).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 2)


def test_from_iterable_async_fusion_refused():
    ts = TestSubscriber().with_fusion(ASYNC)
    Flowable.from_iterable([1, 2]).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(1, 2)


def test_from_iterable_sync_fusion_error_and_none():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.from_iterable(Counting(range(5), fail_at=2)).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_failure(ValueError, 0, 1)
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.from_iterable([1, None]).subscribe(ts)
    ts.assert_failure(TypeError, 1)


def test_from_iterable_sync_fused_through_map():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.from_iterable(range(3)).map(lambda x: x + 10).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(10, 11, 12)


def test_from_iterable_fused_queue_api():
    from rxpy2._internal.operators.flowable.flowable_from_iterable import FlowableFromIterable
    got = []

    class Fuser(FlowableSubscriber):
        def on_subscribe(self, s):
            assert s.request_fusion(SYNC) == SYNC
            assert not s.is_empty()
            got.append(s.poll())
            assert not s.is_empty()
            got.append(s.poll())
            assert s.is_empty()
            assert s.poll() is None
            assert s.poll() is None

        def on_next(self, item):
            raise AssertionError("no on_next in SYNC mode")

        def on_error(self, error):
            raise AssertionError(error)

        def on_complete(self):
            raise AssertionError("no on_complete in SYNC mode")

    FlowableFromIterable([1, 2]).subscribe(Fuser())
    assert got == [1, 2]


@pytest.mark.parametrize("initial", [2**63 - 1, 2])
def test_from_iterable_conditional_path_via_filter(initial):
    ts = Flowable.from_iterable(range(10)).filter(lambda x: x % 2 == 0).test(initial)
    if initial == 2:
        ts.assert_values(0, 2).assert_not_complete()
        ts.request(3)
        # 9 is read ahead but is not past the demand yet: completion needs one more request
        ts.assert_values(0, 2, 4, 6, 8).assert_not_complete()
        ts.request(1)
    ts.assert_result(0, 2, 4, 6, 8)


def test_from_iterable_conditional_rejected_items_use_no_demand():
    from rxpy2._internal.fuseable import ConditionalSubscriber

    class OddRejecter(ConditionalSubscriber):
        def __init__(self):
            self.offered = []
            self.accepted = []
            self.completed = False

        def on_subscribe(self, s):
            self.s = s

        def try_on_next(self, item):
            self.offered.append(item)
            if item % 2:
                return False
            self.accepted.append(item)
            return True

        def on_next(self, item):
            raise AssertionError("a conditional source uses try_on_next")

        def on_error(self, error):
            raise AssertionError(error)

        def on_complete(self):
            self.completed = True

    c = OddRejecter()
    Flowable.from_iterable(range(10)).subscribe(c)
    c.s.request(2)
    assert c.accepted == [0, 2] and c.offered == [0, 1, 2]
    c.s.request(1)
    assert c.accepted == [0, 2, 4] and c.offered == [0, 1, 2, 3, 4]
    assert not c.completed
    c.s.request(2**63 - 1)
    assert c.offered == list(range(10)) and c.completed


def test_from_iterable_conditional_error_and_none():
    Flowable.from_iterable(Counting(range(6), fail_at=4)).filter(lambda x: x % 2 == 0) \
        .test(1).request_more(5).assert_failure(ValueError, 0, 2)
    Flowable.from_iterable([2, None]).filter(lambda x: True).test() \
        .assert_failure(TypeError, 2)
    Flowable.from_iterable([2, None]).filter(lambda x: True).test(1).request_more(1) \
        .assert_failure(TypeError, 2)


def test_from_iterable_conditional_request_in_on_next_does_not_recurse():
    s = RequestOneInOnNext()
    Flowable.from_iterable(range(50_000)).filter(lambda x: x % 3 != 0).subscribe(s)
    assert s.errors == [] and s.completed == 1
    assert len(s.values) == len([x for x in range(50_000) if x % 3 != 0])


def test_from_iterable_downstream_error_in_on_next_propagates(plugin_errors):
    class Bad(FlowableSubscriber):
        errors = []

        def on_subscribe(self, s):
            s.request(2**63 - 1)

        def on_next(self, item):
            if item == 2:
                raise KeyError("downstream bug")

        def on_error(self, error):
            self.errors.append(error)

        def on_complete(self):
            pass

    b = Bad()
    Flowable.from_iterable([1, 2, 3]).subscribe(b)
    # the downstream's own failure is not turned into an on_error of the source
    assert b.errors == []
    assert len(plugin_errors) == 1 and isinstance(plugin_errors.causes()[0], KeyError)


# ---------------------------------------------------------------- empty / never / error

def test_empty():
    Flowable.empty().test().assert_result()
    Flowable.empty().test(0).assert_result()


def test_empty_is_scalar_callable_singleton():
    e = Flowable.empty()
    assert e is FlowableEmpty.INSTANCE
    assert isinstance(e, ScalarCallable)
    assert e.call() is None


def test_never():
    ts = Flowable.never().test()
    ts.assert_subscribed().assert_empty().assert_not_terminated()
    ts.cancel()
    assert Flowable.never() is FlowableNever.INSTANCE


def test_error_instance():
    err = ValueError("boom")
    ts = Flowable.error(err).test(0)
    ts.assert_subscribed().assert_failure(ValueError)
    assert ts.errors()[0] is err


def test_error_supplier_per_subscriber():
    calls = []

    def supplier():
        calls.append(1)
        return KeyError(len(calls))

    f = Flowable.error(supplier)
    assert calls == []
    assert f.test().errors()[0].args == (1,)
    assert f.test().errors()[0].args == (2,)


def test_error_supplier_raises():
    def supplier():
        raise OSError("supplier failed")

    Flowable.error(supplier).test().assert_failure(OSError)


def test_error_supplier_returns_none_or_non_exception():
    Flowable.error(lambda: None).test().assert_failure(TypeError)
    Flowable.error(lambda: 42).test().assert_failure(TypeError)


def test_error_none_at_assembly():
    with pytest.raises(TypeError):
        Flowable.error(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- from_callable

def test_from_callable_value_under_demand():
    calls = []

    def fn():
        calls.append(1)
        return 42

    f = Flowable.from_callable(fn)
    assert calls == []
    ts = f.test(0)
    assert calls == [1]
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(42)
    f.test().assert_result(42)
    assert calls == [1, 1]


def test_from_callable_none_is_empty():
    Flowable.from_callable(lambda: None).test(0).assert_result()


def test_from_callable_raises():
    Flowable.from_callable(lambda: 1 // 0).test(0).assert_failure(ZeroDivisionError)


def test_from_callable_is_callable_marker():
    f = Flowable.from_callable(lambda: 7)
    assert isinstance(f, Callable) and not isinstance(f, ScalarCallable)
    assert f.call() == 7


def test_from_callable_cancelled_before_subscribe_skips_call():
    calls = []
    ts = Flowable.from_callable(lambda: calls.append(1) or 1).test(cancel=True)
    ts.assert_no_values().assert_no_errors().assert_not_terminated()
    assert calls == []


def test_from_callable_cancel_during_call_drops_value():
    ts = TestSubscriber()

    def fn():
        ts.cancel()
        return 1

    Flowable.from_callable(fn).subscribe(ts)
    ts.assert_empty()


def test_from_callable_raise_after_cancel_goes_to_plugins(plugin_errors):
    ts = TestSubscriber()

    def fn():
        ts.cancel()
        raise OSError("late")

    Flowable.from_callable(fn).subscribe(ts)
    ts.assert_empty()
    assert [type(e) for e in plugin_errors.causes()] == [OSError]


def test_from_callable_async_fusion():
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.from_callable(lambda: 5).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result(5)


def test_from_callable_none_at_assembly():
    with pytest.raises(TypeError):
        Flowable.from_callable(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- defer

def test_defer_calls_supplier_per_subscriber():
    calls = []

    def supplier():
        calls.append(1)
        return Flowable.range(len(calls), 2)

    f = Flowable.defer(supplier)
    assert calls == []
    f.test().assert_result(1, 2)
    f.test().assert_result(2, 3)


def test_defer_passes_backpressure_and_cancel():
    requests = []
    cancels = []
    ts = Flowable.defer(lambda: Flowable.range(1, 5).do_on_request(requests.append)
                        .do_on_cancel(lambda: cancels.append(1))).test(2)
    ts.assert_values(1, 2)
    ts.request(1)
    ts.cancel()
    assert requests == [2, 1]
    assert cancels == [1]


def test_defer_supplier_raises():
    def supplier():
        raise LookupError("nope")

    Flowable.defer(supplier).test().assert_subscribed().assert_failure(LookupError)


def test_defer_supplier_returns_none_or_non_publisher():
    Flowable.defer(lambda: None).test().assert_failure(TypeError)
    Flowable.defer(lambda: [1, 2]).test().assert_failure(TypeError)


def test_defer_none_at_assembly():
    with pytest.raises(TypeError):
        Flowable.defer(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- from_array: None items

@pytest.mark.parametrize("conditional", [False, True])
@pytest.mark.parametrize("first_request", [1, LONG_MAX])
def test_from_array_none_item_is_type_error_with_its_index(conditional, first_request):
    # first_request=1: the slow path emits 1, then request(LONG_MAX) runs the fast
    # path from index 1, which meets the None at index 2
    f = Flowable.from_array([1, 2, None, 4])
    if conditional:
        f = f.filter(lambda x: True)
    ts = f.test(first_request)
    if first_request == 1:
        ts.assert_values(1)
        ts.request(LONG_MAX)
    ts.assert_failure(TypeError, 1, 2).assert_error_message("The element at index 2 is None")


@pytest.mark.parametrize("conditional", [False, True])
def test_from_array_none_item_under_bounded_demand(conditional):
    f = Flowable.from_array([1, None])
    if conditional:
        f = f.filter(lambda x: True)
    ts = f.test(1).assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_failure(TypeError, 1).assert_error_message("The element at index 1 is None")


# ---------------------------------------------------------------- fusion and try_on_next (issue 6)

@pytest.mark.parametrize("make", [
    lambda: Flowable.range(0, 10),
    lambda: Flowable.from_array(list(range(10))),
    lambda: Flowable.from_array(tuple(range(10))),
], ids=["range", "from_array_list", "from_array_tuple"])
def test_sync_sources_use_try_on_next_rejected_items_use_no_demand(make):
    c = OddRejecter()
    make().subscribe(c)
    c.s.request(2)
    assert c.accepted == [0, 2] and c.offered == [0, 1, 2]
    c.s.request(1)
    assert c.accepted == [0, 2, 4] and c.offered == [0, 1, 2, 3, 4]
    assert not c.completed
    c.s.request(LONG_MAX)  # the fast path
    assert c.offered == list(range(10)) and c.accepted == [0, 2, 4, 6, 8] and c.completed


@pytest.mark.parametrize("make, expected", [
    (lambda: Flowable.range(1, 3), [1, 2, 3]),
    (lambda: Flowable.from_array([1, 2, 3]), [1, 2, 3]),
    (lambda: Flowable.from_iterable([1, 2, 3]), [1, 2, 3]),
    (lambda: Flowable.just(1), [1]),
    (lambda: Flowable.just(1, 2, 3), [1, 2, 3]),
], ids=["range", "from_array", "from_iterable", "just", "just_many"])
def test_sync_sources_grant_sync_even_across_a_boundary(make, expected):
    """No user code runs in their poll: a BOUNDARY does not matter to them."""
    for mode in (SYNC, ANY, ANY | BOUNDARY, SYNC | BOUNDARY):
        ts = TestSubscriber().with_fusion(mode)
        make().subscribe(ts)
        ts.assert_fusion_mode(SYNC).assert_result(*expected)
    ts = TestSubscriber().with_fusion(ASYNC)
    make().subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(*expected)


def test_just_fused_queue_api():
    got = []

    class Fuser(FlowableSubscriber):
        def on_subscribe(self, s):
            assert s.request_fusion(ANY) == SYNC
            assert not s.is_empty()
            got.append(s.poll())
            assert s.is_empty() and s.poll() is None and s.poll() is None

        def on_next(self, item):
            raise AssertionError("no on_next in SYNC mode")

        def on_error(self, error):
            raise AssertionError(error)

        def on_complete(self):
            raise AssertionError("no on_complete in SYNC mode")

    Flowable.just(4).subscribe(Fuser())
    assert got == [4]


def test_empty_fuses_async_as_an_empty_queue():
    for mode in (ANY, ASYNC, ANY | BOUNDARY):
        ts = TestSubscriber().with_fusion(mode)
        Flowable.empty().subscribe(ts)
        ts.assert_fusion_mode(ASYNC).assert_result()
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.empty().subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result()


def test_from_callable_fuses_async_across_a_boundary():
    """The function runs at subscription, not in poll: BOUNDARY does not matter."""
    ts = TestSubscriber().with_fusion(ANY | BOUNDARY)
    Flowable.from_callable(lambda: 5).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result(5)
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.from_callable(lambda: None).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result()
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.from_callable(lambda: 1 // 0).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_failure(ZeroDivisionError)
    ts = TestSubscriber().with_fusion(SYNC)  # only ASYNC is offered
    Flowable.from_callable(lambda: 5).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(5)
