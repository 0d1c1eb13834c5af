"""Single.create: the SingleEmitter (RxJava 2's SingleCreate)."""

from __future__ import annotations

from functools import partial

import pytest
from probes import Boom

from rxpy2 import Disposables
from rxpy2 import Single
from rxpy2.emitter import SingleEmitter


def test_create_success():
    Single.create(lambda e: e.on_success(1)).test().assert_result(1)


def test_create_error():
    Single.create(lambda e: e.on_error(Boom())).test().assert_failure(Boom)


def test_create_rejects_bad_source():
    with pytest.raises(TypeError):
        Single.create(None)
    with pytest.raises(TypeError):
        Single.create(1)


def test_create_emitter_is_single_emitter():
    seen = []
    Single.create(seen.append).test()
    assert isinstance(seen[0], SingleEmitter)


def test_create_success_none_is_type_error():
    Single.create(lambda e: e.on_success(None)).test().assert_failure(TypeError)


def test_create_second_signal_dropped(plugin_errors):
    def src(e):
        e.on_success(1)
        e.on_success(2)
        e.on_error(Boom())
        assert not e.try_on_error(Boom())
        assert e.is_disposed()
    Single.create(src).test().assert_result(1)
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


def test_create_source_raises_goes_to_on_error():
    Single.create(lambda e: 1 / 0).test().assert_failure(ZeroDivisionError)


def test_create_source_raises_after_success_goes_to_plugins(plugin_errors):
    def src(e):
        e.on_success(1)
        raise Boom()
    Single.create(src).test().assert_result(1)
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


def test_create_try_on_error_live():
    result = []
    Single.create(lambda e: result.append(e.try_on_error(Boom()))).test().assert_failure(Boom)
    assert result == [True]


def test_create_resource_released_on_success_and_error():
    for signal in (lambda e: e.on_success(1), lambda e: e.on_error(Boom())):
        d = Disposables.empty()
        calls = []

        def src(e, signal=signal, d=d, calls=calls):
            e.set_disposable(d)
            e.set_cancellable(lambda: calls.append(1))  # replaces (and disposes) d
            assert d.is_disposed()
            signal(e)
        Single.create(src).test()
        assert calls == [1]


def test_create_dispose_releases_resource_and_drops_signals(plugin_errors):
    holder = []
    calls = []

    def src(e):
        e.set_cancellable(lambda: calls.append(1))
        holder.append(e)
    to = Single.create(src).test()
    assert not holder[0].is_disposed()
    to.dispose()
    assert calls == [1]
    assert holder[0].is_disposed()
    holder[0].on_success(1)
    holder[0].on_error(Boom())
    to.assert_empty()
    assert len(plugin_errors) == 1
    # a resource set after dispose is released at once
    d = Disposables.empty()
    holder[0].set_disposable(d)
    assert d.is_disposed()


def test_create_set_cancellable_not_callable():
    Single.create(lambda e: e.set_cancellable(1)).test().assert_failure(TypeError)


def test_create_cancellable_raising_goes_to_plugins(plugin_errors):
    def src(e):
        e.set_cancellable(_raise)
        e.on_success(1)
    Single.create(src).test().assert_result(1)
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


def _raise():
    raise Boom()


def test_create_race_dispose_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        holder = []
        calls = []

        def src(e, holder=holder, calls=calls):
            e.set_cancellable(lambda: calls.append(1))
            holder.append(e)
        to = Single.create(src).test()
        race_runner.race(to.dispose, partial(holder[0].on_success, 1))
        assert calls == [1]
        assert len(to.values()) <= 1 and not to.errors()
        to.assert_protocol_ok()


def test_create_race_success_vs_error(race_runner, race_rounds, plugin_errors):
    expected = 0
    for _ in range(race_rounds):
        holder = []
        to = Single.create(holder.append).test()
        race_runner.race(partial(holder[0].on_success, 1), partial(holder[0].on_error, Boom()))
        to.assert_protocol_ok()
        assert len(to.values()) + len(to.errors()) == 1
        expected += len(to.values())
        assert len(plugin_errors) == expected
