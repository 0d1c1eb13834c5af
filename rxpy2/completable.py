"""Completable: the completable reactive type (RxJava 2's ``Completable``).

A Completable signals exactly one of ``on_complete()`` or ``on_error(error)``.

The scaffold it shares with Single and Maybe is
:class:`~rxpy2._internal.zero_one.ZeroOneBase` (``_ops`` names the operators it builds
for a Completable); the rest are thin methods over ``rxpy2/_internal/operators/completable/``.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar
from typing import final
from typing import overload

from rxpy2 import plugins
from rxpy2._internal.arguments import ABSENT
from rxpy2._internal.arguments import assembly
from rxpy2._internal.arguments import int_after_sources
from rxpy2._internal.arguments import require
from rxpy2._internal.arguments import require_callable
from rxpy2._internal.arguments import require_duration
from rxpy2._internal.observers.blocking import BlockingMultiObserver
from rxpy2._internal.observers.callback import CallbackCompletableObserver
from rxpy2._internal.operators.completable import completable_amb
from rxpy2._internal.operators.completable import completable_and_then
from rxpy2._internal.operators.completable import completable_cache
from rxpy2._internal.operators.completable import completable_checkpoint
from rxpy2._internal.operators.completable import completable_concat
from rxpy2._internal.operators.completable import completable_create
from rxpy2._internal.operators.completable import completable_defer
from rxpy2._internal.operators.completable import completable_delay
from rxpy2._internal.operators.completable import completable_do_event
from rxpy2._internal.operators.completable import completable_do_finally
from rxpy2._internal.operators.completable import completable_empty
from rxpy2._internal.operators.completable import completable_error
from rxpy2._internal.operators.completable import completable_from_action
from rxpy2._internal.operators.completable import completable_from_future
from rxpy2._internal.operators.completable import completable_from_publisher
from rxpy2._internal.operators.completable import completable_hide
from rxpy2._internal.operators.completable import completable_ignore_element
from rxpy2._internal.operators.completable import completable_lift
from rxpy2._internal.operators.completable import completable_log
from rxpy2._internal.operators.completable import completable_merge
from rxpy2._internal.operators.completable import completable_never
from rxpy2._internal.operators.completable import completable_on_error
from rxpy2._internal.operators.completable import completable_peek
from rxpy2._internal.operators.completable import completable_retry
from rxpy2._internal.operators.completable import completable_schedule
from rxpy2._internal.operators.completable import completable_take_until
from rxpy2._internal.operators.completable import completable_timeout
from rxpy2._internal.operators.completable import completable_timer
from rxpy2._internal.operators.completable import completable_to_flowable
from rxpy2._internal.operators.completable import completable_to_maybe
from rxpy2._internal.operators.completable import completable_to_single
from rxpy2._internal.operators.completable import completable_using
from rxpy2._internal.operators.flowable import time_args
from rxpy2._internal.operators.maybe import maybe_to_publisher
from rxpy2._internal.operators.single import single_create
from rxpy2._internal.operators.single import single_future
from rxpy2._internal.operators.single import single_materialize
from rxpy2._internal.operators.single import single_retry
from rxpy2._internal.zero_one import Operators
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2._internal.zero_one import error_supplier
from rxpy2._internal.zero_one import require_each
from rxpy2._internal.zero_one import require_instance
from rxpy2._internal.zero_one import sources_of
from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import CompletableObserver
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

if TYPE_CHECKING:
    import concurrent.futures

    from rxpy2.emitter import CompletableEmitter
    from rxpy2.flowable import Flowable
    from rxpy2.notification import Notification
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["Completable"]

T = TypeVar("T")


def _assembly(c: Completable) -> Completable:
    if plugins.hooks_active:
        return plugins.on_assembly("completable", c)
    return c


def _require_completable(c: Any, name: str) -> None:
    require_instance(c, Completable, name)


class Completable(ZeroOneBase):
    """A deferred computation that signals completion or an error, and no item."""

    __slots__ = ()

    _TYPE = "completable"
    _ops = Operators(
        subscribe_on=lambda: completable_schedule.CompletableSubscribeOn,
        observe_on=lambda: completable_schedule.CompletableObserveOn,
        unsubscribe_on=lambda: completable_schedule.CompletableUnsubscribeOn,
        hide=lambda: completable_hide.CompletableHide,
        detach=lambda: completable_hide.CompletableDetach,
        cache=lambda: completable_cache.CompletableCache,
        lift=lambda: completable_lift.CompletableLift,
        do_finally=lambda: completable_do_finally.CompletableDoFinally,
        do_on_event=lambda: completable_do_event.CompletableDoOnEvent,
        do_after=lambda: completable_do_event.CompletableDoAfter,
        resume_next=lambda: completable_on_error.CompletableResumeNext,
        retry_bi_predicate=lambda: completable_retry.CompletableRetryBiPredicate,
        retry_when=lambda: completable_retry.CompletableRetryWhen,
        take_until=lambda: completable_take_until.CompletableTakeUntil,
        timeout=lambda: completable_timeout.CompletableTimeout,
        delay_with_publisher=lambda: completable_delay.CompletableDelayWithPublisher,
        amb=lambda: completable_amb.CompletableAmb,
        log=lambda: completable_log.CompletableLog,
        checkpoint=lambda: completable_checkpoint.CompletableCheckpoint,
        from_flowable=lambda f: f.ignore_elements(),
    )

    if TYPE_CHECKING:  # the shared methods of ZeroOneBase, with this type's types
        def lift(self, operator: Callable[[CompletableObserver], CompletableObserver]
                 ) -> Completable: ...

        def compose(self, transformer: Callable[[Completable], Completable]) -> Completable: ...

        def __await__(self) -> Generator[Any, None, None]: ...

    # ------------------------------------------------------------------ subscribing

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        """Implemented by every source and operator."""
        raise NotImplementedError

    @overload
    def subscribe(self, observer: CompletableObserver, /) -> None: ...

    @overload
    def subscribe(self, on_complete: Callable[[], Any] = ...,
                  on_error: Callable[[BaseException], Any] | None = None) -> Disposable: ...

    @final
    def subscribe(self, on_complete: Any = ABSENT, on_error: Any = None) -> Disposable | None:
        """Subscribe a :class:`CompletableObserver`, or callbacks (returning a :class:`Disposable`).

        * ``subscribe(observer)``: ``TypeError`` on ``None``; returns ``None``.
        * ``subscribe(on_complete=..., on_error=...)``: without ``on_error`` an error
          goes to :func:`rxpy2.plugins.on_error` as ``OnErrorNotImplementedException``;
          a callback that raises goes there too. Passing ``on_complete=None``
          explicitly is a ``TypeError``.
        """
        return self._subscribe_callbacks(
            CompletableObserver, CallbackCompletableObserver,
            on_complete=on_complete, on_error=on_error)

    def blocking_await(self, timeout: float | None = None) -> None:
        """Block the calling thread until this completes, or raise its error.

        ``timeout`` (seconds): ``TimeoutError`` when it elapses, after disposing.
        """
        self._blocking_get(timeout)

    def to_flowable(self) -> Flowable[Any]:
        """A Flowable that emits no item, only this Completable's terminal signal."""
        return assembly("flowable", completable_to_flowable.CompletableToFlowable(self))

    def to_single(self, supplier: Callable[[], T]) -> Single[T]:
        """A Single of ``supplier()``, called on completion (``None`` → ``TypeError``)."""
        require_callable(supplier, "supplier")
        return assembly("single", completable_to_single.CompletableToSingle(self, supplier))

    def to_single_default(self, item: T) -> Single[T]:
        """A Single of ``item`` on completion."""
        require(item, "item")
        return self.to_single(lambda: item)

    def to_maybe(self) -> Maybe[Any]:
        """A Maybe that completes empty (or fails) with this Completable."""
        return assembly("maybe", completable_to_maybe.CompletableToMaybe(self))

    # ------------------------------------------------------------------ sources

    @staticmethod
    def complete() -> Completable:
        """Completes at once."""
        return _assembly(completable_empty.CompletableEmpty.INSTANCE)

    @staticmethod
    def error(error: BaseException | Callable[[], BaseException]) -> Completable:
        """Signals ``error`` at once; a callable is called per subscriber for a fresh error."""
        return _assembly(completable_error.CompletableError(error_supplier(error)))

    @staticmethod
    def never() -> Completable:
        """Signals nothing but ``on_subscribe``."""
        return _assembly(completable_never.CompletableNever.INSTANCE)

    @staticmethod
    def from_action(action: Callable[[], Any]) -> Completable:
        """Runs ``action()`` per subscriber, then completes (or signals what it raised)."""
        require_callable(action, "action")
        return _assembly(completable_from_action.CompletableFromAction(action))

    @staticmethod
    def from_callable(supplier: Callable[[], Any]) -> Completable:
        """Calls ``supplier()`` per subscriber, ignores its result and completes."""
        require_callable(supplier, "supplier")
        return _assembly(completable_from_action.CompletableFromAction(supplier))

    @staticmethod
    def defer(supplier: Callable[[], Completable]) -> Completable:
        """Calls ``supplier`` per subscriber for the Completable to subscribe to."""
        require_callable(supplier, "supplier")
        return _assembly(completable_defer.CompletableDefer(supplier))

    @staticmethod
    def amb(sources: Iterable[Completable]) -> Completable:
        """The first of ``sources`` to terminate wins; the rest are disposed.

        The iterable is iterated per subscriber; empty → ``IndexError``.
        """
        require(sources, "sources")
        return _assembly(completable_amb.CompletableAmb(sources))

    @staticmethod
    def amb_array(*sources: Completable) -> Completable:
        """:meth:`amb` over the given sources."""
        require_each(sources, Completable)
        if len(sources) == 1:
            return sources[0]
        return _assembly(completable_amb.CompletableAmb(sources))

    @overload
    @staticmethod
    def concat(sources: Iterable[Completable] | Publisher[Completable],
               prefetch: int = 2) -> Completable: ...

    @overload
    @staticmethod
    def concat(s1: Completable, s2: Completable, /, *sources: Completable) -> Completable: ...

    @staticmethod
    @sources_of(lambda: Completable, lambda s: Completable.concat_array(*s))
    def concat(sources: Any, prefetch: int = 2) -> Completable:
        """Each source in turn; an iterable is iterated lazily, per subscriber.

        A Publisher of Completables (RxJava 2's ``concat(Publisher, prefetch)``) is asked
        for ``prefetch`` of them ahead (then for 75% of that as they run), never iterated
        in a blocking way. ``concat(a, b, ...)``, Completables one by one, is
        :meth:`concat_array` (RxJava 2 has only ``concatArray`` for that).
        """
        require(sources, "sources")
        int_after_sources(prefetch, "prefetch", "concat", "concat_array", "Completable")
        if isinstance(sources, Publisher):
            from rxpy2.flowable import Flowable
            return Flowable.from_publisher(sources).concat_map(
                maybe_to_publisher.COMPLETABLE_TO_FLOWABLE, prefetch).ignore_elements()
        maybe_to_publisher.require_sources(sources)
        return _assembly(completable_concat.CompletableConcat(sources))

    @staticmethod
    def concat_array(*sources: Completable) -> Completable:
        """The given sources in turn, subscribing to the next when one completes."""
        return Completable._array(sources, completable_concat.CompletableConcat)

    @staticmethod
    def _array(sources: tuple[Completable, ...],
               operator: Callable[[tuple[Completable, ...]], Completable]) -> Completable:
        """``operator(sources)``, checked; no source completes, one is itself."""
        require_each(sources, Completable)
        if not sources:
            return Completable.complete()
        if len(sources) == 1:
            return sources[0]
        return _assembly(operator(tuple(sources)))

    @overload
    @staticmethod
    def merge(sources: Iterable[Completable] | Publisher[Completable],
              max_concurrency: int | None = None) -> Completable: ...

    @overload
    @staticmethod
    def merge(s1: Completable, s2: Completable, /, *sources: Completable) -> Completable: ...

    @staticmethod
    @sources_of(lambda: Completable, lambda s: Completable.merge_array(*s))
    def merge(sources: Any, max_concurrency: int | None = None) -> Completable:
        """All sources at once; completes when all did; the first error wins.

        A Publisher of Completables (RxJava 2's ``merge(Publisher, maxConcurrency)``) runs
        at most ``max_concurrency`` of them at once (no limit by default), never iterated
        in a blocking way; ``max_concurrency`` goes only with a Publisher.
        ``merge(a, b, ...)``, Completables one by one, is :meth:`merge_array`.
        """
        int_after_sources(max_concurrency, "max_concurrency", "merge", "merge_array",
                          "Completable")
        return Completable._merge(sources, max_concurrency, False)

    @staticmethod
    def _merge(sources: Any, max_concurrency: int | None, delay_errors: bool) -> Completable:
        require(sources, "sources")
        if isinstance(sources, Publisher):
            from rxpy2.flowable import Flowable
            from rxpy2.reactivestreams import LONG_MAX
            return Flowable.from_publisher(sources).flat_map_completable(
                maybe_to_publisher.same_source, delay_errors,
                LONG_MAX if max_concurrency is None else max_concurrency)
        if max_concurrency is not None:
            raise TypeError("max_concurrency goes only with a Publisher of Completables")
        maybe_to_publisher.require_sources(sources)
        return _assembly(completable_merge.CompletableMerge(sources, delay_errors))

    @staticmethod
    def merge_array(*sources: Completable) -> Completable:
        """:meth:`merge` over the given sources."""
        return Completable._array(sources, completable_merge.CompletableMerge)

    # ------------------------------------------------------------------ combining

    @overload
    def and_then(self, other: Completable) -> Completable: ...

    @overload
    def and_then(self, other: Single[T]) -> Single[T]: ...

    @overload
    def and_then(self, other: Maybe[T]) -> Maybe[T]: ...

    @overload
    def and_then(self, other: Publisher[T]) -> Flowable[T]: ...

    def and_then(self, other: Any) -> Any:
        """After this completes, continue with ``other``: a Completable (→ Completable),
        Single (→ Single), Maybe (→ Maybe) or any Publisher (→ Flowable).

        An error of this Completable skips ``other``.
        """
        require(other, "other")
        if isinstance(other, Completable):
            return self.concat_with(other)
        if isinstance(other, Single):
            return assembly("single", completable_and_then.CompletableAndThenSingle(self, other))
        if isinstance(other, Maybe):
            return assembly("maybe", completable_and_then.CompletableAndThenMaybe(self, other))
        if isinstance(other, Publisher):
            return assembly("flowable", completable_and_then.CompletableAndThenPublisher(self, other))
        raise TypeError(f"and_then() needs a Completable, Single, Maybe or Publisher, "
                        f"not {type(other).__name__}")

    def concat_with(self, other: Completable) -> Completable:
        """This, then ``other``. A chain of ``concat_with`` calls flattens into one concat."""
        _require_completable(other, "other")
        if isinstance(self, completable_concat.CompletableConcat) and isinstance(self.sources, tuple):
            return _assembly(completable_concat.CompletableConcat(self.sources + (other,)))
        return _assembly(completable_concat.CompletableConcat((self, other)))

    def merge_with(self, other: Completable) -> Completable:
        """This and ``other`` at once. A chain of ``merge_with`` calls flattens into one merge."""
        _require_completable(other, "other")
        if isinstance(self, completable_merge.CompletableMerge) and isinstance(self.sources, tuple):
            return _assembly(completable_merge.CompletableMerge(self.sources + (other,)))
        return _assembly(completable_merge.CompletableMerge((self, other)))

    # ------------------------------------------------------------------ errors

    def on_error_complete(self,
                          predicate: Callable[[BaseException], bool] | None = None) -> Completable:
        """On error (for which ``predicate`` holds, if given), complete instead."""
        if predicate is not None:
            require_callable(predicate, "predicate")
        return _assembly(completable_on_error.CompletableOnErrorComplete(self, predicate))

    # ------------------------------------------------------------------ side effects

    def _peek(self, on_subscribe: Any = None, on_error: Any = None, on_complete: Any = None,
              on_dispose: Any = None) -> Completable:
        return _assembly(completable_peek.CompletablePeek(self, on_subscribe, on_error, on_complete, on_dispose))

    def do_on_complete(self, fn: Callable[[], Any]) -> Completable:
        """Call ``fn()`` before completion goes downstream (raising → ``on_error``)."""
        require_callable(fn, "on_complete")
        return self._peek(on_complete=fn)

    # ------------------------------------------------------------------ scheduling and time

    @staticmethod
    def timer(delay: float, scheduler: Scheduler | None = None) -> Completable:
        """Completes after ``delay`` seconds, on ``scheduler`` (computation by default).

        A negative or non-numeric ``delay`` is refused at assembly.
        """
        d = require_duration(delay, "delay")
        return _assembly(completable_timer.CompletableTimer(d, time_args.scheduler_or_computation(scheduler)))

    def delay(self, time: float, scheduler: Scheduler | None = None,
              delay_error: bool = False) -> Completable:
        """Complete ``time`` seconds later, on ``scheduler`` (computation by default).

        The error goes on at once (still through the scheduler) unless ``delay_error``.
        """
        d = require_duration(time, "time")
        return _assembly(completable_delay.CompletableDelay(
            self, d, time_args.scheduler_or_computation(scheduler), bool(delay_error)))

    def _delay_subscription_timed(self, time: float, scheduler: Scheduler | None) -> Completable:
        """``delay_subscription`` by seconds: RxJava 2's ``timer(time, scheduler).and_then(this)``."""
        return Completable.timer(time, scheduler).concat_with(self)

    # ------------------------------------------------------------------ retry / repeat

    def repeat(self, times: int | None = None) -> Completable:
        """Subscribe ``times`` times in a row (forever by default; ``repeat(0)`` completes
        at once without subscribing), then complete. An error ends it."""
        return self.to_flowable().repeat(single_retry.check_times(times)).ignore_elements()

    def repeat_until(self, stop: Callable[[], bool]) -> Completable:
        """After each completion, subscribe again unless ``stop()`` returns True (then
        complete); ``stop`` raising ends it with that error."""
        require_callable(stop, "stop")
        return self.to_flowable().repeat_until(stop).ignore_elements()

    def repeat_when(self, handler: Callable[[Flowable[Any]], Publisher[Any]]) -> Completable:
        """Resubscribe when the Publisher ``handler(rounds)`` signals an item.

        Per subscriber, ``handler`` gets a Flowable with an item after each completion
        and returns a Publisher: its items resubscribe, its completion completes the
        Completable, its error is signalled. Stack-safe like :meth:`repeat`.
        """
        require_callable(handler, "handler")
        return assembly("flowable", completable_retry.CompletableRepeatWhen(self, handler)).ignore_elements()

    # ------------------------------------------------------------------ creating, composing, lifecycle

    @staticmethod
    def create(source: Callable[[CompletableEmitter], Any]) -> Completable:
        """Calls ``source(emitter)`` per subscriber; it signals through the
        :class:`~rxpy2.emitter.CompletableEmitter` (``on_complete``/``on_error``, once).

        A second signal is dropped (an error goes to :func:`rxpy2.plugins.on_error`);
        ``source`` raising signals its error. The emitter's resource
        (``set_disposable``/``set_cancellable``) is released on dispose or termination.
        """
        require_callable(source, "source")
        return _assembly(completable_create.CompletableCreate(source))

    @staticmethod
    def unsafe_create(source: Callable[[CompletableObserver], Any]) -> Completable:
        """Calls ``source(observer)`` per subscriber with the observer itself (see
        :meth:`rxpy2.Single.unsafe_create`). A Completable is refused: see :meth:`wrap`."""
        return _assembly(completable_create.CompletableUnsafeCreate(single_create.unsafe_source(source, Completable)))

    @staticmethod
    def wrap(source: Any) -> Completable:
        """``source`` itself if it is a Completable; else a Completable that subscribes
        through ``source.subscribe(observer)`` (see :meth:`rxpy2.Single.wrap`)."""
        if isinstance(source, Completable):
            return _assembly(source)
        return _assembly(completable_create.CompletableUnsafeCreate(
            single_create.wrapped_subscribe(source, Completable)))

    def do_on_event(self, fn: Callable[[BaseException | None], Any]) -> Completable:
        """Call ``fn(None)`` (completion) or ``fn(error)`` before the signal goes downstream.

        Raising turns the completion into that error, or joins the error
        (``CompositeException(error, raised)``).
        """
        require_callable(fn, "on_event")
        return _assembly(completable_do_event.CompletableDoOnEvent(self, lambda _v, e: fn(e)))

    # ------------------------------------------------------------------ converting and element operators

    @staticmethod
    def from_future(future: concurrent.futures.Future[Any], timeout: float | None = None,
                    scheduler: Scheduler | None = None) -> Completable:
        """Completes when ``future`` succeeds (its result is ignored), without blocking a
        thread (RxJava 2 blocks in ``Future.get``); fails as :meth:`rxpy2.Single.from_future`."""
        t = single_future.check_future(future, timeout, scheduler)
        return _assembly(completable_from_future.CompletableFromFuture(future, t, scheduler))

    @staticmethod
    def from_maybe(source: Maybe[Any]) -> Completable:
        """Completes when ``source`` succeeds or completes; fails with its error."""
        require_instance(source, Maybe, "source")
        return _assembly(completable_ignore_element.CompletableIgnoreElement(source))

    @staticmethod
    def from_single(source: Single[Any]) -> Completable:
        """Completes when ``source`` succeeds; fails with its error."""
        require_instance(source, Single, "source")
        return _assembly(completable_ignore_element.CompletableIgnoreElement(source))

    @staticmethod
    def from_publisher(publisher: Publisher[Any]) -> Completable:
        """The terminal signal of ``publisher``: everything is requested, items are ignored.
        Disposing cancels it."""
        require_instance(publisher, Publisher, "publisher")
        return _assembly(completable_from_publisher.CompletableFromPublisher(publisher))

    def materialize(self) -> Single[Notification[Any]]:
        """A Single of the completion or the error as a :class:`~rxpy2.notification.Notification`."""
        return assembly("single", single_materialize.SingleMaterialize(self))

    def blocking_get(self, timeout: float | None = None) -> BaseException | None:
        """Block the calling thread until this terminates: its error, or ``None`` on completion.

        ``timeout`` (seconds): ``TimeoutError`` is raised when it elapses, after disposing.
        """
        if timeout is not None:
            timeout = require_duration(timeout, "timeout")
        o: BlockingMultiObserver[Any] = BlockingMultiObserver()
        try:
            o.blocking_get(self._subscribe, timeout)
        except BaseException as e:
            if e is o.error:
                return e
            raise
        return None

    # ------------------------------------------------------------------ caching, resources, take_until, fallbacks

    @staticmethod
    def using(resource_supplier: Callable[[], T], source_supplier: Callable[[T], Completable],
              disposer: Callable[[T], Any], eager: bool = True) -> Completable:
        """Per subscriber: acquire ``resource_supplier()``, run the Completable
        ``source_supplier(resource)``, and call ``disposer(resource)`` once (see
        :meth:`rxpy2.Single.using`)."""
        require_callable(resource_supplier, "resource_supplier")
        require_callable(source_supplier, "source_supplier")
        require_callable(disposer, "disposer")
        return _assembly(completable_using.CompletableUsing(resource_supplier, source_supplier, disposer,
                                                bool(eager)))

    # ------------------------------------------------------------------ concat / merge / amb

    @staticmethod
    def merge_array_delay_error(*sources: Completable) -> Completable:
        """All the given sources at once; completes when all ended; the errors wait until
        then (several together as a ``CompositeException``)."""
        require_each(sources, Completable)
        return _assembly(completable_merge.CompletableMerge(tuple(sources), True))

    @overload
    @staticmethod
    def merge_delay_error(sources: Iterable[Completable] | Publisher[Completable],
                          max_concurrency: int | None = None) -> Completable: ...

    @overload
    @staticmethod
    def merge_delay_error(s1: Completable, s2: Completable, /,
                          *sources: Completable) -> Completable: ...

    @staticmethod
    @sources_of(lambda: Completable, lambda s: Completable.merge_array_delay_error(*s))
    def merge_delay_error(sources: Any, max_concurrency: int | None = None) -> Completable:
        """As :meth:`merge_array_delay_error` over ``sources``.

        An iterable (iterated per subscriber) runs all its sources at once; a failing
        iterable or a source that is no Completable ends the subscribing and is
        signalled with the other errors. A Publisher of Completables runs at most
        ``max_concurrency`` of them at once (no limit by default; RxJava 2's
        ``mergeDelayError(Publisher, int)``); ``max_concurrency`` goes only with a Publisher.
        ``merge_delay_error(a, b, ...)``, Completables one by one, is
        :meth:`merge_array_delay_error`.
        """
        int_after_sources(max_concurrency, "max_concurrency", "merge_delay_error",
                          "merge_array_delay_error", "Completable")
        return Completable._merge(sources, max_concurrency, True)

    @overload
    def start_with(self, other: Completable) -> Completable: ...

    @overload
    def start_with(self, other: Publisher[T]) -> Flowable[T]: ...

    def start_with(self, other: Any) -> Any:
        """Run ``other`` first, then this Completable.

        ``other`` a Completable → a Completable (a chain of ``start_with`` and
        ``concat_with`` calls flattens into one concat); a Publisher → a Flowable of
        its items, then this Completable's completion or error.
        """
        require(other, "other")
        if isinstance(other, Completable):
            if isinstance(self, completable_concat.CompletableConcat) and isinstance(self.sources, tuple):
                return _assembly(completable_concat.CompletableConcat((other,) + self.sources))
            return _assembly(completable_concat.CompletableConcat((other, self)))
        if isinstance(other, Publisher):
            from rxpy2.flowable import Flowable
            return Flowable.concat_array(other, self.to_flowable())
        raise TypeError(f"start_with() needs a Completable or a Publisher, "
                        f"not {type(other).__name__}")
