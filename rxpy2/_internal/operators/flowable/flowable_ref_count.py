"""``ConnectableFlowable.ref_count(n, timeout)``: connect when the ``n``-th subscriber comes,
disconnect (``timeout`` seconds) after the last one cancels, forget a terminated connection.

The subscriber count and the current :class:`RefConnection` change under one lock
(subscribe, cancel and terminate are rare next to items); disconnecting happens
under it too, so a subscriber that comes right after never joins the connection
being disposed. The connection's
Disposable arrives through ``connect``'s callback before the upstream is
subscribed; a disconnect that comes earlier still ends it (``DisposableHelper``
disposes what is set after a dispose).

Each subscriber is counted from the moment it takes the connection (under the
lock) until it cancels or gets the terminal event. A terminated connection is
forgotten (``source.reset``) only when that count drops to zero: a subscriber that
took it just before the upstream terminated still finds the terminated connection
in the source (``on_ref_count`` keeps it current) and gets its terminal event;
one that comes after the reset starts and connects a new connection. It never
lands on a fresh source connection that nobody connects (RxJava 2.2's
``FlowableRefCount.terminated`` with ``FlowablePublishAlt``). With a ``timeout``, the
last cancel starts a timer instead; a subscriber that comes before it fires keeps the
connection (RxJava 2.2's ``refCount(n, timeout, unit, scheduler)``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2.disposables import Disposable
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.reactivestreams import Subscriber

if TYPE_CHECKING:
    from rxpy2.connectable_flowable import ConnectableFlowable
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableRefCount"]

T = TypeVar("T")


class RefConnection:
    """One connection of a ref-counted ConnectableFlowable."""

    __slots__ = ("count", "connected", "disposable", "target", "timer")

    def __init__(self) -> None:
        self.count = 0
        self.connected = False
        self.disposable: AtomicReference[Disposable] = AtomicReference()
        self.target: Disposable | None = None  # the source's connection, for reset()
        self.timer: Disposable | None = None  # the pending disconnect, with a timeout

    def clear_timer(self) -> None:
        t = self.timer
        if t is not None:
            self.timer = None
            t.dispose()

    def accept(self, d: Disposable) -> None:
        self.target = d
        DisposableHelper.replace(self.disposable, d)  # disposed at once if disconnected early

    def disconnect(self) -> None:
        DisposableHelper.dispose(self.disposable)


class FlowableRefCount(Flowable[T], Generic[T]):
    """See the module docstring."""

    __slots__ = ("source", "subscriber_count", "disconnect_timeout", "scheduler", "connection", "lock")

    def __init__(self, source: ConnectableFlowable[T], subscriber_count: int = 1,
                 disconnect_timeout: float = 0.0, scheduler: Scheduler | None = None) -> None:
        self.source = source
        self.subscriber_count = subscriber_count
        self.disconnect_timeout = disconnect_timeout
        self.scheduler = scheduler  # set when timeout > 0
        self.connection: RefConnection | None = None
        self.lock = threading.Lock()

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        with self.lock:
            conn = self.connection
            if conn is None:
                conn = RefConnection()
                self.connection = conn
            if conn.count == 0:
                conn.clear_timer()  # came back before the disconnect
            conn.count += 1
            connect = not conn.connected and conn.count == self.subscriber_count
            if connect:
                conn.connected = True
        self.source.subscribe(RefCountSubscriber(subscriber, self, conn))
        if connect:
            self.source.connect_actual(conn.accept)

    def cancelled(self, conn: RefConnection) -> None:
        with self.lock:
            if self.connection is not conn:
                return
            conn.count -= 1
            if conn.count != 0 or not conn.connected:
                return
            if self.scheduler is None:
                self.disconnect(conn)
                return
            timer = SerialDisposable()
            conn.timer = timer
        # scheduled outside the lock; a subscriber that comes meanwhile disposes ``timer``
        timer.replace(self.scheduler.schedule_direct(lambda: self.timed_out(conn), self.disconnect_timeout))

    def timed_out(self, conn: RefConnection) -> None:
        with self.lock:
            if conn.count == 0 and self.connection is conn:
                self.disconnect(conn)

    def disconnect(self, conn: RefConnection) -> None:
        """Under ``lock``: a subscriber that comes next must find the old connection gone."""
        self.connection = None
        conn.timer = None
        conn.disconnect()
        self.source.reset(conn.target)

    def terminated(self, conn: RefConnection) -> None:
        with self.lock:
            if self.connection is not conn:
                return
            conn.clear_timer()
            conn.count -= 1
            if conn.count != 0:
                # a subscriber that took this connection is still on its way to the source:
                # the terminated connection must stay there for it to get the terminal event
                return
            self.connection = None
            # under the lock: a subscriber that comes next starts (and connects) a new one
            self.source.reset(conn.target)


class RefCountSubscriber(PassThrough, OperatorSubscriber[T, T], Generic[T]):
    """Relays everything; its cancel (or the terminal event) counts down the connection."""

    __slots__ = ("parent", "conn", "once")

    def __init__(self, downstream: Subscriber[T], parent: FlowableRefCount[T],
                 conn: RefConnection) -> None:
        super().__init__(downstream)
        self.parent = parent
        self.conn = conn
        self.once = AtomicBoolean(False)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.once.compare_and_set(False, True):
            self.parent.terminated(self.conn)
            self.downstream.on_error(error)
        else:
            from rxpy2 import plugins
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.once.compare_and_set(False, True):
            self.parent.terminated(self.conn)
            self.downstream.on_complete()

    def cancel(self) -> None:
        self.upstream.cancel()
        if self.once.compare_and_set(False, True):
            self.parent.cancelled(self.conn)
