"""Subscribing never hangs and never recurses per stage (issue 13, items 6, 7 and 13).

* An exception escaping ``subscribe_actual`` reaches the subscriber as
  ``on_subscribe`` + ``on_error`` when it has no upstream yet (§1.9), else
  ``plugins.on_error``: ``blocking_first()`` raises instead of waiting forever.
* A chain is subscribed in a loop (``rxpy2._internal.helpers.subscribe_loop``):
  2,000 stages of any operator work, 10,000-deep nesting works, and a chain
  deeper than ``MAX_STAGES`` gets ``on_error(RecursionError)``.
* ``subscribe`` takes a Subscriber, an object with the four Subscriber methods,
  or callables; anything else is a ``TypeError`` at the call.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2 import Subscriber
from rxpy2 import Subscription
from rxpy2._internal.helpers import subscribe_loop
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.fixture(autouse=True)
def _restore_recursion_limit():
    """Deep chains raise the recursion limit: give the rest of the suite the old one back."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


class Boom(Flowable[int]):
    """A source whose ``subscribe_actual`` raises ``error`` before anything else."""

    def __init__(self, error: Exception) -> None:
        self.failure = error  # not ``error``: a field may not hide Flowable.error()

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        raise self.failure


# ---------------------------------------------------------------- item 6: §1.9


@pytest.mark.parametrize("error", [RuntimeError("boom"), RecursionError("deep"),
                                   OverflowError("huge")])
def test_raising_subscribe_actual_signals_on_subscribe_then_on_error(error):
    ts = Boom(error).test()
    ts.assert_subscribed()
    ts.assert_failure(type(error))
    assert ts.errors()[0] is error


def test_raising_lift_operator_reaches_the_subscriber():
    def operator(downstream):
        raise ValueError("no subscriber for you")

    ts = Flowable.range(1, 3).lift(operator).test()
    ts.assert_failure(ValueError)
    ts.assert_error_message("no subscriber for you")


def test_raising_lift_operator_inside_a_chain_reaches_the_end_of_it():
    def operator(downstream):
        raise ValueError("lift failed")

    ts = Flowable.range(1, 3).lift(operator).map(lambda x: x).hide().take(2).test()
    ts.assert_failure(ValueError)


def test_blocking_first_raises_instead_of_hanging():
    def operator(downstream):
        raise ValueError("lift failed")

    done = threading.Event()
    outcome: list[Any] = []

    def run() -> None:
        try:
            Flowable.range(1, 3).lift(operator).blocking_first()
        except ValueError as e:
            outcome.append(e)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(5), "blocking_first() hung on a failed subscription"
    assert isinstance(outcome[0], ValueError)


def test_error_after_on_subscribe_goes_to_plugins(plugin_errors):
    class SubscribesThenRaises(Flowable[int]):
        def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
            from rxpy2._internal.subscriptions.empty import EmptySubscription
            subscriber.on_subscribe(EmptySubscription.INSTANCE)
            raise RuntimeError("after on_subscribe")

    ts = SubscribesThenRaises().test()
    ts.assert_subscribed().assert_no_errors().assert_not_complete()
    assert [type(e) for e in plugin_errors.causes()] == [RuntimeError]


def test_a_fatal_exception_in_subscribe_actual_propagates():
    class Interrupted(Flowable[int]):
        def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Interrupted().test()


def test_zero_one_types_signal_a_failed_subscription():
    class BoomSingle(Single[int]):
        def subscribe_actual(self, observer: Any) -> None:
            raise RuntimeError("single")

    class BoomMaybe(Maybe[int]):
        def subscribe_actual(self, observer: Any) -> None:
            raise RuntimeError("maybe")

    class BoomCompletable(Completable):
        def subscribe_actual(self, observer: Any) -> None:
            raise RuntimeError("completable")

    for source in (BoomSingle(), BoomMaybe(), BoomCompletable()):
        to = source.test()
        to.assert_subscribed()
        to.assert_failure(RuntimeError)
    with pytest.raises(RuntimeError, match="single"):
        BoomSingle().blocking_get(timeout=5)


def test_a_subscribe_hook_that_raises_reaches_the_subscriber():
    from rxpy2 import plugins

    def hook(source, subscriber):
        raise LookupError("hook")

    plugins.set_on_flowable_subscribe(hook)
    try:
        Flowable.just(1).test().assert_failure(LookupError)
    finally:
        plugins.reset()


# ---------------------------------------------------------------- item 7: deep chains


