"""Every ```python block of README.md, PYPI.md and docs/*.md runs, in order, one namespace per page.

A block preceded by a line ``<!-- no-test ... -->`` is a fragment and is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"(<!-- no-test[^>]*-->\s*\n)?```python\n(.*?)```", re.S)


def _pages() -> list[Path]:
    pages = [ROOT / "README.md", ROOT / "PYPI.md", *sorted(DOCS.glob("*.md"))]
    return [p for p in pages if BLOCK.search(p.read_text())]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_doc_examples_run(page: Path, request: pytest.FixtureRequest) -> None:
    if page.name == "spark.md":  # marked spark in conftest
        # the examples' SparkSession.builder...getOrCreate() takes the suite's session (made
        # with the tests' settings) instead of starting one with Spark's defaults
        request.getfixturevalue("spark")
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    ran = 0
    for m in BLOCK.finditer(page.read_text()):
        if m.group(1):
            continue
        code = m.group(2)
        exec(compile(code, f"{page.name}:block{ran}", "exec"), namespace)  # noqa: S102
        ran += 1
    assert ran > 0


def test_the_package_description_stands_alone() -> None:
    """PYPI.md is the long description a package index shows (pyproject's ``readme``): the
    project has no public address yet, so it links nowhere (a relative link would point
    into a repository the index does not show) and opens with what the package is."""
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["readme"] == "PYPI.md"
    text = (ROOT / "PYPI.md").read_text()
    assert not re.findall(r"\]\((?!https://)[^)]*\)", text)  # no link but an absolute one
    assert "tools/" not in text.split("## ")[0]  # not the contributors' commands


_TEST_REF = re.compile(r"`([^`]*::[^`]+)`")


def test_every_rxjava_difference_names_tests_that_exist() -> None:
    """Each row of docs/rxjava-differences.md's tables whose last column is ``test`` ends with
    the tests that pin it (``path::test`` or ``::test`` for the same file as the one before).
    Other tables (``## Names not ported``) are checked by tests/test_api_coverage.py."""
    rows = []
    header: list[str] = []
    for line in (DOCS / "rxjava-differences.md").read_text().splitlines():
        if not line.startswith("| "):
            header = []
        elif not header:
            header = [c.strip() for c in line.strip().strip("|").split("|")]
        elif "---" not in line and header[-1] == "test":
            rows.append(line)
    assert len(rows) >= 20
    missing = []
    for row in rows:
        refs = _TEST_REF.findall(row.rstrip(" |").rsplit(" | ", 1)[-1])
        if not refs:
            missing.append(f"no test named: {row[:80]}")
        path = ""
        for ref in refs:
            file, name = ref.split("::", 1)
            path = file or path
            source = ROOT / path
            name = name.split("[")[0]
            if not source.is_file() or not re.search(rf"def {re.escape(name)}\b",
                                                      source.read_text()):
                missing.append(f"{path}::{name}")
    assert not missing, missing
