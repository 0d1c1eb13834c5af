"""Shared fixtures.

* Every test runs with a capturing ``rxpy2.plugins`` error handler. A test that
  expects undeliverable errors takes the ``plugin_errors`` fixture (a list) and
  asserts on it; in any other test an error reaching ``plugins.on_error`` fails
  the test, so no error is ever lost silently in the suite.
* ``race_runner``: a :class:`rxpy2.testing.RaceRunner` for many-round race tests.
* At the end of the session no ``rxpy2-*`` thread may be alive.
* Race tests get the ``race`` marker: tests that take ``race_runner``, call
  ``rxpy2.testing.race``/``RaceRunner``, or have ``race``/``drain``/``concurren`` in their
  name or file name. ``.ci/run`` runs them a second time under ``RXPY2_DRAIN=lock``.
* By path (``_path_marks``): ``tck`` (tests/tck), ``spark`` (tests/spark, tests/spark_cluster
  and the Spark benchmark tests), ``slow`` (those two, ``_SLOW_PATHS``, the stress tests by name
  and the race tests): ``tools/test -m "not slow"`` is the fast part.
* The ``spark`` tests run first (one worker runs them all under ``tools/test``'s
  ``--dist worksteal``: one SparkSession per run).
* ``--durations-report[=PATH]`` (``durations_report.py``): the time per test folder and the 30
  slowest tests, written after the run.
"""

from __future__ import annotations

import functools
import gc
import itertools
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest
from durations_report import pytest_addoption  # noqa: F401  (hooks: --durations-report)
from durations_report import pytest_configure  # noqa: F401  (hooks: --durations-report)
from durations_report import pytest_terminal_summary  # noqa: F401  (hooks: --durations-report)

from rxpy2 import plugins
from rxpy2.testing import RaceRunner

#: Rounds for race tests (the ``race_rounds`` fixture): 300 by default, for the suite's
#: 15-minute CI budget; ``RXPY2_RACE_ROUNDS=2000`` (or RxJava's 10 000 of
#: TestHelper.RACE_LONG_LOOPS) for a longer hunt.
RACE_ROUNDS = int(os.environ.get("RXPY2_RACE_ROUNDS", "300"))


class PluginErrors(list):
    """The errors that reached ``rxpy2.plugins.on_error`` during the test."""

    def causes(self) -> list[BaseException]:
        """Each error with an ``UndeliverableException`` wrapper removed."""
        from rxpy2.exceptions import UndeliverableException
        return [e.__cause__ if isinstance(e, UndeliverableException) else e for e in self]


@pytest.fixture(autouse=True)
def _plugin_guard(request: pytest.FixtureRequest):
    plugins._unlock_for_tests()
    plugins.reset()
    captured = PluginErrors()
    lock = threading.Lock()

    def handler(e: BaseException) -> None:
        with lock:
            captured.append(e)

    plugins.set_error_handler(handler)
    request.node._rxpy2_plugin_errors = captured
    yield captured
    plugins._unlock_for_tests()
    plugins.reset()
    if "plugin_errors" not in request.fixturenames and captured:
        pytest.fail(f"undeliverable errors reached rxpy2.plugins.on_error: {list(captured)!r}",
                    pytrace=False)


@pytest.fixture
def plugin_errors(_plugin_guard: PluginErrors) -> PluginErrors:
    """The list of errors that reached ``rxpy2.plugins.on_error`` (the test asserts on it)."""
    return _plugin_guard


@pytest.fixture
def shutdown_schedulers():
    """Shut every standard scheduler down after the test (modules that start threads use it
    with ``pytestmark = pytest.mark.usefixtures("shutdown_schedulers")``)."""
    yield
    from rxpy2.schedulers import Schedulers
    Schedulers.shutdown()


#: The kind of session the ``spark`` fixture makes: ``classic`` (an embedded ``local[2]``
#: SparkSession, the default) or ``connect`` (``RXPY2_SPARK_SESSION=connect``: a local Spark
#: Connect server, ``SparkSession.builder.remote("local[2]")``). A classic and a Connect
#: session cannot share one Python process, so the kind is chosen per test process; under
#: ``connect`` only the tests marked ``connect`` run (the others use the classic API).
SPARK_SESSION = os.environ.get("RXPY2_SPARK_SESSION", "classic")


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """One SparkSession per test process (of the kind :data:`SPARK_SESSION` names), made on
    first use and stopped at the end of the run (under pytest-xdist each worker that runs a
    Spark test has its own). A classic session's executors run this Python
    (``SparkContext.pythonExec``), as a deployment's run the driver's: with its pyarrow,
    fused stages read Arrow batches. Skips without pyspark (the ``spark`` extra) or Java,
    and a Connect session without the ``connect`` extra."""
    pytest.importorskip("pyspark", reason="the spark extra (pyspark) is not installed")
    if shutil.which("java") is None:
        pytest.skip("no java on PATH (tools/test installs it)")
    if SPARK_SESSION == "connect":
        yield from _connect_session()
        return
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("rxpy2-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.driver.memory", "1g")
               .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("warehouse")))
               .getOrCreate())
    session.sparkContext.setLogLevel("OFF")
    session.sparkContext.pythonExec = sys.executable
    yield session
    session.stop()