def chain(stages: int, op) -> Flowable[int]:
    f = Flowable.range(1, 3)
    for _ in range(stages):
        f = op(f)
    return f


DEEP = 2_000
OPERATORS = {
    "hide": lambda f: f.hide(),
    "take": lambda f: f.take(10),
    "map": lambda f: f.map(lambda x: x).hide(),
    "filter": lambda f: f.filter(lambda x: True).hide(),
    "concat_with": lambda f: f.concat_with(Flowable.empty()),
    "merge_with": lambda f: f.merge_with(Flowable.empty()),
    "subscribe_on_trampoline": lambda f: f.subscribe_on(Schedulers.trampoline()),
    "do_on_next": lambda f: f.do_on_next(lambda x: None),
    "scan": lambda f: f.scan(lambda a, b: b),
    "switch_if_empty": lambda f: f.switch_if_empty(Flowable.empty()),
    "on_error_resume_next": lambda f: f.on_error_resume_next(Flowable.empty()),
    "flat_map": lambda f: f.flat_map(lambda x: Flowable.just(x)),
    "concat_map": lambda f: f.concat_map(lambda x: Flowable.just(x)),
}


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_a_chain_of_two_thousand_stages_works(name):
    chain(DEEP, OPERATORS[name]).test().assert_result(1, 2, 3)


def test_two_thousand_observe_on_stages_on_a_thread_pool():
    # The time of an observe_on chain grows about with stages² (1,000 stages: 0.9 s on
    # the default atomics, 22 s on the hardware backend, 8 µs an operation), so the
    # hardware backend runs 500 stages here.
    from rxpy2._internal.atomic import BACKEND
    stages = DEEP if BACKEND == "lock" else 500
    ts = chain(stages, lambda f: f.observe_on(Schedulers.computation())).test()
    ts.await_done(60).assert_result(1, 2, 3)


def test_two_hundred_observe_on_trampoline_stages():
    # every item crosses each trampoline in turn: quadratic in the stages, so fewer here
    chain(200, lambda f: f.observe_on(Schedulers.trampoline())).test().assert_result(1, 2, 3)


def test_a_chain_is_subscribed_without_a_frame_per_stage():
    depths: list[int] = []

    class Probe(Flowable[int]):
        def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
            n, f = 0, sys._getframe()
            while f is not None:
                n += 1
                f = f.f_back
            depths.append(n)
            Flowable.just(1).subscribe(subscriber)

    shallow, deep = Probe().hide(), Probe()
    for _ in range(500):
        deep = deep.hide()
    shallow.test().assert_result(1)
    deep.test().assert_result(1)
    assert depths[1] - depths[0] < 10, depths


@pytest.mark.parametrize("kind", ["defer", "switch_if_empty", "on_error_resume_next"])
def test_ten_thousand_deep_nesting_works(kind):
    f: Flowable[int] = Flowable.just(1)
    for _ in range(10_000):
        if kind == "defer":
            f = Flowable.defer(lambda f=f: f)
        elif kind == "switch_if_empty":
            f = Flowable.empty().switch_if_empty(f)
        else:
            f = Flowable.error(ValueError()).on_error_resume_next(f)
    ts = f.test()
    if ts.errors():  # beyond the limit: an error the subscriber sees, never a hang
        ts.assert_failure(RecursionError)
    else:
        ts.assert_result(1)


def test_two_thousand_single_flat_maps_work():
    s: Single[int] = Single.just(0)
    for _ in range(DEEP):
        s = s.flat_map(lambda x: Single.just(x + 1))
    s.test().assert_result(DEEP)


def test_ten_thousand_single_flat_maps_end_with_a_result_or_an_error():
    s: Single[int] = Single.just(0)
    for _ in range(10_000):
        s = s.flat_map(lambda x: Single.just(x + 1))
    to = s.test()
    if to.errors():
        to.assert_failure(RecursionError)
    else:
        to.assert_result(10_000)


def test_ten_thousand_nested_single_flat_maps_end_with_a_result_or_an_error():
    s: Single[int] = Single.just(0)
    for _ in range(10_000):
        s = Single.just(0).flat_map(lambda x, s=s: s)
    to = s.test()
    if to.errors():
        to.assert_failure(RecursionError)
    else:
        to.assert_result(0)


def test_a_chain_deeper_than_the_limit_gets_on_error():
    ts = chain(subscribe_loop.MAX_STAGES + 1, lambda f: f.hide()).test()
    ts.assert_failure(RecursionError)
    assert "stages" in str(ts.errors()[0])


