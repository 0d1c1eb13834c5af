"""Flowable: a Reactive Streams Publisher with RxJava 2's operators.

``subscribe`` is final: it validates the subscriber, applies the subscribe hook,
wraps a plain Subscriber in a ``StrictSubscriber`` and calls
:meth:`Flowable.subscribe_actual`, which each source or operator implements.

Every fluent method below validates its arguments (``TypeError`` for ``None``
where a function or source is required, ``ValueError`` for bad sizes) and
returns an operator object from ``rxpy2/_internal/operators/flowable/``; the
operator modules are imported at the top, deferred (``rxpy2/_internal/lazy_import.py``),
so that importing ``rxpy2`` stays cheap.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import MutableMapping
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar
from typing import final
from typing import overload

from rxpy2 import plugins
from rxpy2._internal.arguments import ABSENT as ABSENT
from rxpy2._internal.arguments import BUFFER_SIZE as BUFFER_SIZE
from rxpy2._internal.arguments import checked_cast
from rxpy2._internal.arguments import int_after_sources
from rxpy2._internal.arguments import refuse_rxpy_observer
from rxpy2._internal.arguments import require
from rxpy2._internal.arguments import require_callable
from rxpy2._internal.arguments import require_duration
from rxpy2._internal.arguments import require_non_negative
from rxpy2._internal.arguments import require_positive
from rxpy2._internal.arguments import require_publisher
from rxpy2._internal.arguments import require_scheduler
from rxpy2._internal.arguments import require_type
from rxpy2._internal.arguments import retry_function_form
from rxpy2._internal.arguments import seed_first_form
from rxpy2._internal.arguments import sources_one_by_one
from rxpy2._internal.arguments import subscriber_like
from rxpy2._internal.arguments import trailing_function
from rxpy2._internal.assembly import user_site
from rxpy2._internal.combine_latest_signature import combine_latest_signature
from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.fuseable import is_flowable_subscriber as _is_flowable_subscriber
from rxpy2._internal.helpers import subscribe_loop as _loop
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscribe_loop import run as _run
from rxpy2._internal.name_trap import check_class as _check_fields
from rxpy2._internal.operators.flowable import flowable_all
from rxpy2._internal.operators.flowable import flowable_amb
from rxpy2._internal.operators.flowable import flowable_any
from rxpy2._internal.operators.flowable import flowable_asyncio
from rxpy2._internal.operators.flowable import flowable_blocking
from rxpy2._internal.operators.flowable import flowable_buffer
from rxpy2._internal.operators.flowable import flowable_buffer_boundary
from rxpy2._internal.operators.flowable import flowable_buffer_boundary_supplier
from rxpy2._internal.operators.flowable import flowable_buffer_exact_boundary
from rxpy2._internal.operators.flowable import flowable_buffer_timed
from rxpy2._internal.operators.flowable import flowable_checkpoint
from rxpy2._internal.operators.flowable import flowable_collect
from rxpy2._internal.operators.flowable import flowable_combine_latest
from rxpy2._internal.operators.flowable import flowable_concat
from rxpy2._internal.operators.flowable import flowable_concat_map
from rxpy2._internal.operators.flowable import flowable_concat_map_completable
from rxpy2._internal.operators.flowable import flowable_concat_map_eager
from rxpy2._internal.operators.flowable import flowable_concat_map_maybe
from rxpy2._internal.operators.flowable import flowable_count
from rxpy2._internal.operators.flowable import flowable_create
from rxpy2._internal.operators.flowable import flowable_debounce
from rxpy2._internal.operators.flowable import flowable_debounce_timed
from rxpy2._internal.operators.flowable import flowable_defer
from rxpy2._internal.operators.flowable import flowable_delay
from rxpy2._internal.operators.flowable import flowable_delay_subscription_other
from rxpy2._internal.operators.flowable import flowable_dematerialize
from rxpy2._internal.operators.flowable import flowable_detach
from rxpy2._internal.operators.flowable import flowable_distinct
from rxpy2._internal.operators.flowable import flowable_distinct_until_changed
from rxpy2._internal.operators.flowable import flowable_do_after_next
from rxpy2._internal.operators.flowable import flowable_do_finally
from rxpy2._internal.operators.flowable import flowable_do_on_each
from rxpy2._internal.operators.flowable import flowable_do_on_lifecycle
from rxpy2._internal.operators.flowable import flowable_element_at
from rxpy2._internal.operators.flowable import flowable_empty
from rxpy2._internal.operators.flowable import flowable_error
from rxpy2._internal.operators.flowable import flowable_filter
from rxpy2._internal.operators.flowable import flowable_flat_map
from rxpy2._internal.operators.flowable import flowable_flat_map_completable
from rxpy2._internal.operators.flowable import flowable_flat_map_maybe
from rxpy2._internal.operators.flowable import flowable_flat_map_single
from rxpy2._internal.operators.flowable import flowable_flatten_iterable
from rxpy2._internal.operators.flowable import flowable_from_array
from rxpy2._internal.operators.flowable import flowable_from_callable
from rxpy2._internal.operators.flowable import flowable_from_iterable
from rxpy2._internal.operators.flowable import flowable_from_publisher
from rxpy2._internal.operators.flowable import flowable_future
from rxpy2._internal.operators.flowable import flowable_generate
from rxpy2._internal.operators.flowable import flowable_group_by
from rxpy2._internal.operators.flowable import flowable_group_join
from rxpy2._internal.operators.flowable import flowable_hide
from rxpy2._internal.operators.flowable import flowable_ignore_elements
from rxpy2._internal.operators.flowable import flowable_interval
from rxpy2._internal.operators.flowable import flowable_join
from rxpy2._internal.operators.flowable import flowable_just
from rxpy2._internal.operators.flowable import flowable_last
from rxpy2._internal.operators.flowable import flowable_lift
from rxpy2._internal.operators.flowable import flowable_limit
from rxpy2._internal.operators.flowable import flowable_log
from rxpy2._internal.operators.flowable import flowable_map
from rxpy2._internal.operators.flowable import flowable_map_filter
from rxpy2._internal.operators.flowable import flowable_map_notification
from rxpy2._internal.operators.flowable import flowable_materialize
from rxpy2._internal.operators.flowable import flowable_merge_with_completable
from rxpy2._internal.operators.flowable import flowable_merge_with_single
from rxpy2._internal.operators.flowable import flowable_multicast_selector
from rxpy2._internal.operators.flowable import flowable_never
from rxpy2._internal.operators.flowable import flowable_observe_on
from rxpy2._internal.operators.flowable import flowable_on_backpressure
from rxpy2._internal.operators.flowable import flowable_on_error_next
from rxpy2._internal.operators.flowable import flowable_on_error_return
from rxpy2._internal.operators.flowable import flowable_publish
from rxpy2._internal.operators.flowable import flowable_publish_multicast
from rxpy2._internal.operators.flowable import flowable_range
from rxpy2._internal.operators.flowable import flowable_rebatch_requests
from rxpy2._internal.operators.flowable import flowable_reduce
from rxpy2._internal.operators.flowable import flowable_repeat
from rxpy2._internal.operators.flowable import flowable_replay
from rxpy2._internal.operators.flowable import flowable_retry
from rxpy2._internal.operators.flowable import flowable_retry_when
from rxpy2._internal.operators.flowable import flowable_sample_publisher
from rxpy2._internal.operators.flowable import flowable_sample_timed
from rxpy2._internal.operators.flowable import flowable_scalar_x_map
from rxpy2._internal.operators.flowable import flowable_scan
from rxpy2._internal.operators.flowable import flowable_sequence_equal
from rxpy2._internal.operators.flowable import flowable_serialize
from rxpy2._internal.operators.flowable import flowable_single
from rxpy2._internal.operators.flowable import flowable_skip
from rxpy2._internal.operators.flowable import flowable_skip_last
from rxpy2._internal.operators.flowable import flowable_skip_last_timed
from rxpy2._internal.operators.flowable import flowable_skip_until
from rxpy2._internal.operators.flowable import flowable_skip_while
from rxpy2._internal.operators.flowable import flowable_subscribe_on
from rxpy2._internal.operators.flowable import flowable_switch_if_empty
from rxpy2._internal.operators.flowable import flowable_switch_map
from rxpy2._internal.operators.flowable import flowable_switch_map_completable
from rxpy2._internal.operators.flowable import flowable_switch_map_maybe
from rxpy2._internal.operators.flowable import flowable_sync_chain
from rxpy2._internal.operators.flowable import flowable_take
from rxpy2._internal.operators.flowable import flowable_take_last
from rxpy2._internal.operators.flowable import flowable_take_last_timed
from rxpy2._internal.operators.flowable import flowable_take_until
from rxpy2._internal.operators.flowable import flowable_take_while
from rxpy2._internal.operators.flowable import flowable_throttle_first_timed
from rxpy2._internal.operators.flowable import flowable_throttle_latest
from rxpy2._internal.operators.flowable import flowable_time_interval
from rxpy2._internal.operators.flowable import flowable_timeout
from rxpy2._internal.operators.flowable import flowable_timeout_timed
from rxpy2._internal.operators.flowable import flowable_timer
from rxpy2._internal.operators.flowable import flowable_to_list
from rxpy2._internal.operators.flowable import flowable_unsubscribe_on
from rxpy2._internal.operators.flowable import flowable_using
from rxpy2._internal.operators.flowable import flowable_window
from rxpy2._internal.operators.flowable import flowable_window_boundary
from rxpy2._internal.operators.flowable import flowable_window_boundary_selector
from rxpy2._internal.operators.flowable import flowable_window_boundary_supplier
from rxpy2._internal.operators.flowable import flowable_window_timed
from rxpy2._internal.operators.flowable import flowable_with_latest_from
from rxpy2._internal.operators.flowable import flowable_zip
from rxpy2._internal.operators.flowable import time_args
from rxpy2._internal.operators.parallel import parallel_from_publisher
from rxpy2._internal.subscribers import for_each_while
from rxpy2._internal.subscribers import lambda_subscriber
from rxpy2._internal.subscribers import safe
from rxpy2._internal.subscribers import strict
from rxpy2._internal.subscriptions.empty import EmptySubscription as _EmptySubscription
from rxpy2._internal.type_vars import T1
from rxpy2._internal.type_vars import T2
from rxpy2._internal.type_vars import T3
from rxpy2._internal.type_vars import T4
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import R

# ABSENT and BUFFER_SIZE: re-exported (explicit ``as``) for modules that import them from here
from rxpy2._internal.type_vars import T
from rxpy2._internal.type_vars import U
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2._internal.zero_one import pipe_functions
from rxpy2.backpressure import BackpressureOverflowStrategy
from rxpy2.backpressure import BackpressureStrategy
from rxpy2.disposables import Disposable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers.scheduler import check_time

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures
    import logging
    from collections.abc import AsyncIterable
    from collections.abc import AsyncIterator
    from collections.abc import Iterator

    from rxpy2._internal.helpers.fused_stage import FusedStage
    from rxpy2.completable import Completable
    from rxpy2.connectable_flowable import ConnectableFlowable
    from rxpy2.grouped_flowable import GroupedFlowable
    from rxpy2.maybe import Maybe
    from rxpy2.notification import Notification
    from rxpy2.parallel import ParallelFlowable
    from rxpy2.schedulers.scheduler import Scheduler
    from rxpy2.single import Single
    from rxpy2.testing.test_subscriber import TestSubscriber
    from rxpy2.timed import Timed

__all__ = ["Flowable"]

#: plugins' hook flag, read where a flat_map mapper's ``just``/``range`` pays it per item
_plugin_flags = plugins.flags

S = TypeVar("S")
K = TypeVar("K")
V = TypeVar("V")
SubscriberT = TypeVar("SubscriberT", bound=Subscriber[Any])
_A = TypeVar("_A")  # the results of pipe's functions
_B = TypeVar("_B")
_C = TypeVar("_C")
_D = TypeVar("_D")
_E = TypeVar("_E")
_F = TypeVar("_F")
_S = TypeVar("_S")  # the _single/_maybe/_completable_assembly helpers return what they get
# the type of a ``default`` that may differ from the items' (blocking_first & co.)
D = TypeVar("D")
if TYPE_CHECKING:
    from typing_extensions import TypeVar as _TypeVarWithDefault

    from rxpy2.emitter import Emitter
    from rxpy2.emitter import FlowableEmitter

    # generate's item type: the generator's emitter parameter says it, else Any (not Never)
    _G = _TypeVarWithDefault("_G", default=Any)


def _default_scheduler(scheduler: Any) -> Any:
    if scheduler is None:
        return Schedulers.computation()
    require_scheduler(scheduler)
    return scheduler


def _trace(source: Any, subscriber: Any) -> Any:
    return flowable_checkpoint.trace_subscriber(source, subscriber)


#: The Flowable's part in the subscribe loop: its hook key, the upstream a failed
#: subscriber gets before on_error (§1.9), the stage assembly tracking subscribes.
_FLOWABLE = _loop.Kind("flowable", FlowableSubscriber, _EmptySubscription.INSTANCE, _trace)

_SUBSCRIBER_EXPECTED = "a Subscriber (on_subscribe, on_next, on_error, on_complete) or callbacks"


def _is_publisher(obj: Any) -> bool:
    return isinstance(obj, Publisher)


def _require_sources(sources: tuple[Any, ...], iterable_form: str) -> None:
    """Each of ``sources`` a Publisher; one iterable instead of them (RxJava 2's
    ``zip(Iterable, zipper)``) is a ``TypeError`` naming ``iterable_form``."""
    if (len(sources) == 1 and not isinstance(sources[0], Publisher)
            and isinstance(sources[0], Iterable)):
        raise TypeError(f"source 0 must be a Publisher, not {type(sources[0]).__name__}: "
                        f"did you mean {iterable_form}(sources, fn)?")
    for i, p in enumerate(sources):
        require_publisher(p, f"source {i}")


def _not_a_time(count: Any, skip: Any, timed: str) -> None:
    """``buffer(0.5)`` / ``window(0.5)``: a float count is a ``TypeError`` pointing at the
    timed form (RxJava's ``buffer(timespan, unit)`` is rxpy2's ``buffer_time``)."""
    if isinstance(count, float):
        more = "" if skip is None else f", timeskip={skip!r}"
        raise TypeError(f"count must be an int, not float: did you mean {timed}({count!r}{more})?")


def _combiner_and_prefetch(args: tuple[Any, ...], combiner: Any,
                           prefetch: Any) -> tuple[Any, int]:
    """``flat_map_iterable``'s positional arguments after the mapper: ``(prefetch)``,
    ``(combiner)`` or ``(combiner, prefetch)`` (a callable is the combiner)."""
    if len(args) > 2:
        raise TypeError("flat_map_iterable takes (mapper[, prefetch]) or "
                        "(mapper, combiner[, prefetch])")
    if args:
        if callable(args[0]):
            if combiner is not None:
                raise TypeError("flat_map_iterable got two combiners")
            combiner = args[0]
            if len(args) == 2:
                prefetch = args[1]
        elif len(args) == 2:
            raise TypeError(f"combiner must be callable, not {type(args[0]).__name__}")
        else:
            prefetch = args[0]
    if combiner is not None:
        require_callable(combiner, "combiner")
    require_positive(prefetch, "prefetch")
    return combiner, prefetch


def _iterable_publisher(mapper: Callable[[Any], Iterable[Any]]) -> Callable[[Any], Flowable[Any]]:
    """``mapper``'s iterable as a Flowable of its elements (``None`` is a ``TypeError``)."""
    def to_publisher(item: Any) -> Flowable[Any]:
        it = mapper(item)
        if it is None:
            raise TypeError("the mapper returned None instead of an iterable")
        return Flowable.from_iterable(it)
    return to_publisher


def _assembly(f: Flowable[T]) -> Flowable[T]:
    if _plugin_flags.hooks_active:
        return plugins.on_assembly("flowable", f)
    return f


def _fuse(upstream: Flowable[Any], stage: FusedStage, arg: Any,
          map_or_filter: bool = False) -> Flowable[Any] | None:
    """Macro fusion at assembly: the stage (its operator's declaration, ``STAGE``) joins a
    synchronous chain (a sync source and stages, run as one loop) or, for map/filter,
    collapses with a map/filter before it; ``None`` when it stays an operator of its own
    (always while assembly tracking is on: each stage keeps its own assembly site)."""
    if _plugin_flags.hooks_active and _plugin_flags.track_assembly:
        return None
    fused = flowable_sync_chain.fuse_sync_stage(upstream, stage, arg)
    if fused is None and map_or_filter:
        fused = flowable_map_filter.collapse_map_filter(upstream, stage, arg)
    return None if fused is None else _assembly(fused)


