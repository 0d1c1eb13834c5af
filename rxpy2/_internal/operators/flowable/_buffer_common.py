"""The collections of the ``buffer`` family: made by a factory, filled item by item.

RxJava's ``bufferSupplier`` is a ``Callable<U extends Collection>``; here
``buffer_factory`` is any callable returning a mutable collection: one with
``append`` (``list``, ``collections.deque``) or ``add`` (``set``). ``list`` is the
default. A factory that returns None breaks §2.13 like a ``null`` buffer in RxJava:
a ``TypeError`` naming the function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.helpers.function_names import returned_none

__all__ = ["add_item", "new_buffer"]


def new_buffer(factory: Callable[[], Any], operator: str) -> Any:
    """A new collection from ``factory`` (which may raise: the caller fails the stream)."""
    if factory is list:
        return []
    b = factory()
    if b is None:
        raise returned_none(operator, factory, "buffer factory")
    return b


def add_item(b: Any, item: Any) -> None:
    """Add ``item`` to the collection ``b`` (``append``, else ``add``)."""
    if type(b) is list:
        b.append(item)
        return
    append = getattr(b, "append", None)
    if append is not None:
        append(item)
    else:
        b.add(item)
