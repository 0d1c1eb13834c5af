"""A MulticastProcessor never started (no upstream subscribed, no start()) has no
queue, and its drain, as RxJava 2.2.21's, looks at the subscribers only when there
is one: a terminal signal is recorded (has_complete/has_throwable) but reaches
nobody, neither the subscribers already there nor a late one, until a queue exists
and something drains again (a subscriber arriving after start())."""

from __future__ import annotations

from rxpy2 import Flowable
from rxpy2 import MulticastProcessor


def test_a_late_subscriber_of_a_never_started_processor_gets_no_completion():
    mp = MulticastProcessor.create()
    mp.on_complete()
    assert mp.has_complete()
    ts = mp.test()
    ts.assert_subscribed().assert_no_values().assert_no_errors().assert_not_complete()


def test_a_late_subscriber_of_a_never_started_processor_gets_no_error():
    mp = MulticastProcessor.create()
    mp.on_error(ValueError("x"))
    assert mp.has_throwable()
    ts = mp.test()
    ts.assert_no_values().assert_no_errors().assert_not_complete()


def test_an_early_subscriber_of_a_never_started_processor_gets_no_completion():
    mp = MulticastProcessor.create()
    ts = mp.test()
    mp.on_complete()
    ts.assert_no_errors().assert_not_complete()


def test_after_start_the_next_subscriber_drains_the_terminal_signal_to_all():
    mp = MulticastProcessor.create()
    mp.on_complete()
    waiting = mp.test()
    mp.start()
    waiting.assert_not_complete()  # start() makes the queue, it does not drain
    mp.test().assert_result()
    waiting.assert_result()


def test_a_started_or_subscribed_processor_gives_a_late_subscriber_its_terminal_signal():
    started = MulticastProcessor.create()
    started.start()
    started.on_complete()
    started.test().assert_result()
    subscribed = MulticastProcessor.create()
    Flowable.error(ValueError("x")).subscribe(subscribed)
    subscribed.test().assert_error(ValueError)
