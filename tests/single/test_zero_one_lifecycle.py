"""Creating, composing, lifecycle on Single, Maybe and Completable: do_on_event,
do_on_terminate, do_after_success, do_after_terminate, hide (Maybe, Completable); lift,
compose, to, on_terminate_detach, unsafe_create, wrap (all three); Maybe.of_type,
Single.cast, Maybe.cast (RxJava 2's MaybeDoOnEvent, MaybeDoOnTerminate, MaybeDoAfterSuccess,
MaybePeek, CompletableDoOnEvent, CompletablePeek, *Hide, *Lift, *Detach, *UnsafeCreate /
*FromUnsafeSource)."""

from __future__ import annotations

import gc
import weakref
from functools import partial

import pytest
from probes import Boom
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import CompositeException
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.testing import TestObserver

TYPES = [Single, Maybe, Completable]
PROBES = {Single: ProbeSingle, Maybe: ProbeMaybe, Completable: ProbeCompletable}


def boom(*_a):
    raise Boom()


def ok(t):
    """A source of type ``t`` that succeeds (Completable: completes)."""
    return Completable.complete() if t is Completable else t.just(1)


def assert_ok(t, to):
    if t is Completable:
        to.assert_result()
    else:
        to.assert_result(1)


# ---------------------------------------------------------------- argument checks

@pytest.mark.parametrize(("t", "name"), [
    (Maybe, "do_on_event"), (Maybe, "do_on_terminate"), (Maybe, "do_after_success"),
    (Maybe, "do_after_terminate"), (Completable, "do_on_event"),
    (Completable, "do_on_terminate"), (Completable, "do_after_terminate"),
    (Single, "lift"), (Maybe, "lift"), (Completable, "lift"),
    (Single, "compose"), (Maybe, "compose"), (Completable, "compose"),
    (Single, "to"), (Maybe, "to"), (Completable, "to"),
])
def test_callback_checked_at_assembly(t, name):
    for bad in (None, 1):
        with pytest.raises(TypeError):
            getattr(ok(t), name)(bad)


# ---------------------------------------------------------------- Maybe do_on_event & co.

def test_maybe_do_on_event_each_signal_before_downstream():
    log = []
    Maybe.just(1).do_on_event(lambda v, e: log.append((v, e))).do_on_success(
        lambda v: log.append("down")).test().assert_result(1)
    Maybe.empty().do_on_event(lambda v, e: log.append((v, e))).do_on_complete(
        lambda: log.append("down")).test().assert_result()
    err = Boom()
    Maybe.error(err).do_on_event(lambda v, e: log.append((v, e))).test().assert_failure(Boom)
    assert log == [(1, None), "down", (None, None), "down", (None, err)]


def test_maybe_do_on_event_raising():
    Maybe.just(1).do_on_event(boom).test().assert_failure(Boom)
    Maybe.empty().do_on_event(boom).test().assert_failure(Boom)
    to = Maybe.error(ValueError()).do_on_event(boom).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [ValueError, Boom]


def test_maybe_do_on_terminate_before_downstream_not_on_dispose():
    log = []
    for m in (Maybe.just(1), Maybe.empty(), Maybe.error(Boom())):
        m.do_on_terminate(lambda: log.append("t")).do_on_event(
            lambda v, e: log.append("down")).test()
    assert log == ["t", "down"] * 3
    p = ProbeMaybe()
    p.do_on_terminate(lambda: log.append("disposed?")).test().dispose()
    assert p.disposed == 1 and log == ["t", "down"] * 3
    Maybe.just(1).do_on_terminate(boom).test().assert_failure(Boom)
    Maybe.empty().do_on_terminate(boom).test().assert_failure(Boom)
    Maybe.error(ValueError()).do_on_terminate(boom).test().assert_failure(CompositeException)


def test_maybe_do_after_success_after_downstream():
    log = []
    to = Maybe.just(1).do_after_success(lambda v: log.append(("after", v))).do_on_success(
        lambda v: log.append("down")).test()
    to.assert_result(1)
    assert log == ["down", ("after", 1)]
    Maybe.empty().do_after_success(lambda v: log.append(v)).test().assert_result()
    Maybe.error(Boom()).do_after_success(lambda v: log.append(v)).test().assert_failure(Boom)
    assert log == ["down", ("after", 1)]


