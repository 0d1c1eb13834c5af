"""Single.log (and Maybe's, Completable's): each signal as a record of the ``logging``
module (see ``flowable_log.py``): ``on_subscribe(<Disposable type>)``,
``on_success(item)``, ``on_complete()``, ``on_error(error)`` and, from the downstream,
``dispose()``. Not enabled for the level at subscribe time: the observer is subscribed
directly, with no stage between.

The operator body (:class:`LogOp`, a mixin) and its observer serve Maybe and Completable
too (``maybe_log.py``, ``completable_log.py``).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_log import LoggerLike
from rxpy2._internal.operators.single.single_hide import HideObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.single import Single

__all__ = ["LogObserver", "LogOp", "SingleLog"]

T = TypeVar("T")


class LogOp(Generic[T]):
    """The operator body of the three ``log`` classes (a mixin)."""

    __slots__ = ("source", "logger", "level")

    def __init__(self, source: ZeroOneBase, logger: LoggerLike, level: int) -> None:
        self.source = source
        self.logger = logger
        self.level = level

    def subscribe_actual(self, observer: Any) -> None:
        if self.logger.isEnabledFor(self.level):
            self.source._subscribe(LogObserver(observer, self.logger, self.level))
        else:  # nothing to log: no stage at all
            self.source._subscribe(observer)


class SingleLog(LogOp[T], Single[T], Generic[T]):
    __slots__ = ()


class LogObserver(HideObserver[T], Generic[T]):
    """Logs each signal, then relays it (a :class:`HideObserver` that logs)."""

    __slots__ = ("logger", "level")

    def __init__(self, downstream: Any, logger: LoggerLike, level: int) -> None:
        super().__init__(downstream)
        self.logger = logger
        self.level = level

    def on_subscribe(self, d: Disposable) -> None:
        self.logger.log(self.level, "on_subscribe(%s)", type(d).__name__)
        super().on_subscribe(d)

    def on_success(self, item: T) -> None:
        self.logger.log(self.level, "on_success(%r)", item)
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.logger.log(self.level, "on_error(%r)", error)
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.logger.log(self.level, "on_complete()")
        self.downstream.on_complete()

    def dispose(self) -> None:
        self.logger.log(self.level, "dispose()")
        super().dispose()
