"""rxpy2.plugins: the error handler, UndeliverableException wrapping, hooks, reset, lockdown."""

from __future__ import annotations

import logging

import pytest

from rxpy2 import plugins
from rxpy2.completable import Completable
from rxpy2.disposables import Disposables
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.exceptions import UndeliverableException
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.single import Single
from rxpy2.testing import TestObserver
from rxpy2.testing import TestSubscriber


@pytest.fixture
def default_handler():
    """No handler: plugins.on_error logs (the suite's capturing handler is removed)."""
    plugins.set_error_handler(None)
    yield
    # the suite's guard restores its own handler for the next test


# ---------------------------------------------------------------- on_error

def test_default_handler_logs_with_traceback(default_handler, caplog):
    try:
        raise KeyError("lost")
    except KeyError as e:
        err = e
    with caplog.at_level(logging.ERROR, logger="rxpy2"):
        plugins.on_error(err)  # never raises
    assert len(caplog.records) == 1
    rec = caplog.records[0]
    assert rec.name == "rxpy2" and rec.levelno == logging.ERROR
    assert rec.exc_info is not None
    logged = rec.exc_info[1]
    assert isinstance(logged, UndeliverableException) and logged.__cause__ is err
    assert "Traceback" in caplog.text and "KeyError: 'lost'" in caplog.text


def test_default_handler_reraises_fatal_exceptions_and_logs_none(default_handler, caplog):
    with caplog.at_level(logging.ERROR, logger="rxpy2"):
        with pytest.raises(KeyboardInterrupt):  # never swallowed (throwIfFatal)
            plugins.on_error(KeyboardInterrupt())
        plugins.on_error(None)  # type: ignore[arg-type]
    assert len(caplog.records) == 1
    assert isinstance(caplog.records[0].exc_info[1], TypeError)


def test_set_and_get_error_handler(plugin_errors):
    got = []
    plugins.set_error_handler(got.append)
    assert plugins.get_error_handler() == got.append
    e = ProtocolViolationException("x")
    plugins.on_error(e)
    assert got == [e]


def test_handler_raising_logs_both(default_handler, caplog):
    boom = RuntimeError("handler broke")

    def handler(e):
        raise boom

    plugins.set_error_handler(handler)
    original = ValueError("original")
    with caplog.at_level(logging.ERROR, logger="rxpy2"):
        plugins.on_error(original)  # never raises
    logged = [r.exc_info[1] for r in caplog.records if r.exc_info]
    assert boom in logged and original in logged
    assert "handler broke" in caplog.text and "original" in caplog.text


@pytest.mark.parametrize("make", [KeyError, ZeroDivisionError, OSError, RuntimeError,
                                  lambda m: Exception(m)])
def test_plain_errors_wrapped_in_undeliverable(make, plugin_errors):
    e = make("x")
    plugins.on_error(e)
    assert len(plugin_errors) == 1
    w = plugin_errors[0]
    assert isinstance(w, UndeliverableException) and w.__cause__ is e
    assert plugin_errors.causes() == [e]


@pytest.mark.parametrize("make", [
    lambda: OnErrorNotImplementedException(ValueError("v")),
    lambda: MissingBackpressureException("m"),
    lambda: ProtocolViolationException("p"),
    lambda: UndeliverableException(KeyError("k")),
    lambda: CompositeException(KeyError("a"), KeyError("b")),
    lambda: TypeError("t"),
    lambda: ValueError("§3.9 violated"),
])
def test_bug_types_passed_as_they_are(make, plugin_errors):
    e = make()
    plugins.on_error(e)
    assert plugin_errors == [e]


def test_none_error_becomes_type_error(plugin_errors):
    plugins.on_error(None)  # type: ignore[arg-type]
    assert [type(e) for e in plugin_errors] == [TypeError]


# ---------------------------------------------------------------- hooks

class _Hidden(Flowable[int]):
    """A Flowable wrapping another one (what a hook might put in its place)."""

    def __init__(self, source: Flowable[int]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber) -> None:
        self.source.subscribe(subscriber)


