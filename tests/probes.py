"""Probe sources and subscribers shared by the tests (``from probes import ...``).

Flowable side:

* :class:`ManualSource`: a source the test drives by hand (``emit``, ``complete``,
  ``error``) from any thread; it is its own Subscription and records the
  requests and cancellations that reach it, without checking demand (the tests
  check the requests instead).
* :class:`Manual`: a source that gives each subscriber a fresh
  :class:`ProbeSubscription` (``probe`` is the latest) and keeps the subscriber
  (``subscriber``) for the test to signal.
* :class:`Spy` wraps a Publisher and records the requests and cancellations
  that reach it (and hides the source's Subscription, so no fusion).
* :class:`Recorded`: ``Flowable.range`` seen through ``do_on_request``/``do_on_cancel``.
* :func:`failing`: items under demand, then an error.
* :class:`RequestOneInOnNext`: requests 1, then 1 more from inside each ``on_next``.
* :func:`boom`: a user function that raises ``ZeroDivisionError``.
* :class:`Forwarding`: a transparent stage, the base of the spies.
* :func:`rail`, :func:`assert_two_rails_joined`: race sides and checks of two rails.
* :func:`switch_between`: ``switch_map`` from a manual outer onto two manual inners.
* :class:`SyncFusedProbe`: ``0..n-1`` as a SYNC-fusable QueueSubscription that
  records the requests, fusion modes and cancellations (``poll`` may raise).

0-1 side: :class:`ProbeDisposable` and :class:`ProbeSingle`/:class:`ProbeMaybe`/
:class:`ProbeCompletable`, sources that keep their observers for the test to signal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rxpy2 import LONG_MAX
from rxpy2 import Completable
from rxpy2 import Disposable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

# ---------------------------------------------------------------------------- Flowable


class ManualSource(Flowable[Any], Subscription):
    """Its subscriber's signals come from ``emit``/``complete``/``error``; ``requests``,
    ``cancels`` and ``subscriptions`` count over all subscriptions."""

    def __init__(self) -> None:
        self.subscriber: Subscriber[Any] | None = None
        self.requests: list[int] = []
        self.cancels = 0
        self.subscriptions = 0
        self._lock = threading.Lock()

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriptions += 1
        self.subscriber = subscriber
        subscriber.on_subscribe(self)

    def request(self, n: int) -> None:
        with self._lock:
            self.requests.append(n)

    def cancel(self) -> None:
        with self._lock:
            self.cancels += 1

    @property
    def cancelled(self) -> bool:
        return self.cancels > 0

    def emit(self, *items: Any) -> None:
        for x in items:
            self.subscriber.on_next(x)  # type: ignore[union-attr]

    def complete(self) -> None:
        self.subscriber.on_complete()  # type: ignore[union-attr]

    def error(self, e: BaseException) -> None:
        self.subscriber.on_error(e)  # type: ignore[union-attr]


class ProbeSubscription(Subscription):
    """Records requests; ``cancelled`` counts the cancels."""

    def __init__(self) -> None:
        self.requests: list[int] = []
        self.cancelled = 0

    def request(self, n: int) -> None:
        self.requests.append(n)

    def cancel(self) -> None:
        self.cancelled += 1


class Manual(Flowable[Any]):
    """One :class:`ProbeSubscription` per subscription; ``subscriber``/``probe`` are the latest."""

    def __init__(self) -> None:
        self.subscribers: list[Subscriber[Any]] = []
        self.probes: list[ProbeSubscription] = []

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        p = ProbeSubscription()
        self.subscribers.append(subscriber)
        self.probes.append(p)
        subscriber.on_subscribe(p)

    @property
    def subscriptions(self) -> int:
        return len(self.subscribers)

    @property
    def subscriber(self) -> Any:
        return self.subscribers[-1] if self.subscribers else None

    @property
    def probe(self) -> ProbeSubscription:
        return self.probes[-1]


class Spy(Flowable[Any]):
    def __init__(self, source: Publisher[Any]) -> None:
        self.source = source
        self.requests: list[int] = []
        self.cancels = 0
        self.subscriptions = 0

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriptions += 1
        self.source.subscribe(_SpySubscriber(self, subscriber))


class Forwarding(FlowableSubscriber[Any]):
    """A transparent stage: keeps the upstream Subscription, hands itself to the downstream
    as its Subscription, and passes every signal on unchecked (a probe must not filter what
    it watches). Subclasses add ``request``/``cancel`` and whatever they record."""

    def __init__(self, downstream: Any) -> None:
        self.downstream = downstream
        self.upstream: Any = None

    def on_subscribe(self, s: Subscription) -> None:
        self.upstream = s
        self.downstream.on_subscribe(self)

    def on_next(self, item: Any) -> None:
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()


class _SpySubscriber(Forwarding, Subscription):
    def __init__(self, spy: Spy, downstream: Subscriber[Any]) -> None:
        super().__init__(downstream)
        self.spy = spy

    def request(self, n: int) -> None:
        self.spy.requests.append(n)
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.spy.cancels += 1
        self.upstream.cancel()  # type: ignore[union-attr]


class Recorded:
    """``Flowable.range(start, count)`` seen through do_on_request/do_on_cancel (not fuseable)."""

    def __init__(self, start: int = 1, count: int = 10) -> None:
        self.requests: list[int] = []
        self.cancels: list[int] = []
        self.flowable = Flowable.range(start, count) \
            .do_on_request(self.requests.append) \
            .do_on_cancel(lambda: self.cancels.append(1))


def failing(*items: Any, error: BaseException | None = None) -> Flowable[Any]:
    """``items`` under demand, then ``error`` (a ValueError by default) once they are out."""
    return ItemsSource(items, error if error is not None else ValueError("boom"))


class ItemsSource(Flowable[Any]):
    """``items`` under demand, then ``error`` or, when it is None, completion: the
    terminal event needs no demand, it comes as soon as the items are out. Every request
    is logged in ``requests``; a non-positive one fails the stream (§3.9). A request made
    from inside ``on_next`` joins the loop already running (no recursion)."""

    def __init__(self, items: Any, error: BaseException | None = None) -> None:
        self.items = items
        self.err = error
        self.requests: list[int] = []

    def make_error(self) -> BaseException | None:
        """The error to end a subscription with (None: complete)."""
        return self.err

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        sub = _ItemsSubscription(self, subscriber)
        subscriber.on_subscribe(sub)
        sub.drain()


class _ItemsSubscription(Subscription):
    def __init__(self, parent: ItemsSource, downstream: Subscriber[Any]) -> None:
        self.parent = parent
        self.downstream = downstream
        self.index = 0
        self.requested = 0
        self.emitting = False
        self.cancelled = False
        self.done = False

    def request(self, n: int) -> None:
        self.parent.requests.append(n)
        if self.done or self.cancelled:
            return
        if n <= 0:  # §3.9
            self.done = True
            self.downstream.on_error(ValueError(f"§3.9: request({n})"))
            return
        self.requested = min(self.requested + n, LONG_MAX)
        self.drain()

    def drain(self) -> None:
        if self.emitting:  # re-entrant request: the running loop picks it up
            return
        self.emitting = True
        try:
            items = self.parent.items
            while not self.cancelled and not self.done:
                if self.index == len(items):
                    self.done = True
                    error = self.parent.make_error()
                    if error is None:
                        self.downstream.on_complete()
                    else:
                        self.downstream.on_error(error)
                    return
                if self.requested == 0:
                    return
                if self.requested != LONG_MAX:
                    self.requested -= 1
                x = items[self.index]
                self.index += 1
                self.downstream.on_next(x)
        finally:
            self.emitting = False

    def cancel(self) -> None:
        self.cancelled = True


class RequestOneInOnNext(FlowableSubscriber[Any]):
    """Requests 1 in on_subscribe and 1 more from inside each on_next; after
    ``stop_after`` items (if given) it cancels instead."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.values: list[Any] = []
        self.errors: list[BaseException] = []
        self.completed = 0
        self.stop_after = stop_after

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        s.request(1)

    def on_next(self, item: Any) -> None:
        self.values.append(item)
        if self.stop_after is not None and len(self.values) == self.stop_after:
            self.s.cancel()
        else:
            self.s.request(1)

    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)

    def on_complete(self) -> None:
        self.completed += 1


