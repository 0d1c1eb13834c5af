"""RxJava 2's ``MaybeToPublisher`` and ``SingleInternalHelper.toFlowable``: the mapper
that turns each Maybe (Single, Completable) source into a Flowable.

RxJava 2 builds most of the static ``concat``/``merge``/``concat_eager`` methods of
Single and Maybe as a Flowable operator (``concat_map``, ``flat_map``,
``concat_map_eager``) over a Flowable of the sources, with this mapper; rxpy2 does
the same. A source that is ``None`` or of another type is a ``TypeError`` from the
mapper, which the Flowable operator signals downstream (RxJava 2: a
``NullPointerException``/``ClassCastException`` there).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from typing import Any

from rxpy2._internal.operators.completable.completable_to_flowable import CompletableToFlowable
from rxpy2._internal.operators.maybe.maybe_to_flowable import MaybeToFlowable
from rxpy2._internal.operators.single.single_to_flowable import SingleToFlowable
from rxpy2.completable import Completable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["COMPLETABLE_TO_FLOWABLE", "MAYBE_TO_FLOWABLE", "SINGLE_TO_FLOWABLE", "ToFlowable", "flowable_of_sources",
           "require_sources", "same_source"]


class ToFlowable:
    """``mapper(source)``: a Flowable of ``source``, which must be a ``kind``."""

    __slots__ = ("kind", "make", "__name__")

    def __init__(self, kind: type, make: Callable[[Any], Flowable[Any]]) -> None:
        self.kind = kind
        self.make = make
        self.__name__ = f"{kind.__name__}.to_flowable"  # how a chain's repr names it

    def __call__(self, source: Any) -> Flowable[Any]:
        if not isinstance(source, self.kind):
            raise TypeError(f"A source is None, not a {self.kind.__name__}" if source is None
                            else f"A source is a {type(source).__name__}, "
                                 f"not a {self.kind.__name__}")
        return self.make(source)

    def __repr__(self) -> str:
        return self.__name__


SINGLE_TO_FLOWABLE = ToFlowable(Single, SingleToFlowable)
MAYBE_TO_FLOWABLE = ToFlowable(Maybe, MaybeToFlowable)
COMPLETABLE_TO_FLOWABLE = ToFlowable(Completable, CompletableToFlowable)


def require_sources(sources: Any) -> None:
    """The argument check at assembly: ``TypeError`` unless an iterable or a Publisher."""
    if sources is None:
        raise TypeError("sources is None")
    if not isinstance(sources, Publisher) and not hasattr(sources, "__iter__"):
        raise TypeError(f"sources must be an iterable or a Publisher, not "
                        f"{type(sources).__name__}")


def flowable_of_sources(sources: Iterable[Any] | Publisher[Any]) -> Flowable[Any]:
    """The Flowable the sources come from: ``from_publisher`` for a Publisher (checked
    first: a Flowable is iterable too), else ``from_iterable`` (iterated per subscriber).
    Checked with :func:`require_sources`."""
    require_sources(sources)
    if isinstance(sources, Publisher):
        return Flowable.from_publisher(sources)
    return Flowable.from_iterable(sources)


def same_source(source: Any) -> Any:
    """The identity mapper of ``merge(Single<Single>)``/``merge(Maybe<Maybe>)`` (the flat-map
    operator checks that the inner source has the right type)."""
    return source
