"""ParallelFlowable.do_on_next/do_after_next/do_on_error/do_on_complete/
do_after_terminated/do_on_subscribe/do_on_request/do_on_cancel: RxJava 2's ParallelPeek.

One operator with every callback (each fluent method sets one, the others are
``None``), called on each rail as the signals pass:

* ``on_subscribe(s)`` raising: ``s`` is cancelled, the rail's Subscriber gets an
  EmptySubscription and the error (through ``on_error``, so ``on_error`` and
  ``on_after_terminated`` run);
* ``on_next(item)`` (before the item goes on) or ``on_after_next(item)`` (after)
  raising: the rail's upstream is cancelled and the rail ends with the error
  (RxJava 2 does not cancel the upstream there; see docs/rxjava-differences.md);
* ``on_error(e)`` raising: the rail gets ``CompositeException(e, raised)``;
* ``on_complete()`` raising: the rail gets that error instead of completing
  (and ``on_after_terminated`` does not run);
* ``on_after_terminated()`` (after the terminal signal went on), ``on_request(n)``
  and ``on_cancel()`` raising: the error goes to :func:`rxpy2.plugins.on_error`;
  the request or cancel still goes upstream.

No conditional path: a rail of ``filter`` before it asks for one more item per
dropped one, as in RxJava.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import CompositeException
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_or_late_error
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelPeek"]

T = TypeVar("T")

Consumer = Callable[[Any], Any] | None
Action = Callable[[], Any] | None


class ParallelPeek(ParallelPerRail[T, T], Generic[T]):
    __slots__ = ("on_next", "on_after_next", "on_error", "on_complete", "on_after_terminated",
                 "on_subscribe", "on_request", "on_cancel")

    def __init__(self, source: ParallelFlowable[T], *, on_next: Consumer = None,
                 on_after_next: Consumer = None, on_error: Consumer = None,
                 on_complete: Action = None, on_after_terminated: Action = None,
                 on_subscribe: Consumer = None, on_request: Consumer = None,
                 on_cancel: Action = None) -> None:
        super().__init__(source)
        self.on_next = on_next
        self.on_after_next = on_after_next
        self.on_error = on_error
        self.on_complete = on_complete
        self.on_after_terminated = on_after_terminated
        self.on_subscribe = on_subscribe
        self.on_request = on_request
        self.on_cancel = on_cancel

    def rail_subscriber(self, subscriber: Subscriber[T]) -> Subscriber[Any]:
        return PeekSubscriber(subscriber, self)




class PeekSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("parent",)

    def __init__(self, downstream: Subscriber[T], parent: ParallelPeek[T]) -> None:
        super().__init__(downstream)
        self.parent = parent

    def on_start(self) -> bool:
        f = self.parent.on_subscribe
        if f is not None:
            try:
                f(self.upstream)
            except Exception as e:
                self.upstream.cancel()
                self.downstream.on_subscribe(EmptySubscription.INSTANCE)
                self.on_error(e)
                return False
        return True

    def hook_on_next(self, item: T) -> None:
        p = self.parent
        if p.on_next is not None:
            try:
                p.on_next(item)
            except Exception as e:
                self.fail(e)
                return
        self.downstream.on_next(item)
        if p.on_after_next is not None:
            try:
                p.on_after_next(item)
            except Exception as e:
                self.fail(e)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        p = self.parent
        if p.on_error is not None:
            try:
                p.on_error(error)
            except Exception as e:
                error = CompositeException(error, e)
        self.downstream.on_error(error)
        call_reporting(p.on_after_terminated)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        p = self.parent
        if p.on_complete is not None:
            try:
                p.on_complete()
            except Exception as e:
                self.downstream.on_error(e)
                return
        self.downstream.on_complete()
        call_reporting(p.on_after_terminated)

    def request(self, n: int) -> None:
        call_reporting(self.parent.on_request, n)
        self.upstream.request(n)

    def cancel(self) -> None:
        call_reporting(self.parent.on_cancel)
        self.upstream.cancel()


