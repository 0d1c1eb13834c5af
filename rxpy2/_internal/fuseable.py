"""Operator-fusion protocol (RxJava 2's ``io.reactivex.internal.fuseable``).

Macro fusion (assembly time) uses two markers:

* :class:`Callable` — a source that produces at most one item when subscribed;
  ``call()`` returns it, ``None`` for "empty", or raises.
* :class:`ScalarCallable` — a Callable whose ``call()`` is a constant known at
  assembly time and never raises (``just(x)``, ``empty()``).

Micro fusion (subscribe time): an upstream whose Subscription is a
:class:`QueueSubscription` lets the downstream pull items with ``poll()``
instead of receiving ``on_next``:

* ``request_fusion(mode)`` is called once, right in ``on_subscribe`` before any
  ``request``; the answer is the mode granted: ``NONE``, ``SYNC`` or ``ASYNC``.
* SYNC: the upstream is a synchronous finite source; the consumer polls it
  directly, ``poll()`` returning ``None`` means the end; no ``request`` is ever
  made and no ``on_next`` is ever delivered.
* ASYNC: the upstream still signals ``on_next`` (with a dummy item, ignored) to
  say "something is ready", and ``on_error``/``on_complete``; the consumer
  drains with ``poll()`` (``None`` = nothing now) and still requests.
* ``BOUNDARY`` is added to a request when the consumer will poll from another
  thread than the producer: a stage whose user function must not move threads
  refuses fusion then.
"""

from __future__ import annotations

import collections.abc
from abc import abstractmethod
from enum import IntFlag
from typing import Any
from typing import Generic
from typing import TypeGuard
from typing import TypeVar
from typing import cast

from rxpy2._internal.type_cache import class_check
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscription

__all__ = [
    "ANY",
    "ASYNC",
    "BOUNDARY",
    "NONE",
    "SYNC",
    "Callable",
    "ConditionalSubscriber",
    "DirectSink",
    "HasUpstreamPublisher",
    "FusionMode",
    "QueueSubscription",
    "ScalarCallable",
    "direct_sink",
    "is_conditional",
    "is_flowable_subscriber",
    "is_queue_subscription",
]

T = TypeVar("T")

class FusionMode(IntFlag):
    """The fusion modes of ``QueueSubscription.request_fusion``, as flags.

    The module-level constants below are the same values as plain ``int`` (they are
    compared on hot paths); ``FusionMode(m)`` names a mode in messages and reprs.
    """

    NONE = 0
    SYNC = 1
    ASYNC = 2
    ANY = 3
    BOUNDARY = 4


NONE = 0
SYNC = 1
ASYNC = 2
ANY = SYNC | ASYNC
BOUNDARY = 4


class QueueSubscription(Subscription, Generic[T]):
    """A Subscription that may also act as a queue of its upstream's items."""

    __slots__ = ()

    @abstractmethod
    def request_fusion(self, mode: int) -> int:
        """Ask for ``mode`` (SYNC, ASYNC or ANY, maybe with BOUNDARY); return the mode granted."""

    @abstractmethod
    def poll(self) -> T | None:
        """The next item, or ``None`` (SYNC: the end; ASYNC: nothing now). May raise."""

    @abstractmethod
    def is_empty(self) -> bool:
        """Return True when :meth:`poll` would return ``None`` now."""

    @abstractmethod
    def clear(self) -> None:
        """Drop every item queued and not yet polled (the consumer calls it on cancellation)."""

    def offer(self, item: T) -> bool:
        """Raise ``NotImplementedError``: a fused consumer only polls, nobody offers to it."""
        raise NotImplementedError("QueueSubscription.offer should not be called")


class ConditionalSubscriber(FlowableSubscriber[T], Generic[T]):
    """A subscriber that tells whether it consumed an item, so a dropped one costs no request."""

    __slots__ = ()

    @abstractmethod
    def try_on_next(self, item: T) -> bool:
        """Like ``on_next``; return False when the item was dropped (it did not use demand)."""


