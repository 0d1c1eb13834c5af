"""Scalar fusion of flat_map, concat_map and switch_map (assembly and subscription time).

A source that yields at most one item needs none of the flattening machinery:

* at assembly, over a constant source (:class:`ScalarCallable`: ``just(x)``,
  ``empty()``): ``empty()`` stays ``empty()``, and ``just(x).flat_map(f)`` becomes a
  :class:`FlowableScalarXMap` that calls ``f(x)`` when subscribed and subscribes the
  downstream straight to the Publisher it returns;
* at subscription, over a :class:`Callable` source (``from_callable``), the
  operator's ``subscribe_actual`` first calls :func:`try_scalar_x_map_subscribe`,
  which evaluates the source there and then does the same.

In both cases an inner Publisher that is itself a Callable is not subscribed to at
all: its value goes downstream through a :class:`ScalarSubscription` (``None``:
completion).

:func:`inner_kind` classifies a mapper's result for the flattening operators'
``on_next`` (a Callable is not subscribed to; a Flowable is subscribed through
``_subscribe``). ``isinstance`` against the ``Publisher`` ABC costs about as
much as the rest of a scalar's trip through flat_map, so the kind is remembered
per type: ``INNER_KINDS.get(type(p))`` is the hot path, :func:`inner_kind` the
first time a type is seen (and for ``None`` or a non-Publisher: ``TypeError``).
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.helpers.function_names import function_name
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2._internal.subscriptions.scalar import ScalarSubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["INNER_CALLABLE", "INNER_FLOWABLE", "INNER_KINDS", "INNER_PUBLISHER", "INNER_SCALAR",
           "FlowableScalarXMap", "check_inner", "inner_kind", "scalar_x_map",
           "try_scalar_x_map_subscribe"]

T = TypeVar("T")
R = TypeVar("R")


def check_inner(p: Any, mapper: Any = None, operator: str | None = None) -> Publisher[Any]:
    """The mapper's result as a Publisher: ``TypeError`` for ``None`` or anything else (the
    message names ``operator`` and the ``mapper`` function when given)."""
    if p is None:  # §2.13: no None where a Publisher is due
        if mapper is None:
            raise TypeError("The mapper returned None")
        raise returned_none(operator, mapper)
    if not isinstance(p, Publisher):
        what = "The mapper" if mapper is None else (
            f"{operator + ': the' if operator else 'The'} mapper function "
            f"{function_name(mapper)}")
        raise TypeError(f"{what} returned {type(p).__name__}, not a Publisher")
    return p


#: :func:`inner_kind`'s answers (ordered: ``kind >= INNER_SCALAR`` means "a Callable")
INNER_PUBLISHER = 0  # any other Publisher: ``p.subscribe(subscriber)``
INNER_FLOWABLE = 1  # a Flowable that is not a Callable: ``p._subscribe(subscriber)``
INNER_SCALAR = 2  # a ScalarCallable: ``p.call()`` is a constant (None: empty), never raises
INNER_CALLABLE = 3  # a Callable: ``p.call()`` may raise

#: type -> kind of every Publisher type :func:`inner_kind` has seen (up to a bound).
#: Only Publisher types get in (anything else raised), and all four kinds are
#: properties of the class (the markers are plain base classes). A dict ``get`` or
#: store is one operation under the GIL; two threads classifying the same new type
#: store the same value.
INNER_KINDS: dict[type, int] = {}
_MAX_KINDS = 1024  # a program that makes classes on the fly stops caching, not growing


def inner_kind(p: Any) -> int:
    """The kind of a mapper's result ``p``; ``TypeError`` for ``None`` or a non-Publisher."""
    check_inner(p)
    if isinstance(p, ScalarCallable):
        k = INNER_SCALAR
    elif isinstance(p, Callable):
        k = INNER_CALLABLE
    elif isinstance(p, Flowable):
        k = INNER_FLOWABLE
    else:
        k = INNER_PUBLISHER
    if len(INNER_KINDS) < _MAX_KINDS:
        INNER_KINDS[type(p)] = k
    return k


def _subscribe_inner(p: Publisher[R], subscriber: Subscriber[R]) -> None:
    """Subscribe ``subscriber`` to ``p``, or hand it the value of a Callable ``p`` directly."""
    if isinstance(p, Callable):
        try:
            u = p.call()
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        if u is None:
            EmptySubscription.complete(subscriber)
        else:
            subscriber.on_subscribe(ScalarSubscription(subscriber, u))
        return
    p.subscribe(subscriber)


class FlowableScalarXMap(Flowable[R], Generic[T, R]):
    """``just(value).flat_map(mapper)``: ``mapper(value)`` subscribed directly, per subscriber."""

    __slots__ = ("value", "mapper")

    def __init__(self, value: T, mapper: Fn[[T], Publisher[R]]) -> None:
        self.value = value
        self.mapper = mapper

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        try:
            p = check_inner(self.mapper(self.value), self.mapper)
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        _subscribe_inner(p, subscriber)


def scalar_x_map(source: ScalarCallable[T], mapper: Fn[[T], Publisher[R]]) -> Flowable[R]:
    """The assembly-time replacement of a flattening operator over a constant source."""
    value = source.call()
    if value is None:
        return Flowable.empty()
    f: Flowable[R] = FlowableScalarXMap(value, mapper)
    return plugins.on_assembly("flowable", f) if plugins.hooks_active else f


def try_scalar_x_map_subscribe(source: Publisher[T], subscriber: Subscriber[R],
                               mapper: Fn[[T], Publisher[R]]) -> bool:
    """For a ``subscribe_actual``: when ``source`` is a Callable, evaluate it now, deal
    with ``subscriber`` completely and return True; otherwise return False."""
    if not isinstance(source, Callable):
        return False
    try:
        value = source.call()
    except Exception as e:
        EmptySubscription.error(e, subscriber)
        return True
    if value is None:
        EmptySubscription.complete(subscriber)
        return True
    try:
        p = check_inner(mapper(value), mapper)
    except Exception as e:
        EmptySubscription.error(e, subscriber)
        return True
    _subscribe_inner(p, subscriber)
    return True
