"""Flowable.log (and the 0-1 types' ``log``, ``single_log.py``): every signal as a record
of the ``logging`` module, as Reactor's ``log()``.

One record per signal, at the level given, on the logger given (or named): towards the
upstream ``on_subscribe(<Subscription type>)``, ``on_next(item)``, ``on_error(error)``,
``on_complete()``; from the downstream ``request(n)`` (``request(unbounded)`` for
``LONG_MAX``) and ``cancel()``. The messages are formatted by ``logging`` only when a
record is emitted (``%r`` arguments).

The stage relays every signal unchanged. It is decided once per subscription: when the
logger is not enabled for the level at subscribe time (``logger.isEnabledFor``), the
subscriber is subscribed to the upstream directly, and nothing of the stage remains.
When it logs, it is a plain Subscriber and Subscription (as ``hide``): no fusion crosses
it, so each item really passes through ``on_next`` and is logged.
"""

from __future__ import annotations

import logging
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["DEFAULT_LOGGER", "FlowableLog", "LogSubscriber", "LoggerLike", "check_level",
           "resolve_logger"]

T = TypeVar("T")

#: the logger's name when ``log()`` is given none
DEFAULT_LOGGER = "rxpy2.log"

LoggerLike = logging.Logger | logging.LoggerAdapter[Any]


def resolve_logger(name_or_logger: Any) -> LoggerLike:
    """The argument of ``log()`` at assembly: ``None`` (the ``rxpy2.log`` logger), a
    logger name, a ``logging.Logger`` or a ``logging.LoggerAdapter``."""
    if name_or_logger is None:
        return logging.getLogger(DEFAULT_LOGGER)
    if isinstance(name_or_logger, str):
        return logging.getLogger(name_or_logger)
    if isinstance(name_or_logger, (logging.Logger, logging.LoggerAdapter)):
        return name_or_logger
    raise TypeError("name_or_logger must be a logger name, a logging.Logger or a "
                    f"logging.LoggerAdapter, not {type(name_or_logger).__name__}")


def check_level(level: Any) -> int:
    """The ``level`` of ``log()`` at assembly: an int (``logging.INFO``...), or a level
    name known to ``logging`` (``"DEBUG"``)."""
    if isinstance(level, str):
        n = logging.getLevelName(level.upper())
        if isinstance(n, int):
            return n
        raise ValueError(f"unknown logging level {level!r}")
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(f"level must be an int or a level name, not {type(level).__name__}")
    return level


def request_text(n: int) -> Any:
    """What ``request(n)`` shows: ``unbounded`` for ``LONG_MAX``, else ``n``."""
    return "unbounded" if n == LONG_MAX else n


class FlowableLog(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "logger", "level")

    def __init__(self, source: Publisher[T], logger: LoggerLike, level: int) -> None:
        self.source = source
        self.logger = logger
        self.level = level

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if self.logger.isEnabledFor(self.level):
            subscribe_tail(self.source, LogSubscriber(subscriber, self.logger, self.level))
        else:  # nothing to log: no stage at all
            subscribe_tail(self.source, subscriber)


class LogSubscriber(OperatorSubscriber[T, T], Generic[T]):
    """Logs each signal, then relays it."""

    __slots__ = ("logger", "level")

    def __init__(self, downstream: Subscriber[T], logger: LoggerLike, level: int) -> None:
        super().__init__(downstream)
        self.logger = logger
        self.level = level

    def on_subscribe(self, s: Subscription) -> None:
        self.logger.log(self.level, "on_subscribe(%s)", type(s).__name__)
        super().on_subscribe(s)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.logger.log(self.level, "on_next(%r)", item)
        if not self.done:
            self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is not None:
            self.logger.log(self.level, "on_error(%r)", error)
        super().on_error(error)

    def on_complete(self) -> None:
        self.logger.log(self.level, "on_complete()")
        super().on_complete()

    def request(self, n: int) -> None:
        self.logger.log(self.level, "request(%s)", request_text(n))
        super().request(n)

    def cancel(self) -> None:
        self.logger.log(self.level, "cancel()")
        super().cancel()