class Script(FlowableSubscriber[Any]):
    """Requests per script (the next amount once all outstanding demand arrived); cancels
    at its ``cancel_at``-th item; logs every request and signal (the fusion differential
    tests compare the logs of a fused and an unfused run)."""

    def __init__(self, script: list[int], log: list[Any], cancel_at: int | None) -> None:
        self.script = list(script)
        self.log = log
        self.cancel_at = cancel_at
        self.items = 0
        self.outstanding = 0
        self.s: Subscription | None = None

    def _next_request(self) -> None:
        while self.script and self.outstanding == 0:
            n = self.script.pop(0)
            self.outstanding += n if n != LONG_MAX else 10**18
            self.log.append(("request", n))
            assert self.s is not None
            self.s.request(n)

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        self._next_request()

    def on_next(self, item: Any) -> None:
        self.items += 1
        self.log.append(("item", tuple(item) if isinstance(item, list) else item))
        self.outstanding -= 1
        if self.items == self.cancel_at:
            self.log.append(("cancel",))
            assert self.s is not None
            self.s.cancel()
            return
        self._next_request()

    def on_error(self, error: BaseException) -> None:
        self.log.append(("error", type(error).__name__, str(error)))

    def on_complete(self) -> None:
        self.log.append(("complete",))


class Boom(Exception):
    """The test error of the modules that need an exception class of their own."""


