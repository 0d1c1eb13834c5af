"""Helpers of the Spark tests (import as ``from spark_support import ...``)."""

from __future__ import annotations

import threading
import time


def spark_threads() -> list[threading.Thread]:
    """The rxpy2 job threads of Spark sources and sinks still alive."""
    return [t for t in threading.enumerate() if t.name.startswith("rxpy2-spark")]


def wait_no_spark_threads(timeout: float = 30.0) -> list[threading.Thread]:
    """Wait (polling) until every rxpy2 Spark thread has ended; returns the ones left."""
    deadline = time.monotonic() + timeout
    while spark_threads() and time.monotonic() < deadline:
        time.sleep(0.02)
    return spark_threads()
