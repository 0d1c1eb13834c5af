"""Maybe.retry(bi_predicate=...), retry_when and repeat_when: the Single operators'
observers (``single_retry``, ``single_retry_when``, ``single_repeat_when``), which
handle the empty completion too.

RxJava 2 builds the three on Flowable (``toFlowable().retry(p).singleElement()``,
``toFlowable().retryWhen(h).singleElement()``, ``toFlowable().repeatWhen(h)``), so a
completion of ``retry_when``'s handler completes the Maybe (empty), and an empty
repetition of ``repeat_when`` asks the handler for the next round at once.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_repeat_when import SingleRepeatWhen
from rxpy2._internal.operators.single.single_retry import RetryBiPredicateOp
from rxpy2._internal.operators.single.single_retry_when import RetryWhenOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeRepeatWhen", "MaybeRetryBiPredicate", "MaybeRetryWhen"]

T = TypeVar("T")


class MaybeRetryBiPredicate(RetryBiPredicateOp, Maybe[T], Generic[T]):
    __slots__ = ("source", "predicate")


class MaybeRetryWhen(RetryWhenOp, Maybe[T], Generic[T]):
    __slots__ = ("source", "handler")


class MaybeRepeatWhen(SingleRepeatWhen[T], Generic[T]):
    __slots__ = ()