def record(source: Flowable[Any]) -> tuple[Flowable[Any], list[int], list[bool]]:
    """``source`` with the requests and cancellations that reach it recorded:
    ``(flowable, requests, cancels)``."""
    requests: list[int] = []
    cancels: list[bool] = []
    f = source.do_on_request(requests.append).do_on_cancel(lambda: cancels.append(True))
    return f, requests, cancels


def boom(*_args: Any) -> Any:
    raise ZeroDivisionError("boom")


def rail(src: ManualSource, items: Any, complete: bool = True,
         error: BaseException | None = None) -> Callable[[], None]:
    """A race side: ``src`` emits ``items``, then signals ``error`` if given, else completes
    (unless told not to)."""
    def run() -> None:
        src.emit(*items)
        if error is not None:
            src.error(error)
        elif complete:
            src.complete()
    return run


def assert_two_rails_joined(ts: Any, low: Any, high: Any) -> None:
    """``ts`` got every item of both rails (``low`` below 10, ``high`` from 10 on), each
    rail's items in their order, then the completion."""
    ts.assert_complete().assert_no_errors().assert_protocol_ok()
    values = ts.values()
    assert sorted(values) == [*low, *high]
    assert [x for x in values if x < 10] == list(low)
    assert [x for x in values if x >= 10] == list(high)


def switch_between(initial_request: int = LONG_MAX) -> tuple[ManualSource, ManualSource,
                                                             ManualSource, Any]:
    """``src.switch_map`` onto the inner ``a`` for the outer item 0, ``b`` for any other;
    ``src`` has emitted 0 (``a`` is subscribed). Returns ``(src, a, b, ts)``."""
    src = ManualSource()
    a, b = ManualSource(), ManualSource()
    ts = src.switch_map(lambda i: a if i == 0 else b).test(initial_request)
    src.emit(0)
    return src, a, b, ts


# ---------------------------------------------------------------------------- 0-1 types


class ProbeDisposable(Disposable):
    def __init__(self) -> None:
        self.disposed = 0

    def dispose(self) -> None:
        self.disposed += 1

    def is_disposed(self) -> bool:
        return self.disposed > 0


class _ObserverProbe:
    """Keeps its observers; the test signals the latest through ``success``/``complete``/``error``."""

    def __init__(self) -> None:
        self.observers: list[Any] = []
        self.d = ProbeDisposable()

    def subscribe_actual(self, observer: Any) -> None:
        self.observers.append(observer)
        observer.on_subscribe(self.d)

    def success(self, v: Any) -> None:
        self.observers[-1].on_success(v)

    def complete(self) -> None:
        self.observers[-1].on_complete()

    def error(self, e: BaseException) -> None:
        self.observers[-1].on_error(e)

    @property
    def disposed(self) -> int:
        return self.d.disposed


