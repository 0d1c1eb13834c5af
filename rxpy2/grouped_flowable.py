"""``GroupedFlowable``: a Flowable of the items that share one key (``group_by``'s groups)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2.flowable import Flowable

__all__ = ["GroupedFlowable"]

K = TypeVar("K")
T = TypeVar("T")


class GroupedFlowable(Flowable[T], Generic[K, T]):
    """A Flowable with a :attr:`key`: the items of one group of ``Flowable.group_by``.

    Subclasses call ``super().__init__(key)``; the key may be ``None``.
    """

    __slots__ = ("_key",)

    def __init__(self, key: K) -> None:
        self._key = key

    @property
    def key(self) -> K:
        """The key every item of this group was classified under."""
        return self._key

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key={self._key!r})"
