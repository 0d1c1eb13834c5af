"""Flowable.group_join: each left item with a Flowable of the right items of its window.

A left item gets a :class:`UnicastProcessor`: it receives every right item whose
window is open when the left item comes and each right item that comes while the
left window is open, and completes when the left window closes. Each left item
emits ``result_selector(left, processor)`` (RxJava 2's FlowableGroupJoin; the
machinery is in :mod:`._join_common`).
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.flowable._join_common import JoinBase
from rxpy2._internal.operators.flowable._join_common import JoinSubscriptionBase
from rxpy2.processors.unicast_processor import UnicastProcessor
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableGroupJoin"]


class FlowableGroupJoin(JoinBase):
    """``group_join(other, left_end, right_end, result_selector)``.

    Backpressure: both sides are requested without bound; a result without demand
    signals ``MissingBackpressureException``; each group buffers without bound."""

    __slots__ = ()

    def create_parent(self, subscriber: Subscriber[Any]) -> JoinSubscriptionBase:
        return GroupJoinSubscription(subscriber, self.left_end, self.right_end,
                                     self.result_selector)


class GroupJoinSubscription(JoinSubscriptionBase):
    __slots__ = ()

    operator = "group_join"

    def left_window(self, left: Any) -> Any:
        return UnicastProcessor()

    def left_value(self, left: Any, idx: int) -> bool:
        up = self.lefts[idx]
        if not self.emit_all(self.select(left, w) for w in (up,)):
            return False
        for right in self.rights.values():
            up.on_next(right)
        return True

    def right_value(self, right: Any) -> bool:
        for up in self.lefts.values():
            up.on_next(right)
        return True

    def left_closed(self, window: Any) -> None:
        if window is not None:
            window.on_complete()

    def terminate_windows(self, error: BaseException | None) -> None:
        for up in self.lefts.values():
            if error is None:
                up.on_complete()
            else:
                up.on_error(error)
