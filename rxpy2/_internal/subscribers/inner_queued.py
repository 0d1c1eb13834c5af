"""InnerQueuedSubscriber: an inner subscriber with its own prefetch queue, drained by a parent.

Used by operators that run several inner Publishers and emit from them in a
chosen order (``concat_map_eager``). Each inner asks its Publisher for
``prefetch`` items and keeps them in a bounded queue; the parent's drain loop
polls that queue and calls :meth:`InnerQueuedSubscriber.request_one` per item it
emits, which asks for ``limit = prefetch - prefetch // 4`` more once that many
were consumed. A SYNC-fused Publisher is polled directly (no request at all); an
ASYNC-fused one lends its own queue and still gets the requests.

The parent implements :class:`InnerQueuedSubscriberSupport`: ``inner_next``
(offer the item to ``inner.queue`` and drain), ``inner_error``,
``inner_complete`` (mark the inner done with :meth:`set_done` and drain) and
``drain``. The prefetching, fusion and replenishing are the shared
:class:`PrefetchingInnerSubscriber` (prefetching_inner.py).
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import NONE
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.operator_subscriber import null_error
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2._internal.subscribers.prefetching_inner import PrefetchingInnerSubscriber

__all__ = ["InnerQueuedSubscriber", "InnerQueuedSubscriberSupport"]

T = TypeVar("T")


class InnerQueuedSubscriberSupport(ABC, Generic[T]):
    """What an :class:`InnerQueuedSubscriber` calls on its parent."""

    __slots__ = ()

    @abstractmethod
    def inner_next(self, inner: InnerQueuedSubscriber[T], item: T) -> None:
        """A non-fused inner's item: offer it to ``inner.queue``, then drain."""

    @abstractmethod
    def inner_error(self, inner: InnerQueuedSubscriber[T], error: BaseException) -> None: ...

    @abstractmethod
    def inner_complete(self, inner: InnerQueuedSubscriber[T]) -> None: ...

    @abstractmethod
    def drain(self) -> None: ...


class InnerQueuedSubscriber(PrefetchingInnerSubscriber[T], Generic[T]):
    """Prefetches into a queue (or fuses with its Publisher); the parent drains it.

    The upstream side (fusion, ``request``/``request_one`` replenishing, ``cancel``)
    is :class:`PrefetchingInnerSubscriber`'s (prefetching_inner.py).
    """

    __slots__ = ()

    parent: InnerQueuedSubscriberSupport[T]

    def __init__(self, parent: InnerQueuedSubscriberSupport[T], prefetch: int) -> None:
        super().__init__(parent, prefetch)

    def on_sync_fused(self) -> None:
        self.parent.inner_complete(self)

    def on_next(self, item: T) -> None:
        if self.fusion_mode == NONE:
            if item is None:
                raise null_item()  # §2.13
            self.parent.inner_next(self, item)
        else:  # ASYNC: the item (None) is a "ready" signal
            self.parent.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.parent.inner_error(self, error)

    def on_complete(self) -> None:
        self.parent.inner_complete(self)

    def is_cancelled(self) -> bool:
        return SubscriptionHelper.is_cancelled(self.upstream.get())

    def is_done(self) -> bool:
        return self.done

    def set_done(self) -> None:
        self.done = True