class ProbeSingle(_ObserverProbe, Single[Any]):
    pass


class ProbeMaybe(_ObserverProbe, Maybe[Any]):
    pass


class ProbeCompletable(_ObserverProbe, Completable):
    pass


class SyncFusedProbe(Flowable[int]):
    """0..n-1 as a SYNC-fusable QueueSubscription recording requests, fusion modes, cancels."""

    def __init__(self, n: int, fail_at: int | None = None) -> None:
        self.n = n
        self.fail_at = fail_at
        self.requests: list[int] = []
        self.modes: list[int] = []
        self.cancelled = 0

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        subscriber.on_subscribe(_SyncFusedSubscription(self))


class _SyncFusedSubscription(QueueSubscription[int]):
    def __init__(self, parent: SyncFusedProbe) -> None:
        self.parent = parent
        self.index = 0

    def request_fusion(self, mode: int) -> int:
        self.parent.modes.append(mode)
        return SYNC if mode & SYNC else 0

    def poll(self) -> int | None:
        i = self.index
        if i == self.parent.n:
            return None
        if i == self.parent.fail_at:
            raise ValueError(f"poll failed at {i}")
        self.index = i + 1
        return i

    def is_empty(self) -> bool:
        return self.index == self.parent.n

    def clear(self) -> None:
        self.index = self.parent.n

    def request(self, n: int) -> None:  # the unfused path: only recorded (enough for tests)
        self.parent.requests.append(n)

    def cancel(self) -> None:
        self.parent.cancelled += 1


# ---------------------------------------------------------------------------- fusion (issue 6)
#
# * :class:`FusionSpy`: transparent stages (``spy.stage(name)`` for ``compose``, or
#   ``spy.wrap(flowable, name)``) that record, per named position, the fusion mode
#   asked and granted, and the traffic (requests, cancels, items taken) in a log.
# * :class:`FusionConsumer`: a consumer that asks for a fusion mode and then follows
#   the demand the test gives it; fused, it polls only as many items as it has demand for.
# * :class:`RecordingIterable`: an iterable that logs each ``next()`` on its iterators.

from rxpy2._internal.fuseable import ANY  # noqa: E402
from rxpy2._internal.fuseable import ASYNC  # noqa: E402
from rxpy2._internal.fuseable import BOUNDARY  # noqa: E402
from rxpy2._internal.fuseable import NONE  # noqa: E402
from rxpy2._internal.fuseable import ConditionalSubscriber  # noqa: E402
from rxpy2.reactivestreams import LONG_MAX  # noqa: E402


def mode_name(mode: int | None) -> str:
    """``SYNC``, ``ANY|BOUNDARY``, ...; ``None`` (no ``request_fusion`` call) is ``-``."""
    if mode is None:
        return "-"
    base = {NONE: "NONE", SYNC: "SYNC", ASYNC: "ASYNC", ANY: "ANY"}[mode & ANY]
    return base + "|BOUNDARY" if mode & BOUNDARY else base


class SpyRecord:
    """One subscription through a spy position."""

    def __init__(self) -> None:
        self.upstream_queue = False  # the upstream's Subscription is a QueueSubscription
        self.conditional = False  # the downstream is a ConditionalSubscriber
        self.asked: int | None = None  # None: request_fusion was never called
        self.granted: int | None = None
        self.requests: list[int] = []
        self.cancels = 0
        self.taken: list[Any] = []  # on_next/try_on_next items (unfused) or polled items
        self.try_on_next_used = False
        self.terminal: Any = None  # "complete" or the error

    def describe(self) -> str:
        qs = "QueueSubscription" if self.upstream_queue else "plain Subscription"
        cond = ", conditional" if self.conditional else ""
        return (f"upstream {qs}{cond}; asked {mode_name(self.asked)}, "
                f"granted {mode_name(self.granted)}; requests {self.requests}, "
                f"taken {len(self.taken)}, cancels {self.cancels}")


