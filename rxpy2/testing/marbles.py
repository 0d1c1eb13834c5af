"""Marble testing on virtual time: ``cold``/``hot`` sources and ``expect_*`` checks.

A :class:`MarbleScheduler` is a :class:`~rxpy2.schedulers.TestScheduler` whose clock
is counted in *frames* (one frame is 1 ms of virtual time unless told otherwise:
``MarbleScheduler(frame=...)`` in seconds). Frame ``k`` is virtual time ``k * frame``.

Marble syntax (spaces are ignored; every other character takes one frame):

* ``-``: one frame of time;
* any other character that is not special: an item, ``values[char]`` (the character
  itself when no ``values`` is given);
* ``|``: completion; ``#``: the error (``error=``, default ``Exception("error")``);
* ``(ab)``: the items (and at most one terminal, last) of the group in one frame; the
  whole group takes one frame (unlike RxJS, where each of its characters counts), so
  the marble of a mismatch message is exact: ``"-(ab)-|"`` completes at frame 3;
* ``^``: in :meth:`MarbleScheduler.hot`, the subscription point (frame 0);
* ``!``: in subscription marbles only, the frame a subscription ended.

A bad marble string raises ``ValueError`` saying what and where. Frames of
``expect_flowable`` count from its subscription; those of ``subscriptions`` and
``expect_subscriptions`` are the scheduler's (``frame_now()``).

``cold(...)`` starts its timeline at each subscription and honours backpressure: an item
due while its subscriber has no demand is held and delivered (in order) at the frame the
subscriber requests it; a terminal signal waits behind the held items. ``hot(...)`` is
backed by a :class:`~rxpy2.processors.PublishProcessor`: the timeline is shared and runs
from the frame ``hot()`` was called at (where ``^`` is; what lies before ``^`` is emitted
at once, to whoever is subscribed); a subscriber without demand when an item arrives gets
``MissingBackpressureException``, as from the processor.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar
from typing import overload

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.drain import Drain
from rxpy2._internal.helpers.demand import produced
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.flowable import Flowable
from rxpy2.processors.publish_processor import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.test_scheduler import TestScheduler

if TYPE_CHECKING:
    from rxpy2.completable import Completable
    from rxpy2.maybe import Maybe
    from rxpy2.single import Single

__all__ = ["ColdFlowable", "HotFlowable", "MarbleScheduler", "parse_marble",
           "parse_subscription"]

T = TypeVar("T")

#: A signal of a timeline: ``("N", item)``, ``("E", error)`` or ``("C", None)``.
Signal = tuple[str, Any]
#: A timeline: ``(frame, signal)`` in order.
Timeline = list[tuple[int, Signal]]

_SPECIAL = "-|#^!() "


def _bad(marble: str, pos: int, why: str) -> ValueError:
    return ValueError(f"bad marble {marble!r} at index {pos}: {why}")


def parse_marble(marble: str, values: Mapping[str, Any] | None = None,
                 error: BaseException | None = None, *, hot: bool = False) -> Timeline:
    """The timeline a marble describes: ``[(frame, ("N", item) | ("E", error) | ("C", None))]``.

    Frames count from the start of the string, or from ``^`` when ``hot`` (what lies
    before it gets negative frames)."""
    if not isinstance(marble, str):
        raise TypeError(f"a marble is a str, not {type(marble).__name__}")
    err = Exception("error") if error is None else error
    chars = [(i, c) for i, c in enumerate(marble) if c != " "]
    origin: int | None = None  # the frame of '^'
    out: Timeline = []
    group = False  # inside ( )
    ended: int | None = None  # the index of the terminal seen
    f = 0  # the frame of the next character
    for i, c in chars:
        if c == "^":
            if not hot:
                raise _bad(marble, i, "'^' only marks a hot source's subscription")
            if origin is not None:
                raise _bad(marble, i, "more than one '^'")
            origin = f
        if c == "!":
            raise _bad(marble, i, "'!' belongs in subscription marbles")
        if c in "-^":
            if group:
                raise _bad(marble, i, f"{c!r} inside a group")
            f += 1
            continue
        if c == "(":
            if group:
                raise _bad(marble, i, "nested '('")
            group = True
            continue
        if c == ")":
            if not group:
                raise _bad(marble, i, "')' without '('")
            if not out or out[-1][0] != f:
                raise _bad(marble, i, "empty group")
            group = False
            f += 1
            continue
        if ended is not None:
            raise _bad(marble, i, f"{c!r} after the terminal signal at index {ended}")
        if c == "|":
            out.append((f, ("C", None)))
            ended = i
        elif c == "#":
            out.append((f, ("E", err)))
            ended = i
        elif values is None:
            out.append((f, ("N", c)))
        elif c in values:
            out.append((f, ("N", values[c])))
        else:
            raise _bad(marble, i, f"no value for {c!r} in values")
        if not group:
            f += 1
    if group:
        raise _bad(marble, len(marble), "unclosed '('")
    if origin:
        return [(f - origin, sig) for f, sig in out]
    return out


def parse_subscription(marble: str) -> tuple[int, int | None]:
    """``(subscribe frame, end frame or None)`` of a subscription marble such as ``"--^--!"``
    (``(^!)`` subscribes and ends in one frame)."""
    start: int | None = None
    end: int | None = None
    group = False
    frame = 0
    for i, c in enumerate(marble):
        if c == " ":
            continue
        if c == "^":
            if start is not None:
                raise _bad(marble, i, "more than one '^'")
            start = frame
        elif c == "!":
            if start is None:
                raise _bad(marble, i, "'!' before '^'")
            if end is not None:
                raise _bad(marble, i, "more than one '!'")
            end = frame
        elif c == "(":
            if group:
                raise _bad(marble, i, "nested '('")
            group = True
            continue
        elif c == ")":
            if not group:
                raise _bad(marble, i, "')' without '('")
            group = False
        elif c != "-" or group:
            raise _bad(marble, i, f"{c!r} in a subscription marble (only - ^ ! ( ))"
                       if c != "-" else "'-' inside a group")
        if not group:
            frame += 1
    if group:
        raise _bad(marble, len(marble), "unclosed '('")
    if start is None:
        raise ValueError(f"bad subscription marble {marble!r}: no '^'")
    return start, end


class _Recorder:
    """The subscriptions of a marble source: ``[subscribe frame, end frame or None]``."""

    def __init__(self) -> None:
        self.log: list[list[int | None]] = []

    def start(self, frame: int) -> list[int | None]:
        entry: list[int | None] = [frame, None]
        self.log.append(entry)
        return entry


class ColdFlowable(Flowable[T]):
    """A cold marble source: each subscriber gets the timeline from its subscription on.
    :attr:`subscriptions` lists ``(subscribe frame, end frame or None)``; a subscription
    ends when it is cancelled or its terminal signal is delivered."""

    def __init__(self, scheduler: MarbleScheduler, timeline: Timeline) -> None:
        self._scheduler = scheduler
        self._timeline = timeline
        self._recorder = _Recorder()

    @property
    def subscriptions(self) -> list[tuple[int, int | None]]:
        """Each subscription so far, in order, as ``(subscribe frame, end frame)``.

        The end frame is that of the cancel or of the delivery of the terminal signal; None while
        the subscription lasts. :meth:`MarbleScheduler.expect_subscriptions` compares it with
        subscription marbles such as ``"^---!"``.
        """
        return [(s, e) for s, e in self._recorder.log if s is not None]

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        """Record the subscription and schedule the whole timeline for ``subscriber``, from the current frame on; items go out under its demand."""
        s = self._scheduler
        sub = _ColdSubscription(subscriber, self._recorder.start(s.frame_now()), s)
        subscriber.on_subscribe(sub)
        frames: dict[int, list[Signal]] = {}
        for f, sig in self._timeline:
            frames.setdefault(f, []).append(sig)
        for f, sigs in frames.items():
            if f == 0:
                sub.arrive(sigs)
            else:
                sub.worker.schedule(partial(sub.arrive, sigs), f * s.frame)


class _ColdSubscription(DrainSubscriptionMixin, Subscription):
    """One subscription's timeline: signals arrive as virtual time reaches them and go
    out under demand (the kit's demand arithmetic and the one drain)."""

    def __init__(self, downstream: Subscriber[Any], entry: list[int | None],
                 scheduler: MarbleScheduler) -> None:
        self.downstream = downstream
        self.entry = entry
        self.scheduler = scheduler
        self.worker = scheduler.create_worker()
        self.queue: SpscLinkedArrayQueue[Signal] = SpscLinkedArrayQueue()  # the worker offers
        self.requested = AtomicLong()
        self.gate = Drain()
        self.done = False  # cancelled or terminated

    def arrive(self, signals: list[Signal]) -> None:
        for signal in signals:
            self.queue.offer(signal)
        self.drain()

    def cancel(self) -> None:
        if not self.done:
            self.done = True
            self._end()

    def _end(self) -> None:
        if self.entry[1] is None:
            self.entry[1] = self.scheduler.frame_now()
        self.worker.dispose()

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        a = self.downstream
        while True:
            r = self.requested.get()
            e = 0
            while not self.done:
                signal = q.peek()
                if signal is None:
                    break
                kind, value = signal
                if kind == "N":
                    if e == r:
                        break
                    q.poll()
                    e += 1
                    a.on_next(value)
                    continue
                q.poll()
                self.done = True
                self._end()
                if kind == "C":
                    a.on_complete()
                else:
                    a.on_error(value)
            if e and r != LONG_MAX:
                produced(self.requested, e)
            if not gate.leave():
                return


class HotFlowable(Flowable[T]):
    """A hot marble source over a :class:`~rxpy2.processors.PublishProcessor`
    (:attr:`processor`); :attr:`subscriptions` as for :class:`ColdFlowable`."""

    def __init__(self, scheduler: MarbleScheduler, timeline: Timeline) -> None:
        self._scheduler = scheduler
        self._recorder = _Recorder()
        self.processor: PublishProcessor[T] = PublishProcessor()
        for f, sig in timeline:
            if f < 0:
                self._emit(sig)
            else:
                scheduler.schedule_direct(partial(self._emit, sig), f * scheduler.frame)

    @property
    def subscriptions(self) -> list[tuple[int, int | None]]:
        """Each subscription so far, in order, as ``(subscribe frame, end frame)``.

        The end frame is that of the cancel or of the terminal signal; None while the subscription
        lasts (see :meth:`MarbleScheduler.expect_subscriptions`).
        """
        return [(s, e) for s, e in self._recorder.log if s is not None]

    def _emit(self, sig: Signal) -> None:
        kind, value = sig
        if kind == "N":
            self.processor.on_next(value)
        elif kind == "C":
            self.processor.on_complete()
        else:
            self.processor.on_error(value)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        """Record the subscription and subscribe ``subscriber`` to the processor: it gets what the timeline emits from now on."""
        entry = self._recorder.start(self._scheduler.frame_now())
        self.processor.subscribe(_HotRelay(subscriber, entry, self._scheduler))


class _HotRelay(Subscriber[Any], Subscription):
    def __init__(self, downstream: Subscriber[Any], entry: list[int | None],
                 scheduler: MarbleScheduler) -> None:
        self.downstream = downstream
        self.entry = entry
        self.scheduler = scheduler
        self.upstream: Subscription | None = None

    def _end(self) -> None:
        if self.entry[1] is None:
            self.entry[1] = self.scheduler.frame_now()

    def on_subscribe(self, subscription: Subscription) -> None:
        self.upstream = subscription
        self.downstream.on_subscribe(self)

    def on_next(self, item: Any) -> None:
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self._end()
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self._end()
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        if self.upstream is not None:
            self.upstream.request(n)

    def cancel(self) -> None:
        self._end()
        if self.upstream is not None:
            self.upstream.cancel()


class _Recording(Subscriber[Any]):
    def __init__(self, scheduler: MarbleScheduler) -> None:
        self.scheduler = scheduler
        self.timeline: Timeline = []
        self.upstream: Subscription | None = None

    def on_subscribe(self, subscription: Subscription) -> None:
        self.upstream = subscription
        subscription.request(LONG_MAX)

    def on_next(self, item: Any) -> None:
        self.timeline.append((self.scheduler.frame_now(), ("N", item)))

    def on_error(self, error: BaseException) -> None:
        self.timeline.append((self.scheduler.frame_now(), ("E", error)))

    def on_complete(self) -> None:
        self.timeline.append((self.scheduler.frame_now(), ("C", None)))


def _same_error(expected: BaseException | type[BaseException] | None,
                actual: BaseException) -> bool:
    if expected is None:
        return True
    if isinstance(expected, type):
        return isinstance(actual, expected)
    return type(actual) is type(expected) and actual.args == expected.args


def _key(value: Any, values: Mapping[str, Any] | None) -> str:
    if values is not None:
        for k, v in values.items():
            if v is value or v == value:
                return k
    if values is None and isinstance(value, str) and len(value) == 1 \
            and value not in _SPECIAL:
        return value
    return f"<{value!r}>"


def render(timeline: Timeline, values: Mapping[str, Any] | None = None) -> str:
    """A marble string for a timeline (a group for signals sharing a frame; an item
    with no one-character name shows as ``<repr>``, still one frame)."""
    out: list[str] = []
    frames: dict[int, list[Signal]] = {}
    for f, sig in timeline:
        frames.setdefault(f, []).append(sig)
    pos = 0  # the frame the next character stands for
    for f in sorted(frames):
        out.append("-" * max(f - pos, 0))
        pos = max(f, pos) + 1
        texts = ["|" if k == "C" else "#" if k == "E" else _key(v, values)
                 for k, v in frames[f]]
        out.append(texts[0] if len(texts) == 1 else "(" + "".join(texts) + ")")
    return "".join(out)


def _describe(timeline: Timeline) -> str:
    return "[" + ", ".join(f"{f}: {'complete' if k == 'C' else ('error ' if k == 'E' else '')}"
                           f"{'' if k == 'C' else repr(v)}" for f, (k, v) in timeline) + "]"


class MarbleScheduler(TestScheduler):
    """A :class:`~rxpy2.schedulers.TestScheduler` counting in frames of ``frame``
    seconds (1 ms by default) that builds marble sources and checks marble timelines
    (see the module)."""

    __test__ = False

    def __init__(self, frame: float = 0.001) -> None:
        super().__init__()
        if not frame > 0.0:
            raise ValueError(f"frame must be positive: {frame}")
        self.frame: float = float(frame)

    def frames(self, n: float) -> float:
        """``n`` frames in seconds: ``delay(s.frames(3), scheduler=s)``."""
        return n * self.frame

    def frame_now(self) -> int:
        """The current frame (the virtual time in frames, rounded)."""
        return round(self.now() / self.frame)

    @overload
    def cold(self, marble: str, values: None = None,
             error: BaseException | None = None) -> ColdFlowable[str]: ...

    @overload
    def cold(self, marble: str, values: Mapping[str, T],
             error: BaseException | None = None) -> ColdFlowable[T]: ...

    def cold(self, marble: str, values: Mapping[str, Any] | None = None,
             error: BaseException | None = None) -> ColdFlowable[Any]:
        """A cold source playing ``marble`` from each subscription (frame of subscribing
        = the marble's frame 0); it honours backpressure (see the module)."""
        return ColdFlowable(self, parse_marble(marble, values, error))

    @overload
    def hot(self, marble: str, values: None = None,
            error: BaseException | None = None) -> HotFlowable[str]: ...

    @overload
    def hot(self, marble: str, values: Mapping[str, T],
            error: BaseException | None = None) -> HotFlowable[T]: ...

    def hot(self, marble: str, values: Mapping[str, Any] | None = None,
            error: BaseException | None = None) -> HotFlowable[Any]:
        """A hot source playing ``marble`` once, its ``^`` at the current frame."""
        return HotFlowable(self, parse_marble(marble, values, error, hot=True))

    def run(self, max_frames: int = 1000) -> None:
        """Advance frame by frame until no task is pending (at most ``max_frames``)."""
        start = self.frame_now()
        for k in range(1, max_frames + 1):
            if not self.pending_count():
                return
            self.advance_time_to((start + k) * self.frame)

    def record(self, source: Publisher[Any] | Single[Any] | Maybe[Any] | Completable,
               max_frames: int = 1000) -> Timeline:
        """Subscribe now with unbounded demand, :meth:`run`, cancel, and return the
        timeline seen (frames relative to the subscription)."""
        flowable: Publisher[Any] = source if isinstance(source, Publisher) \
            else source.to_flowable()
        rec = _Recording(self)
        start = self.frame_now()
        flowable.subscribe(rec)
        self.trigger_actions()
        self.run(max_frames)
        if rec.upstream is not None:
            rec.upstream.cancel()
        return [(f - start, sig) for f, sig in rec.timeline]

    def expect_flowable(self, source: Publisher[Any] | Single[Any] | Maybe[Any] | Completable,
                        marble: str, values: Mapping[str, Any] | None = None,
                        error: BaseException | type[BaseException] | None = None,
                        max_frames: int = 1000) -> None:
        """Record ``source`` (:meth:`record`) and compare with ``marble``; a Single, Maybe
        or Completable goes through ``to_flowable()``. ``#`` matches any error unless
        ``error`` is given (an exception type, or an instance: same type and args).
        Raises ``AssertionError`` showing both marbles and timelines."""
        expected = parse_marble(marble, values)
        actual = self.record(source, max_frames)
        same = len(expected) == len(actual) and all(
            ef == af and ek == ak and (
                _same_error(error, av) if ek == "E" else ek == "C" or ev == av)
            for (ef, (ek, ev)), (af, (ak, av)) in zip(expected, actual, strict=True))
        if not same:
            raise AssertionError(
                "marble mismatch\n"
                f"  expected: {render(expected, values)}\n"
                f"  actual:   {render(actual, values)}\n"
                f"  expected signals (frame: signal): {_describe(expected)}\n"
                f"  actual signals (frame: signal):   {_describe(actual)}")

    def expect_subscriptions(self, source: ColdFlowable[Any] | HotFlowable[Any],
                             *marbles: str) -> None:
        """Compare the subscriptions ``source`` has seen with ``marbles`` (one per
        subscription, in order: ``"^---!"``; no ``!`` for one still running)."""
        expected = [parse_subscription(m) for m in marbles]
        actual = source.subscriptions
        if expected != actual:
            raise AssertionError(
                "subscription mismatch\n"
                f"  expected (subscribe, end): {expected}\n"
                f"  actual (subscribe, end):   {actual}")
