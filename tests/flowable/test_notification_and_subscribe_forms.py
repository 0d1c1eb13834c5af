"""The Flowable overloads of RxJava 2.2.21 that issue 30 ported: flat_map's notification
form, flat_map_iterable's combiner, do_on_each(on_notification=), subscribe's
on_subscribe, blocking_subscribe's buffer_size and Subscriber forms."""

from __future__ import annotations

import threading

import pytest
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.notification import Notification
from rxpy2.schedulers import Schedulers

# ------------------------------------------------------------------------- flat_map notifications


def _notifications(src, **kw):
    return src.flat_map(lambda x: Flowable.just(x, x * 10),
                        on_error_mapper=lambda e: Flowable.just(f"error {e}"),
                        on_complete_supplier=lambda: Flowable.just("end"), **kw)


def test_flat_map_notifications_items_and_completion():
    _notifications(Flowable.just(1, 2)).test().assert_result(1, 10, 2, 20, "end")


def test_flat_map_notifications_error_becomes_a_publisher():
    src = Flowable.just(1).concat_with(Flowable.error(ValueError("boom")))
    _notifications(src).test().assert_result(1, 10, "error boom")


def test_flat_map_notifications_max_concurrency_is_the_upstream_request():
    src = ManualSource()
    ts = _notifications(src, max_concurrency=2).test()
    assert src.requests == [2]
    src.emit(1)
    src.complete()
    ts.assert_result(1, 10, "end")


def test_flat_map_notifications_default_requests_128():
    src = ManualSource()
    _notifications(src).test()
    assert src.requests == [128]


def test_flat_map_notifications_the_last_publisher_waits_for_demand():
    src = ManualSource()
    ts = src.flat_map(lambda x: Flowable.just(x, x * 10),
                      on_error_mapper=Flowable.error,
                      on_complete_supplier=lambda: Flowable.from_iterable(["end"])).test(0)
    src.emit(1)
    src.complete()
    ts.assert_no_values()
    ts.request(2)
    ts.assert_values(1, 10).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 10, "end")


def test_flat_map_notifications_mapper_raising_cancels_the_upstream():
    src = ManualSource()

    def bad(x):
        raise KeyError(x)

    ts = src.flat_map(bad, on_error_mapper=lambda e: Flowable.empty(),
                      on_complete_supplier=Flowable.empty).test()
    src.emit(1)
    ts.assert_failure(KeyError)
    assert src.cancels == 1


def test_flat_map_notifications_error_mapper_raising_keeps_both_errors():
    def bad(e):
        raise KeyError("mapper")

    ts = Flowable.error(ValueError("boom")).flat_map(
        Flowable.just, on_error_mapper=bad, on_complete_supplier=Flowable.empty).test()
    ts.assert_failure(CompositeException)
    assert [type(e) for e in ts.errors()[0].exceptions] == [ValueError, KeyError]


def test_flat_map_notifications_complete_supplier_raising_or_returning_none():
    def bad():
        raise KeyError("supplier")

    (Flowable.just(1).flat_map(Flowable.just, on_error_mapper=Flowable.error,
                               on_complete_supplier=bad)
        .test().assert_failure(KeyError, 1))
    (Flowable.just(1).flat_map(Flowable.just, on_error_mapper=Flowable.error,
                               on_complete_supplier=lambda: None)
        .test().assert_failure(TypeError, 1))


def test_flat_map_notifications_cancel_cancels_the_upstream():
    src = ManualSource()
    ts = _notifications(src).test()
    src.emit(1)
    ts.cancel()
    assert src.cancels == 1
    src.complete()
    ts.assert_values(1, 10).assert_not_complete()


