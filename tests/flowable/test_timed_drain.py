"""The timed operators never signal downstream under a lock, and serialize their signals.

For each of buffer_time, debounce, sample, throttle_first, throttle_latest, window_time,
timeout, delay and interval:

* (a) races (``RaceRunner``, virtual time): the timer against an upstream signal, a
  request or a cancel: nothing lost, duplicated, or signalled after a terminal event;
* (b) a downstream that BLOCKS inside ``on_next`` (real threads) until another thread
  has made an upstream signal, a request or a cancel: that thread must not be held up
  by the blocked emission (an operator that signals under a lock deadlocks there; the
  waits are bounded, so such a test fails instead of hanging);
* (c) a downstream that RE-ENTERS: it requests, cancels, or drives the upstream from
  inside ``on_next``/``on_error``: no deadlock, no nested (§1.3) or reordered signals.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from rxpy2 import LONG_MAX
from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2 import PublishProcessor
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler

pytestmark = [pytest.mark.usefixtures("shutdown_schedulers"), pytest.mark.timeout(60)]

ROUNDS = 500       # race rounds per case (each round is a fresh subscription)
QUICK = 2.0        # seconds an unblocked thread may take (it takes microseconds)
BLOCK = 5.0        # seconds a blocked downstream waits at most (the test fails before)


class Probe(FlowableSubscriber[Any]):
    """Records signals; flags overlapping/nested signals (§1.3) and signals after a terminal
    one (§1.7). ``hook_next``/``hook_error`` run inside the signal (to block or re-enter)."""

    def __init__(self, initial: int = LONG_MAX,
                 hook_next: Callable[[Probe, Any], None] | None = None,
                 hook_error: Callable[[Probe, BaseException], None] | None = None) -> None:
        self.initial = initial
        self.hook_next = hook_next
        self.hook_error = hook_error
        self.s: Subscription | None = None
        self.items: list[Any] = []
        self.errors: list[BaseException] = []
        self.completions = 0
        self.violations: list[str] = []
        self.active = 0
        self.lock = threading.Lock()
        self.terminated = threading.Event()
        self.cancelled = False

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        if self.initial:
            s.request(self.initial)

    def _enter(self, what: str) -> None:
        with self.lock:
            self.active += 1
            if self.active > 1:
                self.violations.append(f"§1.3: {what} while another signal runs")
            if self.terminated.is_set():
                self.violations.append(f"§1.7: {what} after a terminal signal")

    def _leave(self) -> None:
        with self.lock:
            self.active -= 1

    def on_next(self, item: Any) -> None:
        self._enter(f"on_next({item!r})")
        try:
            self.items.append(item)
            if self.hook_next is not None:
                self.hook_next(self, item)
        finally:
            self._leave()

    def on_error(self, error: BaseException) -> None:
        self._enter(f"on_error({error!r})")
        try:
            self.errors.append(error)
            self.terminated.set()
            if self.hook_error is not None:
                self.hook_error(self, error)
        finally:
            self._leave()

    def on_complete(self) -> None:
        self._enter("on_complete")
        try:
            self.completions += 1
            self.terminated.set()
        finally:
            self._leave()

    def request(self, n: int) -> None:
        assert self.s is not None
        self.s.request(n)

    def cancel(self) -> None:
        assert self.s is not None
        self.cancelled = True
        self.s.cancel()

    def check(self) -> None:
        assert not self.violations, self.violations
        assert self.completions + len(self.errors) <= 1


def flat(lists: list[list[Any]]) -> list[Any]:
    return [x for b in lists for x in b]


# ====================================================================== (a) races

Step = Callable[[TestScheduler, PublishProcessor[int], Probe], Any]


def _rounds(race_runner: Any, setup: Callable[[TestScheduler, PublishProcessor[int]], Probe],
            *against: tuple[Step, Step]) -> None:
    """For each ``(action, after)`` of ``against``, ROUNDS rounds: a fresh ``setup``, the
    timer (a tick) raced against ``action``, then ``after`` and the Probe's checks."""
    for action, after in against:
        for _ in range(ROUNDS):
            sched = TestScheduler()
            pp: PublishProcessor[int] = PublishProcessor()
            p = setup(sched, pp)
            race_runner.race(lambda s=sched, q=pp, r=p: _tick(s, q, r),
                             lambda s=sched, q=pp, r=p, b=action: b(s, q, r))
            after(sched, pp, p)
            p.check()


