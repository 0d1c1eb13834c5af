"""Maybe.zip / zip_array / zip_with: combine the items of several Maybes.

The coordinator is Single's (``single_zip.py``): the first empty completion or
error wins the ``remaining`` counter, disposes the other sources and goes
downstream; later errors go to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from rxpy2.internal.operators.single.single_zip import ZipCoordinator
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeZipArray"]

R = TypeVar("R")


class MaybeZipArray(Maybe[R], Generic[R]):
    __slots__ = ("sources", "zipper")

    def __init__(self, sources: Sequence[Maybe[Any]], zipper: Callable[..., R]) -> None:
        self.sources = sources
        self.zipper = zipper

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        sources = self.sources
        parent: ZipCoordinator[R] = ZipCoordinator(observer, len(sources), self.zipper)
        observer.on_subscribe(parent)
        for i, s in enumerate(sources):
            if parent.is_disposed():
                return
            s._subscribe(parent.observers[i])
