"""ParallelFlowable: a stream split into ``parallelism`` rails that are processed side by side.

A ParallelFlowable is not a Publisher: it is subscribed with a sequence of
exactly ``parallelism`` Subscribers, one per rail (:meth:`ParallelFlowable.subscribe`).
``Flowable.parallel(n)`` hands the items of a Flowable out to ``n`` rails,
round-robin among the rails that have demand; ``run_on(scheduler)`` moves each
rail onto a worker of its own; ``map``/``filter``/``do_on_next`` (with an
``error_handling=`` :class:`~rxpy2.parallel.ParallelFailureHandling`),
``flat_map``/``concat_map``, ``reduce_with``/``collect`` and the ``do_*``
callbacks work rail by rail; ``sequential()``, ``sorted()``,
``to_sorted_list()`` and ``reduce(reducer)`` join the rails into a Flowable again.
``compose``/``to`` apply a function to the whole ParallelFlowable; ``from_``/
``from_array`` (RxJava's ``from``/``fromArray``) build one from Publishers.

Every fluent method validates its arguments (``TypeError`` for ``None`` or a
non-callable where a function is required and for a non-Scheduler,
``ValueError`` for a non-positive size) and returns an operator from
``rxpy2/_internal/operators/parallel/``; the parallel assembly hook
(:func:`rxpy2.plugins.set_on_parallel_assembly`) sees each new ParallelFlowable.
"""

from __future__ import annotations

import os
from abc import ABC
from abc import abstractmethod
from collections.abc import Callable
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar
from typing import final

from rxpy2 import plugins
from rxpy2._internal.arguments import assembly
from rxpy2._internal.arguments import require_subscriber
from rxpy2._internal.assembly import user_site
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.name_trap import check_class as _check_fields
from rxpy2._internal.operators.flowable import flowable_checkpoint
from rxpy2._internal.operators.parallel import parallel_checkpoint
from rxpy2._internal.operators.parallel import parallel_concat_map
from rxpy2._internal.operators.parallel import parallel_do_on_next_try
from rxpy2._internal.operators.parallel import parallel_filter
from rxpy2._internal.operators.parallel import parallel_filter_try
from rxpy2._internal.operators.parallel import parallel_flat_map
from rxpy2._internal.operators.parallel import parallel_from_array
from rxpy2._internal.operators.parallel import parallel_from_publisher
from rxpy2._internal.operators.parallel import parallel_join
from rxpy2._internal.operators.parallel import parallel_map
from rxpy2._internal.operators.parallel import parallel_map_try
from rxpy2._internal.operators.parallel import parallel_peek
from rxpy2._internal.operators.parallel import parallel_reduce
from rxpy2._internal.operators.parallel import parallel_reduce_full
from rxpy2._internal.operators.parallel import parallel_run_on
from rxpy2._internal.operators.parallel import parallel_sorted_join
from rxpy2._internal.subscribers import strict
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import R
from rxpy2._internal.type_vars import T
from rxpy2._internal.type_vars import U
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import BUFFER_SIZE
from rxpy2.operator_kit import require_callable
from rxpy2.operator_kit import require_positive
from rxpy2.operator_kit import require_publisher
from rxpy2.operator_kit import require_scheduler
from rxpy2.parallel.parallel_failure_handling import ParallelFailureHandling
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

if TYPE_CHECKING:
    from rxpy2.flowable import Flowable
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["ParallelFlowable"]


P = TypeVar("P", bound="ParallelFlowable[Any]")

#: what ``error_handling=`` takes: a ParallelFailureHandling, or a function
#: ``(count, error) -> ParallelFailureHandling`` (``count`` starts at 1)
ErrorHandling = ParallelFailureHandling | Callable[[int, BaseException], ParallelFailureHandling]


def _parallel_assembly(p: P) -> P:
    if plugins.hooks_active:
        return plugins.on_assembly("parallel", p)
    return p