def test_maybe_do_after_success_raising_goes_to_plugins(plugin_errors):
    Maybe.just(1).do_after_success(boom).test().assert_result(1)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_maybe_do_after_terminate_after_each_signal_not_on_dispose(plugin_errors):
    log = []
    for m in (Maybe.just(1), Maybe.empty(), Maybe.error(Boom())):
        m.do_after_terminate(lambda: log.append("after")).do_on_event(
            lambda v, e: log.append("down")).test()
    assert log == ["down", "after"] * 3
    p = ProbeMaybe()
    to = p.do_after_terminate(lambda: log.append("x")).test()
    to.dispose()
    assert p.disposed == 1 and len(log) == 6
    Maybe.empty().do_after_terminate(boom).test().assert_result()
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_maybe_do_after_dispose_passes_through():
    p = ProbeMaybe()
    to = p.do_after_success(lambda v: None).test()
    assert not to.is_disposed()
    to.dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- Completable do_on_event & co.

def test_completable_do_on_event():
    log = []
    Completable.complete().do_on_event(log.append).do_on_complete(
        lambda: log.append("down")).test().assert_result()
    err = Boom()
    Completable.error(err).do_on_event(log.append).test().assert_failure(Boom)
    assert log == [None, "down", err]


def test_completable_do_on_event_raising():
    Completable.complete().do_on_event(boom).test().assert_failure(Boom)
    to = Completable.error(ValueError()).do_on_event(boom).test()
    assert [type(x) for x in to.errors()[0].exceptions] == [ValueError, Boom]


def test_completable_do_on_terminate_and_after_terminate_order(plugin_errors):
    log = []
    for c in (Completable.complete(), Completable.error(Boom())):
        c.do_after_terminate(lambda: log.append("after")).do_on_terminate(
            lambda: log.append("before")).do_on_event(lambda e: log.append("down")).test()
    assert log == ["before", "down", "after"] * 2
    Completable.complete().do_on_terminate(boom).test().assert_failure(Boom)
    Completable.error(ValueError()).do_on_terminate(boom).test().assert_failure(
        CompositeException)
    Completable.complete().do_after_terminate(boom).test().assert_result()
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_completable_terminate_callbacks_not_on_dispose():
    log = []
    p = ProbeCompletable()
    p.do_on_terminate(lambda: log.append(1)).do_after_terminate(
        lambda: log.append(2)).do_on_event(log.append).test().dispose()
    assert p.disposed == 1 and log == []


# ---------------------------------------------------------------- hide

@pytest.mark.parametrize("t", [Maybe, Completable])
def test_hide_passes_signals(t):
    assert_ok(t, ok(t).hide().test())
    t.error(Boom()).hide().test().assert_failure(Boom)
    if t is Maybe:
        Maybe.empty().hide().test().assert_result()


@pytest.mark.parametrize("t", [Maybe, Completable])
def test_hide_hides_identity_and_disposable(t):
    p = PROBES[t]()
    h = p.hide()
    assert h is not p and not isinstance(h, PROBES[t])
    to = h.test()
    assert not to.is_disposed()
    to.dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- lift

class _Forward:
    """An observer for any of the three types that records and forwards."""

    def __init__(self, downstream, log):
        self.downstream = downstream
        self.log = log

    def on_subscribe(self, d):
        self.downstream.on_subscribe(d)

    def on_success(self, v):
        self.log.append(v)
        self.downstream.on_success(v * 10)

    def on_complete(self):
        self.log.append("complete")
        self.downstream.on_complete()

    def on_error(self, e):
        self.log.append(e)
        self.downstream.on_error(e)


