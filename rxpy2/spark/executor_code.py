"""The partition function that fused stages become on the executors.

This module uses the standard library only and is pickled *by value* (see
``ship_executor_module`` in :mod:`rxpy2.spark.plan`), so executors need PySpark but
not rxpy2. The same function runs the stages on the driver when fusion is off, so both
places apply exactly the same rules:

* ``None`` is never an item: a stage that produces one raises ``TypeError`` (as the
  driver-side operators signal it);
* ``filter`` keeps an item when its predicate's result is truthy.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

# (kind, function) pairs; kinds: "map", "filter", "flat_map_iterable", "map_partitions",
# "limit" (its function is ``first(n)``)
Step = tuple[str, Callable[..., Any]]


def first(n: int) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """The function of a ``limit`` stage: the first ``n`` items of a partition; the items
    after them are never pulled, so the stages before it stop reading there."""

    def take(items: Iterable[Any]) -> Iterator[Any]:
        return itertools.islice(items, n)

    return take


def _no_none(items: Iterable[Any], what: str) -> Iterator[Any]:
    for x in items:
        if x is None:
            raise TypeError(f"{what} produced None (None is never an item)")
        yield x


def _flattened(fn: Callable[[Any], Iterable[Any]], items: Iterable[Any]) -> Iterator[Any]:
    for x in items:
        inner = fn(x)
        if inner is None:
            raise TypeError(f"flat_map_iterable: the mapper returned None for {x!r}")
        for y in inner:
            if y is None:
                raise TypeError("flat_map_iterable: an iterable produced None")
            yield y


def rdd_elements(items: Iterable[Any]) -> Iterator[Any]:
    """An RDD's own elements (a ``from_rdd`` source with no fused stage), checked: a
    ``None`` element raises ``TypeError`` (``None`` is never an item)."""
    for x in items:
        if x is None:
            raise TypeError("the RDD holds a None element (None is never an item)")
        yield x


#: the kinds of step :func:`_loop` compiles into one loop: a run of them costs one
#: generator frame, not one a stage
_LOOPED = frozenset({"map", "filter"})


def _loop(kinds: tuple[str, ...], count: bool) -> Callable[..., Any]:
    """One function that runs the ``map``/``filter`` steps ``kinds`` over its items in
    one ``for`` loop: with ``count``, ``run(items, *fns)`` returns how many items pass;
    else it is a generator of them. (Python's own ``filter`` and a generator a ``map``
    resume a frame per item and stage: the loop spends that once.) Its source is written
    here and kept in :mod:`linecache`, so a traceback through it shows its lines."""
    import linecache

    names = [f"f{i}" for i in range(len(kinds))]
    body = [f"def run(items, {', '.join(names)}):"]
    if count:
        body.append("    n = 0")
    body.append("    for x in items:")
    for name, kind in zip(names, kinds, strict=True):
        if kind == "map":
            body += [f"        y = {name}(x)",
                     "        if y is None:",
                     "            raise TypeError(f'map: the mapper returned None for {x!r}')",
                     "        x = y"]
        else:  # filter: kept when the predicate's result is truthy
            body += [f"        if not {name}(x):", "            continue"]
    body.append("        n += 1" if count else "        yield x")
    if count:
        body.append("    return n")
    source = "\n".join(body) + "\n"
    filename = f"<rxpy2 executor stages {'/'.join(kinds)}{' count' if count else ''}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    space: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), space)
    run: Callable[..., Any] = space["run"]
    return run


def _runs(steps: tuple[Step, ...]) -> Iterator[tuple[Step, ...]]:
    """``steps`` cut into its runs of :data:`_LOOPED` kinds and its other steps, one by one."""
    run: list[Step] = []
    for step in steps:
        if step[0] in _LOOPED:
            run.append(step)
            continue
        if run:
            yield tuple(run)
            run = []
        yield (step,)
    if run:
        yield tuple(run)


def _apply(items: Iterator[Any], run: tuple[Step, ...]) -> Iterator[Any]:
    kind, fn = run[0]
    if kind in _LOOPED:
        looped: Iterator[Any] = _loop(tuple(k for k, _ in run), False)(items, *(f for _, f in run))
        return looped
    if kind == "flat_map_iterable":
        return _flattened(fn, items)
    if kind == "map_partitions":
        out = fn(items)
        if out is None:
            raise TypeError("map_partitions: the function returned None")
        return _no_none(out, "map_partitions")
    if kind == "limit":  # the last stage of a take/limit pushed into Spark
        limited: Iterator[Any] = fn(items)
        return limited
    raise ValueError(f"unknown stage {kind!r}")  # pragma: no cover - never assembled


def apply_steps(items: Iterable[Any], steps: tuple[Step, ...]) -> Iterator[Any]:
    """``items`` passed through ``steps`` lazily: each run of ``map``/``filter`` steps as
    one loop (:func:`_loop`), each other step as a generator of its own."""
    it: Iterator[Any] = iter(items)
    for run in _runs(steps):
        it = _apply(it, run)
    return it


def count_steps(items: Iterable[Any], steps: tuple[Step, ...]) -> int:
    """How many of ``items`` pass through ``steps``: as :func:`apply_steps`, with the
    count kept in the last run's loop when the steps end in ``map``/``filter`` steps."""
    runs = list(_runs(steps))
    if not runs or runs[-1][0][0] not in _LOOPED:
        n = 0
        for _ in apply_steps(items, steps):
            n += 1
        return n
    last = runs.pop()
    it: Iterator[Any] = iter(items)
    for run in runs:
        it = _apply(it, run)
    counted: int = _loop(tuple(k for k, _ in last), True)(it, *(f for _, f in last))
    return counted


