"""The Disposable ABC, below both ``rxpy2.disposables`` (its public home, which re-exports
it) and ``internal/helpers/disposable_helper.py`` (the moves of a Disposable reference)."""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod

__all__ = ["Disposable"]


class Disposable(ABC):
    """Something that can be stopped once; ``dispose`` is idempotent and thread-safe."""

    __slots__ = ()

    @abstractmethod
    def dispose(self) -> None:
        """Stop whatever this stands for; a second call, or one from another thread, does nothing
        more."""

    @abstractmethod
    def is_disposed(self) -> bool:
        """Return True once disposed (some implementations also once they terminated on their
        own)."""

    def __enter__(self) -> Disposable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()