def _subscribe(f: Flowable[Any], initial: int = LONG_MAX) -> Probe:
    p = Probe(initial)
    f.subscribe(p)
    return p


def _setup(operator: Callable[[Any, TestScheduler], Flowable[Any]], *primed: int,
           initial: int = LONG_MAX) -> Callable[[TestScheduler, Any], Probe]:
    """A race's set-up: a Probe subscribed to ``operator(pp, sched)``, then ``primed``
    emitted by ``pp``."""
    def setup(sched: TestScheduler, pp: Any) -> Probe:
        p = _subscribe(operator(pp, sched), initial)
        for item in primed:
            pp.on_next(item)
        return p
    return setup


def _tick(sched: TestScheduler, pp: Any, p: Probe) -> None:
    sched.advance_time_by(1)


def _next2(sched: TestScheduler, pp: Any, p: Probe) -> None:
    pp.on_next(2)


def _request1(sched: TestScheduler, pp: Any, p: Probe) -> None:
    p.request(1)


def _complete(sched: TestScheduler, pp: Any, p: Probe) -> None:
    pp.on_complete()


def _cancel(sched: TestScheduler, pp: Any, p: Probe) -> None:
    p.cancel()


def _after_cancel(sched: TestScheduler, pp: Any, p: Probe) -> None:
    n = (len(p.items), len(p.errors), p.completions)
    pp.on_next(9)
    sched.advance_time_by(5)
    pp.on_complete()
    assert (len(p.items), len(p.errors), p.completions) == n  # nothing after the cancel


CANCEL = (_cancel, _after_cancel)  # the race against a cancel, and its check


def _race_emit_last(race_runner: Any, operator: Callable[[Any, TestScheduler], Flowable[Any]],
                    primed: tuple[int, ...], after_next: tuple[list[int], ...],
                    after_complete: list[int]) -> None:
    """The timer against item 2, against the completion and against a cancel, for an
    operator that emits the latest item on the tick and on completion; ``primed`` are the
    items before the race."""
    setup = _setup(operator, *primed)

    def end(sched: TestScheduler, pp: Any, p: Probe) -> None:
        pp.on_complete()
        assert p.items in after_next and p.completions == 1

    def end_c(sched: TestScheduler, pp: Any, p: Probe) -> None:
        sched.advance_time_by(1)
        assert p.items == after_complete and p.completions == 1

    _rounds(race_runner, setup, (_next2, end), (_complete, end_c), CANCEL)


def test_race_buffer_time(race_runner: Any) -> None:
    setup = _setup(lambda pp, sched: pp.buffer_time(1, sched), 1)

    def end(sched: TestScheduler, pp: Any, p: Probe) -> None:
        pp.on_complete()
        assert flat(p.items) == [1, 2] and p.completions == 1

    def end_c(sched: TestScheduler, pp: Any, p: Probe) -> None:
        assert flat(p.items) == [1] and p.completions == 1

    _rounds(race_runner, setup, (_next2, end), (_complete, end_c), CANCEL)

    setup_count = _setup(lambda pp, sched: pp.buffer_time(1, sched, count=2), 1)

    def end_count(sched: TestScheduler, pp: Any, p: Probe) -> None:
        pp.on_next(3)
        pp.on_complete()
        assert flat(p.items) == [1, 2, 3] and p.completions == 1
        assert all(len(b) <= 2 for b in p.items)
    _rounds(race_runner, setup_count, (_next2, end_count))


def test_race_debounce(race_runner: Any) -> None:
    _race_emit_last(race_runner, lambda pp, sched: pp.debounce(1, sched),
                    (1,), ([1, 2], [2]), [1])


