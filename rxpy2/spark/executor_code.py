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


def rdd_elements(items: Iterable[Any]) -> Iterator[Any]:
    """An RDD's own elements (a ``from_rdd`` source with no fused stage), checked: a
    ``None`` element raises ``TypeError`` (``None`` is never an item)."""
    for x in items:
        if x is None:
            raise TypeError("the RDD holds a None element (None is never an item)")
        yield x


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
        elif kind == "limit":  # the last stage of a take/limit pushed into Spark
            it = fn(it)
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