class DirectSink(Generic[T]):
    """A subscriber that lets a serializing drain call a function per item in place of its
    ``on_next`` (``subscribe(on_next)``'s LambdaSubscriber offers its ``on_next`` function).

    The drain that takes it (flat_map, observe_on, a fused synchronous chain) checks its
    own cancellation after each call, as the subscriber's ``cancel``/``dispose`` reaches it,
    and hands an exception the function raised to :meth:`sink_failed`, which cancels the
    upstream and signals ``on_error``.
    """

    __slots__ = ()

    @abstractmethod
    def direct_sink(self) -> collections.abc.Callable[[T], object] | None:
        """The function to call per item; ``None``: call ``on_next`` after all."""

    @abstractmethod
    def sink_failed(self, error: Exception) -> None:
        """The function of :meth:`direct_sink` raised ``error``."""


class BatchSink(Generic[T]):
    """A subscriber that takes several items in one call: a source that can hand over a
    batch (``subscribe_on`` polling a SYNC-fused upstream) calls :meth:`on_next_batch`
    instead of ``on_next`` per item while :meth:`takes_batches` says so."""

    __slots__ = ()

    @abstractmethod
    def takes_batches(self) -> bool:
        """Whether :meth:`on_next_batch` may be used now."""

    @abstractmethod
    def on_next_batch(self, items: collections.abc.Iterable[T]) -> None:
        """``on_next`` for each of ``items``, in one call: never more than requested and
        never ``None`` (the caller polled them under the subscriber's demand)."""


class ChecksItems:
    """A subscriber whose ``on_next`` checks what it is given itself: a ``None`` item raises
    ``TypeError`` (§2.13), as :class:`~rxpy2._internal.subscribers.pass_through.PassThrough`
    would before relaying it.

    A stage that relays items unchanged (``hide``, ``subscribe_on``) hands such a
    subscriber's ``on_next`` to its upstream (``pass_through.relay_on_next``): one call per item
    fewer, the same checks."""

    __slots__ = ()


class Callable(Generic[T]):
    """Marker: a source that yields at most one item when subscribed (``call()``)."""

    __slots__ = ()

    @abstractmethod
    def call(self) -> T | None:
        """Return the single item, or ``None`` for "no item"; may raise, which is then signalled
        as ``on_error``."""


class ScalarCallable(Callable[T], Generic[T]):
    """Marker: a constant scalar source; ``call()`` never raises."""

    __slots__ = ()


class HasUpstreamPublisher(Generic[T]):
    """Marker of an operator with one upstream Publisher, kept in its ``source`` attribute."""

    __slots__ = ()


_C = TypeVar("_C")
_Check = collections.abc.Callable[[object], TypeGuard[_C]]  # a cached isinstance

#: ``isinstance(s, ConditionalSubscriber)``, cached per class (a source picks its
#: conditional emission loop once per subscription).
is_conditional = cast("_Check[ConditionalSubscriber[Any]]", class_check(ConditionalSubscriber))
#: ``isinstance(s, FlowableSubscriber)``, cached per class (every ``subscribe``).
is_flowable_subscriber = cast("_Check[FlowableSubscriber[Any]]", class_check(FlowableSubscriber))
_is_direct_sink = cast("_Check[DirectSink[Any]]", class_check(DirectSink))
#: ``isinstance(s, BatchSink)``, cached per class (``subscribe_on``, once per subscription).
is_batch_sink = cast("_Check[BatchSink[Any]]", class_check(BatchSink))
#: ``isinstance(s, ChecksItems)``, cached per class (a relaying stage, once per subscription).
checks_items = cast("_Check[ChecksItems]", class_check(ChecksItems))


def direct_sink(subscriber: object) -> tuple[collections.abc.Callable[[Any], object],
                                             collections.abc.Callable[[Exception], None]] | None:
    """What a drain calls per item instead of ``subscriber.on_next``, and where an exception
    of that call goes, when the subscriber offers it (:class:`DirectSink`); else ``None``."""
    if _is_direct_sink(subscriber):
        emit = subscriber.direct_sink()
        if emit is not None:
            return emit, subscriber.sink_failed
    return None


#: ``isinstance(s, QueueSubscription)``, cached per class (fusion negotiation).
is_queue_subscription = cast("_Check[QueueSubscription[Any]]", class_check(QueueSubscription))
