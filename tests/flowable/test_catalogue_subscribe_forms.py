"""Flowable.for_each / for_each_while / safe_subscribe (RxJava 2's forEach, forEachWhile with
ForEachWhileSubscriber, safeSubscribe with SafeSubscriber)."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Boom
from probes import Manual

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import race


def cause(e: BaseException) -> BaseException:
    """The error inside an ``UndeliverableException`` (plugins wrap what is not a bug)."""
    return e.__cause__ if type(e).__name__ == "UndeliverableException" and e.__cause__ else e

# ---------------------------------------------------------------- for_each


def test_for_each_calls_for_every_item_and_returns_the_disposable():
    seen: list[int] = []
    d = Flowable.range(1, 5).for_each(seen.append)
    assert seen == [1, 2, 3, 4, 5]
    assert d.is_disposed()


def test_for_each_dispose_stops_the_items():
    src = Manual()
    seen: list[int] = []
    d = src.for_each(seen.append)
    assert src.probe.requests == [LONG_MAX]
    src.subscriber.on_next(1)
    d.dispose()
    assert src.probe.cancelled


def test_for_each_without_on_error_reports_the_error(plugin_errors):
    Flowable.error(Boom()).for_each(lambda x: None)
    assert len(plugin_errors) == 1
    assert isinstance(plugin_errors[0], OnErrorNotImplementedException)
    assert isinstance(plugin_errors[0].__cause__, Boom)


@pytest.mark.parametrize("bad", [None, 1])
def test_for_each_checks_its_argument(bad):
    with pytest.raises(TypeError):
        Flowable.just(1).for_each(bad)


# ---------------------------------------------------------------- for_each_while


def test_for_each_while_stops_at_the_first_false_and_calls_on_complete():
    src = Manual()
    seen: list[Any] = []
    d = src.for_each_while(lambda x: seen.append(x) or x < 2, seen.append,
                           lambda: seen.append("done"))
    assert src.probe.requests == [LONG_MAX]
    for i in (1, 2, 3):
        src.subscriber.on_next(i)
    src.subscriber.on_complete()
    assert seen == [1, 2, "done"]
    assert src.probe.cancelled
    assert d.is_disposed()


def test_for_each_while_runs_to_the_end_when_always_true():
    seen: list[Any] = []
    Flowable.range(1, 3).for_each_while(lambda x: seen.append(x) or True,
                                        on_complete=lambda: seen.append("done"))
    assert seen == [1, 2, 3, "done"]


def test_for_each_while_raising_predicate_cancels_and_goes_to_on_error():
    src = Manual()
    errors: list[BaseException] = []

    def pred(x: int) -> bool:
        if x == 2:
            raise Boom()
        return True

    src.for_each_while(pred, errors.append)
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    assert src.probe.cancelled
    assert len(errors) == 1 and isinstance(errors[0], Boom)
    src.subscriber.on_next(3)  # after the end: ignored
    assert len(errors) == 1


def test_for_each_while_error_after_the_end_is_undeliverable(plugin_errors):
    src = Manual()
    src.for_each_while(lambda x: False, lambda e: None)
    src.subscriber.on_next(1)
    src.subscriber.on_error(Boom())
    assert len(plugin_errors) == 1 and isinstance(cause(plugin_errors[0]), Boom)


def test_for_each_while_raising_callbacks_are_reported(plugin_errors):
    def bad_error(e: BaseException) -> None:
        raise ValueError("in on_error")

    def bad_complete() -> None:
        raise KeyError("in on_complete")

    Flowable.error(Boom()).for_each_while(lambda x: True, bad_error)
    Flowable.empty().for_each_while(lambda x: True, on_complete=bad_complete)
    assert isinstance(plugin_errors[0], CompositeException)
    assert [type(e) for e in plugin_errors[0].exceptions] == [Boom, ValueError]
    assert isinstance(cause(plugin_errors[1]), KeyError)


def test_for_each_while_without_on_error(plugin_errors):
    Flowable.error(Boom()).for_each_while(lambda x: True)
    assert isinstance(plugin_errors[0], OnErrorNotImplementedException)


@pytest.mark.parametrize("args", [(None,), (1,), (lambda x: True, 1), (lambda x: True, None, 1)])
def test_for_each_while_checks_its_arguments(args):
    with pytest.raises(TypeError):
        Flowable.just(1).for_each_while(*args)


def _one_dispose_race() -> None:
    src = Manual()
    seen: list[int] = []
    d = src.for_each_while(lambda x: seen.append(x) or True)

    def emit() -> None:
        for i in range(50):
            src.subscriber.on_next(i)

    race(emit, d.dispose)
    assert src.probe.cancelled
    assert seen == list(range(len(seen)))  # in order, none twice


def test_for_each_while_dispose_races_items():
    for _ in range(200):
        _one_dispose_race()


# ---------------------------------------------------------------- safe_subscribe


class Recording(Subscriber[Any]):
    def __init__(self, fail_on: str | None = None, request: int = LONG_MAX) -> None:
        self.events: list[Any] = []
        self.fail_on = fail_on
        self.initial = request
        self.subscription: Subscription | None = None

    def _maybe_fail(self, name: str) -> None:
        if self.fail_on == name:
            raise Boom(name)

    def on_subscribe(self, s: Subscription) -> None:
        self.subscription = s
        self.events.append("subscribe")
        self._maybe_fail("on_subscribe")
        s.request(self.initial)

    def on_next(self, item: Any) -> None:
        self.events.append(item)
        self._maybe_fail("on_next")

    def on_error(self, error: BaseException) -> None:
        self.events.append(("error", type(error).__name__))
        self._maybe_fail("on_error")

    def on_complete(self) -> None:
        self.events.append("complete")
        self._maybe_fail("on_complete")


def test_safe_subscribe_passes_everything_through():
    r = Recording(request=2)
    Flowable.range(1, 5).safe_subscribe(r)
    assert r.events == ["subscribe", 1, 2]
    assert r.subscription is not None
    r.subscription.request(10)
    assert r.events == ["subscribe", 1, 2, 3, 4, 5, "complete"]


def test_safe_subscribe_raising_on_next_cancels_and_becomes_on_error():
    src = Manual()
    r = Recording(fail_on="on_next")
    src.safe_subscribe(r)
    src.subscriber.on_next(1)
    assert src.probe.cancelled
    assert r.events == ["subscribe", 1, ("error", "Boom")]
    src.subscriber.on_next(2)
    src.subscriber.on_complete()
    assert r.events == ["subscribe", 1, ("error", "Boom")]


def test_safe_subscribe_raising_on_subscribe_cancels_and_reports(plugin_errors):
    src = Manual()
    src.safe_subscribe(Recording(fail_on="on_subscribe"))
    assert src.probe.cancelled
    assert len(plugin_errors) == 1 and isinstance(cause(plugin_errors[0]), Boom)


def test_safe_subscribe_raising_terminal_callbacks_are_reported(plugin_errors):
    Flowable.error(KeyError("x")).safe_subscribe(Recording(fail_on="on_error"))
    Flowable.empty().safe_subscribe(Recording(fail_on="on_complete"))
    assert isinstance(plugin_errors[0], CompositeException)
    assert [type(e) for e in plugin_errors[0].exceptions] == [KeyError, Boom]
    assert isinstance(cause(plugin_errors[1]), Boom)


def test_safe_subscribe_none_item_becomes_an_error():
    src = Manual()
    r = Recording()
    src.safe_subscribe(r)
    src.subscriber.on_next(None)
    assert src.probe.cancelled
    assert r.events == ["subscribe", ("error", "TypeError")]


def test_safe_subscribe_signal_before_on_subscribe_is_an_error():
    class Rude(Flowable[Any]):
        def subscribe_actual(self, subscriber: Any) -> None:
            subscriber.on_next(1)
            subscriber.on_complete()

    r = Recording()
    Rude().safe_subscribe(r)
    assert r.events == ["subscribe", ("error", "ProtocolViolationException")]


def test_safe_subscribe_checks_its_argument():
    with pytest.raises(TypeError):
        Flowable.just(1).safe_subscribe(None)  # type: ignore[arg-type]


class _RaisingUpstream(Flowable[Any]):
    """Hands out a Subscription whose ``request`` (with ``fail_request``) and ``cancel``
    raise; ``subscriber`` is kept to signal with."""

    def __init__(self, fail_request: bool = False) -> None:
        self.fail_request = fail_request
        self.subscriber: Any = None
        self.cancels = 0

    def subscribe_actual(self, subscriber: Any) -> None:
        owner = self

        class _Sub(Subscription):
            def request(self, n: int) -> None:
                if owner.fail_request:
                    raise KeyError("request")

            def cancel(self) -> None:
                owner.cancels += 1
                raise ValueError("cancel")

        self.subscriber = subscriber
        subscriber.on_subscribe(_Sub())


def test_safe_subscribe_a_raising_cancel_joins_the_error_it_was_for(plugin_errors):
    # on_next raised: the wrapped on_error gets both errors
    src = _RaisingUpstream()
    r = Recording(fail_on="on_next")
    src.safe_subscribe(r)
    src.subscriber.on_next(1)
    assert src.cancels == 1
    assert r.events == ["subscribe", 1, ("error", "CompositeException")]
    # a None item: the same, with the TypeError first
    src = _RaisingUpstream()
    r2 = Recording()
    errors: list[BaseException] = []
    r2.on_error = errors.append  # type: ignore[method-assign]
    src.safe_subscribe(r2)
    src.subscriber.on_next(None)
    assert [type(e) for e in errors[0].exceptions] == [TypeError, ValueError]  # type: ignore[attr-defined]
    # on_subscribe raised, then request raised: the plugins get both errors each time
    src = _RaisingUpstream()
    src.safe_subscribe(Recording(fail_on="on_subscribe"))
    src = _RaisingUpstream(fail_request=True)
    src.safe_subscribe(Recording())
    assert [[type(e) for e in cause(p).exceptions] for p in plugin_errors] == [  # type: ignore[attr-defined]
        [Boom, ValueError], [KeyError, ValueError]]
