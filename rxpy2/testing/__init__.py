"""Testing support: TestSubscriber/TestObserver with RxJava's assertions, race helpers,
and TestScheduler (virtual time, from rxpy2.schedulers)."""

from rxpy2.schedulers.test_scheduler import TestScheduler
from rxpy2.testing.race import RaceRunner, race
from rxpy2.testing.test_subscriber import BaseTestConsumer, TestObserver, TestSubscriber

__all__ = ["BaseTestConsumer", "RaceRunner", "TestObserver", "TestScheduler", "TestSubscriber",
           "race"]
