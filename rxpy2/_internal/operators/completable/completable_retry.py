"""Completable.retry(bi_predicate=...), retry_when and repeat_when: the Single
operators' observers (``single_retry``, ``single_retry_when``,
``single_repeat_when``), which handle the completion too.

RxJava 2 builds the three as ``fromPublisher(toFlowable().retry(p))``,
``fromPublisher(toFlowable().retryWhen(h))`` and
``fromPublisher(toFlowable().repeatWhen(h))``: a completion of ``retry_when``'s
handler completes the Completable, and :class:`CompletableRepeatWhen` is the Flowable
(of no item) that ``Completable.repeat_when`` turns into a Completable with
``ignore_elements``.
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_repeat_when import SingleRepeatWhen
from rxpy2._internal.operators.single.single_retry import RetryBiPredicateOp
from rxpy2._internal.operators.single.single_retry_when import RetryWhenOp
from rxpy2.completable import Completable

__all__ = ["CompletableRepeatWhen", "CompletableRetryBiPredicate", "CompletableRetryWhen"]


class CompletableRetryBiPredicate(RetryBiPredicateOp, Completable):
    __slots__ = ("source", "predicate")


class CompletableRetryWhen(RetryWhenOp, Completable):
    __slots__ = ("source", "handler")


class CompletableRepeatWhen(SingleRepeatWhen[Any]):
    __slots__ = ()
