"""Flowable subtypes with extra behaviour: :class:`ConnectableFlowable` (``publish()``,
``replay()``) and :class:`GroupedFlowable` (``group_by``'s groups)."""

from rxpy2.flowables.connectable_flowable import ConnectableFlowable
from rxpy2.flowables.grouped_flowable import GroupedFlowable

__all__ = ["ConnectableFlowable", "GroupedFlowable"]
