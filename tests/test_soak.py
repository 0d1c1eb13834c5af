"""tools/soak.py: a short soak run in a fresh interpreter ends clean (exit code 0, the
summary's fields), a replay of one seed, and the soak's checks catching a broken stage (a
demand beyond the model, a chain that never ends) put in place of its scheduler hop."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.slow

SOAK = Path(__file__).resolve().parent.parent / "tools" / "soak.py"


@pytest.fixture(scope="module")
def soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rxpy2_tools_soak", SOAK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fields(line: str) -> dict[str, str]:
    return dict(re.findall(r"(\w+)=(\S+)", line))


def test_a_five_second_soak_ends_clean() -> None:
    proc = subprocess.run([sys.executable, str(SOAK), "--seconds", "5", "--threads", "2",
                           "--seed", "20261202"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = [ln for ln in proc.stdout.splitlines() if ln.startswith("[soak] summary:")]
    assert len(summary) == 1, proc.stdout
    f = _fields(summary[0])
    assert f["seed"] == "20261202"
    assert int(f["chains"]) > 0 and int(f["signals"]) > int(f["chains"])
    assert (f["violations"], f["hangs"], f["leaked_threads"], f["result"]) == ("0", "0", "0", "OK")
    assert f["threads_after_shutdown"] == f["threads_baseline"]
    assert {"rss_growth", "rss_after_warmup", "throughput", "late_after_cancel"} <= f.keys()
    assert "VIOLATION" not in proc.stdout


def test_replay_runs_one_seed_again() -> None:
    proc = subprocess.run([sys.executable, str(SOAK), "--replay", "20261202", "--rounds", "3"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "seed=20261202: " in proc.stdout
    assert "0 of 3 round(s) broke" in proc.stdout


def _kinds(soak: ModuleType, seeds: range) -> set[str]:
    """The kinds of violation the chains of ``seeds`` met (tapped). Their sources' errors
    may race a cancel into plugins.on_error: the tests take ``plugin_errors`` for that."""
    kinds: set[str] = set()
    try:
        for seed in seeds:
            kinds |= {v.kind for v in soak.run_chain(seed, True).violations}
    finally:
        Schedulers.shutdown()
    return kinds


def test_the_soak_catches_a_request_beyond_the_model(
        soak: ModuleType, monkeypatch: pytest.MonkeyPatch,
        plugin_errors: list[BaseException]) -> None:
    def unbounded_hop(st: Any, rng: Any, up: Flowable[Any]) -> Flowable[Any]:
        st.desc = "on_backpressure_buffer() modelled as pass-through"
        st.govern(up, st.pass_through)  # it requests LONG_MAX: beyond a bounded demand
        return up.on_backpressure_buffer()
    monkeypatch.setitem(soak.SOAK_OPS, "hop", unbounded_hop)
    assert "demand" in _kinds(soak, range(40))


def test_the_soak_catches_a_chain_that_never_ends(
        soak: ModuleType, monkeypatch: pytest.MonkeyPatch,
        plugin_errors: list[BaseException]) -> None:
    def never_ends(st: Any, rng: Any, up: Flowable[Any]) -> Flowable[Any]:
        st.desc = "concat_with(never())"
        st.govern(up, st.arbiter)
        return up.concat_with(Flowable.never())
    monkeypatch.setitem(soak.SOAK_OPS, "hop", never_ends)
    monkeypatch.setattr(soak, "HANG_SECONDS", 0.05)
    assert "hang" in _kinds(soak, range(20))
