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
* Assembly tracking: :func:`set_assembly_tracking` (or the environment variable
  ``RXPY2_ASSEMBLY_TRACKING=1`` at import) records where the user's code assembled
  each operator, and an error gets a note naming the stage it came out of and that
  ``file:line`` (docs/getting-started.md, "Where was this chain assembled?").
  Off by default, and then it costs nothing.
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

from rxpy2._internal import assembly as _assembly_sites
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.exceptions import UndeliverableException

__all__ = [
    "get_error_handler",
    "is_assembly_tracking_enabled",
    "is_context_propagation_enabled",
    "is_locked_down",
    "lockdown",
    "on_assembly",
    "on_error",
    "on_schedule",
    "on_scheduler",
    "on_subscribe",
    "reset",
    "set_assembly_tracking",
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
#: True while any assembly or subscribe hook is set, or assembly tracking is on: lets the
#: hot paths skip the lookup.
hooks_active: bool = False
#: Context propagation is on unless ``RXPY2_CONTEXT_PROPAGATION`` says 0/false/no/off.
_PROPAGATE_CONTEXT_DEFAULT = os.environ.get("RXPY2_CONTEXT_PROPAGATION", "1").strip().lower() \
    not in ("0", "false", "no", "off")
#: Assembly tracking is off unless ``RXPY2_ASSEMBLY_TRACKING`` says 1/true/yes/on.
_TRACK_ASSEMBLY_DEFAULT = os.environ.get("RXPY2_ASSEMBLY_TRACKING", "0").strip().lower() \
    in ("1", "true", "yes", "on")


class _Flags:
    """``hooks_active`` again, for the per-item and per-subscribe paths: CPython (3.11 to
    3.13) does not specialise attribute reads on a module that defines ``__getattr__``
    (this one does, for ``log``), so ``plugins.hooks_active`` costs ~20 ns where
    ``flags.hooks_active`` (a slot) costs ~3 ns. Both are written together.

    ``propagate_context`` is read by the schedulers once per scheduled task (see
    :func:`set_context_propagation`). ``track_assembly`` is read only behind
    ``hooks_active`` (which it turns on): at each assembly and each subscription of a
    stage (see :func:`set_assembly_tracking`).
    """

    __slots__ = ("hooks_active", "propagate_context", "track_assembly")

    def __init__(self) -> None:
        self.track_assembly: bool = _TRACK_ASSEMBLY_DEFAULT
        self.hooks_active: bool = self.track_assembly
        self.propagate_context: bool = _PROPAGATE_CONTEXT_DEFAULT


flags: _Flags = _Flags()
hooks_active = flags.hooks_active

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
    with _lock:
        _check()
        if hook is None:
            table.pop(key, None)
        else:
            table[key] = hook
        _update_hooks_active()


def _update_hooks_active() -> None:
    """``hooks_active`` from the hooks and the tracking switch (under ``_lock``)."""
    global hooks_active
    hooks_active = flags.hooks_active = bool(_assembly or _subscribe or flags.track_assembly)


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
    """Apply the assembly hook of ``kind`` ("flowable", "single", ...) to a new source;
    while assembly tracking is on, record where the user's code assembled what results
    (not for "parallel": a parallel stage's errors are noted where its rails join)."""
    hook = _assembly.get(kind)
    if hook is not None:
        source = hook(source)  # a hook is trusted to return the same kind of source
    if flags.track_assembly and kind != "parallel":
        site = _assembly_sites.user_site()
        if site is not None:
            _assembly_sites.record(source, site)
    return source


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


def set_assembly_tracking(enabled: bool) -> None:
    """Turn assembly tracking on or off (off by default; the environment variable
    ``RXPY2_ASSEMBLY_TRACKING=1`` turns it on at import).

    On, each Flowable, Single, Maybe and Completable assembled from then on keeps the
    ``file:line`` of the user's code that built it (the first frame outside rxpy2), and
    each subscription to it passes its signals through a stage that notes an error
    going by: the first such stage an exception passes adds one note
    (``BaseException.add_note``) naming that operator, the chain up to it and where it
    was assembled, so a traceback from another thread still names the user's line. The
    assembly hooks set with :func:`set_on_flowable_assembly` and friends keep running.
    It costs a frame walk per assembly and a stage per subscribed operator (see
    docs/performance.md): for debugging. Off, nothing of it runs; sources assembled
    while it was on keep their site, and are traced again when it is turned back on.
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool, not {type(enabled).__name__}")
    with _lock:
        _check()
        flags.track_assembly = enabled
        _update_hooks_active()


def is_assembly_tracking_enabled() -> bool:
    """Whether operators record their assembly sites (:func:`set_assembly_tracking`)."""
    return flags.track_assembly


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
    propagation and assembly tracking, as the environment set them at import (tracking
    off, unless ``RXPY2_ASSEMBLY_TRACKING`` turned it on; not allowed after
    :func:`lockdown`)."""
    global _error_handler, _schedule_handler
    with _lock:
        _check()
        _error_handler = None
        _schedule_handler = None
        _assembly.clear()
        _subscribe.clear()
        _scheduler_handlers.clear()
        flags.propagate_context = _PROPAGATE_CONTEXT_DEFAULT
        flags.track_assembly = _TRACK_ASSEMBLY_DEFAULT
        _update_hooks_active()


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
