"""Flowable.window_time: windows of ``timespan`` seconds (or of at most ``count`` items).

Three subscribers: exact unbounded, exact bounded (``count``, optionally ``restart``) and
skip (``timeskip != timespan``: overlapping windows or gaps), sharing
:class:`_AbstractWindowSubscriber` (and the exact ones :class:`_ExactWindowSubscriber`).
The upstream is requested without bound; items, ticks and terminal signals meet in one
queue drained by the owner of a :class:`Drain`, never under a lock. A window without
downstream demand fails the stream with ``MissingBackpressureException``.

How: docs/schedulers.md, "Inside window_time".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.sentinel import Sentinel
from rxpy2._internal.helpers.upstream_ref_count import UpstreamRefCount
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import LONG_MAX
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import MissingBackpressureException
from rxpy2.operator_kit import MpscLinkedQueue
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import subscribe_tail
from rxpy2.operator_kit import validate_request
from rxpy2.processors.unicast_processor import UnicastProcessor
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableWindowTimed"]

T = TypeVar("T")

# timer signals in the queue of items (never items themselves)
NEXT_WINDOW: Any = Sentinel("NEXT_WINDOW")
WINDOW_OPEN: Any = Sentinel("WINDOW_OPEN")
WINDOW_CLOSE: Any = Sentinel("WINDOW_CLOSE")


def missing_backpressure(index: int) -> MissingBackpressureException:
    return MissingBackpressureException.lack_of_requests("window_time", f"window #{index}")


class FlowableWindowTimed(Flowable[Flowable[T]], HasUpstreamPublisher[T], Generic[T]):
    """``window_time``: windows open on a timer.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when a window is due and the downstream has not
    requested it. The items inside a window wait in its UnicastProcessor, unbounded
    (``buffer_size`` only sizes its queue's chunks)."""

    __slots__ = ("source", "timespan", "timeskip", "scheduler", "max_size", "restart",
                 "capacity_hint")

    def __init__(self, source: Publisher[T], timespan: float, timeskip: float,
                 scheduler: Scheduler, max_size: int | None, restart: bool,
                 buffer_size: int) -> None:
        self.source = source
        self.timespan = timespan
        self.timeskip = timeskip
        self.scheduler = scheduler
        self.max_size = max_size
        self.restart = restart
        self.capacity_hint = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[Flowable[T]]) -> None:
        if self.timespan == self.timeskip:
            if self.max_size is None:
                subscribe_tail(self.source, WindowExactUnboundedSubscriber(
                    subscriber, self.timespan, self.scheduler, self.capacity_hint))
            else:
                subscribe_tail(self.source, WindowExactBoundedSubscriber(
                    subscriber, self.timespan, self.scheduler, self.capacity_hint,
                    self.max_size, self.restart))
        else:
            subscribe_tail(self.source, WindowSkipSubscriber(
                subscriber, self.timespan, self.timeskip, self.scheduler.create_worker(),
                self.capacity_hint))