def test_blocking_first_on_a_too_deep_chain_raises():
    with pytest.raises(RecursionError):
        chain(subscribe_loop.MAX_STAGES + 1, lambda f: f.hide()).blocking_first()


def test_subscribing_inside_subscribe_actual_still_happens_before_subscribe_returns():
    # a subscribe_actual that subscribes twice and relies on the first having happened
    seen: list[int] = []

    class TwoSteps(Flowable[int]):
        def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
            Flowable.just(7).subscribe(seen.append)
            assert seen == [7]  # a plain subscribe is never postponed
            Flowable.just(8).subscribe(subscriber)

    TwoSteps().hide().test().assert_result(8)


# ---------------------------------------------------------------- item 13: subscribe's arguments


@pytest.mark.parametrize("bad", [5, "print", 1.5, object()])
def test_subscribe_rejects_what_it_cannot_use(bad):
    with pytest.raises(TypeError):
        Flowable.just(1).subscribe(bad)


def test_subscribe_rejects_a_non_callable_on_error_or_on_complete():
    with pytest.raises(TypeError, match="on_error"):
        Flowable.just(1).subscribe(print, on_error="log")
    with pytest.raises(TypeError, match="on_complete"):
        Flowable.just(1).subscribe(print, on_complete=3)
    with pytest.raises(TypeError, match="on_next"):
        Flowable.just(1).subscribe(on_next=[1])


class ForeignSubscriber:
    """The shape of another Reactive Streams library's Subscriber: not an rxpy2 one."""

    def __init__(self, request: int) -> None:
        self.request_amount = request
        self.items: list[Any] = []
        self.errors: list[BaseException] = []
        self.completed = 0
        self.subscription: Any = None

    def on_subscribe(self, subscription: Any) -> None:
        self.subscription = subscription
        subscription.request(self.request_amount)

    def on_next(self, item: Any) -> None:
        self.items.append(item)

    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)

    def on_complete(self) -> None:
        self.completed += 1


def test_a_subscriber_of_another_library_is_accepted():
    s = ForeignSubscriber(10)
    assert Flowable.range(1, 3).subscribe(s) is None
    assert s.items == [1, 2, 3] and s.completed == 1 and not s.errors


def test_a_foreign_subscriber_is_held_to_the_spec():
    s = ForeignSubscriber(0)  # §3.9: a non-positive request is an error
    Flowable.range(1, 3).subscribe(s)
    assert s.items == [] and s.completed == 0
    assert len(s.errors) == 1 and isinstance(s.errors[0], ValueError)
    assert "3.9" in str(s.errors[0])


def test_a_foreign_subscriber_gets_a_strict_subscription():
    s = ForeignSubscriber(1)
    Flowable.range(1, 3).subscribe(s)
    assert s.items == [1]
    assert isinstance(s.subscription, Subscription)
    s.subscription.request(5)
    assert s.items == [1, 2, 3] and s.completed == 1


def test_a_foreign_subscriber_with_callbacks_is_a_type_error():
    with pytest.raises(TypeError):
        Flowable.just(1).subscribe(ForeignSubscriber(1), on_error=print)


def test_subscribe_with_and_test_still_take_test_subscribers():
    ts: TestSubscriber[int] = TestSubscriber()
    assert Flowable.just(1).subscribe_with(ts) is ts
    ts.assert_result(1)


class RxPyObserver:
    """An observer written for RxPY: on_completed, not rxpy2's (RxJava's) on_complete."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def on_next(self, item: Any) -> None:
        self.items.append(item)

    def on_error(self, error: BaseException) -> None:
        pass

    def on_completed(self) -> None:
        pass


def test_an_rxpy_observer_is_refused_naming_on_complete():
    """Refused at the call (never taken as it is), the message naming rxpy2's method."""
    o = RxPyObserver()
    with pytest.raises(TypeError, match=r"RxPyObserver has on_completed, RxPY's name: rxpy2's "
                                        r"observers have on_complete \(RxJava's onComplete\)"):
        Flowable.just(1).subscribe(o)
    with pytest.raises(TypeError, match="on_complete"):
        Flowable.just(1).subscribe_with(o)
    assert o.items == []


def test_an_observer_with_on_complete_and_on_completed_is_a_subscriber():
    class Both(ForeignSubscriber):
        def on_completed(self) -> None:
            raise AssertionError("not rxpy2's")

    s = Both(5)
    Flowable.just(1, 2).subscribe(s)
    assert s.items == [1, 2]
    assert s.completed == 1
