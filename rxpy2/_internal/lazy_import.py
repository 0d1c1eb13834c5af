"""The one lazy-import mechanism: a package's module ``__getattr__`` (PEP 562).

``import rxpy2`` imports none of the ~250 operator modules, yet the fluent modules
name them at the top like any import, so a reader, mypy and pyright follow
``Flowable.map`` to ``flowable_map.FlowableMap``::

    # rxpy2/_internal/operators/flowable/__init__.py
    __getattr__, __dir__ = lazy_package(__name__, globals())

    # rxpy2/flowable.py
    from rxpy2._internal.operators.flowable import flowable_map
    ...
        return flowable_map.FlowableMap(self, mapper)

* A **submodule** not imported yet comes out of ``from package import module`` as a
  *deferred* module: nothing of it runs until an attribute it lacks is read; then the
  real module is imported, its namespace copied in, and the object becomes a plain
  module (later reads are ordinary, specialised module attribute loads).
* A **name** the table maps to a module (``{"Timed": "rxpy2.timed"}``) is imported on
  first access and stored in the package, for a package's cheap-to-import public
  names; type checkers see those through ``if TYPE_CHECKING:`` imports beside the table.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Mapping
from types import ModuleType
from typing import Any

__all__ = ["lazy_package"]


class _DeferredModule(ModuleType):
    """A submodule bound by ``from package import module`` before anything imported it.

    Its first read of a missing attribute imports the module, takes its namespace and
    turns the object into a plain module. The copy is a snapshot: a module global the
    module rebinds later is seen through the module itself, not through this object (the
    fluent modules read classes and functions, which nothing rebinds). Two threads may
    both take the first read: each imports (the import system serialises that) and copies
    the same namespace, and the class changes only after the copy is whole.
    """

    def __getattr__(self, name: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        object.__setattr__(self, "__class__", ModuleType)  # a plain module from now on
        return getattr(module, name)

    def __repr__(self) -> str:
        return f"<module {self.__name__!r} (not imported yet)>"


def _module_names(path: Collection[str]) -> set[str]:
    """The modules and subpackages in a package's folders (one listing each, instead of an
    import-system lookup per name: the fluent modules name some 300 deferred modules)."""
    names = set()
    for folder in path:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            stem, ext = os.path.splitext(entry.name)
            if ext == ".py" and stem.isidentifier():
                names.add(stem)
            elif ext == "" and entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py")):
                names.add(entry.name)
    return names


def lazy_package(package: str, namespace: dict[str, Any], names: Mapping[str, str] | None = None,
                 submodules: bool | Collection[str] = True
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose globals are ``namespace``:
    ``names`` imported on first use from the modules given, and its submodules (all, or
    those named) deferred. A package whose own modules import each other with
    ``from package import module`` (``rxpy2``'s ``plugins``) names the few it defers: a
    module that rebinds its globals must never be seen through a deferred copy."""
    table = dict(names or {})
    listed: set[str] | None = None  # the package's modules, read from its folder at first need

    def deferred(name: str) -> bool:
        nonlocal listed
        if submodules is not True:
            return submodules is not False and name in submodules
        if name.startswith("__"):
            return False
        if listed is None:
            listed = _module_names(namespace.get("__path__", ()))
        if name in listed:
            return True
        # not in a folder listing (a package in a zip, say): ask the import system
        import importlib.util

        return importlib.util.find_spec(f"{package}.{name}") is not None

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        elif deferred(name):
            value = _DeferredModule(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value  # later reads skip __getattr__; an import replaces a deferred one
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
