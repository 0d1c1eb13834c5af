"""The type variables the public types' signatures share, each said once.

* ``T``: the items of a generic class (``Flowable[T]``, ``Single[T]``, ...);
* ``ItemT``: the items of a static factory (``Flowable.just``, ``PublishProcessor.create``):
  its own variable, not the class's ``T``, which pyright leaves Unknown when a static
  method is called on the bare class; the caller says it
  (``p: PublishProcessor[int] = PublishProcessor.create()``);
* ``R``, ``U``: what a function makes of the items;
* ``T1`` .. ``T4``: the item types of 2 to 4 sources in the ``@overload`` ladders
  (``zip``, ``combine_latest``).
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["ItemT", "R", "T", "T1", "T2", "T3", "T4", "U"]

T = TypeVar("T")
ItemT = TypeVar("ItemT")
R = TypeVar("R")
U = TypeVar("U")
T1 = TypeVar("T1")
T2 = TypeVar("T2")
T3 = TypeVar("T3")
T4 = TypeVar("T4")
