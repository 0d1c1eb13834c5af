"""Maybe.retry / retry_until / retry_when / repeat / repeat_until / repeat_when.

RxJava 2 builds them on Flowable: ``toFlowable().retry(...).singleElement()``,
``retry(LONG_MAX, !stop)``, ``toFlowable().retryWhen(h).singleElement()``,
``toFlowable().repeat(n)``, ``.repeatUntil(stop)``, ``.repeatWhen(h)``.
"""

from __future__ import annotations

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
from rxpy2.disposables import Disposable
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

#: sources in a stack-safety test: 20x the recursion limit, so even one frame per source
#: would overflow long before the end
N = 20_000

#: the resubscribing forms of the three types' retry (``retry_until``: Maybe only)
RETRIES = {
    "retry": lambda s: s.retry(),
    "bi_predicate": lambda s: s.retry(bi_predicate=lambda n, e: True),
    "retry_when": lambda s: s.retry_when(lambda errors: errors),
}
MAYBE_RETRIES = {**RETRIES, "retry_until": lambda s: s.retry_until(lambda: False)}


def failing(n_failures, value=1, cls=Maybe):
    """A Maybe (or ``cls``) that fails ``n_failures`` times (per instance), then signals
    ``value`` (``None``, or a Completable: completes); ``count[0]`` counts the subscriptions."""
    count = [0]

    def supplier():
        count[0] += 1
        if count[0] <= n_failures:
            return cls.error(Boom(count[0]))
        if cls is Completable:
            return Completable.complete()
        return cls.empty() if value is None else cls.just(value)
    return cls.defer(supplier), count


def counting(source):
    """``source`` deferred, with a count of its subscriptions."""
    count = [0]

    def supplier():
        count[0] += 1
        return source
    return Maybe.defer(supplier), count


class Flag(Disposable):
    def __init__(self) -> None:
        self.disposed = False

    def dispose(self) -> None:
        self.disposed = True

    def is_disposed(self) -> bool:
        return self.disposed


class RecordingBase:
    """Keeps each subscription's observer and its own Disposable."""

    def __init__(self) -> None:
        self.subs: list[tuple[object, Flag]] = []

    def subscribe_actual(self, observer) -> None:
        d = Flag()
        self.subs.append((observer, d))
        observer.on_subscribe(d)

    def fail(self) -> None:
        self.subs[-1][0].on_error(Boom())


class Recording(RecordingBase, Maybe):
    pass


class RecordingSingle(RecordingBase, Single):
    pass


class RecordingCompletable(RecordingBase, Completable):
    pass


# ---------------------------------------------------------------- arguments

def test_arguments_checked_at_assembly():
    m = Maybe.just(1)
    for bad in (lambda: m.retry(-1), lambda: m.repeat(-1)):
        with pytest.raises(ValueError):
            bad()
    for bad in (lambda: m.retry("3"), lambda: m.retry(1.5), lambda: m.retry(True),
                lambda: m.retry(predicate=1), lambda: m.retry(bi_predicate=1),
                lambda: m.retry(3, bi_predicate=lambda n, e: True),
                lambda: m.retry(predicate=lambda e: True, bi_predicate=lambda n, e: True),
                lambda: m.retry_until(None), lambda: m.retry_until(1),
                lambda: m.retry_when(None), lambda: m.retry_when(1),
                lambda: m.repeat("2"), lambda: m.repeat_until(None), lambda: m.repeat_until(1),
                lambda: m.repeat_when(None), lambda: m.repeat_when(1)):
        with pytest.raises(TypeError):
            bad()


def test_result_types():
    m = Maybe.just(1)
    for r in (m.retry(), m.retry(bi_predicate=lambda n, e: True), m.retry_until(lambda: True),
              m.retry_when(lambda e: e)):
        assert isinstance(r, Maybe)
    for f in (m.repeat(), m.repeat_until(lambda: True), m.repeat_when(lambda r: r)):
        assert isinstance(f, Flowable)


# ---------------------------------------------------------------- retry

def test_retry_forever_until_success_or_empty():
    s, count = failing(5)
    s.retry().test().assert_result(1)
    assert count[0] == 6
    s, count = failing(5, None)
    s.retry().test().assert_result()
    assert count[0] == 6


def test_retry_times():
    s, count = failing(5)
    to = s.retry(3).test()
    to.assert_failure(Boom)
    assert to.errors()[0].args == (4,)
    assert count[0] == 4
    s, count = failing(3, None)
    s.retry(3).test().assert_result()


def test_retry_zero_is_no_retry():
    s, count = failing(1)
    s.retry(0).test().assert_failure(Boom)
    assert count[0] == 1


