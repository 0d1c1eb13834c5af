"""Flowable subtypes with extra behaviour: :class:`ConnectableFlowable` (``publish()``, ``replay()``)."""

from rxpy2.flowables.connectable_flowable import ConnectableFlowable

__all__ = ["ConnectableFlowable"]