def test_flowable_assembly_hook_sees_and_replaces():
    seen = []

    def hook(f):
        seen.append(f)
        return _Hidden(f)

    plugins.set_on_flowable_assembly(hook)
    assert plugins.hooks_active
    f = Flowable.range(1, 3)
    assert isinstance(f, _Hidden) and len(seen) == 1 and f.source is seen[0]
    f.test().assert_result(1, 2, 3)
    plugins.set_on_flowable_assembly(None)
    assert not plugins.hooks_active
    assert not isinstance(Flowable.range(1, 3), _Hidden)


def test_the_hot_path_flag_follows_hooks_active():
    """``plugins.flags.hooks_active`` (read per item by just/range and per subscribe) is
    written with ``hooks_active``: by each setter and by reset()."""
    assert plugins.flags.hooks_active is plugins.hooks_active is False
    plugins.set_on_flowable_subscribe(lambda source, subscriber: subscriber)
    assert plugins.flags.hooks_active is plugins.hooks_active is True
    plugins.set_on_flowable_subscribe(None)
    assert plugins.flags.hooks_active is plugins.hooks_active is False
    plugins.set_on_single_assembly(lambda s: s)
    assert plugins.flags.hooks_active is True
    plugins.reset()
    assert plugins.flags.hooks_active is plugins.hooks_active is False


def test_just_of_one_item_goes_through_the_assembly_hook():
    seen = []
    plugins.set_on_flowable_assembly(lambda f: seen.append(f) or _Hidden(f))
    j = Flowable.just(4)
    assert isinstance(j, _Hidden) and seen == [j.source]
    j.test().assert_result(4)
    plugins.reset()
    j = Flowable.just(4)
    assert not isinstance(j, _Hidden) and j.value == 4
    Flowable.range(0, 10).flat_map(Flowable.just).test().assert_result(*range(10))


def test_flowable_subscribe_hook_replaces_the_subscriber():
    pairs = []

    def hook(source, subscriber):
        pairs.append((source, subscriber))
        inner = TestSubscriber()
        hook.inner = inner
        return inner

    plugins.set_on_flowable_subscribe(hook)
    src = Flowable.just(7)
    ts = TestSubscriber()
    src.subscribe(ts)
    assert pairs == [(src, ts)]
    ts.assert_not_subscribed()  # the original subscriber got nothing
    hook.inner.assert_result(7)  # the replacement got the signals


def test_subscribe_hook_returning_none_is_type_error():
    plugins.set_on_flowable_subscribe(lambda source, subscriber: None)
    with pytest.raises(TypeError):
        plugins.on_subscribe("flowable", Flowable.just(1), TestSubscriber())


def test_subscribe_hook_that_fails_reaches_the_subscriber_and_subscribe_returns(plugin_errors):
    boom = RuntimeError("hook failed")

    def hook(source, subscriber):
        raise boom

    plugins.set_on_flowable_subscribe(hook)
    ts: TestSubscriber[int] = TestSubscriber()
    Flowable.just(1).subscribe(ts)  # §1.9: returns normally, the subscriber is told
    ts.assert_failure(RuntimeError)
    assert ts.errors()[0] is boom
    assert plugin_errors == []


class JustSingle(Single[int]):
    def __init__(self, v: int) -> None:
        self.v = v

    def subscribe_actual(self, observer) -> None:
        observer.on_subscribe(Disposables.empty())
        observer.on_success(self.v)


class EmptyMaybe(Maybe[int]):
    def subscribe_actual(self, observer) -> None:
        observer.on_subscribe(Disposables.empty())
        observer.on_complete()


class DoneCompletable(Completable):
    def subscribe_actual(self, observer) -> None:
        observer.on_subscribe(Disposables.empty())
        observer.on_complete()


