"""ParallelFlowable.checkpoint: the checkpoint stage on every rail."""

from __future__ import annotations

import sys

import pytest
from probes import Boom

from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers


def fail_on_three(x: int) -> int:
    if x == 3:
        raise Boom("three")
    return x


def test_an_error_on_a_rail_is_noted_with_this_line():
    rails = Flowable.range(1, 6).parallel(2).run_on(Schedulers.computation()).map(fail_on_three)
    marked, line = rails.checkpoint("rails"), sys._getframe().f_lineno
    ts = marked.sequential().test().await_done()
    (error,) = ts.errors()
    assert isinstance(error, Boom)
    assert error.__notes__ == [f"rxpy2 checkpoint 'rails': assembled at {__file__}:{line} in "
                               "test_an_error_on_a_rail_is_noted_with_this_line, after "
                               "range(1, 6) → parallel(2) → run_on(ComputationScheduler) → "
                               "map(fail_on_three)"]


def test_items_pass_on_every_rail():
    marked = Flowable.range(1, 10).parallel(3).checkpoint()
    assert marked.parallelism == 3
    ts = marked.sequential().test()
    ts.assert_complete()
    assert sorted(ts.values()) == list(range(1, 11))


def test_description_must_be_a_string():
    with pytest.raises(TypeError):
        Flowable.range(1, 2).parallel(2).checkpoint(3)  # type: ignore[arg-type]
