"""What the 0-1 reactive types (Single, Maybe, Completable) share.

:class:`ZeroOneBase` holds their scaffold: the subscribe path (``subscribe`` may
not be overridden, a subclass implements ``subscribe_actual``; ``_subscribe``
runs the loop of :mod:`rxpy2._internal.helpers.subscribe_loop`: the subscribe
hook, and an exception escaping ``subscribe_actual`` signalled to the observer,
§1.9), ``test``, ``to``/``compose``/``lift``, the blocking wait, the schedulers
and the ``do_*`` plumbing. Each method that builds an operator takes its class
from the type's :class:`Operators` table, whose entries name it in its deferred
module (``rxpy2._internal.lazy_import``): imported when first called. Methods
return ``Self``: a Single's are Singles, a Maybe's Maybes. :class:`ZeroOneItemBase`
adds what Single and Maybe share about the item.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import NamedTuple
from typing import Self
from typing import TypeVar
from typing import cast
from typing import final
from typing import overload

from rxpy2._internal import describe as _describe
from rxpy2._internal.arguments import ABSENT
from rxpy2._internal.arguments import assembly
from rxpy2._internal.arguments import refuse_rxpy_observer
from rxpy2._internal.arguments import require
from rxpy2._internal.arguments import require_callable
from rxpy2._internal.arguments import require_duration
from rxpy2._internal.arguments import require_scheduler
from rxpy2._internal.arguments import retry_function_form
from rxpy2._internal.arguments import sources_one_by_one
from rxpy2._internal.arguments import trailing_function
from rxpy2._internal.assembly import user_site
from rxpy2._internal.helpers import subscribe_loop as _loop
from rxpy2._internal.name_trap import check_class as _check_fields
from rxpy2._internal.observers.blocking import BlockingMultiObserver
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2._internal.operators.completable import completable_ignore_element
from rxpy2._internal.operators.flowable import flowable_checkpoint
from rxpy2._internal.operators.flowable import flowable_log
from rxpy2._internal.operators.flowable import time_args
from rxpy2._internal.operators.single import single_asyncio
from rxpy2._internal.operators.single import single_checkpoint
from rxpy2._internal.operators.single import single_delay
from rxpy2._internal.operators.single import single_flat_map_completable
from rxpy2._internal.operators.single import single_flatten_as_flowable
from rxpy2._internal.operators.single import single_materialize
from rxpy2._internal.operators.single import single_retry
from rxpy2._internal.operators.single import single_take_until

if TYPE_CHECKING:
    import logging

    from rxpy2.completable import Completable
    from rxpy2.disposables import Disposable
    from rxpy2.flowable import Flowable
    from rxpy2.notification import Notification
    from rxpy2.reactivestreams import Publisher
    from rxpy2.schedulers.scheduler import Scheduler
    from rxpy2.single import Single
    from rxpy2.testing.test_subscriber import TestObserver

__all__ = ["FunctionObserver", "FunctionOp", "ItemOperators", "Operators", "ZeroOneBase",
           "ZeroOneItemBase", "as_publisher", "error_supplier", "pipe_functions", "require_each",
           "require_instance", "sources_of", "zip_form"]

T = TypeVar("T")
R = TypeVar("R")
A = TypeVar("A")  # the results of pipe's functions
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E")
F = TypeVar("F")

#: returns an operator class (or another factory) of one type, imported on first use
Op = Callable[[], Callable[..., Any]]


def require_instance(value: Any, cls: type, name: str) -> None:
    """``TypeError`` unless ``value`` is a ``cls`` (an argument check at assembly)."""
    if value is None:
        raise TypeError(f"{name} is None")
    if not isinstance(value, cls):
        raise TypeError(f"{name} must be a {cls.__name__}, not {type(value).__name__}")



def require_each(sources: Iterable[Any], cls: type) -> None:
    """:func:`require_instance` for each of ``sources`` (``source 0``, ``source 1``...)."""
    for i, source in enumerate(sources):
        require_instance(source, cls, f"source {i}")


def sources_of(root: Callable[[], type], spread: Callable[[tuple[Any, ...]], Any],
               alone: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """RxJava 2's ``merge(s1, s2[, s3, s4])`` form of a 0-1 type's static (see
    :func:`rxpy2._internal.arguments.sources_one_by_one`): when the second positional
    argument is a ``root()`` (Single, Maybe or Completable), the call is ``spread(args)``,
    each of them checked to be a ``root()`` first, at assembly. ``alone``: the method
    takes its sources and nothing else, so a second positional argument that is not a
    ``root()`` is a ``TypeError`` naming the forms."""
    def checked(sources: tuple[Any, ...]) -> Any:
        require_each(sources, root())
        return spread(sources)

    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        inner = sources_one_by_one(lambda x: isinstance(x, root()), checked)(method)
        if not alone:
            return inner

        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            if len(args) >= 2 and not isinstance(args[1], root()):
                kind = root().__name__
                raise TypeError(f"source 1 must be a {kind}, not {type(args[1]).__name__}: "
                                f"{method.__name__} takes {kind}s one by one "
                                f"({method.__name__}(a, b)) or an iterable or a Publisher "
                                f"of them ({method.__name__}([a, b]))")
            return inner(*args, **kwargs)
        return call
    return decorate


def zip_form(args: tuple[Any, ...], zipper: Any) -> tuple[tuple[Any, ...], Any]:
    """Single's and Maybe's ``zip(s1, s2, ..., zipper)``: the sources and the zipper, the
    last positional argument (RxJava 2's order) or ``zipper=``; none is a ``TypeError``."""
    sources, fn = trailing_function(args, zipper, "zipper")
    if fn is None:
        raise TypeError("zip needs a zipper, last: zip(a, b, fn) (or zip_array(fn, a, b))")
    return sources, fn


def error_supplier(error: BaseException | Callable[[], BaseException]
                   ) -> Callable[[], BaseException]:
    """The argument of ``error()`` checked: an exception (the same for every subscriber)
    or a callable called per subscriber for a fresh one, as the supplier the ``error``
    operators call."""
    require(error, "error")
    if isinstance(error, BaseException):
        err = error
        return lambda: err
    require_callable(error, "error")
    return error

def pipe_functions(source: Any, functions: tuple[Callable[[Any], Any], ...]) -> Any:
    """The body of ``pipe``: each of ``functions`` applied in turn, from ``source``."""
    for i, fn in enumerate(functions):
        require_callable(fn, f"function {i}")
    value = source
    for fn in functions:
        value = fn(value)
    return value


def as_publisher(other: Any) -> Publisher[Any] | None:
    """``other`` as a Publisher: itself if it is one, a Single, Maybe or Completable
    through its ``to_flowable()``; ``None`` for anything else (the caller decides)."""
    from rxpy2.reactivestreams import Publisher
    if isinstance(other, Publisher):
        return other
    if isinstance(other, ZeroOneBase):
        return other.to_flowable()
    return None


def _trace(source: Any, observer: Any) -> Any:
    """Assembly tracking's stage for a 0-1 source (``Kind.trace``)."""
    return single_checkpoint.trace_observer(source, observer)


class Operators(NamedTuple):
    """The operators a 0-1 type's shared methods build: each entry, called, returns
    that type's class (``lambda: single_hide.SingleHide``); each takes the arguments its
    shared method passes (the source first)."""

    subscribe_on: Op
    observe_on: Op
    unsubscribe_on: Op
    hide: Op
    detach: Op
    cache: Op
    lift: Op
    do_finally: Op
    do_on_event: Op  # (source, fn(item, error))
    do_after: Op  # (source, on_after_success, on_after_terminate)
    resume_next: Op  # (source, fn(error) -> fallback)
    retry_bi_predicate: Op
    retry_when: Op
    take_until: Op
    timeout: Op  # (source, seconds, scheduler, fallback)
    delay_with_publisher: Op
    amb: Op  # (sources)
    log: Op  # (source, logger, level)
    checkpoint: Op  # (source, description, site)
    #: back from ``to_flowable()`` (RxJava 2's retry over a Flowable): ``single_or_error``...
    from_flowable: Callable[[Flowable[Any]], Any]


class ZeroOneBase:
    """Base of Single, Maybe and Completable; each sets ``_TYPE`` (its plugin hook key)
    and ``_ops`` (its :class:`Operators`)."""

    # weakly referenceable, as Flowable (whose comment says why type checkers see no slot)
    if TYPE_CHECKING:
        __slots__ = ()
    else:
        __slots__ = ("__weakref__",)

    _TYPE: ClassVar[str]
    _ops: ClassVar[Operators]
    _loop_kind: ClassVar[_loop.Kind]
    _root: ClassVar[type[ZeroOneBase]]  # Single, Maybe or Completable: what an argument must be

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _check_fields(cls)  # no name trap: a field never hides a fluent method
        if "_TYPE" in cls.__dict__:  # Single, Maybe, Completable themselves
            # their part in the subscribe loop: hook key, any observer (None is refused
            # by _prepare_subscriber), and the upstream of a failed observer (§1.9)
            cls._loop_kind = _loop.Kind(cls._TYPE, object, EmptyDisposable.INSTANCE, _trace)
            cls._root = cls
            return
        if "subscribe" in cls.__dict__:
            raise TypeError(f"{cls.__name__} must not override {cls._root.__name__}.subscribe; "
                            "implement subscribe_actual instead")

    def __repr__(self) -> str:
        """The chain, e.g. ``just(1) → map(parse)``."""
        return _describe.chain_repr(self)

    def explain(self) -> str:
        """The chain, one line per stage (see :meth:`rxpy2.Flowable.explain`)."""
        return _describe.explain(self)

    def _assemble(self, source: Any) -> Self:
        """``source``, built by a method of this type, through the assembly hook."""
        result: Self = assembly(self._TYPE, source)
        return result

    # ------------------------------------------------------------------ subscribing

    def subscribe_actual(self, observer: Any) -> None:
        raise NotImplementedError

    @final
    def _subscribe(self, observer: Any) -> None:
        """Subscribe in the loop of ``subscribe_loop`` (no frame per stage of a chain)."""
        if observer is None:
            raise TypeError("observer is None")
        _loop.run(self, observer, self._loop_kind)

    @final
    def _prepare_subscriber(self, observer: Any) -> Any:
        if observer is None:
            raise TypeError("observer is None")
        return observer

    @final
    def _subscribe_callbacks(self, observer_type: type, callback_observer: Callable[..., Any],
                             **callbacks: Any) -> Disposable | None:
        """The body of ``subscribe``: an ``observer_type`` (returns ``None``), or callbacks.

        ``callbacks`` are the named arguments in order; the first may be an
        observer or left out (``ABSENT``), the others default to ``None``. The
        callbacks go to ``callback_observer(*callbacks)``, which is subscribed
        and returned.
        """
        items = iter(callbacks.items())
        _name, first = next(items)
        if isinstance(first, observer_type):
            if any(fn is not None for _n, fn in items):
                raise TypeError("subscribe(observer) takes no callbacks")
            self._subscribe(first)
            return None
        if first is None:
            raise TypeError("observer is None")
        if first is not ABSENT and not callable(first):
            refuse_rxpy_observer(first, f"a {observer_type.__name__} or callbacks")
        args = []
        for name, fn in callbacks.items():
            if fn is ABSENT:
                fn = None
            elif fn is not None:
                require_callable(fn, name)
            args.append(fn)
        o: Disposable = callback_observer(*args)
        self._subscribe(o)
        return o

    def subscribe_with(self, observer: Any) -> Any:
        """Subscribe ``observer`` and return it."""
        self._subscribe(observer)
        return observer

    def test(self, cancel: bool = False) -> TestObserver[Any]:
        """Subscribe a new :class:`rxpy2.testing.TestObserver` and return it."""
        from rxpy2.testing.test_subscriber import TestObserver
        to: TestObserver[Any] = TestObserver()
        if cancel:
            to.dispose()
        self._subscribe(to)
        return to

    def _blocking_get(self, timeout: float | None) -> Any:
        """Block the calling thread until the terminal signal: the item (``None`` without
        one), or raise the error; ``TimeoutError`` when ``timeout`` seconds elapse, after
        disposing."""
        o: BlockingMultiObserver[Any] = BlockingMultiObserver()
        return o.blocking_get(self._subscribe, timeout)

    def to_flowable(self) -> Flowable[Any]:
        raise NotImplementedError

    def __await__(self) -> Generator[Any, None, Any]:
        """``await source`` in a coroutine: subscribes when awaited (not before), on the
        running event loop, and returns the item (a Maybe that completes empty and a
        Completable: ``None``) or raises the error. The signal may come on any thread;
        the awaiting coroutine resumes on its loop. Cancelling the awaiting task
        disposes the subscription."""
        return single_asyncio.await_source(self)

    # ------------------------------------------------------------------ composing

    def to(self, converter: Callable[[Self], R]) -> R:
        """``converter(self)``, called now: convert this source into any value (RxJava 2's
        ``as``/``to``)."""
        require_callable(converter, "converter")
        return converter(self)

    def compose(self, transformer: Callable[[Any], Any]) -> Any:
        """``transformer(self)``, called now; it must return a source of this type (a
        Single for a Single...: ``TypeError`` if not)."""
        require_callable(transformer, "transformer")
        result = transformer(self)
        require_instance(result, self._root, "the transformer's result")
        return self._assemble(result)

    def lift(self, operator: Callable[[Any], Any]) -> Any:
        """A custom operator: ``operator(downstream)`` returns the observer subscribed to
        this source, per subscriber. ``operator`` raising or returning ``None`` signals
        that error (a ``TypeError`` for ``None``) to the downstream (where RxJava 2's
        Completable sends it to its plugins and leaves the observer waiting)."""
        require_callable(operator, "operator")
        return self._assemble(self._ops.lift()(self, operator))

    @overload
    def pipe(self) -> Self: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], /) -> A: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], f2: Callable[[A], B], /) -> B: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], f2: Callable[[A], B], f3: Callable[[B], C],
             /) -> C: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], f2: Callable[[A], B], f3: Callable[[B], C],
             f4: Callable[[C], D], /) -> D: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], f2: Callable[[A], B], f3: Callable[[B], C],
             f4: Callable[[C], D], f5: Callable[[D], E], /) -> E: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], f2: Callable[[A], B], f3: Callable[[B], C],
             f4: Callable[[C], D], f5: Callable[[D], E], f6: Callable[[E], F], /) -> F: ...

    @overload
    def pipe(self, f1: Callable[[Self], A], f2: Callable[[A], B],
             f3: Callable[[B], C], f4: Callable[[C], D], f5: Callable[[D], E],
             f6: Callable[[E], F], f7: Callable[[F], Any], /,
             *functions: Callable[[Any], Any]) -> Any: ...

    def pipe(self, *functions: Callable[[Any], Any]) -> Any:
        """``source.pipe(f, g)`` is ``g(f(source))``, called now (RxPY's ``pipe``; the
        functions' results need not be sources: it is :meth:`to` applied in turn).
        ``pipe()`` is this source."""
        return pipe_functions(self, functions)

    def log(self, name_or_logger: str | logging.Logger | logging.LoggerAdapter[Any] | None
            = None, level: int | str = 20) -> Self:  # 20 = logging.INFO: logging loads at first log()
        """Log each signal through :mod:`logging` (Reactor's ``log()``): one record per
        ``on_subscribe``, ``on_success``, ``on_complete``, ``on_error`` and ``dispose``,
        at ``level``, on the logger given or named (``rxpy2.log`` by default). When that
        logger is not enabled for ``level`` at subscribe time, the stage is left out of
        that subscription. See :meth:`rxpy2.Flowable.log`."""
        logger = flowable_log.resolve_logger(name_or_logger)
        lvl = flowable_log.check_level(level)
        return self._assemble(self._ops.log()(self, logger, lvl))

    def checkpoint(self, description: str | None = None) -> Self:
        """Mark this point of the chain for debugging (Reactor's ``checkpoint()``): an
        error passing here gets a note naming ``description``, the ``file:line`` that
        called ``checkpoint`` and the chain before it, once per exception and
        checkpoint; every other signal passes unchanged. See
        :meth:`rxpy2.Flowable.checkpoint`."""
        flowable_checkpoint.require_description(description)
        return self._assemble(self._ops.checkpoint()(self, description, user_site()))

    def hide(self) -> Self:
        """This source with its identity (and its Disposable's) hidden."""
        return self._assemble(self._ops.hide()(self))

    def on_terminate_detach(self) -> Self:
        """Drop the references to the downstream and the upstream on the signal or dispose
        (neither keeps the other from being garbage collected)."""
        return self._assemble(self._ops.detach()(self))

    def cache(self) -> Self:
        """Subscribe to this source once, with the first subscriber, and replay its
        terminal signal to every subscriber (waiting or later). Disposing one subscriber
        does not dispose the upstream."""
        return self._assemble(self._ops.cache()(self))

    # ------------------------------------------------------------------ scheduling and time

    def subscribe_on(self, scheduler: Scheduler) -> Self:
        """Subscribe to this source in a task on ``scheduler``.

        The downstream gets its Disposable at once; disposing before the task ran
        cancels the task (the upstream is then never subscribed).
        """
        require_scheduler(scheduler)
        return self._assemble(self._ops.subscribe_on()(self, scheduler))

    def observe_on(self, scheduler: Scheduler) -> Self:
        """Deliver the terminal signal (item, completion or error) in a task on
        ``scheduler`` (nothing after a dispose)."""
        require_scheduler(scheduler)
        return self._assemble(self._ops.observe_on()(self, scheduler))

    def unsubscribe_on(self, scheduler: Scheduler) -> Self:
        """Run the upstream's ``dispose`` in a task on ``scheduler``; for a Completable,
        from the dispose on, a completion is dropped and an error goes to
        :func:`rxpy2.plugins.on_error` (RxJava 2's CompletableDisposeOn)."""
        require_scheduler(scheduler)
        return self._assemble(self._ops.unsubscribe_on()(self, scheduler))

    def timeout(self, timeout: float, scheduler: Scheduler | None = None,
                fallback: Self | None = None) -> Self:
        """``TimeoutError`` (as :meth:`rxpy2.Flowable.timeout`), or a switch to ``fallback``,
        when this source does not terminate within ``timeout`` seconds (on ``scheduler``,
        computation by default); the upstream is then disposed."""
        t = require_duration(timeout, "timeout")
        if fallback is not None:
            require_instance(fallback, self._root, "fallback")
        return self._assemble(self._ops.timeout()(
            self, t, time_args.scheduler_or_computation(scheduler), fallback))

    def delay_subscription(self, time: float | Publisher[Any] | ZeroOneBase,
                           scheduler: Scheduler | None = None) -> Self:
        """Subscribe to this source only later.

        ``time``: seconds (a timer on ``scheduler``, computation by default), or another
        source: a Publisher (its first item or completion), or a Single, Maybe or
        Completable (its success or completion). An error of that source is signalled
        instead; ``scheduler`` goes only with seconds.
        """
        require(time, "time")
        other = single_delay.source_as_publisher(time, scheduler)
        if other is None:
            return self._delay_subscription_timed(require_duration(time, "time"), scheduler)
        return self._assemble(self._ops.delay_with_publisher()(self, other))

    def _delay_subscription_timed(self, time: float, scheduler: Scheduler | None) -> Self:
        """``delay_subscription`` by seconds: until a ``Flowable.timer``'s item."""
        from rxpy2.flowable import Flowable
        timer = Flowable.timer(time, time_args.scheduler_or_computation(scheduler))
        return self._assemble(self._ops.delay_with_publisher()(self, timer))

    def take_until(self, other: Publisher[Any] | ZeroOneBase) -> Self:
        """This source, unless ``other`` comes first: the first item or completion of a
        Publisher, or the success or completion of a Single, Maybe or Completable, ends it
        and disposes this source. A Single then fails with
        ``concurrent.futures.CancelledError`` (RxJava's ``CancellationException``), a Maybe
        or Completable completes (empty); an error of ``other`` is signalled."""
        return self._assemble(self._ops.take_until()(self, single_take_until.take_until_other(other)))

    def amb_with(self, other: Self) -> Self:
        """Whichever of this and ``other`` signals first; the other is disposed."""
        require_instance(other, self._root, "other")
        return self._assemble(self._ops.amb()((self, other)))

    # ------------------------------------------------------------------ errors, retry

    def on_error_resume_next(self, fallback: Self | Callable[[BaseException], Self]) -> Self:
        """On error, continue with ``fallback`` (a source of this type) or the one
        ``fallback(error)`` returns."""
        require(fallback, "fallback")
        fn: Callable[[BaseException], Any]
        if isinstance(fallback, self._root):
            s = fallback
            fn = lambda _e: s  # noqa: E731
        else:
            require_callable(fallback, "fallback")
            fn = cast("Callable[[BaseException], Any]", fallback)
        return self._assemble(self._ops.resume_next()(self, fn))

    @overload
    def retry(self, times: int | None = None,
              predicate: Callable[[BaseException], bool] | None = None, *,
              bi_predicate: Callable[[int, BaseException], bool] | None = None) -> Self: ...

    @overload
    def retry(self, predicate: Callable[[BaseException], bool], /) -> Self: ...

    @overload
    def retry(self, bi_predicate: Callable[[int, BaseException], bool], /) -> Self: ...

    def retry(self, times: Any = None,
              predicate: Callable[[BaseException], bool] | None = None, *,
              bi_predicate: Callable[[int, BaseException], bool] | None = None) -> Self:
        """Resubscribe on error: at most ``times`` times (no limit by default), and only
        while ``predicate(error)`` holds; then the error goes downstream.

        ``bi_predicate(attempt, error)`` (RxJava 2's ``retry(BiPredicate)``, alone):
        resubscribe while it holds; ``attempt`` is 1 at the first error. A success or
        a completion goes downstream as it is.

        Built as RxJava 2 builds it, on :meth:`rxpy2.Flowable.retry` (``to_flowable()``,
        then back: ``single_or_error``, ``single_element``, ``ignore_elements``):
        resubscribing a synchronous source runs in a loop, not in nested calls.

        A function alone, positionally, is RxJava 2's form: ``retry(fn)`` is the
        ``predicate`` when ``fn`` takes one argument, the ``bi_predicate`` when it takes
        two (told by its signature).
        """
        times, predicate, bi_predicate = retry_function_form(times, predicate, bi_predicate,
                                                             None)
        n = single_retry.check_retry(times, predicate, bi_predicate)
        if bi_predicate is not None:
            return self._assemble(self._ops.retry_bi_predicate()(self, bi_predicate))
        back: Self = self._ops.from_flowable(self.to_flowable().retry(n, predicate))
        return back

    def retry_when(self, handler: Callable[[Flowable[BaseException]], Publisher[Any]]
                   ) -> Self:
        """Resubscribe when the Publisher ``handler(errors)`` signals an item.

        Per subscriber, ``handler`` gets a Flowable of this source's errors and returns
        a Publisher: each item resubscribes, its error is signalled. Its completion
        ends a Single with ``IndexError``, completes a Maybe empty (RxJava 2:
        ``single_element`` of the empty stream) or a Completable. Stack-safe like
        :meth:`retry`.
        """
        require_callable(handler, "handler")
        return self._assemble(self._ops.retry_when()(self, handler))

    # ------------------------------------------------------------------ side effects

    def _peek(self, *, on_subscribe: Any = None, on_error: Any = None,
              on_dispose: Any = None) -> Self:
        """The type's peek operator with the given callbacks (each type adds its own)."""
        raise NotImplementedError

    def do_on_error(self, fn: Callable[[BaseException], Any]) -> Self:
        """Call ``fn(error)`` before the error goes downstream."""
        require_callable(fn, "on_error")
        return self._peek(on_error=fn)

    def do_on_subscribe(self, fn: Callable[[Disposable], Any]) -> Self:
        """Call ``fn(disposable)`` on subscription (raising → dispose and ``on_error``)."""
        require_callable(fn, "on_subscribe")
        return self._peek(on_subscribe=fn)

    def do_on_dispose(self, fn: Callable[[], Any]) -> Self:
        """Call ``fn()`` when the downstream disposes before the terminal signal."""
        require_callable(fn, "on_dispose")
        return self._peek(on_dispose=fn)

    def do_on_terminate(self, fn: Callable[[], Any]) -> Self:
        """Call ``fn()`` before the terminal signal goes downstream (raising as in
        ``do_on_event``); not on dispose."""
        require_callable(fn, "on_terminate")
        return self._assemble(self._ops.do_on_event()(self, lambda _v, _e: fn()))

    def do_after_terminate(self, fn: Callable[[], Any]) -> Self:
        """Call ``fn()`` after the terminal signal went downstream (raising →
        :func:`rxpy2.plugins.on_error`); not on dispose (see :meth:`do_finally`)."""
        require_callable(fn, "on_after_terminate")
        return self._assemble(self._ops.do_after()(self, None, fn))

    def do_finally(self, fn: Callable[[], Any]) -> Self:
        """Call ``fn()`` once, after the terminal signal went downstream or on dispose."""
        require_callable(fn, "on_finally")
        return self._assemble(self._ops.do_finally()(self, fn))


