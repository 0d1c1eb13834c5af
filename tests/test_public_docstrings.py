"""Every public name of rxpy2 has a docstring: the API reference is made from them.

Public means: a module whose dotted path has no part starting with ``_``; in it, the
names of ``__all__`` (or, without one, every name not starting with ``_`` whose object
comes from rxpy2); of a public class, every attribute not starting with ``_`` that a
class of rxpy2 in its MRO defines (so a method inherited from ``rxpy2._internal`` counts,
and an override counts as documented when the method it overrides is).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from collections.abc import Iterator
from typing import Any

import pytest

import rxpy2


def _public_modules() -> list[str]:
    names = ["rxpy2"]
    for info in pkgutil.walk_packages(rxpy2.__path__, "rxpy2."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def _ours(obj: Any) -> bool:
    return str(getattr(obj, "__module__", "") or "").startswith("rxpy2")


def _public_names(module: types.ModuleType) -> list[str]:
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return list(declared)
    return [name for name in dir(module)
            if not name.startswith("_") and _ours(getattr(module, name, None))]


def _callable_doc(obj: Any) -> Any:
    if isinstance(obj, property):
        return obj.fget
    if isinstance(obj, (staticmethod, classmethod)):
        return obj.__func__
    return obj


def _members(klass: type) -> Iterator[tuple[str, Any]]:
    seen: set[str] = set()
    for base in klass.__mro__:
        if not _ours(base):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            target = _callable_doc(value)
            if inspect.isfunction(target):
                yield name, getattr(klass, name) if not isinstance(value, property) else value


def _undocumented(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    missing: list[str] = []
    if not (module.__doc__ or "").strip():
        missing.append(module_name)
    for name in _public_names(module):
        obj = getattr(module, name)
        if inspect.isclass(obj) and _ours(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(f"{module_name}.{name}")
            for member, value in _members(obj):
                if isinstance(value, property):
                    doc = inspect.getdoc(value)
                else:
                    doc = inspect.getdoc(_callable_doc(value))
                if not (doc or "").strip():
                    missing.append(f"{module_name}.{name}.{member}")
        elif inspect.isfunction(obj) and _ours(obj):
            if not (inspect.getdoc(obj) or "").strip():
                missing.append(f"{module_name}.{name}")
    return missing


@pytest.mark.parametrize("module_name", _public_modules())
def test_public_names_have_docstrings(module_name: str) -> None:
    missing = _undocumented(module_name)
    assert not missing, f"{len(missing)} public names without a docstring:\n" + "\n".join(missing)


def test_the_walk_sees_the_public_api() -> None:
    # the test above would pass vacuously if the walk found nothing
    modules = _public_modules()
    assert {"rxpy2", "rxpy2.flowable", "rxpy2.processors", "rxpy2.testing"} <= set(modules)
    assert not any("._internal" in name for name in modules)
    members = dict(_members(rxpy2.Flowable))
    assert {"map", "filter", "subscribe", "do_on_next"} <= set(members)
