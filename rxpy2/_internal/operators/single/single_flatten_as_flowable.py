"""Single.flatten_as_flowable / Maybe.flatten_as_flowable (RxJava 2's
SingleFlatMapIterableFlowable, MaybeFlatMapIterableFlowable): a Flowable of the
elements of the iterable ``mapper(item)`` returns, under backpressure.

The iterator is read one element ahead (Java's ``hasNext``): the first element when
the item arrives (an empty iterable completes at once), then the next one after each
emission, so that completion comes with the last element. One drain loop, guarded by
a :class:`~rxpy2.operator_kit.Drain`, emits under demand; with unbounded demand it runs
the fast path, which ignores demand. Cancelling disposes the source and stops the loop
before the next element. An empty Maybe completes. ``mapper`` raising or returning
``None``, ``iter()``/``next()`` raising and a ``None`` element signal the error.

Output fusion: ASYNC (not across a thread BOUNDARY, where ``next()`` of a user
iterator would run on the consumer's thread); the consumer polls the elements.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import ValidatedUpstream
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.operators.flowable.flowable_flatten_iterable import END
from rxpy2._internal.operators.flowable.flowable_flatten_iterable import Failed
from rxpy2._internal.operators.flowable.flowable_flatten_iterable import none_element
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscriptions.basic import BasicQueueSubscription
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import Drain
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlattenAsFlowableObserver", "SingleFlattenAsFlowable"]

T = TypeVar("T")
R = TypeVar("R")

class SingleFlattenAsFlowable(Flowable[R], Generic[T, R]):
    """The source is a Single or a Maybe."""

    __slots__ = ("source", "mapper")

    def __init__(self, source: ZeroOneBase, mapper: Callable[[T], Iterable[R]]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        self.source._subscribe(FlattenAsFlowableObserver(subscriber, self.mapper))


class FlattenAsFlowableObserver(ValidatedUpstream, DrainSubscriptionMixin, BasicQueueSubscription[R], SingleObserver[T],
                                MaybeObserver[T], Generic[T, R]):
    """``request``/``cancel``: :class:`DrainSubscriptionMixin`'s."""

    __slots__ = ("downstream", "mapper", "requested", "gate", "upstream", "it", "pending",
                 "cancelled", "output_fused")

    def __init__(self, downstream: Subscriber[R], mapper: Callable[[T], Iterable[R]]) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.requested = AtomicLong()
        self.gate = Drain()
        self.upstream: Disposable | None = None
        self.it: Iterator[R] | None = None  # set once the item arrived and has elements
        self.pending: Any = None  # the element read ahead (not emitted yet)
        self.cancelled = False
        self.output_fused = False

    # ---------------------------------------------------------------- the source's side
    def on_success(self, item: T) -> None:
        mapper = self.mapper
        try:
            iterable = mapper(item)
            if iterable is None:
                raise returned_none("flatten_as_flowable", mapper)  # §2.13
            it = iter(iterable)
            first = next(it, END)  # Java's hasNext()
        except Exception as e:
            self.downstream.on_error(e)
            return
        if first is END:
            self.downstream.on_complete()
            return
        self.pending = first
        self.it = it  # after ``pending``: a drain that sees ``it`` sees its first element
        self.drain()

    def on_error(self, error: BaseException) -> None:
        self.upstream = DISPOSED
        self.downstream.on_error(error)

    def on_complete(self) -> None:  # an empty Maybe
        self.upstream = DISPOSED
        self.downstream.on_complete()

    # ---------------------------------------------------------------- the downstream's side
    def cancel_upstream(self) -> None:
        d = self.upstream
        self.upstream = DISPOSED
        if d is not None:
            d.dispose()

    def cleanup(self) -> None:
        """Drop the iterator (by whoever holds the drain after a cancel)."""
        self.it = None
        self.pending = None

    # ---------------------------------------------------------------- the drain loop
    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        a = self.downstream
        it = self.it
        if self.output_fused and it is not None:
            if self.cancelled:
                return
            a.on_next(None)  # type: ignore[arg-type]  # ASYNC: "ready"; the consumer polls
            a.on_complete()
            return  # the drain stays owned: nothing follows a terminal signal
        requested = self.requested
        while True:
            if it is not None:
                r = requested.get()
                if r == LONG_MAX:
                    self._fast_path(a, it)
                    return
                e = 0
                v = self.pending
                while e != r:
                    if self.cancelled:
                        return
                    if v is None:
                        a.on_error(none_element())
                        return
                    a.on_next(v)
                    if self.cancelled:
                        return
                    e += 1
                    try:
                        v = next(it, END)  # read ahead: completion comes with the last
                    except Exception as ex:
                        a.on_error(ex)
                        return
                    if v is END:
                        a.on_complete()
                        return
                self.pending = v
                if e != 0:
                    requested.add_and_get(-e)
            if not gate.leave():
                return
            if it is None:
                it = self.it

    def _fast_path(self, a: Subscriber[R], it: Iterator[R]) -> None:
        """Unbounded demand: every element, checking only for a cancel."""
        if self.cancelled:
            return
        v = self.pending
        if v is None:
            a.on_error(none_element())
            return
        a.on_next(v)
        if self.cancelled:
            return
        emitting = False  # tells the iterator's exceptions from the downstream's
        try:
            for v in it:  # next() runs only after the cancelled check below
                if v is None:
                    a.on_error(none_element())
                    return
                emitting = True
                a.on_next(v)
                emitting = False
                if self.cancelled:
                    return
        except Exception as ex:
            if emitting:
                raise
            a.on_error(ex)
            return
        if not self.cancelled:
            a.on_complete()

    # ---------------------------------------------------------------- fusion (downstream)
    def request_fusion(self, mode: int) -> int:
        if (mode & ASYNC) and not (mode & BOUNDARY):
            self.output_fused = True
            return ASYNC
        return NONE

    def poll(self) -> R | None:
        it = self.it
        if it is None:
            return None
        v = self.pending
        if v.__class__ is Failed:
            self.it = None
            raise v.error
        if v is None:
            self.it = None
            raise none_element()
        try:
            nxt = next(it, END)
        except Exception as ex:  # the element read is still due: raise at the next poll
            nxt = Failed(ex)
        if nxt is END:
            self.it = None
            self.pending = None
        else:
            self.pending = nxt
        return v  # type: ignore[no-any-return]  # the iterator yields Any

    def is_empty(self) -> bool:
        return self.it is None

    def clear(self) -> None:
        self.it = None
        self.pending = None
