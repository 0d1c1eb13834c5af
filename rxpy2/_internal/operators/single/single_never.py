"""Single.never: signals nothing but ``on_subscribe``.

The operator body (:class:`NeverOp`, a mixin) serves Maybe and Completable too
(``maybe_never.py``, ``completable_never.py``).
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.single import Single

__all__ = ["NeverOp", "SingleNever"]


class NeverOp:
    """The operator body of the three ``never`` classes."""

    __slots__ = ()

    def subscribe_actual(self, observer: Any) -> None:
        observer.on_subscribe(EmptyDisposable.NEVER)


class SingleNever(NeverOp, Single[Any]):
    __slots__ = ()

    INSTANCE: SingleNever


SingleNever.INSTANCE = SingleNever()