def partition_function(row_format: str, names: tuple[str, ...] | None,
                       steps: tuple[Step, ...]) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """The function given to ``RDD.mapPartitions``: rows converted to ``row_format``
    (``"row"`` leaves them as they are) and then passed through ``steps``."""

    def run(rows: Iterable[Any]) -> Iterator[Any]:
        if row_format == "tuple":
            rows = map(tuple, rows)
        elif row_format == "dict":
            keys = names or ()
            rows = (dict(zip(keys, r, strict=True)) for r in rows)
        return apply_steps(rows, steps)

    return run


# ---------------------------------------------------------------- terminal aggregations
# Each returns the function given to ``mapPartitions`` (or ``runJob``): it reads one
# partition's items and yields only what the driver needs of them.

def count_items() -> Callable[[Iterable[Any]], Iterator[int]]:
    """One int per partition: how many items it has."""

    def run(items: Iterable[Any]) -> Iterator[int]:
        n = 0
        for _ in items:
            n += 1
        yield n

    return run


def fold(reducer: Callable[[Any, Any], Any], has: bool,
         acc: Any) -> Callable[[Iterable[Any]], Iterator[tuple[bool, Any]]]:
    """One ``(has, acc)`` pair per partition: its items folded from left to right into
    ``acc`` (``has=False``: no accumulator yet, the first item starts it)."""

    def run(items: Iterable[Any]) -> Iterator[tuple[bool, Any]]:
        h, a = has, acc
        for x in items:
            if h:
                a = reducer(a, x)
                if a is None:
                    raise TypeError("reduce: the reducer returned None (None is never an item)")
            else:
                h, a = True, x
        yield h, a

    return run


def capped(max_items: int) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """A partition's items, at most ``max_items + 1`` of them (one more than allowed tells
    the driver the limit was passed without computing the rest)."""

    def run(items: Iterable[Any]) -> Iterator[Any]:
        return itertools.islice(items, max_items + 1)

    return run


# ---------------------------------------------------------------- Arrow batches in
# A fused stage over a DataFrame runs in ``DataFrame.mapInArrow``: the executors get the
# partition as Arrow record batches. Each batch becomes the values Spark's own pickled rows
# would give: every column turned into Spark's *internal* Python values (what the JVM's
# pickler sends: days for a date, microseconds for a timestamp, ``bytes`` or ``bytearray``
# for binary, lists, dicts, tuples for structs), then made what PySpark's
# ``StructType.fromInternal`` makes of a row (column by column: each field's ``fromInternal``, then the
# row made by PySpark's own row constructor), as the unpickling of a pickled row makes it.
# pyarrow is imported where these functions run (the executors), not at this module's
# import.

