"""The signal halves of a stage that relays what it receives unchanged.

:class:`PassThrough` sends items, errors and completion straight on (only the §2.13
``None`` checks); :class:`DeferredUpstream` holds the requests made before a late
upstream arrives and hands them over once (RxJava 2's deferred requesting). Mixins with
empty ``__slots__``: the class that uses them declares ``downstream`` (and ``upstream``,
``requested``) and overrides what it does differently.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import checks_items
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.operator_subscriber import null_error
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2.reactivestreams import Subscription

__all__ = ["DeferredUpstream", "PassThrough", "relay_on_next"]


def relay_on_next(downstream: Any) -> Callable[[Any], None]:
    """What a relaying stage's upstream calls per item: the downstream's ``on_next`` itself
    when it checks its items (:class:`~rxpy2._internal.fuseable.ChecksItems`), else a
    function that checks for ``None`` first (§2.13; a closure: no cycle through the stage)."""
    on_next: Callable[[Any], None] = downstream.on_next
    if checks_items(downstream):
        return on_next

    def checked(item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        on_next(item)
    return checked


class PassThrough:
    """``on_next``/``on_error``/``on_complete`` go to ``downstream`` as they came."""

    __slots__ = ()

    downstream: Any

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()


class DeferredUpstream:
    """``on_subscribe`` sets ``upstream`` once and requests what ``requested`` gathered
    before it came; ``request`` goes upstream, or into ``requested`` until then."""

    __slots__ = ()

    upstream: AtomicReference[Subscription]
    requested: AtomicLong

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.deferred_set_once(self.upstream, self.requested, s)

    def request(self, n: int) -> None:
        SubscriptionHelper.deferred_request(self.upstream, self.requested, n)