def test_flat_map_notifications_arguments_checked_at_assembly():
    f = Flowable.just(1)
    with pytest.raises(TypeError, match="both"):
        f.flat_map(Flowable.just, on_error_mapper=Flowable.error)
    with pytest.raises(TypeError, match="both"):
        f.flat_map(Flowable.just, on_complete_supplier=Flowable.empty)
    with pytest.raises(TypeError):
        f.flat_map(Flowable.just, on_error_mapper=1, on_complete_supplier=Flowable.empty)
    with pytest.raises(TypeError, match="combiner"):
        f.flat_map(Flowable.just, combiner=lambda a, b: a, on_error_mapper=Flowable.error,
                   on_complete_supplier=Flowable.empty)
    with pytest.raises(ValueError):
        f.flat_map(Flowable.just, 0, on_error_mapper=Flowable.error,
                   on_complete_supplier=Flowable.empty)
    with pytest.raises(TypeError, match="on_error_mapper=..., on_complete_supplier="):
        f.flat_map(Flowable.just, Flowable.error, Flowable.empty)  # RxJava's positional form


# ------------------------------------------------------------------------- flat_map_iterable combiner


def test_flat_map_iterable_combiner():
    (Flowable.just(1, 2).flat_map_iterable(lambda x: ["a", "b"], lambda t, u: f"{t}{u}")
        .test().assert_result("1a", "1b", "2a", "2b"))
    (Flowable.just(1).flat_map_iterable(lambda x: [x], combiner=lambda t, u: t + u, prefetch=2)
        .test().assert_result(2))
    (Flowable.just(3).flat_map_iterable(lambda x: [x], lambda t, u: t * u, 2)
        .test().assert_result(9))


def test_flat_map_iterable_prefetch_positional_still_works():
    Flowable.just(1, 2).flat_map_iterable(lambda x: [x, x], 4).test().assert_result(1, 1, 2, 2)


def test_flat_map_iterable_combiner_is_a_flat_map_of_128_upstream():
    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: [x], lambda t, u: (t, u)).test()
    assert src.requests[0] == 128  # RxJava: flatMap(..., maxConcurrency=bufferSize())
    src.emit(1)
    src.complete()
    ts.assert_result((1, 1))


def test_flat_map_iterable_combiner_errors():
    def bad(t, u):
        raise KeyError(u)

    src = ManualSource()
    ts = src.flat_map_iterable(lambda x: [x], bad).test()
    src.emit(1)
    ts.assert_failure(KeyError)
    assert src.cancels == 1
    (Flowable.just(1).flat_map_iterable(lambda x: None, lambda t, u: u)
        .test().assert_failure(TypeError))


def test_flat_map_iterable_combiner_arguments_checked_at_assembly():
    f = Flowable.just(1)
    with pytest.raises(TypeError):
        f.flat_map_iterable(lambda x: [x], "combiner", 2)
    with pytest.raises(ValueError):
        f.flat_map_iterable(lambda x: [x], lambda t, u: u, 0)
    with pytest.raises(TypeError):
        f.flat_map_iterable(lambda x: [x], lambda t, u: u, combiner=lambda t, u: t)
    with pytest.raises(TypeError):
        f.flat_map_iterable(lambda x: [x], lambda t, u: u, 2, 3)


# ------------------------------------------------------------------------- do_on_each(on_notification=)


def test_do_on_each_notifications():
    seen = []
    Flowable.just(1, 2).do_on_each(on_notification=seen.append).test().assert_result(1, 2)
    assert seen == [Notification.create_on_next(1), Notification.create_on_next(2),
                    Notification.create_on_complete()]
    seen.clear()
    err = ValueError("boom")
    Flowable.error(err).do_on_each(on_notification=seen.append).test().assert_failure(ValueError)
    assert seen == [Notification.create_on_error(err)]


def test_do_on_each_notification_raising_on_an_item_cancels_the_upstream():
    src = ManualSource()

    seen = []

    def bad(n):
        seen.append(n)
        if n.is_on_next():
            raise KeyError("consumer")

    ts = src.do_on_each(on_notification=bad).test()
    src.emit(1)
    ts.assert_failure(KeyError)
    assert src.cancels == 1
    assert [type(n.error) for n in seen[1:]] == [KeyError]  # then told of its own error


def test_do_on_each_notification_arguments_checked_at_assembly():
    with pytest.raises(TypeError):
        Flowable.just(1).do_on_each(on_notification=1)
    with pytest.raises(TypeError, match="no other callbacks"):
        Flowable.just(1).do_on_each(print, on_notification=print)


