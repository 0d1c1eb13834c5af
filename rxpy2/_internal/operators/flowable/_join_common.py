"""The machinery ``join`` and ``group_join`` share (RxJava 2's ``JoinSupport``).

Both sides (the source, the "left", and ``other``, the "right") are requested
without bound. Their items, and the closing of their windows, meet in one queue
of tagged events drained by one loop: a left item opens a left window closed by
the first signal of ``left_end(item)`` (a right item: ``right_end(item)``); the
subclass decides what an open window's item meets (``join``: each item of the
other side's open windows; ``group_join``: a left item gets a
:class:`UnicastProcessor` that receives the right items). Nothing slows the two
sides down: a result that finds no demand fails the stream with
``MissingBackpressureException``, as in RxJava 2.

The stream completes when both sides have completed and the queue is drained; an
error of either side or of a window's end Publisher, or a failing user function,
cancels everything and goes downstream.
"""

from __future__ import annotations

from typing import Any

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2._internal.subscribers.other_trigger import OtherTriggerSubscriber
from rxpy2.disposables import CompositeDisposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["JoinBase", "JoinSubscriptionBase"]

LEFT_VALUE = 1
RIGHT_VALUE = 2
LEFT_CLOSE = 3
RIGHT_CLOSE = 4


class JoinBase(Flowable[Any], HasUpstreamPublisher[Any]):
    """The assembly-time part of ``join``/``group_join``: the two sources and the functions."""

    __slots__ = ("source", "other", "left_end", "right_end", "result_selector")

    def __init__(self, source: Publisher[Any], other: Publisher[Any], left_end: Any,
                 right_end: Any, result_selector: Any) -> None:
        self.source = source
        self.other = other
        self.left_end = left_end
        self.right_end = right_end
        self.result_selector = result_selector

    def create_parent(self, subscriber: Subscriber[Any]) -> JoinSubscriptionBase:
        raise NotImplementedError

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        parent = self.create_parent(subscriber)
        subscriber.on_subscribe(parent)
        left = JoinSideSubscriber(parent, True)
        parent.disposables.add(left)
        right = JoinSideSubscriber(parent, False)
        parent.disposables.add(right)
        self.source.subscribe(left)
        subscribe_tail(self.other, right)