class FusionSpy:
    """Transparent probe stages that record the fusion negotiated at named positions.

    The stage passes every signal and call through unchanged: its Subscription is a
    QueueSubscription exactly when its upstream's is one, it is a
    ConditionalSubscriber exactly when its downstream is one, and ``request_fusion``
    is forwarded with the mode as asked (BOUNDARY included) and answered with the
    upstream's answer, so inserting it changes no negotiation. (It does hide the
    class of the Flowable it wraps: assembly-time fusion does not cross it.)

    ``log`` (shared with other probes if given) receives ``(name, "request", n)``,
    ``(name, "cancel")`` and ``(name, "take", item)`` — an item leaving the upstream
    through ``on_next``/``try_on_next`` or a ``poll`` (ASYNC "ready" signals are not
    items). ``records[name]`` keeps one :class:`SpyRecord` per subscription.
    """

    def __init__(self, log: list[Any] | None = None) -> None:
        self.log: list[Any] = log if log is not None else []
        self.records: dict[str, list[SpyRecord]] = {}

    def wrap(self, source: Publisher[Any], name: str) -> Flowable[Any]:
        if name in self.records:
            raise ValueError(f"spy position {name!r} used twice")
        self.records[name] = []
        return _SpyFlowable(source, self, name)

    def stage(self, name: str) -> Any:
        """For ``compose``: ``flowable.compose(spy.stage("after map"))``."""
        return lambda f: self.wrap(f, name)

    def record(self, name: str) -> SpyRecord:
        """The latest subscription at ``name`` (AssertionError if there was none)."""
        recs = self.records[name]
        if not recs:
            raise AssertionError(f"nothing subscribed at {name!r}\n{self.describe()}")
        return recs[-1]

    def granted(self, name: str) -> int | None:
        return self.record(name).granted

    def asked(self, name: str) -> int | None:
        return self.record(name).asked

    def describe(self) -> str:
        """The negotiation, one line per position and subscription, upstream first."""
        lines = ["fusion negotiated (position: upstream -> asked -> granted):"]
        for name, recs in self.records.items():
            if not recs:
                lines.append(f"  [{name}] never subscribed")
            for i, r in enumerate(recs):
                n = f"#{i + 1}" if len(recs) > 1 else ""
                lines.append(f"  [{name}]{n} {r.describe()}")
        return "\n".join(lines)

    def assert_negotiated(self, expected: dict[str, tuple[int | None, int | None]]) -> None:
        """Each position's (asked, granted) of its latest subscription, as ``expected``."""
        bad = []
        for name, (asked, granted) in expected.items():
            r = self.record(name)
            if (r.asked, r.granted) != (asked, granted):
                bad.append(f"  [{name}] expected asked {mode_name(asked)}, granted "
                           f"{mode_name(granted)}; was asked {mode_name(r.asked)}, "
                           f"granted {mode_name(r.granted)}")
        if bad:
            raise AssertionError("fusion negotiation differs:\n" + "\n".join(bad) + "\n"
                                 + self.describe())


class _SpyFlowable(Flowable[Any]):
    def __init__(self, source: Publisher[Any], spy: FusionSpy, name: str) -> None:
        self.source = source
        self.spy = spy
        self.name = name

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        rec = SpyRecord()
        self.spy.records[self.name].append(rec)
        if isinstance(subscriber, ConditionalSubscriber):
            rec.conditional = True
            self.source.subscribe(_SpyConditionalSubscriber(subscriber, self.spy.log, self.name, rec))
        else:
            self.source.subscribe(_FusionSpySubscriber(subscriber, self.spy.log, self.name, rec))


class _FusionSpySubscriber(FlowableSubscriber[Any]):
    def __init__(self, downstream: Any, log: list[Any], name: str, rec: SpyRecord) -> None:
        self.downstream = downstream
        self.log = log
        self.name = name
        self.rec = rec
        self.upstream: Any = None

    def on_subscribe(self, s: Subscription) -> None:
        self.upstream = s
        if isinstance(s, QueueSubscription):
            self.rec.upstream_queue = True
            self.downstream.on_subscribe(_SpyQueueSubscription(self))
        else:
            self.downstream.on_subscribe(_SpySubscription(self))

    def on_next(self, item: Any) -> None:
        if self.rec.granted != ASYNC:  # ASYNC: the item is a "ready" signal
            self.rec.taken.append(item)
            self.log.append((self.name, "take", item))
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.rec.terminal = error
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.rec.terminal = "complete"
        self.downstream.on_complete()


