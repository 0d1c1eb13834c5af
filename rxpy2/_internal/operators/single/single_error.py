"""Single.error: signals the error its supplier returns, per subscriber.

The operator body (:class:`ErrorOp`, a mixin) serves Maybe and Completable too
(``maybe_error.py``, ``completable_error.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.single import Single

__all__ = ["ErrorOp", "SingleError", "supply_error"]


def supply_error(supplier: Callable[[], BaseException]) -> BaseException:
    """Call ``supplier``: its error, the error it raised, or ``TypeError`` for ``None``."""
    try:
        e = supplier()
    except Exception as ex:
        return ex
    if e is None:
        return TypeError("The error supplier returned None")
    return e


class ErrorOp:
    """The operator body of the three ``error`` classes."""

    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], BaseException]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: Any) -> None:
        EmptyDisposable.error(supply_error(self.supplier), observer)


class SingleError(ErrorOp, Single[Any]):
    __slots__ = ()
