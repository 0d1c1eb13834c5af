"""What fused stages run on the executors of a Spark Connect session, as ``mapInArrow``.

Spark Connect has no RDDs, so the fused Python stages (the partition functions of
:mod:`rxpy2.spark.executor_code`) run in a ``DataFrame.mapInArrow`` over the source's
DataFrame: the function reads the partition's Arrow record batches, turns them into the
rows the classic path's pickled rows are (``executor_code.arrow_reader``, the one Arrow-to-Row
conversion), runs the stages, and returns the items as one ``binary`` column, each
value a pickled list of up to ``chunk`` items, which the driver unpickles.

Like :mod:`rxpy2.spark.executor_code`, this module is pickled *by value*
(``plan.ship_executor_module``): the executors need PySpark and pyarrow (which
``mapInArrow`` needs anyway), not rxpy2. It imports only the standard library at module
level.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

__all__ = ["ITEMS_COLUMN", "ITEMS_SCHEMA", "arrow_stage"]

#: the one column of a fused stage's output: a pickled list of items per value
ITEMS_COLUMN = "items"
#: its schema, as ``mapInArrow`` takes it
ITEMS_SCHEMA = f"{ITEMS_COLUMN} binary"


def arrow_stage(chunk: int, read: Callable[[Iterable[Any]], Iterable[Any]],
                *stages: Callable[[Iterable[Any]], Iterable[Any]]
                ) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """The function given to ``mapInArrow``: a partition's rows (``read`` of its record
    batches: an ``executor_code.arrow_reader``) through ``stages`` (each a
    partition function: an iterable of items in, one out), the results pickled ``chunk``
    at a time into record batches of :data:`ITEMS_SCHEMA`. A partition with no rows gives
    no batch at all (a partition query's other partitions are empty: they must add
    nothing, not even a fold's or a count's start)."""

    def run(batches: Iterable[Any]) -> Iterator[Any]:
        import pickle

        import pyarrow as pa

        schema = pa.schema([(ITEMS_COLUMN, pa.binary())])
        nonempty = (b for b in batches if b.num_rows)
        first = next(nonempty, None)
        if first is None:
            return
        items: Iterable[Any] = read(itertools.chain((first,), nonempty))
        for stage in stages:
            items = stage(items)
        it = iter(items)
        while part := list(itertools.islice(it, chunk)):
            value = pa.array([pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)], pa.binary())
            yield pa.RecordBatch.from_arrays([value], schema=schema)

    return run
