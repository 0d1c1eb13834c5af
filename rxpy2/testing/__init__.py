"""Testing support: TestSubscriber/TestObserver with RxJava's assertions and Reactive
Streams rule checks, StepVerifier (scripted, with virtual time), TestPublisher (a source
that can break the rules on purpose), race helpers, and TestScheduler (virtual time,
from rxpy2.schedulers), and MarbleScheduler (marble testing on virtual time).

``StepVerifier``, ``MarbleScheduler``, ``TestPublisher``, ``Violation`` and ``TestScheduler``
load on first use: ``import rxpy2`` (which exports ``TestSubscriber``) does not pay for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rxpy2._internal.lazy_import import lazy_package
from rxpy2.testing.race import RaceRunner
from rxpy2.testing.race import race
from rxpy2.testing.test_subscriber import BaseTestConsumer
from rxpy2.testing.test_subscriber import TestObserver
from rxpy2.testing.test_subscriber import TestSubscriber

if TYPE_CHECKING:
    from rxpy2.schedulers.test_scheduler import TestScheduler
    from rxpy2.testing.marbles import MarbleScheduler
    from rxpy2.testing.step_verifier import StepVerifier
    from rxpy2.testing.test_publisher import TestPublisher
    from rxpy2.testing.test_publisher import Violation

__all__ = ["BaseTestConsumer", "MarbleScheduler", "RaceRunner", "StepVerifier", "TestObserver",
           "TestPublisher", "TestScheduler", "TestSubscriber", "Violation", "race"]

if not TYPE_CHECKING:  # type checkers see the imports above, and no catch-all
    __getattr__, __dir__ = lazy_package(__name__, globals(), {
        "TestScheduler": "rxpy2.schedulers.test_scheduler",
        "MarbleScheduler": "rxpy2.testing.marbles",
        "StepVerifier": "rxpy2.testing.step_verifier",
        "TestPublisher": "rxpy2.testing.test_publisher",
        "Violation": "rxpy2.testing.test_publisher",
    })