def test_race_sample(race_runner: Any) -> None:
    _race_emit_last(race_runner, lambda pp, sched: pp.sample(1, sched, emit_last=True),
                    (1,), ([1, 2], [2]), [1])

    setup_req = _setup(lambda pp, sched: pp.sample(1, sched), 1, initial=0)

    def end_req(sched: TestScheduler, pp: Any, p: Probe) -> None:
        # either the request came first (1 emitted) or the tick (no demand: the error)
        if p.items:
            assert p.items == [1] and not p.errors
        else:
            assert len(p.errors) == 1 and isinstance(p.errors[0], MissingBackpressureException)
    _rounds(race_runner, setup_req, (_request1, end_req))


def test_race_throttle_first(race_runner: Any) -> None:
    setup = _setup(lambda pp, sched: pp.throttle_first(1, sched), 1)

    def end(sched: TestScheduler, pp: Any, p: Probe) -> None:
        pp.on_next(3)
        pp.on_complete()
        assert p.items[0] == 1 and p.items in ([1, 2], [1, 3]) and p.completions == 1

    _rounds(race_runner, setup, (_next2, end), CANCEL)


def test_race_throttle_latest(race_runner: Any) -> None:
    # 0 is emitted at once and starts the timer
    _race_emit_last(race_runner, lambda pp, sched: pp.throttle_latest(1, sched, emit_last=True),
                    (0, 1), ([0, 1, 2], [0, 2]), [0, 1])


class WindowProbe(Probe):
    """Subscribes a Probe to each window as it arrives."""

    def __init__(self, initial: int = LONG_MAX,
                 hook_next: Callable[[Probe, Any], None] | None = None) -> None:
        super().__init__(initial, hook_next)
        self.windows: list[Probe] = []

    def on_next(self, item: Any) -> None:
        w = Probe()
        item.subscribe(w)
        self.windows.append(w)
        super().on_next(item)

    def all_items(self) -> list[Any]:
        return [x for w in self.windows for x in w.items]


def test_race_window_time(race_runner: Any) -> None:
    for _ in range(ROUNDS):
        sched = TestScheduler()
        pp: PublishProcessor[int] = PublishProcessor()
        p = WindowProbe()
        pp.window_time(1, scheduler=sched).subscribe(p)
        pp.on_next(1)
        race_runner.race(lambda s=sched: s.advance_time_by(1), lambda q=pp: q.on_next(2))
        pp.on_complete()
        p.check()
        assert p.all_items() == [1, 2] and p.completions == 1
        for w in p.windows:
            w.check()
            assert w.completions == 1

    def setup(sched: TestScheduler, pp: Any) -> Probe:
        p = WindowProbe()
        pp.window_time(1, scheduler=sched).subscribe(p)
        return p
    _rounds(race_runner, setup, (_cancel, lambda sched, pp, p: sched.advance_time_by(3)))


def test_race_timeout(race_runner: Any) -> None:
    setup = _setup(lambda pp, sched: pp.timeout(1, sched))

    def next1(sched: TestScheduler, pp: Any, p: Probe) -> None:
        pp.on_next(1)

    def end(sched: TestScheduler, pp: Any, p: Probe) -> None:
        sched.advance_time_by(2)
        pp.on_next(5)  # too late either way
        assert p.items in ([1], [])  # the item won, or the timeout did; never both orders
        assert len(p.errors) == 1 and isinstance(p.errors[0], TimeoutError)
    _rounds(race_runner, setup, (next1, end), CANCEL)


def test_race_delay(race_runner: Any) -> None:
    setup = _setup(lambda pp, sched: pp.delay(1, sched), 1)

    def end(sched: TestScheduler, pp: Any, p: Probe) -> None:
        pp.on_complete()
        sched.advance_time_by(2)
        assert p.items == [1, 2] and p.completions == 1
    _rounds(race_runner, setup, (_next2, end), CANCEL)


