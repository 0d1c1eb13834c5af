"""rxpy2._internal.lazy_import: deferred submodules and a package's names imported on first use."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pathlib
import subprocess
import sys
import threading
from types import ModuleType

import pytest

import rxpy2
from rxpy2._internal.lazy_import import _DeferredModule
from rxpy2.testing import race

ROOT = pathlib.Path(rxpy2.__file__).parent
FLUENT = ["flowable.py", "single.py", "maybe.py", "completable.py",
          "parallel/parallel_flowable.py"]


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_import_rxpy2_imports_no_operator_module() -> None:
    # the family packages (their __init__ only) are imported; none of their modules is
    code = ("import sys, rxpy2\n"
            "print(sorted(m for m in sys.modules if m.startswith('rxpy2._internal.operators.')"
            " and m.count('.') > 3))")
    assert _python(code) == "[]"


def test_a_deferred_module_is_imported_at_its_first_attribute_read() -> None:
    out = _python(
        "import sys, types, rxpy2\n"
        "from rxpy2._internal.operators.flowable import flowable_map as m\n"
        "name = 'rxpy2._internal.operators.flowable.flowable_map'\n"
        "print(name in sys.modules, type(m).__name__, repr(m))\n"
        "cls = m.FlowableMap\n"
        "print(name in sys.modules, type(m) is types.ModuleType, cls is sys.modules[name].FlowableMap)\n"
        "from rxpy2._internal.operators.flowable import flowable_map as again\n"
        "print(again is sys.modules[name])\n")
    assert out.splitlines() == [
        "False _DeferredModule "
        "<module 'rxpy2._internal.operators.flowable.flowable_map' (not imported yet)>",
        "True True True",
        "True",  # once imported, the package hands out the module itself
    ]


def test_a_deferred_module_lacking_the_attribute_raises_attribute_error() -> None:
    m = _DeferredModule("rxpy2._internal.operators.flowable.flowable_map")
    with pytest.raises(AttributeError, match="NoSuchOperator"):
        m.NoSuchOperator  # noqa: B018
    assert type(m) is ModuleType  # imported all the same
    assert m.FlowableMap is sys.modules[m.__name__].FlowableMap


def test_a_missing_submodule_is_an_import_error_and_dunders_are_not_modules() -> None:
    with pytest.raises(ImportError, match="no_such_operator"):
        from rxpy2._internal.operators.flowable import no_such_operator  # noqa: F401
    package = importlib.import_module("rxpy2._internal.operators.flowable")
    assert not hasattr(package, "__wrapped__")
    assert not hasattr(package, "no_such_operator")


def test_two_threads_reading_a_deferred_module_first_see_the_same_names() -> None:
    name = "rxpy2._internal.operators.flowable.flowable_filter"
    expected = importlib.import_module(name).FlowableFilter
    for _ in range(200):
        m = _DeferredModule(name)
        seen: list[object] = []
        lock = threading.Lock()

        def read(m: ModuleType = m, seen: list[object] = seen, lock: threading.Lock = lock) -> None:
            value = m.FlowableFilter
            with lock:
                seen.append(value)

        race(read, read)
        assert seen == [expected, expected]
        assert type(m) is ModuleType


def test_the_names_of_a_package_are_imported_on_first_use_and_kept() -> None:
    out = _python("import sys, rxpy2\n"
                  "print('rxpy2.timed' in sys.modules, 'Timed' in vars(rxpy2))\n"
                  "t = rxpy2.Timed\n"
                  "print('rxpy2.timed' in sys.modules, vars(rxpy2)['Timed'] is t, 'Timed' in dir(rxpy2))")
    assert out.splitlines() == ["False False", "True True True"]


def test_every_module_attribute_the_fluent_modules_read_exists() -> None:
    """What mypy checks statically, checked at run time: each ``module.Name`` the fluent
    modules read through a deferred module names something that module defines."""
    missing = []
    for rel in FLUENT:
        path = ROOT / rel
        tree = ast.parse(path.read_text())
        module_names = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if importlib.util.find_spec(full.rsplit(".", 1)[0]) and _is_module(full):
                        module_names[alias.asname or alias.name] = full
        assert module_names, rel
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in module_names):
                module = importlib.import_module(module_names[node.value.id])
                if not hasattr(module, node.attr):
                    missing.append(f"{rel}: {node.value.id}.{node.attr}")
    assert missing == []


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


#: the packages whose modules may be handed out as deferred copies
DEFERRING = ["rxpy2/_internal/operators", "rxpy2/_internal/subscribers", "rxpy2/parallel",
             "rxpy2/processors", "rxpy2/testing"]


def test_no_module_of_a_deferring_package_rebinds_its_globals() -> None:
    """A deferred module is a copy of the module's namespace taken at its first read: sound
    only while the module never rebinds a global after its import (no ``global`` statement)."""
    rebinding = [str(path.relative_to(ROOT)) for folder in DEFERRING
                 for path in sorted((ROOT.parent / folder).rglob("*.py"))
                 if any(isinstance(node, ast.Global) for node in ast.walk(ast.parse(path.read_text())))]
    assert rebinding == []


def test_only_the_deferring_packages_hand_out_copies() -> None:
    """Every other module object a module of rxpy2 holds is the module itself (a copy of
    ``rxpy2.plugins``, which rebinds ``hooks_active``, would miss every hook)."""
    out = _python(
        f"deferring = {tuple(DEFERRING)!r}\n"
        "import sys, types, rxpy2\n"
        "from rxpy2 import Flowable, Single\n"
        "Flowable.range(0, 3).map(abs).to_list().blocking_get(); Single.just(1).test()\n"
        "bad = []\n"
        "for name, module in list(sys.modules.items()):\n"
        "    if not name.startswith('rxpy2'):\n"
        "        continue\n"
        "    for attr, value in list(vars(module).items()):\n"
        "        if (isinstance(value, types.ModuleType) and value.__name__.startswith('rxpy2')\n"
        "            and sys.modules.get(value.__name__, value) is not value\n"
        "            and not value.__name__.replace('.', '/').startswith(deferring)):\n"
        "            bad.append(f'{name}.{attr}')\n"
        "print(sorted(bad))\n")
    assert out == "[]"