class _SpyConditionalSubscriber(_FusionSpySubscriber, ConditionalSubscriber[Any]):
    def try_on_next(self, item: Any) -> bool:
        self.rec.try_on_next_used = True
        self.rec.taken.append(item)
        self.log.append((self.name, "take", item))
        return bool(self.downstream.try_on_next(item))


class _SpySubscription(Subscription):
    def __init__(self, parent: _FusionSpySubscriber) -> None:
        self.parent = parent

    def request(self, n: int) -> None:
        p = self.parent
        p.rec.requests.append(n)
        p.log.append((p.name, "request", n))
        p.upstream.request(n)

    def cancel(self) -> None:
        p = self.parent
        p.rec.cancels += 1
        p.log.append((p.name, "cancel"))
        p.upstream.cancel()


class _SpyQueueSubscription(_SpySubscription, QueueSubscription[Any]):
    def request_fusion(self, mode: int) -> int:
        p = self.parent
        p.rec.asked = mode
        m = p.upstream.request_fusion(mode)
        p.rec.granted = m
        return int(m)

    def poll(self) -> Any:
        p = self.parent
        v = p.upstream.poll()
        if v is not None:
            p.rec.taken.append(v)
            p.log.append((p.name, "take", v))
        return v

    def is_empty(self) -> bool:
        return bool(self.parent.upstream.is_empty())

    def clear(self) -> None:
        self.parent.upstream.clear()


