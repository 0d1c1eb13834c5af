"""The subscription of a Spark source: partition jobs launched under demand, items emitted
in partition order.

A partition is *held* from its launch until its last item was emitted; a new one is
launched only while downstream has unmet demand and fewer than ``1 + prefetch_partitions``
are held. Jobs run on the subscription's own threads, in its job group, so that
``cancel()`` cancels them (§3.5); the rules in full: ``docs/spark.md``, *Demand*.
"""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.operator_kit import AtomicInteger
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.reader import BatchReader
from rxpy2.spark.reader import Partitions

__all__ = ["PartitionSubscription"]

T = TypeVar("T")

_NO_ITEMS: list[Any] = []
_thread_ids = itertools.count(1)
#: how often a cancelled subscription cancels its group again while a job thread may still
#: start a job, where Spark runs a job of the group submitted after the cancel
RECANCEL_SECONDS = 0.05
#: and for how long at most
RECANCEL_LIMIT_SECONDS = 10.0


class _JobFailure:
    """A partition whose job failed: its error, signalled when emission reaches it."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def close(self) -> None:
        pass


class PartitionSubscription(Subscription, Generic[T]):
    """Launches partition jobs under demand and emits their items in partition order.

    Job threads only compute and connect; everything else happens in the drain loop,
    serialized by a :class:`~rxpy2.operator_kit.Drain` (``gate``): it runs on the thread that
    requested or cancelled, or on the subscription's one emitter thread when a job
    finished; a signal that finds it running is counted and makes it run another pass.
    After the terminal signal (or a cancel) the drain stays owned for good."""

    def __init__(self, downstream: Subscriber[T], plan: Partitions, prefetch: int,
                 group: str) -> None:
        self.downstream = downstream
        self.plan = plan
        self.n: int = plan.num_partitions
        self.full_held: int = 1 + prefetch
        # under a take/limit: no prefetch until a partition came short of it
        self.limit: int | None = plan.limit
        self.max_held: int = 1 if plan.limit is not None else self.full_held
        self.job_group = group
        self.requested: AtomicLong = AtomicLong()
        self.gate: Drain = Drain()
        self.cancelled: bool = False
        self.done: bool = False
        # computed partitions (or their failures), by index; job threads put, the drain pops
        self.ready: dict[int, BatchReader | _JobFailure] = {}
        self.launched: int = 0  # partitions launched so far (drain loop only)
        self.index: int = 0  # the partition being emitted (drain loop only)
        self.emitted: int = 0
        self.current: BatchReader | None = None
        self.batch: list[Any] = _NO_ITEMS
        self.pos: int = 0
        self.pool: ThreadPoolExecutor | None = None
        self.emitter: ThreadPoolExecutor | None = None
        self.emitter_lock: threading.Lock = threading.Lock()
        self.thread_prefix: str = f"rxpy2-spark-{next(_thread_ids)}"
        # jobs launched and not yet returned (also read by tests and tools to wait for them)
        self.active_jobs: AtomicInteger = AtomicInteger()

    # -- Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True  # §3.5: job threads check it before they launch
        if self.launched and not self.done:
            self._cancel_jobs()
        self.drain()

    # -- job threads

    def _job(self, index: int) -> None:
        try:
            self._run_job(index)
        finally:
            self.active_jobs.decrement_and_get()

    def _run_job(self, index: int) -> None:
        if self.cancelled or self.done:
            return
        try:
            self.plan.enter_group(self.job_group, f"rxpy2: partition {index} of {self.n}")
            reader = self.plan.run_job(index)
        except Exception as e:  # Py4J/PySpark errors of the job, or of the connect
            if self.cancelled:
                return  # cancelled by cancel(): nothing to report
            err = SparkJobError.caused_by(f"Spark job for partition {index} failed", e,
                                          partition=index, job_group=self.job_group)
            self.ready[index] = _JobFailure(err)  # signalled in partition order
            self._drain_on_emitter()
            return
        self.ready[index] = reader
        if self.done:  # the drain loop ended meanwhile: whoever pops the reader closes it
            leftover = self.ready.pop(index, None)
            if leftover is not None:
                leftover.close()
            return
        self._drain_on_emitter()

    def _drain_on_emitter(self) -> None:
        """A finished job hands the drain to the subscription's one emitter thread instead
        of running it here: reading and unpickling batches on one thread, not on each job
        thread, keeps the driver's memory where a single reader's is (every thread that
        allocates large buffers keeps a malloc arena of its own)."""
        emitter = self.emitter
        if emitter is None:
            with self.emitter_lock:
                emitter = self.emitter
                if emitter is None:
                    if self.done:
                        return
                    emitter = self.emitter = ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix=f"{self.thread_prefix}-emit")
        try:
            emitter.submit(self.drain)
        except RuntimeError:  # shut down: the subscription ended meanwhile
            pass

    def _cancel_jobs(self) -> None:
        if not self.plan.cancel_group(self.job_group) and self.active_jobs.get() > 0:
            # this Spark runs a job of the group submitted after the cancel (Spark 3.5, a
            # Connect query): a job thread past its cancelled check may still start one, so
            # cancel again until every job thread has ended
            threading.Thread(target=self._cancel_until_idle, daemon=True,
                             name=f"{self.thread_prefix}-cancel").start()

    def _cancel_until_idle(self) -> None:
        # bounded: a job thread that outlives RECANCEL_LIMIT_SECONDS is not one that slipped
        # past its check (that job is cancelled at the next round), so the loop gives up
        deadline = time.monotonic() + RECANCEL_LIMIT_SECONDS
        while self.active_jobs.get() > 0 and time.monotonic() < deadline:
            time.sleep(RECANCEL_SECONDS)
            self.plan.cancel_group(self.job_group)

    def _launch(self, outstanding: int) -> None:
        """Start jobs while demand is unmet and fewer than ``1 + prefetch`` are held."""
        n = self.n
        if self.limit is not None:  # never ahead of the items the limit still lets through
            outstanding = min(outstanding, self.limit - self.emitted)
        while (outstanding > 0 and self.launched < n and not self.cancelled
               and self.launched - self.index < self.max_held):
            pool = self.pool
            if pool is None:
                pool = self.pool = ThreadPoolExecutor(
                    max_workers=self.full_held, thread_name_prefix=f"{self.thread_prefix}-job")
            self.active_jobs.increment_and_get()
            try:
                pool.submit(self._job, self.launched)
            except RuntimeError:  # shut down by a cancel in between: nothing more starts
                self.active_jobs.decrement_and_get()
                return
            self.launched += 1

    # -- drain loop

    def drain(self) -> None:
        """Emit the finished partitions' items in partition order as far as the demand allows,
        launching the next partitions' jobs as earlier ones are read; complete after the last
        partition, or fail on a job's error.

        A call that finds the loop running only makes it pass again (the loop is serialized by
        ``gate``).
        """
        gate = self.gate
        if not gate.enter():
            return  # counted: the owner makes another pass
        downstream = self.downstream
        while True:
            if self.cancelled:
                self._clear()
                return
            r = self.requested.get()
            e = self.emitted
            batch = self.batch
            pos = self.pos
            while True:
                if pos == len(batch):
                    reader = self.current
                    if reader is None:
                        if self.index == self.n:
                            self._complete()
                            return
                        got = self.ready.pop(self.index, None)
                        if got is None:
                            break  # the job of the next partition has not finished
                        if isinstance(got, _JobFailure):
                            self._fail(got.error)
                            return
                        reader = self.current = got
                    # the spent batch goes before the next is read: one batch in memory
                    batch = self.batch = _NO_ITEMS
                    pos = 0
                    try:
                        nb = reader.next_batch()
                    except Exception as ex:
                        if isinstance(ex, (OSError, EOFError)):  # the socket, not the items
                            err = SparkJobError.caused_by(
                                f"reading partition {self.index} failed", ex,
                                partition=self.index, job_group=self.job_group)
                            ex = err
                        self._fail(ex)  # a driver-side stage's own error goes as it is
                        return
                    if nb is None:
                        reader.close()
                        self.current = None
                        self.index += 1
                        # a partition came short of the limit: prefetch resumes
                        self.max_held = self.full_held
                        self.emitted = e
                        self._launch(r - e)
                        continue
                    batch = nb
                    nb = None  # only `batch` may hold it, or two batches live at the next read
                    continue
                if e == r:
                    break
                end = min(len(batch), pos + (r - e))
                limit = self.limit
                if limit is not None:
                    end = min(end, pos + (limit - e))
                for i in range(pos, end):
                    if self.cancelled:
                        self._clear()
                        return
                    downstream.on_next(batch[i])
                e += end - pos
                pos = end
                if e == limit:  # the take/limit is complete: later partitions are not needed
                    self.emitted = e
                    self._complete()
                    return
            self.batch = batch
            self.pos = pos
            self.emitted = e
            self._launch(self.requested.get() - e)
            if not gate.leave():
                return

    def _finish(self) -> None:
        """Release everything: readers, the thread pool (its threads end after their job)."""
        self.done = True
        current, self.current = self.current, None
        if current is not None:
            current.close()
        while self.ready:
            _, reader = self.ready.popitem()
            reader.close()
        self.batch = _NO_ITEMS
        pool, self.pool = self.pool, None
        if pool is not None:
            # queued jobs still run _job, which sees the end and returns at once
            pool.shutdown(wait=False)
        with self.emitter_lock:
            emitter, self.emitter = self.emitter, None
        if emitter is not None:
            emitter.shutdown(wait=False)

    def _clear(self) -> None:
        # once done the drain never runs again (it stays owned); a job that finishes later
        # closes its own reader in _run_job
        if not self.done:
            self._finish()

    def _fail(self, error: BaseException) -> None:
        self.cancelled = True
        if self.launched:
            self._cancel_jobs()
        self._finish()
        self.downstream.on_error(error)

    def _complete(self) -> None:
        self.cancelled = True
        if self.active_jobs.get() > 0:  # a take/limit ended before the jobs launched did
            self._cancel_jobs()
        self._finish()
        self.downstream.on_complete()