#: items per pickled payload the Arrow path sends back (one binary value of a batch); the
#: driver emits one payload's items at a time
PAYLOAD_ITEMS = 4096
#: the one column of the record batches the Arrow path sends back: pickled lists of items
PAYLOAD_COLUMN = "payload"
#: its schema, as ``mapInArrow`` takes it
PAYLOAD_SCHEMA = f"{PAYLOAD_COLUMN} binary"
#: the one column of the record batches the Arrow path's count() sends back
COUNT_SCHEMA = "n long"


def _nested(arr: Any, children: list[Any], make: Callable[..., Any],
            binary_as_bytes: bool) -> list[Any]:
    """Each value of the list (or map) array ``arr``, ``None`` for a null one, else
    ``make`` of its slices of the internal values of ``children`` (``arr``'s child arrays:
    the values of a list, the keys and values of a map)."""
    offsets = arr.offsets.to_pylist()  # the window of a sliced array, len(arr) + 1 of them
    lo = offsets[0]
    flat = [internal_values(c.slice(lo, offsets[-1] - lo), binary_as_bytes)
            for c in children]
    valid = arr.is_valid().to_pylist() if arr.null_count else None
    out: list[Any] = []
    for i in range(len(arr)):
        if valid is not None and not valid[i]:
            out.append(None)
        else:
            a, b = offsets[i] - lo, offsets[i + 1] - lo
            out.append(make(*(f[a:b] for f in flat)))
    return out


def _dict(keys: list[Any], values: list[Any]) -> dict[Any, Any]:
    return dict(zip(keys, values, strict=True))


def internal_values(arr: Any, binary_as_bytes: bool) -> list[Any]:
    """The values of the pyarrow array ``arr`` (a Spark column as Spark's Arrow writer
    sends it) as Spark's internal Python values: what ``DataType.fromInternal`` takes.
    Binary values are ``bytes`` when ``binary_as_bytes`` (what Spark's pickler sends
    under ``spark.sql.execution.pyspark.binaryAsBytes``, Spark ≥ 4.1), else ``bytearray``."""
    import pyarrow as pa

    t = arr.type
    if pa.types.is_timestamp(t):  # microseconds since the epoch; the zone is only a label
        if t.unit != "us":
            arr = arr.cast(pa.timestamp("us", t.tz))
        micros: list[Any] = arr.cast(pa.int64()).to_pylist()
        return micros
    if pa.types.is_date32(t):  # days since the epoch
        days: list[Any] = arr.cast(pa.int32()).to_pylist()
        return days
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        values: list[Any] = arr.to_pylist()
        if binary_as_bytes:
            return values
        return [None if v is None else bytearray(v) for v in values]
    if pa.types.is_map(t):  # before lists: a map array is a list array of its entries
        return _nested(arr, [arr.keys, arr.items], _dict, binary_as_bytes)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _nested(arr, [arr.values], list, binary_as_bytes)
    if pa.types.is_struct(t):
        fields = [internal_values(arr.field(i), binary_as_bytes) for i in range(t.num_fields)]
        rows: list[Any] = list(zip(*fields, strict=True)) if fields else [()] * len(arr)
        if arr.null_count:
            valid = arr.is_valid().to_pylist()
            rows = [r if ok else None for r, ok in zip(rows, valid, strict=True)]
        return rows
    plain: list[Any] = arr.to_pylist()  # numbers, booleans, strings, decimals, nulls
    return plain


def arrow_columns(batch: Any, schema: Any, binary_as_bytes: bool) -> list[list[Any]]:
    """The columns of the record batch ``batch`` (the fields of the Spark ``schema``, a
    ``StructType``) as the values of the pickled ``Row`` path's rows: internal values
    (:func:`internal_values`), then each field's ``fromInternal`` where it converts, as
    ``StructType.fromInternal`` applies it to a row's fields."""
    columns = []
    for field, arr in zip(schema.fields, batch.columns, strict=True):
        values = internal_values(arr, binary_as_bytes)
        if field.needConversion():
            values = list(map(field.fromInternal, values))
        columns.append(values)
    return columns


