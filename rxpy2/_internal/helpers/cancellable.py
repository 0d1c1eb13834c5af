"""CancellableDisposable: a :class:`~rxpy2.emitter.Cancellable` seen as a Disposable.

The emitters of ``Flowable.create``, ``Single.create``, ``Maybe.create`` and
``Completable.create`` keep their resource as a Disposable; ``set_cancellable``
wraps the callable with :meth:`CancellableDisposable.of`.
"""

from __future__ import annotations

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.disposable import Disposable
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2.emitter import Cancellable

__all__ = ["CancellableDisposable"]


class CancellableDisposable(Disposable):
    """Runs the Cancellable on the first ``dispose``; an error it raises goes to
    :func:`rxpy2.plugins.on_error` (``dispose`` never raises)."""

    __slots__ = ("_ref",)

    def __init__(self, cancellable: Cancellable) -> None:
        self._ref: AtomicReference[Cancellable] = AtomicReference(cancellable)

    @staticmethod
    def of(cancellable: Cancellable | None) -> Disposable | None:
        """The argument of ``set_cancellable`` as a Disposable: ``None`` stays ``None``
        (clears the resource); anything not callable is a ``TypeError``."""
        if cancellable is None:
            return None
        if not callable(cancellable):
            raise TypeError(f"cancellable must be callable, not {type(cancellable).__name__}")
        return CancellableDisposable(cancellable)

    def dispose(self) -> None:
        if self._ref.get() is not None:
            call_reporting(self._ref.get_and_set(None))

    def is_disposed(self) -> bool:
        return self._ref.get() is None

    def __repr__(self) -> str:
        return f"CancellableDisposable({'disposed' if self.is_disposed() else 'active'})"
