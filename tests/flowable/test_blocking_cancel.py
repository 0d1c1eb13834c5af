"""An interrupted blocking bridge cancels its upstream at once; fatal exceptions propagate.

The interrupt is simulated in-process: a signal handler raises ``KeyboardInterrupt`` in
the main thread while it waits inside the bridge, as Ctrl-C's default handler does.
Each test keeps the iterator (and the traceback, through ``pytest.raises``) alive, so
the upstream can only have been cancelled by the bridge itself, not by ``__del__``.
(RxJava has no interrupt of this kind; its blocking operators dispose on
``InterruptedException`` the same way.)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from rxpy2 import Flowable
from rxpy2 import plugins
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX

pytestmark = [
    pytest.mark.usefixtures("shutdown_schedulers"),
    pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs signal.pthread_kill"),
]

#: Bounded waits only: how long a cancellation may take to be seen.
WAIT = 5.0


@contextlib.contextmanager
def interrupt_after(seconds: float) -> Iterator[None]:
    """Raise ``KeyboardInterrupt`` once in the main thread after ``seconds``.

    A real signal (``SIGUSR1``, whose handler raises) is sent to the main thread, so a
    blocked lock acquisition is woken as by Ctrl-C; not SIGALRM, which pytest-timeout
    uses, and not SIGINT, which the test runner may handle.
    """
    main = threading.main_thread()
    assert threading.current_thread() is main
    fired: list[bool] = []

    def handler(signum: int, frame: object) -> None:
        if not fired:
            fired.append(True)
            raise KeyboardInterrupt("simulated Ctrl-C")

    old = signal.signal(signal.SIGUSR1, handler)
    timer = threading.Timer(seconds, signal.pthread_kill, (main.ident, signal.SIGUSR1))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGUSR1, old)


def never_ending() -> tuple[Flowable[int], threading.Event]:
    """A source that never signals, and the event its cancellation sets."""
    cancelled = threading.Event()
    return Flowable.never().do_on_cancel(cancelled.set), cancelled


def ticking() -> tuple[Flowable[int], threading.Event]:
    """An endless ``interval`` on the computation scheduler, and its cancellation event."""
    cancelled = threading.Event()
    return Flowable.interval(0.01).do_on_cancel(cancelled.set), cancelled


def assert_no_rxpy2_thread_after_shutdown() -> None:
    from rxpy2.schedulers import Schedulers
    Schedulers.shutdown()
    deadline = time.monotonic() + WAIT
    left = [t.name for t in threading.enumerate() if t.name.startswith("rxpy2-")]
    while left and time.monotonic() < deadline:
        time.sleep(0.01)
        left = [t.name for t in threading.enumerate()
                if t.is_alive() and t.name.startswith("rxpy2-")]
    assert left == []


# ---- blocking_iterable / for x in flowable (regressions: they relied on __del__)


def test_blocking_iterable_interrupted_in_next_cancels_upstream():
    source, cancelled = never_ending()
    it = iter(source.blocking_iterable())
    with pytest.raises(KeyboardInterrupt) as ei, interrupt_after(0.05):
        next(it)
    assert ei.value.args == ("simulated Ctrl-C",)
    assert cancelled.wait(WAIT)  # `it` and the traceback are still alive here
    with pytest.raises(StopIteration):  # the iterator is closed
        next(it)


def test_for_in_flowable_interrupted_cancels_interval_and_leaves_no_thread():
    source, cancelled = ticking()
    got = []
    with pytest.raises(KeyboardInterrupt) as ei, interrupt_after(0.1):
        for x in source:
            got.append(x)
    assert cancelled.wait(WAIT)
    assert_no_rxpy2_thread_after_shutdown()
    assert ei.value is not None  # the traceback (holding the iterator) was alive throughout


def test_blocking_iterable_interrupted_in_synchronous_subscribe_cancels_upstream():
    # the interrupt hits the upstream's synchronous emission inside iter(): the iterator
    # is not returned yet, so nobody else could cancel it
    cancelled = threading.Event()
    calls = [0]

    def slow(x: int) -> int:
        calls[0] += 1
        time.sleep(0.01)  # the interrupt lands here, in the first request's emission
        return x

    source = Flowable.range(1, 1_000_000).hide().map(slow).do_on_cancel(cancelled.set)
    with pytest.raises(KeyboardInterrupt) as ei, interrupt_after(0.05):
        iter(source.blocking_iterable(buffer_size=1_000_000))
    assert ei.value is not None
    assert cancelled.is_set()
    assert 0 < calls[0] < 1_000_000


# ---- blocking_latest / blocking_next (regressions)


@pytest.mark.parametrize("bridge", ["blocking_latest", "blocking_next"])
def test_latest_next_interrupted_in_next_cancel_upstream(bridge):
    source, cancelled = never_ending()
    it = iter(getattr(source, bridge)())
    with pytest.raises(KeyboardInterrupt) as ei, interrupt_after(0.05):
        next(it)
    assert ei.value is not None
    assert cancelled.wait(WAIT)
    with pytest.raises(StopIteration):  # closed: the stream is over for this iterator
        next(it)


@pytest.mark.parametrize("bridge", ["blocking_latest", "blocking_next"])
def test_latest_next_interrupted_over_interval_leave_no_thread(bridge):
    source, cancelled = ticking()
    got = []
    with pytest.raises(KeyboardInterrupt) as ei, interrupt_after(0.1):
        for x in getattr(source, bridge)():
            got.append(x)
    assert cancelled.wait(WAIT)
    assert_no_rxpy2_thread_after_shutdown()
    assert ei.value is not None  # the traceback (holding the iterator) was alive throughout


# ---- to_future (regression: an interrupted result() left the upstream running)


def test_to_future_interrupted_result_cancels_future_and_upstream():
    source, cancelled = never_ending()
    f = source.to_future()
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.05):
        f.result()
    assert cancelled.wait(WAIT)
    assert f.cancelled()


def test_to_future_interrupted_exception_cancels_upstream():
    source, cancelled = never_ending()
    f = source.to_future()
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.05):
        f.exception()
    assert cancelled.wait(WAIT)
    assert f.cancelled()


def test_to_future_interrupted_in_synchronous_subscribe_cancels_upstream():
    cancelled = threading.Event()

    def slow(x: int) -> int:
        time.sleep(0.01)  # the interrupt lands here, inside to_future()'s subscribe
        return x

    source = (Flowable.range(1, 1_000_000).hide().do_on_cancel(cancelled.set)
              .map(slow).filter(lambda x: False))  # no item: to_future() waits for the end
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.05):
        source.to_future()
    assert cancelled.is_set()


# ---- plugins.on_error and fatal exceptions (regressions)


@pytest.mark.parametrize("fatal", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_plugins_on_error_reraises_a_fatal_exception(plugin_errors, fatal):
    e = fatal()
    with pytest.raises(fatal) as ei:
        plugins.on_error(e)
    assert ei.value is e  # not wrapped
    assert plugin_errors == []  # not handed to the handler: it is no stream error


def test_plugins_handler_raising_a_fatal_exception_propagates(caplog):
    def handler(e: BaseException) -> None:
        raise SystemExit(3)  # "stop on an undeliverable error"

    plugins.set_error_handler(handler)
    with caplog.at_level(logging.ERROR, logger="rxpy2"), pytest.raises(SystemExit):
        plugins.on_error(RuntimeError("undeliverable"))
    assert caplog.records == []


class _FatalOnNext(FlowableSubscriber[int]):
    def on_subscribe(self, s):
        s.request(LONG_MAX)

    def on_next(self, item):
        raise KeyboardInterrupt("in on_next")

    def on_error(self, error):
        pass

    def on_complete(self):
        pass


def test_from_future_fatal_in_downstream_propagates_not_reported(plugin_errors):
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    Flowable.from_future(f).subscribe(_FatalOnNext())
    with pytest.raises(KeyboardInterrupt):
        f.set_result(1)  # the done-callback runs here, on the completing thread
    assert plugin_errors == []


# ---- guards: these already held before (listed so the bridges are covered together)


def test_blocking_first_interrupted_cancels_upstream():
    source, cancelled = never_ending()
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.05):
        source.blocking_first()
    assert cancelled.wait(WAIT)


def test_blocking_subscribe_interrupted_while_waiting_cancels_upstream():
    source, cancelled = never_ending()
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.05):
        source.blocking_subscribe(lambda x: None)
    assert cancelled.wait(WAIT)


def test_blocking_subscribe_fatal_in_on_next_propagates_and_cancels():
    source, cancelled = ticking()
    errors = []

    def on_next(x):
        raise KeyboardInterrupt("in on_next")

    with pytest.raises(KeyboardInterrupt, match="in on_next"):
        source.blocking_subscribe(on_next, errors.append)
    assert errors == []  # a fatal exception is not the stream's error
    assert cancelled.wait(WAIT)
    assert_no_rxpy2_thread_after_shutdown()


def test_to_future_cancel_cancels_upstream():
    source, cancelled = never_ending()
    f = source.to_future()
    assert f.cancel()
    assert cancelled.wait(WAIT)


def test_to_future_result_timeout_keeps_the_subscription():
    source, cancelled = never_ending()
    f = source.to_future()
    with pytest.raises(concurrent.futures.TimeoutError):
        f.result(timeout=0.01)
    assert not cancelled.is_set() and not f.done()
    f.cancel()
    assert cancelled.wait(WAIT)


@pytest.mark.parametrize("kind", ["Single", "Maybe", "Completable"])
def test_zero_one_blocking_get_interrupted_disposes_upstream(kind):
    import rxpy2
    disposed = threading.Event()
    source = getattr(rxpy2, kind).never().do_on_dispose(disposed.set)
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.05):
        if kind == "Completable":
            source.blocking_await()
        else:
            source.blocking_get()
    assert disposed.wait(WAIT)