class ItemOperators(NamedTuple):
    """The operators of :class:`ZeroOneItemBase`'s methods, as :class:`Operators`."""

    on_error_return: Op  # (source, fn(error) -> item)
    repeat_when: Op
    flat_map_publisher: Op


class ZeroOneItemBase(ZeroOneBase, Generic[T]):
    """What Single and Maybe share beyond :class:`ZeroOneBase`: the methods about the
    item; each sets ``_item_ops`` (its :class:`ItemOperators`)."""

    __slots__ = ()

    _item_ops: ClassVar[ItemOperators]

    def _peek(self, *, on_subscribe: Any = None, on_success: Any = None,
              on_error: Any = None, on_dispose: Any = None) -> Self:
        raise NotImplementedError

    def do_on_success(self, fn: Callable[[T], Any]) -> Self:
        """Call ``fn(item)`` before the item goes downstream (raising → ``on_error``)."""
        require_callable(fn, "on_success")
        return self._peek(on_success=fn)

    def do_after_success(self, fn: Callable[[T], Any]) -> Self:
        """Call ``fn(item)`` after the item went downstream (raising →
        :func:`rxpy2.plugins.on_error`)."""
        require_callable(fn, "on_after_success")
        return self._assemble(self._ops.do_after()(self, fn, None))

    def do_on_event(self, fn: Callable[[T | None, BaseException | None], Any]) -> Self:
        """Call ``fn(item, None)``, ``fn(None, error)`` or (a Maybe completing empty)
        ``fn(None, None)`` before the signal goes downstream.

        Raising turns the item or completion into that error, or joins the error
        (``CompositeException(error, raised)``).
        """
        require_callable(fn, "on_event")
        return self._assemble(self._ops.do_on_event()(self, fn))

    def on_error_return(self, fn: Callable[[BaseException], T]) -> Self:
        """On error, signal ``fn(error)`` as the item instead."""
        require_callable(fn, "fn")
        return self._assemble(self._item_ops.on_error_return()(self, fn))

    def on_error_return_item(self, item: T) -> Self:
        """On error, signal ``item`` instead."""
        require(item, "item")
        return self._assemble(self._item_ops.on_error_return()(self, lambda _e: item))

    def repeat(self, times: int | None = None) -> Flowable[T]:
        """A Flowable of the items, this source subscribed ``times`` times in a row
        (forever by default; ``repeat(0)`` is empty); an empty run adds nothing. An
        error ends it."""
        return self.to_flowable().repeat(single_retry.check_times(times))

    def repeat_until(self, stop: Callable[[], bool]) -> Flowable[T]:
        """A Flowable of the items: after each success (or empty completion), subscribe
        again unless ``stop()`` returns True (then complete)."""
        require_callable(stop, "stop")
        return self.to_flowable().repeat_until(stop)

    def repeat_when(self, handler: Callable[[Flowable[Any]], Publisher[Any]]) -> Flowable[T]:
        """A Flowable of the items, resubscribed when the Publisher ``handler(rounds)``
        signals an item.

        Per subscriber, ``handler`` gets a Flowable with an item after each repetition
        (once its item, if any, is delivered) and returns a Publisher: its items
        resubscribe, its completion completes the Flowable, its error is signalled.
        Stack-safe like :meth:`repeat`.
        """
        require_callable(handler, "handler")
        return assembly("flowable", self._item_ops.repeat_when()(self, handler))

    if TYPE_CHECKING:
        def to_flowable(self) -> Flowable[T]: ...

        def test(self, cancel: bool = False) -> TestObserver[T]:
            """Subscribe a new :class:`rxpy2.testing.TestObserver` of the item type and
            return it (:meth:`ZeroOneBase.test`, typed)."""
            ...

    def flat_map_publisher(self, mapper: Callable[[T], Publisher[R]]) -> Flowable[R]:
        """A Flowable of the items of the Publisher ``mapper(item)`` returns (empty for an
        empty Maybe).

        Downstream demand is kept until that Publisher is subscribed, then handed over.
        """
        require_callable(mapper, "mapper")
        return assembly("flowable", self._item_ops.flat_map_publisher()(self, mapper))

    def flatten_as_flowable(self, mapper: Callable[[T], Iterable[R]]) -> Flowable[R]:
        """A Flowable of the elements of the iterable ``mapper(item)`` returns, under
        backpressure (read one ahead, so completion comes with the last element); an
        empty Maybe completes."""
        require_callable(mapper, "mapper")
        return assembly("flowable", single_flatten_as_flowable.SingleFlattenAsFlowable(self, mapper))

    def flat_map_completable(self, mapper: Callable[[T], Completable]) -> Completable:
        """Continue with the Completable ``mapper(item)`` returns (an empty Maybe
        completes)."""
        require_callable(mapper, "mapper")
        return assembly("completable", single_flat_map_completable.SingleFlatMapCompletable(self, mapper))

    def ignore_element(self) -> Completable:
        """A Completable that completes when this source succeeds (the item is dropped)
        or completes."""
        return assembly("completable", completable_ignore_element.CompletableIgnoreElement(self))

    def materialize(self) -> Single[Notification[T]]:
        """A Single of the item, the empty completion or the error as a
        :class:`~rxpy2.notification.Notification`."""
        return assembly("single", single_materialize.SingleMaterialize(self))


class FunctionOp(Generic[T]):
    """The operator body of a 0-1 operator of one ``source`` and one user function ``fn``
    (a mixin): subscribing it subscribes ``observer_type(observer, fn)`` to the source
    (the operator's class attribute)."""

    __slots__ = ("source", "fn")

    observer_type: ClassVar[type[FunctionObserver[Any]]]

    def __init__(self, source: ZeroOneBase, fn: Callable[..., Any] | None) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(self.observer_type(observer, self.fn))


class FunctionObserver(Generic[T]):
    """The observer of a :class:`FunctionOp` (a mixin before its observer types): the
    upstream Disposable goes downstream as it is (``fn`` runs after the upstream ended),
    an error passes through; a subclass adds the signal ``fn`` acts on."""

    __slots__ = ("downstream", "fn")

    def __init__(self, downstream: Any, fn: Any) -> None:
        self.downstream = downstream
        self.fn = fn

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)