class ParallelFlowable(ABC, Generic[T]):
    """``parallelism`` rails of items, subscribed with one Subscriber per rail."""

    __slots__ = ()

    def __repr__(self) -> str:
        """The chain, e.g. ``just(1) → map(parse)``."""
        from rxpy2._internal import describe  # loaded on first use: import stays cheap

        return describe.chain_repr(self)

    def explain(self) -> str:
        """The chain, one line per stage (see :meth:`rxpy2.Flowable.explain`)."""
        from rxpy2._internal import describe

        return describe.explain(self)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "subscribe" in cls.__dict__:
            raise TypeError(f"{cls.__name__} must not override ParallelFlowable.subscribe; "
                            "implement subscribe_actual instead")
        _check_fields(cls)  # no name trap: a field never hides a fluent method

    # ------------------------------------------------------------------ subscribing

    @property
    @abstractmethod
    def parallelism(self) -> int:
        """The number of rails (the number of Subscribers :meth:`subscribe` expects)."""

    @abstractmethod
    def subscribe_actual(self, subscribers: list[Subscriber[T]]) -> None:
        """Implemented by each operator; ``subscribers`` has exactly ``parallelism``
        FlowableSubscribers."""

    @final
    def subscribe(self, subscribers: Sequence[Subscriber[T]]) -> None:
        """Subscribe one Subscriber per rail.

        ``TypeError`` at the call when ``subscribers`` is ``None`` or one of them is
        ``None`` or not a Subscriber (as ``Flowable.subscribe``), before any rail is
        subscribed: a rail left without its Subscriber would hang the others. When their
        number differs from :attr:`parallelism`, each of them gets
        ``on_subscribe(EmptySubscription)`` and ``on_error(ValueError)`` and nothing
        is subscribed. A Subscriber that is not a FlowableSubscriber is wrapped in a
        StrictSubscriber (as ``Flowable.subscribe`` does).
        """
        if subscribers is None:
            raise TypeError("subscribers is None")
        subs = list(subscribers)
        for i, s in enumerate(subs):
            require_subscriber(s, f"subscribers[{i}]")
        if not self.validate(subs):
            return
        subs = [s if isinstance(s, FlowableSubscriber) else strict.StrictSubscriber(s) for s in subs]
        try:
            self.subscribe_actual(subs)
        except Exception as e:  # §1.9: subscribe returns normally; the error is reported
            plugins.on_error(e)

    def validate(self, subscribers: Sequence[Subscriber[Any]]) -> bool:
        """True when there is one Subscriber per rail; otherwise each gets the error."""
        p = self.parallelism
        if len(subscribers) != p:
            err = ValueError(f"parallelism = {p}, subscribers = {len(subscribers)}")
            for s in subscribers:
                EmptySubscription.error(err, s)
            return False
        return True

    # ------------------------------------------------------------------ sources

    @staticmethod
    def from_publisher(source: Publisher[ItemT], parallelism: int | None = None,
                       prefetch: int = BUFFER_SIZE) -> ParallelFlowable[ItemT]:
        """``source`` split into rails (as ``Flowable.parallel``; default: the CPU count)."""
        require_publisher(source, "source")
        if parallelism is None:
            parallelism = os.cpu_count() or 1
        require_positive(parallelism, "parallelism")
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(parallel_from_publisher.ParallelFromPublisher(source, parallelism, prefetch))

    @staticmethod
    def from_publishers(*rails: Publisher[ItemT]) -> ParallelFlowable[ItemT]:
        """One rail per Publisher: rail ``i`` is ``rails[i]``."""
        if not rails:
            raise ValueError("from_publishers needs at least one Publisher")
        for i, p in enumerate(rails):
            require_publisher(p, f"rails[{i}]")
        return _parallel_assembly(parallel_from_array.ParallelFromArray(rails))

    @staticmethod
    def from_(source: Publisher[ItemT], parallelism: int | None = None,
              prefetch: int = BUFFER_SIZE) -> ParallelFlowable[ItemT]:
        """RxJava's ``ParallelFlowable.from`` (``from`` is a Python keyword): ``source``
        handed out round-robin to ``parallelism`` rails (default: the CPU count) through a
        queue of ``prefetch`` items. The same as :meth:`from_publisher`."""
        return ParallelFlowable.from_publisher(source, parallelism, prefetch)

    @staticmethod
    def from_array(*publishers: Publisher[ItemT]) -> ParallelFlowable[ItemT]:
        """RxJava's ``ParallelFlowable.fromArray``: one rail per Publisher (``ValueError``
        for none). The same as :meth:`from_publishers`."""
        return ParallelFlowable.from_publishers(*publishers)

    # ------------------------------------------------------------------ assembly-time helpers

    def compose(self, composer: Callable[[ParallelFlowable[T]], ParallelFlowable[R]]
                ) -> ParallelFlowable[R]:
        """``composer(self)``, which must be a ParallelFlowable (``TypeError`` otherwise);
        the parallel assembly hook sees the result, as RxJava's ``onAssembly`` does."""
        require_callable(composer, "composer")
        result = composer(self)
        if not isinstance(result, ParallelFlowable):
            raise TypeError(f"compose: the composer returned {type(result).__name__}, "
                            "not a ParallelFlowable")
        return _parallel_assembly(result)

    def to(self, converter: Callable[[ParallelFlowable[T]], U]) -> U:
        """Convert this ParallelFlowable with ``converter(self)`` into any value (what it
        raises propagates)."""
        require_callable(converter, "converter")
        return converter(self)

    # ------------------------------------------------------------------ per rail

    def map(self, mapper: Callable[[T], R], *,
            error_handling: ErrorHandling | None = None) -> ParallelFlowable[R]:
        """``mapper(item)`` on each rail; raising (or returning ``None``) ends that rail
        with the error and cancels its upstream. ``mapper`` may run on several threads.

        With ``error_handling`` (a :class:`ParallelFailureHandling`, or a function
        ``(count, error) -> ParallelFailureHandling``, ``count`` from 1), a failure is
        retried (RETRY), skipped with one more item requested (SKIP), ends the rail with
        completion (STOP) or with the error (ERROR); STOP and ERROR cancel the rail's
        upstream. A handler that raises ends the rail with a CompositeException."""
        require_callable(mapper, "mapper")
        if error_handling is not None:
            require_callable(error_handling, "error_handling")
            return _parallel_assembly(parallel_map_try.ParallelMapTry(self, mapper, error_handling))
        return _parallel_assembly(parallel_map.ParallelMap(self, mapper))

    def filter(self, predicate: Callable[[T], bool], *,
               error_handling: ErrorHandling | None = None) -> ParallelFlowable[T]:
        """Only the items that pass ``predicate`` on each rail (``request(1)`` upstream per
        dropped item). ``error_handling``: what a raising ``predicate`` does, as in
        :meth:`map`."""
        require_callable(predicate, "predicate")
        if error_handling is not None:
            require_callable(error_handling, "error_handling")
            return _parallel_assembly(parallel_filter_try.ParallelFilterTry(self, predicate, error_handling))
        return _parallel_assembly(parallel_filter.ParallelFilter(self, predicate))

    def checkpoint(self, description: str | None = None) -> ParallelFlowable[T]:
        """Mark this point of the parallel chain for debugging, on every rail (see
        :meth:`rxpy2.Flowable.checkpoint`): an error ending a rail here gets a note
        naming ``description``, the ``file:line`` that called ``checkpoint`` and the
        chain before it. Every other signal passes unchanged."""
        flowable_checkpoint.require_description(description)
        return _parallel_assembly(parallel_checkpoint.ParallelCheckpoint(
            self, description, user_site()))

    def do_on_next(self, on_next: Callable[[T], Any], *,
                   error_handling: ErrorHandling | None = None) -> ParallelFlowable[T]:
        """Call ``on_next(item)`` as each item passes on any rail; raising ends that rail
        with the error and cancels its upstream. ``error_handling``: what a raising
        ``on_next`` does, as in :meth:`map`."""
        require_callable(on_next, "on_next")
        if error_handling is not None:
            require_callable(error_handling, "error_handling")
            return _parallel_assembly(parallel_do_on_next_try.ParallelDoOnNextTry(self, on_next, error_handling))
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_next=on_next))

    def do_after_next(self, on_after_next: Callable[[T], Any]) -> ParallelFlowable[T]:
        """Call ``on_after_next(item)`` after each item went on, on any rail; raising ends
        that rail with the error and cancels its upstream."""
        require_callable(on_after_next, "on_after_next")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_after_next=on_after_next))

    def do_on_error(self, on_error: Callable[[BaseException], Any]) -> ParallelFlowable[T]:
        """Call ``on_error(error)`` before a rail's error goes on; raising turns the error
        into ``CompositeException(error, raised)``."""
        require_callable(on_error, "on_error")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_error=on_error))

    def do_on_complete(self, on_complete: Callable[[], Any]) -> ParallelFlowable[T]:
        """Call ``on_complete()`` before a rail completes; raising ends the rail with that
        error instead."""
        require_callable(on_complete, "on_complete")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_complete=on_complete))

    def do_after_terminated(self, on_after_terminate: Callable[[], Any]) -> ParallelFlowable[T]:
        """Call ``on_after_terminate()`` after a rail's error or completion went on; what
        it raises goes to ``plugins.on_error``."""
        require_callable(on_after_terminate, "on_after_terminate")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_after_terminated=on_after_terminate))

    def do_on_subscribe(self, on_subscribe: Callable[[Subscription], Any]) -> ParallelFlowable[T]:
        """Call ``on_subscribe(upstream_subscription)`` as each rail is subscribed; raising
        cancels that Subscription and ends the rail with the error."""
        require_callable(on_subscribe, "on_subscribe")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_subscribe=on_subscribe))

    def do_on_request(self, on_request: Callable[[int], Any]) -> ParallelFlowable[T]:
        """Call ``on_request(n)`` for each request a rail's Subscriber makes (then pass it
        upstream); what it raises goes to ``plugins.on_error``."""
        require_callable(on_request, "on_request")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_request=on_request))

    def do_on_cancel(self, on_cancel: Callable[[], Any]) -> ParallelFlowable[T]:
        """Call ``on_cancel()`` when a rail's Subscriber cancels (then pass it upstream);
        what it raises goes to ``plugins.on_error``."""
        require_callable(on_cancel, "on_cancel")
        return _parallel_assembly(parallel_peek.ParallelPeek(self, on_cancel=on_cancel))

    def run_on(self, scheduler: Scheduler, prefetch: int = BUFFER_SIZE) -> ParallelFlowable[T]:
        """Deliver each rail's signals on a worker of its own (``scheduler.create_worker()``
        per rail), through a queue of ``prefetch`` items replenished 75% at a time."""
        require_scheduler(scheduler)
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(parallel_run_on.ParallelRunOn(self, scheduler, prefetch))

    def flat_map(self, mapper: Callable[[T], Publisher[R]], delay_errors: bool = False,
                 max_concurrency: int = LONG_MAX,
                 prefetch: int = BUFFER_SIZE) -> ParallelFlowable[R]:
        """``Flowable.flat_map`` on each rail: each item becomes a Publisher whose items
        are merged into that rail."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(parallel_flat_map.ParallelFlatMap(self, mapper, bool(delay_errors),
                                                  max_concurrency, prefetch))

    def concat_map(self, mapper: Callable[[T], Publisher[R]],
                   prefetch: int = 2) -> ParallelFlowable[R]:
        """``Flowable.concat_map`` on each rail: each item becomes a Publisher, run one after
        another on that rail; the rail is asked for ``prefetch`` items, then 75% of that.
        An error (of the rail or an inner Publisher) ends the rail at once."""
        require_callable(mapper, "mapper")
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(parallel_concat_map.ParallelConcatMap(self, mapper, prefetch,
                                                          ErrorMode.IMMEDIATE))

    def concat_map_delay_error(self, mapper: Callable[[T], Publisher[R]], prefetch: int = 2,
                               till_the_end: bool = True) -> ParallelFlowable[R]:
        """As :meth:`concat_map`, but errors wait: until the rail and every inner Publisher
        ended (``till_the_end``), or until the running inner Publisher ended."""
        require_callable(mapper, "mapper")
        require_positive(prefetch, "prefetch")
        mode = ErrorMode.END if till_the_end else ErrorMode.BOUNDARY
        return _parallel_assembly(parallel_concat_map.ParallelConcatMap(self, mapper, prefetch, mode))

    def reduce_with(self, seed_supplier: Callable[[], R],
                    reducer: Callable[[R, T], R]) -> ParallelFlowable[R]:
        """Fold each rail from its own ``seed_supplier()``: one item per rail."""
        require_callable(seed_supplier, "seed_supplier")
        require_callable(reducer, "reducer")
        return _parallel_assembly(parallel_reduce.ParallelReduce(self, seed_supplier, reducer))

    def collect(self, initial_supplier: Callable[[], U],
                collector: Callable[[U, T], Any]) -> ParallelFlowable[U]:
        """Collect each rail into its own container: ``collector(container, item)``."""
        require_callable(initial_supplier, "initial_supplier")
        require_callable(collector, "collector")
        return _parallel_assembly(parallel_reduce.ParallelReduce(self, initial_supplier, parallel_reduce.collecting(collector)))

    # ------------------------------------------------------------------ joining the rails

    def sequential(self, prefetch: int = BUFFER_SIZE) -> Flowable[T]:
        """Merge the rails into one Flowable, in no particular order; each rail is asked for
        ``prefetch`` items, then for 75% of that as they go downstream. A rail's error
        cancels the other rails and ends the Flowable at once."""
        require_positive(prefetch, "prefetch")
        return assembly("flowable", parallel_join.ParallelJoin(self, prefetch, False))

    def sequential_delay_error(self, prefetch: int = BUFFER_SIZE) -> Flowable[T]:
        """As :meth:`sequential`, but the rails' errors wait until every rail ended (several
        errors arrive as a CompositeException)."""
        require_positive(prefetch, "prefetch")
        return assembly("flowable", parallel_join.ParallelJoin(self, prefetch, True))

    def to_flowable(self) -> Flowable[T]:
        """:meth:`sequential` with the default prefetch."""
        return self.sequential()

    def reduce(self, reducer: Callable[[T, T], T]) -> Flowable[T]:
        """Fold each rail, then fold the rails' results: one item, or none when every rail
        was empty. The order in which the rails' results are combined is not defined."""
        require_callable(reducer, "reducer")
        return assembly("flowable", parallel_reduce_full.ParallelReduceFull(self, reducer))

    def sorted(self, key: Callable[[T], Any] | None = None, reverse: bool = False,
               capacity_hint: int = 16) -> Flowable[T]:
        """All items in order (as ``sorted(items, key=key, reverse=reverse)``, except that
        items that compare equal keep no particular order): each rail is sorted into a
        list, then the lists are merged under the downstream's demand.
        ``capacity_hint`` (the expected number of items) is accepted for RxJava parity;
        Python lists grow by themselves. Needs a finite source."""
        if key is not None:
            require_callable(key, "key")
        require_positive(capacity_hint, "capacity_hint")
        rails = self.collect(list, list.append).map(parallel_sorted_join.sorter(key, bool(reverse)))
        return assembly("flowable", parallel_sorted_join.ParallelSortedJoin(rails, key, bool(reverse)))

    def to_sorted_list(self, key: Callable[[T], Any] | None = None, reverse: bool = False,
                       capacity_hint: int = 16) -> Flowable[list[T]]:
        """One list of all items in order (equal items in no particular order): each rail
        is sorted, then the sorted lists are merged. Always one list (empty for an empty source). Needs a finite source."""
        if key is not None:
            require_callable(key, "key")
        require_positive(capacity_hint, "capacity_hint")
        rails = self.collect(list, list.append).map(parallel_sorted_join.sorter(key, bool(reverse)))
        return rails.reduce(parallel_sorted_join.merger(key, bool(reverse)))
