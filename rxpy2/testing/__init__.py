"""Testing support: TestSubscriber/TestObserver with RxJava's assertions and Reactive
Streams rule checks, StepVerifier (scripted, with virtual time), TestPublisher (a source
that can break the rules on purpose), race helpers, and TestScheduler (virtual time,
from rxpy2.schedulers).

``StepVerifier``, ``TestPublisher``, ``Violation`` and ``TestScheduler`` load on first
use: ``import rxpy2`` (which exports ``TestSubscriber``) does not pay for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rxpy2.testing.race import RaceRunner, race
from rxpy2.testing.test_subscriber import BaseTestConsumer, TestObserver, TestSubscriber

if TYPE_CHECKING:
    from rxpy2.schedulers.test_scheduler import TestScheduler
    from rxpy2.testing.step_verifier import StepVerifier
    from rxpy2.testing.test_publisher import TestPublisher, Violation

__all__ = ["BaseTestConsumer", "RaceRunner", "StepVerifier", "TestObserver", "TestPublisher",
           "TestScheduler", "TestSubscriber", "Violation", "race"]

_LAZY = {
    "TestScheduler": "rxpy2.schedulers.test_scheduler",
    "StepVerifier": "rxpy2.testing.step_verifier",
    "TestPublisher": "rxpy2.testing.test_publisher",
    "Violation": "rxpy2.testing.test_publisher",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rxpy2.testing' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
