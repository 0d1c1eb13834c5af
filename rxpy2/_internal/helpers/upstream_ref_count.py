"""UpstreamRefCount: the outer stream plus each open window (or group) of one upstream.

``window(count, skip)``, ``window(boundary)``, ``window_time`` and ``group_by``
share one rule: cancelling the outer stream stops new windows but keeps the open
ones running; the upstream is cancelled once the outer and every open window are
done with. The count starts at 1 (the outer); each window adds one while it is
open (:meth:`UpstreamRefCount.acquire`, which refuses once the count is 0: the
upstream was cancelled for good). The party whose leaving takes the count to 0
(``count.decrement_and_get() == 0``: a window that closed or was cancelled, or
the outer's first cancel, :meth:`UpstreamRefCount.cancel_outer`) cancels the
upstream. The operators read ``count`` and ``outer_cancelled`` directly where a
method call would cost per item (a window can be one item long).
"""

from __future__ import annotations

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicInteger

__all__ = ["UpstreamRefCount"]


class UpstreamRefCount:
    """``count``: the outer + each open window; ``outer_cancelled``: the outer was cancelled."""

    __slots__ = ("count", "outer_cancelled")

    def __init__(self) -> None:
        self.count = AtomicInteger(1)
        self.outer_cancelled = AtomicBoolean()

    def acquire(self) -> bool:
        """Count a new window, unless the count fell to 0 already (the upstream was cancelled)."""
        count = self.count
        while True:
            c = count.get()
            if c == 0:
                return False
            if count.compare_and_set(c, c + 1):
                return True

    def cancel_outer(self) -> bool:
        """The outer stream was cancelled: True the first time (the caller then releases
        the outer's count)."""
        return self.outer_cancelled.compare_and_set(False, True)
