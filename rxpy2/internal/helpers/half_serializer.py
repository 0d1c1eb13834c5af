"""Half-serialization: ``on_next`` from one thread, terminal events from any thread.

The operator keeps a ``wip`` AtomicInteger and an :class:`AtomicThrowable`.
``on_next`` enters the serialized section with a 0→1 compare-and-set; a
terminal signal that finds the section taken leaves its error in ``error``
and bumps ``wip``, and the ``on_next`` caller delivers it when it leaves.
"""

from __future__ import annotations

from typing import Any

from rxpy2 import plugins
from rxpy2.internal.atomic import AtomicLong
from rxpy2.internal.helpers.exception_helper import AtomicThrowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["HalfSerializer"]


class HalfSerializer:
    """Static helpers; all three share the ``wip`` counter and the ``error`` holder."""

    __slots__ = ()

    @staticmethod
    def on_next(subscriber: Subscriber[Any], item: Any, wip: AtomicLong,
                error: AtomicThrowable) -> bool:
        """Deliver ``item`` unless a terminal signal is in; True if the stream terminated here."""
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            subscriber.on_next(item)
            if wip.decrement_and_get() != 0:
                # a terminal signal arrived while we were in on_next: we deliver it
                error.try_terminate_consumer(subscriber)
                return True
        return False

    @staticmethod
    def on_error(subscriber: Subscriber[Any], ex: BaseException, wip: AtomicLong,
                 error: AtomicThrowable) -> None:
        if error.try_add_throwable(ex):
            if wip.get_and_increment() == 0:
                error.try_terminate_consumer(subscriber)
        else:
            plugins.on_error(ex)

    @staticmethod
    def on_complete(subscriber: Subscriber[Any], wip: AtomicLong,
                    error: AtomicThrowable) -> None:
        if wip.get_and_increment() == 0:
            error.try_terminate_consumer(subscriber)
