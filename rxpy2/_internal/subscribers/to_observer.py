"""Subscribers that consume a whole Flowable into one Single, Maybe or Completable signal.

:class:`ToObserverSubscriber` is the base of ``count``, ``collect``, ``to_list``,
``reduce``, ``any``/``all``, ``ignore_elements`` ...: it requests everything
upstream (``upstream`` is :data:`~rxpy2.operator_kit.UNSUBSCRIBED` until then),
hands *itself* to the observer as its Disposable (disposing cancels the upstream) and keeps the result in ``self.value``. The ``done`` flag drops
any signal after the terminal one (a late error goes to
:func:`rxpy2.plugins.on_error`). A subclass implements ``on_next`` and, when
completion does not mean ``on_success(self.value)``, :meth:`~ToObserverSubscriber.end`.

:class:`ItemOrMissingSubscriber` adds the "no item" rule of ``first``/``last``/
``single``/``element_at``/``reduce``: an empty Maybe completes, a Single gets
the default item or an ``IndexError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.subscribers.operator_subscriber import RequestsUpfront
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_error
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_item
from rxpy2.disposables import Disposable
from rxpy2.disposables import Disposables
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ItemOrMissingSubscriber", "OnlyItemSubscriber", "ToObserverSubscriber", "initial_value"]

T = TypeVar("T")
U = TypeVar("U")


def initial_value(supplier: Callable[[], U], name: str, observer: Any) -> U | None:
    """``supplier()``, the per-subscriber start value of ``collect``/``reduce(seed)``.

    ``None`` when it raised or returned ``None`` (``TypeError``): the observer
    has then been given a disposed Disposable and the error.
    """
    try:
        u = supplier()
        if u is None:
            raise TypeError(f"The {name} returned None")
    except Exception as e:
        observer.on_subscribe(Disposables.disposed())
        observer.on_error(e)
        return None
    return u


class ToObserverSubscriber(RequestsUpfront, FlowableSubscriber[T], Disposable, Generic[T]):
    """Requests everything; on completion signals :meth:`end` with ``self.value``."""

    __slots__ = ("downstream", "upstream", "value", "done")

    def __init__(self, downstream: Any, value: Any = None) -> None:
        self.downstream = downstream
        self.upstream: Subscription = UNSUBSCRIBED
        self.value = value
        self.done = False

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.value = None
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.upstream = CANCELLED
        v = self.value
        self.value = None
        self.end(v)

    def end(self, value: Any) -> None:
        """The upstream completed: signal the result (by default ``on_success(value)``)."""
        self.downstream.on_success(value)

    # a fused chain folding into the aggregation (a subclass that declares a FusedFold):
    # the result so far is ``self.value``
    def fold_start(self) -> tuple[Any, Any]:
        """The result so far and the aggregation's function (``g`` of its FusedFold)."""
        return self.value, self.fold_function()

    def fold_function(self) -> Any:
        """``g`` of the subclass's FusedFold (None: its lines use none)."""
        return None

    def fold_end(self, acc: Any) -> None:
        self.value = acc

    def fail(self, error: BaseException) -> None:
        """A user function raised (or broke a rule): cancel the upstream, signal the error."""
        self.upstream.cancel()
        self.on_error(error)

    def stop(self) -> None:
        """The result is known before the end: cancel the upstream and drop what follows.

        The caller then signals the result itself.
        """
        self.done = True
        self.value = None
        up = self.upstream
        self.upstream = CANCELLED
        up.cancel()

    def dispose(self) -> None:
        self.upstream.cancel()  # UNSUBSCRIBED before on_subscribe: a no-op
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED

    def __repr__(self) -> str:
        up = self.upstream
        state = ("disposed" if up is CANCELLED and not self.done else "done" if self.done
                 else "unsubscribed" if up is UNSUBSCRIBED else "active")
        return f"{type(self).__name__}({state})"


class OnlyItemSubscriber(ToObserverSubscriber[T], Generic[T]):
    """Keeps the only item in ``self.value``; a second one cancels the upstream and
    signals :meth:`too_many` (``single`` and ``Single.from_publisher``)."""

    __slots__ = ()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if self.value is not None:
            self.stop()
            self.downstream.on_error(self.too_many())
            return
        self.value = item

    def too_many(self) -> BaseException:
        """The error of a second item."""
        raise NotImplementedError


class ItemOrMissingSubscriber(ToObserverSubscriber[T], Generic[T]):
    """Ends with ``self.value`` when there is one; otherwise an empty Maybe
    (``maybe``) completes and a Single gets ``default_item``, or the
    :meth:`missing` error when that is ``None``."""

    __slots__ = ("default_item", "maybe")

    def __init__(self, downstream: Any, default_item: T | None, maybe: bool) -> None:
        super().__init__(downstream)
        self.default_item = default_item
        self.maybe = maybe

    def end(self, value: Any) -> None:
        if value is not None:
            self.downstream.on_success(value)
        elif self.maybe:
            self.downstream.on_complete()
        elif self.default_item is not None:
            self.downstream.on_success(self.default_item)
        else:
            self.downstream.on_error(self.missing())

    def missing(self) -> BaseException:
        """The error a Single without a default item gets from an empty stream."""
        return IndexError("The sequence is empty")
