"""Maybe: the maybe reactive type (RxJava 2's ``Maybe``).

A Maybe signals exactly one of ``on_success(item)``, ``on_complete()`` (no
item) or ``on_error(error)``.

The scaffold it shares with Single and Completable is
:class:`~rxpy2._internal.zero_one.ZeroOneBase` (``_ops`` names the operators it builds
for a Maybe); the rest are thin methods over ``rxpy2/_internal/operators/maybe/``.
"""

from __future__ import annotations

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
from rxpy2._internal.observers.callback import CallbackMaybeObserver
from rxpy2._internal.operators.completable import completable_from_action
from rxpy2._internal.operators.completable import completable_to_maybe
from rxpy2._internal.operators.flowable import time_args
from rxpy2._internal.operators.maybe import maybe_amb
from rxpy2._internal.operators.maybe import maybe_cache
from rxpy2._internal.operators.maybe import maybe_checkpoint
from rxpy2._internal.operators.maybe import maybe_concat
from rxpy2._internal.operators.maybe import maybe_count
from rxpy2._internal.operators.maybe import maybe_create
from rxpy2._internal.operators.maybe import maybe_defer
from rxpy2._internal.operators.maybe import maybe_delay
from rxpy2._internal.operators.maybe import maybe_do_event
from rxpy2._internal.operators.maybe import maybe_do_finally
from rxpy2._internal.operators.maybe import maybe_empty
from rxpy2._internal.operators.maybe import maybe_equal_single
from rxpy2._internal.operators.maybe import maybe_error
from rxpy2._internal.operators.maybe import maybe_filter
from rxpy2._internal.operators.maybe import maybe_flat_map
from rxpy2._internal.operators.maybe import maybe_flat_map_publisher
from rxpy2._internal.operators.maybe import maybe_from_callable
from rxpy2._internal.operators.maybe import maybe_from_future
from rxpy2._internal.operators.maybe import maybe_from_single
from rxpy2._internal.operators.maybe import maybe_hide
from rxpy2._internal.operators.maybe import maybe_is_empty
from rxpy2._internal.operators.maybe import maybe_just
from rxpy2._internal.operators.maybe import maybe_lift
from rxpy2._internal.operators.maybe import maybe_log
from rxpy2._internal.operators.maybe import maybe_map
from rxpy2._internal.operators.maybe import maybe_merge_array
from rxpy2._internal.operators.maybe import maybe_never
from rxpy2._internal.operators.maybe import maybe_on_error
from rxpy2._internal.operators.maybe import maybe_peek
from rxpy2._internal.operators.maybe import maybe_retry
from rxpy2._internal.operators.maybe import maybe_schedule
from rxpy2._internal.operators.maybe import maybe_switch_if_empty
from rxpy2._internal.operators.maybe import maybe_take_until
from rxpy2._internal.operators.maybe import maybe_timeout
from rxpy2._internal.operators.maybe import maybe_timer
from rxpy2._internal.operators.maybe import maybe_to_flowable
from rxpy2._internal.operators.maybe import maybe_to_publisher
from rxpy2._internal.operators.maybe import maybe_to_single
from rxpy2._internal.operators.maybe import maybe_using
from rxpy2._internal.operators.maybe import maybe_zip
from rxpy2._internal.operators.single import single_contains
from rxpy2._internal.operators.single import single_create
from rxpy2._internal.operators.single import single_delay
from rxpy2._internal.operators.single import single_future
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
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2._internal.zero_one import ZeroOneItemBase
from rxpy2._internal.zero_one import error_supplier
from rxpy2._internal.zero_one import require_each
from rxpy2._internal.zero_one import require_instance
from rxpy2._internal.zero_one import sources_of
from rxpy2._internal.zero_one import zip_form
from rxpy2.disposables import Disposable
from rxpy2.observers import MaybeObserver
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

if TYPE_CHECKING:
    import concurrent.futures
    from collections.abc import Iterable

    from rxpy2.completable import Completable
    from rxpy2.emitter import MaybeEmitter
    from rxpy2.flowable import Flowable
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["Maybe"]



def _assembly(m: Maybe[T]) -> Maybe[T]:
    if plugins.hooks_active:
        return plugins.on_assembly("maybe", m)
    return m


def _with_combiner(mapper: Callable[[Any], Maybe[Any]],
                   combiner: Callable[[Any, Any], Any]) -> Callable[[Any], Maybe[Any]]:
    """``mapper``'s Maybe, its item ``u`` of an item ``t`` mapped to ``combiner(t, u)``."""
    from rxpy2._internal.operators.single.single_flat_map import apply_mapper

    def combined(item: Any) -> Maybe[Any]:
        inner: Maybe[Any] = apply_mapper(mapper, item, Maybe)
        return inner.map(lambda u: combiner(item, u))
    return combined