def test_lift_operator_runs_per_subscriber():
    log = []
    lifted = Single.just(1).lift(lambda o: _Forward(o, log))
    lifted.test().assert_result(10)
    lifted.test().assert_result(10)
    assert log == [1, 1]
    Maybe.empty().lift(lambda o: _Forward(o, log)).test().assert_result()
    Completable.complete().lift(lambda o: _Forward(o, log)).test().assert_result()
    assert log == [1, 1, "complete", "complete"]


@pytest.mark.parametrize("t", TYPES)
def test_lift_operator_gets_the_downstream(t):
    seen = []
    to = TestObserver()
    ok(t).lift(lambda o: (seen.append(o), o)[1]).subscribe(to)
    assert seen == [to]
    assert_ok(t, to)


@pytest.mark.parametrize("t", TYPES)
def test_lift_operator_raising_signals_error_without_subscribing(t):
    p = PROBES[t]()
    p.lift(boom).test().assert_failure(Boom)
    assert p.observers == []


@pytest.mark.parametrize("t", TYPES)
def test_lift_operator_returning_none_is_type_error(t):
    p = PROBES[t]()
    to = p.lift(lambda o: None).test()
    to.assert_failure(TypeError)
    assert "returned None" in str(to.errors()[0])
    assert p.observers == []


# ---------------------------------------------------------------- compose / to

@pytest.mark.parametrize("t", TYPES)
def test_compose_applies_transformer_at_assembly(t):
    src = ok(t)
    calls = []
    result = src.hide()
    composed = src.compose(lambda s: (calls.append(s), result)[1])
    assert calls == [src] and composed is result
    assert_ok(t, composed.test())


@pytest.mark.parametrize("t", TYPES)
def test_compose_result_must_be_same_type(t):
    other = {Single: Maybe.just(1), Maybe: Single.just(1), Completable: Single.just(1)}[t]
    for bad in (other, None, Flowable.just(1)):
        with pytest.raises(TypeError, match="transformer's result"):
            ok(t).compose(lambda s, bad=bad: bad)


@pytest.mark.parametrize("t", TYPES)
def test_compose_transformer_raising_propagates(t):
    with pytest.raises(Boom):
        ok(t).compose(boom)


def test_compose_typed_map():
    Single.just(2).compose(lambda s: s.map(str)).test().assert_result("2")
    Maybe.just(2).compose(lambda m: m.filter(lambda x: x > 5)).test().assert_result()


@pytest.mark.parametrize("t", TYPES)
def test_to_converts_now(t):
    src = ok(t)
    assert src.to(lambda s: ("converted", s)) == ("converted", src)
    with pytest.raises(Boom):
        src.to(boom)


def test_to_blocking():
    assert Single.just(3).to(lambda s: s.blocking_get()) == 3


# ---------------------------------------------------------------- on_terminate_detach

@pytest.mark.parametrize("t", TYPES)
def test_detach_passes_signals(t):
    assert_ok(t, ok(t).on_terminate_detach().test())
    t.error(Boom()).on_terminate_detach().test().assert_failure(Boom)
    if t is Maybe:
        Maybe.empty().on_terminate_detach().test().assert_result()


@pytest.mark.parametrize("t", TYPES)
def test_detach_drops_references_on_terminate(t):
    p = PROBES[t]()
    to = p.on_terminate_detach().test()
    inner = p.observers[0]
    assert inner.downstream is to
    if t is Completable:
        p.complete()
    else:
        p.success(1)
    assert inner.downstream is None and inner.is_disposed()
    assert to.values() == ([] if t is Completable else [1]) and to.completions() == 1


@pytest.mark.parametrize("t", TYPES)
def test_detach_dispose_drops_references_and_later_signals(t):
    p = PROBES[t]()
    to = p.on_terminate_detach().test()
    inner = p.observers[0]
    to.dispose()
    assert p.disposed == 1
    assert inner.downstream is None and inner.is_disposed()
    p.error(Boom())  # dropped: nothing downstream any more
    to.assert_empty()


@pytest.mark.parametrize("t", TYPES)
def test_detach_lets_the_downstream_be_collected(t):
    p = PROBES[t]()
    to = p.on_terminate_detach().test()
    ref = weakref.ref(to)
    to.dispose()
    del to
    gc.collect()
    assert ref() is None  # the probe still holds the detach observer, not the downstream


