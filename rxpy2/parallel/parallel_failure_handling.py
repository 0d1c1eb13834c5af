"""ParallelFailureHandling: what a rail does when its ``map``/``filter``/``do_on_next``
function raises (RxJava 2's ``ParallelFailureHandling``).

Pass a member as ``error_handling=`` to :meth:`ParallelFlowable.map`,
:meth:`~ParallelFlowable.filter` or :meth:`~ParallelFlowable.do_on_next`, or a
function ``(count, error) -> ParallelFailureHandling`` that decides per failure
(``count`` is 1 for the first failure of an item, 2 after one retry, ...). A
member is itself such a function: it answers itself whatever the failure.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["ParallelFailureHandling"]


class ParallelFailureHandling(Enum):
    """The answer to a failure of a rail's function on one item."""

    #: the rail's upstream is cancelled and the rail completes; the error is dropped
    STOP = "stop"
    #: the rail's upstream is cancelled and the rail ends with the error
    ERROR = "error"
    #: the item is dropped (one more is requested upstream) and the rail goes on
    SKIP = "skip"
    #: the function is called again with the same item
    RETRY = "retry"

    def __call__(self, count: int, error: BaseException) -> ParallelFailureHandling:
        """A fixed answer: this member, whatever the failure."""
        return self
