"""The asyncio bridges of the 0-1 types: ``await source`` and ``Single.from_awaitable``.

``await single`` / ``await maybe`` / ``await completable`` (:func:`await_source`, the
``__await__`` of ``ZeroOneBase``): subscribes an :class:`AwaitObserver` when the
coroutine first runs the ``await`` (not before), on the event loop running it. The
terminal signal completes an ``asyncio.Future`` of that loop: directly when it comes on
the loop's thread (a synchronous source: no extra loop turn), else through
``loop.call_soon_threadsafe``. The item is the result (``None`` for a Maybe that completes
empty and for a Completable); an error is raised. Cancelling the awaiting task cancels
that future, and the observer disposes the upstream.

``Single.from_awaitable(awaitable, loop)`` (:class:`SingleFromAwaitable`): per
subscription, the awaitable runs on ``loop``, or on the loop running at subscription
when ``loop`` is None (an ``asyncio.Future`` without either: its own loop). A coroutine
(or any other awaitable) becomes a task the subscription owns: disposing cancels it. A
future (an ``asyncio.Future`` or ``Task``) may be shared, so disposing only stops
listening to it. The signal comes on the loop's thread; a result ``None`` is a
``TypeError`` (``None`` is never an item).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable
from collections.abc import Generator
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.single import Single

__all__ = ["AwaitObserver", "AwaitableDisposable", "SingleFromAwaitable", "await_source"]

T = TypeVar("T")


def await_source(source: ZeroOneBase) -> Generator[Any, None, Any]:
    """The body of ``__await__``: subscribe now, wait for the signal on the running loop."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    observer: AwaitObserver[Any] = AwaitObserver(loop, future)
    try:
        source._subscribe(observer)
        return (yield from future.__await__())
    except BaseException:  # cancelled (the future with the task), closed, or the error
        observer.dispose()
        raise


def _set_result(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


def _set_exception(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


class AwaitObserver(Disposable, Generic[T]):
    """The observer of ``await source``: an observer of all three types whose terminal
    signal completes ``future`` on ``loop`` (from any thread)."""

    __slots__ = ("loop", "future", "thread", "upstream", "once")

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]) -> None:
        self.loop = loop
        self.future = future
        self.thread = threading.get_ident()  # the loop's: await_source runs on it
        self.upstream: AtomicReference[Disposable] = AtomicReference()
        self.once = AtomicBoolean(False)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.upstream, d)

    def _deliver(self, fn: Any, arg: Any) -> None:
        if not self.once.compare_and_set(False, True):
            return
        self.upstream.lazy_set(DisposableHelper.DISPOSED)  # nothing to dispose any more
        if threading.get_ident() == self.thread:
            fn(self.future, arg)
            return
        try:
            self.loop.call_soon_threadsafe(fn, self.future, arg)
        except RuntimeError:  # the loop is closed: nobody awaits any more
            pass

    def on_success(self, item: T) -> None:
        self._deliver(_set_result, item)

    def on_complete(self) -> None:
        self._deliver(_set_result, None)

    def on_error(self, error: BaseException) -> None:
        self._deliver(_set_exception, error)

    def dispose(self) -> None:
        self.once.set(True)
        DisposableHelper.dispose(self.upstream)

    def is_disposed(self) -> bool:
        return DisposableHelper.is_disposed(self.upstream.get())


class SingleFromAwaitable(Single[T], Generic[T]):
    """Runs ``awaitable`` on ``loop`` (the running loop at subscription if None) per
    subscription; signals its result."""

    __slots__ = ("awaitable", "loop")

    def __init__(self, awaitable: Awaitable[T], loop: asyncio.AbstractEventLoop | None) -> None:
        self.awaitable = awaitable
        self.loop = loop

    def subscribe_actual(self, observer: Any) -> None:
        from rxpy2._internal.observers.empty import EmptyDisposable
        aw = self.awaitable
        loop = self.loop
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                if asyncio.isfuture(aw):
                    loop = aw.get_loop()
                else:
                    _close_unused(aw)
                    EmptyDisposable.error(RuntimeError(
                        "Single.from_awaitable: no running event loop at subscription and "
                        "no loop given"), observer)
                    return
        parent = AwaitableDisposable(observer, aw, loop)
        observer.on_subscribe(parent)
        parent.start()


def _close_unused(aw: Any) -> None:
    """Close a coroutine that will never run (no 'never awaited' warning)."""
    close = getattr(aw, "close", None)
    if asyncio.iscoroutine(aw) and callable(close):
        close()


async def _await(aw: Awaitable[T]) -> T:
    return await aw


class AwaitableDisposable(Disposable, Generic[T]):
    """One run of ``from_awaitable``: starts on the loop's thread, signals once."""

    __slots__ = ("downstream", "awaitable", "loop", "task", "owned", "disposed")

    def __init__(self, downstream: Any, awaitable: Awaitable[T],
                 loop: asyncio.AbstractEventLoop) -> None:
        self.downstream = downstream
        self.awaitable = awaitable
        self.loop = loop
        self.task: asyncio.Future[T] | None = None  # set on the loop's thread
        self.owned = False  # task is ours (cancelled on dispose), not the user's future
        self.disposed = AtomicBoolean(False)

    def _on_loop(self) -> bool:
        try:
            return asyncio.get_running_loop() is self.loop
        except RuntimeError:
            return False

    def start(self) -> None:
        if self._on_loop():
            self._start()
            return
        try:
            self.loop.call_soon_threadsafe(self._start)
        except RuntimeError as e:  # the loop is closed
            _close_unused(self.awaitable)
            self._signal(e)

    def _start(self) -> None:  # the loop's thread
        aw = self.awaitable
        self.awaitable = None  # type: ignore[assignment]  # run once: not kept after
        if self.disposed.get():
            _close_unused(aw)
            return
        try:
            if asyncio.isfuture(aw):
                task: asyncio.Future[T] = aw
            else:
                task = self.loop.create_task(_await(aw))
                self.owned = True
        except Exception as e:
            self._signal(e)
            return
        self.task = task
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[T]) -> None:
        if task.cancelled():
            self._signal(asyncio.CancelledError("the awaitable was cancelled"))
            return
        e = task.exception()
        if e is not None:
            self._signal(e)
            return
        v = task.result()
        if v is None:
            self._signal(TypeError("the awaitable returned None"))
            return
        if self.disposed.compare_and_set(False, True):
            self.downstream.on_success(v)

    def _signal(self, e: BaseException) -> None:
        if self.disposed.compare_and_set(False, True):
            self.downstream.on_error(e)

    def _stop(self) -> None:  # the loop's thread
        task = self.task
        if task is None:
            return  # not started: _start sees the dispose
        self.task = None
        task.remove_done_callback(self._done)
        if self.owned:
            task.cancel()

    def dispose(self) -> None:
        if not self.disposed.compare_and_set(False, True):
            return
        if self._on_loop():
            self._stop()
            return
        try:
            self.loop.call_soon_threadsafe(self._stop)
        except RuntimeError:  # the loop is closed: nothing runs any more
            pass

    def is_disposed(self) -> bool:
        return self.disposed.get()