class _AbstractWindowSubscriber(DrainTerminalsMixin, OperatorSubscriber[T, Flowable[T]],
                                Generic[T]):
    """The parts the three share: the queue, demand, the count of live parties, the end.

    A subclass implements ``first_window``, ``take_windows`` (remove and return the
    open windows; the drain's), ``cleanup_resources`` (the timers) and ``drain_loop``
    (one or more passes of the drain's owner, ending with ``gate.leave()``).
    """

    __slots__ = ("queue", "timespan", "buffer_size", "requested", "emitted", "error", "refs",
                 "upstream_cancelled", "gate")

    def __init__(self, downstream: Subscriber[Flowable[T]], timespan: float,
                 buffer_size: int) -> None:
        super().__init__(downstream)
        self.queue: MpscLinkedQueue[Any] = MpscLinkedQueue()
        self.timespan = timespan
        self.buffer_size = buffer_size
        self.requested = AtomicLong()
        self.emitted = 0  # windows emitted (the drain's)
        self.error: BaseException | None = None
        self.refs = UpstreamRefCount()  # the outer + each open window
        self.upstream_cancelled = False
        self.gate = Drain()

    def on_start(self) -> bool:
        self.downstream.on_subscribe(self)
        self.create_first_window()
        return False

    def create_first_window(self) -> None:
        """Emit the first window (or fail for lack of demand) and start the timer, owning
        the drain; then request."""
        if self.refs.outer_cancelled.get():
            return
        gate = self.gate
        if not gate.enter():
            return  # only a cancel's drain can run before the timer and the request
        if self.requested.get() != 0:
            self.emitted = 1
            self.first_window()
            if gate.leave():
                self.drain_loop()
            self.upstream.request(LONG_MAX)
        else:
            self.lack_of_requests()
            if gate.leave():
                self.drain_loop()

    def first_window(self) -> None:
        raise NotImplementedError

    def take_windows(self) -> list[UnicastProcessor[T]]:
        raise NotImplementedError

    def cleanup_resources(self) -> None:
        raise NotImplementedError

    def drain(self) -> None:
        if self.gate.enter():
            self.drain_loop()

    def drain_loop(self) -> None:
        raise NotImplementedError

    def new_window(self) -> UnicastProcessor[T]:
        self.refs.count.get_and_increment()
        return UnicastProcessor(self.buffer_size, self.window_done)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.queue.offer(item)
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        DrainTerminalsMixin.on_error(self, error)

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)

    def cancel(self) -> None:
        # no more windows; the open ones stay until they close
        if self.refs.cancel_outer():
            self.window_done()

    def window_done(self) -> None:
        """The outer was cancelled, or a window closed or was cancelled."""
        if self.refs.count.decrement_and_get() == 0:
            self.cleanup_resources()
            self.upstream.cancel()
            self.upstream_cancelled = True
            self.drain()

    def lack_of_requests(self) -> None:
        """No demand for the next window: fail the open windows and the outer (the drain's)."""
        ex = missing_backpressure(self.emitted)
        self.upstream.cancel()
        self.cleanup_resources()
        self.upstream_cancelled = True
        for w in self.take_windows():
            w.on_error(ex)
        self.downstream.on_error(ex)

    def terminate(self) -> None:
        """The upstream ended and the queue is empty: end the open windows and the outer
        (unless cancelled), release the timers (the drain's)."""
        ws = self.take_windows()
        ex = self.error
        if ex is not None:
            for w in ws:
                w.on_error(ex)
            if not self.refs.outer_cancelled.get():  # read after the windows heard it
                self.downstream.on_error(ex)
        else:
            for w in ws:
                w.on_complete()
            if not self.refs.outer_cancelled.get():
                self.downstream.on_complete()
        self.cleanup_resources()
        self.upstream_cancelled = True


class _ExactWindowSubscriber(_AbstractWindowSubscriber[T], Generic[T]):
    """One window at a time, closed by the timer; ``worker`` only with ``restart``."""

    __slots__ = ("scheduler", "worker", "window", "timer")

    def __init__(self, downstream: Subscriber[Flowable[T]], timespan: float,
                 scheduler: Scheduler, buffer_size: int, worker: Worker | None) -> None:
        super().__init__(downstream, timespan, buffer_size)
        self.scheduler = scheduler
        self.worker = worker
        self.window: UnicastProcessor[T] | None = None
        self.timer = SerialDisposable()

    def timer_task(self) -> Callable[[], None]:
        raise NotImplementedError

    def first_window(self) -> None:
        w = self.window = self.new_window()
        self.downstream.on_next(w)
        ts = self.timespan
        task = self.timer_task()
        if self.worker is not None:
            self.timer.replace(self.worker.schedule_periodically(task, ts, ts))
        else:
            self.timer.replace(self.scheduler.schedule_periodically_direct(task, ts, ts))

    def take_windows(self) -> list[UnicastProcessor[T]]:
        w = self.window
        if w is None:
            return []
        self.window = None
        return [w]

    def cleanup_resources(self) -> None:
        self.timer.dispose()
        if self.worker is not None:
            self.worker.dispose()

    def next_window(self) -> None:
        """Complete the current window; emit the next one under demand (the drain's)."""
        w = self.window
        if w is not None:
            self.window = None
            w.on_complete()
        if self.refs.outer_cancelled.get():
            self.cleanup_resources()
            return
        if self.requested.get() == self.emitted:
            self.lack_of_requests()
            return
        self.emitted += 1
        w = self.window = self.new_window()
        self.downstream.on_next(w)
        worker = self.worker
        if worker is not None:  # restart: the new window gets a fresh timer
            ts = self.timespan
            self.timer.set(worker.schedule_periodically(_Boundary(self, self.emitted), ts, ts))


