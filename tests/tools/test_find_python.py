"""tools/_find_python.sh: which interpreter ``find_python VERSION`` takes, on a fake pyenv root.

Each fake interpreter answers the probe the function runs (its version and whether it is a
free-threaded build), so the choice is checked without those CPythons being installed here.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASH = shutil.which("bash") or "/bin/bash"


def _fake_python(root: Path, name: str, answer: str) -> Path:
    path = root / "versions" / name / "bin" / "python"
    path.parent.mkdir(parents=True)
    path.write_text(f"#!/bin/sh\necho '{answer}'\n")
    path.chmod(0o755)
    return path


def _find(root: Path, version: str) -> tuple[int, str]:
    # PATH holds only what the function needs besides the interpreters (sort), so no pythonX.Y
    # of this machine answers
    tools = root / "tools-bin"
    if not tools.exists():
        tools.mkdir()
        sort = shutil.which("sort")
        assert sort is not None
        (tools / "sort").symlink_to(sort)
    done = subprocess.run(
        [BASH, "-c", f'. tools/_find_python.sh && find_python "{version}"'],
        cwd=ROOT,
        env={"PYENV_ROOT": str(root), "PATH": str(tools)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.returncode, done.stdout.strip()


@pytest.fixture
def pyenv(tmp_path: Path) -> Path:
    _fake_python(tmp_path, "3.13.0", "3.13 gil")
    _fake_python(tmp_path, "3.13.1t", "3.13 free-threaded")
    _fake_python(tmp_path, "3.12.1", "3.12 gil")
    return tmp_path


def test_a_gil_version_takes_the_gil_build_never_the_free_threaded_one(pyenv: Path) -> None:
    # 3.13.1t sorts first (newest patch release), but it is not a build with the GIL
    assert _find(pyenv, "3.13") == (0, str(pyenv / "versions/3.13.0/bin/python"))


def test_a_t_version_takes_the_free_threaded_build(pyenv: Path) -> None:
    assert _find(pyenv, "3.13t") == (0, str(pyenv / "versions/3.13.1t/bin/python"))


def test_no_free_threaded_build_installed_is_not_found(pyenv: Path) -> None:
    assert _find(pyenv, "3.12t") == (1, "")


def test_a_build_reporting_another_version_is_skipped(tmp_path: Path) -> None:
    # a pyenv shim or a directory named for one version holding another
    _fake_python(tmp_path, "3.11.9", "3.10 gil")
    assert _find(tmp_path, "3.11") == (1, "")
