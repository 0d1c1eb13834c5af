"""Testing support: TestSubscriber/TestObserver with RxJava's assertions, and race helpers."""

from rxpy2.testing.race import RaceRunner, race
from rxpy2.testing.test_subscriber import BaseTestConsumer, TestObserver, TestSubscriber

__all__ = ["BaseTestConsumer", "RaceRunner", "TestObserver", "TestSubscriber", "race"]
