"""ParallelFlowable.checkpoint: ``Flowable.checkpoint``'s stage on each rail.

An error ending any rail gets the checkpoint's note (``flowable_checkpoint.py``) before it
goes on; items, requests, cancellation and fusion pass unchanged on every rail. One
subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2._internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.assembly import AssemblySite
from rxpy2._internal.operators.flowable.flowable_checkpoint import CheckpointNote
from rxpy2._internal.operators.flowable.flowable_checkpoint import checkpoint_subscriber
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelCheckpoint"]

T = TypeVar("T")


class ParallelCheckpoint(ParallelPerRail[T, T], Generic[T]):
    __slots__ = ("description", "_note")

    def __init__(self, source: ParallelFlowable[T], description: str | None,
                 site: AssemblySite | None) -> None:
        super().__init__(source)
        self.description = description
        self._note = CheckpointNote(description, site, source)

    def rail_subscriber(self, subscriber: Subscriber[T]) -> Subscriber[Any]:
        result: Subscriber[Any] = checkpoint_subscriber(subscriber, self._note)
        return result
