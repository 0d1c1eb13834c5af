"""ParallelFlowable.run_on: each rail delivers its signals on a worker of its own.

Per rail, as ``observe_on``: the rail's upstream is asked for ``prefetch`` items,
then for ``limit = prefetch - prefetch // 4`` more each time that many were
delivered; items wait in a queue of at most ``prefetch`` (one beyond that ends
the rail with ``MissingBackpressureException``). The rail's worker
(``scheduler.create_worker()``, made when the rail is subscribed) runs one drain
task at a time: the signal that enters the rail's :class:`~rxpy2.operator_kit.Drain`
schedules it, the others are counted and the task makes another pass, so a
rail's signals stay in order while the rails run side by side. An error
overtakes the queued items.

The worker is disposed after the terminal signal, or after a cancel by whoever
holds the drain (the canceller when no drain runs or waits, else that drain),
which also clears the queue; the drain then stays closed.

:class:`RunOnSubscriber` is a
:class:`~rxpy2._internal.subscribers.stable_prefetch.StablePrefetchSubscriber`
(fields, its ``gate``, ``on_error``/``on_complete``/``request``/``cancel``); it
adds the worker, :meth:`RunOnSubscriber.drain` (schedule the drain task) and its
own drain loop, which serves a ConditionalSubscriber rail too.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2._internal.subscribers.stable_prefetch import StablePrefetchSubscriber
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["ParallelRunOn"]


class _NoWorker(Worker):
    """The worker before the rail is subscribed: nothing can schedule on it yet."""

    __slots__ = ()

    def schedule_actual(self, fn: Any, delay: float) -> Any:
        raise RuntimeError("run_on: no worker before on_subscribe")

    def dispose(self) -> None:
        pass

    def is_disposed(self) -> bool:
        return True


_NO_WORKER = _NoWorker()

T = TypeVar("T")


class ParallelRunOn(ParallelPerRail[T, T], Generic[T]):
    __slots__ = ("scheduler", "prefetch")

    def __init__(self, source: ParallelFlowable[T], scheduler: Scheduler, prefetch: int) -> None:
        super().__init__(source)
        self.scheduler = scheduler
        self.prefetch = prefetch

    def rail_subscriber(self, subscriber: Subscriber[T]) -> Subscriber[T]:
        return RunOnSubscriber(subscriber, self.scheduler, self.prefetch)


class RunOnSubscriber(StablePrefetchSubscriber[T, T], Generic[T]):
    __slots__ = ("conditional", "scheduler", "worker", "prefetch")

    operator_name = "run_on"

    def __init__(self, downstream: Subscriber[T], scheduler: Scheduler, prefetch: int) -> None:
        super().__init__(downstream, prefetch, prefetch)
        self.conditional = is_conditional(downstream)
        self.scheduler = scheduler
        self.worker: Worker = _NO_WORKER
        self.prefetch = prefetch

    def prepare(self) -> None:
        self.worker = self.scheduler.create_worker()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        q = self.queue
        if len(q) >= self.prefetch:  # never hold more than prefetch items
            self.overflow()  # cancels the upstream, then on_error
            return
        q.append(item)
        self.drain()

    def cleanup(self) -> None:
        self.queue.clear()
        self.worker.dispose()

    def drain(self) -> None:
        if self.gate.enter():
            self.worker.schedule(self.run)

    def _terminate(self, error: BaseException | None) -> None:
        self.cancelled = True  # a later cancel() is a no-op
        if error is not None:
            self.queue.clear()
            self.downstream.on_error(error)
        else:
            self.downstream.on_complete()
        self.worker.dispose()

    def run(self) -> None:
        """The drain task: ``drain_loop`` of the base, plus a ConditionalSubscriber rail
        (``try_on_next``; a rejected item is not counted against the demand) and the
        worker's disposal at the end. Its own loop: the base's keeps one test less per item.
        The task owns the drain."""
        a = self.downstream
        deliver = a.try_on_next if self.conditional else None  # type: ignore[attr-defined]  # conditional: a ConditionalSubscriber
        on_next = a.on_next
        q = self.queue
        poll = q.poll
        leave = self.gate.leave
        upstream = self.upstream
        requested = self.requested
        lim = self.limit
        c = self.consumed
        while True:
            r = requested.get()
            e = 0
            while e != r:
                if self.cancelled:
                    self.cleanup()
                    return
                d = self.done
                if d and self.error is not None:
                    self._terminate(self.error)
                    return
                v = poll()
                if v is None:
                    if d:
                        self._terminate(None)
                        return
                    break
                if deliver is None:
                    on_next(v)
                    e += 1
                elif deliver(v):
                    e += 1
                c += 1
                if c == lim:
                    c = 0
                    upstream.request(lim)
            if e == r:
                if self.cancelled:
                    self.cleanup()
                    return
                if self.done:
                    if self.error is not None:
                        self._terminate(self.error)
                        return
                    if q.is_empty():
                        self._terminate(None)
                        return
            if e != 0 and r != LONG_MAX:
                produced(requested, e)
            self.consumed = c
            if not leave():
                return
