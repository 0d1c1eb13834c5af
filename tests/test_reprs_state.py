"""repr() of subscribers, subscriptions and disposables shows their state (issue 14)."""

from __future__ import annotations

from rxpy2 import Flowable
from rxpy2._internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2._internal.subscribers.serialized import SerializedSubscriber
from rxpy2._internal.subscriptions.scalar import ScalarSubscription
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposables
from rxpy2.disposables import SerialDisposable
from rxpy2.operator_kit import DeferredScalarSubscription
from rxpy2.operator_kit import SubscriptionArbiter
from rxpy2.testing import TestSubscriber


def test_lambda_subscriber_states() -> None:
    assert repr(LambdaSubscriber()) == "LambdaSubscriber(unsubscribed)"
    d = Flowable.never().subscribe(print)
    assert repr(d) == "LambdaSubscriber(active)"
    d.dispose()
    assert repr(d) == "LambdaSubscriber(disposed)"
    assert repr(Flowable.empty().subscribe(print)) == "LambdaSubscriber(done)"


def test_serialized_subscriber_states() -> None:
    ss: SerializedSubscriber[int] = SerializedSubscriber(TestSubscriber())
    assert repr(ss) == "SerializedSubscriber(unsubscribed)"
    Flowable.never().subscribe(ss)
    assert repr(ss) == "SerializedSubscriber(active)"
    ss.on_error(ValueError("x"))
    assert repr(ss) == "SerializedSubscriber(done: error(ValueError('x')))"


def test_deferred_scalar_subscription_state_names() -> None:
    d: DeferredScalarSubscription[int] = DeferredScalarSubscription(TestSubscriber())
    assert repr(d) == "DeferredScalarSubscription(NO_REQUEST_NO_VALUE)"
    d.complete(1)
    assert repr(d) == "DeferredScalarSubscription(NO_REQUEST_HAS_VALUE)"
    d.cancel()
    assert repr(d) == "DeferredScalarSubscription(CANCELLED)"


def test_scalar_subscription_and_arbiter() -> None:
    s = ScalarSubscription(TestSubscriber(), 1)
    assert repr(s) == "ScalarSubscription(waiting)"
    s.request(1)
    assert repr(s) == "ScalarSubscription(requested)"
    s.cancel()
    assert repr(s) == "ScalarSubscription(cancelled)"
    a = SubscriptionArbiter()
    a.request(2)
    assert repr(a) == "SubscriptionArbiter(active, requested=2)"
    a.cancel()
    assert repr(a).startswith("SubscriptionArbiter(cancelled")


def test_disposables() -> None:
    d = Disposables.empty()
    assert repr(d) == "Disposable(active)"
    d.dispose()
    assert repr(d) == "Disposable(disposed)"
    c = CompositeDisposable([Disposables.empty()])
    assert repr(c) == "CompositeDisposable(active, size=1)"
    c.dispose()
    assert repr(c) == "CompositeDisposable(disposed)"
    s = SerialDisposable()
    assert repr(s) == "SerialDisposable(active)"
    s.dispose()
    assert repr(s) == "SerialDisposable(disposed)"


def test_to_observer_subscriber_state() -> None:
    from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber

    class _Obs:
        def on_subscribe(self, d: object) -> None: pass
        def on_success(self, v: object) -> None: pass
        def on_error(self, e: BaseException) -> None: pass

    class _Count(ToObserverSubscriber[int]):
        def on_next(self, item: int) -> None: pass

    t = _Count(_Obs())
    assert repr(t) == "_Count(unsubscribed)"
    Flowable.never().subscribe(t)
    assert repr(t) == "_Count(active)"
    t.dispose()
    assert repr(t) == "_Count(disposed)"


def test_readable_flowable_reprs() -> None:
    assert repr(Flowable.never()) == "never()"
    assert repr(Flowable.empty()) == "empty()"
    assert repr(Flowable.never().map(str).filter(bool)) == "never() → map(str) → filter(bool)"