def test_race_interval(race_runner: Any) -> None:
    setup = _setup(lambda pp, sched: Flowable.interval(1, scheduler=sched), initial=1)

    def end(sched: TestScheduler, pp: Any, p: Probe) -> None:
        sched.advance_time_by(1)
        assert p.items == [0, 1] and not p.errors
        p.cancel()
    _rounds(race_runner, setup, (_request1, end), CANCEL)


# ============================================================ (b) blocking downstream

class Blocker:
    """The downstream's hook: blocks (at most BLOCK seconds) in the ``at``-th ``on_next``
    until ``release`` is set; ``entered`` tells it is blocked."""

    def __init__(self, at: int = 1) -> None:
        self.at = at
        self.calls = 0
        self.entered = threading.Event()
        self.release = threading.Event()
        self.timed_out = False

    def __call__(self, p: Probe, item: Any) -> None:
        self.calls += 1
        if self.calls == self.at:
            self.entered.set()
            if not self.release.wait(BLOCK):
                self.timed_out = True


def _while_blocked(blocker: Blocker, action: Callable[[], None]) -> None:
    """Once the downstream is blocked, run ``action`` on another thread: it must finish at
    once (not wait for the blocked emission); then let the downstream go on."""
    try:
        assert blocker.entered.wait(BLOCK), "the downstream was never called"
        done = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            try:
                action()
            except BaseException as e:  # reported below
                failure.append(e)
            finally:
                done.set()

        t = threading.Thread(target=run, name="test-while-blocked", daemon=True)
        t.start()
        finished = done.wait(QUICK)
        assert finished, "deadlock: the upstream/request/cancel waited for the blocked downstream"
        assert not failure, failure
    finally:
        blocker.release.set()
    assert not blocker.timed_out


def _blocking_probe(operator: Callable[[Any], Flowable[Any]], at: int = 1,
                    probe: Callable[..., Probe] = Probe) -> tuple[Any, Blocker, Probe]:
    """A Probe that blocks in its ``at``-th ``on_next``, subscribed to ``operator(pp)``."""
    pp: PublishProcessor[int] = PublishProcessor()
    blocker = Blocker(at)
    p = probe(hook_next=blocker)
    operator(pp).subscribe(p)
    return pp, blocker, p


def _blocked_on_upstream_thread(operator: Callable[[Any], Flowable[Any]],
                                action: Callable[[Probe], Any]) -> tuple[Any, Probe]:
    """The upstream's own thread emits 1 and blocks in the downstream; meanwhile
    ``action(p)`` runs on another thread and must not wait for it; then the upstream's
    thread must be free at once."""
    pp, blocker, p = _blocking_probe(operator)
    t = threading.Thread(target=lambda: pp.on_next(1), daemon=True)
    t.start()
    _while_blocked(blocker, lambda: action(p))
    t.join(QUICK)
    assert not t.is_alive()
    return pp, p


def _blocked(operator: Callable[[Any], Flowable[Any]], primed: tuple[int, ...],
             action: Callable[[Any, Probe], Any], at: int = 1,
             probe: Callable[..., Probe] = Probe) -> Probe:
    """``primed`` into ``operator(pp)``; once the downstream blocks in its ``at``-th
    ``on_next``, ``action(pp, p)`` runs on another thread and must not wait for it; then
    the stream must end and the Probe see no protocol violation."""
    pp, blocker, p = _blocking_probe(operator, at, probe)
    for item in primed:
        pp.on_next(item)
    _while_blocked(blocker, lambda: action(pp, p))
    assert p.terminated.wait(BLOCK)
    p.check()
    return p


def _next2_complete(pp: Any, p: Probe) -> None:
    pp.on_next(2)
    pp.on_complete()


def test_blocking_buffer_time() -> None:
    # the timer emits [1] (or an earlier empty list) and blocks
    p = _blocked(lambda pp: pp.buffer_time(0.05, Schedulers.new_thread()), (1,), _next2_complete)
    assert flat(p.items) == [1, 2] and p.completions == 1