# ------------------------------------------------------------------------- subscribe(..., on_subscribe)


def test_subscribe_on_subscribe_decides_the_requests():
    src = ManualSource()
    got = []
    d = src.subscribe(got.append, None, lambda: got.append("done"), lambda s: s.request(2))
    assert src.requests == [2]
    src.emit(1, 2)
    d.request(1)
    assert src.requests == [2, 1]
    src.emit(3)
    src.complete()
    assert got == [1, 2, 3, "done"]


def test_subscribe_on_subscribe_that_requests_nothing():
    src = ManualSource()
    src.subscribe(print, on_subscribe=lambda s: None)
    assert src.requests == []


def test_subscribe_on_subscribe_raising_cancels_and_reaches_on_error():
    src = ManualSource()
    errors = []

    def bad(s):
        raise KeyError("on_subscribe")

    src.subscribe(print, errors.append, None, bad)
    assert src.cancels == 1
    assert [type(e) for e in errors] == [KeyError]


def test_subscribe_on_subscribe_checked():
    with pytest.raises(TypeError):
        Flowable.just(1).subscribe(print, None, None, 3)


# ------------------------------------------------------------------------- blocking_subscribe


def test_blocking_subscribe_buffer_size_requests():
    requests, got = [], []
    Flowable.range(1, 10).do_on_request(requests.append).blocking_subscribe(got.append,
                                                                            buffer_size=4)
    assert got == list(range(1, 11))
    assert requests == [4, 3, 3, 3]  # then three quarters of it at a time


def test_blocking_subscribe_buffer_size_with_all_callbacks():
    got = []
    Flowable.just(1, 2).blocking_subscribe(got.append, got.append, lambda: got.append("c"), 1)
    assert got == [1, 2, "c"]
    Flowable.error(ValueError("x")).blocking_subscribe(got.append, got.append, buffer_size=2)
    assert isinstance(got[-1], ValueError)


def test_blocking_subscribe_buffer_size_checked():
    with pytest.raises(ValueError):
        Flowable.just(1).blocking_subscribe(print, buffer_size=0)


class Recorder:
    def __init__(self, first=1, more=1, cancel_at=None):
        self.events, self.threads = [], set()
        self.first, self.more, self.cancel_at = first, more, cancel_at

    def on_subscribe(self, s):
        self.s = s
        self.threads.add(threading.get_ident())
        self.events.append("subscribed")
        s.request(self.first)

    def on_next(self, x):
        self.threads.add(threading.get_ident())
        self.events.append(x)
        if x == self.cancel_at:
            self.s.cancel()
        elif self.more:
            self.s.request(self.more)

    def on_error(self, e):
        self.events.append(type(e).__name__)

    def on_complete(self):
        self.threads.add(threading.get_ident())
        self.events.append("done")


def test_blocking_subscribe_subscriber_gets_the_signals_on_the_calling_thread():
    r = Recorder()
    Flowable.range(1, 3).subscribe_on(Schedulers.computation()).blocking_subscribe(r)
    assert r.events == ["subscribed", 1, 2, 3, "done"]
    assert r.threads == {threading.get_ident()}


def test_blocking_subscribe_subscriber_requests_pass_through():
    requests = []
    r = Recorder(first=2, more=0, cancel_at=2)
    Flowable.range(1, 10).do_on_request(requests.append).blocking_subscribe(r)
    assert r.events == ["subscribed", 1, 2]  # cancelled: returns without a terminal signal
    assert requests == [2]


def test_blocking_subscribe_subscriber_error():
    r = Recorder()
    Flowable.just(1).concat_with(Flowable.error(KeyError("x"))).blocking_subscribe(r)
    assert r.events == ["subscribed", 1, "KeyError"]


def test_blocking_subscribe_subscriber_takes_no_callbacks():
    with pytest.raises(TypeError, match="no callbacks"):
        Flowable.just(1).blocking_subscribe(Recorder(), print)
