"""Maybe: the maybe reactive type (RxJava 2's ``Maybe``).

A Maybe signals exactly one of ``on_success(item)``, ``on_complete()`` (no
item) or ``on_error(error)``.

``subscribe`` is final: it applies the subscribe hook and calls
:meth:`Maybe.subscribe_actual`, which every source and operator implements;
an exception escaping it goes to :func:`rxpy2.plugins.on_error`.
Operators live in ``rxpy2/internal/operators/maybe/``; as in ``flowable.py``
each fluent method validates its arguments and imports its operator lazily.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final, overload

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.internal import describe as _describe
from rxpy2.internal import lazy as _lazy
from rxpy2.internal.zero_one import ZeroOneBase, require_instance
from rxpy2.observers import MaybeObserver
from rxpy2.operators.arguments import ABSENT, assembly, require, require_callable
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2.flowable import Flowable

__all__ = ["Maybe"]

T = TypeVar("T")
R = TypeVar("R")
U = TypeVar("U")


def _assembly(m: Maybe[T]) -> Maybe[T]:
    if plugins.hooks_active:
        return plugins.on_assembly("maybe", m)
    return m


def _require_maybe(m: Any, name: str) -> None:
    require_instance(m, Maybe, name)


class Maybe(ZeroOneBase, Generic[T]):
    """A deferred computation that signals one item, no item, or an error."""

    __slots__ = ()

    def __repr__(self) -> str:
        """The chain, e.g. ``just(1) → map(parse)``."""
        return _describe.chain_repr(self)

    def explain(self) -> str:
        """The chain, one line per stage (see :meth:`rxpy2.Flowable.explain`)."""
        return _describe.explain(self)

    _TYPE = "maybe"

    # ------------------------------------------------------------------ subscribing

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        """Implemented by every source and operator."""
        raise NotImplementedError

    @overload
    def subscribe(self, observer: MaybeObserver[T], /) -> None: ...

    @overload
    def subscribe(self, on_success: Callable[[T], Any] = ...,
                  on_error: Callable[[BaseException], Any] | None = None,
                  on_complete: Callable[[], Any] | None = None) -> Disposable: ...

    @final
    def subscribe(self, on_success: Any = ABSENT, on_error: Any = None,
                  on_complete: Any = None) -> Disposable | None:
        """Subscribe a :class:`MaybeObserver`, or callbacks (returning a :class:`Disposable`).

        * ``subscribe(observer)``: ``TypeError`` on ``None``; returns ``None``.
        * ``subscribe(on_success=..., on_error=..., on_complete=...)``: without
          ``on_error`` an error goes to :func:`rxpy2.plugins.on_error` as
          ``OnErrorNotImplementedException``; a callback that raises goes there too.
          Passing ``on_success=None`` explicitly is a ``TypeError``.
        """
        return self._subscribe_callbacks(MaybeObserver, _lazy.CallbackMaybeObserver,
                                         on_success=on_success, on_error=on_error,
                                         on_complete=on_complete)

    def blocking_get(self, default: T | None = None, timeout: float | None = None) -> T | None:
        """Block the calling thread until this Maybe terminates: the item, ``default``
        (``None`` unless given) if it completes empty, or raise the error.

        ``timeout`` (seconds): ``TimeoutError`` when it elapses, after disposing.
        """
        o: _lazy.BlockingMultiObserver[T] = _lazy.BlockingMultiObserver()
        self._subscribe(o)
        v = o.blocking_get(timeout)
        return default if v is None else v

    def to_flowable(self) -> Flowable[T]:
        """A Flowable of the item (emitted when requested), or empty."""
        return assembly("flowable", _lazy.MaybeToFlowable(self))

    def to_single(self, default: T | None = None) -> Single[T]:
        """A Single of the item; if empty, ``default`` or (without one) ``IndexError``."""
        return assembly("single", _lazy.MaybeToSingle(self, default))

    def is_empty(self) -> Single[bool]:
        """A Single: True if this Maybe completes without an item."""
        return assembly("single", _lazy.MaybeIsEmptySingle(self))

    # ------------------------------------------------------------------ sources

    @staticmethod
    def just(item: T) -> Maybe[T]:
        """Signals ``item`` at once (``None`` is refused)."""
        require(item, "item")
        return _assembly(_lazy.MaybeJust(item))

    @staticmethod
    def empty() -> Maybe[Any]:
        """Completes at once, without an item."""
        return _assembly(_lazy.MaybeEmpty.INSTANCE)

    @staticmethod
    def error(error: BaseException | Callable[[], BaseException]) -> Maybe[Any]:
        """Signals ``error`` at once; a callable is called per subscriber for a fresh error."""
        require(error, "error")
        if isinstance(error, BaseException):
            err = error
            return _assembly(_lazy.MaybeError(lambda: err))
        require_callable(error, "error")
        return _assembly(_lazy.MaybeError(error))

    @staticmethod
    def never() -> Maybe[Any]:
        """Signals nothing but ``on_subscribe``."""
        return _assembly(_lazy.MaybeNever.INSTANCE)

    @staticmethod
    def from_callable(supplier: Callable[[], T | None]) -> Maybe[T]:
        """Calls ``supplier`` per subscriber: its result, or empty for ``None``."""
        require_callable(supplier, "supplier")
        return _assembly(_lazy.MaybeFromCallable(supplier))

    @staticmethod
    def defer(supplier: Callable[[], Maybe[T]]) -> Maybe[T]:
        """Calls ``supplier`` per subscriber for the Maybe to subscribe to."""
        require_callable(supplier, "supplier")
        return _assembly(_lazy.MaybeDefer(supplier))

    @staticmethod
    def zip(first: Maybe[Any], second: Maybe[Any], zipper: Callable[[Any, Any], R]) -> Maybe[R]:
        """``zipper(a, b)`` of both items; empty if either is; the first error wins."""
        return Maybe.zip_array(zipper, first, second)

    @staticmethod
    def zip_array(zipper: Callable[..., R], *sources: Maybe[Any]) -> Maybe[R]:
        """``zipper(*items)`` of all the sources' items (one argument per source).

        Completes empty as soon as one source does; the first error wins; either
        disposes the rest (later errors go to :func:`rxpy2.plugins.on_error`).
        No sources → empty.
        """
        require_callable(zipper, "zipper")
        for i, m in enumerate(sources):
            _require_maybe(m, f"source {i}")
        if not sources:
            return Maybe.empty()
        return _assembly(_lazy.MaybeZipArray(sources, zipper))

    # ------------------------------------------------------------------ transforms

    def map(self, mapper: Callable[[T], R]) -> Maybe[R]:
        """Apply ``mapper`` to the item (a ``None`` result is a ``TypeError``)."""
        require_callable(mapper, "mapper")
        return _assembly(_lazy.MaybeMap(self, mapper))

    def filter(self, predicate: Callable[[T], bool]) -> Maybe[T]:
        """The item if ``predicate`` holds, else empty."""
        require_callable(predicate, "predicate")
        return _assembly(_lazy.MaybeFilter(self, predicate))

    def flat_map(self, mapper: Callable[[T], Maybe[R]]) -> Maybe[R]:
        """Continue with the Maybe ``mapper(item)`` returns (empty stays empty)."""
        require_callable(mapper, "mapper")
        return _assembly(_lazy.MaybeFlatMap(self, mapper))

    def flat_map_single(self, mapper: Callable[[T], Single[R]]) -> Single[R]:
        """A Single: continue with ``mapper(item)``; an empty Maybe is an ``IndexError``."""
        require_callable(mapper, "mapper")
        return assembly("single", _lazy.MaybeFlatMapSingle(self, mapper))

    def flat_map_publisher(self, mapper: Callable[[T], Publisher[R]]) -> Flowable[R]:
        """A Flowable of the items of the Publisher ``mapper(item)`` returns (empty if empty).

        Downstream demand is kept until that Publisher is subscribed, then handed over.
        """
        require_callable(mapper, "mapper")
        return assembly("flowable", _lazy.MaybeFlatMapPublisher(self, mapper))

    def zip_with(self, other: Maybe[U], zipper: Callable[[T, U], R]) -> Maybe[R]:
        """``zipper(this_item, other_item)``; see :meth:`zip`."""
        _require_maybe(other, "other")
        return Maybe.zip(self, other, zipper)

    def default_if_empty(self, item: T) -> Maybe[T]:
        """``item`` if this Maybe completes empty (still a Maybe; see :meth:`to_single`)."""
        require(item, "item")
        return self.switch_if_empty(Maybe.just(item))

    def switch_if_empty(self, other: Any) -> Any:
        """If this completes empty, continue with ``other``: a Maybe (→ Maybe) or a
        Single (→ Single)."""
        require(other, "other")
        if isinstance(other, Single):
            return assembly("single", _lazy.MaybeSwitchIfEmptySingle(self, other))
        _require_maybe(other, "other")
        return _assembly(_lazy.MaybeSwitchIfEmpty(self, other))

    # ------------------------------------------------------------------ errors

    def on_error_return(self, fn: Callable[[BaseException], T]) -> Maybe[T]:
        """On error, signal ``fn(error)`` as the item instead."""
        require_callable(fn, "fn")
        return _assembly(_lazy.MaybeOnErrorReturn(self, fn))

    def on_error_return_item(self, item: T) -> Maybe[T]:
        """On error, signal ``item`` instead."""
        require(item, "item")
        return _assembly(_lazy.MaybeOnErrorReturn(self, lambda _e: item))

    def on_error_resume_next(
            self, fallback: Maybe[T] | Callable[[BaseException], Maybe[T]]) -> Maybe[T]:
        """On error, continue with a Maybe (or the one ``fallback(error)`` returns)."""
        require(fallback, "fallback")
        if isinstance(fallback, Maybe):
            m = fallback
            fn: Callable[[BaseException], Maybe[T]] = lambda _e: m  # noqa: E731
        else:
            require_callable(fallback, "fallback")
            fn = fallback
        return _assembly(_lazy.MaybeResumeNext(self, fn))

    def on_error_complete(self,
                          predicate: Callable[[BaseException], bool] | None = None) -> Maybe[T]:
        """On error (for which ``predicate`` holds, if given), complete empty instead."""
        if predicate is not None:
            require_callable(predicate, "predicate")
        return _assembly(_lazy.MaybeOnErrorComplete(self, predicate))

    # ------------------------------------------------------------------ side effects

    def _peek(self, on_subscribe: Any = None, on_success: Any = None, on_error: Any = None,
              on_complete: Any = None, on_dispose: Any = None) -> Maybe[T]:
        return _assembly(_lazy.MaybePeek(self, on_subscribe, on_success, on_error, on_complete,
                                   on_dispose))

    def do_on_success(self, fn: Callable[[T], Any]) -> Maybe[T]:
        """Call ``fn(item)`` before the item goes downstream (raising → ``on_error``)."""
        require_callable(fn, "on_success")
        return self._peek(on_success=fn)

    def do_on_error(self, fn: Callable[[BaseException], Any]) -> Maybe[T]:
        """Call ``fn(error)`` before the error goes downstream."""
        require_callable(fn, "on_error")
        return self._peek(on_error=fn)

    def do_on_complete(self, fn: Callable[[], Any]) -> Maybe[T]:
        """Call ``fn()`` before an empty completion goes downstream (raising → ``on_error``)."""
        require_callable(fn, "on_complete")
        return self._peek(on_complete=fn)

    def do_on_subscribe(self, fn: Callable[[Disposable], Any]) -> Maybe[T]:
        """Call ``fn(disposable)`` on subscription (raising → dispose and ``on_error``)."""
        require_callable(fn, "on_subscribe")
        return self._peek(on_subscribe=fn)

    def do_on_dispose(self, fn: Callable[[], Any]) -> Maybe[T]:
        """Call ``fn()`` when the downstream disposes before the terminal signal."""
        require_callable(fn, "on_dispose")
        return self._peek(on_dispose=fn)

    def do_finally(self, fn: Callable[[], Any]) -> Maybe[T]:
        """Call ``fn()`` once, after the terminal signal went downstream or on dispose."""
        require_callable(fn, "on_finally")
        return _assembly(_lazy.MaybeDoFinally(self, fn))

    # ------------------------------------------------------------------ scheduling and time

    # ------------------------------------------------------------------ retry / repeat

    def retry(self, times: int | None = None,
              predicate: Callable[[BaseException], bool] | None = None, *,
              bi_predicate: Callable[[int, BaseException], bool] | None = None) -> Maybe[T]:
        """Resubscribe on error: at most ``times`` times (no limit by default), and only
        while ``predicate(error)`` holds; then the error goes downstream.

        ``bi_predicate(attempt, error)`` (RxJava 2's ``retry(BiPredicate)``, alone):
        resubscribe while it holds; ``attempt`` is 1 at the first error. A success or
        an empty completion goes downstream as it is.

        Built as RxJava 2 builds it (``to_flowable().retry(...).single_element()``):
        resubscribing a synchronous source runs in a loop, not in nested calls.
        """
        n = _lazy.check_retry(times, predicate, bi_predicate)
        if bi_predicate is not None:
            return _assembly(_lazy.MaybeRetryBiPredicate(self, bi_predicate))
        return self.to_flowable().retry(n, predicate).single_element()

    def retry_until(self, stop: Callable[[], bool]) -> Maybe[T]:
        """Resubscribe on error until ``stop()`` returns True (then the error goes
        downstream); ``stop`` raising ends it with ``CompositeException(error, raised)``."""
        require_callable(stop, "stop")
        return self.retry(predicate=lambda _e: not stop())

    def retry_when(self, handler: Callable[[Flowable[BaseException]], Publisher[Any]]
                   ) -> Maybe[T]:
        """Resubscribe when the Publisher ``handler(errors)`` signals an item.

        Per subscriber, ``handler`` gets a Flowable of this Maybe's errors and returns
        a Publisher: each item resubscribes, its error is signalled, its completion
        completes the Maybe empty (RxJava 2: ``single_element`` of the empty stream).
        Stack-safe like :meth:`retry`.
        """
        require_callable(handler, "handler")
        return _assembly(_lazy.MaybeRetryWhen(self, handler))

    def repeat(self, times: int | None = None) -> Flowable[T]:
        """A Flowable of this Maybe's items, subscribed ``times`` times in a row (forever
        by default; ``repeat(0)`` is empty); an empty run adds nothing. An error ends it."""
        return self.to_flowable().repeat(_lazy.check_times(times))

    def repeat_until(self, stop: Callable[[], bool]) -> Flowable[T]:
        """A Flowable of this Maybe's items: after each success or empty completion,
        subscribe again unless ``stop()`` returns True (then complete)."""
        require_callable(stop, "stop")
        return self.to_flowable().repeat_until(stop)

    def repeat_when(self, handler: Callable[[Flowable[Any]], Publisher[Any]]) -> Flowable[T]:
        """A Flowable of this Maybe's items, resubscribed when the Publisher
        ``handler(rounds)`` signals an item.

        Per subscriber, ``handler`` gets a Flowable with an item after each repetition
        (once its item, if any, is delivered) and returns a Publisher: its items
        resubscribe, its completion completes the Flowable, its error is signalled.
        Stack-safe like :meth:`repeat`.
        """
        require_callable(handler, "handler")
        return assembly("flowable", _lazy.MaybeRepeatWhen(self, handler))

    # ------------------------------------------------------------------ creating, composing, lifecycle

    # ------------------------------------------------------------------ converting and element operators

    # ------------------------------------------------------------------ caching, resources, take_until, fallbacks

    def cache(self) -> Maybe[T]:
        """Subscribe to this Maybe once, with the first subscriber, and replay its item,
        completion or error to every subscriber (waiting or later). Disposing one
        subscriber does not dispose the upstream."""
        return _assembly(_lazy.MaybeCache(self))

    @staticmethod
    def using(resource_supplier: Callable[[], U], source_supplier: Callable[[U], Maybe[T]],
              disposer: Callable[[U], Any], eager: bool = True) -> Maybe[T]:
        """Per subscriber: acquire ``resource_supplier()``, run the Maybe
        ``source_supplier(resource)``, and call ``disposer(resource)`` once (see
        :meth:`rxpy2.Single.using`)."""
        require_callable(resource_supplier, "resource_supplier")
        require_callable(source_supplier, "source_supplier")
        require_callable(disposer, "disposer")
        return _assembly(_lazy.MaybeUsing(resource_supplier, source_supplier, disposer,
                                          bool(eager)))

    def take_until(self, other: Publisher[Any] | ZeroOneBase) -> Maybe[T]:
        """This Maybe, unless ``other`` comes first: the first item or completion of a
        Publisher, or the success or completion of a Single, Maybe or Completable,
        completes it (empty) and disposes this Maybe; an error of ``other`` is signalled."""
        return _assembly(_lazy.MaybeTakeUntil(self, _lazy.take_until_other(other)))

    def on_exception_resume_next(self, fallback: Maybe[T]) -> Maybe[T]:
        """On an ``Exception``, continue with ``fallback``; any other ``BaseException``
        (``KeyboardInterrupt``, ...) goes downstream (RxJava 2: only ``Exception``, not
        ``Error``, resumes)."""
        _require_maybe(fallback, "fallback")
        return _assembly(_lazy.MaybeOnExceptionResumeNext(self, fallback))

    @staticmethod
    def sequence_equal(first: Maybe[T], second: Maybe[T],
                       is_equal: Callable[[T, T], bool] | None = None) -> Single[bool]:
        """Whether both Maybes end the same way: True if both are empty, False if one
        is, else ``is_equal(a, b)`` (``a == b`` by default). An error of either is
        signalled and disposes the other."""
        _require_maybe(first, "first")
        _require_maybe(second, "second")
        if is_equal is not None:
            require_callable(is_equal, "is_equal")
        return assembly("single", _lazy.MaybeSequenceEqualSingle(first, second, is_equal))

    # ------------------------------------------------------------------ concat / merge / amb
