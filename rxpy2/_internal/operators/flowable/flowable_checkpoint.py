"""Flowable.checkpoint, and the stage assembly tracking puts after each traced operator
(``rxpy2.plugins.set_assembly_tracking``): Reactor's ``checkpoint()`` and its
"assembly trace".

``checkpoint(description)`` keeps, at assembly, the user's frame that called it
(:func:`rxpy2._internal.assembly.user_site`) and the description. Each error that passes
through it (an upstream's ``on_error``, raised on any thread; or raised by a fused
upstream's ``poll``) gets a note (``BaseException.add_note``)::

    rxpy2 checkpoint 'parse the feed': assembled at /app/feed.py:42 in load, after just(1) → map(parse)

once per exception and checkpoint: the same error passing it again (a shared upstream
failing two subscribers) is not noted twice, and each checkpoint an error passes adds
its own note, innermost first. Items, requests and cancellation pass unchanged.

Fusion passes through: the stage is a 1:1 fuseable subscriber
(:class:`~rxpy2._internal.subscribers.basic_fuseable.BasicFuseableSubscriber`, as
``do_on_each``) that forwards the mode asked for to its upstream as it is (it runs no
user code, so a thread boundary is the upstream's to refuse) and notes an error its
``poll`` raises; a ConditionalSubscriber downstream gets the conditional variant. Only a
``DirectSink`` consumer (a fused chain calling the consumer's function itself) is not
seen across it: such a chain calls ``on_next`` instead.

Assembly tracking subscribes the same stage (:func:`trace_subscriber`) between each
source that has a recorded site and its subscriber, with another note, once per
exception in all: the first traced stage the error comes out of names itself::

    rxpy2 assembly trace: the error came out of map(parse), assembled at /app/feed.py:43 in load (chain: just(1) → map(parse))
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal import describe
from rxpy2._internal.assembly import AssemblySite
from rxpy2._internal.assembly import add_note_once
from rxpy2._internal.assembly import site_of
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import BasicFuseableSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["CHECKPOINT_NOTE", "TRACE_NOTE", "CheckpointNote", "CheckpointSubscriber",
           "FlowableCheckpoint", "TraceNote", "require_description", "trace_subscriber"]

T = TypeVar("T")

#: how every note of a checkpoint starts
CHECKPOINT_NOTE = "rxpy2 checkpoint"
#: how the note of assembly tracking starts (one per exception)
TRACE_NOTE = "rxpy2 assembly trace"
#: the longest chain text a note shows (the part nearest the stage is kept)
MAX_CHAIN = 300


def require_description(description: object) -> None:
    """``checkpoint``'s argument: ``None`` or a ``str``."""
    if description is not None and not isinstance(description, str):
        raise TypeError(f"description must be a str or None, not {type(description).__name__}")


def _where(site: AssemblySite | None) -> str:
    return f"assembled at {site}" if site is not None else "assembled at an unknown site"


def _chain(source: Any) -> str:
    text = describe.chain_repr(source)
    if len(text) > MAX_CHAIN:
        text = "…" + text[-(MAX_CHAIN - 1):]
    return text


class CheckpointNote:
    """What a ``checkpoint()`` notes: its description, its site, the chain before it."""

    __slots__ = ("description", "site", "source")

    def __init__(self, description: str | None, site: AssemblySite | None,
                 source: Any) -> None:
        self.description = description
        self.site = site
        self.source = source

    def text(self) -> str:
        label = CHECKPOINT_NOTE if self.description is None \
            else f"{CHECKPOINT_NOTE} {self.description!r}"
        return f"{label}: {_where(self.site)}, after {_chain(self.source)}"

    def note(self, error: BaseException) -> None:
        add_note_once(error, self.text())