def test_blocking_buffer_time_count() -> None:
    p = _blocked(lambda pp: pp.buffer_time(0.05, Schedulers.new_thread(), count=2), (1,),
                 lambda pp, p: (pp.on_next(2), pp.on_next(3), pp.on_next(4), pp.on_complete()))
    assert flat(p.items) == [1, 2, 3, 4] and p.completions == 1


def test_blocking_debounce() -> None:
    # 1 is emitted by the worker after 50 ms: blocks
    p = _blocked(lambda pp: pp.debounce(0.05, Schedulers.new_thread()), (1,), _next2_complete)
    assert p.items == [1, 2] and p.completions == 1


def test_blocking_debounce_error() -> None:
    p = _blocked(lambda pp: pp.debounce(0.05, Schedulers.new_thread()), (1,),
                 lambda pp, p: pp.on_error(ValueError("boom")))
    assert p.items == [1] and isinstance(p.errors[0], ValueError)


def test_blocking_sample() -> None:
    # the timer emits 1 and blocks
    p = _blocked(lambda pp: pp.sample(0.05, Schedulers.new_thread(), emit_last=True), (1,),
                 _next2_complete)
    assert p.items == [1, 2] and p.completions == 1


def test_blocking_throttle_first() -> None:
    # the upstream's thread emits 1 and blocks; meanwhile the window timer fires and the
    # downstream requests and cancels from another thread
    pp, p = _blocked_on_upstream_thread(lambda pp: pp.throttle_first(0.01, Schedulers.new_thread()),
                                        lambda p: (time.sleep(0.05), p.request(1), p.cancel()))
    pp.on_next(2)
    pp.on_complete()
    p.check()
    assert p.items == [1] and p.completions == 0


def test_blocking_throttle_latest() -> None:
    # 1 at once; the timer emits 2 and blocks
    p = _blocked(lambda pp: pp.throttle_latest(0.05, Schedulers.new_thread(), emit_last=True),
                 (1, 2), lambda pp, p: (pp.on_next(3), pp.on_complete()), at=2)
    assert p.items == [1, 2, 3] and p.completions == 1


def test_blocking_window_time() -> None:
    # 1 into the first window; the timer emits the second one and blocks
    p = _blocked(lambda pp: pp.window_time(0.05, scheduler=Schedulers.new_thread()), (1,),
                 _next2_complete, at=2, probe=WindowProbe)
    assert p.all_items() == [1, 2] and p.completions == 1
    for w in p.windows:
        assert w.terminated.wait(BLOCK)
        w.check()


def test_blocking_timeout() -> None:
    # the upstream's thread emits 1 and blocks; the timeout of the subscription fires meanwhile
    _, p = _blocked_on_upstream_thread(lambda pp: pp.timeout(0.05, Schedulers.new_thread()),
                                       lambda p: (time.sleep(0.1), p.request(1)))
    assert p.terminated.wait(BLOCK)  # the timeout of item 1
    p.check()
    assert p.items == [1] and isinstance(p.errors[0], TimeoutError)


def test_blocking_delay() -> None:
    # the worker emits 1 and blocks
    p = _blocked(lambda pp: pp.delay(0.01, Schedulers.new_thread()), (1,),
                 lambda pp, p: (pp.on_next(2), p.request(1), pp.on_complete()))
    assert p.items == [1, 2] and p.completions == 1


def test_blocking_interval() -> None:
    blocker = Blocker()
    p = Probe(initial=3, hook_next=blocker)
    Flowable.interval(0.01, scheduler=Schedulers.new_thread()).subscribe(p)
    _while_blocked(blocker, lambda: p.request(2))
    deadline = time.monotonic() + BLOCK
    while len(p.items) < 5 and time.monotonic() < deadline:
        time.sleep(0.005)
    p.cancel()
    n = len(p.items)
    time.sleep(0.05)
    p.check()
    assert p.items[:5] == [0, 1, 2, 3, 4] and len(p.items) == n and not p.errors


