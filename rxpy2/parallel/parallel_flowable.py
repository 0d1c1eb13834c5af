"""ParallelFlowable: a stream split into ``parallelism`` rails that are processed side by side.

A ParallelFlowable is not a Publisher: it is subscribed with a sequence of
exactly ``parallelism`` Subscribers, one per rail (:meth:`ParallelFlowable.subscribe`).
``Flowable.parallel(n)`` hands the items of a Flowable out to ``n`` rails,
round-robin among the rails that have demand; ``run_on(scheduler)`` moves each
rail onto a worker of its own; ``map``/``filter``/``flat_map``/``reduce_with``/
``collect``/``do_on_next`` work rail by rail; ``sequential()``, ``sorted()``,
``to_sorted_list()`` and ``reduce(reducer)`` join the rails into a Flowable again.

Every fluent method validates its arguments (``TypeError`` for ``None`` or a
non-callable where a function is required and for a non-Scheduler,
``ValueError`` for a non-positive size) and returns an operator from
``rxpy2/internal/operators/parallel/``; the parallel assembly hook
(:func:`rxpy2.plugins.set_on_parallel_assembly`) sees each new ParallelFlowable.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

from rxpy2 import plugins
from rxpy2.internal import lazy as _lazy
from rxpy2.internal.name_trap import check_class as _check_fields
from rxpy2.observers import FlowableSubscriber
from rxpy2.operators.arguments import (
    BUFFER_SIZE,
    assembly,
    require_callable,
    require_positive,
    require_publisher,
    require_scheduler,
)
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber

if TYPE_CHECKING:
    from rxpy2.flowable import Flowable
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["ParallelFlowable"]

T = TypeVar("T")
R = TypeVar("R")
U = TypeVar("U")

P = TypeVar("P", bound="ParallelFlowable[Any]")


def _parallel_assembly(p: P) -> P:
    if plugins.hooks_active:
        return plugins.on_assembly("parallel", p)
    return p


class ParallelFlowable(ABC, Generic[T]):
    """``parallelism`` rails of items, subscribed with one Subscriber per rail."""

    __slots__ = ()

    def __repr__(self) -> str:
        """The chain, e.g. ``just(1) → map(parse)``."""
        from rxpy2.internal import describe  # loaded on first use: import stays cheap

        return describe.chain_repr(self)

    def explain(self) -> str:
        """The chain, one line per stage (see :meth:`rxpy2.Flowable.explain`)."""
        from rxpy2.internal import describe

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

        ``TypeError`` when ``subscribers`` or one of them is ``None``. When their
        number differs from :attr:`parallelism`, each of them gets
        ``on_subscribe(EmptySubscription)`` and ``on_error(ValueError)`` and nothing
        is subscribed. A Subscriber that is not a FlowableSubscriber is wrapped in a
        StrictSubscriber (as ``Flowable.subscribe`` does).
        """
        if subscribers is None:
            raise TypeError("subscribers is None")
        subs = list(subscribers)
        for s in subs:
            if s is None:
                raise TypeError("one of the subscribers is None")
        if not self.validate(subs):
            return
        subs = [s if isinstance(s, FlowableSubscriber) else _lazy.StrictSubscriber(s) for s in subs]
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
                _lazy.EmptySubscription.error(err, s)
            return False
        return True

    # ------------------------------------------------------------------ sources

    @staticmethod
    def from_publisher(source: Publisher[T], parallelism: int | None = None,
                       prefetch: int = BUFFER_SIZE) -> ParallelFlowable[T]:
        """``source`` split into rails (as ``Flowable.parallel``; default: the CPU count)."""
        require_publisher(source, "source")
        if parallelism is None:
            parallelism = os.cpu_count() or 1
        require_positive(parallelism, "parallelism")
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(_lazy.ParallelFromPublisher(source, parallelism, prefetch))

    @staticmethod
    def from_publishers(*rails: Publisher[T]) -> ParallelFlowable[T]:
        """One rail per Publisher: rail ``i`` is ``rails[i]``."""
        if not rails:
            raise ValueError("from_publishers needs at least one Publisher")
        for i, p in enumerate(rails):
            require_publisher(p, f"rails[{i}]")
        return _parallel_assembly(_lazy.ParallelFromArray(rails))

    # ------------------------------------------------------------------ per rail

    def map(self, mapper: Callable[[T], R]) -> ParallelFlowable[R]:
        """``mapper(item)`` on each rail; raising (or returning ``None``) ends that rail
        with the error and cancels its upstream. ``mapper`` may run on several threads."""
        require_callable(mapper, "mapper")
        return _parallel_assembly(_lazy.ParallelMap(self, mapper))

    def filter(self, predicate: Callable[[T], bool]) -> ParallelFlowable[T]:
        """Only the items that pass ``predicate`` on each rail (``request(1)`` upstream per
        dropped item)."""
        require_callable(predicate, "predicate")
        return _parallel_assembly(_lazy.ParallelFilter(self, predicate))

    def do_on_next(self, on_next: Callable[[T], Any]) -> ParallelFlowable[T]:
        """Call ``on_next(item)`` as each item passes on any rail."""
        require_callable(on_next, "on_next")
        return _parallel_assembly(_lazy.ParallelDoOnNext(self, on_next))

    def run_on(self, scheduler: Scheduler, prefetch: int = BUFFER_SIZE) -> ParallelFlowable[T]:
        """Deliver each rail's signals on a worker of its own (``scheduler.create_worker()``
        per rail), through a queue of ``prefetch`` items replenished 75% at a time."""
        require_scheduler(scheduler)
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(_lazy.ParallelRunOn(self, scheduler, prefetch))

    def flat_map(self, mapper: Callable[[T], Publisher[R]], delay_errors: bool = False,
                 max_concurrency: int = LONG_MAX,
                 prefetch: int = BUFFER_SIZE) -> ParallelFlowable[R]:
        """``Flowable.flat_map`` on each rail: each item becomes a Publisher whose items
        are merged into that rail."""
        require_callable(mapper, "mapper")
        require_positive(max_concurrency, "max_concurrency")
        require_positive(prefetch, "prefetch")
        return _parallel_assembly(_lazy.ParallelFlatMap(self, mapper, bool(delay_errors),
                                                  max_concurrency, prefetch))

    def reduce_with(self, seed_supplier: Callable[[], R],
                    reducer: Callable[[R, T], R]) -> ParallelFlowable[R]:
        """Fold each rail from its own ``seed_supplier()``: one item per rail."""
        require_callable(seed_supplier, "seed_supplier")
        require_callable(reducer, "reducer")
        return _parallel_assembly(_lazy.ParallelReduce(self, seed_supplier, reducer))

    def collect(self, initial_supplier: Callable[[], U],
                collector: Callable[[U, T], Any]) -> ParallelFlowable[U]:
        """Collect each rail into its own container: ``collector(container, item)``."""
        require_callable(initial_supplier, "initial_supplier")
        require_callable(collector, "collector")
        return _parallel_assembly(_lazy.ParallelReduce(self, initial_supplier, _lazy.collecting(collector)))

    # ------------------------------------------------------------------ joining the rails

    def sequential(self, prefetch: int = BUFFER_SIZE) -> Flowable[T]:
        """Merge the rails into one Flowable, in no particular order; each rail is asked for
        ``prefetch`` items, then for 75% of that as they go downstream. A rail's error
        cancels the other rails and ends the Flowable at once."""
        require_positive(prefetch, "prefetch")
        return assembly("flowable", _lazy.ParallelJoin(self, prefetch, False))

    def sequential_delay_error(self, prefetch: int = BUFFER_SIZE) -> Flowable[T]:
        """As :meth:`sequential`, but the rails' errors wait until every rail ended (several
        errors arrive as a CompositeException)."""
        require_positive(prefetch, "prefetch")
        return assembly("flowable", _lazy.ParallelJoin(self, prefetch, True))

    def to_flowable(self) -> Flowable[T]:
        """:meth:`sequential` with the default prefetch."""
        return self.sequential()

    def reduce(self, reducer: Callable[[T, T], T]) -> Flowable[T]:
        """Fold each rail, then fold the rails' results: one item, or none when every rail
        was empty. The order in which the rails' results are combined is not defined."""
        require_callable(reducer, "reducer")
        return assembly("flowable", _lazy.ParallelReduceFull(self, reducer))

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
        rails = self.collect(list, list.append).map(_lazy.sorter(key, bool(reverse)))
        return assembly("flowable", _lazy.ParallelSortedJoin(rails, key, bool(reverse)))

    def to_sorted_list(self, key: Callable[[T], Any] | None = None, reverse: bool = False,
                       capacity_hint: int = 16) -> Flowable[list[T]]:
        """One list of all items in order (equal items in no particular order): each rail
        is sorted, then the sorted lists are merged. Always one list (empty for an empty source). Needs a finite source."""
        if key is not None:
            require_callable(key, "key")
        require_positive(capacity_hint, "capacity_hint")
        rails = self.collect(list, list.append).map(_lazy.sorter(key, bool(reverse)))
        return rails.reduce(_lazy.merger(key, bool(reverse)))
