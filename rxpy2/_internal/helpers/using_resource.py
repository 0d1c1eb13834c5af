"""The resource of a ``using`` subscription (Flowable, Single, Maybe, Completable).

:class:`UsingResource` holds the resource in an ``AtomicReference`` until it is released;
whoever releases it swaps it for :data:`RELEASED`, so a dispose or cancel racing the
terminal signal calls the disposer exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.exception_helper import call_reporting

__all__ = ["RELEASED", "UsingResource"]

#: the reference once the resource was released (or handed to the disposer)
RELEASED: Any = object()


class UsingResource(AtomicReference[Any]):
    """Base of the ``using`` subscribers and observers: ``disposer(resource)`` runs once."""

    __slots__ = ("disposer",)

    def __init__(self, resource: Any, disposer: Callable[[Any], Any]) -> None:
        super().__init__(resource)
        self.disposer = disposer

    def release_before(self) -> Any:
        """Release before a terminal signal (eager mode): :data:`RELEASED` if it was released
        already, else the disposer's error, or None."""
        resource = self.get_and_set(RELEASED)
        if resource is RELEASED:
            return RELEASED
        try:
            self.disposer(resource)
        except Exception as e:
            return e
        return None

    def release_after(self) -> None:
        """Release after the terminal signal, or on dispose/cancel: the downstream may be
        busy on another thread, so a disposer error goes to :func:`rxpy2.plugins.on_error`."""
        resource = self.get_and_set(RELEASED)
        if resource is not RELEASED:
            call_reporting(self.disposer, resource)
