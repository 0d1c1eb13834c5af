"""Half-serialization: ``on_next`` from one thread, terminal events from any thread.

The operator keeps a :class:`~rxpy2._internal.drain.Drain` and an
:class:`AtomicThrowable`. ``on_next`` emits only while it owns the drain; a
terminal signal records itself in ``error`` (the error, or ``completed``) and
then tries the drain; if that fails, the ``on_next`` owner delivers it: either its
pass finds the terminal state on entry, or its ``leave()`` returns True. Whoever delivers the terminal
signal keeps the drain for good: nothing is emitted after it (§1.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any

from rxpy2 import plugins
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2.reactivestreams import Subscriber

if TYPE_CHECKING:  # the annotation only: rxpy2.operator_kit imports this module
    from rxpy2._internal.drain import Drain

__all__ = ["HalfSerializedItems", "HalfSerializer"]


class HalfSerializer:
    """Serialize one thread's ``on_next`` calls with terminal signals from any thread.

    All three static methods share the operator's ``drain`` (a :class:`Drain`,
    one per subscriber) and ``error`` (an :class:`AtomicThrowable`): call
    :meth:`on_next` for every item (from one thread at a time, as §1.3 requires
    of the upstream), :meth:`on_error`/:meth:`on_complete` from any thread. The
    downstream receives no ``on_next`` overlapping or following the terminal
    signal, and exactly one terminal signal; a second error goes to
    :func:`rxpy2.plugins.on_error`.
    """

    __slots__ = ()

    @staticmethod
    def on_next(subscriber: Subscriber[Any], item: Any, drain: Drain,
                error: AtomicThrowable) -> bool:
        """Deliver ``item`` unless a terminal signal is in; True if the stream terminated here."""
        if drain.enter():
            # the pass reads the state: a terminal signal whose enter() failed while
            # ours succeeded is covered by this pass (the Drain contract), not by leave()
            if error.completed or error.get() is not None:
                error.try_terminate_consumer(subscriber)  # and keep the drain
                return True
            subscriber.on_next(item)
            if drain.leave():
                # a terminal signal arrived while we were in on_next: we deliver it
                # and keep the drain (never leave again)
                error.try_terminate_consumer(subscriber)
                return True
        return False

    @staticmethod
    def on_error(subscriber: Subscriber[Any], ex: BaseException, drain: Drain,
                 error: AtomicThrowable) -> None:
        """Signal ``ex`` now, or leave it for the ``on_next`` in progress to deliver."""
        if error.try_add_throwable(ex):  # the state, before trying the drain
            if drain.enter():  # kept for good: the stream is over
                error.try_terminate_consumer(subscriber)
        else:
            plugins.on_error(ex)

    @staticmethod
    def on_complete(subscriber: Subscriber[Any], drain: Drain,
                    error: AtomicThrowable) -> None:
        """Complete now, or leave it for the ``on_next`` in progress to deliver."""
        error.completed = True  # the state, before trying the drain
        if drain.enter():  # kept for good: the stream is over
            error.try_terminate_consumer(subscriber)


class HalfSerializedItems:
    """``on_next`` of a subscriber whose items come from one thread and whose terminal
    signals may come from others (``take_until``, ``merge_with(Completable)``, the strict
    subscriber): each item goes to ``downstream`` through :meth:`HalfSerializer.on_next`,
    with its ``gate`` and ``error``."""

    __slots__ = ()

    downstream: Subscriber[Any]
    gate: Drain
    error: AtomicThrowable

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        HalfSerializer.on_next(self.downstream, item, self.gate, self.error)
