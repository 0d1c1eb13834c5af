"""Global hooks, as RxJava's ``RxJavaPlugins``.

* :func:`on_error` receives every error that cannot be delivered to a consumer
  (the stream already ended, a consumer's callback raised, a subscription was set
  twice, a non-positive request under the §3.9 relaxation, ...). Without a
  handler set by :func:`set_error_handler` it logs the error with its traceback
  on the ``rxpy2`` logger at ERROR level: never silently dropped. A handler that
  raises an ``Exception`` is logged too, with both errors. Fatal exceptions (a
  ``BaseException`` that is not an ``Exception``: ``KeyboardInterrupt``,
  ``SystemExit``, ...) are not errors of a stream: ``on_error`` re-raises one it is
  given, and one the handler raises propagates (see :func:`on_error`).
* Assembly hooks (``set_on_flowable_assembly`` and friends) see each new
  Flowable/Single/Maybe/Completable and may return a replacement.
* Subscribe hooks (``set_on_flowable_subscribe`` ...) see each
  ``(source, subscriber)`` pair at subscription and may return another subscriber.
* Scheduler hooks: :func:`set_schedule_handler` wraps every callable handed
  to a scheduler or worker (``fn(task) -> task``);
  ``set_computation_scheduler_handler`` and its io/single/new_thread siblings
  (``fn(scheduler) -> scheduler``) are applied by ``Schedulers.computation()``
  and friends.
* Context propagation: every task handed to a scheduler runs in a copy of the
  ``contextvars`` context current when it was scheduled (docs/schedulers.md,
  "Context propagation"); :func:`set_context_propagation` turns it off (or the
  environment variable ``RXPY2_CONTEXT_PROPAGATION=0`` at import).
* :func:`reset` removes every hook; :func:`lockdown` forbids further changes
  (a :class:`RuntimeError` on any setter) until the process ends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.exceptions import UndeliverableException

__all__ = [
    "get_error_handler",
    "is_context_propagation_enabled",
    "is_locked_down",
    "lockdown",
    "on_assembly",
    "on_error",
    "on_schedule",
    "on_scheduler",
    "on_subscribe",
    "reset",
    "set_computation_scheduler_handler",
    "set_context_propagation",
    "set_error_handler",
    "set_io_scheduler_handler",
    "set_new_thread_scheduler_handler",
    "set_on_completable_assembly",
    "set_on_completable_subscribe",
    "set_on_flowable_assembly",
    "set_on_flowable_subscribe",
    "set_on_maybe_assembly",
    "set_on_maybe_subscribe",
    "set_on_parallel_assembly",
    "set_on_single_assembly",
    "set_on_single_subscribe",
    "set_schedule_handler",
    "set_single_scheduler_handler",
]

if TYPE_CHECKING:
    import logging

    #: the ``rxpy2`` logger (made on first use)
    log: logging.Logger


def _logger() -> logging.Logger:
    """The ``rxpy2`` logger; ``logging`` (6 ms) is imported on the first undeliverable
    error, not by ``import rxpy2``."""
    import logging

    return logging.getLogger("rxpy2")


if not TYPE_CHECKING:  # type checkers see ``log`` above, and no catch-all

    def __getattr__(name: str) -> Any:
        if name == "log":
            return _logger()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_lock = threading.Lock()
_locked_down = False
_error_handler: Callable[[BaseException], None] | None = None
_assembly: dict[str, Callable[[Any], Any]] = {}
_subscribe: dict[str, Callable[[Any, Any], Any]] = {}
_schedule_handler: Callable[[Callable[[], object]], Callable[[], object]] | None = None
_scheduler_handlers: dict[str, Callable[[Any], Any]] = {}
#: True while any assembly or subscribe hook is set: lets the hot paths skip the lookup.
hooks_active: bool = False
#: Context propagation is on unless ``RXPY2_CONTEXT_PROPAGATION`` says 0/false/no/off.
_PROPAGATE_CONTEXT_DEFAULT = os.environ.get("RXPY2_CONTEXT_PROPAGATION", "1").strip().lower() \
    not in ("0", "false", "no", "off")


class _Flags:
    """``hooks_active`` again, for the per-item and per-subscribe paths: CPython (3.11 to
    3.13) does not specialise attribute reads on a module that defines ``__getattr__``
    (this one does, for ``log``), so ``plugins.hooks_active`` costs ~20 ns where
    ``flags.hooks_active`` (a slot) costs ~3 ns. Both are written together.

    ``propagate_context`` is read by the schedulers once per scheduled task (see
    :func:`set_context_propagation`).
    """

    __slots__ = ("hooks_active", "propagate_context")

    def __init__(self) -> None:
        self.hooks_active: bool = False
        self.propagate_context: bool = _PROPAGATE_CONTEXT_DEFAULT


flags: _Flags = _Flags()

X = TypeVar("X")

# Errors that are bugs or protocol problems rather than a stream's own error: they
# are reported as they are; any other error is wrapped in UndeliverableException
# so the log says why it arrived here.
_BUG_TYPES = (
    OnErrorNotImplementedException,
    MissingBackpressureException,
    ProtocolViolationException,
    UndeliverableException,
    CompositeException,
    TypeError,  # Java's NullPointerException: a None item or subscriber
    ValueError,  # Java's IllegalArgumentException: e.g. a §3.9 non-positive request
)


def _check() -> None:
    if _locked_down:
        raise RuntimeError("rxpy2.plugins is locked down")


def set_error_handler(handler: Callable[[BaseException], None] | None) -> None:
    """Install the global handler for undeliverable errors (``None`` restores logging)."""
    global _error_handler
    with _lock:
        _check()
        _error_handler = handler


def get_error_handler() -> Callable[[BaseException], None] | None:
    """Return the handler installed by :func:`set_error_handler`, or ``None`` (errors are then
    logged)."""
    return _error_handler


def on_error(error: BaseException) -> None:
    """Report an error that cannot go to a consumer. Never drops it; raises only a fatal
    exception.

    A fatal exception (a ``BaseException`` that is not an ``Exception``) given here is
    re-raised as it is, neither wrapped nor handed to the handler: the library never
    catches one (DESIGN, RxJava's ``throwIfFatal`` at each catch site), so one arriving
    here was caught by mistake, and reporting it would swallow a Ctrl-C or a
    ``sys.exit()``. Likewise a handler that raises a fatal exception (e.g. ``sys.exit``
    to stop on an undeliverable error) is not logged: it propagates to the caller.
    """
    if error is None:
        error = TypeError("on_error called with None")
    elif not isinstance(error, Exception):
        raise error
    elif not isinstance(error, _BUG_TYPES):
        error = UndeliverableException(error)
    handler = _error_handler
    if handler is not None:
        try:
            handler(error)
            return
        except Exception as e:  # the handler itself failed: log both
            _logger().error("rxpy2.plugins error handler raised %r while handling %r",
                      e, error, exc_info=e)
    _logger().error("Undeliverable error in rxpy2: %r", error, exc_info=error)


def _set(table: dict[str, Any], key: str, hook: Any) -> None:
    global hooks_active
    with _lock:
        _check()
        if hook is None:
            table.pop(key, None)
        else:
            table[key] = hook
        hooks_active = flags.hooks_active = bool(_assembly or _subscribe)


def set_on_flowable_assembly(hook: Callable[[Any], Any] | None) -> None:
    """Install ``hook(source) -> source``, called with each new Flowable as an operator or
    factory makes it; its return value is used instead (``None`` removes the hook). RxJava's
    ``setOnFlowableAssembly``."""
    _set(_assembly, "flowable", hook)


def set_on_single_assembly(hook: Callable[[Any], Any] | None) -> None:
    """Install ``hook(source) -> source``, called with each new Single as an operator or factory
    makes it; its return value is used instead (``None`` removes the hook). RxJava's
    ``setOnSingleAssembly``."""
    _set(_assembly, "single", hook)


def set_on_maybe_assembly(hook: Callable[[Any], Any] | None) -> None:
    """Install ``hook(source) -> source``, called with each new Maybe as an operator or factory
    makes it; its return value is used instead (``None`` removes the hook). RxJava's
    ``setOnMaybeAssembly``."""
    _set(_assembly, "maybe", hook)


def set_on_completable_assembly(hook: Callable[[Any], Any] | None) -> None:
    """Install ``hook(source) -> source``, called with each new Completable as an operator or
    factory makes it; its return value is used instead (``None`` removes the hook). RxJava's
    ``setOnCompletableAssembly``."""
    _set(_assembly, "completable", hook)


def set_on_parallel_assembly(hook: Callable[[Any], Any] | None) -> None:
    """Install ``hook(source) -> source``, called with each new ParallelFlowable as it is made;
    its return value is used instead (``None`` removes the hook). RxJava's
    ``setOnParallelAssembly``."""
    _set(_assembly, "parallel", hook)


def set_on_flowable_subscribe(hook: Callable[[Any, Any], Any] | None) -> None:
    """Install ``hook(source, subscriber) -> subscriber``, called as a Flowable is subscribed to;
    the subscriber it returns is the one subscribed (``None`` removes the hook). RxJava's
    ``setOnFlowableSubscribe``.

    A hook returning ``None`` makes the subscription fail with ``TypeError``, signalled to the
    subscriber. Stages fused into one chain are one subscription.
    """
    _set(_subscribe, "flowable", hook)


def set_on_single_subscribe(hook: Callable[[Any, Any], Any] | None) -> None:
    """Install ``hook(source, subscriber) -> subscriber``, called as a Single is subscribed to; the
    subscriber it returns is the one subscribed (``None`` removes the hook). RxJava's
    ``setOnSingleSubscribe``.

    A hook returning ``None`` makes the subscription fail with ``TypeError``, signalled to the
    subscriber.
    """
    _set(_subscribe, "single", hook)


def set_on_maybe_subscribe(hook: Callable[[Any, Any], Any] | None) -> None:
    """Install ``hook(source, subscriber) -> subscriber``, called as a Maybe is subscribed to; the
    subscriber it returns is the one subscribed (``None`` removes the hook). RxJava's
    ``setOnMaybeSubscribe``.

    A hook returning ``None`` makes the subscription fail with ``TypeError``, signalled to the
    subscriber.
    """
    _set(_subscribe, "maybe", hook)


def set_on_completable_subscribe(hook: Callable[[Any, Any], Any] | None) -> None:
    """Install ``hook(source, subscriber) -> subscriber``, called as a Completable is subscribed to;
    the subscriber it returns is the one subscribed (``None`` removes the hook). RxJava's
    ``setOnCompletableSubscribe``.

    A hook returning ``None`` makes the subscription fail with ``TypeError``, signalled to the
    subscriber.
    """
    _set(_subscribe, "completable", hook)


def on_assembly(kind: str, source: X) -> X:
    """Apply the assembly hook of ``kind`` ("flowable", "single", ...) to a new source."""
    hook = _assembly.get(kind)
    if hook is None:
        return source
    hooked: X = hook(source)  # a hook is trusted to return the same kind of source
    return hooked


def on_subscribe(kind: str, source: Any, subscriber: X) -> X:
    """Apply the subscribe hook of ``kind`` to a ``(source, subscriber)`` pair."""
    hook = _subscribe.get(kind)
    if hook is None:
        return subscriber
    result: X = hook(source, subscriber)
    if result is None:
        raise TypeError("the subscribe hook returned None")
    return result


def set_schedule_handler(
        handler: Callable[[Callable[[], object]], Callable[[], object]] | None) -> None:
    """Wrap every callable given to a scheduler or worker: ``handler(task) -> task``."""
    global _schedule_handler
    with _lock:
        _check()
        _schedule_handler = handler


def on_schedule(task: Callable[[], object]) -> Callable[[], object]:
    """Apply the schedule handler to a task about to be scheduled."""
    handler = _schedule_handler
    if handler is None:
        return task
    result = handler(task)
    if result is None:
        raise TypeError("the schedule handler returned None")
    return result


def set_context_propagation(enabled: bool) -> None:
    """Turn context propagation across scheduler hops on (the default) or off.

    On, every task given to a scheduler or worker runs in a copy of the
    ``contextvars`` context that was current when it was scheduled (as asyncio
    does for its callbacks). Off, a task runs in whatever context its thread has
    (a pool thread's empty one); tasks scheduled before the change keep theirs.
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool, not {type(enabled).__name__}")
    with _lock:
        _check()
        flags.propagate_context = enabled


def is_context_propagation_enabled() -> bool:
    """Whether scheduled tasks run in the context they were scheduled in."""
    return flags.propagate_context


def _set_scheduler_handler(kind: str, handler: Callable[[Any], Any] | None) -> None:
    with _lock:
        _check()
        if handler is None:
            _scheduler_handlers.pop(kind, None)
        else:
            _scheduler_handlers[kind] = handler


def set_computation_scheduler_handler(handler: Callable[[Any], Any] | None) -> None:
    """``handler(scheduler) -> scheduler`` applied by ``Schedulers.computation()``."""
    _set_scheduler_handler("computation", handler)


def set_io_scheduler_handler(handler: Callable[[Any], Any] | None) -> None:
    """``handler(scheduler) -> scheduler`` applied by ``Schedulers.io()``."""
    _set_scheduler_handler("io", handler)


def set_single_scheduler_handler(handler: Callable[[Any], Any] | None) -> None:
    """``handler(scheduler) -> scheduler`` applied by ``Schedulers.single()``."""
    _set_scheduler_handler("single", handler)


def set_new_thread_scheduler_handler(handler: Callable[[Any], Any] | None) -> None:
    """``handler(scheduler) -> scheduler`` applied by ``Schedulers.new_thread()``."""
    _set_scheduler_handler("new_thread", handler)


def on_scheduler(kind: str, scheduler: X) -> X:
    """Apply the scheduler handler of ``kind`` ("computation", "io", ...) to a scheduler."""
    handler = _scheduler_handlers.get(kind)
    if handler is None:
        return scheduler
    result: X = handler(scheduler)
    if result is None:
        raise TypeError(f"the {kind} scheduler handler returned None")
    return result


def reset() -> None:
    """Remove every hook and the error handler and restore the default context
    propagation (not allowed after :func:`lockdown`)."""
    global _error_handler, _schedule_handler, hooks_active
    with _lock:
        _check()
        _error_handler = None
        _schedule_handler = None
        _assembly.clear()
        _subscribe.clear()
        _scheduler_handlers.clear()
        hooks_active = flags.hooks_active = False
        flags.propagate_context = _PROPAGATE_CONTEXT_DEFAULT


def lockdown() -> None:
    """Forbid any further change to the plugins for the rest of the process."""
    global _locked_down
    with _lock:
        _locked_down = True


def is_locked_down() -> bool:
    """Return True once :func:`lockdown` was called: every setter then raises ``RuntimeError``."""
    return _locked_down


def _unlock_for_tests() -> None:
    """Undo :func:`lockdown`; for rxpy2's own test-suite only."""
    global _locked_down
    with _lock:
        _locked_down = False