# ============================================================ (c) re-entrant downstream

def _reentrant(sched: TestScheduler, operator: Callable[[Any], Flowable[Any]],
               primed: tuple[int, ...], last: Callable[[Probe, Any], bool], then: int,
               initial: int = 1, probe: Callable[..., Probe] = Probe) -> Probe:
    """The downstream requests 1 more from inside each ``on_next``; in the one where
    ``last(p, item)`` holds it drives the upstream: ``on_next(then)`` and ``on_complete``
    (which must come after that ``on_next`` returns, §1.3). ``primed`` into
    ``operator(pp)``, then the time moves on."""
    pp: PublishProcessor[int] = PublishProcessor()

    def hook(p: Probe, item: Any) -> None:
        p.request(1)  # one more, from inside
        if last(p, item):
            pp.on_next(then)  # the upstream again, from inside
            pp.on_complete()

    p = probe(initial=initial, hook_next=hook)
    operator(pp).subscribe(p)
    for item in primed:
        pp.on_next(item)
    sched.advance_time_by(1)
    sched.advance_time_by(10)
    p.check()
    return p


def test_reentrant_buffer_time(sched: TestScheduler) -> None:
    # the completion comes after [2]
    p = _reentrant(sched, lambda pp: pp.buffer_time(1, sched), (1,),
                   lambda p, item: item == [1], 2)
    assert p.items == [[1], [2]] and p.completions == 1


def test_reentrant_buffer_time_cancel_and_error(sched: TestScheduler) -> None:
    pp: PublishProcessor[int] = PublishProcessor()
    p = Probe(initial=1, hook_next=lambda p, item: p.cancel())
    pp.buffer_time(1, sched, count=1).subscribe(p)
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(3)
    p.check()
    assert p.items == [[1]] and not p.terminated.is_set()

    pp2: PublishProcessor[int] = PublishProcessor()

    def on_error(p: Probe, e: BaseException) -> None:
        p.request(5)
        p.cancel()
        pp2.on_next(3)

    p2 = Probe(initial=1, hook_error=on_error)
    pp2.buffer_time(1, sched).subscribe(p2)
    sched.advance_time_by(2)  # [] then no demand: the error
    pp2.on_next(4)
    p2.check()
    assert p2.items == [[]] and isinstance(p2.errors[0], MissingBackpressureException)


def test_reentrant_debounce(sched: TestScheduler) -> None:
    # on the completion 2 is emitted at once, after the on_next(1) returns
    p = _reentrant(sched, lambda pp: pp.debounce(1, sched), (1,), lambda p, item: item == 1, 2)
    assert p.items == [1, 2] and p.completions == 1


def test_reentrant_debounce_cancel_and_error(sched: TestScheduler) -> None:
    pp: PublishProcessor[int] = PublishProcessor()

    def hook(p: Probe, item: Any) -> None:
        p.cancel()
        pp.on_complete()

    p = Probe(hook_next=hook)
    pp.debounce(1, sched).subscribe(p)
    pp.on_next(1)
    sched.advance_time_by(2)
    p.check()
    assert p.items == [1] and not p.terminated.is_set()

    pp2: PublishProcessor[int] = PublishProcessor()
    p2 = Probe(initial=0, hook_error=lambda p, e: (p.request(1), pp2.on_next(5), p.cancel()))
    pp2.debounce(1, sched).subscribe(p2)
    pp2.on_next(1)
    sched.advance_time_by(2)
    sched.advance_time_by(2)
    p2.check()
    assert not p2.items and isinstance(p2.errors[0], MissingBackpressureException)


def test_reentrant_sample(sched: TestScheduler) -> None:
    # emit_last: 2 on the completion, after the on_next(1) returns
    p = _reentrant(sched, lambda pp: pp.sample(1, sched, emit_last=True), (1,),
                   lambda p, item: item == 1, 2)
    assert p.items == [1, 2] and p.completions == 1


