"""Completable.create: the CompletableEmitter (RxJava 2's CompletableCreate), on
Single.create's emitter. The checks shared with Maybe.create are in test_maybe_create.py,
the dispose-vs-error race of the three types in test_zero_one_lifecycle.py."""

from __future__ import annotations

from functools import partial

import pytest
from probes import Boom

from rxpy2 import Completable
from rxpy2 import CompletableEmitter
from rxpy2 import Disposables


def test_create_complete():
    Completable.create(lambda e: e.on_complete()).test().assert_result()


def test_create_error():
    Completable.create(lambda e: e.on_error(Boom())).test().assert_failure(Boom)


def test_create_emitter_is_completable_emitter():
    seen = []
    Completable.create(seen.append).test()
    assert isinstance(seen[0], CompletableEmitter)


def test_create_later_signals_dropped(plugin_errors):
    def src(e):
        e.on_complete()
        e.on_complete()
        e.on_error(Boom())
        assert not e.try_on_error(Boom())
        assert e.is_disposed()
    Completable.create(src).test().assert_result()
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


def test_create_error_then_complete_dropped():
    def src(e):
        e.on_error(Boom())
        e.on_complete()
    Completable.create(src).test().assert_failure(Boom)


@pytest.mark.parametrize("signal", [lambda e: e.on_complete(), lambda e: e.on_error(Boom())])
def test_create_resource_released_on_each_signal(signal):
    d = Disposables.empty()

    def src(e):
        e.set_disposable(d)
        signal(e)
    Completable.create(src).test().assert_terminated()
    assert d.is_disposed()


def test_create_dispose_releases_resource_and_drops_signals(plugin_errors):
    holder = []
    calls = []

    def src(e):
        e.set_cancellable(lambda: calls.append(1))
        holder.append(e)
    to = Completable.create(src).test()
    to.dispose()
    assert calls == [1] and holder[0].is_disposed()
    holder[0].on_complete()
    holder[0].on_error(Boom())
    to.assert_empty()
    assert [type(x) for x in plugin_errors.causes()] == [Boom]


# ---------------------------------------------------------------- races

def _pending():
    holder = []
    calls = []

    def src(e):
        e.set_cancellable(lambda: calls.append(1))
        holder.append(e)
    return Completable.create(src).test(), holder, calls


def test_create_race_dispose_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        to, holder, calls = _pending()
        race_runner.race(to.dispose, holder[0].on_complete)
        assert calls == [1]
        assert to.completions() <= 1 and not to.errors()
        to.assert_protocol_ok()
        holder[0].on_complete()
        assert to.completions() <= 1


def test_create_race_complete_vs_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        before = len(plugin_errors)
        to, holder, calls = _pending()
        race_runner.race(holder[0].on_complete, partial(holder[0].on_error, Boom()))
        to.assert_protocol_ok()
        assert to.completions() + len(to.errors()) == 1
        assert len(plugin_errors) - before == to.completions()
        assert calls == [1]
