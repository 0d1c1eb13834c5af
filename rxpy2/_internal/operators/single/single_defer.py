"""Single.defer: calls a supplier per subscriber for the Single to subscribe to.

The operator body (:class:`DeferOp`, a mixin) serves Maybe and Completable too
(``maybe_defer.py``, ``completable_defer.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.single import Single

__all__ = ["DeferOp", "SingleDefer"]

T = TypeVar("T")


class DeferOp(Generic[T]):
    """The operator body of the three ``defer`` classes: ``supplier()`` must return a
    source of the class's own type (its ``_root``); else ``TypeError`` to the observer."""

    __slots__ = ("supplier",)

    _root: ClassVar[type[ZeroOneBase]]

    def __init__(self, supplier: Callable[[], Any]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: Any) -> None:
        try:
            s = self.supplier()
            if not isinstance(s, self._root):
                raise TypeError("The supplier returned None" if s is None else
                                f"The supplier returned a {type(s).__name__}, "
                                f"not a {self._root.__name__}")
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        s._subscribe(observer)


class SingleDefer(DeferOp[T], Single[T], Generic[T]):
    __slots__ = ()
