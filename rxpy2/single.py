"""Single: the single reactive type (RxJava 2's ``Single``).

A Single signals exactly one of ``on_success(item)`` or ``on_error(error)``.

The scaffold it shares with Maybe and Completable is
:class:`~rxpy2._internal.zero_one.ZeroOneBase` (``_ops`` names the operators it builds
for a Single); the rest are thin methods over ``rxpy2/_internal/operators/single/``.
"""

from __future__ import annotations

from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any
from typing import final
from typing import overload

from rxpy2 import plugins
from rxpy2._internal.arguments import ABSENT
from rxpy2._internal.arguments import assembly
from rxpy2._internal.arguments import checked_cast
from rxpy2._internal.arguments import int_after_sources
from rxpy2._internal.arguments import require
from rxpy2._internal.arguments import require_callable
from rxpy2._internal.arguments import require_duration
from rxpy2._internal.arguments import require_type
from rxpy2._internal.observers.callback import ConsumerSingleObserver
from rxpy2._internal.operators.flowable import time_args
from rxpy2._internal.operators.maybe import maybe_filter
from rxpy2._internal.operators.maybe import maybe_from_single
from rxpy2._internal.operators.maybe import maybe_to_publisher
from rxpy2._internal.operators.single import single_amb
from rxpy2._internal.operators.single import single_asyncio
from rxpy2._internal.operators.single import single_cache
from rxpy2._internal.operators.single import single_checkpoint
from rxpy2._internal.operators.single import single_contains
from rxpy2._internal.operators.single import single_create
from rxpy2._internal.operators.single import single_defer
from rxpy2._internal.operators.single import single_delay
from rxpy2._internal.operators.single import single_do_event
from rxpy2._internal.operators.single import single_do_finally
from rxpy2._internal.operators.single import single_error
from rxpy2._internal.operators.single import single_flat_map
from rxpy2._internal.operators.single import single_flat_map_publisher
from rxpy2._internal.operators.single import single_from_callable
from rxpy2._internal.operators.single import single_from_publisher
from rxpy2._internal.operators.single import single_future
from rxpy2._internal.operators.single import single_hide
from rxpy2._internal.operators.single import single_just
from rxpy2._internal.operators.single import single_lift
from rxpy2._internal.operators.single import single_log
from rxpy2._internal.operators.single import single_map
from rxpy2._internal.operators.single import single_materialize
from rxpy2._internal.operators.single import single_never
from rxpy2._internal.operators.single import single_on_error
from rxpy2._internal.operators.single import single_peek
from rxpy2._internal.operators.single import single_repeat_when
from rxpy2._internal.operators.single import single_retry
from rxpy2._internal.operators.single import single_retry_when
from rxpy2._internal.operators.single import single_schedule
from rxpy2._internal.operators.single import single_take_until
from rxpy2._internal.operators.single import single_timeout
from rxpy2._internal.operators.single import single_timer
from rxpy2._internal.operators.single import single_to_flowable
from rxpy2._internal.operators.single import single_using
from rxpy2._internal.operators.single import single_zip
from rxpy2._internal.type_vars import T1
from rxpy2._internal.type_vars import T2
from rxpy2._internal.type_vars import T3
from rxpy2._internal.type_vars import T4
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import R
from rxpy2._internal.type_vars import T
from rxpy2._internal.type_vars import U
from rxpy2._internal.zero_one import ItemOperators
from rxpy2._internal.zero_one import Operators
from rxpy2._internal.zero_one import ZeroOneItemBase
from rxpy2._internal.zero_one import error_supplier
from rxpy2._internal.zero_one import require_each
from rxpy2._internal.zero_one import require_instance
from rxpy2._internal.zero_one import sources_of
from rxpy2._internal.zero_one import zip_form
from rxpy2.disposables import Disposable
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import Publisher

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

    from rxpy2.emitter import SingleEmitter
    from rxpy2.flowable import Flowable
    from rxpy2.maybe import Maybe
    from rxpy2.notification import Notification
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["Single"]



def _assembly(s: Single[T]) -> Single[T]:
    if plugins.hooks_active:
        return plugins.on_assembly("single", s)
    return s