class WindowExactUnboundedSubscriber(_ExactWindowSubscriber[T], Generic[T]):
    __slots__ = ()

    def __init__(self, downstream: Subscriber[Flowable[T]], timespan: float,
                 scheduler: Scheduler, buffer_size: int) -> None:
        super().__init__(downstream, timespan, scheduler, buffer_size, None)

    def timer_task(self) -> Callable[[], None]:
        return self._tick

    def _tick(self) -> None:
        self.queue.offer(NEXT_WINDOW)
        self.drain()

    def drain_loop(self) -> None:
        gate = self.gate
        q = self.queue
        while True:
            while True:
                if self.upstream_cancelled:
                    q.clear()
                    self.take_windows()  # dropped
                    break
                d = self.done
                o = q.poll()
                if o is None:
                    if d:
                        self.terminate()
                        continue
                    break
                if o is NEXT_WINDOW:
                    self.next_window()
                    continue
                w = self.window
                if w is not None:
                    w.on_next(o)
            if not gate.leave():
                return


class _Boundary:
    """A tick of the bounded window's timer; ``index`` is the window it was started for."""

    __slots__ = ("parent", "index")

    def __init__(self, parent: _ExactWindowSubscriber[Any], index: int) -> None:
        self.parent = parent
        self.index = index

    def __call__(self) -> None:
        p = self.parent
        p.queue.offer(self)
        p.drain()


class WindowExactBoundedSubscriber(_ExactWindowSubscriber[T], Generic[T]):
    __slots__ = ("max_size", "restart", "count")

    def __init__(self, downstream: Subscriber[Flowable[T]], timespan: float,
                 scheduler: Scheduler, buffer_size: int, max_size: int, restart: bool) -> None:
        super().__init__(downstream, timespan, scheduler, buffer_size,
                         scheduler.create_worker() if restart else None)
        self.max_size = max_size
        self.restart = restart
        self.count = 0  # items in the current window

    def timer_task(self) -> Callable[[], None]:
        return _Boundary(self, 1)

    def drain_loop(self) -> None:
        gate = self.gate
        q = self.queue
        while True:
            while True:
                if self.upstream_cancelled:
                    q.clear()
                    self.take_windows()  # dropped
                    break
                d = self.done
                o = q.poll()
                if o is None:
                    if d:
                        self.terminate()
                        continue
                    break
                if isinstance(o, _Boundary) and o.parent is self:
                    if not self.restart or o.index == self.emitted:
                        self.count = 0
                        self.next_window()
                    continue
                w = self.window
                if w is not None:
                    w.on_next(o)
                    c = self.count + 1
                    if c == self.max_size:
                        self.count = 0
                        self.next_window()
                    else:
                        self.count = c
            if not gate.leave():
                return


class WindowSkipSubscriber(_AbstractWindowSubscriber[T], Generic[T]):
    __slots__ = ("timeskip", "worker", "windows")

    def __init__(self, downstream: Subscriber[Flowable[T]], timespan: float, timeskip: float,
                 worker: Worker, buffer_size: int) -> None:
        super().__init__(downstream, timespan, buffer_size)
        self.timeskip = timeskip
        self.worker = worker
        self.windows: list[UnicastProcessor[T]] = []  # open, oldest first

    def first_window(self) -> None:
        w = self.new_window()
        self.windows.append(w)
        self.downstream.on_next(w)
        self.worker.schedule(self._close, self.timespan)
        ts = self.timeskip
        self.worker.schedule_periodically(self._open, ts, ts)

    def _open(self) -> None:
        self.queue.offer(WINDOW_OPEN)
        self.drain()

    def _close(self) -> None:
        self.queue.offer(WINDOW_CLOSE)
        self.drain()

    def take_windows(self) -> list[UnicastProcessor[T]]:
        ws = list(self.windows)
        self.windows.clear()
        return ws

    def cleanup_resources(self) -> None:
        self.worker.dispose()

    def drain_loop(self) -> None:
        gate = self.gate
        q = self.queue
        a = self.downstream
        windows = self.windows
        while True:
            while True:
                if self.upstream_cancelled:
                    q.clear()
                    windows.clear()
                    break
                d = self.done
                o = q.poll()
                if o is None:
                    if d:
                        self.terminate()
                        continue
                    break
                if o is WINDOW_OPEN:
                    if not self.refs.outer_cancelled.get():
                        if self.requested.get() == self.emitted:
                            self.lack_of_requests()
                            continue
                        self.emitted += 1
                        w = self.new_window()
                        windows.append(w)
                        a.on_next(w)
                        self.worker.schedule(self._close, self.timespan)
                    continue
                if o is WINDOW_CLOSE:
                    if windows:
                        windows.pop(0).on_complete()
                    continue
                for w in windows:
                    w.on_next(o)
            if not gate.leave():
                return
