"""The ``import`` workload: how long ``import rxpy2`` takes in a fresh interpreter.

Every run of an implementation starts one fresh process (``sys.executable -c
...``, in the checkout's root, so the checkout's rxpy2 is the one imported) and
waits for it to end; the runner interleaves the implementations and takes the
median of ``--import-runs`` runs (20 by default). The import time is the
median of ``import rxpy2`` less the median of ``python -c pass`` (the
interpreter's own start-up), measured side by side.

Bytecode: the children write and read their ``.pyc`` files under a private
``PYTHONPYCACHEPREFIX`` (a temporary directory; the checkout is left alone,
whatever ``PYTHONDONTWRITEBYTECODE`` says in the caller's environment). The
runner's untimed warm-up run fills it, so the timed runs are what an installed
rxpy2 costs (pip compiles the bytecode at install). The second rxpy2 row has
the same cache less rxpy2's own files and writes none: every rxpy2 module is
compiled from source on each import, as in a checkout run with
``PYTHONDONTWRITEBYTECODE=1``; the standard library still comes from the cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import PLAIN
from benchmarks.common import RXPY
from benchmarks.common import RXPY2
from benchmarks.common import Checksum
from benchmarks.common import Impl
from benchmarks.common import Target
from benchmarks.common import Workload

ROOT = Path(__file__).resolve().parent.parent
KEY = "import"
#: Timed runs (fresh processes) per implementation unless ``--import-runs`` says otherwise.
DEFAULT_RUNS = 20
PASS = "python -c pass"
IMPORT_RXPY2 = "import rxpy2"
#: issue 18: ``import rxpy2`` at most this many ms over the interpreter's start-up
TARGET_MS = 60.0


class _Caches:
    """The two bytecode caches of one workload run (made in setup, removed in teardown)."""

    def __init__(self) -> None:
        self.root: Path | None = None

    def setup(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="rxpy2-bench-import-"))
        (self.root / "cached").mkdir()
        (self.root / "source").mkdir()
        # the source-only cache: everything ``import rxpy2`` uses, then rxpy2's files removed
        _spawn("import rxpy2", self.env(compile_rxpy2=False, prefix="source"))
        shutil.rmtree(self.root / "source" / (ROOT / "rxpy2").relative_to(ROOT.anchor),
                      ignore_errors=True)

    def teardown(self) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def env(self, compile_rxpy2: bool, prefix: str | None = None) -> dict[str, str]:
        assert self.root is not None, "the import workload's setup did not run"
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
        env["PYTHONPYCACHEPREFIX"] = str(self.root / (prefix or
                                                      ("source" if compile_rxpy2 else "cached")))
        if compile_rxpy2:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env


def _spawn(code: str, env: dict[str, str]) -> None:
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"python -c {code!r} failed ({res.returncode}): {res.stderr[-2000:]}")


def _processes(code: str, caches: _Caches, compile_rxpy2: bool = False
               ) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        env = caches.env(compile_rxpy2)
        for _ in range(n):
            _spawn(code, env)
        return n, 0  # n processes, each exited with status 0
    return run


def import_workload(rxpy: bool) -> Workload:
    caches = _Caches()
    impls = [
        Impl(PASS, PLAIN, _processes("pass", caches),
             note="the interpreter's start-up alone"),
        Impl(IMPORT_RXPY2, RXPY2, _processes("import rxpy2", caches),
             note="bytecode cached, as installed",
             target=Target(TARGET_MS, minus=PASS, text="import rxpy2 ≤ 60 ms")),
        Impl(f"{IMPORT_RXPY2}, rxpy2 compiled from source", RXPY2,
             _processes("import rxpy2", caches, compile_rxpy2=True),
             note="no .pyc of rxpy2 read or written: a checkout under "
                  "PYTHONDONTWRITEBYTECODE=1"),
    ]
    if rxpy:
        impls.append(Impl("import reactivex", RXPY, _processes("import reactivex", caches),
                          note="bytecode cached"))
    return Workload(
        KEY, "import: a fresh interpreter importing the package", 1, "process", impls,
        [PASS], setup=caches.setup, teardown=caches.teardown, unit="ms", unit_ns=1e6,
        runs=DEFAULT_RUNS, fixed_n=True,
        notes=["Each run is one fresh process (`python -c ...` from the checkout's root); "
               "the column over `python -c pass` is the median less that of the bare "
               "interpreter, which is the import time. `python -X importtime -c \"import "
               "rxpy2\"` gives the breakdown by module."])