class JoinSubscriptionBase(Subscription):
    """The downstream's Subscription and the drain of the tagged events.

    A subclass implements :meth:`left_value`, :meth:`right_value` (after the item's
    window was opened; False: the stream was terminated) and may extend
    :meth:`left_closed`, :meth:`terminate_windows`."""

    __slots__ = ("downstream", "requested", "queue", "disposables", "lefts", "rights",
                 "errors", "left_end", "right_end", "result_selector", "active",
                 "left_index", "right_index", "cancelled", "gate")

    operator = "join"

    def __init__(self, downstream: Subscriber[Any], left_end: Any, right_end: Any,
                 result_selector: Any) -> None:
        self.downstream = downstream
        self.requested = AtomicLong()
        self.queue: MpscLinkedQueue[tuple[int, Any]] = MpscLinkedQueue()
        self.disposables = CompositeDisposable()
        self.lefts: dict[int, Any] = {}   # open left windows, in the order they opened
        self.rights: dict[int, Any] = {}  # open right windows
        self.errors = AtomicThrowable()
        self.left_end = left_end
        self.right_end = right_end
        self.result_selector = result_selector
        self.active = AtomicInteger(2)  # the sides that have not terminated
        self.left_index = 0
        self.right_index = 0
        self.cancelled = False
        self.gate = Drain()

    # ---- the downstream's Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.disposables.dispose()
        if self.gate.enter():
            self.queue.clear()

    # ---- signals of the sides and of the windows' end Publishers

    def inner_value(self, is_left: bool, item: Any) -> None:
        self.queue.offer((LEFT_VALUE if is_left else RIGHT_VALUE, item))
        self.drain()

    def inner_error(self, error: BaseException) -> None:
        if self.errors.try_add_throwable(error):
            self.active.decrement_and_get()
            self.drain()
        else:
            plugins.on_error(error)

    def inner_complete(self, sender: JoinSideSubscriber) -> None:
        self.disposables.delete(sender)
        self.active.decrement_and_get()
        self.drain()

    def inner_close(self, is_left: bool, end: JoinEndSubscriber) -> None:
        self.queue.offer((LEFT_CLOSE if is_left else RIGHT_CLOSE, end))
        self.drain()

    def inner_close_error(self, error: BaseException) -> None:
        if self.errors.try_add_throwable(error):
            self.drain()
        else:
            plugins.on_error(error)

    # ---- the drain

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        while True:
            while True:
                if self.cancelled:
                    q.clear()
                    return
                if self.errors.get() is not None:
                    self.error_all()
                    return
                done = self.active.get() == 0
                event = q.poll()
                if event is None:
                    if done:
                        self.complete_all()
                        return
                    break
                mode, value = event
                if mode == LEFT_VALUE:
                    idx = self.left_index
                    self.left_index = idx + 1
                    if not (self.open_window(True, value, idx) and self.left_value(value, idx)):
                        return
                elif mode == RIGHT_VALUE:
                    idx = self.right_index
                    self.right_index = idx + 1
                    self.rights[idx] = value
                    if not (self.open_window(False, value, idx) and self.right_value(value)):
                        return
                elif mode == LEFT_CLOSE:
                    self.left_closed(self.lefts.pop(value.index, None))
                    self.disposables.remove(value)
                else:
                    self.rights.pop(value.index, None)
                    self.disposables.remove(value)
            if not gate.leave():
                return

    def open_window(self, is_left: bool, item: Any, idx: int) -> bool:
        """Subscribe to the end Publisher of ``item``'s window; False: terminated."""
        if is_left:
            self.lefts[idx] = self.left_window(item)
        selector = self.left_end if is_left else self.right_end
        try:
            p = selector(item)
            if p is None:
                raise returned_none(self.operator, selector,
                                    "left_end function" if is_left else "right_end function")
        except Exception as e:
            self.fail(e)
            return False
        end = JoinEndSubscriber(self, is_left, idx)
        self.disposables.add(end)
        p.subscribe(end)
        if self.errors.get() is not None:  # the end Publisher failed at once
            self.error_all()
            return False
        return True

    def select(self, left: Any, right: Any) -> Any:
        """``result_selector(left, right)``; raises TypeError for None."""
        selector = self.result_selector
        w = selector(left, right)
        if w is None:
            raise returned_none(self.operator, selector, "result_selector function")
        return w

    def emit_all(self, results: Any) -> bool:
        """Emit each result the iterator ``results`` computes, under demand; False: terminated
        (a result without demand: ``MissingBackpressureException``, as RxJava 2)."""
        a = self.downstream
        r = self.requested.get()
        e = 0
        while not self.cancelled:  # cancelled: the drain's next check clears the queue
            try:
                w = next(results, None)  # select never gives None: None is the end
            except Exception as ex:  # the result_selector raised
                self.fail(ex)
                return False
            if w is None:
                break
            if e == r:
                self.fail(MissingBackpressureException.lack_of_requests(
                    self.operator, "a value", "the left and right sources"))
                return False
            a.on_next(w)
            e += 1
        if e:
            produced(self.requested, e)
        return True

    # ---- what join and group_join do differently

    def left_window(self, left: Any) -> Any:
        """What the open left window keeps (join: the item itself)."""
        return left

    def left_value(self, left: Any, idx: int) -> bool:
        raise NotImplementedError

    def right_value(self, right: Any) -> bool:
        raise NotImplementedError

    def left_closed(self, window: Any) -> None:
        """A left window closed (``window`` is what :meth:`left_window` gave, or None)."""

    def terminate_windows(self, error: BaseException | None) -> None:
        """The stream ends: error (None: completion) for what the open windows hold."""

    # ---- terminal

    def fail(self, error: BaseException) -> None:
        self.errors.try_add_throwable(error)
        self.error_all()

    def error_all(self) -> None:
        self.queue.clear()
        self.disposables.dispose()
        ex = self.errors.terminate()
        assert ex is not None
        self.terminate_windows(ex)
        self.lefts.clear()
        self.rights.clear()
        self.downstream.on_error(ex)

    def complete_all(self) -> None:
        self.terminate_windows(None)
        self.lefts.clear()
        self.rights.clear()
        self.disposables.dispose()
        self.downstream.on_complete()


class JoinSideSubscriber(OtherTriggerSubscriber):
    """The subscriber to one side: requests everything, passes each item to the drain
    (its completion and error reach the join through the ``other_*`` callbacks)."""

    __slots__ = ("join", "is_left")

    def __init__(self, join: JoinSubscriptionBase, is_left: bool) -> None:
        super().__init__(self)
        self.join = join
        self.is_left = is_left

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.join.inner_value(self.is_left, item)

    def other_trigger(self) -> None:  # the side completed
        self.join.inner_complete(self)

    def other_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.join.inner_error(error)


class JoinEndSubscriber(OtherTriggerSubscriber):
    """The subscriber to a window's end Publisher: its first item (which cancels it) or
    its completion closes the window ``index``; its error fails the stream."""

    __slots__ = ("join", "is_left", "index")

    def __init__(self, join: JoinSubscriptionBase, is_left: bool, index: int) -> None:
        super().__init__(self)
        self.join = join
        self.is_left = is_left
        self.index = index

    def other_trigger(self) -> None:
        self.join.inner_close(self.is_left, self)

    def other_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.join.inner_close_error(error)
