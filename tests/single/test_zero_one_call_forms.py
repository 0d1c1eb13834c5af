"""The Single, Maybe and ParallelFlowable overloads of RxJava 2.2.21 that issue 30 ported:
Single.subscribe(on_callback=), Single/Maybe.zip_iterable, Maybe.flat_map's combiner and
notification forms, ParallelFlowable.reduce_with for reduce(initialSupplier, reducer)."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2.exceptions import CompositeException
from rxpy2.processors import PublishProcessor

# ------------------------------------------------------------------------- Single.subscribe(on_callback=)


def test_single_subscribe_on_callback():
    got = []
    Single.just(1).subscribe(on_callback=lambda v, e: got.append((v, e)))
    err = ValueError("boom")
    Single.error(err).subscribe(on_callback=lambda v, e: got.append((v, e)))
    assert got == [(1, None), (None, err)]


def test_single_subscribe_on_callback_dispose():
    got = []
    pp = PublishProcessor.create()
    d = pp.single_or_error().subscribe(on_callback=lambda v, e: got.append((v, e)))
    assert pp.has_subscribers()
    d.dispose()
    assert not pp.has_subscribers()
    assert got == []


def test_single_subscribe_on_callback_raising_goes_to_plugins():
    reported = []
    plugins.set_error_handler(reported.append)
    try:
        def bad(v, e):
            raise KeyError("callback")

        Single.just(1).subscribe(on_callback=bad)
    finally:
        plugins.set_error_handler(None)
    assert len(reported) == 1
    assert isinstance(reported[0].__cause__ or reported[0], KeyError)


def test_single_subscribe_on_callback_checked():
    with pytest.raises(TypeError):
        Single.just(1).subscribe(on_callback=3)
    with pytest.raises(TypeError, match="no other callbacks"):
        Single.just(1).subscribe(print, on_callback=lambda v, e: None)


# ------------------------------------------------------------------------- zip_iterable


def test_single_zip_iterable():
    Single.zip_iterable([Single.just(1), Single.just(2), Single.just(3)],
                        lambda *xs: sum(xs)).test().assert_result(6)
    Single.zip_iterable([Single.just(1)], lambda x: x + 1).test().assert_result(2)


def test_single_zip_iterable_is_iterated_per_subscription():
    calls = []

    def sources():
        calls.append(1)
        yield Single.just(1)
        yield Single.just(2)

    class Again:
        def __iter__(self):
            return sources()

    z = Single.zip_iterable(Again(), lambda a, b: a + b)
    assert calls == []
    z.test().assert_result(3)
    z.test().assert_result(3)
    assert calls == [1, 1]


def test_single_zip_iterable_errors():
    Single.zip_iterable([], lambda *xs: 0).test().assert_failure(IndexError)
    Single.zip_iterable([Single.just(1), "x"], lambda *xs: 0).test().assert_failure(TypeError)
    (Single.zip_iterable([Single.just(1), Single.error(ValueError("b"))], lambda *xs: 0)
        .test().assert_failure(ValueError))
    with pytest.raises(TypeError):
        Single.zip_iterable(None, lambda *xs: 0)
    with pytest.raises(TypeError):
        Single.zip_iterable([Single.just(1)], None)


def test_maybe_zip_iterable():
    Maybe.zip_iterable([Maybe.just(1), Maybe.just(2)], lambda a, b: a * b).test().assert_result(2)
    Maybe.zip_iterable([Maybe.just(1), Maybe.empty()], lambda a, b: a).test().assert_result()
    Maybe.zip_iterable([], lambda *xs: 0).test().assert_result()
    Maybe.zip_iterable([1], lambda *xs: 0).test().assert_failure(TypeError)
    with pytest.raises(TypeError):
        Maybe.zip_iterable([Maybe.just(1)], "zipper")


# ------------------------------------------------------------------------- Maybe.flat_map forms


def test_maybe_flat_map_combiner():
    Maybe.just(2).flat_map(lambda x: Maybe.just(x * 10), lambda t, u: (t, u)).test() \
        .assert_result((2, 20))
    Maybe.just(2).flat_map(lambda x: Maybe.empty(), lambda t, u: (t, u)).test().assert_result()
    Maybe.just(2).flat_map(lambda x: Maybe.just(3), combiner=lambda t, u: t + u).test() \
        .assert_result(5)


def test_maybe_flat_map_combiner_errors():
    def bad(t, u):
        raise KeyError("combiner")

    Maybe.just(1).flat_map(lambda x: Maybe.just(x), bad).test().assert_failure(KeyError)
    Maybe.just(1).flat_map(lambda x: Maybe.just(x), lambda t, u: None).test() \
        .assert_failure(TypeError)
    Maybe.just(1).flat_map(lambda x: None, lambda t, u: u).test().assert_failure(TypeError)


def _by_signal(m):
    return m.flat_map(lambda x: Maybe.just(f"item {x}"), lambda e: Maybe.just(f"error {e}"),
                      lambda: Maybe.just("empty"))


def test_maybe_flat_map_notifications():
    _by_signal(Maybe.just(1)).test().assert_result("item 1")
    _by_signal(Maybe.error(ValueError("boom"))).test().assert_result("error boom")
    _by_signal(Maybe.empty()).test().assert_result("empty")
    (Maybe.empty().flat_map(Maybe.just, on_error_mapper=Maybe.error,
                            on_complete_supplier=Maybe.empty).test().assert_result())


def test_maybe_flat_map_notifications_mapper_errors():
    def bad_error_mapper(e):
        raise KeyError("mapper")

    ts = Maybe.error(ValueError("boom")).flat_map(Maybe.just, bad_error_mapper,
                                                   Maybe.empty).test()
    ts.assert_failure(CompositeException)
    assert [type(e) for e in ts.errors()[0].exceptions] == [ValueError, KeyError]

    def bad_supplier():
        raise KeyError("supplier")

    Maybe.empty().flat_map(Maybe.just, Maybe.error, bad_supplier).test().assert_failure(KeyError)
    Maybe.empty().flat_map(Maybe.just, Maybe.error, lambda: 3).test().assert_failure(TypeError)

    def bad_success(x):
        raise KeyError("success")

    Maybe.just(1).flat_map(bad_success, Maybe.error, Maybe.empty).test().assert_failure(KeyError)


def test_maybe_flat_map_notifications_dispose_reaches_the_inner():
    inner = PublishProcessor.create()
    source = PublishProcessor.create()
    ts = source.last_element().flat_map(Maybe.just, Maybe.error,
                                        lambda: inner.first_element()).test()
    source.on_complete()
    assert inner.has_subscribers()
    ts.dispose()
    assert not inner.has_subscribers()
    ts.assert_no_values()


def test_maybe_flat_map_forms_checked_at_assembly():
    m = Maybe.just(1)
    with pytest.raises(TypeError):
        m.flat_map(Maybe.just, 3)
    with pytest.raises(TypeError):
        m.flat_map(Maybe.just, Maybe.error, None)
    with pytest.raises(TypeError):
        m.flat_map(Maybe.just, Maybe.error, Maybe.empty, Maybe.empty)
    with pytest.raises(TypeError):
        m.flat_map(Maybe.just, combiner=lambda t, u: t, on_error_mapper=Maybe.error,
                   on_complete_supplier=Maybe.empty)


# ------------------------------------------------------------------------- ParallelFlowable


def test_parallel_reduce_with_is_rxjavas_reduce_with_a_seed_supplier():
    rails = (Flowable.range(1, 10).parallel(2).reduce_with(list, lambda acc, x: acc + [x])
             .sequential().to_list().blocking_get())
    assert sorted(x for rail in rails for x in rail) == list(range(1, 11))
    assert len(rails) == 2
