"""Structured Streaming under demand: ``from_stream``.

On a classic session each subscription runs a streaming query whose ``foreachBatch``
callback hands each micro-batch to the subscription and then waits while
``prefetch_batches`` are held: Spark runs that callback on the query's one stream thread,
so a slow consumer slows the query instead of filling the driver's memory, and a batch is
committed only once fewer are held (at-least-once with ``prefetch_batches=1``).

On a Spark Connect session a ``foreachBatch`` callback runs in a Python process of the
server, so the subscription runs the stream from the client instead
(:class:`ConnectStreamSubscription`): a query per demand round writes the micro-batches
available to a directory each on the server, and the client reads them back one query per
batch, at most ``prefetch_batches`` held (the queries: :mod:`rxpy2.spark.connect_stream`).
Threads, delivery and checkpoints: ``docs/spark.md``, *Structured Streaming*.
"""

from __future__ import annotations

import collections
import itertools
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import Literal
from typing import TypeVar
from typing import overload

from rxpy2 import plugins
from rxpy2._internal.subscribers.cancelling import CancellingSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import require_positive
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.spark import connect_stream
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.pyspark_adapter import add_tag
from rxpy2.spark.pyspark_adapter import dataframe_to_arrow
from rxpy2.spark.pyspark_adapter import interrupt_tag
from rxpy2.spark.pyspark_adapter import is_connect
from rxpy2.spark.pyspark_adapter import is_dataframe
from rxpy2.spark.pyspark_adapter import remove_tag
from rxpy2.spark.pyspark_adapter import require_pyspark

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql import Row

__all__ = ["ConnectStreamSubscription", "StreamFlowable", "StreamSubscription", "from_stream"]

T = TypeVar("T")

ROW_FORMATS = ("row", "dict", "tuple")
EMITS = ("rows", "batches")
TRIGGERS = ("processingTime", "once", "availableNow")
OUTPUT_MODES = ("append", "update", "complete")