@pytest.mark.parametrize("kind,setter,source", [
    ("single", plugins.set_on_single_subscribe, lambda: JustSingle(1)),
    ("maybe", plugins.set_on_maybe_subscribe, EmptyMaybe),
    ("completable", plugins.set_on_completable_subscribe, DoneCompletable),
])
def test_subscribe_hooks_of_single_maybe_completable(kind, setter, source):
    pairs = []
    replacement = TestObserver()

    def hook(src, observer):
        pairs.append((src, observer))
        return replacement

    setter(hook)
    s = source()
    original = TestObserver()
    s.subscribe(original)  # the public subscribe applies the hook
    assert pairs == [(s, original)]
    original.assert_not_terminated()
    replacement.assert_subscribed().assert_complete().assert_no_errors()
    s.subscribe_with(TestObserver())  # and so does subscribe_with
    assert len(pairs) == 2
    setter(None)
    s.subscribe(original)
    assert len(pairs) == 2
    original.assert_complete()


@pytest.mark.parametrize("kind,setter", [
    ("flowable", plugins.set_on_flowable_assembly),
    ("single", plugins.set_on_single_assembly),
    ("maybe", plugins.set_on_maybe_assembly),
    ("completable", plugins.set_on_completable_assembly),
])
def test_assembly_hooks_per_kind(kind, setter):
    marker = object()
    setter(lambda src: (marker, src))
    x = object()
    assert plugins.on_assembly(kind, x) == (marker, x)
    for other in {"flowable", "single", "maybe", "completable"} - {kind}:
        assert plugins.on_assembly(other, x) is x
    setter(None)
    assert plugins.on_assembly(kind, x) is x


def test_reset_removes_everything(plugin_errors):
    plugins.set_on_flowable_assembly(lambda f: f)
    plugins.set_on_single_subscribe(lambda s, o: o)
    handler = plugin_errors.append
    plugins.set_error_handler(handler)
    plugins.reset()
    assert plugins.get_error_handler() is None
    assert not plugins.hooks_active
    x = object()
    assert plugins.on_assembly("flowable", x) is x
    assert plugins.on_subscribe("single", None, x) is x


def test_lockdown_forbids_changes():
    handler = plugins.get_error_handler()
    plugins.lockdown()
    try:
        assert plugins.is_locked_down()
        for setter in (plugins.set_error_handler, plugins.set_on_flowable_assembly,
                       plugins.set_on_single_assembly, plugins.set_on_maybe_assembly,
                       plugins.set_on_completable_assembly, plugins.set_on_flowable_subscribe,
                       plugins.set_on_single_subscribe, plugins.set_on_maybe_subscribe,
                       plugins.set_on_completable_subscribe):
            with pytest.raises(RuntimeError, match="locked down"):
                setter(None)
        with pytest.raises(RuntimeError, match="locked down"):
            plugins.reset()
        assert plugins.get_error_handler() is handler  # unchanged
    finally:
        plugins._unlock_for_tests()
    assert not plugins.is_locked_down()
    plugins.set_on_flowable_assembly(None)  # allowed again


# ---------------------------------------------------------------- §1.9: subscribe never throws

class _Broken(Flowable[int]):
    def subscribe_actual(self, subscriber) -> None:
        raise ZeroDivisionError("broken source")


def test_subscribe_actual_raising_reaches_the_subscriber(plugin_errors):
    ts: TestSubscriber[int] = TestSubscriber()
    _Broken().subscribe(ts)  # returns normally; §1.9: on_subscribe, then on_error
    ts.assert_subscribed().assert_failure(ZeroDivisionError)
    assert plugin_errors == []


def test_subscribe_actual_raising_with_lambdas(plugin_errors):
    errors: list[BaseException] = []
    assert _Broken().subscribe(lambda v: None, errors.append) is not None
    assert [type(e) for e in errors] == [ZeroDivisionError]
    # without on_error the error is undeliverable: it goes to the plugins, never lost
    assert _Broken().subscribe(lambda v: None) is not None
    assert [type(e.__cause__) for e in plugin_errors] == [ZeroDivisionError]


@pytest.mark.parametrize("base", [Single, Maybe, Completable])
def test_subscribe_actual_raising_in_single_maybe_completable(base, plugin_errors):
    class Broken(base):  # type: ignore[misc, valid-type]
        def subscribe_actual(self, observer) -> None:
            raise ZeroDivisionError("broken")

    to = TestObserver()
    assert Broken().subscribe(to) is None  # returns normally; §1.9: the observer is told
    to.assert_subscribed().assert_failure(ZeroDivisionError)
    assert plugin_errors == []
