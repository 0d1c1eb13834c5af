"""Completable's converting operators (RxJava 2.2.21): from_future, from_maybe,
from_publisher, from_single, materialize, blocking_get."""

from __future__ import annotations

import concurrent.futures

import pytest
from probes import Boom
from probes import ManualSource
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.notification import Notification
from rxpy2.observers import CompletableObserver

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def test_arguments_checked_at_assembly():
    for bad in (None, 5):
        with pytest.raises(TypeError):
            Completable.from_future(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            Completable.from_maybe(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            Completable.from_single(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            Completable.from_publisher(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Completable.from_maybe(Single.just(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Completable.from_single(Maybe.just(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Completable.from_future(concurrent.futures.Future(), -1)
    with pytest.raises(ValueError):
        Completable.complete().blocking_get(-1)


def test_from_future_ignores_the_result():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Completable.from_future(f).test()
    to.assert_empty()
    f.set_result(7)
    to.assert_result()


def test_from_future_error_cancel_timeout(sched):
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    f.set_exception(Boom())
    Completable.from_future(f).test().assert_failure(Boom)
    g: concurrent.futures.Future[int] = concurrent.futures.Future()
    g.cancel()
    Completable.from_future(g).test().assert_failure(concurrent.futures.CancelledError)
    h: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Completable.from_future(h, 0.5, sched).test()
    sched.advance_time_by(0.5)
    to.assert_failure(TimeoutError)


def test_from_future_race_result_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds):
        f: concurrent.futures.Future[int] = concurrent.futures.Future()
        to = Completable.from_future(f).test()
        race_runner.race(lambda f=f: f.set_result(1), to.dispose)
        assert to.completions() <= 1 and not to.errors()


def test_from_maybe_and_from_single():
    Completable.from_maybe(Maybe.just(1)).test().assert_result()
    Completable.from_maybe(Maybe.empty()).test().assert_result()
    Completable.from_maybe(Maybe.error(Boom())).test().assert_failure(Boom)
    Completable.from_single(Single.just(1)).test().assert_result()
    Completable.from_single(Single.error(Boom())).test().assert_failure(Boom)
    m, s = ProbeMaybe(), ProbeSingle()
    Completable.from_maybe(m).test().dispose()
    Completable.from_single(s).test().dispose()
    assert m.disposed == 1 and s.disposed == 1


def test_from_publisher_requests_unbounded_and_ignores_items():
    src = ManualSource()
    to = Completable.from_publisher(src).test()
    assert src.requests == [2**63 - 1]
    src.emit(1, 2, 3)
    to.assert_empty()
    src.complete()
    to.assert_result()


def test_from_publisher_error_and_dispose():
    Completable.from_publisher(Flowable.error(Boom())).test().assert_failure(Boom)
    src = ManualSource()
    to = Completable.from_publisher(src).test()
    to.dispose()
    assert src.cancelled


def test_from_publisher_dispose_after_the_end_still_cancels():
    src = ManualSource()
    to = Completable.from_publisher(src).test()
    src.complete()
    to.assert_result()
    to.dispose()  # as RxJava 2's dispose: the Subscription is cancelled even after the end
    assert src.cancelled


def test_from_publisher_relays_what_a_broken_publisher_signals_after_its_end():
    # RxJava 2's FromPublisherSubscriber has no done flag: a second terminal signal (§1.7
    # broken by the Publisher) is relayed, not dropped
    class Downstream(CompletableObserver):
        def __init__(self) -> None:
            self.signals: list[object] = []

        def on_subscribe(self, d: Disposable) -> None:
            pass

        def on_complete(self) -> None:
            self.signals.append("complete")

        def on_error(self, e: BaseException) -> None:
            self.signals.append(type(e))

    src = ManualSource()
    down = Downstream()
    Completable.from_publisher(src).subscribe(down)
    src.complete()
    src.complete()
    src.error(Boom())
    assert down.signals == ["complete", "complete", Boom]


def test_from_publisher_many_items():
    Completable.from_publisher(Flowable.range(1, 100_000)).test().assert_result()


def test_materialize():
    Completable.complete().materialize().test().assert_result(Notification.create_on_complete())
    n = Completable.error(Boom()).materialize().blocking_get()
    assert n.is_on_error() and isinstance(n.error, Boom)
    assert isinstance(Completable.complete().materialize(), Single)
    c = ProbeCompletable()
    c.materialize().test().dispose()
    assert c.disposed == 1


def test_blocking_get():
    assert Completable.complete().blocking_get() is None
    e = Boom()
    assert Completable.error(e).blocking_get() is e
    assert Completable.timer(0.01).blocking_get(5) is None


def test_blocking_get_timeout_disposes():
    c = ProbeCompletable()
    with pytest.raises(TimeoutError):
        c.blocking_get(0.01)
    assert c.disposed == 1


def test_blocking_get_fatal_error_returned_not_raised():
    # the Completable's own error is returned whatever its class
    e = KeyboardInterrupt()
    assert Completable.error(e).blocking_get() is e


def test_no_undeliverable_errors():
    reported: list[BaseException] = []
    prev = plugins.get_error_handler()
    plugins.set_error_handler(reported.append)
    try:
        Completable.from_publisher(Flowable.just(1, 2)).test().assert_result()
        Completable.from_single(Single.just(1)).test().assert_result()
    finally:
        plugins.set_error_handler(prev)
    assert reported == []
