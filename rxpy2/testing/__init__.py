"""Testing support: TestSubscriber/TestObserver with RxJava's assertions and Reactive
Streams rule checks, StepVerifier (scripted, with virtual time), TestPublisher (a source
that can break the rules on purpose), race helpers, and TestScheduler (virtual time,
from rxpy2.schedulers)."""

from rxpy2.schedulers.test_scheduler import TestScheduler
from rxpy2.testing.race import RaceRunner, race
from rxpy2.testing.step_verifier import StepVerifier
from rxpy2.testing.test_publisher import TestPublisher, Violation
from rxpy2.testing.test_subscriber import BaseTestConsumer, TestObserver, TestSubscriber

__all__ = ["BaseTestConsumer", "RaceRunner", "StepVerifier", "TestObserver", "TestPublisher",
           "TestScheduler", "TestSubscriber", "Violation", "race"]
