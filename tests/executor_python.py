"""A Python for Spark's executors that cannot import rxpy2, as on a cluster whose nodes do
not have the application installed.

:func:`write_executor_python` writes a shell script that runs this interpreter with ``-S``
(no site-packages) and ``-P`` (no script or working directory prepended to ``sys.path``: in
``local`` mode the Python workers start in the driver's working directory, which may be a
checkout holding ``rxpy2/``), with only PySpark's own zips on ``PYTHONPATH``. The executors
then see the standard library and PySpark, not rxpy2 (nor pyarrow, tqdm, ... unless asked
for: ``packages``): whatever runs there has to be shipped by the driver. The standalone-cluster tests give it to their
executors as ``PYSPARK_PYTHON``; the ``local[2]`` tests set it as the session's
``SparkContext.pythonExec`` (fixture ``executors_without_rxpy2`` in ``tests/spark``).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pyspark

SPARK_HOME = Path(pyspark.__file__).resolve().parent


def write_executor_python(path: Path, packages: tuple[str, ...] = ()) -> Path:
    """Write the executors' Python at ``path`` (an executable script) and return ``path``.
    ``packages`` (top-level package names of this interpreter's, e.g. ``("pyarrow",)``)
    are importable there too: linked into a directory next to ``path``, on its
    ``PYTHONPATH``; rxpy2 never is."""
    lib = SPARK_HOME / "python" / "lib"
    entries = sorted(str(p) for p in lib.glob("*.zip"))
    if packages:
        extra = path.parent / f"{path.name}-packages"
        extra.mkdir(parents=True, exist_ok=True)
        for name in packages:
            if name == "rxpy2":
                raise ValueError("the executors' Python never has rxpy2")
            module = importlib.import_module(name)
            link = extra / name
            if not link.exists():
                link.symlink_to(Path(module.__file__ or "").resolve().parent)
        entries.append(str(extra))
    path.write_text(
        "#!/bin/sh\n"
        "# the executors' Python: no site-packages (-S), no working directory on sys.path\n"
        "# (-P), PySpark's zips (and the packages asked for) only\n"
        f"PYTHONPATH='{':'.join(entries)}' exec '{sys.executable}' -S -P \"$@\"\n")
    path.chmod(0o755)
    return path
