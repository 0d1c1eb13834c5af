"""FlowableProcessor: a Flowable that is also a Subscriber (RxJava 2's ``FlowableProcessor``).

A processor is fed by calling its ``on_next``/``on_error``/``on_complete``
(directly, or by subscribing it to a Publisher) and relays the signals to its
own subscribers. As a Subscriber it follows the Reactive Streams rule that
signals arrive one at a time (§1.3); code that calls it from several threads
wraps it with :meth:`FlowableProcessor.to_serialized` first.

It is a :class:`~rxpy2.observers.FlowableSubscriber`, so subscribing it to a
Flowable does not wrap it in a StrictSubscriber. Like RxJava's processors it
requests everything from every upstream it is subscribed to — several sources
may feed one processor (the §2.12 relaxation), so a second Subscription is not
cancelled as §2.5 would have it — and cancels an upstream that arrives after it
terminated. It does not cancel its upstreams when its subscribers leave: it is
a hot source (``ref_count`` is the tool for that).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscription_helper import null_subscription
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Processor
from rxpy2.reactivestreams import Subscription

if TYPE_CHECKING:
    from rxpy2.processors.serialized_processor import SerializedProcessor

__all__ = ["FlowableProcessor", "take_upstream"]

T = TypeVar("T")


def take_upstream(s: Subscription, terminated: bool) -> None:
    """A processor's ``on_subscribe`` when it takes everything its upstream emits:
    ``TypeError`` for ``None`` (§2.13); once ``terminated``, ``s`` is cancelled, otherwise
    asked for ``LONG_MAX``."""
    if s is None:
        raise null_subscription()  # §2.13
    if terminated:
        s.cancel()
    else:
        s.request(LONG_MAX)


class FlowableProcessor(Flowable[T], Processor[T, T], FlowableSubscriber[T], Generic[T]):
    """The base of every processor: a Flowable, a Processor and a FlowableSubscriber."""

    __slots__ = ()

    @abstractmethod
    def has_subscribers(self) -> bool:
        """True when the processor has at least one subscriber now."""

    @abstractmethod
    def has_throwable(self) -> bool:
        """True when the processor terminated with ``on_error``."""

    @abstractmethod
    def has_complete(self) -> bool:
        """True when the processor terminated with ``on_complete``."""

    @abstractmethod
    def get_throwable(self) -> BaseException | None:
        """The error the processor terminated with, else None."""

    def to_serialized(self) -> FlowableProcessor[T]:
        """A processor that forwards to this one and may be fed from several threads at once.

        ``on_subscribe``/``on_next``/``on_error``/``on_complete`` of the result are
        serialized with an emitter loop (no thread waits while another emits); a
        processor that is already serialized is returned as it is.
        """
        from rxpy2.processors.serialized_processor import SerializedProcessor
        if isinstance(self, SerializedProcessor):
            return self
        s: SerializedProcessor[T] = SerializedProcessor(self)
        return s
