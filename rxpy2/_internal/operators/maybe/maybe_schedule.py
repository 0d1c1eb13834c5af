"""Maybe.subscribe_on / observe_on / unsubscribe_on (RxJava 2's MaybeSubscribeOn,
MaybeObserveOn, MaybeUnsubscribeOn): Single's operators (``single_schedule.py``),
whose observers also carry ``on_complete``."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_schedule import ObserveOnOp
from rxpy2._internal.operators.single.single_schedule import SubscribeOnOp
from rxpy2._internal.operators.single.single_schedule import UnsubscribeOnOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeObserveOn", "MaybeSubscribeOn", "MaybeUnsubscribeOn"]

T = TypeVar("T")


class MaybeSubscribeOn(SubscribeOnOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeObserveOn(ObserveOnOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeUnsubscribeOn(UnsubscribeOnOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
