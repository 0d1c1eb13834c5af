"""OtherTriggerSubscriber: a 0-1 operator's subscriber to an "other" Publisher.

``take_until`` and Maybe's ``timeout(other)`` watch another source: it is asked for
everything; its first item (which cancels it) or its completion calls
``parent.other_trigger()``, its error ``parent.other_error(error)``. The reference
holds its Subscription (``CANCELLED`` once cancelled), so it is also the Disposable
the parent cancels it with.
"""

from __future__ import annotations

from typing import Any
from typing import Protocol

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.disposables import Disposable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription

__all__ = ["OtherTriggerSubscriber"]


class OtherParent(Protocol):
    def other_trigger(self) -> None: ...

    def other_error(self, error: BaseException) -> None: ...


class OtherTriggerSubscriber(AtomicReference[Subscription], FlowableSubscriber[Any], Disposable):
    __slots__ = ("parent",)

    def __init__(self, parent: OtherParent) -> None:
        super().__init__()
        self.parent = parent

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        if SubscriptionHelper.cancel(self):
            self.parent.other_trigger()

    def on_error(self, error: BaseException) -> None:
        self.parent.other_error(error)

    def on_complete(self) -> None:
        self.parent.other_trigger()

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self)

    def is_disposed(self) -> bool:
        return self.get() is CANCELLED
