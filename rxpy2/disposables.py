"""Disposable: a handle to stop something (a subscription, a scheduled task)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from collections.abc import Iterable

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.disposable import Disposable
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.exceptions import CompositeException

__all__ = ["CompositeDisposable", "Disposable", "Disposables", "SerialDisposable"]


class _ActionDisposable(Disposable):
    __slots__ = ("_action",)

    def __init__(self, action: Callable[[], object] | None) -> None:
        self._action: AtomicReference[Callable[[], object]] = AtomicReference(action)

    def dispose(self) -> None:
        a = self._action.get()
        if a is not _DONE:
            a = self._action.get_and_set(_DONE)
            if a is not _DONE and a is not None:
                a()

    def is_disposed(self) -> bool:
        return self._action.get() is _DONE

    def __repr__(self) -> str:
        return f"Disposable({'disposed' if self.is_disposed() else 'active'})"


def _noop() -> None:
    return None


_DONE = _noop


class Disposables:
    """Factories for simple disposables."""

    @staticmethod
    def from_action(action: Callable[[], object]) -> Disposable:
        """A Disposable that runs ``action`` once, on the first ``dispose``."""
        if action is None:
            raise TypeError("action is None")
        return _ActionDisposable(action)

    @staticmethod
    def empty() -> Disposable:
        """A new, not yet disposed Disposable that does nothing."""
        return _ActionDisposable(None)

    @staticmethod
    def disposed() -> Disposable:
        """A Disposable that is already disposed."""
        d = _ActionDisposable(None)
        d.dispose()
        return d


class CompositeDisposable(Disposable):
    """A container that disposes what it holds, and anything added after it was disposed."""

    __slots__ = ("_lock", "_items", "_disposed")

    def __init__(self, items: Iterable[Disposable] = ()) -> None:
        self._lock = threading.Lock()
        self._items: set[Disposable] | None = set(items)
        self._disposed = False

    def add(self, d: Disposable) -> bool:
        """Hold ``d`` and return True; once this container is disposed, dispose ``d`` at once and
        return False. ``None`` raises ``TypeError``."""
        if d is None:
            raise TypeError("disposable is None")
        if not self._disposed:
            with self._lock:
                if not self._disposed:
                    assert self._items is not None
                    self._items.add(d)
                    return True
        d.dispose()
        return False

    def remove(self, d: Disposable) -> bool:
        """Remove and dispose ``d``."""
        if self.delete(d):
            d.dispose()
            return True
        return False

    def delete(self, d: Disposable) -> bool:
        """Remove ``d`` without disposing it."""
        with self._lock:
            if self._disposed or self._items is None or d not in self._items:
                return False
            self._items.discard(d)
            return True

    def clear(self) -> None:
        """Dispose and remove everything held; the container stays usable (no-op once disposed)."""
        with self._lock:
            if self._disposed:
                return
            items, self._items = self._items, set()
        for d in items or ():
            d.dispose()

    def size(self) -> int:
        """Return how many disposables are held now (0 once disposed)."""
        items = self._items
        return 0 if items is None else len(items)

    def dispose(self) -> None:
        """Dispose everything held, once; later :meth:`add` calls dispose their argument.

        Every held disposable is disposed even when some raise; then the one error is re-raised, or
        a :class:`~rxpy2.exceptions.CompositeException` of them all.
        """
        if self._disposed:
            return
        with self._lock:
            if self._disposed:
                return
            self._disposed = True
            items, self._items = self._items, None
        errors = []
        for d in items or ():
            try:
                d.dispose()
            except Exception as e:
                errors.append(e)
        if errors:
            raise errors[0] if len(errors) == 1 else CompositeException(errors)

    def is_disposed(self) -> bool:
        """Return True once :meth:`dispose` was called (:meth:`clear` does not dispose the
        container)."""
        return self._disposed

    def __repr__(self) -> str:
        if self._disposed:
            return "CompositeDisposable(disposed)"
        return f"CompositeDisposable(active, size={self.size()})"


class SerialDisposable(Disposable):
    """Holds one Disposable; ``set`` disposes the previous one, ``replace`` does not."""

    __slots__ = ("_ref",)

    def __init__(self, initial: Disposable | None = None) -> None:
        self._ref: AtomicReference[Disposable] = AtomicReference(initial)

    def set(self, d: Disposable | None) -> bool:
        """Hold ``d`` and dispose the one it replaces; once disposed, dispose ``d`` and return
        False."""
        return DisposableHelper.set(self._ref, d)

    def replace(self, d: Disposable | None) -> bool:
        """Hold ``d`` without disposing the one it replaces; once disposed, dispose ``d`` and
        return False."""
        return DisposableHelper.replace(self._ref, d)

    def get(self) -> Disposable | None:
        """Return the disposable held (``None`` if none); once disposed, a disposed Disposable."""
        d = self._ref.get()
        return Disposables.disposed() if d is DISPOSED else d

    def dispose(self) -> None:
        """Dispose the disposable held and every one set later; idempotent."""
        DisposableHelper.dispose(self._ref)

    def is_disposed(self) -> bool:
        """Return True once :meth:`dispose` was called."""
        return self._ref.get() is DISPOSED

    def __repr__(self) -> str:
        return f"SerialDisposable({'disposed' if self.is_disposed() else 'active'})"
