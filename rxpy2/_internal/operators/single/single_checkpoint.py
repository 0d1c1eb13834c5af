"""Single.checkpoint (and Maybe's, Completable's), and the stage assembly tracking puts
after each traced 0-1 source: ``flowable_checkpoint.py``'s notes on an observer.

An error passing the stage gets the checkpoint's note (or, under assembly tracking, the
trace note, once per exception) before it goes on; ``on_subscribe``, ``on_success``,
``on_complete`` and ``dispose`` pass unchanged. The operator body (:class:`CheckpointOp`,
a mixin) and its observer serve Maybe and Completable too (``maybe_checkpoint.py``,
``completable_checkpoint.py``).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.assembly import AssemblySite
from rxpy2._internal.assembly import site_of
from rxpy2._internal.operators.flowable.flowable_checkpoint import CheckpointNote
from rxpy2._internal.operators.flowable.flowable_checkpoint import TraceNote
from rxpy2._internal.operators.single.single_hide import HideObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.single import Single

__all__ = ["CheckpointObserver", "CheckpointOp", "SingleCheckpoint", "trace_observer"]

T = TypeVar("T")


class CheckpointOp(Generic[T]):
    """The operator body of the three ``checkpoint`` classes (a mixin)."""

    __slots__ = ("source", "description", "_note")

    def __init__(self, source: ZeroOneBase, description: str | None,
                 site: AssemblySite | None) -> None:
        self.source = source
        self.description = description
        self._note = CheckpointNote(description, site, source)

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(CheckpointObserver(observer, self._note))


class SingleCheckpoint(CheckpointOp[T], Single[T], Generic[T]):
    __slots__ = ()


class CheckpointObserver(HideObserver[T], Generic[T]):
    """Notes an error, then relays it; every other signal is relayed as ``hide``'s
    observer relays it."""

    __slots__ = ("tracer",)

    def __init__(self, downstream: Any, tracer: CheckpointNote | TraceNote) -> None:
        super().__init__(downstream)
        self.tracer = tracer

    def on_error(self, error: BaseException) -> None:
        if error is not None:
            self.tracer.note(error)
        self.downstream.on_error(error)


def trace_observer(source: Any, observer: Any) -> Any:
    """Assembly tracking's stage between a 0-1 ``source`` and ``observer`` (their
    ``Kind.trace``), or ``observer`` when ``source`` has no recorded site."""
    site = site_of(source)
    if site is None:
        return observer
    return CheckpointObserver(observer, TraceNote(site, source))
