"""The base of an operator's subscriber: upstream bookkeeping, §2.13 checks, one terminal.

An intermediate operator's per-subscription object faces the upstream as a
``FlowableSubscriber`` and the downstream as a ``Subscription``: it passes
*itself* downstream. :class:`OperatorSubscriber` is that object with the
protocol written once:

* ``upstream`` is typed ``Subscription`` and is never ``None``: it holds
  :data:`UNSUBSCRIBED` (a Subscription that ignores ``request``/``cancel``)
  until ``on_subscribe`` sets the real one;
* ``on_subscribe(s)``: ``TypeError`` for ``None`` (§2.13); a second Subscription
  is cancelled and reported to :func:`rxpy2.plugins.on_error` (§2.5); else keeps
  ``s``, runs :meth:`OperatorSubscriber.on_start` and passes ``self`` downstream;
* ``on_next(item)``: ``TypeError`` for ``None`` (§2.13); dropped after a terminal
  signal; else :meth:`OperatorSubscriber.hook_on_next`, which a subclass writes.
  A subclass on a hot path may override ``on_next`` itself, keeping both checks;
* ``on_error(e)``: ``TypeError`` for ``None``; after a terminal signal the error
  goes to :func:`rxpy2.plugins.on_error` (never lost); else downstream, once;
* ``on_complete()``: downstream, once;
* ``request(n)``/``cancel()``: forwarded upstream (the upstream validates ``n``);
* :meth:`OperatorSubscriber.fail` (a user function raised: cancel upstream,
  signal the error) and :meth:`OperatorSubscriber.complete_early` (the stream
  ends before the upstream does: cancel upstream, complete).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import Protocol
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.helpers.subscription_helper import null_subscription
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["InnerErrorOnce", "OperatorSubscriber", "RequestsUpfront", "UnboundedStart", "null_error", "null_item", "null_or_late_error",
           "null_or_late_item", "null_subscription", "validate_upstream"]

T = TypeVar("T")
R = TypeVar("R")


def null_item() -> TypeError:
    """The §2.13 error for ``on_next(None)``, raised to the caller."""
    return TypeError("§2.13 violated: on_next(None): items must not be None")


def null_error() -> TypeError:
    """The §2.13 error for ``on_error(None)``, raised to the caller."""
    return TypeError("§2.13 violated: on_error(None): the error must not be None")


def null_or_late_item(item: object) -> None:
    """The body of ``if item is None or <terminated>:`` at the top of ``on_next``: ``None``
    raises :func:`null_item` to the caller (§2.13); an item after the terminal event is dropped."""
    if item is None:
        raise null_item()


def null_or_late_error(error: BaseException | None) -> None:
    """The body of ``if error is None or <terminated>:`` at the top of ``on_error``: ``None``
    raises :func:`null_error` to the caller (§2.13); an error after the terminal event cannot
    be delivered and goes to :func:`rxpy2.plugins.on_error` (§1.7), never lost."""
    if error is None:
        raise null_error()
    plugins.on_error(error)


def validate_upstream(current: Subscription, s: Subscription) -> bool:
    """The checks of ``on_subscribe(s)`` for a subscriber whose upstream field holds
    ``current`` (:data:`UNSUBSCRIBED` until set): ``TypeError`` for ``None`` (§2.13,
    raised to the caller); a second Subscription is cancelled and reported to
    :func:`rxpy2.plugins.on_error` (§2.5) and False returned; True: keep ``s``."""
    if s is None:
        raise null_subscription()  # §2.13
    if current is not UNSUBSCRIBED:
        s.cancel()  # §2.5: a second Subscription
        plugins.on_error(ProtocolViolationException("§2.5 violated: Subscription already set!"))
        return False
    return True


class _Linked(Protocol):
    upstream: Subscription
    downstream: Any


class _HasUpstream(_Linked, Protocol):
    def first_request(self) -> int: ...


class RequestsUpfront:
    """``on_subscribe`` of a subscriber that hands *itself* to its ``downstream`` and then
    asks its upstream for :meth:`first_request` items, by default everything
    (``LONG_MAX``): the aggregations
    (:class:`~rxpy2._internal.subscribers.to_observer.ToObserverSubscriber`,
    ``DeferredScalarSubscriber``), ``switch_map_maybe``/``_single``, and
    ``flat_map_maybe``/``_single``/``_completable`` and ``concat_map_eager`` (their
    ``max_concurrency``). ``upstream`` is :data:`UNSUBSCRIBED` until then."""

    __slots__ = ()

    def on_subscribe(self: _HasUpstream, s: Subscription) -> None:
        if validate_upstream(self.upstream, s):  # §2.13, §2.5
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(self.first_request())

    def first_request(self) -> int:
        return LONG_MAX


class UnboundedStart:
    """``on_start`` of an :class:`OperatorSubscriber` that hands itself downstream first and
    then asks its upstream for everything (``LONG_MAX``), serving the downstream's demand
    itself (``on_backpressure_*``, ``take_last``, the timed ``skip_last``/``take_last``)."""

    __slots__ = ()

    def on_start(self: _Linked) -> bool:
        self.downstream.on_subscribe(self)
        self.upstream.request(LONG_MAX)
        return False  # on_subscribe went downstream already (before the request)


class _HasParent(Protocol):
    done: bool
    parent: Any


class InnerErrorOnce:
    """``on_error`` of an inner subscriber whose error goes to its ``parent``
    (``parent.inner_error``), once (``done``; a later one goes to
    :func:`rxpy2.plugins.on_error`): ``sequence_equal``'s sources, the boundaries of
    ``window``/``buffer``/``sample``."""

    __slots__ = ()

    def on_error(self: _HasParent, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.parent.inner_error(error)


class OneTerminal:
    """The signals an operator's subscriber handles the same way whatever it does with
    items: one terminal signal goes ``downstream`` (``done`` records it), a later
    error goes to :func:`rxpy2.plugins.on_error`; ``request``/``cancel`` go to
    ``upstream``. A base of :class:`OperatorSubscriber` and of the fuseable 1:1
    stages (``rxpy2._internal.subscribers.basic_fuseable``)."""

    __slots__ = ("downstream", "upstream", "done")

    downstream: Subscriber[Any]
    upstream: Subscription
    done: bool

    def on_error(self, error: BaseException) -> None:
        """Signal ``error`` downstream once; ``None`` raises ``TypeError`` (§2.13), and an error
        after a terminal signal goes to :func:`rxpy2.plugins.on_error` (§1.7)."""
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        """Signal ``on_complete`` downstream, once; after a terminal signal it does nothing."""
        if self.done:
            return
        self.done = True
        self.downstream.on_complete()

    def fail(self, error: BaseException) -> None:
        """A user function raised (or broke a rule): cancel the upstream, signal ``error``."""
        self.upstream.cancel()
        self.on_error(error)

    def request(self, n: int) -> None:
        """Forward the request to ``upstream``, which validates ``n`` (§3.9)."""
        self.upstream.request(n)

    def cancel(self) -> None:
        """Cancel ``upstream``."""
        self.upstream.cancel()


class OperatorSubscriber(OneTerminal, FlowableSubscriber[T], Subscription, Generic[T, R]):
    """Subscriber to the upstream (items ``T``) and Subscription of the downstream (items ``R``).

    Write :meth:`hook_on_next`; override :meth:`on_start`, ``on_error``/``on_complete``,
    ``request``/``cancel`` where the operator needs to. ``done`` is True once a
    terminal signal went downstream (or :meth:`fail`/:meth:`complete_early` ran).
    """

    __slots__ = ()  # downstream, upstream, done: OneTerminal's

    def __init__(self, downstream: Subscriber[R]) -> None:
        self.downstream: Subscriber[R] = downstream
        self.upstream: Subscription = UNSUBSCRIBED
        self.done = False

    # -- facing the upstream

    def on_subscribe(self, s: Subscription) -> None:
        """Keep ``s`` as ``upstream``, run :meth:`on_start`, then pass ``self`` downstream (unless
        :meth:`on_start` returned False).

        ``None`` raises ``TypeError`` (§2.13); a second Subscription is cancelled and reported to
        :func:`rxpy2.plugins.on_error` (§2.5).
        """
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        if self.on_start():
            self.downstream.on_subscribe(self)

    def on_start(self) -> bool:
        """Runs in ``on_subscribe`` once ``upstream`` is set, before the downstream gets
        ``self``. Return False to keep the downstream's ``on_subscribe`` for later
        (the operator then calls it itself)."""
        return True

    def on_next(self, item: T) -> None:
        """Hand ``item`` to :meth:`hook_on_next`; ``None`` raises ``TypeError`` (§2.13) and an
        item after a terminal signal is dropped."""
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.hook_on_next(item)

    def hook_on_next(self, item: T) -> None:
        """Handle one item (not ``None``, not after a terminal signal)."""
        raise NotImplementedError(f"{type(self).__name__} must implement hook_on_next")

    # on_error, on_complete, fail (a user function raised), request and cancel
    # (facing the downstream): from OneTerminal

    def complete_early(self) -> None:
        """The stream ends before the upstream does: cancel it and complete."""
        self.upstream.cancel()
        self.on_complete()

    def __repr__(self) -> str:
        state = "done" if self.done else ("unsubscribed" if self.upstream is UNSUBSCRIBED
                                          else "active")
        return f"{type(self).__name__}({state})"
