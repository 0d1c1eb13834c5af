"""The standalone-cluster tests: marked ``cluster`` (and ``spark``, ``slow``), left out of a run
unless asked for.

They start a Spark master and two workers (about a minute or two on 2 cores), so a run
collects them only when its ``-m`` expression names ``cluster`` (``tools/test -m cluster``,
what ``.ci/run`` does after the suite) or when this directory or one of its files is given on
the command line (``tools/test tests/spark_cluster``); otherwise they are deselected.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _asked_for(config: pytest.Config) -> bool:
    if "cluster" in re.findall(r"[A-Za-z_]\w*", config.getoption("markexpr", "") or ""):
        return True
    for arg in config.args:
        path = Path(arg.split("::")[0])
        path = (path if path.is_absolute() else Path(config.invocation_params.dir) / path)
        try:
            path.resolve().relative_to(HERE)
            return True
        except ValueError:
            continue
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    prefix = f"{HERE}{os.sep}"
    ours = [item for item in items if str(item.path).startswith(prefix)]
    for item in ours:
        for name in ("cluster", "spark", "slow"):
            item.add_marker(name)
    if ours and not _asked_for(config):
        keep = [item for item in items if item not in ours]
        config.hook.pytest_deselected(items=ours)
        items[:] = keep
