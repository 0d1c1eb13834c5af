"""The Publishers of a multi-source operator (zip, combine_latest, amb), read at subscription.

``sources`` may be any iterable: it is iterated at each subscription, and an
error while iterating, or an entry that is not a Publisher (``None`` included),
is signalled to that subscriber rather than raised.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["collect_sources", "sources_or_terminate"]


def collect_sources(sources: Iterable[Any]) -> tuple[Publisher[Any], ...]:
    """The Publishers of an iterable; ``TypeError`` for an entry that is not one."""
    out = []
    for i, p in enumerate(sources):
        if p is None:
            raise TypeError(f"The iterable returned a None source (index {i})")
        if not isinstance(p, Publisher):
            raise TypeError(f"source {i} must be a Publisher, not {type(p).__name__}")
        out.append(p)
    return tuple(out)


def sources_or_terminate(sources: Iterable[Any],
                         subscriber: Subscriber[Any]) -> tuple[Publisher[Any], ...] | None:
    """The sources as a tuple, checked (a user's tuple may hold anything, too).

    None when ``subscriber`` was terminated instead: with the error of reading
    them (:func:`collect_sources`), or completed because there is no source.
    """
    try:
        out = collect_sources(sources)
    except Exception as e:
        EmptySubscription.error(e, subscriber)
        return None
    if not out:
        EmptySubscription.complete(subscriber)
        return None
    return out
