"""Flowable.join: each item meets every item of the other side whose window is open.

A left item is combined with ``result_selector(left, right)`` with each right
item whose window (closed by ``right_end(right)``) is still open, and the other
way round; the machinery is in :mod:`._join_common` (RxJava 2's FlowableJoin).
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.flowable._join_common import JoinBase
from rxpy2._internal.operators.flowable._join_common import JoinSubscriptionBase
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableJoin"]


class FlowableJoin(JoinBase):
    """``join(other, left_end, right_end, result_selector)``.

    Backpressure: both sides are requested without bound; a result without demand
    signals ``MissingBackpressureException``."""

    __slots__ = ()

    def create_parent(self, subscriber: Subscriber[Any]) -> JoinSubscriptionBase:
        return JoinSubscription(subscriber, self.left_end, self.right_end, self.result_selector)


class JoinSubscription(JoinSubscriptionBase):
    __slots__ = ()

    def left_value(self, left: Any, idx: int) -> bool:
        select = self.select
        return self.emit_all(select(left, right) for right in self.rights.values())

    def right_value(self, right: Any) -> bool:
        select = self.select
        return self.emit_all(select(left, right) for left in self.lefts.values())
