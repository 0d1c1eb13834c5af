"""Completable.subscribe_on / observe_on / unsubscribe_on (RxJava 2's CompletableSubscribeOn,
CompletableObserveOn, CompletableDisposeOn): Single's operators (``single_schedule.py``).

``unsubscribe_on`` differs from Single's and Maybe's as RxJava 2's CompletableDisposeOn
does: after a dispose, a completion is dropped and an error goes to
:func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from typing import Any

from rxpy2 import plugins
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.operators.single.single_schedule import ObserveOnOp
from rxpy2._internal.operators.single.single_schedule import SubscribeOnOp
from rxpy2._internal.operators.single.single_schedule import UnsubscribeOnObserver
from rxpy2._internal.operators.single.single_schedule import UnsubscribeOnOp
from rxpy2.completable import Completable

__all__ = ["CompletableObserveOn", "CompletableSubscribeOn", "CompletableUnsubscribeOn"]


class CompletableSubscribeOn(SubscribeOnOp[Any], Completable):
    __slots__ = ()


class CompletableObserveOn(ObserveOnOp[Any], Completable):
    __slots__ = ()


class DisposeOnObserver(UnsubscribeOnObserver[Any]):
    """Nothing reaches the downstream after its dispose."""

    __slots__ = ()

    def on_complete(self) -> None:
        if self.ref.get() is not DISPOSED:
            self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        if self.ref.get() is DISPOSED:
            plugins.on_error(error)
            return
        self.downstream.on_error(error)


class CompletableUnsubscribeOn(UnsubscribeOnOp[Any], Completable):
    """RxJava 2's CompletableDisposeOn (named for the fluent method, as ``repr`` shows it)."""

    __slots__ = ()

    _observer = DisposeOnObserver
