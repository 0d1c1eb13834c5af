"""Maybe.create: the MaybeEmitter (RxJava 2's MaybeCreate), on Single.create's emitter."""

from __future__ import annotations

from functools import partial

import pytest
from probes import Boom

from rxpy2 import Completable
from rxpy2 import Disposables
from rxpy2 import Maybe
from rxpy2 import MaybeEmitter
from rxpy2 import SingleEmitter
from rxpy2.emitter import CompletableEmitter


def test_create_success():
    Maybe.create(lambda e: e.on_success(1)).test().assert_result(1)


def test_create_complete():
    Maybe.create(lambda e: e.on_complete()).test().assert_result()


def test_create_error():
    Maybe.create(lambda e: e.on_error(Boom())).test().assert_failure(Boom)


BOTH = pytest.mark.parametrize("t", [Maybe, Completable])  # the checks the two share


@BOTH
def test_create_rejects_bad_source(t):
    for bad in (None, 1):
        with pytest.raises(TypeError):
            t.create(bad)


def test_create_emitter_is_maybe_emitter():
    seen = []
    Maybe.create(seen.append).test()
    assert isinstance(seen[0], MaybeEmitter)
    assert isinstance(seen[0], (SingleEmitter, CompletableEmitter))  # one emitter class


def test_emitter_interfaces_are_exported():
    import rxpy2
    for name in ("SingleEmitter", "MaybeEmitter", "CompletableEmitter"):
        assert name in rxpy2.__all__
        assert getattr(rxpy2, name) is getattr(rxpy2.emitter, name)


def test_create_success_none_is_type_error():
    Maybe.create(lambda e: e.on_success(None)).test().assert_failure(TypeError)


def test_create_error_none_is_type_error():
    Maybe.create(lambda e: e.on_error(None)).test().assert_failure(TypeError)


@pytest.mark.parametrize("first", ["success", "complete", "error"])
def test_create_later_signals_dropped(first, plugin_errors):
    def src(e):
        {"success": lambda: e.on_success(1), "complete": e.on_complete,
         "error": lambda: e.on_error(Boom())}[first]()
        e.on_success(2)
        e.on_complete()
        e.on_error(ValueError())
        assert not e.try_on_error(ValueError())
        assert e.is_disposed()
    to = Maybe.create(src).test()
    if first == "success":
        to.assert_result(1)
    elif first == "complete":
        to.assert_result()
    else:
        to.assert_failure(Boom)
    assert [type(x) for x in plugin_errors.causes()] == [ValueError]


@BOTH
def test_create_source_raises_goes_to_on_error(t):
    t.create(lambda e: 1 / 0).test().assert_failure(ZeroDivisionError)


@BOTH
def test_create_source_raises_after_complete_goes_to_plugins(t, plugin_errors):
    def src(e):
        e.on_complete()
        raise Boom()
    t.create(src).test().assert_result()
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


@BOTH
def test_create_try_on_error(t):
    result = []

    def src(e):
        result.append(e.try_on_error(Boom()))
        result.append(e.try_on_error(Boom()))
    t.create(src).test().assert_failure(Boom)
    assert result == [True, False]


@pytest.mark.parametrize("signal", [lambda e: e.on_success(1), lambda e: e.on_complete(),
                                    lambda e: e.on_error(Boom())])
def test_create_resource_released_on_each_signal(signal):
    d = Disposables.empty()
    calls = []

    def src(e):
        e.set_disposable(d)
        e.set_cancellable(lambda: calls.append(1))  # replaces (and disposes) d
        assert d.is_disposed()
        signal(e)
    Maybe.create(src).test().assert_terminated()
    assert calls == [1]


def test_create_resource_released_after_the_signal_went_downstream():
    order = []

    def src(e):
        e.set_cancellable(lambda: order.append("released"))
        e.on_complete()
    Maybe.create(src).do_on_complete(lambda: order.append("complete")).test()
    assert order == ["complete", "released"]


def test_create_dispose_releases_resource_and_drops_signals(plugin_errors):
    holder = []
    calls = []

    def src(e):
        e.set_cancellable(lambda: calls.append(1))
        holder.append(e)
    to = Maybe.create(src).test()
    e = holder[0]
    assert not e.is_disposed()
    to.dispose()
    assert calls == [1] and e.is_disposed()
    e.on_success(1)
    e.on_complete()
    e.on_error(Boom())
    to.assert_empty()
    assert [type(x) for x in plugin_errors.causes()] == [Boom]
    d = Disposables.empty()
    e.set_disposable(d)  # after dispose: released at once
    assert d.is_disposed()


@BOTH
def test_create_set_cancellable_not_callable(t):
    t.create(lambda e: e.set_cancellable(1)).test().assert_failure(TypeError)


def test_create_set_cancellable_none_clears():
    calls = []

    def src(e):
        e.set_cancellable(lambda: calls.append(1))
        e.set_cancellable(None)  # the first one runs (replaced), None holds nothing
        e.on_complete()
    Maybe.create(src).test().assert_result()
    assert calls == [1]


def test_create_cancellable_raising_goes_to_plugins(plugin_errors):
    def src(e):
        e.set_cancellable(_raise)
        e.on_success(1)
    Maybe.create(src).test().assert_result(1)
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


def _raise():
    raise Boom()


def test_create_subscribes_per_subscriber():
    calls = []
    m = Maybe.create(lambda e: (calls.append(1), e.on_success(len(calls))))
    m.test().assert_result(1)
    m.test().assert_result(2)


def test_create_test_cancelled_before_subscribe_gets_nothing(plugin_errors):
    holder = []
    to = Maybe.create(lambda e: (holder.append(e.is_disposed()), e.on_success(1))).test(cancel=True)
    to.assert_empty()
    assert holder == [True]
    assert not plugin_errors


# ---------------------------------------------------------------- races

def _pending():
    holder = []
    calls = []

    def src(e):
        e.set_cancellable(lambda: calls.append(1))
        holder.append(e)
    return Maybe.create(src).test(), holder, calls


@pytest.mark.parametrize("signal", ["success", "complete"])
def test_create_race_dispose_vs_signal(signal, race_runner, race_rounds):
    for _ in range(race_rounds):
        to, holder, calls = _pending()
        e = holder[0]
        race_runner.race(to.dispose, partial(e.on_success, 1) if signal == "success"
                         else e.on_complete)
        assert calls == [1]  # released exactly once
        assert len(to.values()) <= 1 and to.completions() <= 1 and not to.errors()
        to.assert_protocol_ok()
        e.on_success(2)  # whichever won, nothing more goes through
        e.on_complete()
        assert len(to.values()) <= 1 and to.completions() <= 1


def test_create_race_success_vs_complete_vs_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        before = len(plugin_errors)
        to, holder, calls = _pending()
        e = holder[0]
        race_runner.race(partial(e.on_success, 1), partial(e.on_error, Boom()))
        e.on_complete()
        to.assert_protocol_ok()
        # TestObserver counts on_success as an item and a completion
        assert len(to.values()) + len(to.errors()) == 1
        assert to.completions() == len(to.values())
        assert len(plugin_errors) - before == len(to.values())
        assert calls == [1]
