"""Per-test cleanup for the scheduler tests: after each test every standard and
``from_executor`` scheduler is shut down, and no scheduler thread may be left."""

from __future__ import annotations

import threading
import time

import pytest

from rxpy2.schedulers import Schedulers


def scheduler_threads() -> list[threading.Thread]:
    # "rxpy2-test-*" is the RaceRunner's thread (rxpy2.testing), closed by its own fixture
    return [t for t in threading.enumerate()
            if t.is_alive() and t.name.startswith("rxpy2-") and not t.name.startswith("rxpy2-test-")]


@pytest.fixture(autouse=True)
def _schedulers_shut_down_after_each_test():
    yield
    Schedulers.shutdown()
    deadline = time.monotonic() + 5
    while scheduler_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    left = scheduler_threads()
    assert not left, f"scheduler threads left behind by the test: {left}"