def _spread_concat(sources: tuple[Any, ...]) -> Flowable[Any]:
    # RxJava 2's concat(s1, s2, ...) form: the Singles as one tuple. A named function
    # with a declared return type, not a lambda calling Single.concat inside the
    # decorator of Single.concat: pyright infers such a lambda's type from the very
    # overloads the decorator is part of, and that recursion overflows its stack.
    return Single.concat(sources)


def _spread_merge(sources: tuple[Any, ...]) -> Flowable[Any]:
    return Single.merge(sources)


def _spread_merge_delay_error(sources: tuple[Any, ...]) -> Flowable[Any]:
    return Single.merge_delay_error(sources)


def _require_single(s: Any, name: str) -> None:
    require_instance(s, Single, name)


class Single(ZeroOneItemBase[T]):
    """A deferred computation that signals one item or one error."""

    __slots__ = ()

    _TYPE = "single"
    _ops = Operators(
        subscribe_on=lambda: single_schedule.SingleSubscribeOn,
        observe_on=lambda: single_schedule.SingleObserveOn,
        unsubscribe_on=lambda: single_schedule.SingleUnsubscribeOn,
        hide=lambda: single_hide.SingleHide,
        detach=lambda: single_hide.SingleDetach,
        cache=lambda: single_cache.SingleCache,
        lift=lambda: single_lift.SingleLift,
        do_finally=lambda: single_do_finally.SingleDoFinally,
        do_on_event=lambda: single_do_event.SingleDoOnEvent,
        do_after=lambda: single_do_event.SingleDoAfter,
        resume_next=lambda: single_on_error.SingleResumeNext,
        retry_bi_predicate=lambda: single_retry.SingleRetryBiPredicate,
        retry_when=lambda: single_retry_when.SingleRetryWhen,
        take_until=lambda: single_take_until.SingleTakeUntil,
        timeout=lambda: single_timeout.SingleTimeout,
        delay_with_publisher=lambda: single_delay.SingleDelayWithPublisher,
        amb=lambda: single_amb.SingleAmb,
        log=lambda: single_log.SingleLog,
        checkpoint=lambda: single_checkpoint.SingleCheckpoint,
        from_flowable=lambda f: f.single_or_error(),
    )

    _item_ops = ItemOperators(
        on_error_return=lambda: single_on_error.SingleOnErrorReturn,
        repeat_when=lambda: single_repeat_when.SingleRepeatWhen,
        flat_map_publisher=lambda: single_flat_map_publisher.SingleFlatMapPublisher,
    )

    if TYPE_CHECKING:  # the shared methods of ZeroOneBase, with this type's types
        def lift(self, operator: Callable[[SingleObserver[R]], SingleObserver[T]]
                 ) -> Single[R]: ...

        def compose(self, transformer: Callable[[Single[T]], Single[R]]) -> Single[R]: ...

        def __await__(self) -> Generator[Any, None, T]: ...

    # ------------------------------------------------------------------ subscribing

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        """Implemented by every source and operator."""
        raise NotImplementedError

    @overload
    def subscribe(self, observer: SingleObserver[T], /) -> None: ...

    @overload
    def subscribe(self, on_success: Callable[[T], Any] = ...,
                  on_error: Callable[[BaseException], Any] | None = None) -> Disposable: ...

    @overload
    def subscribe(self, *, on_callback: Callable[[T | None, BaseException | None], Any]
                  ) -> Disposable: ...

    @final
    def subscribe(self, on_success: Any = ABSENT, on_error: Any = None, *,
                  on_callback: Any = None) -> Disposable | None:
        """Subscribe a :class:`SingleObserver`, or callbacks (returning a :class:`Disposable`).

        * ``subscribe(observer)``: ``TypeError`` on ``None``; returns ``None``.
        * ``subscribe(on_success=..., on_error=...)``: without ``on_error`` an error
          goes to :func:`rxpy2.plugins.on_error` as ``OnErrorNotImplementedException``;
          a callback that raises goes there too. Passing ``on_success=None``
          explicitly is a ``TypeError``; leave it out to ignore the item.
        * ``subscribe(on_callback=fn)`` (alone): ``fn(item, None)`` on success,
          ``fn(None, error)`` on error (RxJava's ``subscribe(BiConsumer)``); if it
          raises, the error goes to :func:`rxpy2.plugins.on_error`.
        """
        if on_callback is not None:
            require_callable(on_callback, "on_callback")
            if on_success is not ABSENT or on_error is not None:
                raise TypeError("subscribe(on_callback=...) takes no other callbacks")
            cb = on_callback
            return self._subscribe_callbacks(
                SingleObserver, ConsumerSingleObserver,
                on_success=lambda item: cb(item, None), on_error=lambda error: cb(None, error))
        return self._subscribe_callbacks(SingleObserver, ConsumerSingleObserver,
                                         on_success=on_success, on_error=on_error)

    def blocking_get(self, timeout: float | None = None) -> T:
        """Block the calling thread until the item arrives and return it, or raise the error.

        ``timeout`` (seconds): ``TimeoutError`` when it elapses, after disposing.
        """
        item: T = self._blocking_get(timeout)
        return item

    def to_flowable(self) -> Flowable[T]:
        """A Flowable that emits the item when it is requested (or the error at once)."""
        return assembly("flowable", single_to_flowable.SingleToFlowable(self))

    # ------------------------------------------------------------------ sources

    @staticmethod
    def just(item: ItemT) -> Single[ItemT]:
        """Signals ``item`` at once (``None`` is refused)."""
        require(item, "item")
        return _assembly(single_just.SingleJust(item))

    @staticmethod
    def create(source: Callable[[SingleEmitter[ItemT]], Any]) -> Single[ItemT]:
        """Calls ``source(emitter)`` per subscriber; it signals through the
        :class:`~rxpy2.emitter.SingleEmitter` (``on_success``/``on_error``, once).

        A second signal is dropped (an error goes to :func:`rxpy2.plugins.on_error`);
        ``source`` raising signals its error. The emitter's resource
        (``set_disposable``/``set_cancellable``) is released on dispose or termination.
        """
        require_callable(source, "source")
        return _assembly(single_create.SingleCreate(source))

    @staticmethod
    def error(error: BaseException | Callable[[], BaseException]) -> Single[ItemT]:
        """Signals ``error`` at once; a callable is called per subscriber for a fresh error."""
        return _assembly(single_error.SingleError(error_supplier(error)))

    @staticmethod
    def never() -> Single[ItemT]:
        """Signals nothing but ``on_subscribe``."""
        return _assembly(single_never.SingleNever.INSTANCE)

    @staticmethod
    def from_callable(supplier: Callable[[], ItemT]) -> Single[ItemT]:
        """Calls ``supplier`` per subscriber and signals its result (``None`` → ``TypeError``)."""
        require_callable(supplier, "supplier")
        return _assembly(single_from_callable.SingleFromCallable(supplier))

    @staticmethod
    def defer(supplier: Callable[[], Single[ItemT]]) -> Single[ItemT]:
        """Calls ``supplier`` per subscriber for the Single to subscribe to."""
        require_callable(supplier, "supplier")
        return _assembly(single_defer.SingleDefer(supplier))

    @overload
    @staticmethod
    def zip(first: Single[T1], second: Single[T2],
            zipper: Callable[[T1, T2], R]) -> Single[R]: ...

    @overload
    @staticmethod
    def zip(s1: Single[T1], s2: Single[T2], s3: Single[T3],
            zipper: Callable[[T1, T2, T3], R], /) -> Single[R]: ...

    @overload
    @staticmethod
    def zip(s1: Single[T1], s2: Single[T2], s3: Single[T3], s4: Single[T4],
            zipper: Callable[[T1, T2, T3, T4], R], /) -> Single[R]: ...

    # 5 or more sources (RxJava 2 has up to 9), the zipper last
    @overload
    @staticmethod
    def zip(s1: Single[Any], s2: Single[Any], s3: Single[Any], s4: Single[Any],
            s5: Single[Any], /, *sources_and_zipper: Single[Any] | Callable[..., R]) -> Single[R]: ...

    @staticmethod
    def zip(first: Any, second: Any, *more: Any, zipper: Any = None) -> Single[Any]:
        """``zipper(a, b)`` of both items; the first error wins and disposes the other. RxJava 2's
        ``zip(source1, ..., source9, zipper)``: any number of sources, the zipper last
        (or ``zipper=``); see :meth:`zip_array`."""
        sources, fn = zip_form((first, second, *more), zipper)
        return Single.zip_array(fn, *sources)

    @staticmethod
    def zip_array(zipper: Callable[..., R], *sources: Single[Any]) -> Single[R]:
        """``zipper(*items)`` of all the sources' items (one argument per source).

        The first error wins and disposes the rest (later errors go to
        :func:`rxpy2.plugins.on_error`); no sources → ``IndexError``.
        """
        require_callable(zipper, "zipper")
        require_each(sources, Single)
        if not sources:
            return Single.error(lambda: IndexError("zip_array() of no sources"))
        return _assembly(single_zip.SingleZipArray(sources, zipper))

    @staticmethod
    def zip_iterable(sources: Iterable[Single[Any]], zipper: Callable[..., R]) -> Single[R]:
        """:meth:`zip_array` of the Singles of ``sources``, iterated at each subscription
        (RxJava's ``zip(Iterable, zipper)``): no sources → ``on_error(IndexError)``; a
        source that is not a Single → ``on_error(TypeError)``."""
        require(sources, "sources")
        require_callable(zipper, "zipper")
        return Single.defer(lambda: Single.zip_array(zipper, *sources))

    @staticmethod
    def amb(sources: Iterable[Single[ItemT]]) -> Single[ItemT]:
        """The first of ``sources`` to signal wins (its item or error); the rest are disposed.

        The iterable is iterated per subscriber; empty → ``IndexError``.
        """
        require(sources, "sources")
        return _assembly(single_amb.SingleAmb(sources))

    @staticmethod
    def amb_array(*sources: Single[ItemT]) -> Single[ItemT]:
        """:meth:`amb` over the given sources."""
        require_each(sources, Single)
        if len(sources) == 1:
            return sources[0]
        return _assembly(single_amb.SingleAmb(sources))

    # ------------------------------------------------------------------ transforms

    def map(self, mapper: Callable[[T], R]) -> Single[R]:
        """Apply ``mapper`` to the item (a ``None`` result is a ``TypeError``)."""
        require_callable(mapper, "mapper")
        return _assembly(single_map.SingleMap(self, mapper))

    def filter(self, predicate: Callable[[T], bool]) -> Maybe[T]:
        """A Maybe: the item if ``predicate`` holds, else empty."""
        require_callable(predicate, "predicate")
        return assembly("maybe", maybe_filter.MaybeFilterSingle(self, predicate))

    def flat_map(self, mapper: Callable[[T], Single[R]]) -> Single[R]:
        """Continue with the Single ``mapper(item)`` returns."""
        require_callable(mapper, "mapper")
        return _assembly(single_flat_map.SingleFlatMap(self, mapper))

    def flat_map_maybe(self, mapper: Callable[[T], Maybe[R]]) -> Maybe[R]:
        """Continue with the Maybe ``mapper(item)`` returns."""
        require_callable(mapper, "mapper")
        return assembly("maybe", single_flat_map.SingleFlatMapMaybe(self, mapper))

    def zip_with(self, other: Single[U], zipper: Callable[[T, U], R]) -> Single[R]:
        """``zipper(this_item, other_item)``; see :meth:`zip`."""
        _require_single(other, "other")
        return Single.zip(self, other, zipper)

    # ------------------------------------------------------------------ time

    @staticmethod
    def timer(delay: float, scheduler: Scheduler | None = None) -> Single[int]:
        """Signals ``0`` after ``delay`` seconds, on ``scheduler`` (computation by default).

        A negative or non-numeric ``delay`` is refused at assembly.
        """
        d = require_duration(delay, "delay")
        return _assembly(single_timer.SingleTimer(d, time_args.scheduler_or_computation(scheduler)))

    def delay(self, time: float, scheduler: Scheduler | None = None,
              delay_error: bool = False) -> Single[T]:
        """Signal the item ``time`` seconds later, on ``scheduler`` (computation by default).

        The error goes on at once (still through the scheduler) unless ``delay_error``.
        """
        d = require_duration(time, "time")
        return _assembly(single_delay.SingleDelay(self, d, time_args.scheduler_or_computation(scheduler),
                                           bool(delay_error)))

    # ------------------------------------------------------------------ side effects

    def _peek(self, on_subscribe: Any = None, on_success: Any = None, on_error: Any = None,
              on_dispose: Any = None) -> Single[T]:
        return _assembly(single_peek.SinglePeek(self, on_subscribe, on_success, on_error, on_dispose))

    # ------------------------------------------------------------------ creating, composing, lifecycle

    @staticmethod
    def unsafe_create(source: Callable[[SingleObserver[ItemT]], Any]) -> Single[ItemT]:
        """Calls ``source(observer)`` per subscriber with the observer itself: no emitter,
        no protection, so ``source`` must call ``on_subscribe`` first and signal once
        (RxJava 2's ``unsafeCreate``). A Single is refused: see :meth:`wrap`."""
        return _assembly(single_create.SingleUnsafeCreate(single_create.unsafe_source(source, Single)))

    @staticmethod
    def wrap(source: Any) -> Single[Any]:
        """``source`` itself if it is a Single; else a Single that subscribes through
        ``source.subscribe(observer)`` (any object with that method; unchecked, as
        :meth:`unsafe_create`)."""
        if isinstance(source, Single):
            return _assembly(source)
        return _assembly(single_create.SingleUnsafeCreate(single_create.wrapped_subscribe(source, Single)))

    def cast(self, cls: type[U]) -> Single[U]:
        """The item, checked to be an instance of ``cls`` (a class or a tuple of classes):
        if not, ``TypeError`` (RxJava's ``ClassCastException``). Typed as ``Single[cls]``."""
        require_type(cls)
        return self.map(checked_cast(cls))

    # ------------------------------------------------------------------ converting and element operators

    @staticmethod
    def from_future(future: concurrent.futures.Future[ItemT], timeout: float | None = None,
                    scheduler: Scheduler | None = None) -> Single[ItemT]:
        """The result of ``future`` when it completes, without blocking a thread (as
        :meth:`rxpy2.Flowable.from_future`; RxJava 2 blocks in ``Future.get``).

        A ``None`` result is a ``TypeError``, a failed future its exception, a cancelled
        one ``CancelledError``. With ``timeout`` (seconds), ``TimeoutError`` if the future
        is not done by then (timed on ``scheduler``, computation by default). Disposing
        does not cancel the future.
        """
        t = single_future.check_future(future, timeout, scheduler)
        return _assembly(single_future.SingleFromFuture(future, t, scheduler))

    @staticmethod
    def from_awaitable(awaitable: Awaitable[ItemT],
                       loop: asyncio.AbstractEventLoop | None = None) -> Single[ItemT]:
        """The result of ``awaitable`` (a coroutine, an ``asyncio.Future`` or ``Task``, or
        any awaitable), run on an asyncio event loop.

        The loop is ``loop`` when given (subscribing from any thread then hands the start
        over to it with ``call_soon_threadsafe``), else the loop running where
        ``subscribe`` is called (an ``asyncio.Future`` without either: its own loop;
        nothing at all: ``RuntimeError`` signalled). The signal comes on the loop's thread.
        A ``None`` result is a ``TypeError``, an exception is the error, a cancelled
        future ``asyncio.CancelledError``.

        A coroutine (or any awaitable that is not a future) runs in a task the
        subscription owns: disposing cancels it. A future may be shared: disposing only
        stops listening. A coroutine object runs once; for a fresh run per subscriber,
        ``Single.defer(lambda: Single.from_awaitable(make()))``.
        """
        import asyncio  # loaded on first use: import rxpy2 stays cheap
        import inspect

        require(awaitable, "awaitable")
        if not inspect.isawaitable(awaitable):
            raise TypeError(f"awaitable must be awaitable, not {type(awaitable).__name__}")
        if loop is not None and not isinstance(loop, asyncio.AbstractEventLoop):
            raise TypeError(f"loop must be an asyncio event loop, not {type(loop).__name__}")
        return _assembly(single_asyncio.SingleFromAwaitable(awaitable, loop))

    @staticmethod
    def from_publisher(publisher: Publisher[ItemT]) -> Single[ItemT]:
        """The only item of ``publisher`` (asked for everything at once), on its completion.

        Empty: ``IndexError``; a second item cancels it and signals ``IndexError``.
        Disposing cancels it.
        """
        require_instance(publisher, Publisher, "publisher")
        return _assembly(single_from_publisher.SingleFromPublisher(publisher))

    def to_future(self) -> concurrent.futures.Future[T]:
        """Subscribe now; a ``concurrent.futures.Future`` of the item (or failed with the error).

        Cancelling the future disposes the upstream (a later error then goes to
        :func:`rxpy2.plugins.on_error`), and so does a ``KeyboardInterrupt`` (any fatal
        exception) while ``result()``/``exception()`` waits.
        """
        return single_future.single_to_future(self)

    def to_maybe(self) -> Maybe[T]:
        """A Maybe of this Single's item or error."""
        return assembly("maybe", maybe_from_single.MaybeFromSingle(self))

    def dematerialize(self, selector: Callable[[T], Notification[R]]) -> Maybe[R]:
        """A Maybe of the signal the Notification ``selector(item)`` holds: its item, an
        empty completion or its error (RxJava 2's ``dematerialize(Function)``)."""
        require_callable(selector, "selector")
        return assembly("maybe", single_materialize.SingleDematerialize(self, selector))

    def contains(self, item: Any, comparer: Callable[[T, Any], bool] | None = None
                 ) -> Single[bool]:
        """A Single: whether the item equals ``item`` (``==``, or ``comparer(item_of_this,
        item)``; raising → ``on_error``)."""
        require(item, "item")
        if comparer is None:
            import operator
            comparer = operator.eq
        else:
            require_callable(comparer, "comparer")
        return _assembly(single_contains.SingleContains(self, item, comparer))

    # ------------------------------------------------------------------ caching, resources, take_until, fallbacks

    @staticmethod
    def using(resource_supplier: Callable[[], U], source_supplier: Callable[[U], Single[ItemT]],
              disposer: Callable[[U], Any], eager: bool = True) -> Single[ItemT]:
        """Per subscriber: acquire ``resource_supplier()``, run the Single
        ``source_supplier(resource)``, and call ``disposer(resource)`` once: before the
        item or error goes downstream when ``eager``, after it otherwise, or on dispose.

        A supplier that raises is signalled (the resource, if acquired, is released);
        a ``disposer`` error becomes the error when ``eager`` (joined with an upstream
        error in a ``CompositeException``), else goes to :func:`rxpy2.plugins.on_error`.
        """
        require_callable(resource_supplier, "resource_supplier")
        require_callable(source_supplier, "source_supplier")
        require_callable(disposer, "disposer")
        return _assembly(single_using.SingleUsing(resource_supplier, source_supplier, disposer,
                                           bool(eager)))

    # ------------------------------------------------------------------ concat / merge / amb
    # (as RxJava 2 builds them: Flowable operators over a Flowable of the sources, each
    # source turned into a Flowable by the mapper of maybe_to_publisher.py)

    @overload
    @staticmethod
    def concat(sources: Iterable[Single[ItemT]] | Publisher[Single[ItemT]],
               prefetch: int = 2) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def concat(s1: Single[ItemT], s2: Single[ItemT], /, *sources: Single[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Single, _spread_concat)
    def concat(sources: Any, prefetch: int = 2) -> Flowable[Any]:
        """A Flowable of the sources' items, one source after another.

        ``sources``: an iterable (iterated per subscriber) or a Publisher of Singles,
        ``prefetch`` of them asked for ahead (RxJava 2's ``concat``:
        ``concat_map`` over them, errors at once). A ``None`` or non-Single source
        is a ``TypeError`` downstream. ``concat(a, b, ...)``, Singles one by one
        (checked at assembly), is ``concat([a, b, ...])``, as RxJava 2's
        ``concat(source1, source2)``.
        """
        int_after_sources(prefetch, "prefetch", "concat", "concat_array", "Single")
        return maybe_to_publisher.flowable_of_sources(sources).concat_map(maybe_to_publisher.SINGLE_TO_FLOWABLE, prefetch)

    @staticmethod
    def concat_array(*sources: Single[ItemT]) -> Flowable[ItemT]:
        """:meth:`concat` of the given Singles (RxJava 2: ``concat_map`` in BOUNDARY mode)."""
        from rxpy2.flowable import Flowable
        require_each(sources, Single)
        return Flowable.from_array(sources).concat_map_delay_error(
            maybe_to_publisher.SINGLE_TO_FLOWABLE, 2, till_the_end=False)

    @staticmethod
    def concat_array_eager(*sources: Single[ItemT]) -> Flowable[ItemT]:
        """Subscribe to all the given Singles at once; emit their items in order."""
        from rxpy2.flowable import Flowable
        require_each(sources, Single)
        return Flowable.from_array(sources).concat_map_eager(maybe_to_publisher.SINGLE_TO_FLOWABLE)

    @staticmethod
    def concat_eager(sources: Iterable[Single[ItemT]] | Publisher[Single[ItemT]]) -> Flowable[ItemT]:
        """Subscribe to the sources (an iterable or a Publisher of Singles) as they come,
        up to 128 at once (RxJava 2's ``concat_map_eager``); emit their items in order."""
        return maybe_to_publisher.flowable_of_sources(sources).concat_map_eager(maybe_to_publisher.SINGLE_TO_FLOWABLE)

    def concat_with(self, other: Single[T]) -> Flowable[T]:
        """A Flowable of this Single's item, then ``other``'s."""
        _require_single(other, "other")
        return Single.concat((self, other))

    @overload
    @staticmethod
    def merge(sources: Single[Single[ItemT]]) -> Single[ItemT]: ...

    @overload
    @staticmethod
    def merge(sources: Iterable[Single[ItemT]] | Publisher[Single[ItemT]]) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def merge(s1: Single[ItemT], s2: Single[ItemT], /, *sources: Single[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Single, _spread_merge, alone=True)
    def merge(sources: Any) -> Any:
        """The sources' items as they come (RxJava 2's ``flat_map`` over them, no
        concurrency limit); the first error ends the Flowable and disposes the rest.

        ``sources``: an iterable or a Publisher of Singles (→ Flowable), or a Single
        of a Single (→ Single: the inner Single's signal, RxJava 2's
        ``merge(SingleSource<SingleSource>)``). ``merge(a, b, ...)``, Singles one by
        one (checked at assembly), is ``merge([a, b, ...])``, as RxJava 2's
        ``merge(source1, source2)``.
        """
        if isinstance(sources, Single):
            return _assembly(single_flat_map.SingleFlatMap(sources, maybe_to_publisher.same_source))
        from rxpy2.reactivestreams import LONG_MAX
        return maybe_to_publisher.flowable_of_sources(sources).flat_map(
            maybe_to_publisher.SINGLE_TO_FLOWABLE, LONG_MAX, False)

    @overload
    @staticmethod
    def merge_delay_error(sources: Iterable[Single[ItemT]] | Publisher[Single[ItemT]]) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def merge_delay_error(s1: Single[ItemT], s2: Single[ItemT], /, *sources: Single[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Single, _spread_merge_delay_error, alone=True)
    def merge_delay_error(sources: Any) -> Flowable[Any]:
        """As :meth:`merge`, but the errors wait until every source ended (several
        together as a ``CompositeException``). ``merge_delay_error(a, b, ...)`` is
        ``merge_delay_error([a, b, ...])``."""
        from rxpy2.reactivestreams import LONG_MAX
        return maybe_to_publisher.flowable_of_sources(sources).flat_map(
            maybe_to_publisher.SINGLE_TO_FLOWABLE, LONG_MAX, True)

    def merge_with(self, other: Single[T]) -> Flowable[T]:
        """A Flowable of this Single's and ``other``'s items as they come."""
        _require_single(other, "other")
        return Single.merge((self, other))