def _require_choice(value: Any, name: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")


def _check_trigger(trigger: Any) -> dict[str, Any] | None:
    """``None``, a ``processingTime`` string, or a one-key mapping of
    ``DataStreamWriter.trigger``'s keywords (``continuous`` has no ``foreachBatch``)."""
    if trigger is None:
        return None
    if isinstance(trigger, str):
        return {"processingTime": trigger}
    if not isinstance(trigger, Mapping):
        raise TypeError(f"trigger must be a str or a mapping, not {type(trigger).__name__}")
    if len(trigger) != 1:
        raise ValueError(f"trigger must have exactly one key of {', '.join(TRIGGERS)}, "
                         f"not {dict(trigger)!r}")
    ((key, value),) = trigger.items()
    _require_choice(key, "the trigger's key", TRIGGERS)
    if key == "processingTime":
        if not isinstance(value, str):
            raise TypeError(f"processingTime must be a str such as '1 second', not {value!r}")
    elif value is not True:
        raise ValueError(f"{key} must be True, not {value!r}")
    return {key: value}


# ---------------------------------------------------------------------------- the Flowable

class StreamFlowable(Flowable[T], Generic[T]):
    """A Flowable over the micro-batches of a streaming DataFrame (see :func:`from_stream`).

    Each subscription starts a streaming query of its own (on a Spark Connect session, a
    query per demand round: :class:`ConnectStreamSubscription`); the Flowable is cold."""

    #: explain() of a chain over it starts with its own line (rxpy2._internal.describe);
    #: STREAMING: no stage after it is fused into its query (rxpy2.spark.explain)
    EXPLAINS_ITSELF: ClassVar[bool] = True
    STREAMING: ClassVar[bool] = True

    __slots__ = ("_df", "_prefetch", "_emit", "_row_format", "_checkpoint", "_trigger",
                 "_query_name", "_options", "_output_mode", "_last", "_connect")

    def __init__(self, df: Any, prefetch: int, emit: str, row_format: str,
                 checkpoint_location: str | None, trigger: dict[str, Any] | None,
                 query_name: str | None, options: dict[str, str],
                 output_mode: str | None = None, connect: bool = False) -> None:
        self._df = df
        self._prefetch = prefetch
        self._emit = emit
        self._row_format = row_format
        self._checkpoint = checkpoint_location
        self._trigger = trigger
        self._query_name = query_name
        self._options = options
        self._output_mode = output_mode
        self._connect = connect
        self._last: StreamSubscription[T] | None = None

    @property
    def on_connect(self) -> bool:
        """Whether the streaming DataFrame belongs to a Spark Connect session."""
        return self._connect

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: StreamSubscription[T] = (ConnectStreamSubscription(subscriber, self)
                                         if self._connect else StreamSubscription(subscriber, self))
        self._last = parent
        subscriber.on_subscribe(parent)
        parent.start()

    @property
    def last_subscription(self) -> StreamSubscription[T] | None:
        """The subscription made last (its counters: :attr:`StreamSubscription.batches_held`,
        ...), or ``None`` before the first subscribe; for tools and benchmarks."""
        return self._last

    def explain(self) -> str:
        """The source line of ``explain()``: the streaming DataFrame, the item shape and how
        its micro-batches reach this process."""
        try:
            what = f"streaming DataFrame[{', '.join(f'{n}: {t}' for n, t in self._df.dtypes)}]"
        except Exception:  # a stand-in DataFrame, or no server to ask: the schema is unknown
            what = "streaming DataFrame"
        shape = ("one pyarrow.Table per micro-batch" if self._emit == "batches"
                 else f"rows as {self._row_format}")
        if self._connect:
            how = ("Spark Connect: client-run micro-batches, a query per demand round "
                   f"(trigger {'once' if self._runs_once() else 'availableNow'}) whose "
                   "foreachBatch writes each micro-batch to a Parquet directory on the "
                   "server, then a query per micro-batch to read it")
        else:
            how = ("foreachBatch on the driver: each micro-batch collected, the query waiting "
                   "while they are held")
        return (f"spark   source    {what} ({shape}; {how}, prefetch {self._prefetch} "
                f"micro-batch(es))")

    def explain_chain(self, end: Any) -> str:
        """The ``explain()`` of a chain ``end`` over this source: :func:`rxpy2.spark.explain`."""
        from rxpy2.spark.explain import explain

        return explain(end)

    def _runs_once(self) -> bool:
        return self._trigger is not None and "once" in self._trigger

    def __repr__(self) -> str:
        return f"StreamFlowable(emit={self._emit!r}, prefetch_batches={self._prefetch})"


@overload
def from_stream(streaming_df: Any, prefetch_batches: int = ..., *, emit: Literal["rows"] = ...,
                row_format: Literal["row"] = ..., checkpoint_location: str | None = ...,
                trigger: str | Mapping[str, Any] | None = ..., query_name: str | None = ...,
                options: Mapping[str, str] | None = ...,
                output_mode: str | None = ...) -> StreamFlowable[Row]: ...


@overload
def from_stream(streaming_df: Any, prefetch_batches: int = ..., *, emit: Literal["rows"] = ...,
                row_format: Literal["dict"], checkpoint_location: str | None = ...,
                trigger: str | Mapping[str, Any] | None = ..., query_name: str | None = ...,
                options: Mapping[str, str] | None = ...,
                output_mode: str | None = ...) -> StreamFlowable[dict[str, Any]]: ...


@overload
def from_stream(streaming_df: Any, prefetch_batches: int = ..., *, emit: Literal["rows"] = ...,
                row_format: Literal["tuple"], checkpoint_location: str | None = ...,
                trigger: str | Mapping[str, Any] | None = ..., query_name: str | None = ...,
                options: Mapping[str, str] | None = ...,
                output_mode: str | None = ...) -> StreamFlowable[tuple[Any, ...]]: ...


@overload
def from_stream(streaming_df: Any, prefetch_batches: int = ..., *, emit: Literal["batches"],
                row_format: str = ..., checkpoint_location: str | None = ...,
                trigger: str | Mapping[str, Any] | None = ..., query_name: str | None = ...,
                options: Mapping[str, str] | None = ...,
                output_mode: str | None = ...) -> StreamFlowable[pyarrow.Table]: ...


@overload
def from_stream(streaming_df: Any, prefetch_batches: int = ..., *, emit: str = ...,
                row_format: str = ..., checkpoint_location: str | None = ...,
                trigger: str | Mapping[str, Any] | None = ..., query_name: str | None = ...,
                options: Mapping[str, str] | None = ...,
                output_mode: str | None = ...) -> StreamFlowable[Any]: ...


def from_stream(streaming_df: Any, prefetch_batches: int = 1, *, emit: str = "rows",
                row_format: str = "row", checkpoint_location: str | None = None,
                trigger: str | Mapping[str, Any] | None = None, query_name: str | None = None,
                options: Mapping[str, str] | None = None,
                output_mode: str | None = None) -> StreamFlowable[Any]:
    """A Flowable of the rows of a streaming query, taking a micro-batch only under demand.

    Each subscription starts ``streaming_df.writeStream.foreachBatch(...)`` (nothing runs
    at assembly). ``emit="rows"``: each row, as a ``Row``, ``dict`` or ``tuple``
    (``row_format``); ``emit="batches"``: one ``pyarrow.Table`` per non-empty micro-batch.
    At most ``prefetch_batches`` (≥ 1) micro-batches are held on the driver; while that
    many are, the query waits. ``checkpoint_location``, ``trigger`` (``"1 second"``,
    ``{"processingTime": ...}``, ``{"availableNow": True}`` or ``{"once": True}``),
    ``query_name``, ``options`` (``DataStreamWriter.options``) and ``output_mode``
    (``"append"``, ``"update"`` or ``"complete"``: what an aggregating query hands to
    each micro-batch) go to the query.
    The query ends on ``cancel()``; its failure is ``on_error(SparkJobError)``; when it
    ends by itself (``availableNow``/``once``) the Flowable completes after the last item.

    On a Spark Connect session (the same arguments) the micro-batches are client-run:
    per demand round, a query with ``trigger(availableNow=True)`` (``once=True`` for
    ``once``) whose ``foreachBatch`` writes each micro-batch to ``<sink>/batch-<batchId>``
    as Parquet on the server, and one query per micro-batch reads it back (once the round
    reported it finished) under ``prefetch_batches`` (:class:`ConnectStreamSubscription`).
    ``processingTime`` (or no
    trigger) polls: a round that brought nothing is followed by the next one after the
    interval (1 second without one). The sink and checkpoint are a temporary directory
    unless ``checkpoint_location`` is given (the sink is then
    ``<checkpoint_location>/rxpy2-batches``, or ``options["path"]``; a later subscription
    with it resumes at the first batch not delivered: at-least-once). The server needs a
    Python for ``foreachBatch``. ``docs/spark.md``, *Spark Connect*.
    """
    if streaming_df is None:
        raise TypeError("streaming_df is None")
    require_pyspark()
    on_connect = is_connect(streaming_df)
    if not (on_connect or is_dataframe(streaming_df)) or not hasattr(streaming_df, "isStreaming"):
        raise TypeError(f"streaming_df must be a pyspark DataFrame, "
                        f"not {type(streaming_df).__name__}")
    if not streaming_df.isStreaming:
        raise TypeError("streaming_df is not a streaming DataFrame (spark.readStream...); "
                        "use from_dataframe for a batch DataFrame")
    require_positive(prefetch_batches, "prefetch_batches")
    _require_choice(emit, "emit", EMITS)
    _require_choice(row_format, "row_format", ROW_FORMATS)
    checked_trigger = _check_trigger(trigger)
    if output_mode is not None:
        _require_choice(output_mode, "output_mode", OUTPUT_MODES)
    for name, value in (("checkpoint_location", checkpoint_location), ("query_name", query_name)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    opts: dict[str, str] = {}
    if options is not None:
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be a mapping, not {type(options).__name__}")
        opts = {str(k): str(v) for k, v in options.items()}
    if on_connect:
        if checked_trigger is not None and "processingTime" in checked_trigger:
            connect_stream.interval_seconds(checked_trigger["processingTime"])  # the poll wait
        if "path" in opts and connect_checkpoint(checkpoint_location, opts) is None:
            raise ValueError("options['path'] (the sink the micro-batches are written to on "
                             "Spark Connect) needs a checkpoint_location: without one every "
                             "subscription starts at batch 0 and would read an earlier "
                             "subscription's batches there")
    return StreamFlowable(streaming_df, prefetch_batches, emit, row_format, checkpoint_location,
                          checked_trigger, query_name, opts, output_mode, on_connect)


# ---------------------------------------------------------------------------- the subscription

_ids = itertools.count(1)


class _Released(Exception):
    """Raised out of a ``foreachBatch`` call released by ``cancel()``: Spark must not
    commit a batch that was not delivered."""


class _Batch:
    __slots__ = ("batch_id", "items")

    def __init__(self, batch_id: int, items: list[Any]) -> None:
        self.batch_id = batch_id
        self.items = items


class StreamSubscription(Subscription, Generic[T]):
    """Runs one streaming query and emits its micro-batches under demand.

    The micro-batch hand-over (``queue``, ``held``) is guarded by ``lock``, a Condition
    the waiting callback sleeps on; emission runs in a drain loop serialized by a
    :class:`~rxpy2.operator_kit.Drain`, which never calls downstream while holding ``lock``.

    Read-only counters, for tools and benchmarks: :attr:`batches_held`,
    :attr:`max_batches_held`, :attr:`batches_received`, :attr:`last_batch_id`,
    :attr:`query`."""

    def __init__(self, downstream: Subscriber[T], source: StreamFlowable[T]) -> None:
        self.downstream: Subscriber[T] = downstream
        self.source = source
        self.prefetch: int = source._prefetch
        self.requested: AtomicLong = AtomicLong()
        self.gate: Drain = Drain()
        self.lock: threading.Condition = threading.Condition(threading.Lock())
        self.cancelled: bool = False
        self.done: bool = False
        # guarded by lock: batches handed over and not fully emitted, the query's end
        self.queue: collections.deque[_Batch] = collections.deque()
        self.held: int = 0
        self.max_held: int = 0
        self.emitting_id: int | None = None  # the batch the drain is emitting
        self.received: int = 0
        self.last_id: int | None = None
        self.ended: bool = False
        self.error: BaseException | None = None
        self._query: Any = None
        # drain loop only: the batch being emitted
        self.current: list[Any] | None = None
        self.pos: int = 0
        self.emitted: int = 0
        # False when the query's checkpoint is Spark's temporary one (deleted when the query
        # stops cleanly): a batch released by cancel() may then simply return
        self.durable: bool = True
        self.thread_prefix: str = f"rxpy2-spark-stream-{next(_ids)}"
        self.emitter: _Emitter | None = None
        self.threads: list[threading.Thread] = []  # every thread started, for joining
        self.terminated: threading.Event = threading.Event()

    # -- read-only state

    @property
    def batches_held(self) -> int:
        """Micro-batches handed over by the query and not yet fully emitted (the batches
        in flight on the driver): at most ``prefetch_batches``."""
        return self.held

    @property
    def max_batches_held(self) -> int:
        """The highest :attr:`batches_held` seen so far."""
        return self.max_held

    @property
    def batches_received(self) -> int:
        """Micro-batches the query handed to this subscription (empty ones included)."""
        return self.received

    @property
    def last_batch_id(self) -> int | None:
        """The ``batchId`` of the last micro-batch handed over, or ``None``."""
        return self.last_id

    @property
    def query(self) -> Any:
        """The ``StreamingQuery``, once started (``None`` before): read its progress
        (``recentProgress``), do not stop it (``cancel()`` does, without committing a
        batch that was not delivered)."""
        return self._query

    def await_termination(self, timeout: float | None = None) -> bool:
        """Block until the query has ended and every thread of this subscription with it
        (after completion, an error or ``cancel()``); False if ``timeout`` ran out.
        Called from a signal of this subscription (which may run on one of its threads) it
        does not block: it says whether the query has ended."""
        me = threading.current_thread()
        with self.lock:
            threads = list(self.threads)
        if me in threads:
            return self.terminated.is_set()
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self.terminated.wait(timeout):
            return False
        joined: set[threading.Thread] = set()
        while True:  # the list as it is now: the emitter or a stopper may have come since
            with self.lock:
                threads = [t for t in self.threads if t is not me and t not in joined]
            if not threads:
                return True
            for t in threads:
                t.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
                if t.is_alive():
                    return False
                joined.add(t)

    # -- Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        with self.lock:
            self.cancelled = True  # §3.5, §3.7: the callback raises, nothing more is taken
            query = self._query
            reading = self._reading()
            self.lock.notify_all()  # release a waiting callback first: stop() waits for it
        if reading:
            self._interrupt_reads()
        if query is not None:
            self._stop_aside(query)
        self.drain()

    def _reading(self) -> bool:
        """Whether a read of a batch is in flight that cancel() must interrupt (read under
        ``lock``): none here, the query's own callback reads its batch."""
        return False

    def _interrupt_reads(self) -> None:
        """Interrupt the batch read in flight (see :meth:`_reading`)."""

    def _stop_aside(self, query: Any) -> None:
        """Stop ``query`` on a thread of its own: stop() blocks until the query's thread ended,
        never on the caller's thread (the thread joins ``threads``)."""
        stopper = threading.Thread(target=self._stop, args=(query,), daemon=True,
                                   name=f"{self.thread_prefix}-stop")
        with self.lock:
            self.threads.append(stopper)
        stopper.start()

    # -- the query

    def start(self) -> None:
        """Start the query on the subscription's query thread (called after on_subscribe)."""
        if self.cancelled:
            self.terminated.set()
            return
        t = threading.Thread(target=self._run_query, daemon=True,
                             name=f"{self.thread_prefix}-query")
        with self.lock:
            self.threads.append(t)
        t.start()

    def _writer(self) -> Any:
        src = self.source
        return self._configured(src._df.writeStream.foreachBatch(self._on_batch), src._options,
                                src._checkpoint, src._trigger)

    def _configured(self, writer: Any, options: Mapping[str, str], checkpoint: str | None,
                    trigger: dict[str, Any] | None) -> Any:
        """``writer`` (a ``DataStreamWriter``) with ``options``, the ``checkpoint``
        location, the ``trigger`` and the source's query name and output mode."""
        src = self.source
        if options:
            writer = writer.options(**options)
        if checkpoint is not None:
            writer = writer.option("checkpointLocation", checkpoint)
        if src._query_name is not None:
            writer = writer.queryName(src._query_name)
        if trigger is not None:
            writer = writer.trigger(**trigger)
        if src._output_mode is not None:
            writer = writer.outputMode(src._output_mode)
        return writer

    def _run_query(self) -> None:
        try:
            failure: BaseException | None = None
            if self.cancelled:  # cancelled before the query started: nothing to run
                return
            try:
                self.durable = self._has_checkpoint()
                query = self._writer().start()
            except Exception as e:  # AnalysisException, a bad checkpoint, a name in use...
                self._end(SparkJobError.caused_by("starting the streaming query failed", e))
                return
            with self.lock:
                self._query = query
                stop_now = self.cancelled
            if stop_now:  # cancelled while starting: cancel() saw no query to stop
                self._stop(query)
            try:
                query.awaitTermination()
            except Exception as e:  # StreamingQueryException: the query failed
                failure = e
            cause = self.error if self.error is not None else failure
            if cause is None:  # ended by itself (availableNow, once) or by cancel()
                self._end(None)
                return
            self._end(SparkJobError.caused_by("the streaming query failed", cause))
        finally:
            self.terminated.set()

    def _has_checkpoint(self) -> bool:
        """Whether the query checkpoints where a restart can find it (an explicit location,
        or the session's ``spark.sql.streaming.checkpointLocation``)."""
        src = self.source
        if src._checkpoint is not None or "checkpointLocation" in src._options:
            return True
        default = src._df.sparkSession.conf.get("spark.sql.streaming.checkpointLocation", None)
        return bool(default)

    def _stop(self, query: Any) -> None:
        try:
            query.stop()
        except Exception as e:  # a stopped SparkContext: nothing runs any more
            if "stopped" not in str(e).lower():
                plugins.on_error(e)

    def _end(self, error: BaseException | None) -> None:
        """The query ended (``error``: why it failed): signalled after the held items."""
        with self.lock:
            self.ended = True
            if error is not None:
                self.error = error
        self.drain()

    def _released(self) -> None:
        """A batch released by cancel(): raise, so that Spark does not commit it and a
        restart from the checkpoint runs it again. Without a checkpoint to restart from,
        return instead: the query then stops cleanly and Spark deletes its temporary
        checkpoint (a failed query's is kept)."""
        if self.durable:
            raise _Released("the subscription was cancelled")

    def _on_batch(self, batch_df: Any, batch_id: int) -> None:
        """The ``foreachBatch`` function: runs on a Py4J callback thread, in the query's
        micro-batch; Spark commits the batch when it returns."""
        if self.cancelled:
            self._released()
            return
        try:
            items = self._materialize(batch_df)
        except Exception as e:
            if self.cancelled:  # stop() cancelled the batch's job
                self._released()
                return
            with self.lock:
                self.error = e  # the cause of the query's failure
            raise
        if not self._enqueue(batch_id, items):
            if self.cancelled:
                self._released()
            return  # nothing to deliver: the batch may be committed
        with self.lock:
            while self.held >= self.prefetch and not self.cancelled:
                self.lock.wait()
            if self.cancelled:
                self._released()  # not committed: a restart runs this batch again

    def _materialize(self, batch_df: Any) -> list[Any]:
        src = self.source
        if src._emit == "batches":
            table = dataframe_to_arrow(batch_df)
            return [table] if table.num_rows else []
        rows: list[Any] = batch_df.collect()
        if src._row_format == "tuple":
            return [tuple(r) for r in rows]
        if src._row_format == "dict":
            names = batch_df.columns
            return [dict(zip(names, r, strict=True)) for r in rows]
        return rows

    def _enqueue(self, batch_id: int, items: list[Any]) -> bool:
        """Count the micro-batch ``batch_id`` as received and queue its items for the
        emitter (the classic callback's and a Connect round's one way in); ``False`` when
        nothing was queued: no items, or the subscription was cancelled."""
        with self.lock:
            self.received += 1
            self.last_id = batch_id
            if not items or self.cancelled:
                return False
            self.queue.append(_Batch(batch_id, items))
            self.held += 1
            if self.held > self.max_held:
                self.max_held = self.held
        self._drain_on_emitter()
        return True

    def _drain_on_emitter(self) -> None:
        """Emission runs on the subscription's emitter thread, not on the callback's: the
        callback of a later batch can then materialize while items are emitted."""
        emitter = self.emitter
        if emitter is None:
            with self.lock:
                if self.done:  # _finish() ran (or is taking the emitter): nothing to emit
                    return
                emitter = self.emitter
                if emitter is None:
                    emitter = self.emitter = _Emitter(f"{self.thread_prefix}-emit", self.drain)
                    self.threads.append(emitter.thread)
        emitter.signal()

    # -- drain loop

    def drain(self) -> None:
        """Emit the items of the held micro-batches as far as the demand allows, then the terminal
        signal once the query ended; a call that finds the loop running only makes it pass again.

        After cancellation it releases the held batches and stops the emitter thread.
        """
        gate = self.gate
        if not gate.enter():
            return  # counted: the owner makes another pass
        downstream = self.downstream
        while True:
            if self.cancelled:
                self._finish()
                return
            r = self.requested.get()
            e = self.emitted
            items = self.current
            pos = self.pos
            while True:
                if items is None or pos == len(items):
                    lock = self.lock
                    with lock:
                        if items is not None:  # the batch's last item was emitted
                            self.held -= 1
                            # what a woken Connect round thread weighs against the demand
                            self.emitted = e
                            lock.notify_all()
                        nxt = self.queue.popleft() if self.queue else None
                        self.emitting_id = None if nxt is None else nxt.batch_id
                        ended = self.ended
                        error = self.error
                    items = self.current = None
                    pos = 0
                    if nxt is None:
                        if ended:
                            if self.cancelled:  # §3.6: the end stop() caused is not signalled
                                self._finish()
                                return
                            self.emitted = e
                            self._terminate(error)
                            return
                        break
                    items = self.current = nxt.items
                    continue
                if e == r:
                    break
                end = min(len(items), pos + (r - e))
                for i in range(pos, end):
                    if self.cancelled:
                        self._finish()
                        return
                    downstream.on_next(items[i])
                e += end - pos
                pos = end
            self.pos = pos
            self.emitted = e
            if not gate.leave():
                return

    def _finish(self) -> None:
        """Release the held batches and the emitter (the drain stays owned for good)."""
        if self.done:
            return
        self.done = True
        self.cancelled = True
        with self.lock:
            self.queue.clear()
            self.held = 0
            self.lock.notify_all()
            emitter, self.emitter = self.emitter, None
        self.current = None
        self.downstream = _DETACHED  # §3.13: the query may outlive this; the subscriber must not
        if emitter is not None:
            emitter.shutdown()

    def _terminate(self, error: BaseException | None) -> None:
        downstream = self.downstream
        self._finish()
        if error is not None:
            downstream.on_error(error)
        else:
            downstream.on_complete()


# ---------------------------------------------------------------------------- Spark Connect

def connect_checkpoint(checkpoint_location: str | None, options: Mapping[str, str]) -> str | None:
    """The checkpoint a Connect subscription's rounds share: the user's, else ``None``
    (rxpy2 makes a temporary one; the session's ``spark.sql.streaming.checkpointLocation``
    is not used: it would give each round a new checkpoint under it)."""
    return checkpoint_location or options.get("checkpointLocation") or None


#: the wait between two rounds when the last one brought no micro-batch and the trigger has
#: no interval of its own (trigger=None: Spark's default runs batches as soon as it can)
DEFAULT_POLL_SECONDS = 1.0

#: how often a round's thread looks for the batches its running query has finished
PROBE_SECONDS = 0.5


class ConnectStreamSubscription(StreamSubscription[T], Generic[T]):
    """``from_stream`` on a Spark Connect session: client-run micro-batches, under demand.

    A Connect ``foreachBatch`` function runs in a Python process of the server, so it can
    neither reach this process's subscriber nor wait for its demand. This subscription's
    *round thread* (``rxpy2-spark-stream-<n>-query``) runs the stream instead, in rounds
    (the queries: :mod:`rxpy2.spark.connect_stream`):

    * a **round** starts when downstream has demand not yet covered by what was emitted,
      fewer than ``prefetch_batches`` micro-batches are held and every batch of the last
      round was read: ``writeStream.foreachBatch(batch_writer(sink))`` with
      ``trigger(availableNow=True)`` (``once=True`` for the user's ``once``) and the
      subscription's checkpoint, and the thread waits for its end
      (``awaitTermination(PROBE_SECONDS)`` in turns): the server writes each micro-batch
      of the data available at the start to ``<sink>/batch-<batchId>``;
    * the micro-batches are **read** in ``batchId`` order, one query each (``collect()``,
      ``toArrow()`` for ``emit="batches"``), whenever fewer than ``prefetch_batches`` are
      held: while the round runs those its ``lastProgress`` reports finished, after its end
      the rest. This process holds at most ``prefetch_batches`` batches; the rest waits on
      the server's disk;
    * a running round is **stopped** for want of demand: no demand beyond the held batches
      and ``prefetch_batches`` more finished batches unread (not for ``once``); its batch in
      flight, half written and not committed, is run again by the next round;
    * a trigger of ``once``/``availableNow`` completes the Flowable after the batches of a
      round that ended by itself were emitted; ``processingTime`` (or none) polls: a round
      that brought no batch is followed by the next one after the trigger's interval (a
      timed wait on the subscription's Condition, which ``cancel()`` wakes), while demand
      remains.

    The sink and the checkpoint are a temporary directory of rxpy2's (removed when the
    subscription ends) unless ``checkpoint_location`` (the sink then is
    ``<checkpoint_location>/rxpy2-batches``, or ``options["path"]``) is given; with a
    checkpoint of the user's, each round first records the first batch not yet delivered
    (:data:`rxpy2.spark.connect_stream.MARKER`) and a later subscription starts reading
    there, up to the checkpoint's last committed batch (at-least-once). ``cancel()`` stops the running round's query and
    interrupts the subscription's tag when a batch is being read; nothing is signalled
    after it.

    Read-only, besides the counters of :class:`StreamSubscription`: :attr:`rounds`,
    :attr:`sink`, :attr:`checkpoint`."""

    def __init__(self, downstream: Subscriber[T], source: StreamFlowable[T]) -> None:
        super().__init__(downstream, source)
        self.spark: Any = source._df.sparkSession
        self.tag: str = f"{self.thread_prefix}-{os.getpid()}"
        trigger = source._trigger or {}
        self.once: bool = "once" in trigger
        self.ends: bool = "once" in trigger or "availableNow" in trigger
        interval = trigger.get("processingTime")
        self.poll: float = (connect_stream.interval_seconds(interval) if interval is not None
                            else DEFAULT_POLL_SECONDS) or DEFAULT_POLL_SECONDS
        self.round_count: int = 0
        self.temp_dir: str | None = None  # the directory rxpy2 made, removed at the end
        self.sink_dir: str | None = None
        self.checkpoint_dir: str | None = None
        self.marked: int | None = None  # the marker's value as last written
        self.reading: bool = False  # guarded by lock: a batch query is being read
        self.next_id: int = 0  # round thread: the next batch to read
        self.found: int = 0  # round thread: the batches read since the last round started
        # round thread: after a round stopped early, the last batch it finished (the next
        # one may be half written: the next round writes it again)
        self.read_limit: int | None = None

    # -- read-only state

    @property
    def rounds(self) -> int:
        """The rounds (streaming queries) started so far."""
        return self.round_count

    @property
    def sink(self) -> str | None:
        """The directory the micro-batches are written to (once the round thread set it)."""
        return self.sink_dir

    @property
    def checkpoint(self) -> str | None:
        """The checkpoint location of the rounds (once the round thread set it)."""
        return self.checkpoint_dir

    # -- Subscription

    def request(self, n: int) -> None:
        super().request(n)
        with self.lock:
            self.lock.notify_all()  # the round thread waits for demand

    def _reading(self) -> bool:
        return self.reading

    def _interrupt_reads(self) -> None:
        interrupt_tag(self.spark, self.tag)  # a batch query in flight (a round's is stopped)

    # -- the rounds

    def _run_query(self) -> None:
        add_tag(self.spark, self.tag)  # this thread's batch queries: interrupted by cancel()
        try:
            if self.cancelled:
                return
            try:
                schema, next_id, readable = self._prepare()
            except Exception as e:
                self._fail("preparing the streaming query failed", e)
                return
            self._rounds(schema, next_id, readable)
        finally:
            remove_tag(self.spark, self.tag)
            self._clean_up()
            self.terminated.set()

    def _prepare(self) -> tuple[Any, int, bool]:
        """The directories, the batches' schema and the first batch to read (and whether
        the sink may hold it already)."""
        src = self.source
        schema = src._df.schema
        checkpoint = connect_checkpoint(src._checkpoint, src._options)
        if checkpoint is None:  # rxpy2's: a new checkpoint (its first batch is 0) and sink
            self.temp_dir = tempfile.mkdtemp(prefix="rxpy2-stream-")
            self.checkpoint_dir = f"{self.temp_dir}/checkpoint"
            self.sink_dir = f"{self.temp_dir}/batches"
            return schema, 0, False
        sink = src._options.get("path") or f"{checkpoint.rstrip('/')}/rxpy2-batches"
        self.sink_dir, self.checkpoint_dir = sink, checkpoint
        marked = connect_stream.read_marker(self.spark, sink)
        last = connect_stream.last_committed(self.spark, checkpoint)
        if marked is not None:
            self.marked = marked
            # what the last subscription did not deliver, up to the last committed batch:
            # one after it may be half written (a stopped round, a crash); a round runs it
            self.read_limit = last if last is not None else marked - 1
            return schema, marked, True
        return schema, 0 if last is None else last + 1, False

    def _demand(self) -> bool:
        """Whether downstream asked for more than was emitted (read under ``lock``)."""
        return self.requested.get() > self.emitted

    def _rounds(self, schema: Any, next_id: int, readable: bool) -> None:
        lock = self.lock
        self.next_id = next_id
        ran = False  # a round has run
        poll_at: float | None = None  # no batch last round: the next one not before this
        failure: SparkJobError | None = None  # the last round failed: after its batches
        while True:
            with lock:
                while not self.cancelled:
                    if self.held < self.prefetch:
                        if readable:
                            break
                        if self._demand():
                            if poll_at is None:
                                break
                            left = poll_at - time.monotonic()
                            if left <= 0:
                                break
                            lock.wait(left)
                            continue
                    lock.wait()
                if self.cancelled:
                    return
                if readable:
                    self.reading = True
            if readable:
                if self.read_limit is not None and self.next_id > self.read_limit:
                    items = None  # after a stopped round: the next round writes this batch
                    with lock:
                        self.reading = False
                else:
                    items = self._read(schema, self.next_id)
                if items is False:
                    return
                if items is None:  # no such batch: the last round's batches were all read
                    readable = False
                    if failure is not None:
                        self._end(failure)
                        return
                    if ran and self.ends:
                        try:
                            self._mark_delivered()
                        except Exception as e:  # every item is delivered: the end stands
                            plugins.on_error(e)
                        self._end(None)
                        return
                    if ran and self.found == 0:  # the round brought nothing: wait
                        poll_at = time.monotonic() + self.poll
                    continue
                poll_at = None
                self._take(items)
                continue
            self.found = 0
            outcome = self._round(schema)
            if outcome is False:
                return
            readable = True
            if outcome == "stopped":  # no demand: the finished batches are read, then more
                ran = False
                continue
            if isinstance(outcome, SparkJobError):
                failure = outcome  # signalled after the batches written before the failure
            ran = True
            self.read_limit = None

    def _read(self, schema: Any, batch_id: int) -> list[Any] | None | Literal[False]:
        """Batch ``batch_id``'s items, ``None`` when it was not written, ``False`` when the
        subscription ended (cancelled, or the read failed: signalled)."""
        src = self.source
        sink = self.sink_dir
        assert sink is not None
        path = connect_stream.batch_path(sink, batch_id)
        try:
            items = connect_stream.read_batch(self.spark, schema, path, src._emit,
                                              src._row_format)
        except Exception as e:
            with self.lock:
                self.reading = False
            if not self.cancelled:
                self._fail(f"reading micro-batch {batch_id} failed", e)
            return False
        with self.lock:
            self.reading = False
            if self.cancelled:
                return False
        if items is not None and self.temp_dir is not None:
            # read whole: rxpy2's own sink drops it, where this process sees the directory
            # (a local server; a remote one keeps it until the session's server cleans up)
            shutil.rmtree(path.removeprefix("file:"), ignore_errors=True)
        return items

    def _take(self, items: list[Any]) -> None:
        """Hand batch ``next_id`` over (``items``: what was read of it), go on to the next."""
        self.found += 1
        self._enqueue(self.next_id, items)
        self.next_id += 1

    def _read_ahead(self, schema: Any, query: Any) -> bool | Literal["stop"]:
        """While a round's ``query`` runs: read the batches it has finished (its last
        progress report names the last one: :func:`~rxpy2.spark.connect_stream.finished_batch`),
        as far as ``prefetch_batches`` allow. ``"stop"`` when the round should stop: no demand
        beyond the held batches, and ``prefetch_batches`` more finished batches wait unread
        (not for ``once``: its one batch is the round). False when the subscription ended
        (cancelled, or a read failed)."""
        finished: int | None = None
        while True:
            with self.lock:
                if self.cancelled:
                    return False
                if self.held >= self.prefetch:
                    if self.once or self._demand():
                        return True
                    full = True
                else:
                    full = False
            if full:
                try:
                    finished = connect_stream.finished_batch(query)
                except Exception:  # a status request that failed: the round goes on
                    return True
                if finished is not None and finished - self.next_id + 1 >= self.prefetch:
                    self.read_limit = finished  # the batch in flight is not complete
                    return "stop"
                return True
            if finished is None or self.next_id > finished:
                try:
                    finished = connect_stream.finished_batch(query)
                except Exception:  # a status request that failed: the round's end tells
                    return True
                if finished is None or self.next_id > finished:
                    return True
            with self.lock:
                if self.cancelled:
                    return False
                self.reading = True
            items = self._read(schema, self.next_id)
            if items is False:
                return False
            if items is None:  # cannot be (a finished batch was written): read after the round
                return True
            self._take(items)

    def _first_undelivered(self, next_id: int) -> int | None:
        """The first batch not yet emitted whole (``next_id`` when all were), ``None`` once
        cancelled: cancel() drops the held batches, so the queue no longer tells."""
        with self.lock:
            if self.cancelled:
                return None
            ids = [b.batch_id for b in self.queue]
            if self.emitting_id is not None:
                ids.append(self.emitting_id)
        return min(ids, default=next_id)

    def _mark_delivered(self) -> None:
        """With a checkpoint of the user's, record the first batch not yet delivered (the
        marker a later subscription resumes at), as each round does before it starts: at
        the end too, so a later subscription does not deliver the last round's batches
        again."""
        if self.temp_dir is not None or self.sink_dir is None:
            return
        first = self._first_undelivered(self.next_id)
        if first is None or first == self.marked:
            return
        connect_stream.write_marker(self.spark, self.sink_dir, first)
        self.marked = first

    def _round(self, schema: Any) -> bool | SparkJobError | Literal["stopped"]:
        """Run one round's query to its end, reading the batches it finishes meanwhile
        (:meth:`_read_ahead`, every :data:`PROBE_SECONDS`): True when it ended by itself,
        the error when it failed (the batches it wrote before are still read), ``"stopped"``
        when it was stopped for want of demand (the batches it finished are read; the one
        in flight is run again by the next round, from the checkpoint), False when the
        subscription ended (cancelled, the query could not start or a read failed:
        signalled)."""
        src = self.source
        sink, checkpoint = self.sink_dir, self.checkpoint_dir
        assert sink is not None and checkpoint is not None
        try:
            self._mark_delivered()
            writer = self._configured(
                src._df.writeStream.foreachBatch(connect_stream.batch_writer(sink)),
                {k: v for k, v in src._options.items() if k != "path"}, checkpoint,
                {"once": True} if self.once else {"availableNow": True})
            if self.cancelled:
                return False
            query = writer.start()
        except Exception as e:
            if not self.cancelled:
                self._fail("starting the streaming query failed", e)
            return False
        with self.lock:
            self._query = query
            self.round_count += 1
            stop_now = self.cancelled
        if stop_now:  # cancelled while starting: cancel() saw no query to stop
            self._stop(query)
            return False
        try:
            while not query.awaitTermination(PROBE_SECONDS):
                ahead = self._read_ahead(schema, query)
                if ahead is False:  # ended: the query must not run on
                    self._stop(query)
                    return False
                if ahead == "stop":
                    self._stop(query)
                    return False if self.cancelled else "stopped"
        except Exception as e:  # StreamingQueryException: the query failed
            if self.cancelled:
                return False
            return SparkJobError.caused_by("the streaming query failed", e)
        return not self.cancelled

    def _fail(self, what: str, cause: BaseException) -> None:
        self._end(SparkJobError.caused_by(what, cause))

    def _clean_up(self) -> None:
        """Remove rxpy2's temporary directory, once no query of this subscription runs
        (the round thread waits for its query; a stopper may still be stopping it)."""
        temp, self.temp_dir = self.temp_dir, None
        if temp is None:
            return
        query = self._query
        if query is not None:
            try:
                if query.isActive:
                    self._stop(query)
            except Exception:  # a closed session: nothing runs any more
                pass
        shutil.rmtree(temp, ignore_errors=True)


_DETACHED: Subscriber[Any] = CancellingSubscriber()  # signals of an ended subscription go nowhere


class _Emitter:
    """One thread that runs ``task`` after each :meth:`signal` (signals coalesce) until
    :meth:`shutdown`; it ends by itself then, without being joined."""

    __slots__ = ("task", "cond", "signalled", "stopped", "thread")

    def __init__(self, name: str, task: Callable[[], None]) -> None:
        self.task: Callable[[], None] = task
        self.cond: threading.Condition = threading.Condition(threading.Lock())
        self.signalled: bool = False
        self.stopped: bool = False
        self.thread: threading.Thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def signal(self) -> None:
        with self.cond:
            self.signalled = True
            self.cond.notify()

    def shutdown(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify()

    def _run(self) -> None:
        cond = self.cond
        while True:
            with cond:
                while not self.signalled and not self.stopped:
                    cond.wait()
                if self.stopped:
                    return
                self.signalled = False
            try:
                self.task()
            except Exception as e:  # the drain lets downstream's errors through
                from rxpy2 import plugins

                plugins.on_error(e)