def test_retry_predicate_and_times():
    s, _ = failing(10)
    to = s.retry(predicate=lambda e: e.args[0] < 3).test()
    to.assert_failure(Boom)
    assert to.errors()[0].args == (3,)
    s, count = failing(10)
    s.retry(2, lambda e: True).test().assert_failure(Boom)
    assert count[0] == 3


def test_retry_predicate_raises_is_composite():
    to = Maybe.error(Boom()).retry(predicate=lambda e: 1 / 0).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [Boom, ZeroDivisionError]


def test_retry_success_and_empty_pass_through():
    s, count = counting(Maybe.just(1))
    s.retry(3).test().assert_result(1)
    s.retry(bi_predicate=lambda n, e: True).test().assert_result(1)
    s, count = counting(Maybe.empty())
    s.retry(3).test().assert_result()
    s.retry(bi_predicate=lambda n, e: True).test().assert_result()
    assert count[0] == 2


def test_retry_bi_predicate_counts_attempts():
    s, count = failing(10)
    seen = []
    s.retry(bi_predicate=lambda n, e: seen.append((n, e.args[0])) or n < 3
            ).test().assert_failure(Boom)
    assert seen == [(1, 1), (2, 2), (3, 3)]
    assert count[0] == 3
    s, _ = failing(2, None)
    s.retry(bi_predicate=lambda n, e: True).test().assert_result()


def test_retry_bi_predicate_raises_is_composite():
    to = Maybe.error(Boom()).retry(bi_predicate=lambda n, e: 1 / 0).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [Boom, ZeroDivisionError]


@pytest.mark.parametrize("how", sorted(MAYBE_RETRIES))
@pytest.mark.parametrize("value", [7, None])
def test_retry_stack_safe_100k(how, value):
    s, count = failing(N - 1, value)
    r = MAYBE_RETRIES[how](s)
    if value is None:
        r.test().assert_result()
    else:
        r.test().assert_result(value)
    assert count[0] == N


# the three types share these (one implementation serves them)
PROBES = [ProbeSingle, ProbeMaybe, ProbeCompletable]


@pytest.mark.parametrize("how", sorted(RETRIES))
@pytest.mark.parametrize("probe", PROBES)
def test_retry_dispose_stops(how, probe):
    p = probe()
    to = RETRIES[how](p).test()
    p.error(Boom())
    assert len(p.observers) == 2
    to.dispose()
    assert p.disposed == 1
    to.assert_empty()
    p.error(Boom())  # after dispose: no resubscription, nothing downstream
    to.assert_empty()
    assert len(p.observers) == 2


@pytest.mark.parametrize("how", sorted(RETRIES))
@pytest.mark.parametrize("probe", PROBES)
def test_retry_disposed_before_subscription(how, probe):
    p = probe()
    to = RETRIES[how](p).test(cancel=True)
    to.assert_empty()
    assert len(p.observers) <= 1 and p.disposed == len(p.observers)


# ---------------------------------------------------------------- retry_until

def test_retry_until():
    s, count = failing(10)
    n = [0]

    def stop():
        n[0] += 1
        return n[0] == 3
    to = s.retry_until(stop).test()
    to.assert_failure(Boom)
    assert to.errors()[0].args == (3,)
    assert count[0] == 3


def test_retry_until_success_and_empty():
    s, _ = failing(2)
    s.retry_until(lambda: False).test().assert_result(1)
    s, _ = failing(2, None)
    s.retry_until(lambda: False).test().assert_result()


def test_retry_until_stop_true_at_once_is_no_retry():
    s, count = failing(1)
    s.retry_until(lambda: True).test().assert_failure(Boom)
    assert count[0] == 1


def test_retry_until_stop_raises_is_composite():
    # RxJava 2: retry(LONG_MAX, !stop): the predicate's error joins the source's
    to = Maybe.error(Boom()).retry_until(lambda: 1 / 0).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [Boom, ZeroDivisionError]


# ---------------------------------------------------------------- retry_when

def test_retry_when_resubscribes_per_item():
    s, count = failing(3)
    s.retry_when(lambda errors: errors).test().assert_result(1)
    assert count[0] == 4


def test_retry_when_handler_completion_completes_empty():
    # RxJava 2: toFlowable().retryWhen(h).singleElement(): the empty stream completes
    s, count = failing(10)
    s.retry_when(lambda errors: errors.take(2)).test().assert_result()
    assert count[0] == 2


def test_retry_when_handler_empty_completes_before_subscribing():
    s, count = failing(0)
    s.retry_when(lambda errors: Flowable.empty()).test().assert_result()
    assert count[0] == 0


