"""Each ```python block of the two migration guides runs on its own, in a fresh namespace.

tests/test_docs.py runs every page's blocks in order in one namespace; here each block of
docs/coming-from-rxjava2.md and docs/coming-from-rxpy.md must stand alone (its own
imports, its own assertions on the results it shows), so a reader can copy any one of
them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"
GUIDES = ["coming-from-rxjava2.md", "coming-from-rxpy.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list[tuple[str, int, str]]:
    found = []
    for name in GUIDES:
        for i, m in enumerate(BLOCK.finditer((DOCS / name).read_text())):
            found.append((name, i, m.group(1)))
    return found


def test_each_guide_has_examples_with_assertions() -> None:
    for name in GUIDES:
        blocks = [code for page, _, code in _blocks() if page == name]
        assert len(blocks) >= 5, name
        # an example that checks nothing would pass whatever rxpy2 does
        unchecked = [i for i, code in enumerate(blocks)
                     if "assert" not in code]
        assert unchecked == [], f"{name}: blocks without an assertion: {unchecked}"


@pytest.mark.parametrize(("page", "index", "code"), _blocks(),
                         ids=[f"{p}:block{i}" for p, i, _ in _blocks()])
def test_guide_block_runs_alone(page: str, index: int, code: str) -> None:
    namespace: dict[str, object] = {"__name__": f"guide_{page[:-3].replace('-', '_')}_{index}"}
    exec(compile(code, f"{page}:block{index}", "exec"), namespace)  # noqa: S102
