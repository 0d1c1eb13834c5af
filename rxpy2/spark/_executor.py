"""The partition function that fused stages become on the executors.

This module uses the standard library only and is pickled *by value* (see
``register_pickle_by_value`` in :mod:`rxpy2.spark.source`), so executors need PySpark but
not rxpy2. The same function runs the stages on the driver when fusion is off, so both
places apply exactly the same rules:

* ``None`` is never an item: a stage that produces one raises ``TypeError`` (as the
  driver-side operators signal it);
* ``filter`` keeps an item when its predicate's result is truthy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

# (kind, function) pairs; kinds: "map", "filter", "flat_map_iterable", "map_partitions"
Step = tuple[str, Callable[..., Any]]


def _no_none(items: Iterable[Any], what: str) -> Iterator[Any]:
    for x in items:
        if x is None:
            raise TypeError(f"{what} produced None (None is never an item)")
        yield x


def _mapped(fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
    for x in items:
        y = fn(x)
        if y is None:
            raise TypeError(f"map: the mapper returned None for {x!r}")
        yield y


def _flattened(fn: Callable[[Any], Iterable[Any]], items: Iterable[Any]) -> Iterator[Any]:
    for x in items:
        inner = fn(x)
        if inner is None:
            raise TypeError(f"flat_map_iterable: the mapper returned None for {x!r}")
        for y in inner:
            if y is None:
                raise TypeError("flat_map_iterable: an iterable produced None")
            yield y


def apply_steps(items: Iterable[Any], steps: tuple[Step, ...]) -> Iterator[Any]:
    """``items`` passed through ``steps`` lazily, one generator per stage."""
    it: Iterator[Any] = iter(items)
    for kind, fn in steps:
        if kind == "map":
            it = _mapped(fn, it)
        elif kind == "filter":
            it = filter(fn, it)
        elif kind == "flat_map_iterable":
            it = _flattened(fn, it)
        elif kind == "map_partitions":
            out = fn(it)
            if out is None:
                raise TypeError("map_partitions: the function returned None")
            it = _no_none(out, "map_partitions")
        else:  # pragma: no cover - the assembly only builds the kinds above
            raise ValueError(f"unknown stage {kind!r}")
    return it


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