class TraceNote:
    """What assembly tracking notes for one traced source: the first traced stage an
    exception comes out of adds it; the others add nothing."""

    __slots__ = ("site", "source")

    def __init__(self, site: AssemblySite, source: Any) -> None:
        self.site = site
        self.source = source

    def text(self) -> str:
        chain = _chain(self.source)
        stage = chain.rsplit(" → ", 1)[-1]
        return (f"{TRACE_NOTE}: the error came out of {stage}, {_where(self.site)} "
                f"(chain: {chain})")

    def note(self, error: BaseException) -> None:
        notes = getattr(error, "__notes__", None)
        if isinstance(notes, list) and any(isinstance(n, str) and n.startswith(TRACE_NOTE)
                                           for n in notes):
            return  # a stage nearer the error named itself: no chain text to build
        add_note_once(error, self.text(), TRACE_NOTE)


class FlowableCheckpoint(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "description", "_note")

    def __init__(self, source: Publisher[T], description: str | None,
                 site: AssemblySite | None) -> None:
        self.source = source
        self.description = description
        self._note = CheckpointNote(description, site, source)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, checkpoint_subscriber(subscriber, self._note))


class _CheckpointMixin(Generic[T]):
    """The signals of both variants: everything passes as it came (as ``hide``'s
    :class:`~rxpy2._internal.subscribers.pass_through.PassThrough`: only the §2.13
    ``None`` checks, so a stage put in by assembly tracking hides no protocol violation
    of its upstream), an error noted first."""

    downstream: Any
    qs: Any
    source_mode: int
    tracer: CheckpointNote | TraceNote

    def on_next(self, item: T) -> None:
        if item is None and self.source_mode == NONE:  # ASYNC fused: None says "poll"
            raise null_item()  # §2.13
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.tracer.note(error)
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def request_fusion(self, mode: int) -> int:
        # no user code here: the mode goes upstream as asked (a thread boundary included)
        m: int = self.qs.request_fusion(mode)  # answers NONE for an upstream that cannot
        if m != NONE:
            self.source_mode = m
        return m

    def poll(self) -> T | None:
        try:
            item: T | None = self.qs.poll()
        except Exception as e:  # the fused upstream failed: the same error, noted
            self.tracer.note(e)
            raise
        return item


class CheckpointSubscriber(_CheckpointMixin[T], BasicFuseableSubscriber[T, T], Generic[T]):
    """The checkpoint stage over a plain Subscriber."""

    __slots__ = ("tracer",)

    def __init__(self, downstream: Subscriber[T], tracer: CheckpointNote | TraceNote) -> None:
        super().__init__(downstream)
        self.tracer = tracer


class CheckpointConditionalSubscriber(_CheckpointMixin[T], BasicFuseableConditionalSubscriber[T, T],
                                      Generic[T]):
    """The checkpoint stage over a ConditionalSubscriber: ``try_on_next`` passes through."""

    __slots__ = ("tracer",)

    def __init__(self, downstream: Any, tracer: CheckpointNote | TraceNote) -> None:
        super().__init__(downstream)
        self.tracer = tracer

    def try_on_next(self, item: T) -> bool:
        if item is None:
            raise null_item()  # §2.13
        accepted: bool = self.downstream.try_on_next(item)
        return accepted


def checkpoint_subscriber(subscriber: Any, tracer: CheckpointNote | TraceNote) -> Any:
    """The stage for ``subscriber``: the conditional variant for a ConditionalSubscriber."""
    if is_conditional(subscriber):
        return CheckpointConditionalSubscriber(subscriber, tracer)
    return CheckpointSubscriber(subscriber, tracer)


def trace_subscriber(source: Any, subscriber: Any) -> Any:
    """Assembly tracking's stage between ``source`` and ``subscriber`` (the Flowable
    ``Kind.trace`` of the subscribe loop), or ``subscriber`` when ``source`` has no
    recorded site."""
    site = site_of(source)
    if site is None:
        return subscriber
    return checkpoint_subscriber(subscriber, TraceNote(site, source))