def test_reentrant_sample_cancel_and_error(sched: TestScheduler) -> None:
    pp: PublishProcessor[int] = PublishProcessor()
    p = Probe(initial=0, hook_error=lambda p, e: (p.request(2), p.cancel(), pp.on_next(3)))
    pp.sample(1, sched).subscribe(p)
    pp.on_next(1)
    sched.advance_time_by(3)
    p.check()
    assert not p.items and isinstance(p.errors[0], MissingBackpressureException)


def test_reentrant_throttle_first(sched: TestScheduler) -> None:
    pp: PublishProcessor[int] = PublishProcessor()

    def hook(p: Probe, item: Any) -> None:
        p.request(1)
        if item == 2:
            p.cancel()
            pp.on_complete()

    p = Probe(initial=1, hook_next=hook)
    pp.throttle_first(1, sched).subscribe(p)
    for i in range(5):
        pp.on_next(i)
        sched.advance_time_by(0.6)
    p.check()
    assert p.items == [0, 2] and not p.terminated.is_set()


def test_reentrant_throttle_latest(sched: TestScheduler) -> None:
    p = _reentrant(sched, lambda pp: pp.throttle_latest(1, sched, emit_last=True), (1, 2),
                   lambda p, item: item == 2, 3)
    assert p.items == [1, 2, 3] and p.completions == 1


def test_reentrant_window_time(sched: TestScheduler) -> None:
    p = _reentrant(sched, lambda pp: pp.window_time(1, scheduler=sched), (1,),
                   lambda p, item: len(p.items) == 2, 2, probe=WindowProbe)
    assert p.all_items() == [1, 2] and p.completions == 1 and len(p.windows) == 2

    pp2: PublishProcessor[int] = PublishProcessor()
    p2 = WindowProbe(initial=1, hook_next=lambda p, item: p.cancel())
    pp2.window_time(1, scheduler=sched).subscribe(p2)
    pp2.on_next(1)
    sched.advance_time_by(3)  # the open window closes; no new one
    p2.check()
    assert len(p2.windows) == 1 and p2.windows[0].completions == 1


def test_reentrant_timeout(sched: TestScheduler) -> None:
    # a pass-through on the upstream's thread: the downstream requests and cancels from
    # inside (driving the upstream from inside would nest the upstream itself)
    pp: PublishProcessor[int] = PublishProcessor()
    p = Probe(initial=1, hook_next=lambda p, item: p.request(1),
              hook_error=lambda p, e: (p.request(1), p.cancel()))
    pp.timeout(1, sched).subscribe(p)
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(2)
    pp.on_next(9)
    p.check()
    assert p.items == [1, 2] and isinstance(p.errors[0], TimeoutError)

    pp2: PublishProcessor[int] = PublishProcessor()
    p2 = Probe(hook_next=lambda p, item: p.cancel())
    pp2.timeout(1, sched).subscribe(p2)
    pp2.on_next(1)
    sched.advance_time_by(2)
    p2.check()
    assert p2.items == [1] and not p2.terminated.is_set()


def test_reentrant_delay(sched: TestScheduler) -> None:
    p = _reentrant(sched, lambda pp: pp.delay(1, sched), (1,), lambda p, item: item == 1, 2,
                   initial=LONG_MAX)
    assert p.items == [1, 2] and p.completions == 1


def test_reentrant_interval(sched: TestScheduler) -> None:
    def hook(p: Probe, item: Any) -> None:
        if item < 3:
            p.request(1)
        else:
            p.cancel()

    p = Probe(initial=1, hook_next=hook)
    Flowable.interval(1, scheduler=sched).subscribe(p)
    sched.advance_time_by(10)
    p.check()
    assert p.items == [0, 1, 2, 3] and not p.terminated.is_set()

    p2 = Probe(initial=1, hook_error=lambda p, e: (p.request(5), p.cancel()))
    Flowable.interval(1, scheduler=sched).subscribe(p2)
    sched.advance_time_by(5)
    p2.check()
    assert p2.items == [0] and isinstance(p2.errors[0], MissingBackpressureException)
