"""§2.13: map/filter facing a foreign Publisher (not a Flowable) raise TypeError for None
signals, to the caller, instead of passing them on."""

from __future__ import annotations

import pytest
from probes import ProbeSubscription

from rxpy2 import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber


class Foreign(Publisher[int]):
    """A minimal Publisher that is not a Flowable: it keeps the Subscriber it gets."""

    def __init__(self) -> None:
        self.subscriber: Subscriber[int] | None = None

    def subscribe(self, subscriber: Subscriber[int]) -> None:
        self.subscriber = subscriber


def _subscribed(chain):
    p = Foreign()
    ts = chain(Flowable.from_publisher(p)).test()
    assert p.subscriber is not None
    return p, ts


@pytest.mark.parametrize("chain", [lambda f: f.map(lambda x: x + 1),
                                   lambda f: f.filter(lambda x: True)],
                         ids=["map", "filter"])
def test_on_subscribe_none_raises_type_error(chain):
    p, ts = _subscribed(chain)
    with pytest.raises(TypeError, match="2.13"):
        p.subscriber.on_subscribe(None)  # type: ignore[arg-type,union-attr]
    ts.assert_no_values().assert_no_errors().assert_not_complete()


@pytest.mark.parametrize("chain", [lambda f: f.map(lambda x: x + 1),
                                   lambda f: f.filter(lambda x: True)],
                         ids=["map", "filter"])
def test_on_next_none_raises_type_error(chain):
    p, ts = _subscribed(chain)
    s = ProbeSubscription()
    p.subscriber.on_subscribe(s)  # type: ignore[union-attr]
    p.subscriber.on_next(1)  # type: ignore[union-attr]
    with pytest.raises(TypeError, match="2.13"):
        p.subscriber.on_next(None)  # type: ignore[arg-type,union-attr]
    assert len(ts.values()) == 1  # the item before; nothing for the None
    ts.assert_no_errors().assert_not_complete()


def test_map_on_next_none_does_not_reach_the_mapper():
    p = Foreign()
    seen: list[object] = []
    Flowable.from_publisher(p).map(lambda x: seen.append(x) or x).test()
    p.subscriber.on_subscribe(ProbeSubscription())  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        p.subscriber.on_next(None)  # type: ignore[arg-type,union-attr]
    assert seen == []


def test_map_on_error_none_raises_type_error():
    p, ts = _subscribed(lambda f: f.map(lambda x: x))
    p.subscriber.on_subscribe(ProbeSubscription())  # type: ignore[union-attr]
    with pytest.raises(TypeError, match="2.13"):
        p.subscriber.on_error(None)  # type: ignore[arg-type,union-attr]
    ts.assert_no_errors().assert_not_complete()


def test_map_second_on_subscribe_is_cancelled(plugin_errors):
    p, ts = _subscribed(lambda f: f.map(lambda x: x))
    first, second = ProbeSubscription(), ProbeSubscription()
    p.subscriber.on_subscribe(first)  # type: ignore[union-attr]
    p.subscriber.on_subscribe(second)  # type: ignore[union-attr]
    assert second.cancelled and not first.cancelled
    assert len(plugin_errors) == 1  # §2.5 reported
