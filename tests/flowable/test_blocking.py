"""Flowable.blocking_iterable / __iter__ / blocking_subscribe."""

from __future__ import annotations

import threading

import pytest
from _fusion_probes import FusionProbe
from _fusion_probes import assert_no_new_threads
from _fusion_probes import rxpy2_threads
from probes import Boom

from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2 import Subscriber
from rxpy2 import Subscription
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import SYNC
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers


class ItemsThenError(Flowable):
    """Emits ``items`` then ``error`` on the first request, ignoring its amount."""

    def __init__(self, items, error) -> None:
        self.items = items
        self.failure = error
        self.cancelled = 0

    def subscribe_actual(self, subscriber: Subscriber) -> None:
        src = self

        class S(Subscription):
            done = False

            def request(self, n):
                if self.done:
                    return
                self.done = True
                for x in src.items:
                    subscriber.on_next(x)
                if src.failure is not None:
                    subscriber.on_error(src.failure)
                else:
                    subscriber.on_complete()

            def cancel(self):
                src.cancelled += 1

        subscriber.on_subscribe(S())


class ThreadedRange(Flowable):
    """Emits 0..count-1 from its own thread, never more than requested."""

    def __init__(self, count: int) -> None:
        self.n = count
        self.threads: list[threading.Thread] = []
        self.requests: list[int] = []
        self.cancelled = threading.Event()

    def subscribe_actual(self, subscriber: Subscriber) -> None:
        src = self
        cond = threading.Condition()
        state = {"requested": 0}

        class S(Subscription):
            def request(self, n):
                src.requests.append(n)
                with cond:
                    state["requested"] += n
                    cond.notify()

            def cancel(self):
                src.cancelled.set()
                with cond:
                    cond.notify()

        def run():
            i = 0
            while i < src.n:
                with cond:
                    while state["requested"] == 0 and not src.cancelled.is_set():
                        cond.wait()
                    if src.cancelled.is_set():
                        return
                    k = min(state["requested"], src.n - i)
                    state["requested"] -= k
                for _ in range(k):
                    if src.cancelled.is_set():
                        return
                    subscriber.on_next(i)
                    i += 1
            subscriber.on_complete()

        subscriber.on_subscribe(S())
        t = threading.Thread(target=run, name="test-threaded-range", daemon=True)
        self.threads.append(t)
        t.start()

    def join(self) -> None:
        for t in self.threads:
            t.join(10)
            assert not t.is_alive()


# ---------------------------------------------------------------- blocking_iterable

