"""ParallelFlowable.subscribe([...]): a rail's entry that is not a Subscriber is a
TypeError at the call, before any rail is subscribed (as Flowable.subscribe), not a
report to plugins.on_error that leaves the valid rails hanging."""

from __future__ import annotations

from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import TestSubscriber


class Foreign:
    """Another library's Subscriber: the four methods, no rxpy2 base class."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.completed = False

    def on_subscribe(self, s: Any) -> None:
        s.request(1 << 62)

    def on_next(self, item: Any) -> None:
        self.values.append(item)

    def on_error(self, e: BaseException) -> None:
        raise AssertionError(e)

    def on_complete(self) -> None:
        self.completed = True


class Seen(Subscriber[Any]):
    def __init__(self) -> None:
        self.subscribed = False

    def on_subscribe(self, s: Subscription) -> None:
        self.subscribed = True

    def on_next(self, item: Any) -> None:
        pass

    def on_error(self, e: BaseException) -> None:
        pass

    def on_complete(self) -> None:
        pass


@pytest.mark.parametrize("bad", [object(), 42, "ts", lambda x: x, None],
                         ids=["object", "int", "str", "callable", "None"])
@pytest.mark.parametrize("at", [0, 1])
def test_a_non_subscriber_is_a_type_error_before_any_rail_is_subscribed(bad, at, plugin_errors):
    good = Seen()
    subs: list[Any] = [good, good]
    subs[at] = bad
    subscribed = []
    source = Flowable.range(0, 10).do_on_subscribe(subscribed.append).parallel(2)
    with pytest.raises(TypeError, match=rf"subscribers\[{at}\]"):
        source.subscribe(subs)
    assert not good.subscribed
    assert subscribed == []  # the upstream was never subscribed
    assert plugin_errors == []


def test_the_message_names_the_type():
    with pytest.raises(TypeError, match="must be a Subscriber.*not int"):
        Flowable.range(0, 4).parallel(2).subscribe([TestSubscriber(), 42])  # type: ignore[list-item]


def test_a_subscriber_of_another_library_is_accepted():
    a, b = Foreign(), Foreign()
    Flowable.range(0, 10).parallel(2).subscribe([a, b])  # type: ignore[list-item]
    assert sorted(a.values + b.values) == list(range(10))
    assert a.completed and b.completed
