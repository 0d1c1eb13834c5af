"""Maybe.zip / zip_array / zip_with: combine the items of several Maybes.

The operator body and the coordinator are Single's (``single_zip.py``): the first
empty completion or error wins the ``remaining`` counter, disposes the other
sources and goes downstream; later errors go to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_zip import ZipArrayOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeZipArray"]

R = TypeVar("R")


class MaybeZipArray(ZipArrayOp[R], Maybe[R], Generic[R]):
    __slots__ = ()
