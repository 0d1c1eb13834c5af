"""``ConnectableFlowable``: a Flowable that subscribes to its source only when told to.

``publish()`` and ``replay()`` return one. Subscribers may come before or after
:meth:`ConnectableFlowable.connect`; ``connect`` subscribes the shared upstream
subscription once and returns a Disposable that ends it. :meth:`ref_count`
connects with the first subscriber and disconnects when the last one cancels;
:meth:`auto_connect` connects when the ``n``-th subscriber arrives and never
disconnects by itself.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.arguments import assembly
from rxpy2._internal.arguments import require_callable
from rxpy2._internal.arguments import require_duration
from rxpy2._internal.arguments import require_positive
from rxpy2._internal.arguments import require_scheduler
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["ConnectableFlowable"]

T = TypeVar("T")


class ConnectableFlowable(Flowable[T], Generic[T]):
    """A Flowable that shares one upstream subscription, started by :meth:`connect`."""

    __slots__ = ()

    def connect(self, on_connect: Callable[[Disposable], Any] | None = None) -> Disposable:
        """Connect to the source unless connected already; the Disposable disconnects.

        ``on_connect(disposable)`` is called before the upstream is subscribed (so a
        synchronous source can be disconnected from inside its emissions).
        """
        if on_connect is not None:
            require_callable(on_connect, "on_connect")
        holder: list[Disposable] = []

        def keep(d: Disposable) -> None:
            holder.append(d)
            if on_connect is not None:
                on_connect(d)

        self.connect_actual(keep)
        return holder[0]

    @abstractmethod
    def connect_actual(self, on_connect: Callable[[Disposable], Any]) -> None:
        """Call ``on_connect`` with the connection, then subscribe upstream if not connected."""

    def reset(self, connection: Any) -> None:  # noqa: B027 - optional hook
        """Forget ``connection`` if it is the current (terminated or disposed) one, so the
        next subscriber/connect starts fresh (used by :meth:`ref_count`)."""

    def on_ref_count(self) -> ConnectableFlowable[T]:
        """The connectable :meth:`ref_count` drives (RxJava 2.2's ``onRefCount``): ``self``
        unless a terminated connection must stay current until :meth:`reset`, so that a
        subscriber arriving while the upstream terminates still gets the terminal event."""
        return self

    def ref_count(self, subscriber_count: int = 1, timeout: float = 0.0,
                  scheduler: Scheduler | None = None) -> Flowable[T]:
        """Connect when ``subscriber_count`` subscribers are there; disconnect when the last
        one cancels, ``timeout`` seconds later (0: at once; on ``scheduler``, computation by
        default) unless a subscriber comes first. A terminated connection is forgotten: a
        later subscriber connects again.

        RxJava 2's ``refCount()``, ``refCount(n)``, ``refCount(timeout, unit[, scheduler])``
        and ``refCount(n, timeout, unit[, scheduler])``: ``ref_count(timeout=0.5)``,
        ``ref_count(2, 0.5)``."""
        from rxpy2._internal.operators.flowable import time_args
        from rxpy2._internal.operators.flowable.flowable_ref_count import FlowableRefCount

        if isinstance(subscriber_count, float):
            raise TypeError(f"ref_count({subscriber_count!r}): the subscriber count is an int; "
                            f"for a timeout say ref_count(timeout={subscriber_count!r})")
        require_positive(subscriber_count, "subscriber_count")
        t = require_duration(timeout, "timeout")
        worker = time_args.scheduler_or_computation(scheduler) if t > 0.0 else None
        if worker is None and scheduler is not None:
            require_scheduler(scheduler)
        return assembly("flowable", FlowableRefCount(self.on_ref_count(), subscriber_count, t,
                                                     worker))

    def auto_connect(self, n: int = 1,
                     on_connect: Callable[[Disposable], Any] | None = None) -> Flowable[T]:
        """Connect when the ``n``-th subscriber subscribes (``n <= 0``: connect now).

        ``on_connect`` receives the connection's Disposable (the only way to disconnect).
        """
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"n must be an int, not {type(n).__name__}")
        if on_connect is not None:
            require_callable(on_connect, "on_connect")
        if n <= 0:
            self.connect(on_connect)
            return assembly("flowable", self)
        from rxpy2._internal.operators.flowable.flowable_auto_connect import FlowableAutoConnect
        return assembly("flowable", FlowableAutoConnect(self, n, on_connect))
