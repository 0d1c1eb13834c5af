"""BackpressureStrategy: what ``Flowable.create`` does with items nobody requested yet."""

from __future__ import annotations

from enum import Enum

__all__ = ["BackpressureOverflowStrategy", "BackpressureStrategy"]


class BackpressureStrategy(Enum):
    """What ``Flowable.create`` does with an item its emitter gets while the downstream has no
    outstanding demand (RxJava 2's ``BackpressureStrategy``); ``mode`` has no default."""

    #: Emit regardless of demand; a downstream operator must buffer or drop.
    MISSING = "missing"
    #: Signal ``MissingBackpressureException`` when an item finds no demand.
    ERROR = "error"
    #: Keep every unrequested item in an unbounded buffer (asked for by name).
    BUFFER = "buffer"
    #: Drop an item that finds no demand.
    DROP = "drop"
    #: Keep only the latest unrequested item, replacing older ones.
    LATEST = "latest"


class BackpressureOverflowStrategy(Enum):
    """What ``on_backpressure_buffer(capacity)`` does when its buffer is full."""

    ERROR = "error"
    DROP_OLDEST = "drop_oldest"
    DROP_LATEST = "drop_latest"
