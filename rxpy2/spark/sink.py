"""Backpressured Spark sinks: to_parquet, to_table, write_batches (being written)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WriteSummary:
    target: str
    rows: int
    batches: int
    seconds: float


def write_batches(write: Callable[[list[Any], int], Any], batch_size: int = 10_000) -> Any:
    raise NotImplementedError


def to_parquet(path: str, spark: Any, batch_size: int = 10_000, schema: Any = None,
               mode: str = "error", partition_by: Any = None) -> Any:
    raise NotImplementedError


def to_table(table: str, spark: Any, batch_size: int = 10_000, schema: Any = None,
             mode: str = "error") -> Any:
    raise NotImplementedError
