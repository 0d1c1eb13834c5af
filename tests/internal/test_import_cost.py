"""``import rxpy2`` stays cheap: the heavy modules it used to import load on first use.

Each check runs in a fresh interpreter (a subprocess): what one test process has
imported says nothing about what ``import rxpy2`` imports. Nothing here is timed;
``python -m benchmarks --only import`` measures the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

#: Imported by nothing ``import rxpy2`` runs; each one's first user imports it.
LAZY_MODULES = [
    "atomics",  # the hardware atomics backend (RXPY2_ATOMICS=hardware)
    "cffi",  # ... through atomics
    "pycparser",  # ... through cffi
    "asyncio",  # rxpy2.schedulers.AsyncioScheduler
    "rxpy2.schedulers.asyncio_scheduler",
    "sortedcontainers",  # rxpy2.TestScheduler
    "rxpy2.schedulers.test_scheduler",
    "logging",  # rxpy2.plugins' default handler of undeliverable errors
    "dataclasses",  # rxpy2.Timed
    "rxpy2.timed",
    "rxpy2.processors",  # rxpy2.PublishProcessor & co.
    "rxpy2.parallel",  # rxpy2.ParallelFlowable
    "rxpy2.testing",  # rxpy2.TestSubscriber, rxpy2.TestObserver
]


def _python(code: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "RXPY2_ATOMICS"}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=environ).stdout.strip()


def _modules_after(code: str, **env: str) -> set[str]:
    out = _python(f"import sys\n{code}\nimport json; print(json.dumps(sorted(sys.modules)))",
                  **env)
    return set(json.loads(out.splitlines()[-1]))


def test_import_rxpy2_leaves_the_heavy_modules_out() -> None:
    loaded = _modules_after("import rxpy2")
    assert "rxpy2" in loaded and "rxpy2.flowable" in loaded
    assert sorted(m for m in LAZY_MODULES if m in loaded) == []


def test_an_ordinary_pipeline_leaves_them_out_too() -> None:
    loaded = _modules_after(
        "from rxpy2 import Flowable\n"
        "assert Flowable.range(0, 10).map(lambda x: x + 1).filter(lambda x: x % 2)"
        ".to_list().blocking_get() == [1, 3, 5, 7, 9]")
    assert sorted(m for m in ("atomics", "cffi", "asyncio") if m in loaded) == []


def test_the_lazy_names_are_where_they_were() -> None:
    import rxpy2
    import rxpy2.schedulers
    import rxpy2.testing
    from rxpy2 import plugins
    from rxpy2.schedulers.asyncio_scheduler import AsyncioScheduler
    from rxpy2.schedulers.test_scheduler import TestScheduler
    from rxpy2.timed import Timed

    assert rxpy2.Timed is Timed and rxpy2.TestScheduler is TestScheduler
    assert rxpy2.PublishProcessor is rxpy2.processors.PublishProcessor
    assert rxpy2.ParallelFlowable is rxpy2.parallel.ParallelFlowable
    assert rxpy2.TestSubscriber is rxpy2.testing.TestSubscriber
    assert rxpy2.schedulers.TestScheduler is TestScheduler
    assert rxpy2.schedulers.AsyncioScheduler is AsyncioScheduler
    assert rxpy2.testing.TestScheduler is TestScheduler
    assert set(rxpy2.__all__) | {"processors", "parallel", "testing"} <= set(dir(rxpy2))
    assert {"AsyncioScheduler", "TestScheduler"} <= set(dir(rxpy2.schedulers))
    assert plugins.log.name == "rxpy2"
    for module in (rxpy2, rxpy2.schedulers, plugins):
        with pytest.raises(AttributeError, match="NoSuchName"):
            module.NoSuchName  # noqa: B018


def test_star_import_and_every_public_name_in_a_fresh_process() -> None:
    out = _python(
        "import rxpy2, rxpy2.schedulers as s\n"
        "ns = {}\n"
        "exec('from rxpy2 import *', ns)\n"
        "missing = [n for n in rxpy2.__all__ if n not in ns]\n"
        "from rxpy2.schedulers import AsyncioScheduler, TestScheduler\n"
        "from rxpy2.testing import TestScheduler as T2\n"
        "print(missing, ns['Timed'].__module__, ns['TestScheduler'] is TestScheduler is T2,"
        " AsyncioScheduler.__module__, ns['PublishProcessor'].__module__)")
    assert out == ("[] rxpy2.timed True rxpy2.schedulers.asyncio_scheduler "
                   "rxpy2.processors.publish_processor")


def test_a_submodule_is_an_attribute_of_the_package_after_import_rxpy2() -> None:
    out = _python("import rxpy2\n"
                  "print(rxpy2.processors.__name__, rxpy2.parallel.__name__,"
                  " rxpy2.testing.TestSubscriber.__name__, rxpy2.schedulers.__name__)")
    assert out == "rxpy2.processors rxpy2.parallel TestSubscriber rxpy2.schedulers"


def test_default_backend_is_lock_and_a_hardware_cell_still_works() -> None:
    out = _python(
        "import sys\n"
        "from rxpy2._internal import atomic\n"
        "before = 'atomics' in sys.modules\n"
        "a = atomic.HardwareAtomicLong(5)\n"
        "print(atomic.BACKEND, atomic.AtomicLong.__name__, before, a.increment_and_get(),"
        " 'atomics' in sys.modules)")
    assert out == "lock LockAtomicLong False 6 True"


def test_hardware_backend_is_selected_and_used() -> None:
    out = _python(
        "import sys\n"
        "from rxpy2._internal import atomic\n"
        "assert 'atomics' in sys.modules\n"
        "made = []\n"
        "init = atomic.HardwareAtomicLong.__init__\n"
        "def counting(self, value=0):\n"
        "    made.append(1)\n"
        "    init(self, value)\n"
        "atomic.HardwareAtomicLong.__init__ = counting\n"
        "from rxpy2 import Flowable, Schedulers\n"
        "got = (Flowable.range(0, 1000).subscribe_on(Schedulers.computation())"
        ".observe_on(Schedulers.io()).to_list().blocking_get())\n"
        "print(atomic.BACKEND, atomic.AtomicLong is atomic.HardwareAtomicLong,"
        " atomic.AtomicInteger is atomic.HardwareAtomicLong, got == list(range(1000)),"
        " len(made) > 0)",
        RXPY2_ATOMICS="hardware")
    assert out == "hardware True True True True"


def test_unknown_backend_is_refused() -> None:
    environ = dict(os.environ, RXPY2_ATOMICS="quantum")
    res = subprocess.run([sys.executable, "-c", "import rxpy2"], capture_output=True, text=True,
                         env=environ)
    assert res.returncode != 0 and "RXPY2_ATOMICS must be 'lock' or 'hardware'" in res.stderr


def test_rxpy2_testing_loads_the_marbles_on_first_use() -> None:
    out = _python("import sys, rxpy2.testing as t\n"
                  "before = 'rxpy2.testing.marbles' in sys.modules\n"
                  "print(before, t.MarbleScheduler.__module__, 'MarbleScheduler' in dir(t))")
    assert out == "False rxpy2.testing.marbles True"
