"""Flowable.delay_subscription(Publisher) and delay(item_delay) (RxJava 2's
FlowableDelaySubscriptionOther and ``flatMap(itemDelay(...))``).

* :class:`FlowableDelaySubscriptionOther`: subscribe to the source when the other
  Publisher signals its first item or completes (the other is requested without
  bound and cancelled at its first item); its error, before that, is the downstream's
  error. Requests made meanwhile are kept and handed to the source (the timed
  ``delay_subscription``'s subscriber, ``flowable_delay.py``, does that part).
* :func:`item_delay`: the ``flat_map`` function of ``delay(item_delay)``: each item
  waits for ``item_delay(item)`` to signal its first item or complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.flowable.flowable_delay import DelaySubscriptionSubscriber
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.operators.flowable.flowable_timeout import IndicatorSubscriber
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDelaySubscriptionOther", "item_delay"]

T = TypeVar("T")


class FlowableDelaySubscriptionOther(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Publisher[T], other: Publisher[Any]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = DelaySubscriptionSubscriber(subscriber, self.source)
        subscriber.on_subscribe(parent)
        trigger = SubscribeTrigger(parent)
        if DisposableHelper.replace(parent.task, trigger):  # a cancel from now on cancels it
            self.other.subscribe(trigger)


class SubscribeTrigger(IndicatorSubscriber):
    __slots__ = ("parent",)

    def __init__(self, parent: DelaySubscriptionSubscriber[Any]) -> None:
        super().__init__()
        self.parent = parent

    def fire(self) -> None:
        self.parent.subscribe_source()

    def fire_error(self, error: BaseException) -> None:
        self.parent.downstream.on_error(error)


def item_delay(selector: Callable[[T], Publisher[Any]]) -> Callable[[T], Publisher[T]]:
    """RxJava 2's ``itemDelay``: ``item`` once ``selector(item)`` signals an item or completes."""
    def delayed(item: T) -> Publisher[T]:
        p = Flowable.from_publisher(check_inner(selector(item), selector, "delay"))
        return p.take(1).map(lambda _: item).default_if_empty(item)
    return delayed
