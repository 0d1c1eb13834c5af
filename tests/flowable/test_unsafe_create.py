"""Flowable.unsafe_create: the function gets the subscriber itself (RxJava 2's unsafeCreate)."""

from __future__ import annotations

import pytest
from probes import Boom

from rxpy2 import Flowable
from rxpy2 import Subscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.processors import PublishProcessor
from rxpy2.testing import TestSubscriber


def test_the_function_gets_the_subscriber_itself():
    seen = []

    def source(s):
        seen.append(s)
        s.on_subscribe(EmptySubscription.INSTANCE)
        s.on_next(1)
        s.on_next(2)
        s.on_complete()

    f = Flowable.unsafe_create(source)
    ts = TestSubscriber()
    f.subscribe(ts)
    ts.assert_result(1, 2)
    assert seen == [ts]  # no emitter, no wrapper between


def test_no_protection():
    def source(s):
        s.on_subscribe(EmptySubscription.INSTANCE)
        s.on_complete()
        s.on_next(3)  # not filtered: the source keeps the protocol or not

    ts = TestSubscriber()
    Flowable.unsafe_create(source).subscribe(ts)
    assert ts.values() == [3]


def test_a_raising_function_signals_the_error():
    def source(s):
        raise Boom()

    Flowable.unsafe_create(source).test().assert_failure(Boom)


def test_a_plain_subscriber_is_still_held_to_the_spec():
    class Plain(Subscriber):
        def __init__(self):
            self.items = []

        def on_subscribe(self, s):
            s.request(5)

        def on_next(self, item):
            self.items.append(item)

        def on_error(self, error):
            pass

        def on_complete(self):
            self.items.append("done")

    def source(s):
        s.on_subscribe(EmptySubscription.INSTANCE)
        s.on_complete()
        s.on_next(3)

    p = Plain()
    Flowable.unsafe_create(source).subscribe(p)
    assert p.items == ["done"]  # StrictSubscriber drops the item after the terminal signal


def test_a_foreign_publisher_is_taken_as_from_publisher():
    pp = PublishProcessor()

    class Foreign:
        def subscribe(self, s):
            pp.subscribe(s)

    from rxpy2.reactivestreams import Publisher
    Publisher.register(Foreign)
    ts = Flowable.unsafe_create(Foreign()).test()
    pp.on_next(1)
    pp.on_complete()
    ts.assert_result(1)


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.unsafe_create(None)
    with pytest.raises(TypeError):
        Flowable.unsafe_create(42)
    with pytest.raises(TypeError, match="Flowable itself"):
        Flowable.unsafe_create(Flowable.just(1))