class Flowable(Publisher[T], Generic[T]):
    """A backpressured stream of 0..N items followed by an optional terminal event."""

    # Weakly referenceable: assembly tracking keeps each stage's site beside it
    # (rxpy2._internal.assembly) without keeping it alive. CPython leaves a __weakref__
    # slot out of the layout check of multiple bases; mypy counts it (a slotted mixin
    # and this base would be "disjoint bases"), so type checkers see no slot.
    if TYPE_CHECKING:
        __slots__ = ()
    else:
        __slots__ = ("__weakref__",)

    #: the Flowable's part in the subscribe loop (``subscribe_loop.subscribe_tail``)
    _loop_kind: ClassVar[_loop.Kind] = _FLOWABLE

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "subscribe" in cls.__dict__:
            raise TypeError(f"{cls.__name__} must not override Flowable.subscribe; "
                            "implement subscribe_actual instead")
        _check_fields(cls)  # no name trap: a field never hides a fluent method

    # ------------------------------------------------------------------ subscribing

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        """Implemented by every source and operator; ``subscriber`` is a FlowableSubscriber."""
        raise NotImplementedError

    @overload
    def subscribe(self, subscriber: Subscriber[T], /) -> None: ...

    @overload
    def subscribe(self, on_next: Callable[[T], Any] = ...,
                  on_error: Callable[[BaseException], Any] | None = None,
                  on_complete: Callable[[], Any] | None = None,
                  on_subscribe: Callable[[Subscription], Any] | None = None) -> Disposable: ...

    @final
    def subscribe(self, on_next: Any = ABSENT, on_error: Any = None,
                  on_complete: Any = None, on_subscribe: Any = None) -> Disposable | None:
        """Subscribe a :class:`Subscriber`, or callbacks (returning a :class:`Disposable`).

        * ``subscribe(subscriber)``: the Reactive Streams method; ``TypeError`` on
          ``None``. A Subscriber that is not a FlowableSubscriber is wrapped in a
          StrictSubscriber, which enforces the spec to the letter.
        * ``subscribe(on_next=..., on_error=..., on_complete=...)``: requests
          everything; without ``on_error`` an error goes to
          :func:`rxpy2.plugins.on_error` as ``OnErrorNotImplementedException``.
          Passing ``on_next=None`` explicitly is a ``TypeError`` (as RxJava's null
          Consumer is); leave it out to ignore the items.
        * ``on_subscribe(subscription)``, with the callbacks: called instead of the
          request for everything, with the Subscription (the returned Disposable): it
          requests what it wants (RxJava's ``subscribe(onNext, onError, onComplete,
          onSubscribe)``); if it raises, the upstream is cancelled and ``on_error`` gets it.
        """
        if isinstance(on_next, Subscriber) or subscriber_like(on_next):
            if on_error is not None or on_complete is not None or on_subscribe is not None:
                raise TypeError("subscribe(subscriber) takes no callbacks")
            self._subscribe(on_next)
            return None
        if on_next is None:
            raise TypeError("subscriber is None")
        if on_next is not ABSENT:
            if not callable(on_next):
                refuse_rxpy_observer(on_next, _SUBSCRIBER_EXPECTED)
            require_callable(on_next, "on_next")
        if on_error is not None:
            require_callable(on_error, "on_error")
        if on_complete is not None:
            require_callable(on_complete, "on_complete")
        if on_subscribe is not None:
            require_callable(on_subscribe, "on_subscribe")
        ls: lambda_subscriber.LambdaSubscriber[T] = lambda_subscriber.LambdaSubscriber(
            None if on_next is ABSENT else on_next, on_error, on_complete, on_subscribe)
        self._subscribe(ls)
        return ls

    @final
    def _subscribe(self, subscriber: Subscriber[T]) -> None:
        """Subscribe in the loop of ``subscribe_loop`` (no frame per stage of a chain)."""
        if not _is_flowable_subscriber(subscriber):  # isinstance, cached per class
            subscriber = self._prepare_subscriber(subscriber)
        _run(self, subscriber, _FLOWABLE)

    @final
    def _prepare_subscriber(self, subscriber: Subscriber[T]) -> Subscriber[T]:
        """Check a subscriber that is not a FlowableSubscriber and wrap it in a
        StrictSubscriber, which holds it to the spec to the letter."""
        if subscriber is None:
            raise TypeError("subscriber is None")
        if not isinstance(subscriber, Subscriber) and not subscriber_like(subscriber):
            refuse_rxpy_observer(subscriber, _SUBSCRIBER_EXPECTED)
            raise TypeError("subscribe needs a Subscriber (on_subscribe, on_next, on_error, "
                            f"on_complete) or callbacks, not {type(subscriber).__name__}")
        return strict.StrictSubscriber(subscriber)

    def subscribe_with(self, subscriber: SubscriberT) -> SubscriberT:
        """Subscribe ``subscriber`` and return it (handy for ``TestSubscriber`` and the like)."""
        self.subscribe(subscriber)
        return subscriber

    def for_each(self, on_next: Callable[[T], Any]) -> Disposable:
        """Call ``on_next(item)`` for every item, requesting everything; the same as
        ``subscribe(on_next)`` (RxJava's ``forEach``). Returns the Disposable."""
        require_callable(on_next, "on_next")
        return self.subscribe(on_next)

    def for_each_while(self, predicate: Callable[[T], bool],
                       on_error: Callable[[BaseException], Any] | None = None,
                       on_complete: Callable[[], Any] | None = None) -> Disposable:
        """Call ``predicate(item)`` for every item until it returns false; that cancels the
        upstream and calls ``on_complete``, as the end of the stream does.

        A raising ``predicate`` cancels the upstream and goes to ``on_error``; without
        ``on_error`` an error goes to :func:`rxpy2.plugins.on_error` (as ``subscribe``).
        Returns the Disposable.
        """
        require_callable(predicate, "predicate")
        if on_error is not None:
            require_callable(on_error, "on_error")
        if on_complete is not None:
            require_callable(on_complete, "on_complete")
        s: for_each_while.ForEachWhileSubscriber[T] = for_each_while.ForEachWhileSubscriber(predicate, on_error,
                                                                          on_complete)
        self.subscribe(s)
        return s

    def safe_subscribe(self, subscriber: Subscriber[T]) -> None:
        """Subscribe ``subscriber`` through a guard that keeps its exceptions away from the
        source: one out of ``on_next`` cancels the upstream and becomes ``on_error``; one out
        of another method goes to :func:`rxpy2.plugins.on_error`."""
        if subscriber is None:
            raise TypeError("subscriber is None")
        if not isinstance(subscriber, safe.SafeSubscriber):
            subscriber = safe.SafeSubscriber(subscriber)
        self.subscribe(subscriber)

    def test(self, initial_request: int = LONG_MAX, cancel: bool = False) -> TestSubscriber[T]:
        """Subscribe a new :class:`rxpy2.testing.TestSubscriber` and return it."""
        from rxpy2.testing.test_subscriber import TestSubscriber  # loaded on first use

        ts: TestSubscriber[T] = TestSubscriber(initial_request=initial_request)
        if cancel:
            ts.cancel()
        self.subscribe(ts)
        return ts

    # ------------------------------------------------------------------ readable at runtime

    def __repr__(self) -> str:
        """The chain: ``range(1, 9) → map(parse) → filter(<lambda>)``."""
        from rxpy2._internal import describe  # loaded on first use: import stays cheap

        return describe.chain_repr(self)

    def explain(self) -> str:
        """The chain, one line per stage from the source on: the operator, its user
        functions (a lambda with its file:line) and how it runs (stages macro-fused into
        one loop; the micro fusion the operator takes part in, where its class says)."""
        from rxpy2._internal import describe

        return describe.explain(self)

    # ------------------------------------------------------------------ extension

    def lift(self, operator: Callable[[Subscriber[R]], Subscriber[T]]) -> Flowable[R]:
        """Apply a custom operator: ``operator(downstream)`` returns the upstream-facing Subscriber."""
        require_callable(operator, "operator")
        return _assembly(flowable_lift.FlowableLift(self, operator))

    def compose(self, transformer: Callable[[Flowable[T]], Publisher[R]]) -> Flowable[R]:
        """Apply a function to this whole Flowable: ``transformer(self)``, as a Flowable."""
        require_callable(transformer, "transformer")
        return Flowable.from_publisher(transformer(self))

    def to(self, converter: Callable[[Flowable[T]], R]) -> R:
        """Convert this Flowable with ``converter(self)`` into any value."""
        require_callable(converter, "converter")
        return converter(self)

    @overload
    def pipe(self) -> Flowable[T]: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], /) -> _A: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], f2: Callable[[_A], _B], /) -> _B: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], f2: Callable[[_A], _B],
             f3: Callable[[_B], _C], /) -> _C: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], f2: Callable[[_A], _B],
             f3: Callable[[_B], _C], f4: Callable[[_C], _D], /) -> _D: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], f2: Callable[[_A], _B],
             f3: Callable[[_B], _C], f4: Callable[[_C], _D], f5: Callable[[_D], _E],
             /) -> _E: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], f2: Callable[[_A], _B],
             f3: Callable[[_B], _C], f4: Callable[[_C], _D], f5: Callable[[_D], _E],
             f6: Callable[[_E], _F], /) -> _F: ...

    @overload
    def pipe(self, f1: Callable[[Flowable[T]], _A], f2: Callable[[_A], _B],
             f3: Callable[[_B], _C], f4: Callable[[_C], _D], f5: Callable[[_D], _E],
             f6: Callable[[_E], _F], f7: Callable[[_F], Any], /,
             *functions: Callable[[Any], Any]) -> Any: ...

    def pipe(self, *functions: Callable[[Any], Any]) -> Any:
        """``flowable.pipe(f, g)`` is ``g(f(flowable))``, called now: RxPY's ``pipe``, as
        :meth:`to` applied in turn (a function may return any value, the next one gets
        it; a function that returns a Flowable is what :meth:`compose` takes). Typed for
        up to six functions. ``pipe()`` is this Flowable."""
        return pipe_functions(self, functions)

    def log(self, name_or_logger: str | logging.Logger | logging.LoggerAdapter[Any] | None
            = None, level: int | str = 20) -> Flowable[T]:  # 20 = logging.INFO: logging loads at first log()
        """Log each signal through :mod:`logging`, as Reactor's ``log()``: one record per
        ``on_subscribe``, ``request(n)`` (``request(unbounded)``), ``on_next(item)``,
        ``on_error``, ``on_complete`` and ``cancel``, at ``level`` (``logging.INFO`` by
        default, or a level name), on the logger given or named (``rxpy2.log`` by
        default). The signals pass unchanged. Whether to log is decided at subscribe
        time (``logger.isEnabledFor(level)``): when not, the subscription has no stage
        here and costs nothing; when it logs, no fusion crosses it."""
        logger = flowable_log.resolve_logger(name_or_logger)
        lvl = flowable_log.check_level(level)
        return _assembly(flowable_log.FlowableLog(self, logger, lvl))

    def checkpoint(self, description: str | None = None) -> Flowable[T]:
        """Mark this point of the chain for debugging, as Reactor's ``checkpoint()``: an
        error passing here (from any thread) gets a note (``BaseException.add_note``)
        naming ``description``, the ``file:line`` of the code that called
        ``checkpoint`` and the chain before it, e.g. ``rxpy2 checkpoint 'load':
        assembled at app.py:42 in main, after just(1) → map(parse)``; once per exception
        and checkpoint. Items, requests and cancellation pass unchanged, and so does
        fusion. See :func:`rxpy2.plugins.set_assembly_tracking` for every operator at
        once."""
        flowable_checkpoint.require_description(description)
        return _assembly(flowable_checkpoint.FlowableCheckpoint(self, description, user_site()))

    # ------------------------------------------------------------------ sources

    @staticmethod
    def buffer_size() -> int:
        """The default buffer size and prefetch of the operators (128, as RxJava 2's
        ``Flowable.bufferSize()``; ``rxpy2.operator_kit.BUFFER_SIZE``)."""
        return BUFFER_SIZE

    @staticmethod
    def from_publisher(source: Publisher[ItemT]) -> Flowable[ItemT]:
        """A Flowable view of any Reactive Streams Publisher (itself when it is a Flowable)."""
        require_publisher(source, "source")
        if isinstance(source, Flowable):
            return source
        return _assembly(flowable_from_publisher.FlowableFromPublisher(source))

    @staticmethod
    def unsafe_create(source: Callable[[Subscriber[ItemT]], Any] | Publisher[ItemT]) -> Flowable[ItemT]:
        """Calls ``source(subscriber)`` per subscriber with the subscriber itself: no
        protection, so ``source`` must call ``on_subscribe`` first and keep the protocol
        (RxJava 2's ``unsafeCreate``; a plain Subscriber is still wrapped in a
        ``StrictSubscriber`` by :meth:`subscribe`). A Publisher that is not a Flowable is
        taken as :meth:`from_publisher` takes it; a Flowable is refused (``TypeError``), as
        in RxJava 2: use it as it is."""
        require(source, "source")
        if isinstance(source, Flowable):
            raise TypeError("unsafe_create() of a Flowable: use the Flowable itself")
        if isinstance(source, Publisher):
            return _assembly(flowable_from_publisher.FlowableFromPublisher(source))
        require_callable(source, "source")
        return _assembly(flowable_from_publisher.FlowableUnsafeCreate(source))

    @staticmethod
    def range(start: int, count: int) -> Flowable[int]:
        """``count`` consecutive ints from ``start``."""
        if type(count) is int and count > 1 and type(start) is int:
            # the common case (inners built per item by flat_map/concat_map mappers), kept
            # short: no call but the constructor's
            if _plugin_flags.hooks_active:
                return plugins.on_assembly("flowable", flowable_range.FlowableRange(start, count))
            return flowable_range.FlowableRange(start, count)
        require_non_negative(count, "count")
        if not isinstance(start, int):
            raise TypeError(f"start must be an int, not {type(start).__name__}")
        if count == 0:
            return Flowable.empty()
        if count == 1:
            return Flowable.just(start)
        return _assembly(flowable_range.FlowableRange(start, count))

    @staticmethod
    def just(item: ItemT, *items: ItemT) -> Flowable[ItemT]:
        """The given items (one or more; ``None`` is refused), then completion."""
        if item is not None and not items:  # the common case (flat_map mappers), kept short
            # FlowableJust.of(item), inlined: a flat_map mapper returning just(x) pays this
            # once per item (docs/performance.md)
            just: flowable_just.FlowableJust[ItemT] = flowable_just.FlowableJust()
            just.value = item
            if _plugin_flags.hooks_active:
                return plugins.on_assembly("flowable", just)
            return just
        everything = (item, *items)
        for i, x in enumerate(everything):
            if x is None:
                raise TypeError(f"item {i} is None")
        return _assembly(flowable_from_array.FlowableFromArray(everything))

    @staticmethod
    def from_array(items: Sequence[ItemT]) -> Flowable[ItemT]:
        """The items of a sequence (list, tuple, ...), by index, then completion."""
        require(items, "items")
        n = len(items)
        if n == 0:
            return Flowable.empty()
        if n == 1:
            return Flowable.just(items[0])
        return _assembly(flowable_from_array.FlowableFromArray(items))

    @staticmethod
    def from_iterable(iterable: Iterable[ItemT]) -> Flowable[ItemT]:
        """The items of an iterable; each subscriber calls ``iter()`` anew."""
        require(iterable, "iterable")
        return _assembly(flowable_from_iterable.FlowableFromIterable(iterable))

    @staticmethod
    def empty() -> Flowable[ItemT]:
        """Completes at once."""
        return _assembly(flowable_empty.FlowableEmpty.INSTANCE)

    @staticmethod
    def never() -> Flowable[ItemT]:
        """Signals nothing but ``on_subscribe``."""
        return _assembly(flowable_never.FlowableNever.INSTANCE)

    @staticmethod
    def error(error: BaseException | Callable[[], BaseException]) -> Flowable[ItemT]:
        """Signals ``error`` at once; a callable is called per subscriber for a fresh error."""
        require(error, "error")
        if isinstance(error, BaseException):
            err = error
            return _assembly(flowable_error.FlowableError(lambda: err))
        require_callable(error, "error")
        return _assembly(flowable_error.FlowableError(error))

    @staticmethod
    def from_callable(supplier: Callable[[], ItemT | None]) -> Flowable[ItemT]:
        """Calls ``supplier`` per subscriber; emits its result (``None`` means empty)."""
        require_callable(supplier, "supplier")
        return _assembly(flowable_from_callable.FlowableFromCallable(supplier))

    @staticmethod
    def defer(supplier: Callable[[], Publisher[ItemT]]) -> Flowable[ItemT]:
        """Calls ``supplier`` per subscriber for the Publisher to subscribe to."""
        require_callable(supplier, "supplier")
        return _assembly(flowable_defer.FlowableDefer(supplier))

    @staticmethod
    def using(resource_supplier: Callable[[], U], source_supplier: Callable[[U], Publisher[ItemT]],
              disposer: Callable[[U], Any], eager: bool = True) -> Flowable[ItemT]:
        """Per subscriber: acquire ``resource_supplier()``, emit the items of the Publisher
        ``source_supplier(resource)``, and call ``disposer(resource)`` once: before the
        terminal signal goes downstream when ``eager``, after it otherwise, or on cancel.

        ``with``-statement cleanup for a stream: a file, a connection, a cursor. A
        ``disposer`` error becomes the error when ``eager`` (joined with an upstream error
        in a ``CompositeException``), else goes to :func:`rxpy2.plugins.on_error`.
        """
        require_callable(resource_supplier, "resource_supplier")
        require_callable(source_supplier, "source_supplier")
        require_callable(disposer, "disposer")
        return _assembly(flowable_using.FlowableUsing(resource_supplier, source_supplier, disposer,
                                             bool(eager)))

    @staticmethod
    def create(source: Callable[[FlowableEmitter[ItemT]], Any],
               mode: BackpressureStrategy) -> Flowable[ItemT]:
        """A push source: ``source(emitter)`` emits through a :class:`FlowableEmitter`.

        ``mode`` says what happens to items that find no demand (see
        :class:`BackpressureStrategy`).
        """
        require_callable(source, "source")
        if not isinstance(mode, BackpressureStrategy):
            raise TypeError(f"mode must be a BackpressureStrategy, not {mode!r}")
        return _assembly(flowable_create.FlowableCreate(source, mode))

    @staticmethod
    def generate(initial_state: Callable[[], S] | None, generator: Callable[[S, Emitter[_G]], S],
                 dispose_state: Callable[[S], Any] | None = None) -> Flowable[_G]:
        """A pull source: ``generator(state, emitter)`` emits at most one item per call.

        ``initial_state`` is called per subscriber (``None`` for a stateless
        generator, whose ``state`` is then ``None``); the generator returns the
        next state; ``dispose_state`` runs once at the end or on cancel.
        """
        require_callable(generator, "generator")
        if initial_state is not None:
            require_callable(initial_state, "initial_state")
        if dispose_state is not None:
            require_callable(dispose_state, "dispose_state")
        return _assembly(flowable_generate.FlowableGenerate(initial_state, generator, dispose_state))

    @overload
    @staticmethod
    def concat(sources: Iterable[Publisher[ItemT]] | Publisher[Publisher[ItemT]],
               prefetch: int = 2) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def concat(s1: Publisher[ItemT], s2: Publisher[ItemT], /, *sources: Publisher[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_one_by_one(_is_publisher, lambda s: Flowable.concat_array(*s))
    def concat(sources: Any, prefetch: int = 2) -> Flowable[Any]:
        """Each source in turn, subscribing to the next when one completes.

        ``sources`` is an iterable of Publishers or a Publisher of Publishers (asked
        for ``prefetch`` of them ahead). ``concat(a, b, ...)``, Publishers one by one
        (RxJava 2's ``concat(source1, source2)``), is :meth:`concat_array`.
        """
        require(sources, "sources")
        int_after_sources(prefetch, "prefetch", "concat", "concat_array")
        if isinstance(sources, Publisher):
            return Flowable.from_publisher(sources).concat_map(_identity, prefetch)
        return _assembly(flowable_concat.FlowableConcatIterable(sources, False))

    @staticmethod
    def concat_array(*sources: Publisher[ItemT]) -> Flowable[ItemT]:
        """The given sources in turn, subscribing to the next when one completes."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        if not sources:
            return Flowable.empty()
        if len(sources) == 1:
            return Flowable.from_publisher(sources[0])
        return _assembly(flowable_concat.FlowableConcatArray(sources, False))

    @staticmethod
    def concat_array_delay_error(*sources: Publisher[ItemT]) -> Flowable[ItemT]:
        """As :meth:`concat_array`, but errors wait until every source ran."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        if not sources:
            return Flowable.empty()
        return _assembly(flowable_concat.FlowableConcatArray(sources, True))

    # ------------------------------------------------------------------ 1:1 transforms

    def map(self, mapper: Callable[[T], R]) -> Flowable[R]:
        """Apply ``mapper`` to each item (a ``None`` result is a ``TypeError`` downstream)."""
        require_callable(mapper, "mapper")
        fused = _fuse(self, flowable_map.FlowableMap.STAGE, mapper, True)
        if fused is not None:
            return fused
        return _assembly(flowable_map.FlowableMap(self, mapper))

    def filter(self, predicate: Callable[[T], bool]) -> Flowable[T]:
        """Only the items for which ``predicate`` is true."""
        require_callable(predicate, "predicate")
        fused = _fuse(self, flowable_filter.FlowableFilter.STAGE, predicate, True)
        if fused is not None:
            return fused
        return _assembly(flowable_filter.FlowableFilter(self, predicate))

    def of_type(self, cls: type[U]) -> Flowable[U]:
        """Only the items that are instances of ``cls`` (``isinstance``; a tuple of types
        works too)."""
        require_type(cls)
        return self.filter(lambda x: isinstance(x, cls))  # type: ignore[return-value]  # narrowed at runtime

    def cast(self, cls: type[U]) -> Flowable[U]:
        """Each item, checked to be an instance of ``cls``: one that is not ends the stream
        with ``TypeError`` (RxJava's ``ClassCastException``). Typed as ``Flowable[cls]``."""
        require_type(cls)
        return self.map(checked_cast(cls))

    @overload
    def scan(self, accumulator: Callable[[T, T], T]) -> Flowable[T]: ...

    @overload
    def scan(self, accumulator: Callable[[R, T], R], seed: R) -> Flowable[R]: ...

    @overload
    def scan(self, seed: R, accumulator: Callable[[R, T], R], /) -> Flowable[R]: ...

    def scan(self, accumulator: Any, seed: Any = ABSENT) -> Flowable[Any]:
        """Running accumulation: emits each intermediate result.

        Without ``seed`` the first item is emitted as it is and starts the
        accumulation; with ``seed`` the seed is emitted first (``scan_with``
        takes a seed supplier for a fresh seed per subscriber). RxJava's order,
        ``scan(seed, accumulator)``, is taken when the first argument is not callable
        and the second is (a callable seed goes second: ``scan(fn, seed)``).
        """
        accumulator, seed = seed_first_form(accumulator, seed)
        require_callable(accumulator, "accumulator")
        if seed is ABSENT:
            fused = _fuse(self, flowable_scan.FlowableScan.STAGE, accumulator)
            if fused is not None:
                return fused
            return _assembly(flowable_scan.FlowableScan(self, accumulator))
        require(seed, "seed")
        fused = _fuse(self, flowable_scan.FlowableScanSeed.STAGE, (accumulator, seed))
        if fused is not None:
            return fused
        return _assembly(flowable_scan.FlowableScanSeed(self, lambda: seed, accumulator))

    def scan_with(self, seed_supplier: Callable[[], R],
                  accumulator: Callable[[R, T], R]) -> Flowable[R]:
        """Like ``scan`` with a seed, but the seed comes from ``seed_supplier()``, called once per
        subscriber (RxJava 2's ``scanWith``).

        The seed is emitted first, then each accumulated result; use it when the seed is mutable (a
        list, a dict), so subscribers do not share it.
        """
        require_callable(seed_supplier, "seed_supplier")
        require_callable(accumulator, "accumulator")
        return _assembly(flowable_scan.FlowableScanSeed(self, seed_supplier, accumulator))

    def materialize(self) -> Flowable[Notification[T]]:
        """Each signal as a :class:`Notification` item, the terminal one included."""
        return _assembly(flowable_materialize.FlowableMaterialize(self))

    def dematerialize(self, selector: Callable[[T], Notification[R]] | None = None) -> Flowable[R]:
        """The reverse of :meth:`materialize`: Notification items back into signals."""
        sel = selector if selector is not None else (lambda x: x)
        require_callable(sel, "selector")
        return _assembly(flowable_dematerialize.FlowableDematerialize(self, sel))

    def hide(self) -> Flowable[T]:
        """Hide this Flowable's identity and its Subscription (stops fusion and casts)."""
        return _assembly(flowable_hide.FlowableHide(self))

    def serialize(self) -> Flowable[T]:
        """Serialize signals that may come from several threads at once."""
        return _assembly(flowable_serialize.FlowableSerialize(self))

    def on_terminate_detach(self) -> Flowable[T]:
        """Drop the references to upstream and downstream on termination or cancel."""
        return _assembly(flowable_detach.FlowableDetach(self))

    def rebatch_requests(self, n: int) -> Flowable[T]:
        """Request ``n`` upstream first, then ``n - n//4`` each time 75% of it was emitted."""
        require_positive(n, "n")
        return _assembly(flowable_rebatch_requests.FlowableRebatchRequests(self, n))

    # ------------------------------------------------------------------ taking and skipping

    def take(self, count: int) -> Flowable[T]:
        """The first ``count`` items; requests at most ``count`` upstream."""
        require_non_negative(count, "count")
        if count != 0:  # take(0) completes at subscription, before any stage runs
            fused = _fuse(self, flowable_take.FlowableTake.STAGE, count)
            if fused is not None:
                return fused
        return _assembly(flowable_take.FlowableTake(self, count))

    def limit(self, count: int) -> Flowable[T]:
        """The first ``count`` items; never requests more than ``count`` upstream in total."""
        require_non_negative(count, "count")
        return _assembly(flowable_limit.FlowableLimit(self, count))

    def skip(self, count: int) -> Flowable[T]:
        """All but the first ``count`` items, requested upstream at subscription (as
        RxJava 2 does): a source that ends within them completes without demand."""
        require_non_negative(count, "count")
        if count == 0:
            return self
        # A fused chain runs only under demand, so it would skip later than the operator.
        # Only over a bare range longer than ``count`` is that unobservable (no user code,
        # no error, no end within the skipped items).
        if type(self) is flowable_range.FlowableRange and self.end - self.start > count:
            fused = _fuse(self, flowable_skip.FlowableSkip.STAGE, count)
            if fused is not None:
                return fused
        return _assembly(flowable_skip.FlowableSkip(self, count))

    def take_last(self, count: int) -> Flowable[T]:
        """The last ``count`` items, emitted after upstream completes, under demand."""
        _not_a_time(count, None, "take_last_time")
        require_non_negative(count, "count")
        if count == 0:
            return self.ignore_elements().to_flowable()
        if count == 1:
            return _assembly(flowable_take_last.FlowableTakeLastOne(self))
        return _assembly(flowable_take_last.FlowableTakeLast(self, count))

    def take_last_time(self, duration: float, scheduler: Scheduler | None = None,
                       delay_error: bool = False, buffer_size: int = BUFFER_SIZE, *,
                       count: int | None = None) -> Flowable[T]:
        """The items of the last ``duration`` seconds before the upstream completes (the
        latest ``count`` of them with a ``count``), emitted after the completion, under demand.

        An item is kept when its arrival time (``scheduler.now()``, computation's by
        default) is at most ``duration`` seconds before the completion. The upstream is
        requested everything at once. An error ends the stream at once; with
        ``delay_error`` it goes out after the items of the last ``duration`` seconds
        before it. ``buffer_size`` is the chunk size of the (unbounded) queue.
        RxJava's ``takeLast(time, unit, ...)`` and ``takeLast(count, time, unit, ...)``.
        """
        d = require_duration(duration, "duration")
        sched = time_args.scheduler_or_computation(scheduler)
        require_positive(buffer_size, "buffer_size")
        n = LONG_MAX
        if count is not None:
            require_non_negative(count, "count")
            n = min(count, LONG_MAX)
        return _assembly(flowable_take_last_timed.FlowableTakeLastTimed(
            self, n, d, sched, buffer_size, bool(delay_error)))

    def skip_last(self, count: int) -> Flowable[T]:
        """All but the last ``count`` items."""
        _not_a_time(count, None, "skip_last_time")
        require_non_negative(count, "count")
        if count == 0:
            return self
        fused = _fuse(self, flowable_skip_last.FlowableSkipLast.STAGE, count)
        if fused is not None:
            return fused
        return _assembly(flowable_skip_last.FlowableSkipLast(self, count))

    def skip_last_time(self, duration: float, scheduler: Scheduler | None = None,
                       delay_error: bool = False, buffer_size: int = BUFFER_SIZE) -> Flowable[T]:
        """All but the items of the last ``duration`` seconds before the upstream terminates.

        Each item waits until it is ``duration`` seconds old (by ``scheduler.now()``,
        computation's by default), checked at the next item, request or termination,
        and then goes out under demand; the ones still younger at the termination are
        dropped. The upstream is requested everything at once. An error ends the
        stream at once, demand or not (the queue dropped); with ``delay_error`` after
        the items old enough. ``buffer_size`` is the chunk size of the
        (unbounded) queue. RxJava's ``skipLast(time, unit, ...)``.
        """
        d = require_duration(duration, "duration")
        sched = time_args.scheduler_or_computation(scheduler)
        require_positive(buffer_size, "buffer_size")
        return _assembly(flowable_skip_last_timed.FlowableSkipLastTimed(
            self, d, sched, buffer_size, bool(delay_error)))

    def take_while(self, predicate: Callable[[T], bool]) -> Flowable[T]:
        """Items while ``predicate`` holds; completes at the first that fails it."""
        require_callable(predicate, "predicate")
        fused = _fuse(self, flowable_take_while.FlowableTakeWhile.STAGE, predicate)
        if fused is not None:
            return fused
        return _assembly(flowable_take_while.FlowableTakeWhile(self, predicate))

    def skip_while(self, predicate: Callable[[T], bool]) -> Flowable[T]:
        """Skips items while ``predicate`` holds, then emits all the rest."""
        require_callable(predicate, "predicate")
        fused = _fuse(self, flowable_skip_while.FlowableSkipWhile.STAGE, predicate)
        if fused is not None:
            return fused
        return _assembly(flowable_skip_while.FlowableSkipWhile(self, predicate))

    def take_until(self, other: Publisher[Any] | Callable[[T], bool]) -> Flowable[T]:
        """Items until ``other`` signals an item or completes (or, given a predicate,
        up to and including the first item for which it is true)."""
        require(other, "other")
        if isinstance(other, Publisher):
            return _assembly(flowable_take_until.FlowableTakeUntil(self, other))
        require_callable(other, "stop_predicate")
        return _assembly(flowable_take_until.FlowableTakeUntilPredicate(self, other))

    def skip_until(self, other: Publisher[Any]) -> Flowable[T]:
        """Skips items until ``other`` signals an item."""
        require_publisher(other, "other")
        return _assembly(flowable_skip_until.FlowableSkipUntil(self, other))

    @overload
    def element_at(self, index: int) -> Maybe[T]: ...

    @overload
    def element_at(self, index: int, default_item: T) -> Single[T]: ...

    def element_at(self, index: int, default_item: Any = ABSENT) -> Maybe[T] | Single[T]:
        """The item at ``index``: a Maybe (empty if too short), or with ``default_item`` a Single."""
        require_non_negative(index, "index")
        if default_item is ABSENT:
            return _maybe_assembly(flowable_element_at.FlowableElementAtMaybe(self, index))
        require(default_item, "default_item")
        return _single_assembly(flowable_element_at.FlowableElementAtSingle(self, index, default_item, False))

    def element_at_or_error(self, index: int) -> Single[T]:
        """The item at ``index`` as a Single; ``IndexError`` if the stream is shorter."""
        require_non_negative(index, "index")
        return _single_assembly(flowable_element_at.FlowableElementAtSingle(self, index, None, True))

    def first(self, default_item: T) -> Single[T]:
        """The first item, or ``default_item`` if the stream is empty."""
        return self.element_at(0, default_item)

    def first_element(self) -> Maybe[T]:
        """The first item as a Maybe (empty if the stream is)."""
        return self.element_at(0)

    def first_or_error(self) -> Single[T]:
        """The first item; ``IndexError`` if the stream is empty."""
        return self.element_at_or_error(0)

    def last(self, default_item: T) -> Single[T]:
        """The last item, or ``default_item`` if the stream is empty."""
        require(default_item, "default_item")
        return _single_assembly(flowable_last.FlowableLastSingle(self, default_item))

    def last_element(self) -> Maybe[T]:
        """The last item as a Maybe."""
        return _maybe_assembly(flowable_last.FlowableLastMaybe(self))

    def last_or_error(self) -> Single[T]:
        """The last item; ``IndexError`` if the stream is empty."""
        return _single_assembly(flowable_last.FlowableLastSingle(self, None))

    def single(self, default_item: T) -> Single[T]:
        """The only item, ``default_item`` if empty; ``ValueError`` if more than one."""
        require(default_item, "default_item")
        return _single_assembly(flowable_single.FlowableSingleSingle(self, default_item))

    def single_element(self) -> Maybe[T]:
        """The only item as a Maybe; ``ValueError`` if more than one."""
        return _maybe_assembly(flowable_single.FlowableSingleMaybe(self))

    def single_or_error(self) -> Single[T]:
        """The only item; ``IndexError`` if empty, ``ValueError`` if more than one."""
        return _single_assembly(flowable_single.FlowableSingleSingle(self, None))

    def distinct(self, key: Callable[[T], Any] | None = None,
                 collection_factory: Callable[[], Any] | None = None) -> Flowable[T]:
        """Items whose key (the item itself by default) was not seen before (keys must hash).

        ``collection_factory()`` (RxJava 2's ``collectionSupplier``) makes, per subscriber,
        the collection of the keys seen instead of a ``set``: anything with ``in``, ``add``
        (or ``append``) and ``clear``; a key is new when it is not ``in`` it."""
        if key is not None:
            require_callable(key, "key")
        if collection_factory is not None:
            require_callable(collection_factory, "collection_factory")
        else:  # the keys in a set: a sync chain's stage (flowable_sync_chain)
            fused = _fuse(self, *flowable_distinct.FlowableDistinct.fused_stage(key))
            if fused is not None:
                return fused
        return _assembly(flowable_distinct.FlowableDistinct(self, key, collection_factory))

    def distinct_until_changed(self, key: Callable[[T], Any] | None = None,
                               comparer: Callable[[Any, Any], bool] | None = None) -> Flowable[T]:
        """Drops an item whose key equals the previous item's (``comparer(a, b)`` decides)."""
        if key is not None:
            require_callable(key, "key")
        if comparer is not None:
            require_callable(comparer, "comparer")
        fused = _fuse(self, *flowable_distinct_until_changed.FlowableDistinctUntilChanged.fused_stage(key, comparer))
        if fused is not None:
            return fused
        return _assembly(flowable_distinct_until_changed.FlowableDistinctUntilChanged(self, key, comparer))

    def ignore_elements(self) -> Completable:
        """Only the terminal event, as a Completable."""
        return _completable_assembly(flowable_ignore_elements.FlowableIgnoreElementsCompletable(self))

    def default_if_empty(self, default_item: T) -> Flowable[T]:
        """``default_item`` if the stream completes without items (``switch_if_empty``
        to ``just(default_item)``, as RxJava 2 builds it: the item waits for demand, and a
        cancel from its ``on_next`` stops the completion)."""
        require(default_item, "default_item")
        return self.switch_if_empty(Flowable.just(default_item))

    def switch_if_empty(self, other: Publisher[T]) -> Flowable[T]:
        """Continue with ``other`` if this stream completes without items."""
        require_publisher(other, "other")
        return _assembly(flowable_switch_if_empty.FlowableSwitchIfEmpty(self, other))

    # ------------------------------------------------------------------ aggregates

    def count(self) -> Single[int]:
        """The number of items, as a Single."""
        return _single_assembly(flowable_count.FlowableCountSingle(self))

    @overload
    def reduce(self, reducer: Callable[[T, T], T]) -> Maybe[T]: ...

    @overload
    def reduce(self, reducer: Callable[[R, T], R], seed: R) -> Single[R]: ...

    @overload
    def reduce(self, seed: R, reducer: Callable[[R, T], R], /) -> Single[R]: ...

    def reduce(self, reducer: Any, seed: Any = ABSENT) -> Maybe[Any] | Single[Any]:
        """Fold the items with ``reducer(acc, item)``.

        Without ``seed``: a Maybe (empty for an empty stream), as
        ``functools.reduce`` without an initial value. With ``seed``: a Single.
        RxJava's order, ``reduce(seed, reducer)``, is taken when the first argument is
        not callable and the second is (a callable seed goes second: ``reduce(fn, seed)``).
        """
        reducer, seed = seed_first_form(reducer, seed)
        require_callable(reducer, "reducer")
        if seed is ABSENT:
            return _maybe_assembly(flowable_reduce.FlowableReduceMaybe(self, reducer))
        require(seed, "seed")
        return _single_assembly(flowable_reduce.FlowableReduceSeedSingle(self, lambda: seed, reducer))

    def reduce_with(self, seed_supplier: Callable[[], R],
                    reducer: Callable[[R, T], R]) -> Single[R]:
        """Fold with a fresh seed per subscriber, as a Single."""
        require_callable(seed_supplier, "seed_supplier")
        require_callable(reducer, "reducer")
        return _single_assembly(flowable_reduce.FlowableReduceSeedSingle(self, seed_supplier, reducer))

    def collect(self, initial_supplier: Callable[[], U],
                collector: Callable[[U, T], Any]) -> Single[U]:
        """Collect into a mutable container: ``collector(container, item)`` per item."""
        require_callable(initial_supplier, "initial_supplier")
        require_callable(collector, "collector")
        return _single_assembly(flowable_collect.FlowableCollectSingle(self, initial_supplier, collector))

    def collect_into(self, container: U, collector: Callable[[U, T], Any]) -> Single[U]:
        """``collect`` into the one given container (shared by every subscriber, as in
        RxJava): ``collector(container, item)`` per item."""
        require(container, "container")
        require_callable(collector, "collector")
        return self.collect(lambda: container, collector)

    @overload
    def to_map(self, key_selector: Callable[[T], K], value_selector: None = None,
               map_supplier: Callable[[], dict[K, T]] | None = None) -> Single[dict[K, T]]: ...

    @overload
    def to_map(self, key_selector: Callable[[T], K], value_selector: Callable[[T], V],
               map_supplier: Callable[[], dict[K, V]] | None = None) -> Single[dict[K, V]]: ...

    def to_map(self, key_selector: Callable[[T], K],
               value_selector: Callable[[T], V] | None = None,
               map_supplier: Callable[[], dict[K, Any]] | None = None) -> Single[dict[K, Any]]:
        """A dict of ``key_selector(item)`` to ``value_selector(item)`` (the item itself by
        default); a later item with the same key replaces the earlier one.
        ``map_supplier`` makes the dict (a new ``dict`` per subscriber by default)."""
        require_callable(key_selector, "key_selector")
        if value_selector is not None:
            require_callable(value_selector, "value_selector")
        if map_supplier is not None:
            require_callable(map_supplier, "map_supplier")
        key = key_selector
        if value_selector is None:
            def put(m: dict[Any, Any], item: T) -> None:
                m[key(item)] = item
        else:
            value = value_selector

            def put(m: dict[Any, Any], item: T) -> None:
                m[key(item)] = value(item)
        return self.collect(map_supplier if map_supplier is not None else dict, put)

    @overload
    def to_multimap(self, key_selector: Callable[[T], K], value_selector: None = None,
                    map_supplier: Callable[[], dict[K, Any]] | None = None,
                    collection_factory: Callable[[K], Any] | None = None
                    ) -> Single[dict[K, list[T]]]: ...

    @overload
    def to_multimap(self, key_selector: Callable[[T], K], value_selector: Callable[[T], V],
                    map_supplier: Callable[[], dict[K, Any]] | None = None,
                    collection_factory: Callable[[K], Any] | None = None
                    ) -> Single[dict[K, list[V]]]: ...

    def to_multimap(self, key_selector: Callable[[T], K],
                    value_selector: Callable[[T], V] | None = None,
                    map_supplier: Callable[[], dict[K, Any]] | None = None,
                    collection_factory: Callable[[K], Any] | None = None
                    ) -> Single[dict[K, list[Any]]]:
        """A dict of ``key_selector(item)`` to the collection of ``value_selector(item)``
        (the items themselves by default) for that key, in arrival order.

        ``collection_factory(key)`` makes each key's collection (a ``list`` by default);
        values are added with its ``append`` (list, deque) or else its ``add`` (set).
        """
        require_callable(key_selector, "key_selector")
        if value_selector is not None:
            require_callable(value_selector, "value_selector")
        if map_supplier is not None:
            require_callable(map_supplier, "map_supplier")
        if collection_factory is not None:
            require_callable(collection_factory, "collection_factory")
        key = key_selector
        value: Callable[[T], Any] = value_selector if value_selector is not None else _identity
        make = collection_factory

        def put(m: dict[Any, Any], item: T) -> None:
            k = key(item)
            adder = m.get(k)
            if adder is None:
                if make is None:
                    m[k] = [value(item)]
                    return
                c = make(k)
                if c is None:
                    raise TypeError("collection_factory returned None")
                m[k] = c
                adder = c
            if isinstance(adder, list):
                adder.append(value(item))
            else:
                _add_to(adder, value(item))
        return self.collect(map_supplier if map_supplier is not None else dict,
                            put)  # the dict's values are lists by default

    def to_list(self) -> Single[list[T]]:
        """All items in a list, as a Single."""
        return _single_assembly(flowable_to_list.FlowableToListSingle(self))

    def to_sorted_list(self, key: Callable[[T], Any] | None = None,
                       reverse: bool = False) -> Single[list[T]]:
        """All items in a sorted list (as ``sorted(items, key=key, reverse=reverse)``)."""
        if key is not None:
            require_callable(key, "key")
        return self.to_list().map(
            lambda xs: sorted(xs, key=key, reverse=reverse))  # type: ignore[type-var, arg-type]  # key or the items themselves compare (checked at run time)

    def sorted(self, key: Callable[[T], Any] | None = None, reverse: bool = False) -> Flowable[T]:
        """All items, once the stream completed, in sorted order (as ``sorted(items,
        key=key, reverse=reverse)``; stable). RxJava 2 builds it the same way:
        ``to_list``, sort, then emit the list's items under the downstream's demand."""
        return self.to_sorted_list(key, reverse).to_flowable().flat_map_iterable(_identity)

    def any(self, predicate: Callable[[T], bool]) -> Single[bool]:
        """True as soon as an item satisfies ``predicate`` (then upstream is cancelled)."""
        require_callable(predicate, "predicate")
        return _single_assembly(flowable_any.FlowableAnySingle(self, predicate))

    def all(self, predicate: Callable[[T], bool]) -> Single[bool]:
        """False as soon as an item fails ``predicate``; True if none did."""
        require_callable(predicate, "predicate")
        return _single_assembly(flowable_all.FlowableAllSingle(self, predicate))

    def contains(self, item: Any) -> Single[bool]:
        """True if some item equals ``item``."""
        require(item, "item")
        return self.any(lambda x: x == item)

    def is_empty(self) -> Single[bool]:
        """True if the stream completes without items."""
        return self.all(lambda _: False)

    def buffer(self, count: int | Publisher[Any] | Callable[[], Publisher[Any]] | None = None,
               skip: int | None = None,
               buffer_factory: Callable[[], Any] | None = None, *,
               openings: Publisher[Any] | None = None,
               closing_selector: Callable[[Any], Publisher[Any]] | None = None,
               ) -> Flowable[list[T]]:
        """Lists of ``count`` items, a new one every ``skip`` items (``skip`` = ``count`` by default).

        ``skip == count``: consecutive lists; ``skip > count``: items between lists
        are dropped; ``skip < count``: overlapping lists, emitted after completion
        under demand (post-complete).

        ``buffer(boundary)`` (a Publisher): the current list is emitted (empty ones
        too) at each item of ``boundary`` and at completion of either side; source
        and boundary are requested without bound, a list due without demand ends
        the stream with ``MissingBackpressureException``.

        ``buffer(boundary_supplier)`` (a function returning a Publisher, RxJava 2
        only): the first item or the completion of the supplied boundary emits the
        current list and a new boundary is supplied.

        ``buffer(openings=p, closing_selector=fn)``: each item ``o`` of ``p`` opens a
        list, closed by the first item or the completion of ``fn(o)``; lists may
        overlap or leave gaps; closed lists wait for demand (unbounded queue).

        ``buffer_factory`` (RxJava's ``bufferSupplier``, any form): makes each
        collection instead of ``list`` (one with ``append`` or ``add``, e.g. ``set``).
        """
        factory: Callable[[], Any] = list
        if buffer_factory is not None:
            require_callable(buffer_factory, "buffer_factory")
            factory = buffer_factory
        if openings is not None or closing_selector is not None:
            if count is not None or skip is not None:
                raise TypeError("count/skip do not apply with openings/closing_selector")
            require_publisher(openings, "openings")
            require_callable(closing_selector, "closing_selector")
            assert openings is not None and closing_selector is not None
            return _assembly(flowable_buffer_boundary.FlowableBufferBoundary(self, openings, closing_selector,
                                                          factory))
        if isinstance(count, Publisher) or callable(count):
            if skip is not None:
                raise TypeError("skip applies to count buffers, not to boundary buffers")
            if isinstance(count, Publisher):
                return _assembly(flowable_buffer_exact_boundary.FlowableBufferExactBoundary(self, count, factory))
            return _assembly(flowable_buffer_boundary_supplier.FlowableBufferBoundarySupplier(self, count, factory))
        _not_a_time(count, skip, "buffer_time")
        require_positive(count, "count")  # type: ignore[arg-type]  # not None in this branch
        assert isinstance(count, int)
        if skip is None:
            skip = count
        require_positive(skip, "skip")
        if skip == count and buffer_factory is None:
            fused = _fuse(self, flowable_buffer.FlowableBuffer.STAGE, count)
            if fused is not None:
                return fused
        return _assembly(flowable_buffer.FlowableBuffer(self, count, skip, factory))

    # ------------------------------------------------------------------ combining

    def start_with(self, item_or_source: T | Publisher[T]) -> Flowable[T]:
        """Emit an item (or all of a Publisher's items) before this stream's."""
        require(item_or_source, "item_or_source")
        first = (item_or_source if isinstance(item_or_source, Publisher)
                 else Flowable.just(item_or_source))
        return Flowable.concat_array(first, self)

    def start_with_iterable(self, items: Iterable[T]) -> Flowable[T]:
        """Emit the items of ``items`` before this stream's."""
        return Flowable.concat_array(Flowable.from_iterable(items), self)

    def start_with_array(self, *items: T) -> Flowable[T]:
        """Emit ``items`` before this stream's."""
        if not items:
            return self
        return Flowable.concat_array(Flowable.just(*items), self)

    def concat_with(self, other: Publisher[T] | Single[T] | Maybe[T] | Completable) -> Flowable[T]:
        """This stream, then ``other``: a Publisher's items, a Single's or Maybe's item, or
        just a Completable's completion (RxJava 2's four ``concatWith``)."""
        return Flowable.concat_array(self, _as_publisher(other, "other"))

    # ------------------------------------------------------------------ flattening (flat_map, concat_map, switch_map, merge, amb)
    # (section: flattening and combining; the operators live in flowable_flat_map.py,
    # flowable_concat_map.py, flowable_concat_map_eager.py, flowable_switch_map.py,
    # flowable_flatten_iterable.py, flowable_flat_map_{maybe,single,completable}.py,
    # flowable_amb.py; assembly-time scalar fusion in flowable_scalar_x_map.py)

    def flat_map(self, mapper: Callable[[T], Publisher[R]],
                 max_concurrency: int = BUFFER_SIZE, delay_errors: bool = False,
                 buffer_size: int = BUFFER_SIZE,
                 combiner: Callable[[T, Any], R] | None = None, *,
                 on_error_mapper: Callable[[BaseException], Publisher[R]] | None = None,
                 on_complete_supplier: Callable[[], Publisher[R]] | None = None) -> Flowable[R]:
        """Map each item to a Publisher and merge their items as they come.

        At most ``max_concurrency`` inner Publishers run at once (128 by default, as
        RxJava 2's ``flatMap(mapper)``; ``LONG_MAX`` for no bound): the upstream is
        asked for that many items, then for one more per completed inner (inners that
        end at once, such as ``just``, in batches of half of ``max_concurrency``); each
        inner is asked for ``buffer_size`` items and then for a quarter of that at a
        time as they are consumed.
        With ``combiner``, each inner item ``u`` of an upstream item ``t`` becomes
        ``combiner(t, u)``. An error ends the stream at once unless ``delay_errors``.

        With ``on_error_mapper`` and ``on_complete_supplier`` (both, no ``combiner``),
        the upstream's error is mapped to a last Publisher too (``on_error_mapper(error)``),
        and its completion to ``on_complete_supplier()``: their items are merged like
        the others, and the stream ends when they all did (RxJava's
        ``flatMap(onNextMapper, onErrorMapper, onCompleteSupplier[, maxConcurrency])``).
        """
        require_callable(mapper, "mapper")
        if callable(max_concurrency):
            raise TypeError("max_concurrency must be an int, not a function: did you mean "
                            "flat_map(mapper, on_error_mapper=..., on_complete_supplier=...)?")
        require_positive(max_concurrency, "max_concurrency")
        require_positive(buffer_size, "buffer_size")
        if on_error_mapper is not None or on_complete_supplier is not None:
            if on_error_mapper is None or on_complete_supplier is None:
                raise TypeError("flat_map needs both on_error_mapper and on_complete_supplier")
            require_callable(on_error_mapper, "on_error_mapper")
            require_callable(on_complete_supplier, "on_complete_supplier")
            if combiner is not None:
                raise TypeError("flat_map with on_error_mapper/on_complete_supplier takes no "
                                "combiner")
            notifications: Flowable[Publisher[R]] = _assembly(
                flowable_map_notification.FlowableMapNotification(
                    self, mapper, on_error_mapper, on_complete_supplier))
            return _assembly(flowable_flat_map.FlowableFlatMap(
                notifications, _identity, bool(delay_errors), max_concurrency, buffer_size))
        if combiner is not None:
            require_callable(combiner, "combiner")
            mapper = _with_combiner(mapper, combiner)
        fused = _scalar_x_map(self, mapper)
        if fused is None and not delay_errors:  # a sync chain's last stage (flowable_sync_chain)
            fused = _fuse(self, flowable_flat_map.FlowableFlatMap.STAGE, (mapper, max_concurrency, buffer_size))
        if fused is not None:
            return fused
        return _assembly(flowable_flat_map.FlowableFlatMap(self, mapper, bool(delay_errors), max_concurrency,
                                         buffer_size))

    @overload
    def flat_map_iterable(self, mapper: Callable[[T], Iterable[R]],
                          prefetch: int = BUFFER_SIZE) -> Flowable[R]: ...

    @overload
    def flat_map_iterable(self, mapper: Callable[[T], Iterable[U]],
                          combiner: Callable[[T, U], R],
                          prefetch: int = BUFFER_SIZE) -> Flowable[R]: ...

    def flat_map_iterable(self, mapper: Callable[[T], Iterable[Any]], *args: Any,
                          combiner: Any = None, prefetch: int = BUFFER_SIZE) -> Flowable[Any]:
        """Map each item to an iterable and emit its elements, one iterable after another.

        ``flat_map_iterable(mapper, combiner[, prefetch])``: each element ``u`` of the
        iterable of an item ``t`` becomes ``combiner(t, u)``. As RxJava's
        ``flatMapIterable(mapper, resultSelector[, prefetch])`` this is a
        :meth:`flat_map` of the iterables (``max_concurrency`` 128, each asked for
        ``prefetch`` elements at a time).
        """
        require_callable(mapper, "mapper")
        combiner, prefetch = _combiner_and_prefetch(args, combiner, prefetch)
        if combiner is not None:
            return self.flat_map(_iterable_publisher(mapper), BUFFER_SIZE, False, prefetch,
                                 combiner)
        # a sync chain's last stage (flowable_sync_chain; over just(x) the operator calls
        # mapper at subscription)
        if not isinstance(self, ScalarCallable):
            fused = _fuse(self, flowable_flatten_iterable.FlowableFlattenIterable.STAGE, (mapper, prefetch))
            if fused is not None:
                return fused
        return _assembly(flowable_flatten_iterable.FlowableFlattenIterable(self, mapper, prefetch))

    def concat_map_iterable(self, mapper: Callable[[T], Iterable[R]],
                            prefetch: int = 2) -> Flowable[R]:
        """As :meth:`flat_map_iterable` (iterables are always taken in order)."""
        require_callable(mapper, "mapper")
        require_positive(prefetch, "prefetch")
        if not isinstance(self, ScalarCallable):  # (as flat_map_iterable)
            fused = _fuse(self, flowable_flatten_iterable.FlowableFlattenIterable.STAGE, (mapper, prefetch))
            if fused is not None:
                return fused
        return _assembly(flowable_flatten_iterable.FlowableFlattenIterable(self, mapper, prefetch))

    def flat_map_maybe(self, mapper: Callable[[T], Maybe[R]], delay_errors: bool = False,
                       max_concurrency: int = LONG_MAX) -> Flowable[R]:
        """Map each item to a Maybe and merge their successes."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        return _assembly(flowable_flat_map_maybe.FlowableFlatMapMaybe(self, mapper, bool(delay_errors), max_concurrency))

    def flat_map_single(self, mapper: Callable[[T], Single[R]], delay_errors: bool = False,
                        max_concurrency: int = LONG_MAX) -> Flowable[R]:
        """Map each item to a Single and merge their successes."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        return _assembly(flowable_flat_map_single.FlowableFlatMapSingle(self, mapper, bool(delay_errors), max_concurrency))

    def flat_map_completable(self, mapper: Callable[[T], Completable],
                             delay_errors: bool = False,
                             max_concurrency: int = LONG_MAX) -> Completable:
        """Map each item to a Completable; complete when the upstream and all of them did."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        return _completable_assembly(
            flowable_flat_map_completable.FlowableFlatMapCompletable(self, mapper, bool(delay_errors), max_concurrency))

    def concat_map(self, mapper: Callable[[T], Publisher[R]], prefetch: int = 2) -> Flowable[R]:
        """Map each item to a Publisher and emit their items one Publisher after another.

        The upstream is asked for ``prefetch`` items, then for 75% of that as they are used.
        """
        require_callable(mapper, "mapper")
        require_positive(prefetch, "prefetch")
        fused = _scalar_x_map(self, mapper)
        if fused is None:  # a sync chain's last stage (flowable_sync_chain)
            fused = _fuse(self, flowable_concat_map.FlowableConcatMap.STAGE, (mapper, prefetch))
        if fused is not None:
            return fused
        return _assembly(flowable_concat_map.FlowableConcatMap(self, mapper, prefetch, ErrorMode.IMMEDIATE))

    def concat_map_delay_error(self, mapper: Callable[[T], Publisher[R]], prefetch: int = 2,
                               till_the_end: bool = True) -> Flowable[R]:
        """As :meth:`concat_map`; errors wait until every source ran (``till_the_end``) or
        until the current inner Publisher ended."""
        require_callable(mapper, "mapper")
        require_positive(prefetch, "prefetch")
        fused = _scalar_x_map(self, mapper)
        if fused is not None:
            return fused
        mode = ErrorMode.END if till_the_end else ErrorMode.BOUNDARY
        return _assembly(flowable_concat_map.FlowableConcatMap(self, mapper, prefetch, mode))

    def concat_map_single(self, mapper: Callable[[T], Single[R]],
                          prefetch: int = 2) -> Flowable[R]:
        """Map each item to a Single and emit their successes one Single after another.

        The upstream is asked for ``prefetch`` items, then for half of that as they are
        used. The first error ends the stream at once, disposing the running Single.
        """
        return _assembly(flowable_concat_map_maybe.FlowableConcatMapSingle(
            self, _zero_one_mapper(mapper), ErrorMode.IMMEDIATE, _prefetch(prefetch)))

    def concat_map_single_delay_error(self, mapper: Callable[[T], Single[R]],
                                      till_the_end: bool = True,
                                      prefetch: int = 2) -> Flowable[R]:
        """As :meth:`concat_map_single`; errors wait until every item was mapped and every
        Single ran (``till_the_end``), or until the running Single ended."""
        return _assembly(flowable_concat_map_maybe.FlowableConcatMapSingle(
            self, _zero_one_mapper(mapper), _delayed_mode(till_the_end), _prefetch(prefetch)))

    def concat_map_maybe(self, mapper: Callable[[T], Maybe[R]],
                         prefetch: int = 2) -> Flowable[R]:
        """Map each item to a Maybe and emit their successes one Maybe after another (an
        empty Maybe emits nothing); requests and errors as :meth:`concat_map_single`."""
        return _assembly(flowable_concat_map_maybe.FlowableConcatMapMaybe(
            self, _zero_one_mapper(mapper), ErrorMode.IMMEDIATE, _prefetch(prefetch)))

    def concat_map_maybe_delay_error(self, mapper: Callable[[T], Maybe[R]],
                                     till_the_end: bool = True,
                                     prefetch: int = 2) -> Flowable[R]:
        """As :meth:`concat_map_maybe`, errors delayed as in :meth:`concat_map_single_delay_error`."""
        return _assembly(flowable_concat_map_maybe.FlowableConcatMapMaybe(
            self, _zero_one_mapper(mapper), _delayed_mode(till_the_end), _prefetch(prefetch)))

    def concat_map_completable(self, mapper: Callable[[T], Completable],
                               prefetch: int = 2) -> Completable:
        """Map each item to a Completable and run them one after another; complete when the
        upstream and the last one did. Requests and errors as :meth:`concat_map_single`."""
        return _completable_assembly(flowable_concat_map_completable.FlowableConcatMapCompletable(
            self, _zero_one_mapper(mapper), ErrorMode.IMMEDIATE, _prefetch(prefetch)))

    def concat_map_completable_delay_error(self, mapper: Callable[[T], Completable],
                                           till_the_end: bool = True,
                                           prefetch: int = 2) -> Completable:
        """As :meth:`concat_map_completable`, errors delayed as in
        :meth:`concat_map_single_delay_error`."""
        return _completable_assembly(flowable_concat_map_completable.FlowableConcatMapCompletable(
            self, _zero_one_mapper(mapper), _delayed_mode(till_the_end), _prefetch(prefetch)))

    def concat_map_eager(self, mapper: Callable[[T], Publisher[R]],
                         max_concurrency: int = BUFFER_SIZE,
                         prefetch: int = BUFFER_SIZE) -> Flowable[R]:
        """Subscribe to the inner Publishers at once (up to ``max_concurrency``, 128 by
        default as in RxJava 2; ``LONG_MAX`` for no limit), buffer their items, and emit
        them in upstream order."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        require_positive(prefetch, "prefetch")
        return _assembly(flowable_concat_map_eager.FlowableConcatMapEager(self, mapper, max_concurrency, prefetch,
                                                ErrorMode.IMMEDIATE))

    def concat_map_eager_delay_error(self, mapper: Callable[[T], Publisher[R]],
                                     till_the_end: bool = True,
                                     max_concurrency: int = BUFFER_SIZE,
                                     prefetch: int = BUFFER_SIZE) -> Flowable[R]:
        """As :meth:`concat_map_eager`, with errors delayed as in :meth:`concat_map_delay_error`."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        require_positive(prefetch, "prefetch")
        mode = ErrorMode.END if till_the_end else ErrorMode.BOUNDARY
        return _assembly(flowable_concat_map_eager.FlowableConcatMapEager(self, mapper, max_concurrency, prefetch, mode))

    def switch_map(self, mapper: Callable[[T], Publisher[R]],
                   buffer_size: int = BUFFER_SIZE) -> Flowable[R]:
        """Map each item to a Publisher and emit the items of the latest one only; a new
        upstream item cancels the previous inner Publisher."""
        require_callable(mapper, "mapper")
        require_positive(buffer_size, "buffer_size")
        fused = _scalar_x_map(self, mapper)
        if fused is not None:
            return fused
        return _assembly(flowable_switch_map.FlowableSwitchMap(self, mapper, buffer_size, False))

    def switch_map_delay_error(self, mapper: Callable[[T], Publisher[R]],
                               buffer_size: int = BUFFER_SIZE) -> Flowable[R]:
        """As :meth:`switch_map`; errors wait until the upstream and the last inner ended."""
        require_callable(mapper, "mapper")
        require_positive(buffer_size, "buffer_size")
        fused = _scalar_x_map(self, mapper)
        if fused is not None:
            return fused
        return _assembly(flowable_switch_map.FlowableSwitchMap(self, mapper, buffer_size, True))

    def switch_map_single(self, mapper: Callable[[T], Single[R]]) -> Flowable[R]:
        """Map each item to a Single that replaces (disposes) the running one, and emit the
        latest one's success. The upstream is asked for everything at once; a success
        waits for demand until the next upstream item replaces it. The first error ends
        the stream at once."""
        return _assembly(flowable_switch_map_maybe.FlowableSwitchMapSingle(self, _zero_one_mapper(mapper), False))

    def switch_map_single_delay_error(self, mapper: Callable[[T], Single[R]]) -> Flowable[R]:
        """As :meth:`switch_map_single`; errors wait until the upstream and the last Single
        ended."""
        return _assembly(flowable_switch_map_maybe.FlowableSwitchMapSingle(self, _zero_one_mapper(mapper), True))

    def switch_map_maybe(self, mapper: Callable[[T], Maybe[R]]) -> Flowable[R]:
        """As :meth:`switch_map_single` with Maybes (an empty one emits nothing)."""
        return _assembly(flowable_switch_map_maybe.FlowableSwitchMapMaybe(self, _zero_one_mapper(mapper), False))

    def switch_map_maybe_delay_error(self, mapper: Callable[[T], Maybe[R]]) -> Flowable[R]:
        """As :meth:`switch_map_maybe`; errors wait until the upstream and the last Maybe
        ended."""
        return _assembly(flowable_switch_map_maybe.FlowableSwitchMapMaybe(self, _zero_one_mapper(mapper), True))

    def switch_map_completable(self, mapper: Callable[[T], Completable]) -> Completable:
        """Map each item to a Completable that replaces (disposes) the running one; complete
        when the upstream and the latest one did. The first error ends it at once."""
        return _completable_assembly(
            flowable_switch_map_completable.FlowableSwitchMapCompletable(self, _zero_one_mapper(mapper), False))

    def switch_map_completable_delay_error(self, mapper: Callable[[T], Completable]) -> Completable:
        """As :meth:`switch_map_completable`; errors wait until the upstream and the latest
        Completable ended."""
        return _completable_assembly(
            flowable_switch_map_completable.FlowableSwitchMapCompletable(self, _zero_one_mapper(mapper), True))

    @staticmethod
    def switch_on_next(sources: Publisher[Publisher[ItemT]],
                       buffer_size: int = BUFFER_SIZE) -> Flowable[ItemT]:
        """The items of the latest inner Publisher ``sources`` emitted; a new one cancels
        the previous (``switch_map`` of the identity)."""
        require_publisher(sources, "sources")
        return Flowable.from_publisher(sources).switch_map(_identity, buffer_size)

    @staticmethod
    def switch_on_next_delay_error(sources: Publisher[Publisher[ItemT]],
                                   prefetch: int = BUFFER_SIZE) -> Flowable[ItemT]:
        """As :meth:`switch_on_next`; errors wait until ``sources`` and the last inner
        ended."""
        require_publisher(sources, "sources")
        return Flowable.from_publisher(sources).switch_map_delay_error(_identity, prefetch)

    @overload
    @staticmethod
    def merge(sources: Iterable[Publisher[ItemT]] | Publisher[Publisher[ItemT]],
              max_concurrency: int = BUFFER_SIZE, buffer_size: int = BUFFER_SIZE) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def merge(s1: Publisher[ItemT], s2: Publisher[ItemT], /, *sources: Publisher[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_one_by_one(_is_publisher, lambda s: Flowable.merge_array(*s))
    def merge(sources: Any, max_concurrency: int = BUFFER_SIZE,
              buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """The items of all ``sources`` (an iterable of Publishers, or a Publisher of
        Publishers) as they come, at most ``max_concurrency`` (128 by default, as RxJava
        2) subscribed at once. ``merge(a, b, ...)``, Publishers one by one (RxJava 2's
        ``merge(source1, source2)``), is :meth:`merge_array`."""
        int_after_sources(max_concurrency, "max_concurrency", "merge", "merge_array")
        return _merge(sources, max_concurrency, buffer_size, False)

    @overload
    @staticmethod
    def merge_delay_error(sources: Iterable[Publisher[ItemT]] | Publisher[Publisher[ItemT]],
                          max_concurrency: int = BUFFER_SIZE,
                          buffer_size: int = BUFFER_SIZE) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def merge_delay_error(s1: Publisher[ItemT], s2: Publisher[ItemT], /,
                          *sources: Publisher[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_one_by_one(_is_publisher, lambda s: Flowable.merge_array_delay_error(*s))
    def merge_delay_error(sources: Any, max_concurrency: int = BUFFER_SIZE,
                          buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """As :meth:`merge`; errors wait until every source ended (several together as a
        ``CompositeException``). ``merge_delay_error(a, b, ...)`` is
        :meth:`merge_array_delay_error`."""
        int_after_sources(max_concurrency, "max_concurrency", "merge_delay_error",
                      "merge_array_delay_error")
        return _merge(sources, max_concurrency, buffer_size, True)

    @staticmethod
    def merge_array(*sources: Publisher[ItemT]) -> Flowable[ItemT]:
        """The items of the given Publishers as they come."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        return _merge(sources, max(1, len(sources)), BUFFER_SIZE, False)

    @staticmethod
    def merge_array_delay_error(*sources: Publisher[ItemT]) -> Flowable[ItemT]:
        """As :meth:`merge_array`, errors delayed until every source ended."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        return _merge(sources, max(1, len(sources)), BUFFER_SIZE, True)

    def merge_with(self, other: Publisher[T] | Single[T] | Maybe[T] | Completable) -> Flowable[T]:
        """This stream's and ``other``'s items as they come; ``other`` a Publisher, or a
        Single, Maybe or Completable (RxJava 2's four ``mergeWith``). A Completable's
        merge passes the requests through to this stream (nothing to prefetch for); a Single's
        or Maybe's prefetches 128 of this stream's items and sends the other's item as soon
        as there is demand for it."""
        if flowable_merge_with_completable.is_completable(other):
            return _assembly(flowable_merge_with_completable.FlowableMergeWithCompletable(self, other))
        if flowable_merge_with_single.is_single_or_maybe(other):
            return _assembly(flowable_merge_with_single.FlowableMergeWithSingle(self, other))
        return Flowable.merge_array(self, _as_publisher(other, "other"))

    @overload
    @staticmethod
    def concat_delay_error(sources: Iterable[Publisher[ItemT]] | Publisher[Publisher[ItemT]],
                           prefetch: int = 2, till_the_end: bool = True) -> Flowable[ItemT]: ...

    @overload
    @staticmethod
    def concat_delay_error(s1: Publisher[ItemT], s2: Publisher[ItemT], /,
                           *sources: Publisher[ItemT]) -> Flowable[ItemT]: ...

    @staticmethod
    @sources_one_by_one(_is_publisher, lambda s: Flowable.concat_array_delay_error(*s))
    def concat_delay_error(sources: Any, prefetch: int = 2,
                           till_the_end: bool = True) -> Flowable[Any]:
        """As :meth:`concat`; errors wait until every source ran.
        ``concat_delay_error(a, b, ...)`` is :meth:`concat_array_delay_error`."""
        require(sources, "sources")
        int_after_sources(prefetch, "prefetch", "concat_delay_error", "concat_array_delay_error")
        if isinstance(sources, Publisher):
            return Flowable.from_publisher(sources).concat_map_delay_error(
                _identity, prefetch, till_the_end)
        return _assembly(flowable_concat.FlowableConcatIterable(sources, True))

    @staticmethod
    def concat_eager(sources: Iterable[Publisher[ItemT]] | Publisher[Publisher[ItemT]],
                     max_concurrency: int = BUFFER_SIZE,
                     prefetch: int = BUFFER_SIZE) -> Flowable[ItemT]:
        """Subscribe to the ``sources`` at once (up to ``max_concurrency``, 128 by default
        as in RxJava 2) and emit their items in order, buffering the later ones."""
        require(sources, "sources")
        outer = (Flowable.from_publisher(sources) if isinstance(sources, Publisher)
                 else Flowable.from_iterable(sources))
        return outer.concat_map_eager(_identity, max_concurrency, prefetch)

    @staticmethod
    def concat_array_eager(*sources: Publisher[ItemT], max_concurrency: int = BUFFER_SIZE,
                           prefetch: int = BUFFER_SIZE) -> Flowable[ItemT]:
        """As :meth:`concat_eager` over the given sources (RxJava 2: ``concatMapEager``
        over ``fromArray``): subscribed to at once, up to ``max_concurrency``."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        return Flowable.from_array(sources).concat_map_eager(_identity, max_concurrency, prefetch)

    @staticmethod
    def concat_array_eager_delay_error(*sources: Publisher[ItemT], max_concurrency: int = BUFFER_SIZE,
                                       prefetch: int = BUFFER_SIZE) -> Flowable[ItemT]:
        """As :meth:`concat_array_eager`; errors wait until every source ran (RxJava 2's
        ``concatMapEagerDelayError(identity, ..., tillTheEnd=true)``)."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        return Flowable.from_array(sources).concat_map_eager_delay_error(
            _identity, True, max_concurrency, prefetch)

    @staticmethod
    def amb(sources: Iterable[Publisher[ItemT]]) -> Flowable[ItemT]:
        """Mirror whichever of ``sources`` signals first; cancel the others."""
        require(sources, "sources")
        return _assembly(flowable_amb.FlowableAmb(sources))

    @staticmethod
    def amb_array(*sources: Publisher[ItemT]) -> Flowable[ItemT]:
        """Mirror whichever of the given Publishers signals first; cancel the others."""
        for i, p in enumerate(sources):
            require_publisher(p, f"source {i}")
        if not sources:
            return Flowable.empty()
        if len(sources) == 1:
            return Flowable.from_publisher(sources[0])
        return _assembly(flowable_amb.FlowableAmb(sources))

    def amb_with(self, other: Publisher[T]) -> Flowable[T]:
        """Mirror this stream or ``other``, whichever signals first."""
        require_publisher(other, "other")
        return Flowable.amb_array(self, other)

    # ------------------------------------------------------------------ combining (zip, combine_latest, ...)
    # (zipper/combiner functions take one argument per source; without one, tuples)

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], /, *,
            zipper: None = None,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[T1]]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], /, *,
            zipper: Callable[[T1], R],
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], /, *,
            zipper: None = None,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[T1, T2]]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], /, *,
            zipper: Callable[[T1, T2], R],
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], zipper: Callable[[T1, T2], R], /, *,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], /, *,
            zipper: None = None,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[T1, T2, T3]]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], /, *,
            zipper: Callable[[T1, T2, T3], R],
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], zipper: Callable[[T1, T2, T3], R], /, *,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], s4: Publisher[T4], /, *,
            zipper: None = None,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[T1, T2, T3, T4]]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], s4: Publisher[T4], /, *,
            zipper: Callable[[T1, T2, T3, T4], R],
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], s4: Publisher[T4], zipper: Callable[[T1, T2, T3, T4], R], /, *,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    # 5 or more sources: a zipper of any arity (not *sources alone, which would make
    # mypy answer Any for a lambda zipper of the overloads above)
    @overload
    @staticmethod
    def zip(s1: Publisher[Any], s2: Publisher[Any], s3: Publisher[Any],
            s4: Publisher[Any], s5: Publisher[Any], /,
            *sources: Publisher[Any], zipper: Callable[..., R],
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    @staticmethod
    def zip(*sources: Publisher[Any], zipper: None = None,
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[Any, ...]]: ...

    # 5 or more sources and the zipper last, positionally
    @overload
    @staticmethod
    def zip(s1: Publisher[Any], s2: Publisher[Any], s3: Publisher[Any],
            s4: Publisher[Any], s5: Publisher[Any], /,
            *sources_and_zipper: Publisher[Any] | Callable[..., R],
            delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @staticmethod
    def zip(*sources: Any, zipper: Callable[..., R] | None = None,
            delay_error: bool = False, buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """Combine the n-th items of all ``sources`` with ``zipper(*items)`` (a tuple when
        ``zipper`` is None); end with the shortest. Each source is asked for
        ``buffer_size`` items, then for 75% of that as they are used. The zipper may
        also come last, positionally (RxJava 2's ``zip(source1, source2, zipper)``): a
        callable is never a Publisher."""
        given = zipper
        sources, zipper = trailing_function(sources, zipper, "zipper")
        if zipper is not given and len(sources) == 1:
            # RxJava 2's zip(Publisher<Publisher>, zipper) zips the inner Publishers
            raise TypeError("zip(source, zipper) could be RxJava 2's zip of a Publisher of "
                            "Publishers: write zip(source, zipper=fn) to zip the one source, "
                            "or zip_iterable(sources, fn) for an iterable of sources")
        _require_sources(sources, "zip_iterable")
        return _zip(sources, zipper, delay_error, buffer_size)

    @staticmethod
    def zip_array(zipper: Callable[..., R], *sources: Publisher[Any], delay_error: bool = False,
                  buffer_size: int = BUFFER_SIZE) -> Flowable[R]:
        """RxJava's ``zipArray(zipper, delayError, bufferSize, sources...)``: the same as
        ``Flowable.zip(*sources, zipper=zipper, ...)`` with the zipper first."""
        require_callable(zipper, "zipper")
        return Flowable.zip(*sources, zipper=zipper, delay_error=delay_error,
                            buffer_size=buffer_size)

    @staticmethod
    def zip_iterable(sources: Iterable[Publisher[Any]], zipper: Callable[..., R] | None = None,
                     delay_error: bool = False, buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """As :meth:`zip`, for an iterable of Publishers (iterated at each subscription)."""
        require(sources, "sources")
        return _zip(sources, zipper, delay_error, buffer_size)

    # (a Flowable is also an Iterable, so Publisher and Iterable get overloads of their own)
    @overload
    def zip_with(self, other: Publisher[U], zipper: None = None,
                 delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[T, U]]: ...

    @overload
    def zip_with(self, other: Publisher[U], zipper: Callable[[T, U], R],
                 delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    @overload
    def zip_with(self, other: Iterable[U], zipper: None = None,
                 delay_error: bool = ..., buffer_size: int = ...) -> Flowable[tuple[T, U]]: ...

    @overload
    def zip_with(self, other: Iterable[U], zipper: Callable[[T, U], R],
                 delay_error: bool = ..., buffer_size: int = ...) -> Flowable[R]: ...

    def zip_with(self, other: Publisher[U] | Iterable[U],
                 zipper: Callable[[T, U], R] | None = None,
                 delay_error: bool = False, buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """Pair this stream's items with ``other``'s (a Publisher, or an iterable that is
        consumed item by item)."""
        require(other, "other")
        if isinstance(other, Publisher):
            return _zip((self, other), zipper, delay_error, buffer_size)
        if not hasattr(other, "__iter__"):
            raise TypeError(f"other must be a Publisher or an iterable, not {type(other).__name__}")
        if zipper is not None:
            require_callable(zipper, "zipper")
        return _assembly(flowable_zip.FlowableZipIterable(self, other, zipper))

    @combine_latest_signature
    @staticmethod
    def combine_latest(*sources: Any, combiner: Callable[..., R] | None = None,
                       buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """Each time any source emits (once all have), ``combiner(*latest)`` (a tuple when
        ``combiner`` is None); the combiner may come last, positionally (RxJava 2's
        ``combineLatest(source1, source2, combiner)``)."""
        return _combine_latest(sources, combiner, buffer_size, False)

    @combine_latest_signature
    @staticmethod
    def combine_latest_delay_error(*sources: Any,
                                   combiner: Callable[..., R] | None = None,
                                   buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """As :meth:`combine_latest`; errors wait until every source ended."""
        return _combine_latest(sources, combiner, buffer_size, True)

    @staticmethod
    def combine_latest_iterable(sources: Iterable[Publisher[Any]],
                                combiner: Callable[..., R] | None = None,
                                buffer_size: int = BUFFER_SIZE) -> Flowable[Any]:
        """As :meth:`combine_latest`, for an iterable of Publishers."""
        require(sources, "sources")
        if combiner is not None:
            require_callable(combiner, "combiner")
        require_positive(buffer_size, "buffer_size")
        return _assembly(flowable_combine_latest.FlowableCombineLatest(sources, combiner, buffer_size, False))

    @overload
    def with_latest_from(self, other: Publisher[U], /, *,
                         combiner: None = None) -> Flowable[tuple[T, U]]: ...

    @overload
    def with_latest_from(self, other: Publisher[U], /, *,
                         combiner: Callable[[T, U], R]) -> Flowable[R]: ...

    @overload
    def with_latest_from(self, other: Publisher[U], combiner: Callable[[T, U], R], /
                         ) -> Flowable[R]: ...

    # two or three others with the combiner by keyword: its parameters typed (pyright
    # leaves a lambda's parameters Unknown against the Callable[..., R] form below)
    @overload
    def with_latest_from(self, other1: Publisher[T1], other2: Publisher[T2], /, *,
                         combiner: Callable[[T, T1, T2], R]) -> Flowable[R]: ...

    @overload
    def with_latest_from(self, other1: Publisher[T1], other2: Publisher[T2],
                         other3: Publisher[T3], /, *,
                         combiner: Callable[[T, T1, T2, T3], R]) -> Flowable[R]: ...

    @overload
    def with_latest_from(self, other1: Publisher[Any], other2: Publisher[Any], /,
                         *others: Publisher[Any], combiner: Callable[..., R]) -> Flowable[R]: ...

    @overload
    def with_latest_from(self, other1: Publisher[T1], other2: Publisher[T2],
                         combiner: Callable[[T, T1, T2], R], /) -> Flowable[R]: ...

    @overload
    def with_latest_from(self, other1: Publisher[T1], other2: Publisher[T2],
                         other3: Publisher[T3], combiner: Callable[[T, T1, T2, T3], R], /
                         ) -> Flowable[R]: ...

    @overload
    def with_latest_from(self, *others: Publisher[Any],
                         combiner: None = None) -> Flowable[tuple[Any, ...]]: ...

    # 4 or more others and the combiner last, positionally
    @overload
    def with_latest_from(self, other1: Publisher[Any], other2: Publisher[Any],
                         other3: Publisher[Any], other4: Publisher[Any], /,
                         *others_and_combiner: Publisher[Any] | Callable[..., R]
                         ) -> Flowable[R]: ...

    def with_latest_from(self, *others: Any,
                         combiner: Callable[..., R] | None = None) -> Flowable[Any]:
        """Combine each item with the latest items of ``others`` (``combiner(item, *latest)``,
        a tuple when None); items that come before every other emitted are dropped. The
        combiner may come last, positionally (RxJava 2's ``withLatestFrom(other,
        combiner)``)."""
        others, combiner = trailing_function(others, combiner, "combiner")
        if not others:
            raise TypeError("with_latest_from needs at least one other Publisher")
        for i, p in enumerate(others):
            require_publisher(p, f"other {i}")
        if combiner is not None:
            require_callable(combiner, "combiner")
        if len(others) == 1:
            return _assembly(flowable_with_latest_from.FlowableWithLatestFrom(self, others[0], combiner))
        return _assembly(flowable_with_latest_from.FlowableWithLatestFromMany(self, others, combiner))

    def join(self, other: Publisher[U], left_end: Callable[[T], Publisher[Any]],
             right_end: Callable[[U], Publisher[Any]],
             result_selector: Callable[[T, U], R]) -> Flowable[R]:
        """``result_selector(left, right)`` for each pair of items (this stream's and
        ``other``'s) whose windows overlap: an item's window closes at the first signal of
        ``left_end(item)`` (``right_end(item)`` for ``other``'s items).

        As RxJava 2: both streams are requested without bound and a result that finds no
        demand fails the stream with ``MissingBackpressureException``."""
        require_publisher(other, "other")
        require_callable(left_end, "left_end")
        require_callable(right_end, "right_end")
        require_callable(result_selector, "result_selector")
        return _assembly(flowable_join.FlowableJoin(self, other, left_end, right_end, result_selector))

    def group_join(self, other: Publisher[U], left_end: Callable[[T], Publisher[Any]],
                   right_end: Callable[[U], Publisher[Any]],
                   result_selector: Callable[[T, Flowable[U]], R]) -> Flowable[R]:
        """``result_selector(left, group)`` for each item of this stream, where ``group`` (a
        unicast Flowable) emits ``other``'s items whose windows overlap the item's window,
        and completes when ``left_end(left)`` signals (windows as in :meth:`join`).

        As RxJava 2: both streams are requested without bound and a result that finds no
        demand fails the stream with ``MissingBackpressureException``."""
        require_publisher(other, "other")
        require_callable(left_end, "left_end")
        require_callable(right_end, "right_end")
        require_callable(result_selector, "result_selector")
        return _assembly(flowable_group_join.FlowableGroupJoin(self, other, left_end, right_end,
                                                 result_selector))

    @staticmethod
    def sequence_equal(first: Publisher[ItemT], second: Publisher[ItemT],
                       is_equal: Callable[[ItemT, ItemT], bool] | None = None,
                       buffer_size: int = BUFFER_SIZE) -> Single[bool]:
        """Whether both Publishers emit equal items (``==``, or ``is_equal``) in the same
        order and end the same way."""
        require_publisher(first, "first")
        require_publisher(second, "second")
        if is_equal is not None:
            require_callable(is_equal, "is_equal")
        require_positive(buffer_size, "buffer_size")
        return _single_assembly(flowable_sequence_equal.FlowableSequenceEqualSingle(first, second, is_equal, buffer_size))

    # ------------------------------------------------------------------ grouping and windows

    @overload
    def group_by(self, key: Callable[[T], K], value: None = None,
                 delay_error: bool = ..., buffer_size: int = ..., *,
                 abandon_unsubscribed: bool = ...,
                 map_factory: Callable[[Callable[[Any], None]], MutableMapping[Any, Any]] | None = ...,
                 ) -> Flowable[GroupedFlowable[K, T]]: ...

    @overload
    def group_by(self, key: Callable[[T], K], value: Callable[[T], V],
                 delay_error: bool = ..., buffer_size: int = ..., *,
                 abandon_unsubscribed: bool = ...,
                 map_factory: Callable[[Callable[[Any], None]], MutableMapping[Any, Any]] | None = ...,
                 ) -> Flowable[GroupedFlowable[K, V]]: ...

    def group_by(self, key: Callable[[T], K], value: Callable[[T], Any] | None = None,
                 delay_error: bool = False,
                 buffer_size: int = BUFFER_SIZE, *,
                 abandon_unsubscribed: bool = False,
                 map_factory: Callable[[Callable[[Any], None]], MutableMapping[Any, Any]] | None = None,
                 ) -> Flowable[GroupedFlowable[K, Any]]:
        """Split the stream into one :class:`GroupedFlowable` per ``key(item)``, emitting
        ``value(item)`` (or the item) in its group.

        As in RxJava 2: the upstream is asked for ``buffer_size`` items, then for as
        many as went out (groups and their items). A group keeps its items until its
        subscriber takes them, however late it subscribes (after ``observe_on``, say);
        a group nobody ever subscribes to holds the upstream up. Cancelling the outer
        stream keeps the live groups running.

        ``abandon_unsubscribed=True`` applies RxJava 3's rule instead: a group not
        subscribed to by the time the outer's ``on_next`` returned is abandoned (it
        completes after the items it has, frees them upstream, and the next item of
        its key starts a new group), so ignored groups hold nobody up.

        ``map_factory`` (RxJava 2's ``evictingMapFactory``): per subscription,
        ``map_factory(on_evict)`` returns the mutable mapping that holds the live groups
        (for example a size- or time-bounded cache) and calls ``on_evict(group)`` for each
        group it drops. An evicted group completes, after the items it holds, at the next
        item (or when the outer is cancelled, or the stream ends); the next item of its key
        starts a new group.
        """
        require_callable(key, "key")
        if value is not None:
            require_callable(value, "value")
        require_positive(buffer_size, "buffer_size")
        if map_factory is not None:
            require_callable(map_factory, "map_factory")
        return _assembly(flowable_group_by.FlowableGroupBy(self, key, value, buffer_size, bool(delay_error),
                                               bool(abandon_unsubscribed), map_factory))

    def window(self, count: int | Publisher[Any] | Callable[[], Publisher[Any]] | None = None,
               skip: int | None = None,
               buffer_size: int = BUFFER_SIZE, *,
               openings: Publisher[Any] | None = None,
               closing_selector: Callable[[Any], Publisher[Any]] | None = None,
               ) -> Flowable[Flowable[T]]:
        """Windows of ``count`` items, a new one every ``skip`` items (default ``count``);
        or, when ``count`` is a Publisher, a new window at each of its items.

        ``window(boundary_supplier)`` (a function returning a Publisher, RxJava 2 only):
        the first item of the supplied boundary starts the next window, with a new
        boundary; its completion completes the stream.

        ``window(openings=p, closing_selector=fn)``: each item ``o`` of ``p`` opens a
        window, completed by the first item or the completion of ``fn(o)`` (windows
        may overlap); the stream ends when the source ends, or once ``p`` completed
        and the open windows closed (as RxJava 3; RxJava 2 leaks the source there).

        Backpressure (boundary windows): the boundary opens windows, not demand; one
        that opens without demand ends the stream with ``MissingBackpressureException``."""
        if openings is not None or closing_selector is not None:
            if count is not None or skip is not None:
                raise TypeError("count/skip do not apply with openings/closing_selector")
            require_publisher(openings, "openings")
            require_callable(closing_selector, "closing_selector")
            require_positive(buffer_size, "buffer_size")
            assert openings is not None and closing_selector is not None
            return _assembly(flowable_window_boundary_selector.FlowableWindowBoundarySelector(self, openings, closing_selector,
                                                                  buffer_size))
        if isinstance(count, Publisher) or callable(count):
            if skip is not None:
                raise TypeError("skip applies to count windows, not to boundary windows")
            require_positive(buffer_size, "buffer_size")
            if isinstance(count, Publisher):
                return _assembly(flowable_window_boundary.FlowableWindowBoundary(self, count, buffer_size))
            return _assembly(flowable_window_boundary_supplier.FlowableWindowBoundarySupplier(self, count, buffer_size))
        _not_a_time(count, skip, "window_time")
        require_positive(count, "count")  # type: ignore[arg-type]  # not None in this branch
        assert isinstance(count, int)
        if skip is None:
            skip = count
        require_positive(skip, "skip")
        require_positive(buffer_size, "buffer_size")
        return _assembly(flowable_window.FlowableWindow(self, count, skip, buffer_size))

    def window_time(self, timespan: float, timeskip: float | None = None,
                    scheduler: Scheduler | None = None, count: int | None = None,
                    restart: bool = False,
                    buffer_size: int = BUFFER_SIZE) -> Flowable[Flowable[T]]:
        """Windows of ``timespan`` seconds, a new one every ``timeskip`` seconds (default
        ``timespan``); with ``count``, a window also closes after that many items
        (``restart``: and the timer starts over).

        Backpressure: time opens the windows, not demand; a window that opens without
        demand ends the stream with ``MissingBackpressureException`` (add
        ``on_backpressure_*`` after it, or request more)."""
        t = require_duration(timespan, "timespan", finite=True)  # a periodic task's period
        if t == 0.0:
            raise ValueError("timespan > 0 required but it was 0")
        skip_t = t if timeskip is None else require_duration(timeskip, "timeskip", finite=True)
        if skip_t == 0.0:
            raise ValueError("timeskip > 0 required but it was 0")
        if count is not None:
            require_positive(count, "count")
            if skip_t != t:
                raise ValueError("count applies to windows with timeskip == timespan")
        require_positive(buffer_size, "buffer_size")
        return _assembly(flowable_window_timed.FlowableWindowTimed(self, t, skip_t, time_args.scheduler_or_computation(scheduler),
                                             count, bool(restart), buffer_size))

    def parallel(self, parallelism: int | None = None,
                 prefetch: int = BUFFER_SIZE) -> ParallelFlowable[T]:
        """Split the stream into ``parallelism`` rails (default: the CPU count), fed
        round-robin as each rail has demand; see :class:`ParallelFlowable`."""
        if parallelism is None:
            parallelism = os.cpu_count() or 1
        require_positive(parallelism, "parallelism")
        require_positive(prefetch, "prefetch")
        p = parallel_from_publisher.ParallelFromPublisher(self, parallelism, prefetch)
        return plugins.on_assembly("parallel", p) if plugins.hooks_active else p

    # ------------------------------------------------------------------ errors, repetition

    def on_error_return(self, fn: Callable[[BaseException], T]) -> Flowable[T]:
        """On error, emit ``fn(error)`` and complete."""
        require_callable(fn, "fn")
        return _assembly(flowable_on_error_return.FlowableOnErrorReturn(self, fn))

    def on_error_return_item(self, item: T) -> Flowable[T]:
        """On error, emit ``item`` and complete."""
        require(item, "item")
        return self.on_error_return(lambda _e: item)

    def on_error_resume_next(
            self, fallback: Publisher[T] | Callable[[BaseException], Publisher[T]]) -> Flowable[T]:
        """On error, continue with a Publisher (or the one ``fallback(error)`` returns)."""
        require(fallback, "fallback")
        if isinstance(fallback, Publisher):
            p = fallback
            fn: Callable[[BaseException], Publisher[T]] = lambda _e: p  # noqa: E731
        else:
            require_callable(fallback, "fallback")
            fn = fallback
        return _assembly(flowable_on_error_next.FlowableOnErrorNext(self, fn))

    def on_exception_resume_next(self, fallback: Publisher[T]) -> Flowable[T]:
        """On an ``Exception``, continue with ``fallback``; any other ``BaseException`` (a
        fatal one never reaches here) goes on as it is (RxJava: ``Exception`` vs ``Error``)."""
        require_publisher(fallback, "fallback")
        p = fallback
        return _assembly(flowable_on_error_next.FlowableOnErrorNext(
            self, lambda e: p if isinstance(e, Exception) else Flowable.error(e)))

    @overload
    def retry(self, times: int = LONG_MAX,
              predicate: Callable[[BaseException], bool] | None = None, *,
              bi_predicate: Callable[[int, BaseException], bool] | None = None) -> Flowable[T]: ...

    @overload
    def retry(self, predicate: Callable[[BaseException], bool], /) -> Flowable[T]: ...

    @overload
    def retry(self, bi_predicate: Callable[[int, BaseException], bool], /) -> Flowable[T]: ...

    def retry(self, times: Any = LONG_MAX, predicate: Callable[[BaseException], bool] | None = None,
              *, bi_predicate: Callable[[int, BaseException], bool] | None = None) -> Flowable[T]:
        """Resubscribe on error, at most ``times`` times and while ``predicate(error)`` holds.

        ``bi_predicate(attempt, error)`` (RxJava 2's ``retry(BiPredicate)``, alone, as in
        :meth:`Single.retry`): resubscribe while it holds; ``attempt`` is 1 at the first
        error. A function alone, positionally, is RxJava 2's form: ``retry(fn)`` is the
        ``predicate`` when ``fn`` takes one argument, the ``bi_predicate`` when it takes
        two (told by its signature)."""
        times, predicate, bi_predicate = retry_function_form(times, predicate, bi_predicate,
                                                             LONG_MAX)
        if bi_predicate is not None:
            require_callable(bi_predicate, "bi_predicate")
            if times != LONG_MAX or predicate is not None:
                raise TypeError("bi_predicate goes alone, without times or predicate")
            return _assembly(flowable_retry.FlowableRetryBiPredicate(self, bi_predicate))
        require_non_negative(times, "times")
        if predicate is not None:
            require_callable(predicate, "predicate")
        return _assembly(flowable_retry.FlowableRetry(self, times, predicate))

    def retry_when(self, handler: Callable[[Flowable[BaseException]], Publisher[Any]]
                   ) -> Flowable[T]:
        """Resubscribe when the Publisher ``handler(errors)`` emits.

        Per subscriber, ``handler`` gets a Flowable of this stream's errors and returns a
        Publisher: each of its items resubscribes (e.g. after a growing ``timer``); its
        error or completion ends the stream with that error or completion. A completion
        of this stream cancels it and goes downstream.
        """
        require_callable(handler, "handler")
        return _assembly(flowable_retry_when.FlowableRetryWhen(self, handler))

    def repeat_when(self, handler: Callable[[Flowable[Any]], Publisher[Any]]) -> Flowable[T]:
        """Resubscribe after each completion when the Publisher ``handler(completions)``
        emits (``completions`` emits ``0`` per completion); its error or completion ends
        the stream. An error of this stream cancels it and goes downstream."""
        require_callable(handler, "handler")
        return _assembly(flowable_retry_when.FlowableRepeatWhen(self, handler))

    def retry_until(self, stop: Callable[[], bool]) -> Flowable[T]:
        """Resubscribe on error until ``stop()`` returns true (then the error goes on)."""
        require_callable(stop, "stop")
        return self.retry(LONG_MAX, lambda _e: not stop())

    def repeat(self, times: int = LONG_MAX) -> Flowable[T]:
        """Subscribe ``times`` times in a row (forever by default); ``repeat(0)`` is empty."""
        require_non_negative(times, "times")
        if times == 0:
            return Flowable.empty()
        return _assembly(flowable_repeat.FlowableRepeat(self, times))

    def repeat_until(self, stop: Callable[[], bool]) -> Flowable[T]:
        """Resubscribe on completion until ``stop()`` returns True."""
        require_callable(stop, "stop")
        return _assembly(flowable_repeat.FlowableRepeatUntil(self, stop))

    # ------------------------------------------------------------------ side effects

    def do_on_next(self, fn: Callable[[T], Any]) -> Flowable[T]:
        """Call ``fn(item)`` for each item before it goes downstream; if ``fn`` raises, the
        upstream is cancelled and the error goes downstream."""
        require_callable(fn, "on_next")
        fused = _fuse(self, flowable_do_on_each.FlowableDoOnEach.STAGE, fn)
        if fused is not None:
            return fused
        return self.do_on_each(on_next=fn)

    def do_on_error(self, fn: Callable[[BaseException], Any]) -> Flowable[T]:
        """Call ``fn(error)`` before the error goes downstream; if ``fn`` raises, the downstream
        gets a ``CompositeException`` of both errors."""
        require_callable(fn, "on_error")
        return self.do_on_each(on_error=fn)

    def do_on_complete(self, fn: Callable[[], Any]) -> Flowable[T]:
        """Call ``fn()`` before the completion goes downstream; if ``fn`` raises, the downstream
        gets that error instead."""
        require_callable(fn, "on_complete")
        return self.do_on_each(on_complete=fn)

    def do_on_terminate(self, fn: Callable[[], Any]) -> Flowable[T]:
        """Run ``fn()`` just before ``on_error`` or ``on_complete`` goes downstream."""
        require_callable(fn, "on_terminate")
        return self.do_on_each(on_error=lambda _e: fn(), on_complete=fn)

    def do_after_terminate(self, fn: Callable[[], Any]) -> Flowable[T]:
        """Run ``fn()`` just after ``on_error`` or ``on_complete`` went downstream."""
        require_callable(fn, "on_after_terminate")
        return self.do_on_each(on_after_terminate=fn)

    def do_on_each(self, on_next: Callable[[T], Any] | None = None,
                   on_error: Callable[[BaseException], Any] | None = None,
                   on_complete: Callable[[], Any] | None = None,
                   on_after_terminate: Callable[[], Any] | None = None, *,
                   on_notification: Callable[[Notification[T]], Any] | None = None) -> Flowable[T]:
        """Call the given functions as signals pass (before they go downstream).

        ``on_notification`` (alone): called with each signal as a :class:`Notification`
        (RxJava's ``doOnEach(Consumer<Notification>)``); when it raises on an item the
        upstream is cancelled and the error goes downstream, as with ``on_next``.
        """
        if on_notification is not None:
            require_callable(on_notification, "on_notification")
            if on_next is not None or on_error is not None or on_complete is not None \
                    or on_after_terminate is not None:
                raise TypeError("do_on_each(on_notification=...) takes no other callbacks")
            from rxpy2.notification import Notification as N
            notify = on_notification
            on_next = lambda item: notify(N.create_on_next(item))  # noqa: E731
            on_error = lambda error: notify(N.create_on_error(error))  # noqa: E731
            on_complete = lambda: notify(N.create_on_complete())  # noqa: E731
        for f, name in ((on_next, "on_next"), (on_error, "on_error"),
                        (on_complete, "on_complete"), (on_after_terminate, "on_after_terminate")):
            if f is not None:
                require_callable(f, name)
        return _assembly(flowable_do_on_each.FlowableDoOnEach(self, on_next, on_error, on_complete,
                                          on_after_terminate))

    def do_after_next(self, fn: Callable[[T], Any]) -> Flowable[T]:
        """Call ``fn(item)`` after each item went downstream."""
        require_callable(fn, "on_after_next")
        return _assembly(flowable_do_after_next.FlowableDoAfterNext(self, fn))

    def do_on_subscribe(self, fn: Callable[[Subscription], Any]) -> Flowable[T]:
        """Call ``fn(subscription)`` with the upstream's Subscription before the downstream's
        ``on_subscribe``.

        If ``fn`` raises, the upstream is cancelled and the downstream gets an empty Subscription
        then the error (§1.9).
        """
        require_callable(fn, "on_subscribe")
        return self.do_on_lifecycle(on_subscribe=fn)

    def do_on_request(self, fn: Callable[[int], Any]) -> Flowable[T]:
        """Call ``fn(n)`` before each request goes upstream; an error ``fn`` raises goes to
        :func:`rxpy2.plugins.on_error` and the request still goes upstream (§3.16)."""
        require_callable(fn, "on_request")
        return self.do_on_lifecycle(on_request=fn)

    def do_on_cancel(self, fn: Callable[[], Any]) -> Flowable[T]:
        """Call ``fn()`` once, before the first cancellation goes upstream; an error ``fn``
        raises goes to :func:`rxpy2.plugins.on_error` and the upstream is still cancelled
        (§3.15)."""
        require_callable(fn, "on_cancel")
        return self.do_on_lifecycle(on_cancel=fn)

    def do_on_lifecycle(self, on_subscribe: Callable[[Subscription], Any] | None = None,
                        on_request: Callable[[int], Any] | None = None,
                        on_cancel: Callable[[], Any] | None = None) -> Flowable[T]:
        """Call the given functions on subscription, each request and cancellation."""
        for f, name in ((on_subscribe, "on_subscribe"), (on_request, "on_request"),
                        (on_cancel, "on_cancel")):
            if f is not None:
                require_callable(f, name)
        return _assembly(flowable_do_on_lifecycle.FlowableDoOnLifecycle(self, on_subscribe, on_request, on_cancel))

    def do_finally(self, fn: Callable[[], Any]) -> Flowable[T]:
        """Call ``fn()`` once after termination or cancellation, whichever comes first."""
        require_callable(fn, "on_finally")
        return _assembly(flowable_do_finally.FlowableDoFinally(self, fn))

    # ------------------------------------------------------------------ threads (observe_on, subscribe_on, ...)
    # (section: asynchronous operators)

    def observe_on(self, scheduler: Scheduler, delay_error: bool = False,
                   buffer_size: int = BUFFER_SIZE) -> Flowable[T]:
        """Deliver the signals on a worker of ``scheduler``, through a bounded queue.

        The upstream is asked for ``buffer_size`` items, then for 75% of that each time
        as many went downstream; at most ``buffer_size`` items wait in the queue (more:
        ``MissingBackpressureException``). An error overtakes the queued items unless
        ``delay_error``.
        """
        require_scheduler(scheduler)
        require_positive(buffer_size, "buffer_size")
        return _assembly(flowable_observe_on.FlowableObserveOn(self, scheduler, bool(delay_error), buffer_size))

    def subscribe_on(self, scheduler: Scheduler, request_on: bool = True) -> Flowable[T]:
        """Subscribe to this Flowable on a worker of ``scheduler``.

        With ``request_on`` (and unless this is a ``Flowable.create``) requests made from
        other threads are also run on that worker.
        """
        require_scheduler(scheduler)
        return _assembly(flowable_subscribe_on.FlowableSubscribeOn.assemble(self, scheduler,
                                                                           bool(request_on)))

    def unsubscribe_on(self, scheduler: Scheduler) -> Flowable[T]:
        """Run the upstream's ``cancel`` on ``scheduler``."""
        require_scheduler(scheduler)
        return _assembly(flowable_unsubscribe_on.FlowableUnsubscribeOn(self, scheduler))

    @staticmethod
    def interval(period: float, initial_delay: float | None = None,
                 scheduler: Scheduler | None = None) -> Flowable[int]:
        """0, 1, 2, ... every ``period`` seconds (first after ``initial_delay``, default
        ``period``), on ``scheduler`` (default computation). A tick without demand ends the
        stream with ``MissingBackpressureException``: time drives it, not demand, so put
        ``on_backpressure_drop()/on_backpressure_latest()/on_backpressure_buffer()`` after it when the consumer may be
        slower. A negative or infinite ``period`` is a ``ValueError``; a period of 0 ticks
        as fast as the scheduler's thread allows."""
        p = check_time(period, "period")  # range-checked by FlowableInterval
        d = p if initial_delay is None else max(0.0, check_time(initial_delay, "initial_delay"))
        return _assembly(flowable_interval.FlowableInterval(p, d, _default_scheduler(scheduler)))

    @staticmethod
    def interval_range(start: int, count: int, initial_delay: float, period: float,
                       scheduler: Scheduler | None = None) -> Flowable[int]:
        """``start, start+1, ..., start+count-1``: the first after ``initial_delay`` seconds,
        then one every ``period``; completes after the last (or after ``initial_delay``
        when ``count`` is 0).

        Backpressure: not honoured, as for :meth:`interval`: a tick without demand ends
        the stream with ``MissingBackpressureException``."""
        if not isinstance(start, int) or isinstance(start, bool):
            raise TypeError(f"start must be an int, not {type(start).__name__}")
        require_non_negative(count, "count")
        if count > 0 and start + count - 1 > LONG_MAX:
            raise ValueError("Overflow! start + count is bigger than LONG_MAX")
        d = max(0.0, check_time(initial_delay, "initial_delay"))
        p = check_time(period, "period")  # range-checked by FlowableIntervalRange
        return _assembly(flowable_interval.FlowableIntervalRange(start, count, d, p, _default_scheduler(scheduler)))

    @staticmethod
    def timer(delay: float, scheduler: Scheduler | None = None) -> Flowable[int]:
        """Emit ``0`` after ``delay`` seconds, then complete.

        Backpressure: the ``0`` needs demand by then, else the stream ends with
        ``MissingBackpressureException``."""
        d = max(0.0, check_time(delay, "delay"))
        return _assembly(flowable_timer.FlowableTimer(d, _default_scheduler(scheduler)))

    def on_backpressure_buffer(self, capacity: int | None = None,
                               on_overflow: Callable[[], Any] | None = None,
                               overflow_strategy: BackpressureOverflowStrategy =
                               BackpressureOverflowStrategy.ERROR,
                               delay_error: bool = False) -> Flowable[T]:
        """Keep the items nobody requested yet; request everything upstream.

        Without ``capacity`` the buffer is unbounded. With one, a full buffer under
        ``ERROR`` cancels the upstream, calls ``on_overflow`` and signals
        ``MissingBackpressureException`` (the buffer of ``capacity`` items is full);
        under ``DROP_OLDEST`` /
        ``DROP_LATEST`` it drops the oldest / newest buffered item and calls ``on_overflow``.
        """
        if on_overflow is not None:
            require_callable(on_overflow, "on_overflow")
        if not isinstance(overflow_strategy, BackpressureOverflowStrategy):
            raise TypeError("overflow_strategy must be a BackpressureOverflowStrategy")
        if capacity is not None:
            require_positive(capacity, "capacity")
        if overflow_strategy is BackpressureOverflowStrategy.ERROR:
            return _assembly(flowable_on_backpressure.FlowableOnBackpressureBuffer(self, capacity, bool(delay_error),
                                                            on_overflow))
        if capacity is None:
            raise ValueError(f"{overflow_strategy} needs a capacity")
        return _assembly(flowable_on_backpressure.FlowableOnBackpressureBufferStrategy(
            self, capacity, on_overflow, overflow_strategy, bool(delay_error)))

    def on_backpressure_drop(self, on_drop: Callable[[T], Any] | None = None) -> Flowable[T]:
        """Drop the items that find no demand (giving each to ``on_drop``)."""
        if on_drop is not None:
            require_callable(on_drop, "on_drop")
        return _assembly(flowable_on_backpressure.FlowableOnBackpressureDrop(self, on_drop))

    def on_backpressure_latest(self) -> Flowable[T]:
        """Keep only the latest item that found no demand."""
        return _assembly(flowable_on_backpressure.FlowableOnBackpressureLatest(self))

    def on_backpressure_error(self) -> Flowable[T]:
        """End with ``MissingBackpressureException`` when an item finds no demand."""
        return _assembly(flowable_on_backpressure.FlowableOnBackpressureError(self))

    # ------------------------------------------------------------------ time (delay, timeout, sample, ...)
    # (section: time operators)

    def timestamp(self, scheduler: Scheduler | None = None) -> Flowable[Timed[T]]:
        """Each item as ``Timed(item, scheduler.now())``."""
        return _assembly(flowable_time_interval.FlowableTimeInterval(self, time_args.scheduler_or_computation(scheduler), False))

    def time_interval(self, scheduler: Scheduler | None = None) -> Flowable[Timed[T]]:
        """Each item as ``Timed(item, seconds since the previous item or the subscription)``."""
        return _assembly(flowable_time_interval.FlowableTimeInterval(self, time_args.scheduler_or_computation(scheduler), True))

    def delay(self, delay: float | Callable[[T], Publisher[Any]], scheduler: Scheduler | None = None,
              delay_error: bool = False, *,
              subscription_delay: Publisher[Any] | None = None) -> Flowable[T]:
        """Each item and the completion ``delay`` seconds later (an error at once unless
        ``delay_error``), on one worker of ``scheduler`` (computation by default).

        With a function instead of a time (RxJava 2's ``delay(Function)``, which is
        ``flat_map(item -> delay(item).take(1).map(-> item).default_if_empty(item))``):
        each item goes out when the Publisher ``delay(item)`` signals its first item or
        completes (so items may change order); its error ends the stream. With
        ``subscription_delay`` too: ``delay_subscription(subscription_delay)`` first."""
        if subscription_delay is not None or callable(delay):
            require_callable(delay, "delay")
            if scheduler is not None or delay_error:
                raise TypeError("delay(function) takes no scheduler nor delay_error")
            if subscription_delay is not None:
                require_publisher(subscription_delay, "subscription_delay")
            source = self if subscription_delay is None else self.delay_subscription(subscription_delay)
            return source.flat_map(flowable_delay_subscription_other.item_delay(delay))  # type: ignore[arg-type]  # a callable in this branch
        d = require_duration(delay, "delay")
        return _assembly(flowable_delay.FlowableDelay(self, d, time_args.scheduler_or_computation(scheduler),
                                       bool(delay_error)))

    def delay_subscription(self, delay: float | Publisher[Any],
                           scheduler: Scheduler | None = None) -> Flowable[T]:
        """Subscribe to this Flowable ``delay`` seconds after the subscription, or (RxJava
        2's ``delaySubscription(Publisher)``) when the Publisher ``delay`` signals its first
        item or completes; its error before that is signalled instead."""
        if isinstance(delay, Publisher):
            if scheduler is not None:
                raise TypeError("scheduler goes only with a time in seconds")
            return _assembly(flowable_delay_subscription_other.FlowableDelaySubscriptionOther(self, delay))
        d = require_duration(delay, "delay")
        return _assembly(flowable_delay.FlowableDelaySubscription(self, d, time_args.scheduler_or_computation(scheduler)))

    def timeout(self, timeout: float | None = None, scheduler: Scheduler | None = None,
                fallback: Publisher[T] | None = None, *,
                item_timeout: Callable[[T], Publisher[Any]] | None = None,
                first_timeout: Publisher[Any] | None = None) -> Flowable[T]:
        """``TimeoutError`` (or a switch to ``fallback``) when the first item, or the next
        one, does not arrive within ``timeout`` seconds.

        With ``item_timeout`` instead of a time (RxJava 2's ``timeout(Function...)``
        overloads): each item starts the Publisher ``item_timeout(item)`` and the next
        item must come before it signals; the first item must come before
        ``first_timeout`` signals (no limit without it). An indicator's first item or
        completion is the timeout (``TimeoutError()`` or the switch to ``fallback``);
        its error ends the stream."""
        if fallback is not None:
            require_publisher(fallback, "fallback")
        if item_timeout is not None or first_timeout is not None:
            require_callable(item_timeout, "item_timeout")
            if first_timeout is not None:
                require_publisher(first_timeout, "first_timeout")
            if timeout is not None or scheduler is not None:
                raise TypeError("timeout() takes either a time or item_timeout, not both")
            return _assembly(flowable_timeout.FlowableTimeout(self, first_timeout, item_timeout,  # type: ignore[arg-type]  # not None in this branch
                                                   fallback))
        if timeout is None:
            raise TypeError("timeout is None")
        t = require_duration(timeout, "timeout")
        return _assembly(flowable_timeout_timed.FlowableTimeoutTimed(self, t, time_args.scheduler_or_computation(scheduler),
                                              fallback))

    def sample(self, period: float | Publisher[Any], scheduler: Scheduler | None = None,
               emit_last: bool = False) -> Flowable[T]:
        """The latest item of each ``period`` seconds (the last one at completion if
        ``emit_last``); or, when ``period`` is a Publisher (the sampler), the latest
        item at each of its items (the completion of either side completes).

        Backpressure: time (the sampler) drives the samples; one that finds no demand ends the stream
        with ``MissingBackpressureException`` (put
        ``on_backpressure_drop()/on_backpressure_latest()/on_backpressure_buffer()`` after it when the consumer may be
        slower)."""
        if isinstance(period, Publisher):
            if scheduler is not None:
                raise TypeError("scheduler applies to a timed sample, not to a sampler Publisher")
            return _assembly(flowable_sample_publisher.FlowableSamplePublisher(self, period, bool(emit_last)))
        p = require_duration(period, "period", finite=True)  # a periodic task's period
        return _assembly(flowable_sample_timed.FlowableSampleTimed(self, p, time_args.scheduler_or_computation(scheduler),
                                             bool(emit_last)))

    def throttle_last(self, period: float, scheduler: Scheduler | None = None,
                      emit_last: bool = False) -> Flowable[T]:
        """The same as the timed :meth:`sample`."""
        require_duration(period, "period", finite=True)
        return self.sample(period, scheduler, emit_last)

    def throttle_first(self, window: float, scheduler: Scheduler | None = None) -> Flowable[T]:
        """The first item, then nothing for ``window`` seconds, and again.

        Backpressure: an item that finds no demand ends the stream with
        ``MissingBackpressureException`` (add ``on_backpressure_*`` after it)."""
        w = require_duration(window, "window")
        return _assembly(flowable_throttle_first_timed.FlowableThrottleFirstTimed(self, w, time_args.scheduler_or_computation(scheduler)))

    def throttle_latest(self, timeout: float, scheduler: Scheduler | None = None,
                        emit_last: bool = False) -> Flowable[T]:
        """An item at once, then at most the latest one per ``timeout`` seconds.

        Backpressure: an item due by the timer without demand ends the stream with
        ``MissingBackpressureException`` (add ``on_backpressure_*`` after it)."""
        t = require_duration(timeout, "timeout")
        return _assembly(flowable_throttle_latest.FlowableThrottleLatest(self, t, time_args.scheduler_or_computation(scheduler),
                                                bool(emit_last)))

    def debounce(self, timeout: float | Callable[[T], Publisher[Any]],
                 scheduler: Scheduler | None = None) -> Flowable[T]:
        """An item once ``timeout`` seconds passed without a newer one (the last at once
        at completion).

        With a function instead of a time (RxJava 2's ``debounce(Function)``): each item
        starts the Publisher ``timeout(item)`` and is emitted when that signals its first
        item or completes, unless a newer item came first; its error ends the stream.

        Backpressure: an item due by the timer without demand ends the stream with
        ``MissingBackpressureException`` (add ``on_backpressure_*`` after it)."""
        if callable(timeout):
            if scheduler is not None:
                raise TypeError("debounce(selector) takes no scheduler")
            return _assembly(flowable_debounce.FlowableDebounce(self, timeout))
        t = require_duration(timeout, "timeout")
        return _assembly(flowable_debounce_timed.FlowableDebounceTimed(self, t, time_args.scheduler_or_computation(scheduler)))

    def throttle_with_timeout(self, timeout: float, scheduler: Scheduler | None = None) -> Flowable[T]:
        """The same as :meth:`debounce` (RxJava's other name for it)."""
        return self.debounce(timeout, scheduler)

    def buffer_time(self, timespan: float, scheduler: Scheduler | None = None,
                    count: int | None = None, timeskip: float | None = None,
                    restart_timer_on_max_size: bool = False,
                    buffer_factory: Callable[[], Any] | None = None) -> Flowable[list[T]]:
        """Lists of the items of each ``timespan`` seconds (empty ones too), or of
        ``count`` items when that comes first (``restart_timer_on_max_size``: the
        timer then starts over).

        ``timeskip`` (default ``timespan``): a new list opens every ``timeskip``
        seconds and closes ``timespan`` seconds later: overlapping lists when
        ``timeskip < timespan``, gaps (items dropped) when ``timeskip > timespan``
        (not with ``count``, as RxJava). ``buffer_factory`` makes each collection
        instead of ``list`` (RxJava's ``bufferSupplier``).

        Backpressure: time closes the lists, not demand; a list that finds no demand
        ends the stream with ``MissingBackpressureException`` (put
        ``on_backpressure_drop()/on_backpressure_latest()/on_backpressure_buffer()`` after it when the consumer may be
        slower)."""
        t = require_duration(timespan, "timespan", finite=True)  # a periodic task's period
        if t == 0.0:
            raise ValueError("timespan > 0 required but it was 0")
        skip_t = t if timeskip is None else require_duration(timeskip, "timeskip", finite=True)
        if skip_t == 0.0:
            raise ValueError("timeskip > 0 required but it was 0")
        if count is not None:
            require_positive(count, "count")
            if skip_t != t:
                raise ValueError("count applies to buffers with timeskip == timespan")
        elif restart_timer_on_max_size:
            raise ValueError("restart_timer_on_max_size applies with count")
        factory: Callable[[], Any] = list
        if buffer_factory is not None:
            require_callable(buffer_factory, "buffer_factory")
            factory = buffer_factory
        return _assembly(flowable_buffer_timed.FlowableBufferTimed(self, t, time_args.scheduler_or_computation(scheduler),
                                             count, skip_t, bool(restart_timer_on_max_size),
                                             factory))

    def take_time(self, duration: float, scheduler: Scheduler | None = None) -> Flowable[T]:
        """The items of the first ``duration`` seconds, then completion."""
        d = require_duration(duration, "duration")
        return self.take_until(flowable_timer.FlowableTimer(d, time_args.scheduler_or_computation(scheduler)))

    def skip_time(self, duration: float, scheduler: Scheduler | None = None) -> Flowable[T]:
        """The items after the first ``duration`` seconds."""
        d = require_duration(duration, "duration")
        return self.skip_until(flowable_timer.FlowableTimer(d, time_args.scheduler_or_computation(scheduler)))

    # ------------------------------------------------------------------ multicasting (publish, replay, share, cache)
    # (section: multicast operators)

    @overload
    def publish(self, buffer_size: int = BUFFER_SIZE) -> ConnectableFlowable[T]: ...

    @overload
    def publish(self, buffer_size: int = BUFFER_SIZE, *,
                selector: Callable[[Flowable[T]], Publisher[R]]) -> Flowable[R]: ...

    def publish(self, buffer_size: int = BUFFER_SIZE, *,
                selector: Callable[[Flowable[T]], Publisher[R]] | None = None) -> Any:
        """A ConnectableFlowable sharing one upstream subscription: it prefetches
        ``buffer_size`` items and emits at the pace of the slowest subscriber.

        With ``selector`` (RxJava 2's ``publish(selector, prefetch)``, the prefetch being
        ``buffer_size``): a Flowable that, per subscriber, shares one subscription of the
        source with ``selector(shared)`` (subscribe to ``shared`` as often as needed inside
        it; the items go to all at the pace of the slowest) and emits what the selector's
        Publisher emits; when that ends or is cancelled, the source is cancelled."""
        require_positive(buffer_size, "buffer_size")
        if selector is not None:
            require_callable(selector, "selector")
            return _assembly(flowable_publish_multicast.FlowablePublishMulticast(self, selector, buffer_size))
        return _assembly(flowable_publish.FlowablePublish(self, buffer_size))

    @overload
    def replay(self, buffer_size: int | None = None, time: float | None = None,
               scheduler: Scheduler | None = None) -> ConnectableFlowable[T]: ...

    @overload
    def replay(self, buffer_size: int | None = None, time: float | None = None,
               scheduler: Scheduler | None = None, *,
               selector: Callable[[Flowable[T]], Publisher[R]]) -> Flowable[R]: ...

    def replay(self, buffer_size: int | None = None, time: float | None = None,
               scheduler: Scheduler | None = None, *,
               selector: Callable[[Flowable[T]], Publisher[R]] | None = None) -> Any:
        """A ConnectableFlowable that replays the items (all of them, or the last
        ``buffer_size``) to every subscriber, also after the stream ended.

        RxJava 2's other ``replay`` overloads:

        * ``time``: only the items of the last ``time`` seconds by ``scheduler``'s clock
          (computation by default), and at most ``buffer_size`` when given; a late
          subscriber gets the items not yet expired, then the terminal event.
        * ``scheduler`` without ``time``: the subscribers get the signals through
          ``observe_on(scheduler)``.
        * ``selector``: a Flowable that, per subscriber, replays the source to
          ``selector(shared)`` (subscribe to ``shared`` as often as needed inside it)
          and emits what the selector's Publisher emits; the connection ends with it.
        """
        if buffer_size is not None:
            require_positive(buffer_size, "buffer_size")
        if selector is not None:
            require_callable(selector, "selector")
        if scheduler is not None:
            require_scheduler(scheduler)
        observe: Scheduler | None = None
        if time is not None:
            t = require_duration(time, "time")
            clock = time_args.scheduler_or_computation(scheduler)

            def factory() -> ConnectableFlowable[T]:
                return flowable_replay.FlowableReplay(self, buffer_size, t, clock)
        else:
            observe = scheduler

            def factory() -> ConnectableFlowable[T]:
                return flowable_replay.FlowableReplay(self, buffer_size)
        if selector is None:
            cf = factory()
            if observe is not None:
                cf = flowable_multicast_selector.ConnectableObserveOn(cf, observe)
            return _assembly(cf)
        sel = selector
        if observe is not None:
            on = observe

            def sel(shared: Flowable[T]) -> Publisher[R]:
                return Flowable.from_publisher(selector(shared)).observe_on(on)
        return _assembly(flowable_multicast_selector.FlowableMulticastSelector(factory, sel))

    def share(self) -> Flowable[T]:
        """``publish().ref_count()``."""
        return self.publish().ref_count()

    def cache(self) -> Flowable[T]:
        """Subscribe upstream (unbounded) with the first subscriber; replay every item and
        the terminal event to every subscriber, whenever it comes."""
        return _assembly(flowable_replay.FlowableCache(self))

    # ------------------------------------------------------------------ conversions

    @overload
    def blocking_subscribe(self, subscriber: Subscriber[T], /) -> None: ...

    @overload
    def blocking_subscribe(self, on_next: Callable[[T], Any] | None = None,
                           on_error: Callable[[BaseException], Any] | None = None,
                           on_complete: Callable[[], Any] | None = None,
                           buffer_size: int = BUFFER_SIZE) -> None: ...

    def blocking_subscribe(self, on_next: Any = None, on_error: Any = None,
                           on_complete: Any = None, buffer_size: int = BUFFER_SIZE) -> None:
        """Subscribe and block the calling thread until the stream terminates.

        With callbacks: they run on the calling thread; without ``on_error`` the
        stream's error is raised there. ``buffer_size`` items are requested at first,
        then three quarters of it at a time as they are consumed.

        ``blocking_subscribe(subscriber)``: the upstream's signals are queued and
        delivered to ``subscriber`` on the calling thread, ``on_subscribe`` first; the
        subscriber requests what it wants. Returns after its terminal signal, or once it
        cancelled.
        """
        if isinstance(on_next, Subscriber) or subscriber_like(on_next):
            if on_error is not None or on_complete is not None or buffer_size != BUFFER_SIZE:
                raise TypeError("blocking_subscribe(subscriber) takes no callbacks")
            flowable_blocking.blocking_subscribe_subscriber(self, on_next)
            return
        if on_next is not None and not callable(on_next):
            refuse_rxpy_observer(on_next, _SUBSCRIBER_EXPECTED)
        require_positive(buffer_size, "buffer_size")
        flowable_blocking.blocking_subscribe(self, on_next, on_error, on_complete, buffer_size)

    def blocking_iterable(self, buffer_size: int = BUFFER_SIZE) -> Iterable[T]:
        """An iterable over the items, blocking while waiting; a bounded buffer in between."""
        require_positive(buffer_size, "buffer_size")
        return flowable_blocking.BlockingIterable(self, buffer_size)

    @overload
    def blocking_first(self) -> T: ...

    @overload
    def blocking_first(self, default: D) -> T | D: ...

    def blocking_first(self, default: Any = ABSENT) -> Any:
        """Block until the first item and return it (cancelling the rest of the stream).

        An empty stream returns ``default``, or raises ``IndexError`` without one;
        the stream's error is raised in the calling thread.
        """
        return flowable_blocking.blocking_value(self, 0, default)

    @overload
    def blocking_last(self) -> T: ...

    @overload
    def blocking_last(self, default: D) -> T | D: ...

    def blocking_last(self, default: Any = ABSENT) -> Any:
        """Block until the stream completes and return its last item (see :meth:`blocking_first`)."""
        return flowable_blocking.blocking_value(self, 1, default)

    @overload
    def blocking_single(self) -> T: ...

    @overload
    def blocking_single(self, default: D) -> T | D: ...

    def blocking_single(self, default: Any = ABSENT) -> Any:
        """Block until the stream completes and return its only item; a second item cancels
        the stream and raises ``ValueError`` (empty: see :meth:`blocking_first`)."""
        return flowable_blocking.blocking_value(self, 2, default)

    def blocking_for_each(self, fn: Callable[[T], Any]) -> None:
        """Call ``fn(item)`` on the calling thread for each item; block until the end.

        The stream's error (or what ``fn`` raised, after cancelling) is raised here.
        """
        require_callable(fn, "on_next")
        flowable_blocking.blocking_subscribe(self, fn, None, None)

    def blocking_latest(self) -> Iterable[T]:
        """An iterable whose ``next()`` returns the latest item not yet returned (waiting
        for one); items emitted between two ``next()`` calls are skipped but the last."""
        return flowable_blocking.blocking_latest(self)

    def blocking_next(self) -> Iterable[T]:
        """An iterable whose ``next()`` waits for the next item emitted after the call."""
        return flowable_blocking.blocking_next(self)

    def blocking_most_recent(self, initial: T) -> Iterable[T]:
        """An iterable that never waits: each ``next()`` is the most recent item
        (``initial`` before the first one) until the stream terminates."""
        require(initial, "initial")
        return flowable_blocking.blocking_most_recent(self, initial)

    def to_future(self) -> concurrent.futures.Future[T]:
        """Subscribe now; a ``concurrent.futures.Future`` of the only item.

        Empty: ``IndexError``; more than one item: ``ValueError`` (and the stream is
        cancelled); the stream's error fails the future. Cancelling the future
        cancels the subscription, and so does a ``KeyboardInterrupt`` (any fatal
        exception) while ``result()``/``exception()`` waits; a ``TimeoutError`` of
        ``result(timeout)`` leaves both running.
        """
        return flowable_future.to_future(self)

    @staticmethod
    def from_future(future: concurrent.futures.Future[ItemT], timeout: float | None = None,
                    scheduler: Scheduler | None = None) -> Flowable[ItemT]:
        """The result of ``future`` when it completes, without blocking a thread.

        A ``None`` result is an empty stream. With ``timeout`` (seconds), ``TimeoutError``
        if the future is not done by then (timed on ``scheduler``, default
        ``Schedulers.computation()``). Cancelling does not cancel the future.
        """
        require(future, "future")
        if not callable(getattr(future, "add_done_callback", None)):
            raise TypeError(f"future must be a concurrent.futures.Future, not {type(future).__name__}")
        if timeout is not None:
            timeout = check_time(timeout, "timeout")
        return _assembly(flowable_future.FlowableFromFuture(future, timeout, scheduler))

    def to_async_iterable(self, prefetch: int = BUFFER_SIZE) -> AsyncIterable[T]:
        """``async for x in flowable.to_async_iterable()``: demand follows the consumer.

        Requests ``prefetch`` first, then ``prefetch - prefetch // 4`` each time that many
        items were taken. Leaving the loop, ``aclose()`` or cancelling the task cancels
        the subscription.
        """
        require_positive(prefetch, "prefetch")
        return flowable_asyncio.FlowableAsyncIterable(self, prefetch)

    @staticmethod
    def from_async_iterable(aiterable: AsyncIterable[ItemT],
                            loop: asyncio.AbstractEventLoop | None = None) -> Flowable[ItemT]:
        """Pull ``aiterable`` on ``loop`` (the running loop at subscription when None), one
        ``__anext__`` per unit of demand; items are emitted on the loop's thread."""
        require(aiterable, "aiterable")
        if not callable(getattr(aiterable, "__aiter__", None)):
            raise TypeError(f"aiterable must be an async iterable, not {type(aiterable).__name__}")
        return _assembly(flowable_asyncio.FlowableFromAsyncIterable(aiterable, loop))

    def __iter__(self) -> Iterator[T]:
        """``for x in flowable`` iterates :meth:`blocking_iterable`."""
        return iter(self.blocking_iterable())

    def __aiter__(self) -> AsyncIterator[T]:
        """``async for x in flowable`` iterates :meth:`to_async_iterable` (prefetch 128):
        a new subscription per loop, demand following the consumer; leaving the loop
        cancels it."""
        return self.to_async_iterable().__aiter__()


def _single_assembly(s: _S) -> _S:
    return plugins.on_assembly("single", s) if plugins.hooks_active else s


def _maybe_assembly(s: _S) -> _S:
    return plugins.on_assembly("maybe", s) if plugins.hooks_active else s


def _completable_assembly(s: _S) -> _S:
    return plugins.on_assembly("completable", s) if plugins.hooks_active else s


def _identity(x: Any) -> Any:
    return x


def _add_to(collection: Any, value: Any) -> None:
    """``to_multimap``: add to a collection by its ``append`` (list, deque) or ``add`` (set)."""
    append = getattr(collection, "append", None)
    if append is not None:
        append(value)
    else:
        collection.add(value)


def _with_combiner(mapper: Callable[[Any], Publisher[Any]],
                   combiner: Callable[[Any, Any], Any]) -> Callable[[Any], Publisher[Any]]:
    """flat_map with a combiner: the inner Publisher of ``t`` mapped by ``combiner(t, u)``."""
    def inner(t: Any) -> Publisher[Any]:
        p = mapper(t)
        if p is None:
            raise returned_none("flat_map", mapper)
        return Flowable.from_publisher(p).map(lambda u: combiner(t, u))
    return inner


def _scalar_x_map(source: Flowable[Any], mapper: Callable[[Any], Publisher[Any]]) -> Flowable[Any] | None:
    """flat_map/concat_map/switch_map over a constant scalar source: ``empty()`` stays
    empty and ``just(x)`` becomes ``mapper(x)`` subscribed directly (at subscription);
    ``None`` for any other source."""
    if not isinstance(source, ScalarCallable):
        return None
    return flowable_scalar_x_map.scalar_x_map(source, mapper)


def _as_publisher(other: Any, name: str) -> Publisher[Any]:
    """``other`` if a Publisher; a Single's, Maybe's or Completable's ``to_flowable()``."""
    if isinstance(other, Publisher):
        return other
    if isinstance(other, ZeroOneBase):
        return other.to_flowable()
    require(other, name)
    raise TypeError(f"{name} must be a Publisher, Single, Maybe or Completable, "
                    f"not {type(other).__name__}")


def _zero_one_mapper(mapper: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The mapper of concat_map_/switch_map_single/maybe/completable, checked at assembly."""
    require_callable(mapper, "mapper")
    return mapper


def _prefetch(prefetch: int) -> int:
    require_positive(prefetch, "prefetch")
    return prefetch


def _delayed_mode(till_the_end: bool) -> Any:
    """The ErrorMode of a ``_delay_error`` concat: END (``till_the_end``) or BOUNDARY."""
    return ErrorMode.END if till_the_end else ErrorMode.BOUNDARY


def _merge(sources: Any, max_concurrency: int, buffer_size: int, delay_errors: bool) -> Flowable[Any]:
    require(sources, "sources")
    require_positive(max_concurrency, "max_concurrency")
    require_positive(buffer_size, "buffer_size")
    if isinstance(sources, Publisher):
        outer = Flowable.from_publisher(sources)
    elif isinstance(sources, (tuple, list)):
        outer = Flowable.from_array(sources)
    else:
        outer = Flowable.from_iterable(sources)
    return _assembly(flowable_flat_map.FlowableFlatMap(outer, _identity, delay_errors, max_concurrency, buffer_size))


def _zip(sources: Any, zipper: Any, delay_error: bool, buffer_size: int) -> Flowable[Any]:
    if zipper is not None:
        require_callable(zipper, "zipper")
    require_positive(buffer_size, "buffer_size")
    return _assembly(flowable_zip.FlowableZip(sources, zipper, bool(delay_error), buffer_size))


def _combine_latest(sources: tuple[Any, ...], combiner: Any, buffer_size: int,
                    delay_error: bool) -> Flowable[Any]:
    sources, combiner = trailing_function(sources, combiner, "combiner")
    _require_sources(sources, "combine_latest_iterable")
    if combiner is not None:
        require_callable(combiner, "combiner")
    require_positive(buffer_size, "buffer_size")
    return _assembly(flowable_combine_latest.FlowableCombineLatest(sources, combiner, buffer_size, delay_error))
