"""Collecting errors from several sources (``AtomicThrowable``) with a TERMINATED mark, and
:func:`call_reporting`: a side callback whose error nobody downstream can take."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import Subscriber

__all__ = ["TERMINATED", "AtomicThrowable", "ExceptionHelper", "append_error", "call_on_error",
           "call_reporting", "signal_end"]


def call_reporting(fn: Callable[..., Any] | None, *args: Any) -> None:
    """Call ``fn(*args)`` (nothing when ``fn`` is None); an exception it raises goes to
    :func:`rxpy2.plugins.on_error`: a callback run after the terminal signal, on cancel or
    on a release has nobody downstream left to tell (§1.7, §3.15)."""
    if fn is not None:
        try:
            fn(*args)
        except Exception as e:
            plugins.on_error(e)


def call_on_error(fn: Callable[[BaseException], Any], error: BaseException) -> None:
    """Hand ``error`` to an error handler at the end of a stream (a user's ``on_error``, a
    wrapped Subscriber's): if the handler raises, both go to :func:`rxpy2.plugins.on_error`
    as one :class:`CompositeException` (nobody is left to tell, §2.13)."""
    try:
        fn(error)
    except Exception as e:
        plugins.on_error(CompositeException(error, e))


def append_error(errors: list[BaseException] | None,
                 error: BaseException) -> list[BaseException]:
    """``errors`` (None: none yet) with ``error`` added: the delayed errors of sources that
    run one at a time (``concat`` with ``delay_error``), whose signals are serial, so a
    plain list collects them."""
    if errors is None:
        return [error]
    errors.append(error)
    return errors


def signal_end(downstream: Any, errors: list[BaseException] | None,
               error: BaseException | None) -> None:
    """The end of a stream that delayed ``errors`` (:func:`append_error`): ``error`` after
    them, or they alone (one :class:`CompositeException` for several), or completion."""
    if errors is not None:
        if error is not None:
            errors.append(error)
        downstream.on_error(errors[0] if len(errors) == 1 else CompositeException(errors))
    elif error is not None:
        downstream.on_error(error)
    else:
        downstream.on_complete()


class _Terminated(Exception):
    """The mark left in an error holder after its error was taken for delivery."""

    def __repr__(self) -> str:
        return "TERMINATED"


#: The unique "terminated" error: once set, no more errors are accepted.
TERMINATED: BaseException = _Terminated("No further exceptions")


class ExceptionHelper:
    """Static helpers over an ``AtomicReference`` of an error."""

    __slots__ = ()

    TERMINATED = TERMINATED

    @staticmethod
    def add_throwable(ref: AtomicReference[BaseException], error: BaseException) -> bool:
        """Add ``error``, combining with any earlier one; False once terminated.

        One atomic step under the reference's own lock (no compare-and-set retry loop);
        nothing is signalled while it is held."""
        with ref._lock:
            current = ref._value
            if current is TERMINATED:
                return False
            ref._value = error if current is None else CompositeException(current, error)
            return True

    @staticmethod
    def terminate(ref: AtomicReference[BaseException]) -> BaseException | None:
        """Swap in TERMINATED and return what was there (None, an error, or TERMINATED)."""
        current = ref.get()
        if current is not TERMINATED:
            current = ref.get_and_set(TERMINATED)
        return current


class AtomicThrowable(AtomicReference[BaseException]):
    """An error holder: errors added from several sources, taken once with :meth:`terminate`.

    ``completed`` is set by :class:`HalfSerializer.on_complete` before it tries the
    drain, so an ``on_next`` that owns the drain sees the pending completion.
    """

    __slots__ = ("completed",)

    def __init__(self, value: BaseException | None = None) -> None:
        super().__init__(value)
        self.completed: bool = False

    def try_add_throwable(self, error: BaseException) -> bool:
        """Add ``error`` to those collected (a CompositeException past the first); return False
        once terminated."""
        return ExceptionHelper.add_throwable(self, error)

    def try_add_throwable_or_report(self, error: BaseException) -> bool:
        """Add ``error``; once terminated, report it to ``plugins.on_error`` instead."""
        if ExceptionHelper.add_throwable(self, error):
            return True
        plugins.on_error(error)
        return False

    def terminate(self) -> BaseException | None:
        """Swap in TERMINATED and return what was held: ``None``, the error(s) collected, or
        TERMINATED when already taken."""
        return ExceptionHelper.terminate(self)

    def is_terminated(self) -> bool:
        """Return True once :meth:`terminate` has been called (no more errors are accepted)."""
        return self.get() is TERMINATED

    def try_terminate_consumer(self, subscriber: Subscriber[Any]) -> None:
        """Terminate and signal the result: ``on_error`` with the errors, or ``on_complete``."""
        ex = self.terminate()
        if ex is None:
            subscriber.on_complete()
        elif ex is not TERMINATED:
            subscriber.on_error(ex)

    def try_terminate_and_report(self) -> None:
        """Terminate and send any pending error to ``plugins.on_error`` (after cancellation)."""
        ex = self.terminate()
        if ex is not None and ex is not TERMINATED:
            plugins.on_error(ex)
