"""Single.just(x): signals a constant item; a ScalarCallable for assembly-time fusion.

The operator body (:class:`JustOp`, a mixin) serves Maybe too (``maybe_just.py``).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.single import Single

__all__ = ["JustOp", "SingleJust"]

T = TypeVar("T")


class JustOp(Generic[T]):
    """The operator body of Single's and Maybe's ``just``."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def subscribe_actual(self, observer: Any) -> None:
        observer.on_subscribe(EmptyDisposable.INSTANCE)
        observer.on_success(self.value)

    def call(self) -> T:
        return self.value


class SingleJust(JustOp[T], Single[T], ScalarCallable[T], Generic[T]):
    __slots__ = ()
