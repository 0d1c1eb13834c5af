"""A package's names imported on first use: the module ``__getattr__``/``__dir__`` pair.

``import rxpy2`` stays cheap by leaving out what only some programs use (asyncio,
the test scheduler, ...) while every name stays where it is::

    __getattr__, __dir__ = lazy_attributes(__name__, {"Timed": "rxpy2.timed"}, globals())

The first access to ``Timed`` imports ``rxpy2.timed`` and stores the name in the
package's globals, so later lookups skip ``__getattr__``. A name mapped to the
package's submodule of that name (``"processors": "rxpy2.processors"``) is that
module: ``import rxpy2; rxpy2.processors.PublishProcessor`` keeps working. ``from package import
*`` works too (it looks every ``__all__`` name up). Type checkers see the names
through ``if TYPE_CHECKING:`` imports next to the table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(package: str, where: dict[str, str], namespace: dict[str, Any]
                    ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (whose globals are
    ``namespace``) for the names ``where`` maps to the modules defining them."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        imported = importlib.import_module(module)
        # a submodule stands for itself (``rxpy2.processors``), any other name is its attribute
        value = imported if module == f"{package}.{name}" else getattr(imported, name)
        namespace[name] = value  # later lookups skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
