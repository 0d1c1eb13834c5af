"""``--durations-report[=PATH]``: where the suite's time goes, written after the run.

The report has the run's wall time, the time per test folder (setup, call and teardown of
every test summed; a file directly under ``tests/`` counts as its own folder) with the number
of tests in each, and the 30 slowest tests. Under pytest-xdist the controller sums what every
worker reported, so the folder times add up to more than the wall time: the ratio of the two
is how well the workers were used, and a line per worker says how long it was busy and when
its last test ended (a worker that ends early is a tail to balance).
``tools/test --durations-report`` writes ``test-durations.txt`` in the checkout and prints it
at the end; ``.ci/run`` does so for its main step. The hooks are imported by
``tests/conftest.py``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path

import pytest

SLOWEST = 30
DEFAULT_PATH = "test-durations.txt"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--durations-report", action="store", nargs="?", const=DEFAULT_PATH, default=None,
        metavar="PATH",
        help=f"write the time per test folder and the {SLOWEST} slowest tests to PATH "
             f"(default {DEFAULT_PATH}) and print it at the end")


class _Durations:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.start = time.monotonic()
        self.epoch = time.time()  # TestReport.stop is a time.time() stamp
        self.per_test: dict[str, float] = defaultdict(float)
        #: worker id -> [busy seconds, tests, the last stop]
        self.workers: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0.0])

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.per_test[report.nodeid] += report.duration
        node = getattr(report, "node", None)  # set by pytest-xdist on the controller
        worker = self.workers[getattr(getattr(node, "gateway", None), "id", "main")]
        worker[0] += report.duration
        if report.when == "call" or (report.when == "setup" and not report.passed):
            worker[1] += 1  # a test ran, or ended at its setup (a skip, an error)
        worker[2] = max(worker[2], getattr(report, "stop", 0.0) - self.epoch)

    def lines(self) -> list[str]:
        wall = time.monotonic() - self.start
        folders: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        for nodeid, seconds in self.per_test.items():
            parts = nodeid.split("::", 1)[0].split("/")
            folder = "/".join(parts[:2]) if len(parts) > 2 else parts[-1]
            folders[folder][0] += seconds
            folders[folder][1] += 1
        total = sum(t for t, _ in folders.values())
        out = [f"wall time {wall:.1f} s; test time summed {total:.1f} s "
               f"({total / wall if wall else 0:.2f}x the wall time); {len(self.per_test)} tests",
               ""]
        for worker, (busy, count, last) in sorted(self.workers.items()):
            out.append(f"worker {worker}: busy {busy:.1f} s, {int(count)} tests, "
                       f"last test ended at {last:.1f} s")
        out += ["", "time per folder (s, tests):"]
        for folder, (seconds, count) in sorted(folders.items(), key=lambda kv: -kv[1][0]):
            out.append(f"  {seconds:8.1f}  {int(count):6d}  {folder}")
        out += ["", f"{SLOWEST} slowest tests (s, setup + call + teardown):"]
        slowest = sorted(self.per_test.items(), key=lambda kv: -kv[1])[:SLOWEST]
        out += [f"  {seconds:8.2f}  {nodeid}" for nodeid, seconds in slowest]
        return out


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("durations_report")
    if path is None or hasattr(config, "workerinput"):  # an xdist worker: the controller writes
        return
    config.pluginmanager.register(_Durations(Path(config.rootpath, path)), "durations_report")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    report = config.pluginmanager.get_plugin("durations_report")
    if not isinstance(report, _Durations):
        return
    lines = report.lines()
    report.path.write_text("\n".join(lines) + "\n")
    terminalreporter.section(f"durations report ({report.path.name})")
    for line in lines:
        terminalreporter.write_line(line)
