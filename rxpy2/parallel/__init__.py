"""Parallel rails: :class:`ParallelFlowable` (``Flowable.parallel(n)``, ``run_on``, ``sequential``)."""

from rxpy2.parallel.parallel_flowable import ParallelFlowable

__all__ = ["ParallelFlowable"]
