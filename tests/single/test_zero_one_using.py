"""Single/Maybe/Completable.using (RxJava 2's SingleUsing, MaybeUsing, CompletableUsing)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.exceptions import CompositeException

TYPES = {"single": Single, "maybe": Maybe, "completable": Completable}
PROBES = {"single": ProbeSingle, "maybe": ProbeMaybe, "completable": ProbeCompletable}


def _ok(kind):
    return {"single": Single.just(1), "maybe": Maybe.just(1),
            "completable": Completable.complete()}[kind]


def _check_ok(kind, to):
    if kind == "completable":
        to.assert_result()
    else:
        to.assert_result(1)


def _signal_ok(kind, p):
    if kind == "completable":
        p.complete()
    else:
        p.success(1)


class Events:
    """The order of what happened: the disposer's calls and the downstream's signals."""

    def __init__(self, kind):
        self.kind = kind
        self.log: list = []

    def disposer(self, r):
        self.log.append(("dispose", r))

    def subscribe(self, source):
        if self.kind == "completable":
            return source.subscribe(lambda: self.log.append("complete"),
                                    lambda e: self.log.append(("error", e)))
        return source.subscribe(lambda v: self.log.append(("success", v)),
                                lambda e: self.log.append(("error", e)))


def _signal_event(kind):
    return "complete" if kind == "completable" else ("success", 1)


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("eager", [True, False])
def test_success_releases_before_or_after(kind, eager):
    ev = Events(kind)
    ev.subscribe(TYPES[kind].using(lambda: "R", lambda r: _ok(kind), ev.disposer, eager))
    release = ("dispose", "R")
    sig = _signal_event(kind)
    assert ev.log == ([release, sig] if eager else [sig, release])


def test_maybe_empty_releases():
    ev = Events("maybe")
    ev.subscribe(Maybe.using(lambda: 1, lambda r: Maybe.empty(), ev.disposer))
    assert ev.log == [("dispose", 1)]
    to = Maybe.using(lambda: 1, lambda r: Maybe.empty(), lambda r: None).test()
    to.assert_result()


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("eager", [True, False])
def test_error_releases_before_or_after(kind, eager):
    ev = Events(kind)
    err = Boom()
    ev.subscribe(TYPES[kind].using(lambda: "R", lambda r: TYPES[kind].error(err), ev.disposer,
                                   eager))
    release = ("dispose", "R")
    assert ev.log == ([release, ("error", err)] if eager else [("error", err), release])


@pytest.mark.parametrize("kind", list(TYPES))
def test_resource_passed_to_source_supplier(kind):
    seen = []
    TYPES[kind].using(lambda: "R", lambda r: seen.append(r) or _ok(kind), lambda r: None).test()
    assert seen == ["R"]


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("eager", [True, False])
def test_dispose_releases_once(kind, eager):
    p = PROBES[kind]()
    released = []
    to = TYPES[kind].using(lambda: "R", lambda r: p, released.append, eager).test()
    assert released == []
    to.dispose()
    assert released == ["R"]
    assert p.disposed == 1
    to.dispose()
    assert released == ["R"]


@pytest.mark.parametrize("kind", list(TYPES))
def test_eager_signal_after_dispose_dropped(kind):
    p = PROBES[kind]()
    released = []
    to = TYPES[kind].using(lambda: "R", lambda r: p, released.append, True).test()
    to.dispose()
    _signal_ok(kind, p)
    to.assert_empty()
    assert released == ["R"]


@pytest.mark.parametrize("kind", list(TYPES))
def test_resource_supplier_raises(kind):
    released = []
    to = TYPES[kind].using(lambda: 1 / 0, lambda r: _ok(kind), released.append).test()
    to.assert_failure(ZeroDivisionError)
    assert released == []


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("eager", [True, False])
def test_source_supplier_raises_resource_released(kind, eager):
    ev = Events(kind)
    err = Boom()

    def supplier(r):
        raise err
    ev.subscribe(TYPES[kind].using(lambda: "R", supplier, ev.disposer, eager))
    release = ("dispose", "R")
    assert ev.log == ([release, ("error", err)] if eager else [("error", err), release])


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("bad,message", [(None, "returned None"), (42, "not a")])
def test_source_supplier_bad_result(kind, bad, message):
    released = []
    to = TYPES[kind].using(lambda: "R", lambda r: bad, released.append).test()
    to.assert_failure(TypeError)
    assert message in str(to.errors()[0])
    assert released == ["R"]


@pytest.mark.parametrize("kind", list(TYPES))
def test_source_supplier_and_disposer_raise_eager_composite(kind):
    def disposer(r):
        raise ValueError("disposer")

    def supplier(r):
        raise Boom()
    to = TYPES[kind].using(lambda: "R", supplier, disposer, True).test()
    to.assert_failure(CompositeException)
    assert [type(e) for e in to.errors()[0].exceptions] == [Boom, ValueError]


@pytest.mark.parametrize("kind", list(TYPES))
def test_source_supplier_and_disposer_raise_lazy_to_plugins(kind, plugin_errors):
    def disposer(r):
        raise ValueError("disposer")

    def supplier(r):
        raise Boom()
    to = TYPES[kind].using(lambda: "R", supplier, disposer, False).test()
    to.assert_failure(Boom)
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


@pytest.mark.parametrize("kind", list(TYPES))
def test_disposer_raises_eager_on_success_is_the_error(kind):
    def disposer(r):
        raise ValueError("disposer")
    to = TYPES[kind].using(lambda: "R", lambda r: _ok(kind), disposer, True).test()
    to.assert_failure(ValueError)


@pytest.mark.parametrize("kind", list(TYPES))
def test_disposer_raises_eager_on_error_composite(kind):
    def disposer(r):
        raise ValueError("disposer")
    to = TYPES[kind].using(lambda: "R", lambda r: TYPES[kind].error(Boom()), disposer,
                           True).test()
    to.assert_failure(CompositeException)
    assert [type(e) for e in to.errors()[0].exceptions] == [Boom, ValueError]


@pytest.mark.parametrize("kind", list(TYPES))
def test_disposer_raises_lazy_to_plugins(kind, plugin_errors):
    def disposer(r):
        raise ValueError("disposer")
    to = TYPES[kind].using(lambda: "R", lambda r: _ok(kind), disposer, False).test()
    _check_ok(kind, to)
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


@pytest.mark.parametrize("kind", list(TYPES))
def test_disposer_raises_on_dispose_to_plugins(kind, plugin_errors):
    def disposer(r):
        raise ValueError("disposer")
    to = TYPES[kind].using(lambda: "R", lambda r: PROBES[kind](), disposer).test()
    to.dispose()
    to.assert_empty()
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


@pytest.mark.parametrize("kind", list(TYPES))
def test_fatal_error_not_caught(kind):
    def supplier():
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        TYPES[kind].using(supplier, lambda r: _ok(kind), lambda r: None).test()


@pytest.mark.parametrize("kind", list(TYPES))
def test_resubscribe_acquires_per_subscriber(kind):
    n = []
    released = []
    u = TYPES[kind].using(lambda: n.append(1) or len(n), lambda r: _ok(kind), released.append)
    u.test()
    u.test()
    assert released == [1, 2]


@pytest.mark.parametrize("kind", list(TYPES))
def test_arguments_checked(kind):
    t = TYPES[kind]
    ok = lambda *a: None  # noqa: E731
    for args in [(None, ok, ok), (ok, None, ok), (ok, ok, None), (1, ok, ok), (ok, 1, ok),
                 (ok, ok, 1)]:
        with pytest.raises(TypeError):
            t.using(*args)


def test_repr():
    def acquire():
        return 1

    def release(r):
        return None
    assert repr(Single.using(acquire, Single.just, release)) == \
        "using(acquire, just, release, True)"


# ---------------------------------------------------------------- races


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("eager", [True, False])
def test_race_dispose_vs_signal_releases_once(kind, eager, race_runner, race_rounds):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        released = []
        to = TYPES[kind].using(lambda: "R", lambda r, p=p: p, released.append, eager).test()
        race_runner.race(to.dispose, lambda p=p: _signal_ok(kind, p))
        assert released == ["R"]
        assert not to.errors()
        assert len(to.values()) <= 1
        to.assert_protocol_ok()