@pytest.mark.parametrize("value", [1, None])
def test_retry_when_end_cancels_handler(value):
    pp = PublishProcessor()
    s, count = failing(2, value)
    to = s.retry_when(lambda errors: pp).test()
    to.assert_empty()
    pp.on_next(0)
    assert count[0] == 2
    to.assert_empty()
    pp.on_next(0)
    if value is None:
        to.assert_result()
    else:
        to.assert_result(value)
    assert not pp.has_subscribers()


def test_retry_when_backoff_with_timer(sched):
    s, count = failing(3, None)
    to = s.retry_when(lambda errors: errors.zip_with(Flowable.range(1, 5), lambda e, i: i)
                      .flat_map(lambda i: Flowable.timer(i, sched))).test()
    to.assert_empty()
    sched.advance_time_by(1)
    assert count[0] == 2
    sched.advance_time_by(2)
    assert count[0] == 3
    sched.advance_time_by(3)
    to.assert_result()


# ---------------------------------------------------------------- repeat / repeat_until

def test_repeat():
    Maybe.just(1).repeat(3).test().assert_result(1, 1, 1)
    Maybe.just(1).repeat().take(5).test().assert_result(1, 1, 1, 1, 1)


def test_repeat_empty_runs_add_nothing():
    s, count = counting(Maybe.empty())
    s.repeat(3).test().assert_result()
    assert count[0] == 3


def test_repeat_zero_never_subscribes():
    s, count = counting(Maybe.just(1))
    s.repeat(0).test().assert_result()
    assert count[0] == 0


def test_repeat_error_stops():
    s, count = failing(1)
    s.repeat(3).test().assert_failure(Boom)
    assert count[0] == 1


def test_repeat_backpressure():
    ts = Maybe.just(1).repeat(5).test(0)
    ts.assert_empty()
    ts.request(2)
    ts.assert_values(1, 1)
    ts.request(10)
    ts.assert_result(1, 1, 1, 1, 1)


@pytest.mark.parametrize("value", [1, None])
def test_repeat_stack_safe_100k(value):
    s, count = counting(Maybe.just(value) if value else Maybe.empty())
    s.repeat(N).count().test().assert_result(N if value else 0)
    assert count[0] == N


def test_repeat_until():
    n = [0]

    def stop():
        n[0] += 1
        return n[0] == 3
    Maybe.just(2).repeat_until(stop).test().assert_result(2, 2, 2)


def test_repeat_until_empty_runs():
    s, count = counting(Maybe.empty())
    n = [0]

    def stop():
        n[0] += 1
        return n[0] == 3
    s.repeat_until(stop).test().assert_result()
    assert count[0] == 3


def test_repeat_until_stop_raises():
    Maybe.just(2).repeat_until(lambda: 1 / 0).test().assert_failure(ZeroDivisionError, 2)
    Maybe.empty().repeat_until(lambda: 1 / 0).test().assert_failure(ZeroDivisionError)


@pytest.mark.parametrize("value", [1, None])
def test_repeat_until_stack_safe_100k(value):
    s, count = counting(Maybe.just(value) if value else Maybe.empty())
    s.repeat_until(lambda: count[0] == N).count().test().assert_result(N if value else 0)
    assert count[0] == N


# ---------------------------------------------------------------- repeat_when

def test_repeat_when_take():
    Maybe.just(1).repeat_when(lambda r: r.take(3)).test().assert_result(1, 1, 1)


def test_repeat_when_empty_repetitions_ask_for_the_next_round_without_demand():
    # RxJava 2: an empty Maybe completes its toFlowable() at once, and repeatWhen's
    # onComplete signals the next round, whatever the downstream requested
    s, count = counting(Maybe.empty())
    ts = s.repeat_when(lambda r: r.take(3)).test(0)
    ts.assert_result()
    # as in RxJava 2: take's completion follows its last item at once, before the
    # trampolined resubscription, so take(3) lets 3 repetitions through
    assert count[0] == 3


def test_repeat_when_mixed_items_and_empty():
    n = [0]

    def make():
        n[0] += 1
        return Maybe.just(n[0]) if n[0] % 2 else Maybe.empty()
    ts = Maybe.defer(make).repeat_when(lambda r: r.take(5)).test(1)
    ts.assert_values(1)
    assert n[0] == 3  # 2 was empty; 3 waits for demand, and the next round waits for it
    ts.request(1)
    ts.assert_values(1, 3)
    assert n[0] == 5
    ts.request(5)
    ts.assert_result(1, 3, 5)