@pytest.mark.parametrize("t", TYPES)
def test_without_detach_the_downstream_stays_reachable(t):
    p = PROBES[t]()
    to = p.hide().test()
    ref = weakref.ref(to)
    to.dispose()
    del to
    gc.collect()
    assert ref() is not None


# ---------------------------------------------------------------- unsafe_create / wrap

OBSERVER = {Single: SingleObserver, Maybe: MaybeObserver, Completable: CompletableObserver}


@pytest.mark.parametrize("t", TYPES)
def test_unsafe_create_gets_the_observer_itself(t):
    seen = []

    def src(o):
        seen.append(o)
        ok(t).subscribe(o)
    to = TestObserver()
    t.unsafe_create(src).subscribe(to)
    assert seen == [to]
    assert_ok(t, to)


@pytest.mark.parametrize("t", TYPES)
def test_unsafe_create_refuses_its_own_type_and_non_callables(t):
    with pytest.raises(TypeError, match="wrap"):
        t.unsafe_create(ok(t))
    for bad in (None, 1):
        with pytest.raises(TypeError):
            t.unsafe_create(bad)


@pytest.mark.parametrize("t", TYPES)
def test_unsafe_create_raising_before_on_subscribe_signals_error(t):
    t.unsafe_create(boom).test().assert_failure(Boom)


@pytest.mark.parametrize("t", TYPES)
def test_wrap_returns_an_instance_of_its_type_itself(t):
    src = ok(t)
    assert t.wrap(src) is src


class _Foreign:
    """Not an rxpy2 type: anything with ``subscribe(observer)`` (another library's source)."""

    def __init__(self, t):
        self.t = t
        self.observers = []

    def subscribe(self, observer):
        self.observers.append(observer)
        ok(self.t).subscribe(observer)


@pytest.mark.parametrize("t", TYPES)
def test_wrap_adapts_any_object_with_subscribe(t):
    f = _Foreign(t)
    w = t.wrap(f)
    assert isinstance(w, t)
    to = TestObserver()
    w.subscribe(to)
    assert f.observers == [to]
    assert_ok(t, to)
    assert_ok(t, w.test())  # per subscriber
    assert len(f.observers) == 2


@pytest.mark.parametrize("t", TYPES)
def test_wrap_refuses_other_reactive_types_and_non_sources(t):
    others = [x for x in (Single.just(1), Maybe.just(1), Completable.complete(), Flowable.just(1))
              if not isinstance(x, t)]
    for bad in [*others, object(), 1]:
        with pytest.raises(TypeError):
            t.wrap(bad)
    with pytest.raises(TypeError):
        t.wrap(None)


def test_wrap_rejects_non_callable_subscribe():
    class Odd:
        subscribe = 3
    with pytest.raises(TypeError, match="subscribe"):
        Single.wrap(Odd())


# ---------------------------------------------------------------- of_type / cast

def test_maybe_of_type():
    Maybe.just(1).of_type(int).test().assert_result(1)
    Maybe.just(1).of_type(str).test().assert_result()
    Maybe.just("a").of_type((int, str)).test().assert_result("a")
    Maybe.just(True).of_type(int).test().assert_result(True)  # isinstance: a bool is an int
    Maybe.empty().of_type(int).test().assert_result()
    Maybe.error(Boom()).of_type(int).test().assert_failure(Boom)


@pytest.mark.parametrize("t", [Single, Maybe])
def test_cast(t):
    t.just(1).cast(int).test().assert_result(1)
    to = t.just(1).cast(str).test()
    to.assert_failure(TypeError)
    assert str(to.errors()[0]) == "cannot cast int to str"
    t.error(Boom()).cast(int).test().assert_failure(Boom)


def test_maybe_cast_empty():
    Maybe.empty().cast(int).test().assert_result()


@pytest.mark.parametrize(("t", "name"), [(Single, "cast"), (Maybe, "cast"), (Maybe, "of_type")])
def test_cast_and_of_type_check_the_class_at_assembly(t, name):
    for bad in (None, 1, "int", (int, 1)):
        with pytest.raises(TypeError):
            getattr(t.just(1), name)(bad)