def test_iterates_all_items_with_replenishing_requests():
    requests = []
    items = list(Flowable.range(0, 1000).do_on_request(requests.append).blocking_iterable(16))
    assert items == list(range(1000))
    assert requests[0] == 16
    assert requests[1:] == [12] * (1000 // 12)


def test_iter_protocol_on_flowable():
    assert list(Flowable.range(1, 5)) == [1, 2, 3, 4, 5]
    assert [x * 2 for x in Flowable.just(1, 2, 3)] == [2, 4, 6]


def test_iterable_subscribes_per_iter():
    subs = []
    it = Flowable.range(1, 3).do_on_subscribe(subs.append).blocking_iterable(4)
    assert subs == []
    assert list(it) == [1, 2, 3]
    assert list(it) == [1, 2, 3]
    assert len(subs) == 2


def test_buffer_size_one():
    requests = []
    items = list(Flowable.range(0, 5).do_on_request(requests.append).blocking_iterable(1))
    assert items == [0, 1, 2, 3, 4]
    assert requests == [1] * 6


def test_bad_buffer_size():
    with pytest.raises(ValueError):
        Flowable.range(1, 2).blocking_iterable(0)
    with pytest.raises(TypeError):
        Flowable.range(1, 2).blocking_iterable(None)


def test_break_cancels_upstream():
    cancels = []
    requests = []
    src = Flowable.range(0, 1000).do_on_request(requests.append) \
        .do_on_cancel(lambda: cancels.append(1))
    got = []
    for x in src.blocking_iterable(16):
        got.append(x)
        if x == 4:
            break
    assert got == [0, 1, 2, 3, 4]
    assert cancels == [1]
    assert requests == [16]


def test_close_and_context_manager_cancel_upstream():
    cancels = []
    src = Flowable.range(0, 100).do_on_cancel(lambda: cancels.append(1))
    it = iter(src.blocking_iterable(8))
    assert next(it) == 0
    it.close()
    assert cancels == [1]
    with pytest.raises(StopIteration):
        next(it)
    it.close()
    assert cancels == [1]
    with iter(src.blocking_iterable(8)) as it2:
        assert next(it2) == 0
    assert cancels == [1, 1]


def test_generator_close_cancels_upstream():
    cancels = []
    src = Flowable.range(0, 100).do_on_cancel(lambda: cancels.append(1))

    def gen():
        yield from src.blocking_iterable(8)

    g = gen()
    assert next(g) == 0
    g.close()
    assert cancels == [1]


def test_unstarted_iterator_dropped_cancels_upstream():
    cancels = []
    it = iter(Flowable.range(0, 100).do_on_cancel(lambda: cancels.append(1))
              .blocking_iterable(8))
    del it
    assert cancels == [1]


def test_error_after_buffered_items():
    src = ItemsThenError([1, 2, 3], Boom())
    it = iter(src.blocking_iterable(8))
    got = []
    with pytest.raises(Boom):
        for x in it:
            got.append(x)
    assert got == [1, 2, 3]
    with pytest.raises(StopIteration):
        next(it)


def test_source_ignoring_backpressure_is_missing_backpressure():
    src = ItemsThenError(list(range(10)), None)
    got = []
    with pytest.raises(MissingBackpressureException):
        for x in src.blocking_iterable(4):
            got.append(x)
    assert got == [0, 1, 2, 3]
    assert src.cancelled == 1


def test_items_from_another_thread():
    src = ThreadedRange(5000)
    assert list(src.blocking_iterable(8)) == list(range(5000))
    src.join()
    assert src.requests[0] == 8 and set(src.requests[1:]) == {6}


def test_items_from_another_thread_many_rounds():
    for _ in range(50):
        src = ThreadedRange(200)
        assert sum(src.blocking_iterable(2)) == sum(range(200))
        src.join()


def test_break_cancels_threaded_upstream():
    src = ThreadedRange(10**9)
    for x in src.blocking_iterable(16):
        if x == 100:
            break
    assert src.cancelled.is_set()
    src.join()


def test_error_from_another_thread():
    class Late(Flowable):
        def subscribe_actual(self, subscriber):
            class S(Subscription):
                def request(self, n):
                    pass

                def cancel(self):
                    pass

            subscriber.on_subscribe(S())

            def run():
                subscriber.on_next(1)
                subscriber.on_error(Boom())

            self.t = threading.Thread(target=run, name="test-late-error")
            self.t.start()

    src = Late()
    got = []
    with pytest.raises(Boom):
        for x in src.blocking_iterable(4):
            got.append(x)
    src.t.join(10)
    assert got == [1]


# ---------------------------------------------------------------- blocking_subscribe

def test_blocking_subscribe_callbacks_on_calling_thread():
    got = []
    threads = set()

    def on_next(x):
        threads.add(threading.current_thread())
        got.append(x)

    src = ThreadedRange(300)
    src.blocking_subscribe(on_next, None, lambda: got.append("done"))
    src.join()
    assert got == list(range(300)) + ["done"]
    assert threads == {threading.current_thread()}


def test_blocking_subscribe_requests_are_bounded():
    requests = []
    Flowable.range(0, 1000).do_on_request(requests.append).blocking_subscribe()
    assert requests[0] == 128 and LONG_MAX not in requests


def test_blocking_subscribe_error_to_on_error():
    got = []
    e = Boom()
    ItemsThenError([1], e).blocking_subscribe(got.append, got.append, lambda: got.append("x"))
    assert got == [1, e]


def test_blocking_subscribe_error_raised_without_on_error():
    with pytest.raises(Boom):
        ItemsThenError([1], Boom()).blocking_subscribe(lambda x: None)


def test_blocking_subscribe_on_next_raising_cancels():
    cancels = []
    src = Flowable.range(0, 100).do_on_cancel(lambda: cancels.append(1))

    def on_next(x):
        if x == 3:
            raise Boom()

    with pytest.raises(Boom):
        src.blocking_subscribe(on_next)
    assert cancels == [1]
    got = []
    src.blocking_subscribe(on_next, got.append)
    assert [type(e) for e in got] == [Boom] and cancels == [1, 1]


@pytest.mark.parametrize("signal", ["on_subscribe", "on_next", "on_error"])
def test_iterator_subscriber_none_argument_raises_type_error(signal):
    """§2.13 (found by the TCK's blackbox subscriber verification): on_error(None) was taken
    as an error; every None argument raises TypeError to the caller and changes nothing."""
    from rxpy2._internal.operators.flowable.flowable_blocking import BlockingIteratorSubscriber

    sub = BlockingIteratorSubscriber(4)
    with pytest.raises(TypeError):
        getattr(sub, signal)(None)
    assert not sub.done and sub.error is None and sub.queue.is_empty()


# ---------------------------------------------------------------- fusion (issue 6)
# FusionProbe (tests/flowable/_fusion_probes.py) records the modes asked and granted,
# the requests, cancels and polls between a source and the iterator.

SYNC_SOURCES = {
    "range": (lambda: Flowable.range(0, 300), list(range(300))),
    "from_array": (lambda: Flowable.from_array(list(range(300))), list(range(300))),
    "from_iterable": (lambda: Flowable.from_iterable(x for x in range(300)), list(range(300))),
    "just": (lambda: Flowable.just(7), [7]),
    "just_many": (lambda: Flowable.just(1, 2, 3), [1, 2, 3]),
}


@pytest.mark.parametrize("name", list(SYNC_SOURCES))
def test_sync_fused_iteration_polls_the_source_without_requests(name):
    make, expected = SYNC_SOURCES[name]
    probe = FusionProbe(make())
    assert list(probe.blocking_iterable(16)) == expected
    assert probe.asked == [ANY | BOUNDARY]
    assert probe.granted == [SYNC]
    assert probe.requests == []  # no request in SYNC mode, ever
    assert probe.polled == len(expected)
    assert probe.poll_threads == {threading.current_thread()}
    assert probe.cancels == 0  # the end of a SYNC source needs no cancel


def test_sync_fused_iteration_is_lazy():
    """Nothing is pulled before next() (the unfused path prefetches at iter())."""
    probe = FusionProbe(Flowable.range(0, 10))
    it = iter(probe.blocking_iterable())
    assert probe.granted == [SYNC] and probe.polled == 0
    assert next(it) == 0 and probe.polled == 1
    it.close()


def test_for_loop_over_flowable_is_sync_fused():
    probe = FusionProbe(Flowable.range(0, 1000))
    assert sum(x for x in probe) == sum(range(1000))
    assert probe.granted == [SYNC] and probe.requests == []


def test_sync_fused_break_cancels():
    probe = FusionProbe(Flowable.range(0, 1000))
    got = []
    for x in probe:
        got.append(x)
        if x == 3:
            break
    assert got == [0, 1, 2, 3]
    assert probe.cancels == 1
    assert probe.polled == 4


def test_sync_fused_close_and_context_manager():
    probe = FusionProbe(Flowable.range(0, 100))
    it = iter(probe.blocking_iterable())
    assert next(it) == 0
    it.close()
    assert probe.cancels == 1
    with pytest.raises(StopIteration):
        next(it)
    it.close()
    assert probe.cancels == 1
    with iter(probe.blocking_iterable()) as it2:
        assert next(it2) == 0
    assert probe.cancels == 2
    it3 = iter(probe.blocking_iterable())
    del it3  # dropped unstarted
    assert probe.cancels == 3


def test_sync_fused_poll_error_cancels_then_raises():
    from probes import SyncFusedProbe
    src = SyncFusedProbe(10, fail_at=3)
    it = iter(src.blocking_iterable())  # kept referenced: only the error path may cancel
    got = []
    with pytest.raises(ValueError):
        for x in it:
            got.append(x)
    assert got == [0, 1, 2]
    assert src.cancelled == 1
    assert src.requests == []
    with pytest.raises(StopIteration):
        next(it)
    it.close()
    assert src.cancelled == 1


def test_sync_fused_source_errors_raise_in_the_consumer():
    def gen():
        yield 1
        yield 2
        raise Boom()

    got = []
    with pytest.raises(Boom):
        for x in Flowable.from_iterable(gen()):
            got.append(x)
    assert got == [1, 2]
    got = []
    with pytest.raises(TypeError, match="index 1"):
        for x in Flowable.from_array([1, None, 3]):
            got.append(x)
    assert got == [1]


def test_blocking_subscribe_over_a_sync_fused_source():
    got = []
    probe = FusionProbe(Flowable.range(0, 5))
    probe.blocking_subscribe(got.append, None, lambda: got.append("done"))
    assert got == [0, 1, 2, 3, 4, "done"]
    assert probe.granted == [SYNC] and probe.cancels == 0
    errors = []
    FusionProbe(Flowable.range(0, 5), poll_fail_at=2).blocking_subscribe(got.append, errors.append)
    assert [type(e) for e in errors] == [Boom]


def test_map_chain_is_not_fused_across_the_boundary():
    """The iterating thread polls, so a stage with user code refuses fusion (BOUNDARY):
    the chain runs unfused, with the items and the request pattern of the unfused path."""
    probe = FusionProbe(Flowable.range(0, 100))
    threads = set()

    def f(x):
        threads.add(threading.current_thread())
        return x * 2

    assert list(probe.map(f).blocking_iterable(16)) == [x * 2 for x in range(100)]
    assert probe.asked == []  # map refused without asking its upstream
    assert probe.requests[0] == 16 and set(probe.requests[1:]) == {12}
    assert threads == {threading.current_thread()}  # the unfused path requests from here


@pytest.mark.usefixtures("shutdown_schedulers")
def test_user_code_after_observe_on_stays_on_the_worker():
    """Why BOUNDARY: fused ASYNC, map's function would run in poll on the iterating thread;
    refused, it runs on observe_on's worker as written."""
    threads = set()

    def f(x):
        threads.add(threading.current_thread())
        return x + 1

    before = rxpy2_threads()
    out = list(Flowable.range(0, 500).observe_on(Schedulers.new_thread()).map(f)
               .blocking_iterable(16))
    assert out == list(range(1, 501))
    assert threading.current_thread() not in threads and len(threads) == 1
    assert_no_new_threads(before)


def test_async_fused_unicast_processor():
    up = UnicastProcessor()
    probe = FusionProbe(up)
    for i in range(1, 6):
        up.on_next(i)
    up.on_complete()
    assert list(probe.blocking_iterable(4)) == [1, 2, 3, 4, 5]
    assert probe.asked == [ANY | BOUNDARY] and probe.granted == [ASYNC]
    assert probe.requests == [4, 3]  # the request pattern of the unfused path
    assert probe.polled == 5 and probe.cancels == 0


def test_async_fused_unicast_processor_fed_from_another_thread():
    up = UnicastProcessor()
    probe = FusionProbe(up)
    it = iter(probe.blocking_iterable(8))
    assert probe.granted == [ASYNC]

    def produce():
        for i in range(2000):
            up.on_next(i)
        up.on_complete()

    t = threading.Thread(target=produce, name="test-unicast-producer")
    t.start()
    assert list(it) == list(range(2000))
    t.join(10)
    assert probe.poll_threads == {threading.current_thread()}


def test_async_fused_unicast_error_after_items():
    up = UnicastProcessor()
    probe = FusionProbe(up)
    up.on_next(1)
    up.on_next(2)
    up.on_error(Boom())
    got = []
    with pytest.raises(Boom):
        for x in probe.blocking_iterable():
            got.append(x)
    assert got == [1, 2] and probe.granted == [ASYNC]


def test_async_fused_poll_error_cancels_then_raises():
    up = UnicastProcessor()
    probe = FusionProbe(up, poll_fail_at=2)
    for i in range(5):
        up.on_next(i)
    it = iter(probe.blocking_iterable())
    got = []
    with pytest.raises(Boom):
        for x in it:
            got.append(x)
    assert got == [0, 1]
    assert probe.granted == [ASYNC] and probe.cancels == 1
    assert not up.has_subscribers()


@pytest.mark.usefixtures("shutdown_schedulers")
def test_async_fused_observe_on_output():
    before = rxpy2_threads()
    probe = FusionProbe(Flowable.range(0, 3000).observe_on(Schedulers.new_thread(), buffer_size=16))
    assert list(probe.blocking_iterable(32)) == list(range(3000))
    assert probe.granted == [ASYNC]
    assert probe.poll_threads == {threading.current_thread()}
    assert probe.cancels == 0
    assert_no_new_threads(before)


@pytest.mark.usefixtures("shutdown_schedulers")
def test_async_fused_break_cancels_and_leaks_no_thread():
    before = rxpy2_threads()
    cancels = []
    probe = FusionProbe(Flowable.range(0, 10**9).do_on_cancel(lambda: cancels.append(1))
                        .observe_on(Schedulers.new_thread()))
    for x in probe:
        if x == 500:
            break
    assert probe.granted == [ASYNC] and probe.cancels == 1
    assert cancels == [1]
    assert_no_new_threads(before)


def test_async_fused_empty_and_from_callable():
    probe = FusionProbe(Flowable.empty())
    assert list(probe.blocking_iterable()) == []
    assert probe.granted == [ASYNC]  # EmptySubscription: an empty queue
    probe = FusionProbe(Flowable.from_callable(lambda: 42))
    assert list(probe) == [42]
    assert probe.granted == [ASYNC]  # DeferredScalarSubscription
    probe = FusionProbe(Flowable.from_callable(lambda: None))
    assert list(probe) == []
    probe = FusionProbe(Flowable.from_callable(lambda: 1 // 0))
    with pytest.raises(ZeroDivisionError):
        list(probe)


def test_fused_subscription_arriving_late_on_another_thread():
    """on_subscribe after iter() returned (another thread): the waiting iterator picks the
    fused queue up."""
    class LateSubscribe(Flowable):
        def __init__(self, inner):
            self.inner = inner
            self.gate = threading.Event()

        def subscribe_actual(self, subscriber):
            def run():
                self.gate.wait(10)
                self.inner.subscribe(subscriber)
            self.t = threading.Thread(target=run, name="test-late-subscribe")
            self.t.start()

    for inner, expected in ((Flowable.range(0, 50), SYNC), (UnicastProcessor(), ASYNC)):
        probe = FusionProbe(inner)
        if isinstance(inner, UnicastProcessor):
            for i in range(50):
                inner.on_next(i)
            inner.on_complete()
        src = LateSubscribe(probe)
        it = iter(src.blocking_iterable(8))
        src.gate.set()  # on_subscribe comes after iter() returned
        assert list(it) == list(range(50))
        src.t.join(10)
        assert probe.granted == [expected]


def test_stop_iteration_as_the_stream_error_does_not_end_the_loop_silently():
    """PEP 479's rule: a StopIteration error is raised as the cause of a RuntimeError."""
    def f(x):
        if x == 2:
            raise StopIteration
        return x

    up = UnicastProcessor()
    for i in range(5):
        up.on_next(i)
    up.on_complete()
    for src in (Flowable.range(0, 5).map(f).hide(),  # unfused: the error comes by on_error
                FusionProbe(Flowable.range(0, 5), poll_fail_at=2, poll_error=StopIteration),
                FusionProbe(up, poll_fail_at=2, poll_error=StopIteration)):  # SYNC, ASYNC
        got = []
        with pytest.raises(RuntimeError) as ei:
            for x in src:
                got.append(x)
        assert got == [0, 1] and isinstance(ei.value.__cause__, StopIteration)
