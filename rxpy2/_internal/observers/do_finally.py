"""DoFinallyObserver: runs an action once, after the terminal signal or on dispose.

One class serves Single, Maybe and Completable: it forwards whichever of
``on_success``/``on_error``/``on_complete`` arrives, then runs the action; a
``dispose()`` that comes first runs it instead. An action that raises goes to
:func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.helpers.disposable_helper import ValidatedUpstream
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

__all__ = ["DoFinallyObserver"]

T = TypeVar("T")


class DoFinallyObserver(ValidatedUpstream, SingleObserver[T], MaybeObserver[T], CompletableObserver,
                        Disposable, Generic[T]):
    __slots__ = ("downstream", "action", "upstream", "_once")

    def __init__(self, downstream: Any, action: Callable[[], Any]) -> None:
        self.downstream = downstream
        self.action = action
        self.upstream: Disposable | None = None
        self._once = AtomicBoolean(False)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)
        self._run_finally()

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)
        self._run_finally()

    def on_complete(self) -> None:
        self.downstream.on_complete()
        self._run_finally()

    def dispose(self) -> None:
        up = self.upstream  # set: the downstream got us from on_subscribe
        if up is not None:
            up.dispose()
        self._run_finally()

    def is_disposed(self) -> bool:
        up = self.upstream
        return up is not None and up.is_disposed()

    def _run_finally(self) -> None:
        if self._once.compare_and_set(False, True):
            call_reporting(self.action)
