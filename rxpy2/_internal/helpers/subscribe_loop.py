"""Subscribing a chain in a loop, and what happens when ``subscribe_actual`` raises.

Every ``subscribe`` runs :func:`run`, a loop; :func:`subscribe_tail`, called as the last
act of a ``subscribe_actual``, queues the upstream subscription on that loop (its next
turn, not a deeper frame), so deep chains subscribe in constant stack depth. Chains of
more than :data:`HEADROOM_FROM` stages raise the recursion limit so that up to
:data:`MAX_STAGES` stages can signal; a deeper chain gets ``on_error(RecursionError)``.

An ``Exception`` escaping ``subscribe_actual`` goes to the subscriber as ``on_error``
(after an empty Subscription when it had none, §1.9), else to
:func:`rxpy2.plugins.on_error`; fatal exceptions propagate.

How and why: docs/architecture.md, "Recursion" and "``subscribe_loop.py``: errors from
``subscribe_actual``".
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED

__all__ = ["HEADROOM_FROM", "MAX_STAGES", "Kind", "has_upstream", "run", "subscribe_tail"]

#: A loop that reaches a chain of more stages than this makes sure the recursion limit
#: lets the chain's signals through (below it the default limit is plenty).
HEADROOM_FROM = 32
#: The deepest chain a subscription accepts; a deeper one fails with RecursionError.
MAX_STAGES = 5_000
#: Frames of recursion allowed per stage: on_subscribe down, request up, on_next down,
#: each through a helper or two in the heavier operators.
FRAMES_PER_STAGE = 16
_MARGIN = 500

_MISSING = object()


def _untraced(source: Any, subscriber: Any) -> Any:
    return subscriber

#: ``plugins.hooks_active`` read through a slot (see ``plugins.flags``): once per subscribe
_plugin_flags = plugins.flags


class Kind:
    """A reactive type's part in the loop (its class attribute ``_loop_kind``).

    ``name`` is its subscribe-hook key, ``accepts`` the subscriber type it takes as it
    is (others go through its ``_prepare_subscriber``), ``empty`` the upstream a failed
    subscriber gets before ``on_error`` (§1.9). ``trace(source, subscriber)`` is what
    assembly tracking subscribes to ``source`` in place of ``subscriber``: a stage that
    notes an error passing by with where ``source`` was assembled (the type's checkpoint
    stage), or ``subscriber`` itself (a source with no recorded site).
    """

    __slots__ = ("name", "accepts", "empty", "trace")

    def __init__(self, name: str, accepts: type, empty: Any,
                 trace: Callable[[Any, Any], Any] | None = None) -> None:
        self.name = name
        self.accepts = accepts
        self.empty = empty
        self.trace = trace if trace is not None else _untraced

    def fail(self, subscriber: Any, error: Exception) -> None:
        """Signal ``error`` to a subscriber or observer whose ``subscribe_actual`` raised.

        Before ``on_subscribe``: ``on_subscribe(empty)`` then ``on_error(error)`` (§1.9).
        After it, or when signalling raises, the error goes to ``plugins.on_error``.
        """
        if has_upstream(subscriber) or _raised_inside(subscriber, error):
            plugins.on_error(error)
            return
        try:
            subscriber.on_subscribe(self.empty)
            subscriber.on_error(error)
        except Exception as e:  # the subscriber broke §2.13: nothing else can be told
            if e is not error and e.__context__ is None:
                e.__context__ = error
            plugins.on_error(e)


class _State:
    """The loops running on one thread: the innermost one's frame, stage and depth, and
    one queue shared by the nested loops (each works on the part past its ``start``)."""

    __slots__ = ("frame", "subscriber", "depth", "base", "queue")

    def __init__(self) -> None:
        self.frame: Any = None  # the innermost running loop's frame, None when none runs
        self.subscriber: Any = None  # the subscriber of the stage that loop subscribes now
        #: the stages between that stage and the first subscription on the thread (nested
        #: subscriptions included): the signals of the chain nest that deep
        self.depth = 0
        self.base = -1  # the stack below the outermost loop, measured when first needed
        self.queue: list[tuple[Any, Any, Kind, int]] = []


_local = threading.local()


def _thread_state() -> _State:
    try:
        return _local.state  # type: ignore[no-any-return]  # threading.local attributes are Any
    except AttributeError:
        state = _local.state = _State()
        return state


def run(publisher: Any, subscriber: Any, kind: Kind) -> None:
    """Subscribe ``subscriber`` (checked and wrapped already) to ``publisher`` in a loop.

    Applies the subscribe hook of ``kind``, calls ``publisher.subscribe_actual``, then
    makes every subscription that :func:`subscribe_tail` queued meanwhile, in order.
    """
    try:
        state: _State = _local.state
    except AttributeError:
        state = _thread_state()
    outer_frame, outer_sub, depth = state.frame, state.subscriber, state.depth
    outer_depth = depth
    if outer_frame is None:
        depth = 0
        state.base = -1
    else:  # subscribed from inside another subscription: its stages count too
        depth += 1
    queue = state.queue
    start = next_entry = len(queue)
    state.frame = sys._getframe()
    try:
        pub, sub = publisher, subscriber
        while True:
            state.subscriber = sub
            state.depth = depth
            try:
                if depth > HEADROOM_FROM:
                    _headroom(state, depth)
                if _plugin_flags.hooks_active:
                    sub = plugins.on_subscribe(kind.name, pub, sub)
                    if _plugin_flags.track_assembly:
                        sub = kind.trace(pub, sub)
                pub.subscribe_actual(sub)
            except Exception as e:  # §1.9: subscribe returns normally, the error is signalled
                kind.fail(sub, e)
            if next_entry == len(queue):
                return
            pub, sub, kind, depth = queue[next_entry]
            next_entry += 1
    finally:
        if start != len(queue):
            del queue[start:]
        state.frame, state.subscriber, state.depth = outer_frame, outer_sub, outer_depth


def subscribe_tail(source: Any, subscriber: Any) -> None:
    """``source.subscribe(subscriber)`` as the last step of a ``subscribe_actual``.

    Queued on the running loop when called directly from the body of the
    ``subscribe_actual`` it runs (no frame per stage); subscribed at once anywhere
    else. ``source`` may be any Publisher (a foreign one is always called directly).
    """
    kind = getattr(source, "_loop_kind", None)
    if kind is None:
        source.subscribe(subscriber)
        return
    try:
        state: _State = _local.state
    except AttributeError:
        state = _thread_state()
    frame = state.frame
    if frame is None or sys._getframe(1).f_back is not frame:
        source._subscribe(subscriber)
        return
    if not isinstance(subscriber, kind.accepts):
        subscriber = source._prepare_subscriber(subscriber)
    depth = state.depth
    if subscriber is not state.subscriber:
        depth += 1
    state.queue.append((source, subscriber, kind, depth))


def _headroom(state: _State, depth: int) -> None:
    """Raise the recursion limit for a chain of ``depth`` stages; RecursionError if too deep."""
    if depth > MAX_STAGES:
        raise RecursionError(
            f"the chain has more than {MAX_STAGES} stages: its signals would go deeper than "
            "Python's stack allows; shorten the chain (e.g. concat_array/merge_array instead of "
            "thousands of concat_with/merge_with, or a loop instead of nested operators)")
    if state.base < 0:  # the stack below the outermost loop, measured once
        n, f = 0, state.frame
        while f is not None:
            n += 1
            f = f.f_back
        state.base = n
    needed = state.base + FRAMES_PER_STAGE * depth + _MARGIN
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


_SIGNALS = frozenset(("on_subscribe", "on_next", "on_error", "on_complete", "on_success"))


def _raised_inside(subscriber: Any, error: BaseException) -> bool:
    """Whether ``error`` came out of one of ``subscriber``'s own signal methods (then it
    had ``on_subscribe`` already: e.g. an ``on_next`` that raised, breaking §2.13)."""
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name in _SIGNALS and frame.f_locals.get("self") is subscriber:
            return True
        tb = tb.tb_next
    return False


def has_upstream(subscriber: Any) -> bool:
    """Whether ``subscriber`` has received ``on_subscribe``, as far as can be told.

    The library's subscribers and observers keep their upstream in ``upstream`` (or
    ``_upstream``): ``None`` until ``on_subscribe``, a plain value or an
    ``AtomicReference``; ``None``/``UNSUBSCRIBED`` or no such field: not subscribed.
    """
    for name in ("upstream", "_upstream"):
        u = getattr(subscriber, name, _MISSING)
        if u is _MISSING:
            continue
        if isinstance(u, AtomicReference):
            u = u.get()
        # UNSUBSCRIBED: the typed placeholder of rxpy2.operator_kit (imported here: that
        # package imports this module)
        return u is not None and u is not UNSUBSCRIBED
    return False
