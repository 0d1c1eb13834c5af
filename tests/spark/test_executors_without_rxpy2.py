"""Terminal aggregations of a Spark source with no fused stage, on executors that cannot
import rxpy2 (``docs/spark.md``: executors need PySpark, not rxpy2).

The session's ``SparkContext.pythonExec`` is switched, for this module, to a Python without
rxpy2 (:mod:`executor_python`, the one the standalone-cluster tests give their executors):
the Python workers of every job these tests start run there, so whatever the aggregation
sends them has to travel by value. Every source here has no fused stage, so the functions
the executors run are rxpy2's own (the element check of ``from_rdd``, the row conversion,
the per-partition count, fold and cap) and the tests' reducers.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from executor_python import write_executor_python
from pyspark import cloudpickle

from rxpy2.spark import SparkFlowable
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd

# The executors cannot import this test module either: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROOT = Path(__file__).resolve().parent.parent.parent
WAIT = 60.0  # generous: jobs are slow on a loaded 2-core machine (never a timing assertion)
DATA = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]


def _rxpy2_importable(_: Any) -> bool:
    return importlib.util.find_spec("rxpy2") is not None


@pytest.fixture(scope="module")
def executors_without_rxpy2(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The suite's session, its Python workers started with a Python that lacks rxpy2."""
    sc = spark.sparkContext
    python = write_executor_python(tmp_path_factory.mktemp("executors") / "executor-python")
    before = sc.pythonExec
    sc.pythonExec = str(python)
    try:
        assert sc.parallelize([0], 1).map(_rxpy2_importable).collect() == [False]
        yield spark
    finally:
        sc.pythonExec = before


def _number(x: Any) -> int:
    """An item's number: the RDD's element, the only column of a row (a dict's ``n``)."""
    if isinstance(x, int):
        return x
    return x["n"] if isinstance(x, dict) else x[0]


#: the sources, none with a fused stage: name -> the source over DATA, on a session
SOURCES: dict[str, Callable[[Any], SparkFlowable[Any]]] = {
    "rdd": lambda spark: from_rdd(spark.sparkContext.parallelize(DATA, 3)),
    "dataframe": lambda spark: from_dataframe(
        spark.createDataFrame([(x,) for x in DATA], "n long").repartition(3)),
    "dataframe-dict": lambda spark: from_dataframe(
        spark.createDataFrame([(x,) for x in DATA], "n long").repartition(3),
        row_format="dict"),
}


@pytest.fixture(params=sorted(SOURCES))
def source(request: pytest.FixtureRequest, executors_without_rxpy2: Any) -> SparkFlowable[Any]:
    src = SOURCES[request.param](executors_without_rxpy2)
    assert not src.plan.spark_steps and not src.plan.driver_steps
    return src


def _values(src: SparkFlowable[Any]) -> list[int]:
    """The source's numbers in its order (read by the partition jobs, for comparison)."""
    return [_number(x) for x in src.blocking_iterable()]


def test_count(source: SparkFlowable[Any]) -> None:
    assert source.count().blocking_get(WAIT) == len(DATA)


def test_reduce_in_order_and_associative(source: SparkFlowable[Any]) -> None:
    order = _values(source)
    assert sorted(order) == sorted(DATA)
    digits = source.reduce(lambda acc, x: acc * 10 + _number(x), 0)
    assert digits.blocking_get(WAIT) == int("".join(map(str, order)))  # the left fold in order
    largest = source.reduce(lambda a, x: a if _number(a) >= _number(x) else x,
                            associative=True)
    assert _number(largest.blocking_get(WAIT)) == max(DATA)


def test_to_list(source: SparkFlowable[Any]) -> None:
    order = _values(source)
    assert [_number(x) for x in source.to_list().blocking_get(WAIT)] == order  # capped
    assert [_number(x) for x in source.to_list(max_items=None).blocking_get(WAIT)] == order
    too_small = source.to_list(max_items=len(DATA) - 1).test()
    too_small.await_done(WAIT).assert_error(ValueError)


def test_unordered_distinct(source: SparkFlowable[Any]) -> None:
    unordered = source.distinct(keep_order=False)
    assert isinstance(unordered, SparkFlowable)
    assert sorted(_number(x) for x in unordered.blocking_iterable()) == sorted(set(DATA))


def test_the_terminal_aggregations_example_of_the_docs(executors_without_rxpy2: Any) -> None:
    text = (ROOT / "docs" / "spark.md").read_text()
    section = text.split("## Terminal aggregations in Spark", 1)[1].split("\n## ", 1)[0]
    m = re.search(r"```python\n(.*?)```", section, re.S)
    assert m is not None
    namespace: dict[str, Any] = {"__name__": "docs_spark_aggregations",
                                 "spark": executors_without_rxpy2}
    exec(compile(m.group(1), "spark.md:terminal-aggregations", "exec"), namespace)  # noqa: S102


# ---- fused stages: Arrow batches where the executors have pyarrow, pickled rows where not

ARROW = "fused stages read Arrow batches (mapInArrow)"


@pytest.fixture(scope="module")
def executor_python_with_pyarrow(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_executor_python(tmp_path_factory.mktemp("arrow-executors") / "executor-python",
                                 packages=("pyarrow",))


@pytest.fixture
def executors_with_pyarrow(spark: Any, executor_python_with_pyarrow: Path) -> Iterator[Any]:
    """The suite's session, its Python workers started with a Python that has pyarrow (and
    PySpark) but not rxpy2."""
    sc = spark.sparkContext
    before = sc.pythonExec
    sc.pythonExec = str(executor_python_with_pyarrow)
    try:
        assert sc.parallelize([0], 1).map(_rxpy2_importable).collect() == [False]
        yield spark
    finally:
        sc.pythonExec = before


def _fused(spark: Any) -> SparkFlowable[Any]:
    df = spark.createDataFrame([(x, f"s{x}") for x in DATA], "n long, s string").repartition(3)
    chain = from_dataframe(df, row_format="dict").map(lambda d: (d["n"], d["s"])) \
        .filter(lambda t: t[0] != 4)
    assert isinstance(chain, SparkFlowable)
    return chain


def _check_fused(chain: SparkFlowable[Any]) -> None:
    expected = sorted((x, f"s{x}") for x in DATA if x != 4)
    assert sorted(chain.blocking_iterable()) == expected
    assert chain.count().blocking_get(WAIT) == len(expected)
    assert sorted(chain.to_list().blocking_get(WAIT)) == expected
    assert chain.map(lambda t: t[0]).reduce(lambda a, b: a + b, 0).blocking_get(WAIT) == \
        sum(x for x, _ in expected)
    assert sorted(chain.distinct(keep_order=False).blocking_iterable()) == sorted(set(expected))


def test_fused_stages_read_arrow_batches_on_executors_with_pyarrow(executors_with_pyarrow: Any
                                                                   ) -> None:
    chain = _fused(executors_with_pyarrow)
    _check_fused(chain)
    assert ARROW in chain.explain().splitlines()[0]


def test_fused_stages_read_pickled_rows_on_executors_without_pyarrow(executors_without_rxpy2: Any
                                                                     ) -> None:
    chain = _fused(executors_without_rxpy2)
    _check_fused(chain)
    assert ("fused stages read pickled rows: the executors cannot import pyarrow"
            in chain.explain().splitlines()[0])
