"""Completable.delay and Completable.delay_subscription(other) (RxJava 2's CompletableDelay):
Single's operators (``single_delay.py``). ``delay_subscription(time)`` is RxJava 2's
``timer(time).and_then(this)`` and needs no class of its own."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_delay import DelayOp
from rxpy2._internal.operators.single.single_delay import DelayWithPublisherOp
from rxpy2.completable import Completable

__all__ = ["CompletableDelay", "CompletableDelayWithPublisher"]


class CompletableDelay(DelayOp[Any], Completable):
    __slots__ = ()


class CompletableDelayWithPublisher(DelayWithPublisherOp[Any], Completable):
    __slots__ = ()