def arrow_reader(row_format: str, names: tuple[str, ...], schema: Any, binary_as_bytes: bool,
                 row_class: type[Any]) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """What turns a partition's record batches into its items in ``row_format``, equal to
    :func:`partition_function`'s of the pickled rows: ``"row"``, a ``row_class`` (PySpark's
    ``Row``: the driver passes it) per row, made as ``StructType.fromInternal`` makes it
    (``pyspark_adapter.row_class``); ``"tuple"``, the row's values; ``"dict"``, ``names``
    to the values. ``binary_as_bytes``: see :func:`internal_values`."""
    fields = schema.names  # the list every Row of the schema shares, as fromInternal's do

    def read(batches: Iterable[Any]) -> Iterator[Any]:
        for batch in batches:
            columns = arrow_columns(batch, schema, binary_as_bytes)
            values: Iterable[Any] = (zip(*columns, strict=True) if columns
                                     else [()] * batch.num_rows)
            if row_format == "tuple":
                yield from values
            elif row_format == "dict":
                for v in values:
                    yield dict(zip(names, v, strict=True))
            else:
                # each row made in C; __fields__ put in its dict as Row.__setattr__ puts
                # it, without that Python call
                for row in map(tuple.__new__, itertools.repeat(row_class), values):
                    row.__dict__["__fields__"] = fields
                    yield row

    return read


def arrow_partition_function(read: Callable[[Iterable[Any]], Iterator[Any]],
                             steps: tuple[Step, ...],
                             *then: Callable[[Iterable[Any]], Iterable[Any]],
                             skip_empty: bool = False, payload_items: int = PAYLOAD_ITEMS
                             ) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """The function given to ``DataFrame.mapInArrow`` (classic and Spark Connect): the
    partition's record batches read as items (``read``, an :func:`arrow_reader`), put
    through ``steps``, then through the partition functions ``then`` (an aggregation's),
    and sent back as record batches of :data:`PAYLOAD_SCHEMA`, each value a pickled list of
    at most ``payload_items`` items (:func:`payload_lists` reads them). With
    ``skip_empty``, a partition with no rows gives no batch at all: the other partitions of
    a Spark Connect partition query must add nothing, not even a fold's or a count's
    start."""

    def run(batches: Iterable[Any]) -> Iterator[Any]:
        import pickle

        import pyarrow as pa

        schema = pa.schema([(PAYLOAD_COLUMN, pa.binary())])
        if skip_empty:
            nonempty = (b for b in batches if b.num_rows)
            first_batch = next(nonempty, None)
            if first_batch is None:
                return
            batches = itertools.chain((first_batch,), nonempty)
        items: Iterable[Any] = apply_steps(read(batches), steps)
        for stage in then:
            items = stage(items)
        it = iter(items)
        while chunk := list(itertools.islice(it, payload_items)):
            value = pa.array([pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL)], pa.binary())
            yield pa.RecordBatch.from_arrays([value], schema=schema)

    return run


def arrow_count_function(read: Callable[[Iterable[Any]], Iterator[Any]],
                         steps: tuple[Step, ...]) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """The function given to ``DataFrame.mapInArrow`` for ``count()``: one record batch per
    partition, its ``n`` how many items the stages let through (``read``: an
    :func:`arrow_reader`)."""

    def run(batches: Iterable[Any]) -> Iterator[Any]:
        import pyarrow as pa

        n = count_steps(read(batches), steps)
        batch_of: Any = pa.RecordBatch.from_arrays
        yield batch_of([pa.array([n], pa.int64())], names=["n"])

    return run


def payload_lists(rows: Iterable[Any]) -> Iterator[list[Any]]:
    """The item lists of rows of pickled payloads (:func:`arrow_partition_function`'s
    output read back as rows), one list a payload, in order."""
    import pickle

    for row in rows:
        yield pickle.loads(row[0])


def payload_items(rows: Iterable[Any]) -> Iterator[Any]:
    """The items of rows of pickled payloads, in order."""
    return itertools.chain.from_iterable(payload_lists(rows))


def can_import_pyarrow(_: Any) -> bool:
    """Whether this Python (an executor's) can import pyarrow: the Arrow path needs it."""
    import importlib.util

    return importlib.util.find_spec("pyarrow") is not None