class FusionConsumer(FlowableSubscriber[Any]):
    """Asks its upstream for fusion ``mode`` (NONE: does not ask), then consumes under the
    demand the test gives it with :meth:`request`; :meth:`cancel` cancels.

    * not fused: ``request(n)`` goes upstream; items arrive by ``on_next``;
    * SYNC: nothing is requested upstream; ``request(n)`` adds demand and the consumer
      polls while it has demand; when the demand is used up it asks ``is_empty()``
      so that completion comes with the last item (observe_on's SYNC loop);
    * ASYNC: ``request(n)`` goes upstream too; ``on_next`` means "poll"; it polls
      while it has demand; the terminal signal is delivered once the queue is empty.

    A failing ``poll`` (or ``is_empty``) cancels the upstream, then the error goes in
    the record. ``on_item(consumer, count)`` runs after each item (to request or
    cancel from inside ``on_next``). ``log`` receives ``(name, "demand", n)``,
    ``(name, "cancel")``, ``(name, "next", v)``, ``(name, "error", type, message)``
    and ``(name, "complete")``; ``signals`` is the same without demand and cancel.
    """

    def __init__(self, mode: int = NONE, log: list[Any] | None = None,
                 on_item: Any = None, name: str = "consumer") -> None:
        self.mode = mode
        self.log: list[Any] = log if log is not None else []
        self.on_item = on_item
        self.name = name
        self.granted: int | None = None  # None: the upstream was no QueueSubscription
        self.upstream: Any = None
        self.signals: list[Any] = []
        self.fused = NONE
        self.requested = 0
        self.emitted = 0
        self.wip = 0
        self.cancelled = False
        self.done = False  # ASYNC: the upstream's terminal signal arrived
        self.error: BaseException | None = None
        self.terminated = False  # the terminal signal is in the record

    @property
    def values(self) -> list[Any]:
        return [s[1] for s in self.signals if s[0] == "next"]

    # ---------------------------------------------------------------- Subscriber
    def on_subscribe(self, s: Subscription) -> None:
        self.upstream = s
        if self.mode != NONE and isinstance(s, QueueSubscription):
            m = s.request_fusion(self.mode)
            self.granted = m
            if m == SYNC or m == ASYNC:
                self.fused = m

    def on_next(self, item: Any) -> None:
        if self.fused == ASYNC:
            self._drain()
        else:
            self._emit(item)

    def on_error(self, error: BaseException) -> None:
        if self.fused == ASYNC:
            self.error = error
            self.done = True
            self._drain()
        else:
            self._terminate(error)

    def on_complete(self) -> None:
        if self.fused == ASYNC:
            self.done = True
            self._drain()
        else:
            self._terminate(None)

    # ---------------------------------------------------------------- the test's side
    def request(self, n: int) -> None:
        self.log.append((self.name, "demand", n))
        if self.fused == NONE:
            self.upstream.request(n)
            return
        r = self.requested + n
        self.requested = LONG_MAX if r >= LONG_MAX else r
        if self.fused == ASYNC:
            self.upstream.request(n)
        self._drain()

    def cancel(self) -> None:
        self.log.append((self.name, "cancel"))
        if not self.cancelled:
            self.cancelled = True
            self.upstream.cancel()
            if self.fused != NONE and self.wip == 0:
                self.upstream.clear()  # a fused consumer owns the queue

    # ---------------------------------------------------------------- internals
    def _record(self, signal: tuple[Any, ...]) -> None:
        self.signals.append(signal)
        self.log.append((self.name, *signal))

    def _emit(self, v: Any) -> None:
        self._record(("next", v))
        self.emitted += 1
        if self.on_item is not None:
            self.on_item(self, self.emitted)

    def _terminate(self, error: BaseException | None) -> None:
        self.terminated = True
        if error is None:
            self._record(("complete",))
        else:
            self._record(("error", type(error).__name__, str(error)))

    def _fail(self, error: BaseException) -> None:
        self.cancelled = True
        self.upstream.cancel()
        self._terminate(error)

    def _drain(self) -> None:
        self.wip += 1
        if self.wip != 1:
            return
        missed = 1
        qs = self.upstream
        while True:
            if self._drain_once(qs):
                return
            self.wip -= missed
            missed = self.wip
            if missed == 0:
                return

    def _drain_once(self, qs: Any) -> bool:
        """One pass of the drain; True when the stream is over for this consumer."""
        if self.terminated:
            return True
        sync = self.fused == SYNC
        while self.emitted != self.requested or self.requested == LONG_MAX:
            if self.cancelled:
                qs.clear()
                return True
            d = self.done
            try:
                v = qs.poll()
            except Exception as ex:
                self._fail(ex)
                return True
            if v is None:
                if sync:
                    self._terminate(None)
                    return True
                if d:
                    self._terminate(self.error)
                    return True
                return False
            self._emit(v)
        if self.cancelled:
            qs.clear()
            return True
        d = self.done
        try:
            empty = qs.is_empty()
        except Exception as ex:
            self._fail(ex)
            return True
        if empty and (sync or d):
            self._terminate(None if sync else self.error)
            return True
        return False


class RecordingIterable:
    """Iterates ``items``; logs ``(name, "iter")`` per ``iter()`` and ``(name, "pull", v)``
    per ``next()`` (``v`` is ``"<end>"`` at the end). ``fail_at=k``: the k-th ``next()``
    (1-based) raises ``RuntimeError(f"iterator failed at {k}")``."""

    def __init__(self, items: Any, log: list[Any], name: str = "iterable",
                 fail_at: int | None = None) -> None:
        self.items = list(items)
        self.log = log
        self.name = name
        self.fail_at = fail_at
        self.pulls = 0

    def __iter__(self) -> Any:
        self.log.append((self.name, "iter"))
        return _RecordingIterator(self)


class _RecordingIterator:
    def __init__(self, parent: RecordingIterable) -> None:
        self.parent = parent
        self.index = 0

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> Any:
        p = self.parent
        p.pulls += 1
        if p.pulls == p.fail_at:
            p.log.append((p.name, "pull", "<raises>"))
            raise RuntimeError(f"iterator failed at {p.pulls}")
        i = self.index
        if i == len(p.items):
            p.log.append((p.name, "pull", "<end>"))
            raise StopIteration
        self.index = i + 1
        v = p.items[i]
        p.log.append((p.name, "pull", v))
        return v
