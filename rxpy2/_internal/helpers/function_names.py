"""User functions named in error messages: ``map: the mapper function parse returned None``."""

from __future__ import annotations

from typing import Any

__all__ = ["function_name", "returned_none"]


def function_name(fn: Any) -> str:
    """``fn``'s ``__qualname__`` (else ``__name__``; a ``functools.partial`` names its
    function), falling back to ``repr(fn)``."""
    for attr in ("__qualname__", "__name__"):
        name = getattr(fn, attr, None)
        if isinstance(name, str) and name:
            return name
    func = getattr(fn, "func", None)  # functools.partial
    if func is not None and func is not fn:
        return f"partial({function_name(func)})"
    try:
        return repr(fn)
    except Exception:  # a broken __repr__ must not hide the real error
        return f"<{type(fn).__name__} object>"


def returned_none(operator: str | None, fn: Any, role: str = "mapper function") -> TypeError:
    """The §2.13 error of a user function that returned ``None`` where an item (or a
    Publisher, an Iterable) is due: ``"<operator>: the <role> <name> returned None"``."""
    text = f"the {role} {function_name(fn)} returned None"
    return TypeError(f"{operator}: {text}" if operator else text[0].upper() + text[1:])
