"""Parallel rails: :class:`ParallelFlowable` (``Flowable.parallel(n)``, ``run_on``, ``sequential``)
and :class:`ParallelFailureHandling` (the ``error_handling=`` of ``map``/``filter``/``do_on_next``)."""

from rxpy2.parallel.parallel_failure_handling import ParallelFailureHandling
from rxpy2.parallel.parallel_flowable import ParallelFlowable

__all__ = ["ParallelFailureHandling", "ParallelFlowable"]
