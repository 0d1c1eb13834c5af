"""Maybe.from_future: the result of a ``concurrent.futures.Future``, or empty for ``None``.

The machinery is Single's (``single_future.py``); only what a result becomes differs.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_future import FromFutureSource
from rxpy2.maybe import Maybe

__all__ = ["MaybeFromFuture"]

T = TypeVar("T")


def _maybe_result(observer: Any, value: Any) -> None:
    if value is None:
        observer.on_complete()
    else:
        observer.on_success(value)


class MaybeFromFuture(FromFutureSource, Maybe[T], Generic[T]):
    __slots__ = ()

    on_result = staticmethod(_maybe_result)
