"""Maybe.do_on_event / do_on_terminate / do_after_success / do_after_terminate
(RxJava 2's MaybeDoOnEvent, MaybeDoOnTerminate, MaybeDoAfterSuccess, and MaybePeek's
after-terminate): Single's operator bodies and observers (``single_do_event.py``),
which also handle ``on_complete``."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_do_event import DoAfterOp
from rxpy2._internal.operators.single.single_do_event import DoOnEventOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeDoAfter", "MaybeDoOnEvent"]

T = TypeVar("T")


class MaybeDoOnEvent(DoOnEventOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeDoAfter(DoAfterOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
