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
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import Callable, ScalarCallable
from rxpy2.internal.subscriptions.empty import EmptySubscription
from rxpy2.internal.subscriptions.scalar import ScalarSubscription
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableScalarXMap", "check_inner", "scalar_x_map", "try_scalar_x_map_subscribe"]

T = TypeVar("T")
R = TypeVar("R")


def check_inner(p: Any) -> Publisher[Any]:
    """The mapper's result as a Publisher: ``TypeError`` for ``None`` or anything else."""
    if p is None:
        raise TypeError("The mapper returned None")  # §2.13: no None where a Publisher is due
    if not isinstance(p, Publisher):
        raise TypeError(f"The mapper returned {type(p).__name__}, not a Publisher")
    return p


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
            p = check_inner(self.mapper(self.value))
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
        p = check_inner(mapper(value))
    except Exception as e:
        EmptySubscription.error(e, subscriber)
        return True
    _subscribe_inner(p, subscriber)
    return True