def test_repeat_when_empty_handler_completes_before_first():
    s, count = counting(Maybe.just(1))
    s.repeat_when(lambda r: Flowable.empty()).test().assert_result()
    assert count[0] == 0


def test_repeat_when_external_trigger():
    pp = PublishProcessor()
    s, count = counting(Maybe.empty())
    ts = s.repeat_when(lambda r: pp).test()
    ts.assert_empty()
    pp.on_next(0)
    assert count[0] == 2
    pp.on_complete()
    ts.assert_result()


@pytest.mark.parametrize("value", [1, None])
def test_repeat_when_stack_safe_100k(value):
    s, count = counting(Maybe.just(value) if value else Maybe.empty())
    s.repeat_when(lambda r: r.take(N)).count().test().assert_result(N if value else 0)
    assert count[0] == N


def test_repeat_when_with_timer(sched):
    ts = Maybe.empty().repeat_when(lambda r: r.take(2).flat_map(
        lambda _x: Flowable.timer(1, sched))).test()
    ts.assert_empty()
    sched.advance_time_by(1)
    ts.assert_empty()
    sched.advance_time_by(1)
    ts.assert_result()


# ---------------------------------------------------------------- handlers, the three types

TYPES = [Single, Maybe, Completable]
WHEN = {"retry_when": lambda s, h: s.retry_when(h), "repeat_when": lambda s, h: s.repeat_when(h)}


@pytest.mark.parametrize("op", sorted(WHEN))
@pytest.mark.parametrize("cls", TYPES)
def test_handler_raises_or_returns_no_publisher(cls, op):
    for handler, error in ((lambda x: 1 / 0, ZeroDivisionError), (lambda x: None, TypeError),
                           (lambda x: 5, TypeError)):
        s, count = failing(0, cls=cls)
        WHEN[op](s, handler).test().assert_failure(error)
        assert count[0] == 0


@pytest.mark.parametrize("op", sorted(WHEN))
@pytest.mark.parametrize("cls", TYPES)
def test_handler_error_before_first_subscription(cls, op):
    s, count = failing(0, cls=cls)
    WHEN[op](s, lambda x: Flowable.error(Boom())).test().assert_failure(Boom)
    assert count[0] == 0


@pytest.mark.parametrize("cls", TYPES)
def test_retry_when_handler_error(cls):
    s, count = failing(10, cls=cls)
    to = s.retry_when(lambda errors: errors.map(lambda e: (_ for _ in ()).throw(e))).test()
    to.assert_failure(Boom)
    assert count[0] == 1


@pytest.mark.parametrize("cls", TYPES)
def test_repeat_when_source_error_cancels_handler(cls):
    pp = PublishProcessor()
    cls.error(Boom()).repeat_when(lambda r: pp).test().assert_failure(Boom)
    assert not pp.has_subscribers()


@pytest.mark.parametrize("op", sorted(WHEN))
@pytest.mark.parametrize("probe", PROBES)
def test_when_dispose_cancels_both(probe, op):
    pp = PublishProcessor()
    p = probe()
    to = WHEN[op](p, lambda x: pp).test()
    assert pp.has_subscribers()
    to.dispose()
    assert p.disposed == 1
    assert not pp.has_subscribers()
    to.assert_empty()


# ---------------------------------------------------------------- races

@pytest.mark.parametrize(("kind", "how"), [
    *((k, h) for k in (RecordingSingle, Recording, RecordingCompletable)
      for h in ("retry", "bi_predicate")),
    (Recording, "retry_until")])
def test_race_dispose_vs_resubscription(kind, how, race_runner, race_rounds):
    for _ in range(race_rounds):
        src = kind()
        to = MAYBE_RETRIES[how](src).test()
        race_runner.race(to.dispose, src.fail)
        to.assert_empty()
        assert len(src.subs) in (1, 2)
        assert src.subs[-1][1].disposed  # the live subscription, if any, is disposed


@pytest.mark.parametrize("cls", [Maybe, Completable])
def test_race_dispose_vs_retry_when_trigger(cls, race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        s, count = failing(1, None, cls)
        to = s.retry_when(lambda errors, pp=pp: pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(0))
        assert not to.errors() and len(to.values()) == 0
        assert count[0] in (1, 2)
        to.assert_protocol_ok()
        assert not pp.has_subscribers()


def test_race_cancel_vs_repeat_when_trigger(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        s, count = counting(Maybe.empty())
        ts = s.repeat_when(lambda r, pp=pp: pp).test()
        race_runner.race(ts.cancel, lambda pp=pp: pp.on_next(0))
        ts.assert_empty()
        assert count[0] in (1, 2)
        assert not pp.has_subscribers()