def _connect_session():
    """A Spark Connect server of this test process and a session of it
    (``spark.sql.shuffle.partitions`` 4, as the classic session's). Its executors' Python is
    this interpreter: ``mapInArrow`` needs pyarrow there.

    The server is a local Spark application with Spark's Connect plugin, listening on a
    port free when the fixture starts, not ``remote("local[...]")``: that one listens on
    Spark Connect's own port, 15002 (an ephemeral one only under PySpark's SPARK_TESTING),
    so two test processes of a machine could not each have one."""
    for module in ("grpc", "grpc_status", "google.rpc", "zstandard", "pandas", "pyarrow"):
        pytest.importorskip(module, reason="the connect extra is not installed")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    import socket
    import uuid

    from pyspark import SparkConf
    from pyspark import SparkContext
    from pyspark.sql import SparkSession
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # as remote("local[...]") does: a token the server requires and the client sends (read
    # from the environment), and the server on the loopback interface only
    os.environ.setdefault("SPARK_CONNECT_AUTHENTICATE_TOKEN", uuid.uuid4().hex)
    # local[2,2]: a failed task runs once more, as a cluster retries it. Without, about
    # one run in 40 of a query failing on an executor while others run lost another
    # query's task to "Python worker exited unexpectedly (crashed)" (the forked worker read
    # EOF where its authentication comes: daemon.py), as Spark's local mode kills the
    # failed query's other tasks
    conf = SparkConf().setAll([
        ("spark.master", "local[2,2]"), ("spark.app.name", "rxpy2-tests-connect-server"),
        ("spark.plugins", "org.apache.spark.sql.connect.SparkConnectPlugin"),
        ("spark.connect.grpc.binding.address", "127.0.0.1"),
        ("spark.connect.grpc.binding.port", str(port)),
        ("spark.ui.enabled", "false"), ("spark.ui.showConsoleProgress", "false"),
        ("spark.driver.memory", "1g")])
    server = SparkSession(SparkContext.getOrCreate(conf))
    session = None
    try:
        server.sparkContext.setLogLevel("OFF")
        # what remote("local[...]") sets too: pyspark.sql.functions and the like then make
        # Spark Connect Columns in this process, not classic ones
        os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"
        session = ConnectSession.builder.remote(f"sc://localhost:{port}").getOrCreate()
        session.conf.set("spark.sql.shuffle.partitions", "4")
        yield session
    finally:
        try:
            if session is not None:
                session.stop()
        finally:
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
            server.stop()


@pytest.fixture
def sched():
    """A fresh TestScheduler (virtual time)."""
    from rxpy2.schedulers import TestScheduler
    return TestScheduler()


@pytest.fixture
def race_runner():
    with RaceRunner() as r:
        yield r


@pytest.fixture
def race_rounds() -> int:
    return RACE_ROUNDS


def _rxpy2_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate()
            if t.is_alive() and t.name.startswith("rxpy2-")]


#: "race" as a word start (not "traceback"), "drain", "concurren": a race test's name or file
_RACE_NAME = re.compile(r"(?<![a-z])race|drain|concurren")


def _is_race_test(item: pytest.Item) -> bool:
    if "race_runner" in getattr(item, "fixturenames", ()):
        return True
    if _RACE_NAME.search(item.nodeid.lower()):
        return True
    fn = getattr(item, "function", None)
    code = getattr(fn, "__code__", None)
    return code is not None and ("race" in code.co_names or "RaceRunner" in code.co_names)


#: Markers by path (relative to the repository, "/"-separated; a directory ends with "/",
#: a prefix of a test id selects those tests). ``tools/test -m "not slow"`` is the fast part.
_TCK_PATHS = ("tests/tck/",)
_SPARK_PATHS = ("tests/spark/", "tests/spark_cluster/", "tests/test_benchmarks_spark.py",
                "tests/test_docs.py::test_doc_examples_run[spark.md]")
