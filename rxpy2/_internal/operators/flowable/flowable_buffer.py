"""Flowable.buffer(count, skip): lists of ``count`` items, a new list every ``skip`` items.

Three subscribers, by the relation of ``skip`` to ``count``; each turns the
downstream's demand for lists into the exact number of items those lists need:

* exact (``skip == count``): ``request(n)`` asks the upstream for ``n * count``.
* skip (``skip > count``, items between lists are dropped): the first
  ``request(n)`` asks for ``n * count + (n - 1) * (skip - count)`` (n lists and the
  gaps between them), every later one for ``n * skip``.
* overlapping (``skip < count``): the first ``request(n)`` asks for
  ``count + (n - 1) * skip``, every later one for ``n * skip``. Several lists are
  open at once; when the upstream completes, the open ones are emitted under
  demand (post-complete, :class:`QueueDrainHelper`).

On completion a non-empty partial list is emitted (it always falls within the
demand that was requested for it).

``buffer_factory`` (RxJava's ``bufferSupplier``) makes each collection (default
``list``; see :mod:`._buffer_common`); as RxJava, the exact variant closes a
collection after ``count`` items, the others when its ``len`` reaches ``count``.
A factory that raises or returns None cancels the upstream and signals the error.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.queue_drain_helper import QueueDrainHelper
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable._buffer_common import add_item
from rxpy2._internal.operators.flowable._buffer_common import new_buffer
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import add_cap
from rxpy2.operator_kit import multiply_cap
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableBuffer"]

T = TypeVar("T")



_OPERATOR = "buffer"


def _buffer_lines(i: int, stop: Lines) -> Lines:
    # as the exact operator: the item goes in; a full list (fN items) goes on
    return [f"s{i}.append(x)", f"if len(s{i}) == f{i}:", f"    x = s{i}", f"    s{i} = []"]


def _buffer_load(i: int) -> Lines:
    return [f"if s{i} is None:", f"    s{i} = []"]  # made at the first run


def _buffer_epilogue(i: int) -> tuple[str, Lines]:
    return f"s{i}", [f"x = s{i}", f"s{i} = []"]  # a partial list goes on at the end


class FlowableBuffer(Flowable[Any], HasUpstreamPublisher[T], Generic[T]):
    # not ``count``/``skip``: those would shadow Flowable.count()/skip() on the instance
    __slots__ = ("source", "buffer_count", "buffer_skip", "buffer_factory")

    #: buffer(count) (exact, lists) as a fused stage: ``sN`` the open list
    STAGE: ClassVar[FusedStage] = FusedStage(
        "buffer", operator=lambda up, n: FlowableBuffer(up, n, n, list), loop=_buffer_lines,
        nests=True, load=_buffer_load, epilogue=_buffer_epilogue, state=("s",),
        initial=lambda n: (None,), user_code=False)

    def __init__(self, source: Publisher[T], count: int, skip: int,
                 buffer_factory: Callable[[], Any] = list) -> None:
        self.source = source
        self.buffer_count = count
        self.buffer_skip = skip
        self.buffer_factory = buffer_factory

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        count, skip, factory = self.buffer_count, self.buffer_skip, self.buffer_factory
        if count == skip:
            subscribe_tail(self.source, BufferExactSubscriber(subscriber, count, factory))
        elif skip > count:
            subscribe_tail(self.source, BufferSkipSubscriber(subscriber, count, skip, factory))
        else:
            subscribe_tail(self.source, BufferOverlappingSubscriber(subscriber, count, skip,
                                                                    factory))


class _OneListSubscriber(OperatorSubscriber[T, Any], Generic[T]):
    """Exact and skip: at most one list is open; completion emits it if non-empty."""

    __slots__ = ("count", "factory", "buffer")

    def __init__(self, downstream: Subscriber[Any], count: int,
                 factory: Callable[[], Any]) -> None:
        super().__init__(downstream)
        self.count = count
        self.factory = factory
        self.buffer: Any = None

    def open_buffer(self) -> Any:
        """A new collection, or None when the factory failed (the stream is failed)."""
        try:
            b = self.buffer = new_buffer(self.factory, _OPERATOR)
        except Exception as ex:
            self.fail(ex)
            return None
        return b

    def on_error(self, error: BaseException) -> None:
        self.buffer = None
        super().on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        b = self.buffer
        self.buffer = None
        if b:
            self.downstream.on_next(b)
        self.downstream.on_complete()


class BufferExactSubscriber(_OneListSubscriber[T], Generic[T]):
    __slots__ = ("index",)

    def __init__(self, downstream: Subscriber[Any], count: int,
                 factory: Callable[[], Any]) -> None:
        super().__init__(downstream, count, factory)
        self.index = 0  # items in the open collection (as RxJava: counted, not its len)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        b = self.buffer
        if b is None:
            b = self.open_buffer()
            if b is None:
                return
        add_item(b, item)
        i = self.index + 1
        if i == self.count:
            self.index = 0
            self.buffer = None
            self.downstream.on_next(b)
        else:
            self.index = i

    def request(self, n: int) -> None:
        if n := validate_request(n):
            self.upstream.request(multiply_cap(n, self.count))


class BufferSkipSubscriber(_OneListSubscriber[T], Generic[T]):
    __slots__ = ("skip", "index", "once")

    def __init__(self, downstream: Subscriber[Any], count: int, skip: int,
                 factory: Callable[[], Any]) -> None:
        super().__init__(downstream, count, factory)
        self.skip = skip
        self.index = 0
        self.once = AtomicBoolean()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        b = self.buffer
        i = self.index
        if i == 0:
            b = self.open_buffer()
            if b is None:
                return
        if b is not None:
            add_item(b, item)
            if len(b) == self.count:
                self.buffer = None
                self.downstream.on_next(b)
        i += 1
        self.index = 0 if i == self.skip else i

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        once = self.once
        if not once.get() and once.compare_and_set(False, True):
            # n lists and the n - 1 gaps between them
            u = add_cap(multiply_cap(n, self.count),
                         multiply_cap(self.skip - self.count, n - 1))
        else:
            u = multiply_cap(n, self.skip)  # each further list: its gap and its items
        self.upstream.request(u)


class BufferOverlappingSubscriber(OperatorSubscriber[T, Any], Generic[T]):
    """Open lists wait in ``buffers`` (oldest first); the leftovers are post-completed."""

    __slots__ = ("count", "skip", "factory", "buffers", "index", "once",
                 "requested", "produced", "cancelled")

    def __init__(self, downstream: Subscriber[Any], count: int, skip: int,
                 factory: Callable[[], Any]) -> None:
        super().__init__(downstream)
        self.count = count
        self.skip = skip
        self.factory = factory
        self.buffers: deque[Any] = deque()
        self.index = 0
        self.once = AtomicBoolean()
        # outstanding demand for lists; its sign bit marks "completed" (post-complete)
        self.requested = AtomicLong()
        self.produced = 0
        self.cancelled = False

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        bs = self.buffers
        i = self.index
        if i == 0:
            try:
                bs.append(new_buffer(self.factory, _OPERATOR))
            except Exception as ex:
                self.fail(ex)
                return
        b = bs[0]
        if len(b) + 1 == self.count:
            bs.popleft()
            add_item(b, item)
            self.produced += 1
            self.downstream.on_next(b)
        for b0 in bs:
            add_item(b0, item)
        i += 1
        self.index = 0 if i == self.skip else i

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.buffers.clear()
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        p = self.produced
        if p != 0:
            produced(self.requested, p)
        QueueDrainHelper.post_complete(self.downstream, self.buffers, self.requested,
                                       self.is_cancelled)

    def is_cancelled(self) -> bool:
        return self.cancelled

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        if QueueDrainHelper.post_complete_request(n, self.downstream, self.buffers,
                                                  self.requested, self.is_cancelled):
            return  # completed: the leftover lists are served from here
        once = self.once
        if not once.get() and once.compare_and_set(False, True):
            u = add_cap(self.count, multiply_cap(self.skip, n - 1))  # one full list, n-1 steps
        else:
            u = multiply_cap(self.skip, n)  # each further list needs skip more items
        self.upstream.request(u)

    def cancel(self) -> None:
        self.cancelled = True
        self.upstream.cancel()
