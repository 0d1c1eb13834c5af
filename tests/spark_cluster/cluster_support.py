"""A standalone Spark cluster on localhost, started from the pyspark installation itself.

:class:`StandaloneCluster` starts a master and ``workers`` workers (one core each) with
``pyspark/bin/spark-class``, each in a process group of its own, their logs in a temporary
directory, and stops them after: every process of those groups (the master, the workers, the
executor JVMs the workers start and the executors' Python daemons and workers) must be gone.

The executors run ``executor_python``, a Python that cannot import rxpy2
(:mod:`executor_python`): whatever runs there has to be shipped by the driver, as on a real
cluster whose nodes do not have the application installed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pyspark
from executor_python import write_executor_python

SPARK_HOME = Path(pyspark.__file__).resolve().parent
SPARK_CLASS = SPARK_HOME / "bin" / "spark-class"


def _pgid_members(pgids: set[int]) -> dict[int, str]:
    """The live processes (pid -> command line) whose process group is one of ``pgids``."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            # the command name is in parentheses and may hold spaces: split after it
            fields = stat[stat.rindex(")") + 2:].split()
            state, pgid = fields[0], int(fields[2])
            if pgid in pgids and state != "Z":
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                    errors="replace")
                found[int(entry.name)] = cmd[:200]
        except (OSError, ValueError, IndexError):
            continue
    return found


def parent_pid(pid: int) -> int:
    """The parent of ``pid`` (from /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[1])


class StandaloneCluster:
    """A master and ``workers`` one-core workers on 127.0.0.1 (use as a context manager)."""

    def __init__(self, workdir: Path, workers: int = 2, worker_memory: str = "1g",
                 start_timeout: float = 180.0) -> None:
        self.workdir = workdir
        self.workers = workers
        self.worker_memory = worker_memory
        self.start_timeout = start_timeout
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}
        self.master_url = ""
        self.executor_python = workdir / "executor-python"
        self.env = {**os.environ, "SPARK_HOME": str(SPARK_HOME), "SPARK_LOCAL_IP": "127.0.0.1",
                    "SPARK_LOG_DIR": str(workdir / "logs"), "SPARK_PID_DIR": str(workdir)}
        # the REST submission server listens on a fixed port (6066): not wanted here
        props = workdir / "daemon.properties"
        props.write_text("spark.master.rest.enabled false\n"
                         "spark.worker.cleanup.enabled false\n")
        self.properties = props

    # -- start

    def _spawn(self, name: str, *args: str) -> None:
        log = self.workdir / f"{name}.log"
        with open(log, "wb") as out:
            self.procs[name] = subprocess.Popen(
                [str(SPARK_CLASS), *args, "--properties-file", str(self.properties)],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=self.env, cwd=self.workdir, start_new_session=True)
        self.logs[name] = log

    def _wait_log(self, name: str, pattern: str) -> re.Match[str]:
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, self.logs[name].read_text(errors="replace"))
            if m:
                return m
            if self.procs[name].poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError(f"{name} did not log {pattern!r} (exit {self.procs[name].poll()}):\n"
                           + self.logs[name].read_text(errors="replace")[-3000:])

    def start(self) -> StandaloneCluster:
        write_executor_python(self.executor_python)
        self._spawn("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                    "--port", "0", "--webui-port", "0")
        self.master_url = self._wait_log("master", r"Starting Spark master at "
                                                   r"(spark://127\.0\.0\.1:\d+)").group(1)
        for i in range(1, self.workers + 1):
            work = self.workdir / f"worker{i}"
            work.mkdir()
            self._spawn(f"worker{i}", "org.apache.spark.deploy.worker.Worker",
                        "--host", "127.0.0.1", "--port", "0", "--webui-port", "0",
                        "--cores", "1", "--memory", self.worker_memory,
                        "--work-dir", str(work), self.master_url)
        for i in range(1, self.workers + 1):
            self._wait_log(f"worker{i}", r"Successfully registered with master")
        return self

    @property
    def worker_pids(self) -> set[int]:
        return {p.pid for name, p in self.procs.items() if name.startswith("worker")}

    # -- stop

    def processes(self) -> dict[int, str]:
        """Every live process the cluster started (its daemons and their descendants)."""
        return _pgid_members({p.pid for p in self.procs.values()})

    def stop(self, timeout: float = 60.0) -> dict[int, str]:
        """Stop the workers, then the master (SIGTERM, Spark's own shutdown: a worker kills
        its executors); returns the processes still alive after ``timeout`` (then killed)."""
        order = [n for n in self.procs if n != "master"] + ["master"]
        for name in order:
            proc = self.procs.get(name)
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for name in order:
            proc = self.procs.get(name)
            if proc is None:
                continue
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        left = self.processes()
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = self.processes()
        if left:  # reported by the caller; never leave them running
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        return left

    def __enter__(self) -> StandaloneCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()