#: slow besides the TCK, Spark and the race tests: fresh interpreters (the lifecycle tests);
#: measured with ``--durations``, each takes seconds
_SLOW_PATHS = (
    "tests/test_lifecycle_schedulers.py",
    "tests/test_lifecycle_sigint.py",
)
#: stress tests, by name: deep synchronous chains, stack safety over 10^4..10^5 items or
#: sources, thousands of stages (seconds each)
_STRESS_NAME = re.compile(r"stack_safe|no_recursion|deep|many_synchronous|100k|100_000|20_000"
                          r"|ten_thousand|two_thousand")


def _path_marks(item: pytest.Item, rootpath: os.PathLike[str]) -> list[str]:
    try:
        rel = item.path.relative_to(rootpath).as_posix()
    except ValueError:
        return []
    test_id = rel + item.nodeid[item.nodeid.find("::"):] if "::" in item.nodeid else rel
    marks = []
    if rel.startswith(_TCK_PATHS):
        marks.append("tck")
    if test_id.startswith(_SPARK_PATHS):
        marks.append("spark")
    if marks or test_id.startswith(_SLOW_PATHS) or _STRESS_NAME.search(item.name.lower()):
        marks.append("slow")
    return marks


def _marked(env: dict[str, bool], name: str, /, **kwargs: object) -> bool:
    return env.get(name, False)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m``, do not collect a directory or file whose path markers already deselect
    every test in it whatever its other markers are (``-m "not slow"`` skips collecting the
    TCK's ~30 000 tests: seconds of the fast part's budget)."""
    expr = config.getoption("markexpr", "")
    if not expr:
        return None
    try:
        rel = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    rel += "/" if collection_path.is_dir() else ""
    fixed = {"tck": rel.startswith(_TCK_PATHS),
             "spark": rel.startswith(tuple(p for p in _SPARK_PATHS if "::" not in p))}
    fixed["slow"] = (fixed["tck"] or fixed["spark"]
                     or rel.startswith(tuple(p for p in _SLOW_PATHS if "::" not in p)))
    if not any(fixed.values()):
        return None
    try:
        from _pytest.mark.expression import Expression
        compiled = Expression.compile(expr)
    except Exception:  # pytest's private API moved, or a bad -m: leave it to pytest
        return None
    free = sorted(set(re.findall(r"[A-Za-z_]\w*", expr)) - {"and", "or", "not"} - set(fixed))
    if len(free) > 8:
        return None
    for bits in itertools.product((False, True), repeat=len(free)):
        env = {**fixed, **dict(zip(free, bits, strict=True))}
        if compiled.evaluate(functools.partial(_marked, env)):
            return None
    return True


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze the heap once the tests are collected: a full collection (each ``gc.collect()``
    a test makes to see a reference dropped, §3.13's rule, the interrupt tests' runs) then
    scans only the objects made after it, not the ~50 000 collected items and every module.
    Without it such a call took a tenth of a second late in a run, 14 times the same test's
    time alone. It can only keep more alive, never less: what is frozen is alive for the whole
    run anyway (the items, the modules, their globals)."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        marks = _path_marks(item, config.rootpath)
        if _is_race_test(item):
            item.add_marker(pytest.mark.race)
            if "slow" not in marks:  # many rounds each: two thirds of the rest's time
                marks.append("slow")
        for name in marks:
            item.add_marker(name)
        if (SPARK_SESSION == "connect" and "spark" in marks
                and item.get_closest_marker("connect") is None):
            item.add_marker(pytest.mark.skip(reason="RXPY2_SPARK_SESSION=connect: this test "
                                                    "uses the classic session's API"))
    # The Spark tests first: under --dist worksteal (tools/test) the first worker is handed the
    # first half of the collection and an idle worker steals from the end of a busy one's queue,
    # so the tests that start the SparkSession all run on one worker (one JVM, not one per
    # worker), from the start, while the other worker runs Python tests. A stable sort: the
    # order is otherwise the collection's.
    items.sort(key=lambda item: item.get_closest_marker("spark") is None)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    try:
        from rxpy2.schedulers import Schedulers  # type: ignore[attr-defined]
        Schedulers.shutdown()
    except Exception:  # schedulers arrive with a later issue
        pass
    deadline = time.monotonic() + 5
    while _rxpy2_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _rxpy2_threads()
    if left:
        print(f"\nrxpy2 threads still alive at the end of the session: {left}")
        session.exitstatus = 1
