"""Completable.from_future: completes when a ``concurrent.futures.Future`` succeeds (its
result is ignored), fails with its exception.

The machinery is Single's (``single_future.py``); only what a result becomes differs.
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_future import FromFutureSource
from rxpy2.completable import Completable

__all__ = ["CompletableFromFuture"]


def _completable_result(observer: Any, _value: Any) -> None:
    observer.on_complete()


class CompletableFromFuture(FromFutureSource, Completable):
    __slots__ = ()

    on_result = staticmethod(_completable_result)
