"""Helpers of the TCK cases of the asynchronous operators (observe_on, subscribe_on, ...,
on_backpressure_*): see ``library_publishers.py``."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from rxpy2 import BackpressureOverflowStrategy
from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers

__all__ = ["DROP_OLDEST", "Schedulers", "asynchronous", "paced_by_downstream"]

DROP_OLDEST = BackpressureOverflowStrategy.DROP_OLDEST

#: A pump gives up when nothing was requested for this long (the TCK left the subscription).
IDLE_LIMIT_S = 60.0


def asynchronous(cases: list[Any]) -> list[Any]:
    """The given cases, marked asynchronous (signals come from another thread)."""
    return [dataclasses.replace(c, asynchronous=True) for c in cases]


def _ready(op: Any) -> bool:
    """The on_backpressure_* subscriber has demand and holds no item (latest's ``current``)."""
    if op.requested.get() <= 0:
        return False
    current = getattr(op, "current", None)
    return current is None or current.get() is None


def paced_by_downstream(n: int, ready: Callable[[Any], bool] = _ready) -> Flowable[int]:
    """``0 .. n-1`` from a thread that emits only while the subscriber of this source (an
    ``on_backpressure_*`` operator, which requests ``LONG_MAX`` itself) has outstanding demand
    from its own downstream: drop / latest / error then lose nothing and conform. It reads
    the operator's ``requested`` counter (an internal, for this test source only)."""

    def pump(emitter: Any) -> None:
        op = emitter.downstream
        i = 0
        idle_since = time.monotonic()
        while i < n:
            if emitter.is_cancelled():
                return
            if ready(op):
                emitter.on_next(i)
                i += 1
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > IDLE_LIMIT_S:
                return
            else:
                time.sleep(0.0002)
        emitter.on_complete()

    def source(emitter: Any) -> None:
        threading.Thread(target=pump, args=(emitter,), name="tck-paced-pump", daemon=True).start()

    return Flowable.create(source, BackpressureStrategy.MISSING)
