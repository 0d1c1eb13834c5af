"""rxpy2.internal.lazy: the lazily imported names of the fluent API."""

from __future__ import annotations

import ast
import importlib
import pathlib
import subprocess
import sys

import pytest

import rxpy2
from rxpy2.internal import lazy

ROOT = pathlib.Path(rxpy2.__file__).parent
FLUENT = ["flowable.py", "single.py", "maybe.py", "completable.py",
          "parallel/parallel_flowable.py"]


def _type_checking_imports() -> dict[str, str]:
    tree = ast.parse((ROOT / "internal" / "lazy.py").read_text())
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom)
                for alias in imp.names:
                    assert alias.asname == alias.name  # explicit re-export: import X as X
                    assert imp.module is not None
                    found[alias.name] = imp.module
    return found


def test_type_checking_block_matches_table() -> None:
    assert _type_checking_imports() == lazy._WHERE


@pytest.mark.parametrize("name", sorted(lazy._WHERE))
def test_every_name_resolves_to_its_module_attribute(name: str) -> None:
    expected = getattr(importlib.import_module(lazy._WHERE[name]), name)
    assert getattr(lazy, name) is expected
    assert lazy.__dict__[name] is expected  # cached: later lookups skip __getattr__


def test_unknown_name_is_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NoSuchOperator"):
        lazy.NoSuchOperator  # noqa: B018
    assert not hasattr(lazy, "NoSuchOperator")


def test_every_lazy_use_in_the_fluent_modules_is_in_the_table() -> None:
    used = set()
    for rel in FLUENT:
        for node in ast.walk(ast.parse((ROOT / rel).read_text())):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "_lazy"):
                used.add(node.attr)
    assert used
    assert used - set(lazy._WHERE) == set()


def test_import_rxpy2_imports_no_operator_module() -> None:
    code = ("import sys, rxpy2\n"
            "print(sorted(m for m in sys.modules if m.startswith('rxpy2.internal.operators.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