# ---------------------------------------------------------------- create: the shared emitter

@pytest.mark.parametrize("t", TYPES)
def test_create_race_dispose_vs_error_each_type(t, race_runner, race_rounds, plugin_errors):
    """The one emitter of the three ``create``: after dispose nothing reaches the observer;
    an error that lost the race is undeliverable (``plugins.on_error``), never lost."""
    for _ in range(race_rounds):
        before = len(plugin_errors)
        holder = []
        released = []

        def src(e, holder=holder, released=released):
            e.set_cancellable(lambda: released.append(1))
            holder.append(e)
        to = t.create(src).test()
        race_runner.race(to.dispose, partial(holder[0].on_error, Boom()))
        assert released == [1]
        assert len(to.errors()) + (len(plugin_errors) - before) == 1
        holder[0].on_error(ValueError())  # after both: undeliverable
        assert [type(e) for e in plugin_errors.causes()[before:]][-1] is ValueError
        assert not to.values() and to.completions() == 0
        to.assert_protocol_ok()


@pytest.mark.parametrize("t", TYPES)
def test_create_race_dispose_vs_success_each_type(t, race_runner, race_rounds):
    for _ in range(race_rounds):
        holder = []
        to = t.create(holder.append).test()
        e = holder[0]
        signal = e.on_complete if t is Completable else partial(e.on_success, 1)
        race_runner.race(to.dispose, signal)
        assert e.is_disposed() and not to.errors()
        assert to.completions() <= 1 and len(to.values()) <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- RxJava 2's call forms shared by the three

def _failing(root, n):
    """A ``root`` source that fails ``n`` times with Boom(attempt), then terminates
    normally; and its subscription count."""
    count = [0]
    ok = {Single: lambda: Single.just(7), Maybe: lambda: Maybe.just(7),
          Completable: Completable.complete}[root]

    def supplier():
        count[0] += 1
        return root.error(Boom(count[0])) if count[0] <= n else ok()
    return root.defer(supplier), count


@pytest.mark.parametrize("root", [Single, Maybe, Completable])
def test_retry_function_alone_by_its_arity(root):
    """RxJava 2's retry(BiPredicate) and retry(Predicate): a function alone, positionally,
    is the bi_predicate when it takes (attempt, error), the predicate when (error)."""
    source, count = _failing(root, 5)
    seen = []

    def again(attempt, error):
        seen.append((attempt, error.args[0]))
        return attempt < 2

    source.retry(again).test().assert_error(Boom)
    assert seen == [(1, 1), (2, 2)]
    assert count[0] == 2
    source, count = _failing(root, 2)
    source.retry(lambda e: isinstance(e, Boom)).test().assert_no_errors()
    assert count[0] == 3
    with pytest.raises(TypeError, match=r"did you mean retry\(predicate=fn\) or "
                                        r"retry\(bi_predicate=fn\)\?"):
        source.retry(lambda *a: True)
    with pytest.raises(TypeError, match="takes the function alone"):
        source.retry(lambda e: True, lambda e: True)


class RxPyObserver:
    """An observer written for RxPY: on_completed, not on_complete."""

    def on_next(self, item):
        raise AssertionError("never subscribed")

    def on_error(self, error):
        raise AssertionError("never subscribed")

    def on_completed(self):
        raise AssertionError("never subscribed")


@pytest.mark.parametrize(("source", "observer"), [(lambda: Single.just(1), "SingleObserver"),
                                                  (lambda: Maybe.just(1), "MaybeObserver"),
                                                  (Completable.complete, "CompletableObserver")])
def test_an_rxpy_observer_is_refused_naming_on_complete(source, observer):
    with pytest.raises(TypeError, match=rf"RxPyObserver has on_completed, RxPY's name: rxpy2's "
                                        rf"observers have on_complete \(RxJava's onComplete\); "
                                        rf"expected a {observer} or callbacks"):
        source().subscribe(RxPyObserver())
