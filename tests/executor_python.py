"""A Python for Spark's executors that cannot import rxpy2, as on a cluster whose nodes do
not have the application installed.

:func:`write_executor_python` writes a shell script that runs this interpreter with ``-S``
(no site-packages) and ``-P`` (no script or working directory prepended to ``sys.path``: in
``local`` mode the Python workers start in the driver's working directory, which may be a
checkout holding ``rxpy2/``), with only PySpark's own zips on ``PYTHONPATH``. The executors
then see the standard library and PySpark, not rxpy2 (nor pyarrow, tqdm, ...): whatever
runs there has to be shipped by the driver. The standalone-cluster tests give it to their
executors as ``PYSPARK_PYTHON``; the ``local[2]`` tests set it as the session's
``SparkContext.pythonExec`` (fixture ``executors_without_rxpy2`` in ``tests/spark``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyspark

SPARK_HOME = Path(pyspark.__file__).resolve().parent


def write_executor_python(path: Path) -> Path:
    """Write the executors' Python at ``path`` (an executable script) and return ``path``."""
    lib = SPARK_HOME / "python" / "lib"
    zips = sorted(str(p) for p in lib.glob("*.zip"))
    path.write_text(
        "#!/bin/sh\n"
        "# the executors' Python: no site-packages (-S), no working directory on sys.path\n"
        "# (-P), PySpark's zips only\n"
        f"PYTHONPATH='{':'.join(zips)}' exec '{sys.executable}' -S -P \"$@\"\n")
    path.chmod(0o755)
    return path
