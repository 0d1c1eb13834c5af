"""The typed signature of ``Flowable.combine_latest`` and ``combine_latest_delay_error``.

The two methods take the same arguments and answer the same types, so their
``@overload`` ladder is written once, as the ``__call__`` of :class:`CombineLatest`,
and :func:`combine_latest_signature` gives each method that type: exact item types
for 1 to 4 sources (a tuple, or the combiner's result), any combiner for more. At
run time the decorator returns the method as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any
from typing import Protocol
from typing import cast
from typing import overload

from rxpy2._internal.type_vars import T1
from rxpy2._internal.type_vars import T2
from rxpy2._internal.type_vars import T3
from rxpy2._internal.type_vars import T4
from rxpy2._internal.type_vars import R

if TYPE_CHECKING:
    from rxpy2.flowable import Flowable
    from rxpy2.reactivestreams import Publisher

__all__ = ["combine_latest_signature"]



if TYPE_CHECKING:  # the type alone: at run time the decorator returns the method itself

    class CombineLatest(Protocol):
        """``combine_latest(*sources, combiner=None, buffer_size=BUFFER_SIZE)``, typed."""

        @overload
        def __call__(self, s1: Publisher[T1], /, *, combiner: None = None,
                     buffer_size: int = ...) -> Flowable[tuple[T1]]: ...

        @overload
        def __call__(self, s1: Publisher[T1], /, *, combiner: Callable[[T1], R],
                     buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], /, *, combiner: None = None,
                     buffer_size: int = ...) -> Flowable[tuple[T1, T2]]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], /, *,
                     combiner: Callable[[T1, T2], R], buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], /, *,
                     combiner: None = None,
                     buffer_size: int = ...) -> Flowable[tuple[T1, T2, T3]]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], /, *,
                     combiner: Callable[[T1, T2, T3], R], buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3],
                     s4: Publisher[T4], /, *, combiner: None = None,
                     buffer_size: int = ...) -> Flowable[tuple[T1, T2, T3, T4]]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3],
                     s4: Publisher[T4], /, *, combiner: Callable[[T1, T2, T3, T4], R],
                     buffer_size: int = ...) -> Flowable[R]: ...

        # the combiner last, positionally (RxJava 2's combineLatest(s1, s2, combiner))
        @overload
        def __call__(self, s1: Publisher[T1], combiner: Callable[[T1], R], /, *,
                     buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], combiner: Callable[[T1, T2], R], /, *,
                     buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3], combiner: Callable[[T1, T2, T3], R], /, *,
                     buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, s1: Publisher[T1], s2: Publisher[T2], s3: Publisher[T3],
                     s4: Publisher[T4], combiner: Callable[[T1, T2, T3, T4], R], /, *,
                     buffer_size: int = ...) -> Flowable[R]: ...

        # 5 or more sources: a combiner of any arity (not *sources alone, which would make
        # mypy answer Any for a lambda combiner of the overloads above)
        @overload
        def __call__(self, s1: Publisher[Any], s2: Publisher[Any], s3: Publisher[Any],
                     s4: Publisher[Any], s5: Publisher[Any], /, *sources: Publisher[Any],
                     combiner: Callable[..., R], buffer_size: int = ...) -> Flowable[R]: ...

        @overload
        def __call__(self, *sources: Publisher[Any], combiner: None = None,
                     buffer_size: int = ...) -> Flowable[tuple[Any, ...]]: ...

        # 5 or more sources and the combiner last, positionally
        @overload
        def __call__(self, s1: Publisher[Any], s2: Publisher[Any], s3: Publisher[Any],
                     s4: Publisher[Any], s5: Publisher[Any], /,
                     *sources_and_combiner: Publisher[Any] | Callable[..., R],
                     buffer_size: int = ...) -> Flowable[R]: ...


def combine_latest_signature(method: Callable[..., Flowable[Any]]) -> CombineLatest:
    """``method`` itself, typed as :class:`CombineLatest` (put above ``@staticmethod``)."""
    return cast("CombineLatest", method)