def _require_maybe(m: Any, name: str) -> None:
    require_instance(m, Maybe, name)


class Maybe(ZeroOneItemBase[T]):
    """A deferred computation that signals one item, no item, or an error."""

    __slots__ = ()

    _TYPE = "maybe"
    _ops = Operators(
        subscribe_on=lambda: maybe_schedule.MaybeSubscribeOn,
        observe_on=lambda: maybe_schedule.MaybeObserveOn,
        unsubscribe_on=lambda: maybe_schedule.MaybeUnsubscribeOn,
        hide=lambda: maybe_hide.MaybeHide,
        detach=lambda: maybe_hide.MaybeDetach,
        cache=lambda: maybe_cache.MaybeCache,
        lift=lambda: maybe_lift.MaybeLift,
        do_finally=lambda: maybe_do_finally.MaybeDoFinally,
        do_on_event=lambda: maybe_do_event.MaybeDoOnEvent,
        do_after=lambda: maybe_do_event.MaybeDoAfter,
        resume_next=lambda: maybe_on_error.MaybeResumeNext,
        retry_bi_predicate=lambda: maybe_retry.MaybeRetryBiPredicate,
        retry_when=lambda: maybe_retry.MaybeRetryWhen,
        take_until=lambda: maybe_take_until.MaybeTakeUntil,
        timeout=lambda: maybe_timeout.MaybeTimeout,
        delay_with_publisher=lambda: maybe_delay.MaybeDelayWithPublisher,
        amb=lambda: maybe_amb.MaybeAmb,
        log=lambda: maybe_log.MaybeLog,
        checkpoint=lambda: maybe_checkpoint.MaybeCheckpoint,
        from_flowable=lambda f: f.single_element(),
    )

    _item_ops = ItemOperators(
        on_error_return=lambda: maybe_on_error.MaybeOnErrorReturn,
        repeat_when=lambda: maybe_retry.MaybeRepeatWhen,
        flat_map_publisher=lambda: maybe_flat_map_publisher.MaybeFlatMapPublisher,
    )

    if TYPE_CHECKING:  # the shared methods of ZeroOneBase, with this type's types
        def lift(self, operator: Callable[[MaybeObserver[R]], MaybeObserver[T]]) -> Maybe[R]: ...

        def compose(self, transformer: Callable[[Maybe[T]], Maybe[R]]) -> Maybe[R]: ...

        def __await__(self) -> Generator[Any, None, T | None]: ...  # None: empty

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
        return self._subscribe_callbacks(MaybeObserver, CallbackMaybeObserver,
                                         on_success=on_success, on_error=on_error,
                                         on_complete=on_complete)

    @overload
    def blocking_get(self, default: None = None, timeout: float | None = None) -> T | None: ...

    @overload
    def blocking_get(self, default: T, timeout: float | None = None) -> T: ...

    def blocking_get(self, default: T | None = None, timeout: float | None = None) -> T | None:
        """Block the calling thread until this Maybe terminates: the item, ``default``
        (``None`` unless given) if it completes empty, or raise the error.

        ``timeout`` (seconds): ``TimeoutError`` when it elapses, after disposing.
        """
        v: T | None = self._blocking_get(timeout)
        return default if v is None else v

    def to_flowable(self) -> Flowable[T]:
        """A Flowable of the item (emitted when requested), or empty."""
        return assembly("flowable", maybe_to_flowable.MaybeToFlowable(self))

    def to_single(self, default: T | None = None) -> Single[T]:
        """A Single of the item; if empty, ``default`` or (without one) ``IndexError``."""
        return assembly("single", maybe_to_single.MaybeToSingle(self, default))

    def is_empty(self) -> Single[bool]:
        """A Single: True if this Maybe completes without an item."""
        return assembly("single", maybe_is_empty.MaybeIsEmptySingle(self))

    # ------------------------------------------------------------------ sources

    @staticmethod
    def just(item: ItemT) -> Maybe[ItemT]:
        """Signals ``item`` at once (``None`` is refused)."""
        require(item, "item")
        return _assembly(maybe_just.MaybeJust(item))

    @staticmethod
    def empty() -> Maybe[ItemT]:
        """Completes at once, without an item."""
        return _assembly(maybe_empty.MaybeEmpty.INSTANCE)

    @staticmethod
    def error(error: BaseException | Callable[[], BaseException]) -> Maybe[ItemT]:
        """Signals ``error`` at once; a callable is called per subscriber for a fresh error."""
        return _assembly(maybe_error.MaybeError(error_supplier(error)))

    @staticmethod
    def never() -> Maybe[ItemT]:
        """Signals nothing but ``on_subscribe``."""
        return _assembly(maybe_never.MaybeNever.INSTANCE)

    @staticmethod
    def from_callable(supplier: Callable[[], ItemT | None]) -> Maybe[ItemT]:
        """Calls ``supplier`` per subscriber: its result, or empty for ``None``."""
        require_callable(supplier, "supplier")
        return _assembly(maybe_from_callable.MaybeFromCallable(supplier))

    @staticmethod
    def defer(supplier: Callable[[], Maybe[ItemT]]) -> Maybe[ItemT]:
        """Calls ``supplier`` per subscriber for the Maybe to subscribe to."""
        require_callable(supplier, "supplier")
        return _assembly(maybe_defer.MaybeDefer(supplier))

    @overload
    @staticmethod
    def zip(first: Maybe[T1], second: Maybe[T2],
            zipper: Callable[[T1, T2], R]) -> Maybe[R]: ...

    @overload
    @staticmethod
    def zip(s1: Maybe[T1], s2: Maybe[T2], s3: Maybe[T3],
            zipper: Callable[[T1, T2, T3], R], /) -> Maybe[R]: ...

    @overload
    @staticmethod
    def zip(s1: Maybe[T1], s2: Maybe[T2], s3: Maybe[T3], s4: Maybe[T4],
            zipper: Callable[[T1, T2, T3, T4], R], /) -> Maybe[R]: ...

    # 5 or more sources (RxJava 2 has up to 9), the zipper last
    @overload
    @staticmethod
    def zip(s1: Maybe[Any], s2: Maybe[Any], s3: Maybe[Any], s4: Maybe[Any],
            s5: Maybe[Any], /, *sources_and_zipper: Maybe[Any] | Callable[..., R]) -> Maybe[R]: ...

    @staticmethod
    def zip(first: Any, second: Any, *more: Any, zipper: Any = None) -> Maybe[Any]:
        """``zipper(a, b)`` of both items; empty if either is; the first error wins. RxJava 2's
        ``zip(source1, ..., source9, zipper)``: any number of sources, the zipper last
        (or ``zipper=``); see :meth:`zip_array`."""
        sources, fn = zip_form((first, second, *more), zipper)
        return Maybe.zip_array(fn, *sources)

    @staticmethod
    def zip_array(zipper: Callable[..., R], *sources: Maybe[Any]) -> Maybe[R]:
        """``zipper(*items)`` of all the sources' items (one argument per source).

        Completes empty as soon as one source does; the first error wins; either
        disposes the rest (later errors go to :func:`rxpy2.plugins.on_error`).
        No sources → empty.
        """
        require_callable(zipper, "zipper")
        require_each(sources, Maybe)
        if not sources:
            return Maybe.empty()
        return _assembly(maybe_zip.MaybeZipArray(sources, zipper))

    @staticmethod
    def zip_iterable(sources: Iterable[Maybe[Any]], zipper: Callable[..., R]) -> Maybe[R]:
        """:meth:`zip_array` of the Maybes of ``sources``, iterated at each subscription
        (RxJava's ``zip(Iterable, zipper)``): no sources → empty; a source that is not a
        Maybe → ``on_error(TypeError)``."""
        require(sources, "sources")
        require_callable(zipper, "zipper")
        return Maybe.defer(lambda: Maybe.zip_array(zipper, *sources))

    # ------------------------------------------------------------------ transforms

    def map(self, mapper: Callable[[T], R]) -> Maybe[R]:
        """Apply ``mapper`` to the item (a ``None`` result is a ``TypeError``)."""
        require_callable(mapper, "mapper")
        return _assembly(maybe_map.MaybeMap(self, mapper))

    def filter(self, predicate: Callable[[T], bool]) -> Maybe[T]:
        """The item if ``predicate`` holds, else empty."""
        require_callable(predicate, "predicate")
        return _assembly(maybe_filter.MaybeFilter(self, predicate))

    @overload
    def flat_map(self, mapper: Callable[[T], Maybe[R]]) -> Maybe[R]: ...

    @overload
    def flat_map(self, mapper: Callable[[T], Maybe[U]],
                 combiner: Callable[[T, U], R]) -> Maybe[R]: ...

    @overload
    def flat_map(self, mapper: Callable[[T], Maybe[R]],
                 on_error_mapper: Callable[[BaseException], Maybe[R]],
                 on_complete_supplier: Callable[[], Maybe[R]]) -> Maybe[R]: ...

    def flat_map(self, mapper: Callable[[T], Maybe[Any]], *args: Any, combiner: Any = None,
                 on_error_mapper: Any = None, on_complete_supplier: Any = None) -> Maybe[Any]:
        """Continue with the Maybe ``mapper(item)`` returns (empty stays empty).

        * ``flat_map(mapper, combiner)``: the result is ``combiner(item, inner_item)``
          (RxJava's ``flatMap(mapper, resultSelector)``);
        * ``flat_map(mapper, on_error_mapper, on_complete_supplier)``: the source's error
          continues with ``on_error_mapper(error)``, its completion with
          ``on_complete_supplier()`` (RxJava's ``flatMap(onSuccessMapper, onErrorMapper,
          onCompleteSupplier)``).
        """
        require_callable(mapper, "mapper")
        if len(args) == 1 and combiner is None:
            combiner = args[0]
        elif len(args) == 2 and on_error_mapper is None and on_complete_supplier is None:
            on_error_mapper, on_complete_supplier = args
        elif args:
            raise TypeError("flat_map takes (mapper), (mapper, combiner) or (mapper, "
                            "on_error_mapper, on_complete_supplier)")
        if on_error_mapper is not None or on_complete_supplier is not None:
            if combiner is not None:
                raise TypeError("flat_map takes a combiner or on_error_mapper and "
                                "on_complete_supplier, not both")
            require_callable(on_error_mapper, "on_error_mapper")
            require_callable(on_complete_supplier, "on_complete_supplier")
            return _assembly(maybe_flat_map.MaybeFlatMapNotification(
                self, mapper, on_error_mapper, on_complete_supplier))
        if combiner is not None:
            require_callable(combiner, "combiner")
            return _assembly(maybe_flat_map.MaybeFlatMap(self, _with_combiner(mapper, combiner)))
        return _assembly(maybe_flat_map.MaybeFlatMap(self, mapper))

    def flat_map_single(self, mapper: Callable[[T], Single[R]]) -> Single[R]:
        """A Single: continue with ``mapper(item)``; an empty Maybe is an ``IndexError``."""
        require_callable(mapper, "mapper")
        return assembly("single", maybe_flat_map.MaybeFlatMapSingle(self, mapper))

    def zip_with(self, other: Maybe[U], zipper: Callable[[T, U], R]) -> Maybe[R]:
        """``zipper(this_item, other_item)``; see :meth:`zip`."""
        _require_maybe(other, "other")
        return Maybe.zip(self, other, zipper)

    def default_if_empty(self, item: T) -> Maybe[T]:
        """``item`` if this Maybe completes empty (still a Maybe; see :meth:`to_single`)."""
        require(item, "item")
        return self.switch_if_empty(Maybe.just(item))

    @overload
    def switch_if_empty(self, other: Single[T]) -> Single[T]: ...

    @overload
    def switch_if_empty(self, other: Maybe[T]) -> Maybe[T]: ...

    def switch_if_empty(self, other: Maybe[T] | Single[T]) -> Maybe[T] | Single[T]:
        """If this completes empty, continue with ``other``: a Maybe (→ Maybe) or a
        Single (→ Single)."""
        require(other, "other")
        if isinstance(other, Single):
            return assembly("single", maybe_switch_if_empty.MaybeSwitchIfEmptySingle(self, other))
        _require_maybe(other, "other")
        return _assembly(maybe_switch_if_empty.MaybeSwitchIfEmpty(self, other))

    # ------------------------------------------------------------------ errors

    def on_error_complete(self,
                          predicate: Callable[[BaseException], bool] | None = None) -> Maybe[T]:
        """On error (for which ``predicate`` holds, if given), complete empty instead."""
        if predicate is not None:
            require_callable(predicate, "predicate")
        return _assembly(maybe_on_error.MaybeOnErrorComplete(self, predicate))

    # ------------------------------------------------------------------ side effects

    def _peek(self, on_subscribe: Any = None, on_success: Any = None, on_error: Any = None,
              on_complete: Any = None, on_dispose: Any = None) -> Maybe[T]:
        return _assembly(maybe_peek.MaybePeek(self, on_subscribe, on_success, on_error, on_complete,
                                   on_dispose))

    def do_on_complete(self, fn: Callable[[], Any]) -> Maybe[T]:
        """Call ``fn()`` before an empty completion goes downstream (raising → ``on_error``)."""
        require_callable(fn, "on_complete")
        return self._peek(on_complete=fn)

    # ------------------------------------------------------------------ scheduling and time

    @staticmethod
    def timer(delay: float, scheduler: Scheduler | None = None) -> Maybe[int]:
        """Signals ``0`` after ``delay`` seconds, on ``scheduler`` (computation by default).

        A negative or non-numeric ``delay`` is refused at assembly.
        """
        d = require_duration(delay, "delay")
        return _assembly(maybe_timer.MaybeTimer(d, time_args.scheduler_or_computation(scheduler)))

    def timeout(self, timeout: float | Publisher[Any] | ZeroOneBase,
                scheduler: Scheduler | None = None,
                fallback: Maybe[T] | None = None) -> Maybe[T]:
        """``TimeoutError``, or a switch to ``fallback``, when this Maybe does not
        terminate in time; the upstream is then disposed.

        ``timeout``: seconds (on ``scheduler``, computation by default), or another
        source (a Publisher, or a Single, Maybe or Completable): its first item or its
        completion is the timeout, its error the downstream's error. As in RxJava 2
        (``timeout(timer(...))``), the ``TimeoutError`` has no message.
        """
        require(timeout, "timeout")
        if fallback is not None:
            _require_maybe(fallback, "fallback")
        other = single_delay.source_as_publisher(timeout, scheduler)
        if other is not None:
            return _assembly(maybe_timeout.MaybeTimeoutPublisher(self, other, fallback))
        return super().timeout(require_duration(timeout, "timeout"), scheduler, fallback)

    def delay(self, time: float | Publisher[Any] | ZeroOneBase,
              scheduler: Scheduler | None = None) -> Maybe[T]:
        """Signal the item, the completion or the error later.

        ``time``: seconds (a task on ``scheduler``, computation by default: RxJava 2's
        Maybe delays the error too), or another source (a Publisher, or a Single, Maybe
        or Completable), subscribed once this Maybe signalled: its first item or
        completion releases the signal; its error is signalled instead (with this
        Maybe's error: a ``CompositeException`` of both).
        """
        require(time, "time")
        other = single_delay.source_as_publisher(time, scheduler)
        if other is not None:
            return _assembly(maybe_delay.MaybeDelayOtherPublisher(self, other))
        d = require_duration(time, "time")
        return _assembly(maybe_delay.MaybeDelay(self, d, time_args.scheduler_or_computation(scheduler),
                                          True))

    # ------------------------------------------------------------------ retry / repeat

    def retry_until(self, stop: Callable[[], bool]) -> Maybe[T]:
        """Resubscribe on error until ``stop()`` returns True (then the error goes
        downstream); ``stop`` raising ends it with ``CompositeException(error, raised)``."""
        require_callable(stop, "stop")
        return self.retry(predicate=lambda _e: not stop())

    # ------------------------------------------------------------------ creating, composing, lifecycle

    @staticmethod
    def create(source: Callable[[MaybeEmitter[ItemT]], Any]) -> Maybe[ItemT]:
        """Calls ``source(emitter)`` per subscriber; it signals through the
        :class:`~rxpy2.emitter.MaybeEmitter` (``on_success``/``on_complete``/``on_error``,
        once).

        A second signal is dropped (an error goes to :func:`rxpy2.plugins.on_error`);
        ``source`` raising signals its error. The emitter's resource
        (``set_disposable``/``set_cancellable``) is released on dispose or termination.
        """
        require_callable(source, "source")
        return _assembly(maybe_create.MaybeCreate(source))

    @staticmethod
    def unsafe_create(source: Callable[[MaybeObserver[ItemT]], Any]) -> Maybe[ItemT]:
        """Calls ``source(observer)`` per subscriber with the observer itself (see
        :meth:`rxpy2.Single.unsafe_create`). A Maybe is refused: see :meth:`wrap`."""
        return _assembly(maybe_create.MaybeUnsafeCreate(single_create.unsafe_source(source, Maybe)))

    @staticmethod
    def wrap(source: Any) -> Maybe[Any]:
        """``source`` itself if it is a Maybe; else a Maybe that subscribes through
        ``source.subscribe(observer)`` (see :meth:`rxpy2.Single.wrap`)."""
        if isinstance(source, Maybe):
            return _assembly(source)
        return _assembly(maybe_create.MaybeUnsafeCreate(single_create.wrapped_subscribe(source, Maybe)))

    def of_type(self, cls: type[U]) -> Maybe[U]:
        """The item if it is an instance of ``cls`` (``isinstance``; a tuple of classes
        works too), else empty."""
        require_type(cls)
        return self.filter(lambda x: isinstance(x, cls))  # type: ignore[return-value]  # narrowed at runtime

    def cast(self, cls: type[U]) -> Maybe[U]:
        """The item, checked to be an instance of ``cls``: if not, ``TypeError`` (RxJava's
        ``ClassCastException``). Typed as ``Maybe[cls]``."""
        require_type(cls)
        return self.map(checked_cast(cls))

    # ------------------------------------------------------------------ converting and element operators

    @staticmethod
    def from_action(action: Callable[[], Any]) -> Maybe[Any]:
        """Runs ``action()`` per subscriber, then completes empty (or signals what it raised)."""
        require_callable(action, "action")
        return _assembly(completable_to_maybe.CompletableToMaybe(completable_from_action.CompletableFromAction(action)))

    @staticmethod
    def from_completable(source: Completable) -> Maybe[Any]:
        """Completes empty, or fails, with ``source``."""
        from rxpy2.completable import Completable
        require_instance(source, Completable, "source")
        return _assembly(completable_to_maybe.CompletableToMaybe(source))

    @staticmethod
    def from_future(future: concurrent.futures.Future[ItemT], timeout: float | None = None,
                    scheduler: Scheduler | None = None) -> Maybe[ItemT]:
        """The result of ``future`` when it completes, or empty for a ``None`` result,
        without blocking a thread (see :meth:`rxpy2.Single.from_future`)."""
        t = single_future.check_future(future, timeout, scheduler)
        return _assembly(maybe_from_future.MaybeFromFuture(future, t, scheduler))

    @staticmethod
    def from_single(source: Single[ItemT]) -> Maybe[ItemT]:
        """The item or error of ``source``."""
        require_instance(source, Single, "source")
        return _assembly(maybe_from_single.MaybeFromSingle(source))

    def contains(self, item: Any) -> Single[bool]:
        """A Single: whether the item equals ``item`` (``==``); empty is False."""
        require(item, "item")
        import operator
        return assembly("single", single_contains.SingleContains(self, item, operator.eq))

    def count(self) -> Single[int]:
        """A Single of 1 (an item) or 0 (empty)."""
        return assembly("single", maybe_count.MaybeCount(self))

    def flat_map_single_element(self, mapper: Callable[[T], Single[R]]) -> Maybe[R]:
        """A Maybe: continue with the Single ``mapper(item)`` returns; empty stays empty
        (unlike :meth:`flat_map_single`, whose Single fails on empty)."""
        require_callable(mapper, "mapper")
        return _assembly(maybe_flat_map.MaybeFlatMapSingleElement(self, mapper))

    def concat_map(self, mapper: Callable[[T], Maybe[R]]) -> Maybe[R]:
        """The same as :meth:`flat_map` (as in RxJava 2: a Maybe has at most one item)."""
        return self.flat_map(mapper)

    # ------------------------------------------------------------------ caching, resources, take_until, fallbacks

    @staticmethod
    def using(resource_supplier: Callable[[], U], source_supplier: Callable[[U], Maybe[ItemT]],
              disposer: Callable[[U], Any], eager: bool = True) -> Maybe[ItemT]:
        """Per subscriber: acquire ``resource_supplier()``, run the Maybe
        ``source_supplier(resource)``, and call ``disposer(resource)`` once (see
        :meth:`rxpy2.Single.using`)."""
        require_callable(resource_supplier, "resource_supplier")
        require_callable(source_supplier, "source_supplier")
        require_callable(disposer, "disposer")
        return _assembly(maybe_using.MaybeUsing(resource_supplier, source_supplier, disposer,
                                          bool(eager)))

    def on_exception_resume_next(self, fallback: Maybe[T]) -> Maybe[T]:
        """On an ``Exception``, continue with ``fallback``; any other ``BaseException``
        (``KeyboardInterrupt``, ...) goes downstream (RxJava 2: only ``Exception``, not
        ``Error``, resumes)."""
        _require_maybe(fallback, "fallback")
        return _assembly(maybe_on_error.MaybeOnExceptionResumeNext(self, fallback))

    @staticmethod
    def sequence_equal(first: Maybe[ItemT], second: Maybe[ItemT],
                       is_equal: Callable[[ItemT, ItemT], bool] | None = None) -> Single[bool]:
        """Whether both Maybes end the same way: True if both are empty, False if one
        is, else ``is_equal(a, b)`` (``a == b`` by default). An error of either is
        signalled and disposes the other."""
        _require_maybe(first, "first")
        _require_maybe(second, "second")
        if is_equal is not None:
            require_callable(is_equal, "is_equal")
        return assembly("single", maybe_equal_single.MaybeSequenceEqualSingle(first, second, is_equal))

    # ------------------------------------------------------------------ concat / merge / amb
    # (RxJava 2's own Maybe operators where it has them: maybe_amb.py, maybe_concat.py,
    # maybe_merge_array.py; elsewhere Flowable operators over a Flowable of the sources,
    # each source turned into a Flowable by the mapper of maybe_to_publisher.py)

    @staticmethod
    def amb(sources: Iterable[Maybe[ItemT]]) -> Maybe[ItemT]:
        """The first of ``sources`` to signal wins (its item, completion or error); the
        rest are disposed. The iterable is iterated per subscriber; empty → completes."""
        require(sources, "sources")
        return _assembly(maybe_amb.MaybeAmb(sources))

    @staticmethod
    def amb_array(*sources: Maybe[ItemT]) -> Maybe[ItemT]:
        """:meth:`amb` over the given sources (none → empty, one → itself)."""
        require_each(sources, Maybe)
        if not sources:
            return Maybe.empty()
        if len(sources) == 1:
            return sources[0]
        return _assembly(maybe_amb.MaybeAmb(sources))

    @overload
    @staticmethod
    def concat(sources: Iterable[Maybe[ItemT]] | Publisher[Maybe[ItemT]],
               prefetch: int = 2) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def concat(s1: Maybe[ItemT], s2: Maybe[ItemT], /, *sources: Maybe[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Maybe, lambda s: Maybe.concat_array(*s))
    def concat(sources: Any, prefetch: int = 2) -> Flowable[Any]:
        """A Flowable of the sources' items, one source after another (empty ones add
        nothing); the first error ends it.

        ``sources``: an iterable (iterated lazily, per subscriber; RxJava 2's
        MaybeConcatIterable) or a Publisher of Maybes (``concat_map`` over it,
        ``prefetch`` of them asked for ahead). A ``None`` or non-Maybe source is a
        ``TypeError`` downstream. ``concat(a, b, ...)``, Maybes one by one (RxJava 2's
        ``concat(source1, source2)``), is :meth:`concat_array`.
        """
        int_after_sources(prefetch, "prefetch", "concat", "concat_array", "Maybe")
        from rxpy2.flowable import Flowable
        if isinstance(sources, Publisher):
            return Flowable.from_publisher(sources).concat_map(maybe_to_publisher.MAYBE_TO_FLOWABLE, prefetch)
        maybe_to_publisher.require_sources(sources)
        from rxpy2._internal.arguments import require_positive
        require_positive(prefetch, "prefetch")
        return assembly("flowable", maybe_concat.MaybeConcat(sources, False))

    @staticmethod
    def concat_array(*sources: Maybe[ItemT]) -> Flowable[ItemT]:
        """The given Maybes' items in order; the first error ends it."""
        return Maybe._array(sources, lambda s: maybe_concat.MaybeConcat(s, False))

    @staticmethod
    def concat_array_delay_error(*sources: Maybe[ItemT]) -> Flowable[ItemT]:
        """As :meth:`concat_array`, but the errors wait until every source ran (several
        together as a ``CompositeException``)."""
        return Maybe._array(sources, lambda s: maybe_concat.MaybeConcat(s, True))

    @staticmethod
    def _array(sources: tuple[Maybe[ItemT], ...],
               operator: Callable[[tuple[Maybe[ItemT], ...]], Flowable[ItemT]]) -> Flowable[ItemT]:
        """``operator(sources)``, checked; no source is empty, one its ``to_flowable()``."""
        from rxpy2.flowable import Flowable
        require_each(sources, Maybe)
        if not sources:
            return Flowable.empty()
        if len(sources) == 1:
            return sources[0].to_flowable()
        return assembly("flowable", operator(sources))

    @staticmethod
    def concat_array_eager(*sources: Maybe[ItemT]) -> Flowable[ItemT]:
        """Subscribe to all the given Maybes at once; emit their items in order."""
        from rxpy2.flowable import Flowable
        require_each(sources, Maybe)
        return Flowable.from_array(sources).concat_map_eager(maybe_to_publisher.MAYBE_TO_FLOWABLE)

    @overload
    @staticmethod
    def concat_delay_error(sources: Iterable[Maybe[ItemT]] | Publisher[Maybe[ItemT]]) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def concat_delay_error(s1: Maybe[ItemT], s2: Maybe[ItemT], /, *sources: Maybe[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Maybe, lambda s: Maybe.concat_array_delay_error(*s), alone=True)
    def concat_delay_error(sources: Any) -> Flowable[Any]:
        """As :meth:`concat`, but the errors wait until every source ran (RxJava 2's
        ``concat_map_delay_error`` over the sources). ``concat_delay_error(a, b, ...)``
        is :meth:`concat_array_delay_error`."""
        return maybe_to_publisher.flowable_of_sources(sources).concat_map_delay_error(
            maybe_to_publisher.MAYBE_TO_FLOWABLE)

    @staticmethod
    def concat_eager(sources: Iterable[Maybe[ItemT]] | Publisher[Maybe[ItemT]]) -> Flowable[ItemT]:
        """Subscribe to the sources as they come, up to 128 at once (RxJava 2's
        ``concat_map_eager``); emit their items in order."""
        return maybe_to_publisher.flowable_of_sources(sources).concat_map_eager(maybe_to_publisher.MAYBE_TO_FLOWABLE)

    def concat_with(self, other: Maybe[T]) -> Flowable[T]:
        """A Flowable of this Maybe's item (if any), then ``other``'s."""
        _require_maybe(other, "other")
        return Maybe.concat_array(self, other)

    @overload
    @staticmethod
    def merge(sources: Maybe[Maybe[ItemT]]) -> Maybe[ItemT]: ...

    @overload
    @staticmethod
    def merge(sources: Iterable[Maybe[ItemT]] | Publisher[Maybe[ItemT]],
              max_concurrency: int | None = None) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def merge(s1: Maybe[ItemT], s2: Maybe[ItemT], /, *sources: Maybe[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Maybe, lambda s: Maybe.merge_array(*s))
    def merge(sources: Any, max_concurrency: int | None = None) -> Any:
        """The sources' items as they come; the first error ends the Flowable and
        disposes the rest.

        ``sources``: an iterable or a Publisher of Maybes (→ Flowable; RxJava 2's
        ``flat_map`` over them, at most ``max_concurrency`` subscribed at once, no
        limit by default), or a Maybe of a Maybe (→ Maybe: the inner Maybe's signal,
        RxJava 2's ``merge(MaybeSource<MaybeSource>)``; no ``max_concurrency``).
        ``merge(a, b, ...)``, Maybes one by one (RxJava 2's ``merge(source1, source2)``),
        is :meth:`merge_array`.
        """
        int_after_sources(max_concurrency, "max_concurrency", "merge", "merge_array", "Maybe")
        if isinstance(sources, Maybe):
            if max_concurrency is not None:
                raise TypeError("max_concurrency goes with many sources, not a Maybe of a Maybe")
            return _assembly(maybe_flat_map.MaybeFlatMap(sources, maybe_to_publisher.same_source))
        from rxpy2.reactivestreams import LONG_MAX
        return maybe_to_publisher.flowable_of_sources(sources).flat_map(
            maybe_to_publisher.MAYBE_TO_FLOWABLE, LONG_MAX if max_concurrency is None else max_concurrency,
            False, 1)

    @staticmethod
    def merge_array(*sources: Maybe[ItemT]) -> Flowable[ItemT]:
        """The given Maybes' items as they come (RxJava 2's MaybeMergeArray); the first
        error ends the Flowable (before items still waiting for demand) and disposes
        the rest."""
        return Maybe._array(sources, maybe_merge_array.MaybeMergeArray)

    @staticmethod
    def merge_array_delay_error(*sources: Maybe[ItemT]) -> Flowable[ItemT]:
        """As :meth:`merge_array`, but the errors wait until every source ended (several
        together as a ``CompositeException``)."""
        from rxpy2.flowable import Flowable
        require_each(sources, Maybe)
        if not sources:
            return Flowable.empty()
        return Flowable.from_array(sources).flat_map(maybe_to_publisher.MAYBE_TO_FLOWABLE, len(sources), True)

    @overload
    @staticmethod
    def merge_delay_error(sources: Iterable[Maybe[ItemT]] | Publisher[Maybe[ItemT]],
                          max_concurrency: int | None = None) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def merge_delay_error(s1: Maybe[ItemT], s2: Maybe[ItemT], /, *sources: Maybe[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_of(lambda: Maybe, lambda s: Maybe.merge_array_delay_error(*s))
    def merge_delay_error(sources: Any, max_concurrency: int | None = None) -> Flowable[Any]:
        """As :meth:`merge`, but the errors wait until every source ended.

        As RxJava 2: an iterable runs at most 128 sources at once (``max_concurrency``
        changes that), a Publisher's sources run without limit unless
        ``max_concurrency`` is given. ``merge_delay_error(a, b, ...)``, Maybes one by
        one (RxJava 2's ``mergeDelayError(source1, source2)``), is
        :meth:`merge_array_delay_error`.
        """
        int_after_sources(max_concurrency, "max_concurrency", "merge_delay_error",
                          "merge_array_delay_error", "Maybe")
        from rxpy2._internal.arguments import BUFFER_SIZE
        from rxpy2.flowable import Flowable
        from rxpy2.reactivestreams import LONG_MAX
        if isinstance(sources, Publisher):
            return Flowable.from_publisher(sources).flat_map(
                maybe_to_publisher.MAYBE_TO_FLOWABLE, LONG_MAX if max_concurrency is None else max_concurrency,
                True, 1)
        return maybe_to_publisher.flowable_of_sources(sources).flat_map(
            maybe_to_publisher.MAYBE_TO_FLOWABLE, BUFFER_SIZE if max_concurrency is None else max_concurrency,
            True)

    def merge_with(self, other: Maybe[T]) -> Flowable[T]:
        """A Flowable of this Maybe's and ``other``'s items as they come."""
        _require_maybe(other, "other")
        return Maybe.merge_array(self, other)
