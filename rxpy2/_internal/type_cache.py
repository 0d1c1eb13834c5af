"""``isinstance`` against an ABC, answered per class from a dict.

``isinstance(x, SomeABC)`` runs ``ABCMeta.__instancecheck__``, a Python-level call,
several times the cost of a dict lookup. Subscribing checks the subscriber against
``FlowableSubscriber`` and ``ConditionalSubscriber`` once per subscription, and an
inner source of ``flat_map``/``concat_map`` is subscribed once per upstream item,
so those checks are worth caching: the answer depends only on the class (rxpy2's
ABCs are subclassed, not ``register``-ed, after import).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["class_check"]

_LIMIT = 1024  # classes remembered per check; beyond that, plain isinstance


def class_check(cls: type) -> Callable[[object], Any]:
    """A function equal to ``lambda obj: isinstance(obj, cls)``, cached per ``type(obj)``.

    Cast the result to ``Callable[[object], TypeGuard[cls]]`` where it is kept, so that
    a check narrows as ``isinstance`` does (mypy takes no abstract class as ``type[C]``)."""
    known: dict[type, bool] = {}
    get = known.get

    def check(obj: object) -> bool:
        t = type(obj)
        r = get(t)
        if r is None:
            r = isinstance(obj, cls)
            if len(known) < _LIMIT:
                known[t] = r
        return r

    check.__name__ = f"is_{cls.__name__}"
    check.__doc__ = f"``isinstance(obj, {cls.__name__})``, cached per class."
    return check
