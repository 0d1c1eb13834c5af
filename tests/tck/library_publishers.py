"""Every Publisher of the library, each on a conforming source: the registry the TCK runs on.

One :class:`Case` per source, per operator (on a synchronous and on an
asynchronous source), and per Single/Maybe/Completable source and operator
(through ``to_flowable()``). ``tests/tck/test_library_publishers.py`` turns each
case into a ``PublisherVerification`` that pytest collects (``TestTck_<name>``);
``tools/conformance`` runs them all and writes ``docs/conformance.md``.

A new operator is one line in :data:`REGISTRY`::

    op("map", lambda f: f.map(inc)),                        # range(0, n).map(inc), and _async
    op("filter", lambda f: f.filter(even), size=lambda n: 2 * n),
    op("take", lambda f, n: f.take(n), size=lambda n: n + 10),
    to_single("count", lambda f: f.count()),                # Flowable -> Single, one item
    single("single_map", lambda s: s.map(inc)),             # Single.just(7).map(inc)

The contract of a case: ``create(n)`` gives exactly ``n`` items, then
``on_complete`` (``n`` may be ``2**31 - 1``: the stream must be lazy);
``failed()`` gives a Publisher that signals ``on_subscribe`` then ``on_error``
without any demand. ``max_elements`` bounds ``n`` (the rules that need more are
skipped with the TCK's reason "required elements nr: ... is higher than
supported by given producer: ..."). ``min_elements=1`` is for a Publisher that is
never empty (a Single, an aggregate, ``start_with``, ``default_if_empty``):
where a rule asks for 0 items (the §1.9 rules, which look at ``on_subscribe``
only) it gets a one-item stream, and the one rule that needs an empty stream
(optional §1.5) is skipped with the reason. ``test_library_publishers.py``
checks this contract for every case before the TCK runs.
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from async_op_sources import DROP_OLDEST
from async_op_sources import Schedulers
from async_op_sources import asynchronous
from async_op_sources import paced_by_downstream

from rxpy2 import BackpressureStrategy
from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import FlowableSubscriber
from rxpy2 import Maybe
from rxpy2 import Notification
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2._internal.helpers import SubscriptionHelper
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck import PublisherVerification
from rxpy2.tck import TestEnvironment
from rxpy2.tck import TestException
from rxpy2.tck import not_verified

__all__ = ["CASES", "REGISTRY", "Case", "environment", "verification_class"]

#: A synchronous Publisher signals inside the call that caused it, so "nothing more arrives"
#: needs only a short look; the timeout for an expected signal is generous (it is only ever
#: waited out when a rule fails). The asynchronous cases (create's pump threads) get more.
SYNC_ENV = {"default_timeout_ms": 500, "default_no_signals_timeout_ms": 10,
            "default_poll_timeout_ms": 2}
ASYNC_ENV = {"default_timeout_ms": 2000, "default_no_signals_timeout_ms": 25,
             "default_poll_timeout_ms": 2}
#: §3.13 for an asynchronous case: the thread that holds the Subscriber lets go of it only
#: once it runs again after the cancel, and the rule's ``gc.collect()`` holds the GIL (long in
#: a big test process on a busy machine); the rule ends as soon as the Subscriber is gone.
ASYNC_GC_TIMEOUT_MS = 5000


@dataclass(frozen=True)
class Case:
    """One Publisher of the library under the TCK."""

    name: str
    create: Callable[[int], Publisher[Any]]
    max_elements: int = LONG_MAX - 1
    failed: Callable[[], Publisher[Any]] | None = None
    notes: str = ""
    min_elements: int = 0
    asynchronous: bool = False

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"case name {self.name!r} must be an identifier")
        if self.min_elements not in (0, 1):
            raise ValueError("min_elements is 0 or 1 (the rules ask for 0, 1, 3, 5, ... items)")


def environment(case: Case) -> TestEnvironment:
    """The TCK environment a case runs with."""
    return TestEnvironment(**(ASYNC_ENV if case.asynchronous else SYNC_ENV))


def verification_class(case: Case, module: str | None = None) -> type[PublisherVerification[Any]]:
    """A ``PublisherVerification`` subclass named ``TestTck_<name>`` for ``case``."""

    def create_publisher(self: Any, elements: int) -> Publisher[Any]:
        # a rule that asks for 0 items (§1.9's) gets the shortest stream the Publisher makes
        return case.create(max(elements, case.min_elements))

    def create_failed_publisher(self: Any) -> Publisher[Any] | None:
        return case.failed() if case.failed is not None else None

    def max_elements_from_publisher(self: Any) -> int:
        return case.max_elements

    def create_environment(self: Any) -> TestEnvironment:
        return environment(case)

    ns: dict[str, Any] = {
        "__doc__": case.notes or f"The TCK on the library's {case.name}.",
        "case": case,
        "create_publisher": create_publisher,
        "create_failed_publisher": create_failed_publisher,
        "max_elements_from_publisher": max_elements_from_publisher,
        "create_environment": create_environment,
        "publisher_reference_gc_timeout_ms": ASYNC_GC_TIMEOUT_MS if case.asynchronous else None,
    }
    if module is not None:
        ns["__module__"] = module
    if case.min_elements > 0:
        def optional_spec105_empty_stream_must_terminate_by_signalling_on_complete(self: Any) -> None:
            not_verified("This Publisher is never empty (it always emits an item): "
                         "it cannot make the empty stream this rule needs")

        ns["optional_spec105_empty_stream_must_terminate_by_signalling_on_complete"] = (
            optional_spec105_empty_stream_must_terminate_by_signalling_on_complete)
    return type(f"TestTck_{case.name}", (PublisherVerification,), ns)


# ---- building blocks ---------------------------------------------------------------------------


def src(n: int) -> Flowable[int]:
    """The conforming source of the operator cases: ``0 .. n-1``."""
    return Flowable.range(0, n)


def failing() -> Flowable[Any]:
    """The conforming failed source: ``on_subscribe`` then ``on_error(TestException)``."""
    return Flowable.error(TestException())


def items_then_error(n: int) -> Flowable[int]:
    """``0 .. n-1`` then ``on_error(TestException)``."""
    return src(n).concat_with(failing())


def inc(x: int) -> int:
    return x + 1


def add(a: int, b: int) -> int:
    return a + b


def even(x: int) -> bool:
    return x % 2 == 0


#: the logger of the ``log`` cases: enabled, its records dropped (the stage is in the chain)
LOG = logging.getLogger("rxpy2.tck.log")
LOG.addHandler(logging.NullHandler())
LOG.propagate = False
LOG.setLevel(logging.DEBUG)


def noop(*_args: Any) -> None:
    pass


def same(x: Any) -> Any:
    return x


def boom(*_args: Any) -> Any:
    raise TestException()


def _arity(fn: Callable[..., Any]) -> int:
    return len(inspect.signature(fn).parameters)


def op(name: str, transform: Callable[..., Publisher[Any]], *,
       size: Callable[[int], int] = same, failed: bool | Callable[[Flowable[Any]], Publisher[Any]] = True,
       sources: tuple[str, ...] = ("sync", "async"), **kw: Any) -> list[Case]:
    """An operator on a conforming source: ``transform(base(size(n)))``, or
    ``transform(base(size(n)), n)`` when ``transform`` takes two arguments.

    One case per base source: ``range`` (``name``) and an asynchronous one fed by a
    thread (``name_async``, see :func:`async_src`). The failed Publisher is
    ``transform`` (or the given ``failed`` function) over the base's failed source; ``False``:
    none (the operator recovers from errors).
    """
    apply: Callable[[Flowable[Any], int], Publisher[Any]] = (
        transform if _arity(transform) == 2 else (lambda f, _n: transform(f)))
    on_error: Callable[[Flowable[Any]], Publisher[Any]] | None = (
        failed if callable(failed) else (lambda f: apply(f, 3)) if failed else None)
    out = []
    for kind, base, base_failed in _BASES:
        if kind not in sources:
            continue
        out.append(Case(
            name if kind == "sync" else f"{name}_async",
            (lambda b: lambda n: apply(b(size(n)), n))(base),
            failed=(lambda b: lambda: on_error(b()))(base_failed) if on_error else None,  # type: ignore[misc]
            asynchronous=kind == "async", **kw))
    return out


def only_empty(name: str, make: Callable[[], Publisher[Any]], failed: Callable[[], Publisher[Any]] | None,
               what: str) -> Case:
    """A Publisher that never signals an item and never completes (``never``): the rules run
    that need no item and no completion (§1.9); the rest are skipped with the reason."""
    def create(n: int) -> Publisher[Any]:
        if n > 0:
            not_verified("A never-source signals no item (nor completion): this rule needs items")
        return make()

    return Case(name, create, max_elements=LONG_MAX, failed=failed,
                notes=f"{what}: only on_subscribe, never an item nor completion.")


def failed_only(name: str, failed: Callable[[], Publisher[Any]], what: str) -> Case:
    """A Publisher that only fails (``error``): verified as the failed Publisher (§1.4, §1.9)."""
    def create(n: int) -> Publisher[Any]:
        not_verified("An error-source makes no stream of items: it is verified as the failed "
                     "Publisher (§1.4, §1.9 rejection)")

    return Case(name, create, max_elements=LONG_MAX - 1, failed=failed,
                notes=f"{what}: verified as the failed Publisher of the rules that take one.")


def _countdown(n: int) -> Callable[[], bool]:
    """A ``repeat_until`` stop function that lets ``n`` items through (at least one)."""
    left = [n]

    def stop() -> bool:
        left[0] -= 1
        return left[0] <= 0
    return stop


def single(name: str, transform: Callable[[Single[Any]], Single[Any]], *,
           source: Callable[[], Single[Any]] = lambda: Single.just(7),
           failed: Callable[[], Single[Any]] | None = lambda: Single.error(TestException()),
           **kw: Any) -> Case:
    """A Single (source or operator) through ``to_flowable()``: exactly one item."""
    return Case(name, lambda n: transform(source()).to_flowable(), max_elements=1, min_elements=1,
                failed=(lambda: transform(failed()).to_flowable()) if failed is not None else None, **kw)


def maybe(name: str, transform: Callable[[Maybe[Any]], Maybe[Any]], *,
          source: Callable[[int], Maybe[Any]] = lambda n: Maybe.just(7) if n else Maybe.empty(),
          failed: Callable[[], Maybe[Any]] | None = lambda: Maybe.error(TestException()),
          **kw: Any) -> Case:
    """A Maybe (source or operator) through ``to_flowable()``: one item or none."""
    return Case(name, lambda n: transform(source(n)).to_flowable(), max_elements=1,
                failed=(lambda: transform(failed()).to_flowable()) if failed is not None else None, **kw)


def completable(name: str, transform: Callable[[Completable], Completable], *,
                source: Callable[[], Completable] = Completable.complete,
                failed: Callable[[], Completable] | None = lambda: Completable.error(TestException())
                ) -> Case:
    """A Completable (source or operator) through ``to_flowable()``: completion, no item."""
    return Case(name, lambda n: transform(source()).to_flowable(), max_elements=0,
                failed=(lambda: transform(failed()).to_flowable()) if failed is not None else None)


def to_single(name: str, transform: Callable[[Flowable[Any]], Single[Any]], *,
              size: int = 5) -> list[Case]:
    """A Flowable → Single operator (an aggregate) on ``size`` items, through ``to_flowable()``:
    exactly one item; on the synchronous and on the asynchronous source."""
    return [Case(name if kind == "sync" else f"{name}_async",
                 (lambda b: lambda n: transform(b(size)).to_flowable())(base),
                 max_elements=1, min_elements=1, asynchronous=kind == "async",
                 failed=(lambda bf: lambda: transform(bf()).to_flowable())(base_failed))
            for kind, base, base_failed in _BASES]


def to_maybe(name: str, transform: Callable[[Flowable[Any]], Maybe[Any]], *,
             size: Callable[[int], int] = lambda n: 5 if n else 0) -> list[Case]:
    """A Flowable → Maybe operator through ``to_flowable()``: an item for ``n == 1`` (the
    source has ``size(1)`` items), none for ``n == 0``."""
    return [Case(name if kind == "sync" else f"{name}_async",
                 (lambda b: lambda n: transform(b(size(n))).to_flowable())(base),
                 max_elements=1, asynchronous=kind == "async",
                 failed=(lambda bf: lambda: transform(bf()).to_flowable())(base_failed))
            for kind, base, base_failed in _BASES]


def halves(n: int, base: Callable[[int], Flowable[int]] | None = None) -> tuple[Flowable[int], Flowable[int]]:
    """Two sources that concatenate to ``n`` items: ``0 .. n//2 - 1`` and ``n//2 .. n-1``
    (with ``base``: ``base(n // 2)`` and ``base(n - n // 2)``)."""
    h = n // 2
    if base is not None:
        return base(h), base(n - h)
    return src(h), Flowable.range(h, n - h)


# ---- create: each BackpressureStrategy, used the way the strategy is meant ---------------------

#: A pump that sees neither demand nor cancellation for this long gives up (a leak guard for
#: a failing rule; no rule leaves a stream waiting that long).
PUMP_IDLE_LIMIT_S = 60.0
#: How far an eager pump runs ahead of the demand (a bound on the buffer of an endless stream
#: that a failing rule forgot to cancel); beyond it, it waits for demand.
EAGER_AHEAD = 4096


def _pump(emitter: Any, n: int, on_demand: bool) -> None:
    i = 0
    idle_since = time.monotonic()
    while i < n:
        if emitter.is_cancelled():
            return
        if emitter.requested() > 0 or (not on_demand and i < EAGER_AHEAD):
            emitter.on_next(i)
            i += 1
            idle_since = time.monotonic()
        else:
            if time.monotonic() - idle_since > PUMP_IDLE_LIMIT_S:
                return
            time.sleep(0.0002)
    emitter.on_complete()


def create_pumped(mode: BackpressureStrategy, on_demand: bool = True) -> Callable[[int], Flowable[int]]:
    """``Flowable.create`` fed by a thread per subscriber: on demand, it emits only while
    ``emitter.requested() > 0`` (how a source must use MISSING/ERROR/DROP/LATEST to lose
    nothing); otherwise it emits as fast as it can, regardless of demand (BUFFER's use; the
    first :data:`EAGER_AHEAD` items), until cancelled."""

    def create(n: int) -> Flowable[int]:
        def source(emitter: Any) -> None:
            threading.Thread(target=_pump, args=(emitter, n, on_demand),
                             name="tck-create-pump", daemon=True).start()

        return Flowable.create(source, mode)

    return create


def create_sync_buffer(n: int) -> Flowable[int]:
    """``Flowable.create(BUFFER)`` whose function emits everything at once, then completes."""
    def source(emitter: Any) -> None:
        for i in range(n):
            if emitter.is_cancelled():
                return
            emitter.on_next(i)
        emitter.on_complete()

    return Flowable.create(source, BackpressureStrategy.BUFFER)


def create_failed(mode: BackpressureStrategy) -> Callable[[], Flowable[Any]]:
    def failed() -> Flowable[Any]:
        return Flowable.create(lambda emitter: emitter.on_error(TestException()), mode)

    return failed


def async_src(n: int) -> Flowable[int]:
    """The asynchronous conforming source of the operator cases: ``0 .. n-1`` from a thread
    per subscriber, emitted only under demand (``Flowable.create`` with BUFFER)."""
    return create_pumped(BackpressureStrategy.BUFFER)(n)


def async_failing() -> Flowable[Any]:
    """The asynchronous source's failed form: ``on_subscribe`` then ``on_error``."""
    return create_failed(BackpressureStrategy.BUFFER)()


#: The base sources every operator runs on: (kind, source(n), failed source()).
_BASES: tuple[tuple[str, Callable[[int], Flowable[Any]], Callable[[], Flowable[Any]]], ...] = (
    ("sync", src, failing),
    ("async", async_src, async_failing),
)


def counter_generator(n: int) -> Callable[[int, Any], int]:
    """A generator function: ``0 .. n-1``, one per call, then completion."""
    def gen(state: int, emitter: Any) -> int:
        if state < n:
            emitter.on_next(state)
        else:
            emitter.on_complete()
        return state + 1

    return gen


def generate(n: int) -> Flowable[int]:
    return Flowable.generate(lambda: 0, counter_generator(n), noop)


def generate_failed() -> Flowable[Any]:
    """The generator runs only under demand; a failing initial state fails at subscribe."""
    return Flowable.generate(boom, counter_generator(3))


# ---- operators that need a stateful source, built per subscriber -------------------------------


def retry_case(n: int, predicate: Callable[[BaseException], bool] | None = None,
               base: Callable[[int], Flowable[int]] | None = None) -> Flowable[int]:
    """The first attempt emits half of the items, then fails; the retry emits the rest."""
    def per_subscriber() -> Flowable[int]:
        first, rest = halves(n, base)
        attempts = [0]

        def attempt() -> Flowable[int]:
            attempts[0] += 1
            return first.concat_with(failing()) if attempts[0] == 1 else rest

        return Flowable.defer(attempt).retry(predicate=predicate)

    return Flowable.defer(per_subscriber)


def _fail_once_then(n: int) -> Flowable[int]:
    """retry_when's case: half the items then an error, then the rest (one per subscriber)."""
    first, rest = halves(n)
    attempts = [0]

    def attempt() -> Flowable[int]:
        attempts[0] += 1
        return first.concat_with(failing()) if attempts[0] == 1 else rest
    return Flowable.defer(attempt)


def _repeat_when_case(n: int) -> Flowable[int]:
    """A one-item source subscribed ``n`` times: the handler passes ``n - 1`` completions
    and completes at the ``n``-th (``n == 0``: it completes before the first subscription)."""
    if n == 0:
        return src(1).repeat_when(lambda c: Flowable.empty())

    def per_subscriber() -> Flowable[int]:
        rounds = [0]

        def again(_signal: Any) -> bool:
            rounds[0] += 1
            return rounds[0] < n

        return src(1).repeat_when(lambda c: c.take_while(again))
    return Flowable.defer(per_subscriber)


def repeat_until_case(n: int, base: Callable[[int], Flowable[int]] = src) -> Flowable[int]:
    """A one-item source subscribed until ``n`` rounds ran (at least once: ``repeat_until``
    checks after each completion)."""
    def per_subscriber() -> Flowable[int]:
        rounds = [0]

        def stop() -> bool:
            rounds[0] += 1
            return rounds[0] >= n

        return base(1).repeat_until(stop)

    return Flowable.defer(per_subscriber)


class PairwiseSubscriber(FlowableSubscriber[Any], Subscription):
    """The ``lift`` example of docs/operator-authoring.md: ``(previous, current)`` pairs."""

    def __init__(self, downstream: Subscriber[Any]) -> None:
        self.downstream = downstream
        self.upstream: Subscription | None = None
        self.previous: Any = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: Any) -> None:
        if self.done:
            return
        prev, self.previous = self.previous, item
        if prev is None:
            assert self.upstream is not None
            self.upstream.request(1)
        else:
            self.downstream.on_next((prev, item))

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        assert self.upstream is not None
        self.upstream.request(n)

    def cancel(self) -> None:
        assert self.upstream is not None
        self.upstream.cancel()


class PlainPublisher(Publisher[Any]):
    """A Publisher that is not a Flowable (for ``from_publisher``): hands its Subscribers on."""

    def __init__(self, source: Publisher[Any]) -> None:
        self.source = source

    def subscribe(self, subscriber: Subscriber[Any]) -> None:
        self.source.subscribe(subscriber)


S = BackpressureStrategy
ERR = TestException
ASYNC = ("async",)

# ---- the registry: one line per Publisher ------------------------------------------------------


def _done_future(result: Any) -> Any:
    """A completed ``concurrent.futures.Future`` (an exception instance: a failed one)."""
    import concurrent.futures
    f: concurrent.futures.Future[Any] = concurrent.futures.Future()
    if isinstance(result, BaseException):
        f.set_exception(result)
    else:
        f.set_result(result)
    return f


REGISTRY: list[Case | list[Case]] = [
    # ---- Flowable sources
    Case("range", src, failed=failing),
    Case("just_1", lambda n: Flowable.just(7), max_elements=1, min_elements=1),
    Case("just_n", lambda n: Flowable.just(*range(n)), max_elements=10_000, min_elements=1,
         notes="just(*items) holds its items in a tuple: 2**31-1 of them do not fit in memory."),
    Case("from_array", lambda n: Flowable.from_array(range(n)), failed=failing),
    Case("from_array_list", lambda n: Flowable.from_array(list(range(n))), max_elements=10_000,
         notes="from_array of a list holds its items: 2**31-1 of them do not fit in memory."),
    Case("from_iterable", lambda n: Flowable.from_iterable(range(n)), failed=failing),
    Case("empty", lambda n: Flowable.empty(), max_elements=0),
    failed_only("error", lambda: Flowable.error(ERR()), "Flowable.error(error)"),
    failed_only("error_supplier", lambda: Flowable.error(ERR), "Flowable.error(supplier)"),
    only_empty("never", Flowable.never, None, "Flowable.never()"),
    Case("from_callable", lambda n: Flowable.from_callable(lambda: 7 if n else None), max_elements=1,
         failed=lambda: Flowable.from_callable(boom)),
    Case("defer", lambda n: Flowable.defer(lambda: src(n)), failed=lambda: Flowable.defer(boom)),
    Case("create_MISSING", create_pumped(S.MISSING), failed=create_failed(S.MISSING), asynchronous=True),
    Case("create_ERROR", create_pumped(S.ERROR), failed=create_failed(S.ERROR), asynchronous=True),
    Case("create_DROP", create_pumped(S.DROP), failed=create_failed(S.DROP), asynchronous=True),
    Case("create_LATEST", create_pumped(S.LATEST), failed=create_failed(S.LATEST), asynchronous=True),
    Case("create_BUFFER", create_pumped(S.BUFFER), failed=create_failed(S.BUFFER), asynchronous=True),
    Case("create_BUFFER_eager", create_pumped(S.BUFFER, on_demand=False), failed=create_failed(S.BUFFER),
         asynchronous=True, notes="its thread emits as fast as it can, regardless of demand."),
    Case("create_BUFFER_sync", create_sync_buffer, max_elements=10_000, failed=create_failed(S.BUFFER),
         notes="emits all its items inside subscribe into the unbounded buffer: 2**31-1 do not fit."),
    Case("generate", generate, failed=generate_failed),
    Case("concat", lambda n: Flowable.concat(halves(n)), failed=lambda: Flowable.concat([failing(), src(3)])),
    Case("concat_async", lambda n: Flowable.concat(halves(n, async_src)), asynchronous=True,
         failed=lambda: Flowable.concat([async_failing(), src(3)])),
    Case("concat_array", lambda n: Flowable.concat_array(*halves(n)),
         failed=lambda: Flowable.concat_array(failing(), src(3))),
    Case("concat_array_delay_error", lambda n: Flowable.concat_array_delay_error(*halves(n)),
         failed=lambda: Flowable.concat_array_delay_error(failing(), Flowable.empty())),
    Case("concat_with", lambda n: halves(n)[0].concat_with(halves(n)[1]),
         failed=lambda: failing().concat_with(src(3))),
    Case("start_with_item", lambda n: Flowable.range(1, n - 1).start_with(0), min_elements=1,
         notes="start_with(item) emits its item (under demand) before anything of its source, "
               "an error included: it has no failed Publisher."),
    Case("start_with_publisher", lambda n: halves(n)[1].start_with(halves(n)[0]),
         failed=lambda: src(3).start_with(failing())),
    Case("start_with_iterable", lambda n: halves(n)[1].start_with_iterable(range(n // 2)),
         failed=lambda: failing().start_with_iterable([])),
    Case("start_with_array", lambda n: Flowable.range(min(n, 2), n - min(n, 2)).start_with_array(*range(min(n, 2))),
         notes="start_with_array(items) emits its items (under demand) before anything of its "
               "source, an error included: it has no failed Publisher."),
    # ---- operators, each on range(0, size(n)) and on the asynchronous source (<name>_async)
    op("map", lambda f: f.map(inc)),
    op("filter", lambda f: f.filter(even), size=lambda n: 2 * n),
    op("scan", lambda f: f.scan(add)),
    op("scan_seed", lambda f: f.scan(add, 0), size=lambda n: n - 1, min_elements=1),
    op("scan_with", lambda f: f.scan_with(lambda: 0, add), size=lambda n: n - 1, min_elements=1),
    op("materialize", lambda f: f.materialize(), size=lambda n: n - 1, min_elements=1, failed=False,
       notes="materialize turns an error into an item: it has no failed Publisher."),
    op("dematerialize", lambda f: f.materialize().dematerialize(), failed=lambda f: f.dematerialize()),
    op("dematerialize_selector", lambda f: f.map(lambda x: (x,)).dematerialize(lambda t: Notification.create_on_next(t[0]))),
    op("hide", lambda f: f.hide()),
    op("log", lambda f: f.log(LOG)),
    op("checkpoint", lambda f: f.checkpoint("tck")),
    op("serialize", lambda f: f.serialize()),
    op("on_terminate_detach", lambda f: f.on_terminate_detach()),
    op("rebatch_requests", lambda f: f.rebatch_requests(4)),
    op("take", lambda f, n: f.take(n), size=lambda n: n + 10),
    op("limit", lambda f, n: f.limit(n), size=lambda n: n + 10),
    op("skip", lambda f: f.skip(3), size=lambda n: n + 3),
    op("take_last", lambda f, n: f.take_last(n), size=lambda n: n + 3, max_elements=10_000,
       notes="take_last(n) keeps n items and emits them after upstream completed: "
             "2**31-1 items neither fit in memory nor finish."),
    op("take_last_one", lambda f: f.take_last(1), size=lambda n: 5 if n else 0, max_elements=1),
    op("take_last_zero", lambda f: f.take_last(0), size=lambda n: 5, max_elements=0),
    op("skip_last", lambda f: f.skip_last(3), size=lambda n: n + 3),
    op("take_last_time", lambda f: f.take_last_time(60.0), max_elements=10_000,
       notes="take_last_time keeps the items of its window and emits them after upstream "
             "completed: 2**31-1 items neither fit in memory nor finish."),
    op("skip_last_time", lambda f: f.skip_last_time(0.0), max_elements=10_000,
       notes="skip_last_time requests everything upstream and queues what waits for demand: "
             "2**31-1 items do not fit in memory."),
    op("take_while", lambda f, n: f.take_while(lambda x: x < n), size=lambda n: n + 10),
    op("skip_while", lambda f: f.skip_while(lambda x: x < 3), size=lambda n: n + 3),
    op("take_until_publisher", lambda f: f.take_until(Flowable.never())),
    op("merge_with_completable", lambda f: f.merge_with(Completable.complete())),
    op("merge_with_single", lambda f: f.merge_with(Single.just(-1)), size=lambda n: n - 1,
       min_elements=1),
    op("merge_with_maybe", lambda f: f.merge_with(Maybe.just(-1)), size=lambda n: n - 1,
       min_elements=1),
    op("merge_with_maybe_empty", lambda f: f.merge_with(Maybe.empty())),
    op("take_until_predicate", lambda f, n: f.take_until(lambda x: x == n - 1), size=lambda n: n + 10 if n else 0),
    op("skip_until", lambda f: f.skip_until(Flowable.just(0))),
    op("distinct", lambda f: f.map(lambda x: x // 2).distinct(), size=lambda n: 2 * n),
    op("distinct_key", lambda f: f.distinct(lambda x: x // 2), size=lambda n: 2 * n),
    op("distinct_until_changed", lambda f: f.map(lambda x: x // 2).distinct_until_changed(), size=lambda n: 2 * n),
    op("distinct_until_changed_comparer", lambda f: f.distinct_until_changed(comparer=lambda a, b: a // 2 == b // 2),
       size=lambda n: 2 * n),
    op("default_if_empty", lambda f: f.default_if_empty(-1), min_elements=1),
    op("default_if_empty_default", lambda f: f.default_if_empty(-1), size=lambda n: 0, max_elements=1,
       min_elements=1),
    op("switch_if_empty", lambda f, n: f.switch_if_empty(Flowable.range(100, 3) if n else Flowable.empty())),
    op("switch_if_empty_switched", lambda f: Flowable.empty().switch_if_empty(f)),
    op("buffer", lambda f: f.buffer(2), size=lambda n: 2 * n),
    op("buffer_skip_gt_count", lambda f: f.buffer(2, 3), size=lambda n: 3 * n),
    op("buffer_skip_lt_count", lambda f: f.buffer(3, 1)),
    op("on_error_return", lambda f: f.concat_with(failing()).on_error_return(lambda e: -1), size=lambda n: n - 1,
       min_elements=1, failed=lambda f: f.on_error_return(boom)),
    op("on_error_return_passthrough", lambda f: f.on_error_return(lambda e: -1), failed=False),
    op("on_error_return_item", lambda f: f.concat_with(failing()).on_error_return_item(-1), size=lambda n: n - 1,
       min_elements=1, failed=False),
    op("on_error_resume_next_passthrough", lambda f: f.on_error_resume_next(Flowable.just(-1)),
       failed=lambda f: f.on_error_resume_next(failing())),
    op("retry_passthrough", lambda f: f.retry(3)),
    op("repeat", lambda f, n: f.repeat(n), size=lambda n: 1),
    op("repeat_until", lambda f, n: repeat_until_case(n, lambda _k: f), size=lambda n: 1, min_elements=1,
       failed=lambda f: f.repeat_until(lambda: False)),
    op("do_on_next", lambda f: f.do_on_next(noop)),
    op("do_on_error", lambda f: f.do_on_error(noop)),
    op("do_on_complete", lambda f: f.do_on_complete(noop)),
    op("do_on_terminate", lambda f: f.do_on_terminate(noop)),
    op("do_after_terminate", lambda f: f.do_after_terminate(noop)),
    op("do_on_each", lambda f: f.do_on_each(noop, noop, noop, noop)),
    op("do_after_next", lambda f: f.do_after_next(noop)),
    op("do_on_subscribe", lambda f: f.do_on_subscribe(noop)),
    op("do_on_request", lambda f: f.do_on_request(noop)),
    op("do_on_cancel", lambda f: f.do_on_cancel(noop)),
    op("do_on_lifecycle", lambda f: f.do_on_lifecycle(noop, noop, noop)),
    op("do_finally", lambda f: f.do_finally(noop)),
    op("lift", lambda f: f.lift(PairwiseSubscriber), size=lambda n: n + 1),
    op("compose", lambda f: f.compose(lambda up: up.map(inc))),
    op("compose_plain_publisher", lambda f: f.compose(PlainPublisher)),
    op("from_publisher", lambda f: Flowable.from_publisher(PlainPublisher(f))),
    # ---- operators that switch sources: the items come from two (or more) subscriptions
    Case("on_error_resume_next", lambda n: items_then_error(n // 2).on_error_resume_next(halves(n)[1]),
         failed=lambda: failing().on_error_resume_next(failing())),
    Case("on_error_resume_next_async",
         lambda n: halves(n, async_src)[0].concat_with(failing()).on_error_resume_next(halves(n, async_src)[1]),
         asynchronous=True, failed=lambda: async_failing().on_error_resume_next(async_failing())),
    Case("on_error_resume_next_fn", lambda n: items_then_error(n // 2).on_error_resume_next(lambda e: halves(n)[1]),
         failed=lambda: failing().on_error_resume_next(boom)),
    Case("retry", retry_case, failed=lambda: failing().retry(2)),
    Case("retry_async", lambda n: retry_case(n, base=async_src), asynchronous=True,
         failed=lambda: async_failing().retry(2)),
    Case("retry_predicate", lambda n: retry_case(n, lambda e: isinstance(e, ERR)),
         failed=lambda: failing().retry(predicate=lambda e: False)),
    # ---- Flowable → Single / Maybe / Completable, back through to_flowable()
    to_single("count", lambda f: f.count()),
    to_maybe("reduce", lambda f: f.reduce(add)),
    to_single("reduce_seed", lambda f: f.reduce(add, 0)),
    to_single("reduce_with", lambda f: f.reduce_with(lambda: 0, add)),
    to_single("first", lambda f: f.first(-1)),
    to_single("first_default", lambda f: f.first(-1), size=0),
    to_maybe("first_element", lambda f: f.first_element()),
    to_single("first_or_error", lambda f: f.first_or_error()),
    to_single("last", lambda f: f.last(-1)),
    to_single("last_default", lambda f: f.last(-1), size=0),
    to_maybe("last_element", lambda f: f.last_element()),
    to_single("last_or_error", lambda f: f.last_or_error()),
    to_single("single", lambda f: f.single(-1), size=1),
    to_single("single_default", lambda f: f.single(-1), size=0),
    to_maybe("single_element", lambda f: f.single_element(), size=lambda n: n),
    to_single("single_or_error", lambda f: f.single_or_error(), size=1),
    to_maybe("element_at", lambda f: f.element_at(2)),
    to_single("element_at_default", lambda f: f.element_at(9, -1)),
    to_single("element_at_or_error", lambda f: f.element_at_or_error(2)),
    to_single("any", lambda f: f.any(lambda x: x == 3)),
    to_single("any_false", lambda f: f.any(lambda x: x > 9)),
    to_single("all", lambda f: f.all(lambda x: x < 9)),
    to_single("all_false", lambda f: f.all(lambda x: x < 3)),
    to_single("contains", lambda f: f.contains(3)),
    to_single("is_empty", lambda f: f.is_empty()),
    to_single("to_list", lambda f: f.to_list()),
    to_single("to_sorted_list", lambda f: f.to_sorted_list(reverse=True)),
    to_single("collect", lambda f: f.collect(list, list.append)),
    op("ignore_elements", lambda f: f.ignore_elements().to_flowable(), size=lambda n: 5, max_elements=0),
    # ---- Single
    single("single_just", same),
    single("single_from_callable", same, source=lambda: Single.from_callable(lambda: 7),
           failed=lambda: Single.from_callable(boom)),
    single("single_defer", lambda s: Single.defer(lambda: s)),
    failed_only("single_error", lambda: Single.error(ERR()).to_flowable(), "Single.error"),
    only_empty("single_never", lambda: Single.never().to_flowable(), None, "Single.never()"),
    single("single_zip", lambda s: Single.zip(s, Single.just(1), add)),
    single("single_zip_with", lambda s: s.zip_with(Single.just(1), add)),
    single("single_zip_array", lambda s: Single.zip_array(lambda a, b, c: a + b + c, s, s, s)),
    single("single_amb", lambda s: Single.amb([s, Single.never()])),
    single("single_amb_with", lambda s: s.amb_with(Single.never())),
    single("single_map", lambda s: s.map(inc)),
    single("single_flat_map", lambda s: s.flat_map(lambda x: Single.just(x + 1))),
    single("single_on_error_return", same, source=lambda: Single.error(ERR()).on_error_return(lambda e: -1),
           failed=lambda: Single.error(ERR()).on_error_return(boom)),
    single("single_on_error_return_item", same, source=lambda: Single.error(ERR()).on_error_return_item(-1),
           failed=None),
    single("single_on_error_resume_next", same,
           source=lambda: Single.error(ERR()).on_error_resume_next(Single.just(8)),
           failed=lambda: Single.error(ERR()).on_error_resume_next(Single.error(ERR()))),
    single("single_on_error_resume_next_fn", same,
           source=lambda: Single.error(ERR()).on_error_resume_next(lambda e: Single.just(8)),
           failed=lambda: Single.error(ERR()).on_error_resume_next(boom)),
    single("single_do_on_success", lambda s: s.do_on_success(noop)),
    single("single_do_on_error", lambda s: s.do_on_error(noop)),
    single("single_do_on_subscribe", lambda s: s.do_on_subscribe(noop)),
    single("single_do_on_dispose", lambda s: s.do_on_dispose(noop)),
    single("single_do_finally", lambda s: s.do_finally(noop)),
    maybe("single_filter", same, source=lambda n: Single.just(7).filter(lambda x: n > 0),
          failed=lambda: Single.error(ERR()).filter(even)),
    maybe("single_flat_map_maybe", same,
          source=lambda n: Single.just(7).flat_map_maybe(lambda x: Maybe.just(x) if n else Maybe.empty()),
          failed=lambda: Single.error(ERR()).flat_map_maybe(Maybe.just)),
    Case("single_flat_map_publisher", lambda n: Single.just(n).flat_map_publisher(src),
         failed=lambda: Single.error(ERR()).flat_map_publisher(src)),
    Case("single_flat_map_publisher_async", lambda n: Single.just(n).flat_map_publisher(async_src),
         asynchronous=True, failed=lambda: Single.just(3).flat_map_publisher(lambda k: async_failing())),
    single("completable_to_single", same, source=lambda: Completable.complete().to_single(lambda: 7),
           failed=lambda: Completable.error(ERR()).to_single(lambda: 7)),
    single("completable_to_single_default", same, source=lambda: Completable.complete().to_single_default(7),
           failed=lambda: Completable.error(ERR()).to_single_default(7)),
    single("maybe_to_single", same, source=lambda: Maybe.empty().to_single(7),
           failed=lambda: Maybe.error(ERR()).to_single(7)),
    single("maybe_to_single_or_error", same, source=lambda: Maybe.just(7).to_single(),
           failed=lambda: Maybe.empty().to_single()),
    single("maybe_is_empty", same, source=lambda: Maybe.just(7).is_empty(),
           failed=lambda: Maybe.error(ERR()).is_empty()),
    single("maybe_flat_map_single", same, source=lambda: Maybe.just(7).flat_map_single(lambda x: Single.just(x + 1)),
           failed=lambda: Maybe.error(ERR()).flat_map_single(Single.just)),
    single("maybe_switch_if_empty_single", same, source=lambda: Maybe.empty().switch_if_empty(Single.just(7)),
           failed=lambda: Maybe.empty().switch_if_empty(Single.error(ERR()))),
    single("completable_and_then_single", same, source=lambda: Completable.complete().and_then(Single.just(7)),
           failed=lambda: Completable.error(ERR()).and_then(Single.just(7))),
    # ---- Single: create, scheduling, timing, retry/repeat, side effects (issue 16)
    single("single_create", same, source=lambda: Single.create(lambda e: e.on_success(7)),
           failed=lambda: Single.create(lambda e: e.on_error(ERR()))),
    single("single_subscribe_on", lambda s: s.subscribe_on(Schedulers.io()), asynchronous=True),
    single("single_observe_on", lambda s: s.observe_on(Schedulers.computation()), asynchronous=True),
    single("single_unsubscribe_on", lambda s: s.unsubscribe_on(Schedulers.single()), asynchronous=True),
    single("single_timer", same, source=lambda: Single.timer(0.001), failed=None, asynchronous=True),
    single("single_timeout", lambda s: s.timeout(10.0), asynchronous=True),
    single("single_timeout_fallback", same, source=lambda: Single.never().timeout(0.001, fallback=Single.just(7)),
           failed=lambda: Single.never().timeout(0.001, fallback=Single.error(ERR())), asynchronous=True),
    single("single_delay", lambda s: s.delay(0.001, delay_error=True), asynchronous=True),
    single("single_delay_subscription", lambda s: s.delay_subscription(0.001), asynchronous=True),
    single("single_delay_subscription_other", lambda s: s.delay_subscription(Flowable.range(1, 3))),
    single("single_retry", lambda s: s.retry(3)),
    single("single_retry_bi_predicate", lambda s: s.retry(bi_predicate=lambda n, e: n < 3)),
    single("single_retry_when", lambda s: s.retry_when(lambda errors: errors.flat_map(Flowable.error))),
    Case("single_repeat", lambda n: Single.just(7).repeat(n), failed=lambda: Single.error(ERR()).repeat(3)),
    Case("single_repeat_until", lambda n: Single.just(7).repeat_until(_countdown(n)), min_elements=1,
         failed=lambda: Single.error(ERR()).repeat_until(lambda: False)),
    Case("single_repeat_when",
         lambda n: Single.just(7).repeat_when(lambda r: r.take(n) if n else Flowable.empty()),
         failed=lambda: Single.error(ERR()).repeat_when(lambda r: r)),
    single("single_hide", lambda s: s.hide()),
    single("single_log", lambda s: s.log(LOG)),
    single("single_checkpoint", lambda s: s.checkpoint("tck")),
    single("single_do_on_event", lambda s: s.do_on_event(lambda v, e: None)),
    single("single_do_on_terminate", lambda s: s.do_on_terminate(noop)),
    single("single_do_after_success", lambda s: s.do_after_success(noop)),
    single("single_do_after_terminate", lambda s: s.do_after_terminate(noop)),
    # ---- Maybe
    maybe("maybe_just_or_empty", same),
    maybe("maybe_from_callable", same, source=lambda n: Maybe.from_callable(lambda: 7 if n else None),
          failed=lambda: Maybe.from_callable(boom)),
    maybe("maybe_defer", lambda m: Maybe.defer(lambda: m)),
    failed_only("maybe_error", lambda: Maybe.error(ERR()).to_flowable(), "Maybe.error"),
    only_empty("maybe_never", lambda: Maybe.never().to_flowable(), None, "Maybe.never()"),
    maybe("maybe_zip", lambda m: Maybe.zip(m, Maybe.just(1), add)),
    maybe("maybe_zip_with", lambda m: m.zip_with(Maybe.just(1), add)),
    maybe("maybe_zip_array", lambda m: Maybe.zip_array(lambda a, b: a + b, m, m)),
    maybe("maybe_map", lambda m: m.map(inc)),
    maybe("maybe_filter", lambda m: m.filter(lambda x: x == 7)),
    maybe("maybe_flat_map", lambda m: m.flat_map(lambda x: Maybe.just(x + 1))),
    maybe("maybe_default_if_empty", lambda m: m.default_if_empty(7), source=lambda n: Maybe.empty(),
          min_elements=1),
    maybe("maybe_switch_if_empty", same,
          source=lambda n: Maybe.empty().switch_if_empty(Maybe.just(7) if n else Maybe.empty()),
          failed=lambda: Maybe.empty().switch_if_empty(Maybe.error(ERR()))),
    maybe("maybe_on_error_return", same,
          source=lambda n: (Maybe.error(ERR()) if n else Maybe.empty()).on_error_return(lambda e: 7),
          failed=lambda: Maybe.error(ERR()).on_error_return(boom)),
    maybe("maybe_on_error_return_item", same,
          source=lambda n: (Maybe.error(ERR()) if n else Maybe.empty()).on_error_return_item(7), failed=None),
    maybe("maybe_on_error_resume_next", same,
          source=lambda n: Maybe.error(ERR()).on_error_resume_next(Maybe.just(7) if n else Maybe.empty()),
          failed=lambda: Maybe.error(ERR()).on_error_resume_next(Maybe.error(ERR()))),
    maybe("maybe_on_error_resume_next_fn", same,
          source=lambda n: Maybe.error(ERR()).on_error_resume_next(lambda e: Maybe.just(7) if n else Maybe.empty()),
          failed=lambda: Maybe.error(ERR()).on_error_resume_next(boom)),
    maybe("maybe_on_error_complete", same,
          source=lambda n: (Maybe.just(7) if n else Maybe.error(ERR())).on_error_complete(),
          failed=lambda: Maybe.error(ERR()).on_error_complete(lambda e: False)),
    maybe("maybe_do_on_success", lambda m: m.do_on_success(noop)),
    maybe("maybe_do_on_error", lambda m: m.do_on_error(noop)),
    maybe("maybe_do_on_complete", lambda m: m.do_on_complete(noop)),
    maybe("maybe_do_on_subscribe", lambda m: m.do_on_subscribe(noop)),
    maybe("maybe_do_on_dispose", lambda m: m.do_on_dispose(noop)),
    maybe("maybe_do_finally", lambda m: m.do_finally(noop)),
    Case("maybe_flat_map_publisher", lambda n: Maybe.just(n).flat_map_publisher(src),
         failed=lambda: Maybe.error(ERR()).flat_map_publisher(src)),
    Case("maybe_flat_map_publisher_async", lambda n: Maybe.just(n).flat_map_publisher(async_src),
         asynchronous=True, failed=lambda: Maybe.just(3).flat_map_publisher(lambda k: async_failing())),
    maybe("completable_and_then_maybe", same,
          source=lambda n: Completable.complete().and_then(Maybe.just(7) if n else Maybe.empty()),
          failed=lambda: Completable.error(ERR()).and_then(Maybe.just(7))),
    # ---- Completable
    completable("completable_complete", same),
    completable("completable_from_action", same, source=lambda: Completable.from_action(noop),
                failed=lambda: Completable.from_action(boom)),
    completable("completable_from_callable", same, source=lambda: Completable.from_callable(lambda: 7),
                failed=lambda: Completable.from_callable(boom)),
    completable("completable_defer", lambda c: Completable.defer(lambda: c)),
    failed_only("completable_error", lambda: Completable.error(ERR()).to_flowable(), "Completable.error"),
    only_empty("completable_never", lambda: Completable.never().to_flowable(), None, "Completable.never()"),
    completable("completable_amb", lambda c: Completable.amb([c, Completable.never()])),
    completable("completable_amb_with", lambda c: c.amb_with(Completable.never())),
    completable("completable_concat", lambda c: Completable.concat([c, Completable.complete()])),
    completable("completable_concat_array", lambda c: Completable.concat_array(Completable.complete(), c)),
    completable("completable_concat_with", lambda c: c.concat_with(Completable.complete())),
    completable("completable_and_then", lambda c: c.and_then(Completable.complete())),
    completable("completable_merge", lambda c: Completable.merge([c, Completable.complete()])),
    completable("completable_merge_array", lambda c: Completable.merge_array(Completable.complete(), c)),
    completable("completable_merge_with", lambda c: c.merge_with(Completable.complete())),
    completable("completable_on_error_complete", same, source=lambda: Completable.error(ERR()).on_error_complete(),
                failed=lambda: Completable.error(ERR()).on_error_complete(lambda e: False)),
    completable("completable_on_error_resume_next", same,
                source=lambda: Completable.error(ERR()).on_error_resume_next(Completable.complete()),
                failed=lambda: Completable.error(ERR()).on_error_resume_next(boom)),
    completable("completable_do_on_complete", lambda c: c.do_on_complete(noop)),
    completable("completable_do_on_error", lambda c: c.do_on_error(noop)),
    completable("completable_do_on_subscribe", lambda c: c.do_on_subscribe(noop)),
    completable("completable_do_on_dispose", lambda c: c.do_on_dispose(noop)),
    completable("completable_do_finally", lambda c: c.do_finally(noop)),
    completable("completable_to_maybe", lambda c: c.to_maybe()),  # type: ignore[arg-type, return-value]
    Case("completable_and_then_publisher", lambda n: Completable.complete().and_then(src(n)),
         failed=lambda: Completable.error(ERR()).and_then(src(3))),
    Case("completable_and_then_publisher_async", lambda n: Completable.complete().and_then(async_src(n)),
         asynchronous=True, failed=lambda: Completable.complete().and_then(async_failing())),
    # ---- time operators (on Schedulers.computation(), their default)
    op("timestamp", lambda f: f.timestamp()),
    op("time_interval", lambda f: f.time_interval()),
    Case("delay", lambda n: src(n).delay(0.001), failed=lambda: failing().delay(0.001), asynchronous=True),
    Case("delay_delay_error", lambda n: src(n).delay(0.001, delay_error=True),
         failed=lambda: failing().delay(0.001, delay_error=True), asynchronous=True),
    Case("delay_subscription", lambda n: src(n).delay_subscription(0.001),
         failed=lambda: failing().delay_subscription(0.001), asynchronous=True),
    op("timeout", lambda f: f.timeout(60)),
    op("timeout_fallback", lambda f: f.timeout(60, fallback=Flowable.empty())),
    op("take_time", lambda f: f.take_time(60)),
    op("publish_auto_connect", lambda f: f.publish().auto_connect()),
    op("share", lambda f: f.share()),
    # replay/cache keep every item (an endless source under unbounded demand never ends)
    op("cache", lambda f: f.cache(), max_elements=1024),
    op("replay_auto_connect", lambda f: f.replay().auto_connect(), max_elements=1024),
    Case("from_future", lambda n: Flowable.from_future(_done_future(7 if n else None)), max_elements=1,
         failed=lambda: Flowable.from_future(_done_future(TestException()))),
    # asynchronous operators: observe_on, subscribe_on, unsubscribe_on, on_backpressure_*
    *asynchronous(op("observe_on", lambda f: f.observe_on(Schedulers.computation()))),
    *asynchronous(op("observe_on_delay_error",
                     lambda f: f.observe_on(Schedulers.single(), delay_error=True, buffer_size=16))),
    *asynchronous(op("subscribe_on", lambda f: f.subscribe_on(Schedulers.io()))),
    *asynchronous(op("subscribe_on_direct_requests",
                     lambda f: f.subscribe_on(Schedulers.single(), request_on=False))),
    *asynchronous(op("unsubscribe_on", lambda f: f.unsubscribe_on(Schedulers.single()))),
    op("on_backpressure_buffer", lambda f: f.on_backpressure_buffer(), max_elements=10_000),
    op("on_backpressure_buffer_bounded", lambda f: f.on_backpressure_buffer(10_000), max_elements=10_000),
    op("on_backpressure_buffer_drop_oldest",
       lambda f: f.on_backpressure_buffer(10_000, overflow_strategy=DROP_OLDEST), max_elements=10_000),
    Case("on_backpressure_drop", lambda n: paced_by_downstream(n).on_backpressure_drop(),
         failed=lambda: failing().on_backpressure_drop(), asynchronous=True),
    Case("on_backpressure_latest", lambda n: paced_by_downstream(n).on_backpressure_latest(),
         failed=lambda: failing().on_backpressure_latest(), asynchronous=True),
    Case("on_backpressure_error", lambda n: paced_by_downstream(n).on_backpressure_error(),
         failed=lambda: failing().on_backpressure_error(), asynchronous=True),
    Case("interval_range_buffered", lambda n: Flowable.interval_range(0, n, 0, 0.0001).on_backpressure_buffer(),
         max_elements=1000, asynchronous=True),
    Case("timer_buffered", lambda n: Flowable.timer(0.0001).on_backpressure_buffer(), max_elements=1,
         min_elements=1, asynchronous=True),
    # ---- issue 5: flat_map (one line per publisher; keep inside this block)
    op("flat_map_just", lambda f: f.flat_map(Flowable.just)),
    op("flat_map_range", lambda f, n: f.flat_map(lambda x: Flowable.range(2 * x, min(2, n - 2 * x))),
       size=lambda n: (n + 1) // 2),
    op("flat_map_range_max_concurrency",
       lambda f, n: f.flat_map(lambda x: Flowable.range(2 * x, min(2, n - 2 * x)).hide(), 2),
       size=lambda n: (n + 1) // 2),
    op("flat_map_just_max_concurrency", lambda f: f.flat_map(Flowable.just, 3)),
    op("flat_map_delay_errors", lambda f: f.flat_map(lambda x: Flowable.just(x).hide(), 4, delay_errors=True)),
    op("flat_map_combiner", lambda f: f.flat_map(Flowable.just, 8, combiner=add)),
    Case("merge_array", lambda n: Flowable.merge_array(*halves(n)),
         failed=lambda: Flowable.merge_array(failing(), src(3))),
    Case("merge_array_async", lambda n: Flowable.merge_array(*halves(n, async_src)), asynchronous=True,
         failed=lambda: Flowable.merge_array(async_failing(), async_src(3))),
    Case("merge_publisher", lambda n: Flowable.merge(Flowable.just(*halves(n))),
         failed=lambda: Flowable.merge(failing())),
    Case("merge_publisher_async", lambda n: Flowable.merge(async_src(2).map(lambda i: halves(n, async_src)[i]), 1),
         asynchronous=True, failed=lambda: Flowable.merge(async_failing())),
    Case("merge_array_delay_error", lambda n: Flowable.merge_array_delay_error(*halves(n)),
         failed=lambda: Flowable.merge_array_delay_error(failing(), Flowable.empty())),
    Case("merge_delay_error", lambda n: Flowable.merge_delay_error(list(halves(n))),
         failed=lambda: Flowable.merge_delay_error([failing(), Flowable.empty()])),
    Case("merge_delay_error_async", lambda n: Flowable.merge_delay_error(list(halves(n, async_src))),
         asynchronous=True, failed=lambda: Flowable.merge_delay_error([async_failing(), Flowable.empty()])),
    Case("merge_with", lambda n: halves(n)[0].merge_with(halves(n)[1]),
         failed=lambda: failing().merge_with(src(3))),
    Case("merge_with_async", lambda n: halves(n, async_src)[0].merge_with(halves(n, async_src)[1]),
         asynchronous=True, failed=lambda: async_failing().merge_with(async_src(3))),
    # ---- end flat_map
    # ---- issue 6: fusion (macro-fused chains, collapsed stages, fused consumers)
    Case("chain_range_map_filter_take",
         lambda n: Flowable.range(0, 2 * n + 10).map(inc).filter(even).take(n), failed=failing),
    Case("chain_range_skip_take_while",
         lambda n: Flowable.range(0, n + 3).skip(3).take_while(lambda x: x >= 0), failed=failing),
    Case("chain_from_iterable_map_skip_while",
         lambda n: Flowable.from_iterable(range(n + 2)).skip_while(lambda x: x < 2).map(inc),
         failed=failing),
    Case("chain_from_array_filter_do_on_next",
         lambda n: Flowable.from_array(list(range(2 * n))).filter(even).do_on_next(id),
         max_elements=10_000,
         notes="from_array of a list holds its items: 2**31-1 of them do not fit in memory."),
    Case("chain_just_map", lambda n: Flowable.just(1).map(inc).repeat(n), failed=failing),
    op("map_filter_collapsed", lambda f: f.hide().map(inc).filter(even).map(inc),
       size=lambda n: 2 * n),
    Case("chain_sync_fused_into_observe_on",
         lambda n: Flowable.range(0, n + 1).skip(1).take(n).observe_on(Schedulers.single()),
         failed=lambda: failing().observe_on(Schedulers.single()), asynchronous=True),
    Case("chain_into_flat_map_inner",
         lambda n: Flowable.range(0, (n + 1) // 2).flat_map(
             lambda x: Flowable.range(2 * x, min(2, n - 2 * x)).map(inc))),
    Case("chain_into_concat_map_outer",
         lambda n: Flowable.range(0, n).map(inc).concat_map(Flowable.just), failed=failing),
    Case("chain_into_zip",
         lambda n: Flowable.zip(Flowable.range(0, n).map(inc), Flowable.range(0, n).filter(
             lambda x: True)), failed=failing),
    # ---- end fusion
    # ---- issue 5: flatten_iterable_amb (one line per publisher; keep inside this block)
    op("flat_map_iterable", lambda f: f.flat_map_iterable(lambda x: [x])),
    op("flat_map_iterable_pairs", lambda f, n: f.flat_map_iterable(lambda x: [v for v in (2 * x, 2 * x + 1) if v < n]),
       size=lambda n: (n + 1) // 2),
    op("flat_map_iterable_generator", lambda f: f.flat_map_iterable(lambda x: (y for y in (x,) if x % 2 == 0)),
       size=lambda n: 2 * n),
    Case("flat_map_iterable_just", lambda n: Flowable.just(n).flat_map_iterable(range), failed=None),
    op("concat_map_iterable", lambda f: f.concat_map_iterable(lambda x: (x,))),
    op("flat_map_maybe", lambda f: f.flat_map_maybe(Maybe.just), max_elements=10_000,
       notes="flat_map_maybe with unbounded max_concurrency asks its upstream for everything at once and "
             "keeps the successes until demanded: 2**31-1 of them do not fit in memory."),
    op("flat_map_maybe_empties", lambda f: f.flat_map_maybe(lambda x: Maybe.just(x // 2) if x % 2 == 0 else Maybe.empty()),
       size=lambda n: 2 * n, max_elements=10_000,
       notes="flat_map_maybe with unbounded max_concurrency asks its upstream for everything at once and "
             "keeps the successes until demanded: 2**31-1 of them do not fit in memory."),
    op("flat_map_maybe_bounded_delay_errors", lambda f: f.flat_map_maybe(Maybe.just, delay_errors=True, max_concurrency=2)),
    op("flat_map_single", lambda f: f.flat_map_single(Single.just), max_elements=10_000,
       notes="flat_map_single with unbounded max_concurrency asks its upstream for everything at once and "
             "keeps the successes until demanded: 2**31-1 of them do not fit in memory."),
    op("flat_map_single_bounded", lambda f: f.flat_map_single(Single.just, max_concurrency=1)),
    op("flat_map_completable", lambda f: f.flat_map_completable(lambda x: Completable.complete()).to_flowable(),
       size=lambda n: 5, max_elements=0),
    op("flat_map_completable_bounded_delay_errors",
       lambda f: f.flat_map_completable(lambda x: Completable.complete(), True, 2).to_flowable(),
       size=lambda n: 5, max_elements=0),
    op("amb_array", lambda f: Flowable.amb_array(f, Flowable.never())),
    op("amb_array_never_first", lambda f: Flowable.amb_array(Flowable.never(), f)),
    op("amb", lambda f: Flowable.amb([Flowable.never(), f])),
    op("amb_with", lambda f: f.amb_with(Flowable.never())),
    # ---- end flatten_iterable_amb
    # ---- issue 5: concat_switch (one line per publisher; keep inside this block)
    op("concat_map_just", lambda f: f.concat_map(Flowable.just)),
    op("concat_map_range_pieces",
       lambda f, n: f.concat_map(lambda x: Flowable.range(2 * x, min(2, n - 2 * x)).hide()),
       size=lambda n: (n + 1) // 2),
    op("concat_map_delay_error", lambda f: f.concat_map_delay_error(lambda x: Flowable.just(x).hide())),
    op("concat_map_delay_error_boundary",
       lambda f: f.concat_map_delay_error(Flowable.just, till_the_end=False)),
    Case("concat_publisher", lambda n: Flowable.concat(Flowable.just(*halves(n))),
         failed=lambda: Flowable.concat(Flowable.just(failing(), src(3)))),
    Case("concat_delay_error_publisher", lambda n: Flowable.concat_delay_error(Flowable.just(*halves(n))),
         failed=lambda: Flowable.concat_delay_error(Flowable.just(failing(), Flowable.empty()))),
    Case("concat_delay_error_iterable", lambda n: Flowable.concat_delay_error(list(halves(n))),
         failed=lambda: Flowable.concat_delay_error([failing(), Flowable.empty()])),
    Case("concat_publisher_async", lambda n: Flowable.concat(Flowable.just(*halves(n, async_src))),
         asynchronous=True, failed=lambda: Flowable.concat(Flowable.just(async_failing(), src(3)))),
    # unbounded concurrency subscribes to every inner at once: only a finite stream conforms
    op("concat_map_eager", lambda f: f.concat_map_eager(lambda x: Flowable.just(x).hide()),
       max_elements=1024),
    op("concat_map_eager_bounded",
       lambda f: f.concat_map_eager(lambda x: Flowable.just(x).hide(), max_concurrency=8)),
    op("concat_map_eager_range_pieces",
       lambda f, n: f.concat_map_eager(lambda x: Flowable.range(2 * x, min(2, n - 2 * x)),
                                       max_concurrency=4, prefetch=4),
       size=lambda n: (n + 1) // 2),
    op("concat_map_eager_delay_error",
       lambda f: f.concat_map_eager_delay_error(Flowable.just, max_concurrency=8, prefetch=2)),
    Case("concat_eager", lambda n: Flowable.concat_eager(Flowable.just(*halves(n))),
         failed=lambda: Flowable.concat_eager(Flowable.just(failing(), src(3)))),
    Case("concat_eager_async", lambda n: Flowable.concat_eager(Flowable.just(*halves(n, async_src))),
         asynchronous=True, failed=lambda: Flowable.concat_eager([async_failing(), src(3)])),
    # switch_map drops an inner's items that were not requested before the next upstream item:
    # the outer here emits only when the downstream's demand is there and nothing is in flight
    # (``paced_by_downstream`` reads the SwitchMapSubscriber: demand, no drain running, no item queued)
    Case("switch_map_just",
         lambda n: paced_by_downstream(n, lambda op: (
             op.requested.get() > 0 and op.gate.is_free()
             and (lambda a: a is None or a.queue.is_empty())(op.active.get()))).switch_map(Flowable.just),
         failed=lambda: failing().switch_map(Flowable.just), asynchronous=True),
    Case("switch_map_delay_error",
         lambda n: paced_by_downstream(n, lambda op: (
             op.requested.get() > 0 and op.gate.is_free()
             and (lambda a: a is None or a.queue.is_empty())(op.active.get()))).switch_map_delay_error(
                 lambda x: Flowable.just(x).hide()),
         failed=lambda: failing().switch_map_delay_error(Flowable.just), asynchronous=True),
    op("switch_map_to_last", lambda f, n: f.switch_map(lambda x: src(n) if x == 2 else Flowable.never()),
       size=lambda n: 3),
    op("switch_map_delay_error_to_last",
       lambda f, n: f.switch_map_delay_error(lambda x: src(n).hide() if x == 2 else Flowable.empty()),
       size=lambda n: 3),
    # ---- end concat_switch
    # ---- issue 5: zip_combine (one line per publisher; keep inside this block)
    op("zip", lambda f, n: Flowable.zip(f, src(n), zipper=add)),
    op("zip_tuple", lambda f, n: Flowable.zip(f, src(n + 5))),
    op("zip_small_buffer", lambda f, n: Flowable.zip(src(n).hide(), f, zipper=add, buffer_size=4)),
    op("zip_delay_error", lambda f, n: Flowable.zip(f, src(n), delay_error=True)),
    op("zip_iterable", lambda f, n: Flowable.zip_iterable([f, src(n)], zipper=add)),
    op("zip_with", lambda f, n: f.zip_with(src(n), add)),
    op("zip_with_iterable", lambda f: f.zip_with(range(10**12), add)),
    op("zip_with_iterable_shorter", lambda f, n: f.zip_with(range(n)), size=lambda n: n + 10),
    op("combine_latest", lambda f: Flowable.combine_latest(Flowable.just(1), f, combiner=add)),
    op("combine_latest_tuple", lambda f: Flowable.combine_latest(Flowable.just(1), f, buffer_size=4)),
    op("combine_latest_delay_error", lambda f: Flowable.combine_latest_delay_error(Flowable.just(1), f)),
    op("combine_latest_iterable", lambda f: Flowable.combine_latest_iterable([Flowable.just(1), f])),
    op("with_latest_from", lambda f: f.with_latest_from(Flowable.just(0), combiner=add)),
    op("with_latest_from_many", lambda f: f.with_latest_from(Flowable.just(0), Flowable.just(1))),
    to_single("sequence_equal", lambda f: Flowable.sequence_equal(f, src(5))),
    to_single("sequence_equal_false", lambda f: Flowable.sequence_equal(f, src(4).hide())),
    # ---- end zip_combine
    # ---- issue 5: group_window (one line per publisher; keep inside this block)
    op("group_by_flat_map", lambda f: f.group_by(lambda x: x % 3).flat_map(same)),
    op("group_by_one_group", lambda f: f.group_by(lambda x: 0).flat_map(same)),
    op("group_by_value_flat_map", lambda f: f.group_by(lambda x: x % 2, inc).flat_map(same)),
    op("group_by_pairs_take", lambda f: f.group_by(lambda x: x // 2).flat_map(lambda g: g.take(2))),
    op("group_by_pairs_take_live", lambda f: f.group_by(lambda x: x // 2).flat_map(lambda g: g.take(3))),
    op("window_flat_map", lambda f: f.window(3).flat_map(same, max_concurrency=2)),
    op("window_concat_map", lambda f: f.window(2).concat_map(same)),
    op("window_boundary_never", lambda f: f.window(Flowable.never()).flat_map(same), max_elements=10_000,
       notes="window(boundary) requests its source without bound (windows buffer): 2**31-1 items do not fit."),
    op("window_time", lambda f: f.window_time(60).flat_map(same), max_elements=10_000,
       notes="window_time requests its source without bound (windows buffer): 2**31-1 items do not fit."),
    Case("window_as_publisher",
         lambda n: (src(n).window(n) if n else src(0).window(Flowable.never())).blocking_first(),
         max_elements=10_000, failed=lambda: failing().window(Flowable.never()).blocking_first(),
         notes="the first window of window(n) (a UnicastProcessor holding n items) as the Publisher."),
    # ---- end group_window
    # ---- issue 5: parallel (one line per publisher; keep inside this block)
    op("parallel_sequential", lambda f: f.parallel(2).sequential()),
    op("parallel_sequential_delay_error", lambda f: f.parallel(3).sequential_delay_error(prefetch=4)),
    op("parallel_map_sequential", lambda f: f.parallel(3).map(inc).sequential()),
    op("parallel_filter_sequential", lambda f: f.parallel(2).filter(even).sequential(), size=lambda n: 2 * n),
    op("parallel_flat_map_sequential",
       lambda f: f.parallel(2).flat_map(lambda x: Flowable.range(x, 1).hide(), max_concurrency=2).sequential()),
    *asynchronous(op("parallel_run_on_sequential",
                     lambda f: f.parallel(2).run_on(Schedulers.computation()).sequential())),
    op("parallel_sorted", lambda f: f.parallel(2).sorted(), max_elements=1024),
    op("parallel_reduce", lambda f: f.parallel(2).reduce(add), size=lambda n: 5 if n else 0, max_elements=1),
    op("parallel_to_sorted_list", lambda f: f.parallel(2).to_sorted_list(), size=lambda n: 5,
       max_elements=1, min_elements=1),
    # ---- end parallel
    # ---- issue 16: scheduling and time (one line per publisher; keep inside this block)
    maybe("maybe_subscribe_on", lambda m: m.subscribe_on(Schedulers.io()), asynchronous=True),
    maybe("maybe_observe_on", lambda m: m.observe_on(Schedulers.computation()), asynchronous=True),
    maybe("maybe_unsubscribe_on", lambda m: m.unsubscribe_on(Schedulers.single()), asynchronous=True),
    maybe("maybe_timer", same, source=lambda n: Maybe.timer(0.001) if n else Maybe.timer(0.001).filter(lambda v: False), failed=None, asynchronous=True),
    maybe("maybe_timeout", lambda m: m.timeout(10.0), asynchronous=True),
    maybe("maybe_timeout_fallback", same, source=lambda n: Maybe.never().timeout(0.001, fallback=Maybe.just(7) if n else Maybe.empty()), failed=lambda: Maybe.never().timeout(0.001, fallback=Maybe.error(ERR())), asynchronous=True),
    maybe("maybe_timeout_other", lambda m: m.timeout(Flowable.never())),
    maybe("maybe_timeout_other_fallback", same, source=lambda n: Maybe.never().timeout(Flowable.range(1, 3), fallback=Maybe.just(7) if n else Maybe.empty()), failed=lambda: Maybe.never().timeout(Maybe.empty(), fallback=Maybe.error(ERR()))),
    maybe("maybe_delay", lambda m: m.delay(0.001), asynchronous=True),
    maybe("maybe_delay_other", lambda m: m.delay(Flowable.range(1, 3))),
    maybe("maybe_delay_subscription", lambda m: m.delay_subscription(0.001), asynchronous=True),
    maybe("maybe_delay_subscription_other", lambda m: m.delay_subscription(Single.just(1))),
    Case("completable_subscribe_on", lambda n: Completable.complete().subscribe_on(Schedulers.io()).to_flowable(), max_elements=0, failed=lambda: Completable.error(ERR()).subscribe_on(Schedulers.io()).to_flowable(), asynchronous=True),
    Case("completable_observe_on", lambda n: Completable.complete().observe_on(Schedulers.computation()).to_flowable(), max_elements=0, failed=lambda: Completable.error(ERR()).observe_on(Schedulers.computation()).to_flowable(), asynchronous=True),
    Case("completable_unsubscribe_on", lambda n: Completable.complete().unsubscribe_on(Schedulers.single()).to_flowable(), max_elements=0, failed=lambda: Completable.error(ERR()).unsubscribe_on(Schedulers.single()).to_flowable(), asynchronous=True),
    Case("completable_timer", lambda n: Completable.timer(0.001).to_flowable(), max_elements=0, asynchronous=True),
    Case("completable_timeout", lambda n: Completable.complete().timeout(10.0).to_flowable(), max_elements=0, failed=lambda: Completable.never().timeout(0.001, fallback=Completable.error(ERR())).to_flowable(),
         asynchronous=True),
    Case("completable_timeout_fallback", lambda n: Completable.never().timeout(0.001, fallback=Completable.complete()).to_flowable(), max_elements=0, failed=lambda: Completable.never().timeout(0.001, fallback=Completable.error(ERR())).to_flowable(), asynchronous=True),
    Case("completable_delay", lambda n: Completable.complete().delay(0.001).to_flowable(), max_elements=0, failed=lambda: Completable.error(ERR()).delay(0.001, delay_error=True).to_flowable(), asynchronous=True),
    Case("completable_delay_subscription", lambda n: Completable.complete().delay_subscription(0.001).to_flowable(), max_elements=0, failed=lambda: Completable.error(ERR()).delay_subscription(0.001).to_flowable(), asynchronous=True),
    completable("completable_delay_subscription_other", lambda c: c.delay_subscription(Flowable.range(1, 3))),
    # ---- end scheduling and time
    # ---- issue 16: retry / repeat (one line per publisher; keep inside this block)
    maybe("maybe_retry", lambda m: m.retry(3)),
    maybe("maybe_retry_bi_predicate", lambda m: m.retry(bi_predicate=lambda n, e: n < 3)),
    maybe("maybe_retry_until", lambda m: m.retry_until(_countdown(3))),
    maybe("maybe_retry_when", lambda m: m.retry_when(lambda errors: errors.flat_map(Flowable.error))),
    Case("maybe_repeat", lambda n: Maybe.just(7).repeat(n), failed=lambda: Maybe.error(ERR()).repeat(3)),
    Case("maybe_repeat_until", lambda n: Maybe.just(7).repeat_until(_countdown(n)), min_elements=1,
         failed=lambda: Maybe.error(ERR()).repeat_until(lambda: False)),
    Case("maybe_repeat_when",
         lambda n: Maybe.just(7).repeat_when(lambda r: r.take(n) if n else Flowable.empty()),
         failed=lambda: Maybe.error(ERR()).repeat_when(lambda r: r)),
    Case("maybe_repeat_when_empty", lambda n: Maybe.empty().repeat_when(lambda r: r.take(3)),
         max_elements=0, failed=lambda: Maybe.empty().repeat_when(lambda r: r.flat_map(lambda _x: Flowable.error(ERR())))),
    completable("completable_retry", lambda c: c.retry(3)),
    completable("completable_retry_bi_predicate", lambda c: c.retry(bi_predicate=lambda n, e: n < 3)),
    completable("completable_retry_when", lambda c: c.retry_when(lambda errors: errors.flat_map(Flowable.error))),
    completable("completable_repeat", lambda c: c.repeat(3)),
    completable("completable_repeat_until", lambda c: c.repeat_until(_countdown(3))),
    completable("completable_repeat_when", lambda c: c.repeat_when(lambda r: r.take(3))),
    # ---- end retry / repeat
    # ---- issue 16: creating, composing, lifecycle (one line per publisher; keep inside this block)
    single("single_unsafe_create", lambda s: Single.unsafe_create(s.subscribe)),
    single("single_wrap", lambda s: Single.wrap(SimpleNamespace(subscribe=s.subscribe))),
    maybe("maybe_wrap", lambda m: Maybe.wrap(SimpleNamespace(subscribe=m.subscribe))),
    completable("completable_wrap", lambda c: Completable.wrap(SimpleNamespace(subscribe=c.subscribe))),
    single("single_lift", lambda s: s.lift(same)),
    single("single_on_terminate_detach", lambda s: s.on_terminate_detach()),
    single("single_cast", lambda s: s.cast(int)),
    maybe("maybe_create", same, source=lambda n: Maybe.create(
        lambda e: e.on_success(7) if n else e.on_complete()),
          failed=lambda: Maybe.create(lambda e: e.on_error(ERR()))),
    maybe("maybe_unsafe_create", lambda m: Maybe.unsafe_create(m.subscribe)),
    maybe("maybe_do_on_event", lambda m: m.do_on_event(lambda v, e: None)),
    maybe("maybe_do_on_terminate", lambda m: m.do_on_terminate(noop)),
    maybe("maybe_do_after_success", lambda m: m.do_after_success(noop)),
    maybe("maybe_do_after_terminate", lambda m: m.do_after_terminate(noop)),
    maybe("maybe_hide", lambda m: m.hide()),
    maybe("maybe_lift", lambda m: m.lift(same)),
    maybe("maybe_on_terminate_detach", lambda m: m.on_terminate_detach()),
    maybe("maybe_of_type", lambda m: m.of_type(int)),
    maybe("maybe_cast", lambda m: m.cast(int)),
    completable("completable_create", same, source=lambda: Completable.create(lambda e: e.on_complete()),
                failed=lambda: Completable.create(lambda e: e.on_error(ERR()))),
    completable("completable_unsafe_create", lambda c: Completable.unsafe_create(c.subscribe)),
    completable("completable_do_on_event", lambda c: c.do_on_event(noop)),
    completable("completable_do_on_terminate", lambda c: c.do_on_terminate(noop)),
    completable("completable_do_after_terminate", lambda c: c.do_after_terminate(noop)),
    completable("completable_hide", lambda c: c.hide()),
    completable("completable_lift", lambda c: c.lift(same)),
    completable("completable_on_terminate_detach", lambda c: c.on_terminate_detach()),
    # ---- end creating, composing, lifecycle
    # ---- issue 16: converting and element operators (one line per publisher; keep inside this block)
    single("single_from_future", same, source=lambda: Single.from_future(Single.just(7).to_future()),
           failed=lambda: Single.from_future(Single.error(ERR()).to_future())),
    single("single_from_publisher", same, source=lambda: Single.from_publisher(Flowable.just(7)),
           failed=lambda: Single.from_publisher(Flowable.error(ERR()))),
    Case("single_to_maybe", lambda n: Single.just(7).to_maybe().to_flowable(), max_elements=1, min_elements=1,
         failed=lambda: Single.error(ERR()).to_maybe().to_flowable()),
    completable("single_ignore_element", same, source=lambda: Single.just(7).ignore_element(),
                failed=lambda: Single.error(ERR()).ignore_element()),
    single("single_materialize", lambda s: s.materialize(), failed=None),
    maybe("single_dematerialize", same,
          source=lambda n: (Single.just(7) if n else Maybe.empty()).materialize().dematerialize(same),
          failed=lambda: Single.error(ERR()).materialize().dematerialize(same)),
    single("single_contains", lambda s: s.contains(7)),
    completable("single_flat_map_completable", same,
                source=lambda: Single.just(7).flat_map_completable(lambda _: Completable.complete()),
                failed=lambda: Single.just(7).flat_map_completable(lambda _: Completable.error(ERR()))),
    Case("single_flatten_as_flowable", lambda n: Single.just(n).flatten_as_flowable(range),
         failed=lambda: Single.error(ERR()).flatten_as_flowable(range)),
    Case("maybe_from_action", lambda n: Maybe.from_action(noop).to_flowable(), max_elements=0),
    Case("maybe_from_completable", lambda n: Maybe.from_completable(Completable.complete()).to_flowable(),
         max_elements=0, failed=lambda: Maybe.from_completable(Completable.error(ERR())).to_flowable()),
    maybe("maybe_from_future", same, source=lambda n: Maybe.from_future(Single.just(7).to_future()),
          failed=lambda: Maybe.from_future(Single.error(ERR()).to_future()), min_elements=1),
    maybe("maybe_from_single", same, source=lambda n: Maybe.from_single(Single.just(7)),
          failed=lambda: Maybe.from_single(Single.error(ERR())), min_elements=1),
    completable("maybe_ignore_element", same, source=lambda: Maybe.just(7).ignore_element(),
                failed=lambda: Maybe.error(ERR()).ignore_element()),
    Case("maybe_materialize", lambda n: Maybe.empty().materialize().to_flowable(), max_elements=1, min_elements=1),
    Case("maybe_contains", lambda n: Maybe.just(7).contains(7).to_flowable(), max_elements=1, min_elements=1,
         failed=lambda: Maybe.error(ERR()).contains(7).to_flowable()),
    Case("maybe_count", lambda n: Maybe.empty().count().to_flowable(), max_elements=1, min_elements=1,
         failed=lambda: Maybe.error(ERR()).count().to_flowable()),
    completable("maybe_flat_map_completable", same,
                source=lambda: Maybe.just(7).flat_map_completable(lambda _: Completable.complete()),
                failed=lambda: Maybe.just(7).flat_map_completable(lambda _: Completable.error(ERR()))),
    maybe("maybe_flat_map_single_element", lambda m: m.flat_map_single_element(lambda x: Single.just(x + 1))),
    maybe("maybe_concat_map", lambda m: m.concat_map(lambda x: Maybe.just(x + 1))),
    Case("maybe_flatten_as_flowable", lambda n: (Maybe.just(n) if n else Maybe.empty()).flatten_as_flowable(range),
         failed=lambda: Maybe.error(ERR()).flatten_as_flowable(range)),
    completable("completable_from_future", same, source=lambda: Completable.from_future(Single.just(7).to_future()),
                failed=lambda: Completable.from_future(Single.error(ERR()).to_future())),
    completable("completable_from_maybe", same, source=lambda: Completable.from_maybe(Maybe.just(7)),
                failed=lambda: Completable.from_maybe(Maybe.error(ERR()))),
    completable("completable_from_single", same, source=lambda: Completable.from_single(Single.just(7)),
                failed=lambda: Completable.from_single(Single.error(ERR()))),
    completable("completable_from_publisher", same, source=lambda: Completable.from_publisher(Flowable.range(1, 5)),
                failed=lambda: Completable.from_publisher(Flowable.error(ERR()))),
    Case("completable_materialize", lambda n: Completable.complete().materialize().to_flowable(),
         max_elements=1, min_elements=1),
    # ---- end converting and element operators
    # ---- issue 16: caching, resources, take_until, fallbacks (one line per publisher; keep inside this block)
    single("single_cache", lambda s: s.cache()),
    maybe("maybe_cache", lambda m: m.cache()),
    completable("completable_cache", lambda c: c.cache()),
    single("single_using", lambda s: Single.using(lambda: 1, lambda r: s, noop)),
    maybe("maybe_using", lambda m: Maybe.using(lambda: 1, lambda r: m, noop, False)),
    completable("completable_using", lambda c: Completable.using(lambda: 1, lambda r: c, noop)),
    single("single_take_until", lambda s: s.take_until(Flowable.never())),
    maybe("maybe_take_until", lambda m: m.take_until(Single.never())),
    maybe("maybe_take_until_triggered", same,
          source=lambda n: Maybe.just(7).take_until(Flowable.never()) if n else Maybe.never().take_until(Flowable.empty()),
          failed=lambda: Maybe.never().take_until(Flowable.error(ERR()))),
    completable("completable_take_until", lambda c: c.take_until(Completable.never())),
    maybe("maybe_on_exception_resume_next", same,
          source=lambda n: Maybe.error(ERR()).on_exception_resume_next(Maybe.just(7) if n else Maybe.empty()),
          failed=lambda: Maybe.error(ERR()).on_exception_resume_next(Maybe.error(ERR()))),
    single("maybe_sequence_equal", same, source=lambda: Maybe.sequence_equal(Maybe.just(7), Maybe.just(7)),
           failed=lambda: Maybe.sequence_equal(Maybe.error(ERR()), Maybe.just(7))),
    # ---- end caching, resources, take_until, fallbacks
    # ---- issue 16: concat / merge / amb (one line per publisher; keep inside this block)
    # (a list of n sources holds them all, and an unbounded merge of range(n) makes all n
    # at once: those cases stop at 1000 items; the Single *_with cases make two items,
    # cut to n by take(n))
    Case("single_concat", lambda n: Single.concat([Single.just(i) for i in range(n)]), max_elements=1000, failed=lambda: Single.concat([Single.error(ERR()), Single.just(1)])),
    Case("single_concat_publisher", lambda n: Single.concat(Flowable.range(0, n).map(Single.just)), failed=lambda: Single.concat(Flowable.just(Single.error(ERR())))),
    Case("single_concat_array", lambda n: Single.concat_array(*[Single.just(i) for i in range(n)]), max_elements=1000, failed=lambda: Single.concat_array(Single.error(ERR()), Single.just(1))),
    Case("single_concat_array_eager", lambda n: Single.concat_array_eager(*[Single.just(i) for i in range(n)]), max_elements=1000, failed=lambda: Single.concat_array_eager(Single.just(1), Single.error(ERR()))),
    Case("single_concat_eager", lambda n: Single.concat_eager(Flowable.range(0, n).map(Single.just)), failed=lambda: Single.concat_eager(Flowable.just(Single.error(ERR())))),
    Case("single_concat_with", lambda n: Single.just(0).concat_with(Single.just(1)).take(n), max_elements=2, failed=lambda: Single.error(ERR()).concat_with(Single.just(1))),
    Case("single_merge", lambda n: Single.merge([Single.just(i) for i in range(n)]), max_elements=1000, failed=lambda: Single.merge([Single.just(1), Single.error(ERR())])),
    Case("single_merge_publisher", lambda n: Single.merge(Flowable.range(0, n).map(Single.just)), max_elements=1000, failed=lambda: Single.merge(Flowable.just(Single.error(ERR())))),
    Case("single_merge_async", lambda n: Single.merge([Single.just(i).subscribe_on(Schedulers.computation()) for i in range(n)]), max_elements=1000, asynchronous=True, failed=lambda: Single.merge([Single.error(ERR()).subscribe_on(Schedulers.computation())])),
    single("single_merge_single", Single.merge, source=lambda: Single.just(Single.just(7)), failed=lambda: Single.just(Single.error(ERR()))),
    Case("single_merge_delay_error", lambda n: Single.merge_delay_error([Single.just(i) for i in range(n)]), max_elements=1000, failed=lambda: Single.merge_delay_error([Single.error(ERR()), Single.error(ERR())])),
    Case("single_merge_with", lambda n: Single.just(0).merge_with(Single.just(1)).take(n), max_elements=2, failed=lambda: Single.just(0).merge_with(Single.error(ERR()))),
    maybe("maybe_amb", lambda m: Maybe.amb([m, Maybe.never()])),
    maybe("maybe_amb_array", lambda m: Maybe.amb_array(Maybe.never(), m)),
    maybe("maybe_amb_with", lambda m: m.amb_with(Maybe.never())),
    Case("maybe_concat", lambda n: Maybe.concat([Maybe.just(i) for i in range(n)] + [Maybe.empty()]), max_elements=1000, failed=lambda: Maybe.concat([Maybe.error(ERR()), Maybe.just(1)])),
    Case("maybe_concat_publisher", lambda n: Maybe.concat(Flowable.range(0, n).map(Maybe.just)), failed=lambda: Maybe.concat(Flowable.just(Maybe.error(ERR())))),
    Case("maybe_concat_async", lambda n: Maybe.concat([Maybe.just(i).subscribe_on(Schedulers.computation()) for i in range(n)]), max_elements=1000, asynchronous=True, failed=lambda: Maybe.concat([Maybe.error(ERR()).subscribe_on(Schedulers.computation())])),
    Case("maybe_concat_array", lambda n: Maybe.concat_array(*[Maybe.just(i) for i in range(n)], Maybe.empty()), max_elements=1000, failed=lambda: Maybe.concat_array(Maybe.error(ERR()), Maybe.just(1))),
    Case("maybe_concat_array_delay_error", lambda n: Maybe.concat_array_delay_error(*[Maybe.just(i) for i in range(n)], Maybe.empty()), max_elements=1000, failed=lambda: Maybe.concat_array_delay_error(Maybe.error(ERR()), Maybe.empty())),
    Case("maybe_concat_array_eager", lambda n: Maybe.concat_array_eager(*[Maybe.just(i) for i in range(n)], Maybe.empty()), max_elements=1000, failed=lambda: Maybe.concat_array_eager(Maybe.empty(), Maybe.error(ERR()))),
    Case("maybe_concat_delay_error", lambda n: Maybe.concat_delay_error(Flowable.range(0, n).map(Maybe.just)), failed=lambda: Maybe.concat_delay_error([Maybe.error(ERR()), Maybe.empty()])),
    Case("maybe_concat_eager", lambda n: Maybe.concat_eager(Flowable.range(0, n).map(Maybe.just)), failed=lambda: Maybe.concat_eager([Maybe.empty(), Maybe.error(ERR())])),
    Case("maybe_concat_with", lambda n: (Maybe.just(0) if n > 0 else Maybe.empty()).concat_with(Maybe.just(1) if n > 1 else Maybe.empty()), max_elements=2, failed=lambda: Maybe.error(ERR()).concat_with(Maybe.just(1))),
    Case("maybe_merge", lambda n: Maybe.merge([Maybe.just(i) for i in range(n)] + [Maybe.empty()]), max_elements=1000, failed=lambda: Maybe.merge([Maybe.just(1), Maybe.error(ERR())])),
    Case("maybe_merge_publisher", lambda n: Maybe.merge(Flowable.range(0, n).map(Maybe.just), max_concurrency=4), failed=lambda: Maybe.merge(Flowable.just(Maybe.error(ERR())))),
    maybe("maybe_merge_maybe", Maybe.merge, source=lambda n: Maybe.just(Maybe.just(7) if n else Maybe.empty()), failed=lambda: Maybe.just(Maybe.error(ERR()))),
    Case("maybe_merge_array", lambda n: Maybe.merge_array(*[Maybe.just(i) for i in range(n)], Maybe.empty()), max_elements=1000, failed=lambda: Maybe.merge_array(Maybe.just(1), Maybe.error(ERR()))),
    Case("maybe_merge_array_async", lambda n: Maybe.merge_array(*[Maybe.just(i).subscribe_on(Schedulers.computation()) for i in range(n)], Maybe.empty()), max_elements=1000, asynchronous=True, failed=lambda: Maybe.merge_array(Maybe.never(), Maybe.error(ERR()).subscribe_on(Schedulers.computation()))),
    Case("maybe_merge_array_delay_error", lambda n: Maybe.merge_array_delay_error(*[Maybe.just(i) for i in range(n)], Maybe.empty()), max_elements=1000, failed=lambda: Maybe.merge_array_delay_error(Maybe.error(ERR()), Maybe.empty())),
    Case("maybe_merge_delay_error", lambda n: Maybe.merge_delay_error(Flowable.range(0, n).map(Maybe.just)), max_elements=1000, failed=lambda: Maybe.merge_delay_error([Maybe.error(ERR()), Maybe.empty()])),
    Case("maybe_merge_with", lambda n: (Maybe.just(0) if n > 0 else Maybe.empty()).merge_with(Maybe.just(1) if n > 1 else Maybe.empty()), max_elements=2, failed=lambda: Maybe.just(0).merge_with(Maybe.error(ERR()))),
    completable("completable_merge_array_delay_error", lambda c: Completable.merge_array_delay_error(c, Completable.complete())),
    completable("completable_merge_delay_error", lambda c: Completable.merge_delay_error([Completable.complete(), c])),
    completable("completable_merge_delay_error_publisher", lambda c: Completable.merge_delay_error(Flowable.just(c, Completable.complete()), max_concurrency=1)),
    completable("completable_concat_publisher", lambda c: Completable.concat(Flowable.just(Completable.complete(), c))),
    completable("completable_merge_publisher", lambda c: Completable.merge(Flowable.just(c, Completable.complete()), max_concurrency=1)),
    completable("completable_start_with", lambda c: c.start_with(Completable.complete())),
    Case("completable_start_with_publisher", lambda n: Completable.complete().start_with(Flowable.range(0, n)), failed=lambda: Completable.error(ERR()).start_with(Flowable.empty())),
    # ---- end concat / merge / amb
    # ---- issue 17: Flowable catalogue (one line per publisher; keep inside this block)
    op("of_type", lambda f: f.of_type(int)),
    op("cast", lambda f: f.cast(int)),
    op("sorted", lambda f: f.sorted(reverse=True), max_elements=4096),
    to_single("to_map", lambda f: f.to_map(same)),
    to_single("to_multimap", lambda f: f.to_multimap(lambda x: x % 3)),
    to_single("collect_into", lambda f: f.collect_into([], list.append)),
    op("zip_array", lambda f, n: Flowable.zip_array(add, f, src(n))),
    op("switch_on_next", lambda f: Flowable.switch_on_next(Flowable.just(f))),
    op("switch_on_next_delay_error", lambda f: Flowable.switch_on_next_delay_error(Flowable.just(f))),
    op("retry_until_passthrough", lambda f: f.retry_until(lambda: True)),
    op("on_exception_resume_next_passthrough", lambda f: f.on_exception_resume_next(Flowable.just(-1)),
       failed=lambda f: f.on_exception_resume_next(failing())),
    op("using", lambda f: Flowable.using(lambda: 1, lambda r: f, noop)),
    op("using_lazy", lambda f: Flowable.using(lambda: 1, lambda r: f, noop, eager=False)),
    op("retry_when_passthrough", lambda f: f.retry_when(lambda errors: errors),
       failed=lambda f: f.retry_when(lambda errors: errors.flat_map(Flowable.error))),
    Case("retry_when", lambda n: Flowable.defer(lambda: _fail_once_then(n).retry_when(lambda e: e)),
         failed=lambda: failing().retry_when(lambda e: e.flat_map(Flowable.error))),
    Case("repeat_when", lambda n: _repeat_when_case(n), failed=lambda: failing().repeat_when(lambda c: c)),
    # ---- end Flowable catalogue
    # ---- issue 17: mixed maps (one line per publisher; keep inside this block)
    op("concat_map_single", lambda f: f.concat_map_single(Single.just)),
    op("concat_map_single_prefetch", lambda f: f.concat_map_single(lambda x: Single.just(x).hide(), prefetch=5)),
    op("concat_map_single_delay_error", lambda f: f.concat_map_single_delay_error(Single.just)),
    op("concat_map_single_delay_error_boundary", lambda f: f.concat_map_single_delay_error(Single.just, False)),
    op("concat_map_maybe", lambda f: f.concat_map_maybe(Maybe.just)),
    op("concat_map_maybe_empties", lambda f: f.concat_map_maybe(lambda x: Maybe.just(x // 2) if x % 2 == 0 else Maybe.empty()),
       size=lambda n: 2 * n),
    op("concat_map_maybe_delay_error", lambda f: f.concat_map_maybe_delay_error(Maybe.just)),
    op("concat_map_maybe_delay_error_boundary", lambda f: f.concat_map_maybe_delay_error(Maybe.just, False, 3)),
    op("concat_map_completable", lambda f: f.concat_map_completable(lambda x: Completable.complete()).to_flowable(),
       size=lambda n: 5, max_elements=0),
    op("concat_map_completable_delay_error",
       lambda f: f.concat_map_completable_delay_error(lambda x: Completable.complete()).to_flowable(),
       size=lambda n: 5, max_elements=0),
    op("concat_map_completable_delay_error_boundary",
       lambda f: f.concat_map_completable_delay_error(lambda x: Completable.complete(), False).to_flowable(),
       size=lambda n: 5, max_elements=0),
    op("switch_map_single", lambda f: f.switch_map_single(Single.just), max_elements=1,
       notes="switch_map_single asks its upstream for everything and keeps only the latest success: "
             "a stream of n items under bounded demand has one item, the last."),
    op("switch_map_single_delay_error", lambda f: f.switch_map_single_delay_error(Single.just), max_elements=1,
       notes="switch_map_single keeps only the latest success (see switch_map_single)."),
    op("switch_map_maybe", lambda f: f.switch_map_maybe(Maybe.just), max_elements=1,
       notes="switch_map_maybe keeps only the latest success (see switch_map_single)."),
    op("switch_map_maybe_delay_error", lambda f: f.switch_map_maybe_delay_error(Maybe.just), max_elements=1,
       notes="switch_map_maybe keeps only the latest success (see switch_map_single)."),
    op("switch_map_completable", lambda f: f.switch_map_completable(lambda x: Completable.complete()).to_flowable(),
       size=lambda n: 5, max_elements=0),
    op("switch_map_completable_delay_error",
       lambda f: f.switch_map_completable_delay_error(lambda x: Completable.complete()).to_flowable(),
       size=lambda n: 5, max_elements=0),
    # ---- end mixed maps
    # ---- issue 17: join and misc (one line per publisher; keep inside this block)
    op("join", lambda f: f.join(Flowable.just(0), lambda x: Flowable.never(), lambda x: Flowable.never(),
                                lambda a, b: a).on_backpressure_buffer(),
       max_elements=10_000, notes="join ignores demand (MissingBackpressureException): buffered after it."),
    op("group_join", lambda f: f.group_join(Flowable.just(0), lambda x: Flowable.never(),
                                            lambda x: Flowable.empty(), lambda a, g: a).on_backpressure_buffer(),
       max_elements=10_000, notes="group_join ignores demand (MissingBackpressureException): buffered after it."),
    Case("concat_array_eager", lambda n: Flowable.concat_array_eager(*halves(n)),
         failed=lambda: Flowable.concat_array_eager(failing(), src(3))),
    Case("concat_array_eager_async", lambda n: Flowable.concat_array_eager(*halves(n, async_src)),
         failed=lambda: Flowable.concat_array_eager(async_failing(), src(3)), asynchronous=True),
    Case("concat_array_eager_delay_error", lambda n: Flowable.concat_array_eager_delay_error(*halves(n), max_concurrency=1),
         failed=lambda: Flowable.concat_array_eager_delay_error(Flowable.empty(), failing())),
    Case("unsafe_create", lambda n: Flowable.unsafe_create(src(n).subscribe),
         failed=lambda: Flowable.unsafe_create(failing().subscribe)),
    op("retry_bi_predicate_passthrough", lambda f: f.retry(bi_predicate=lambda a, e: a < 3)),
    Case("retry_bi_predicate", lambda n: Flowable.defer(lambda: _fail_once_then(n).retry(bi_predicate=lambda a, e: True)),
         failed=lambda: failing().retry(bi_predicate=lambda a, e: a < 3)),
    op("distinct_collection_factory", lambda f: f.distinct(collection_factory=set)),
    op("distinct_collection_factory_list", lambda f: f.distinct(lambda x: x, collection_factory=list),
       max_elements=2048, notes="a list as the seen collection: quadratic, so fewer items."),
    # ---- end join and misc
    # ---- issue 17: multicast processor (one line per publisher; keep inside this block)
    # ---- end multicast processor
    # ---- issue 17: parallel (one line per publisher; keep inside this block)
    op("par17_from", lambda f: __import__("rxpy2").ParallelFlowable.from_(f, 2).sequential()),
    op("par17_from_array", lambda f: __import__("rxpy2").ParallelFlowable.from_array(f).sequential()),
    op("par17_map_skip", lambda f: f.parallel(2).map(
        inc, error_handling=__import__("rxpy2").ParallelFailureHandling.SKIP).sequential()),
    op("par17_map_retry_handler", lambda f: f.parallel(3).map(
        inc, error_handling=lambda n, e: __import__("rxpy2").ParallelFailureHandling.RETRY).sequential()),
    op("par17_filter_skip", lambda f: f.parallel(2).filter(
        even, error_handling=__import__("rxpy2").ParallelFailureHandling.SKIP).sequential(),
       size=lambda n: 2 * n),
    op("par17_do_on_next_stop", lambda f: f.parallel(2).do_on_next(
        inc, error_handling=__import__("rxpy2").ParallelFailureHandling.STOP).sequential()),
    op("par17_concat_map", lambda f: f.parallel(2).concat_map(lambda x: Flowable.just(x).hide()).sequential()),
    op("par17_concat_map_delay_error",
       lambda f: f.parallel(2).concat_map_delay_error(lambda x: Flowable.just(x).hide(), prefetch=3).sequential()),
    op("par17_concat_map_delay_error_boundary",
       lambda f: f.parallel(2).concat_map_delay_error(lambda x: Flowable.just(x).hide(),
                                                      till_the_end=False).sequential()),
    op("par17_do_after_next", lambda f: f.parallel(2).do_after_next(inc).sequential()),
    op("par17_do_on_error", lambda f: f.parallel(2).do_on_error(lambda e: None).sequential()),
    op("par17_do_on_complete", lambda f: f.parallel(2).do_on_complete(lambda: None).sequential()),
    op("par17_do_after_terminated", lambda f: f.parallel(2).do_after_terminated(lambda: None).sequential()),
    op("par17_do_on_subscribe", lambda f: f.parallel(2).do_on_subscribe(lambda s: None).sequential()),
    op("par17_do_on_request", lambda f: f.parallel(2).do_on_request(lambda n: None).sequential()),
    op("par17_do_on_cancel", lambda f: f.parallel(2).do_on_cancel(lambda: None).sequential()),
    op("par17_compose", lambda f: f.parallel(2).compose(lambda p: p.map(inc)).sequential()),
    op("par17_to", lambda f: f.parallel(2).to(lambda p: p.sequential())),
    # ---- end parallel
    # ---- issue 17: boundary overloads (one line per publisher; keep inside this block)
    op("bnd_buffer_factory", lambda f: f.buffer(2, buffer_factory=list), size=lambda n: 2 * n),
    op("bnd_buffer_factory_skip", lambda f: f.buffer(2, 3, buffer_factory=list), size=lambda n: 3 * n),
    op("bnd_buffer_boundary_never", lambda f: f.buffer(Flowable.never()).flat_map_iterable(same),
       max_elements=10_000, notes="buffer(boundary) requests its source without bound: 2**31-1 items do not fit."),
    op("bnd_buffer_selectors", lambda f: f.buffer(openings=Flowable.just(0),
                                                  closing_selector=lambda _: Flowable.never())
       .flat_map_iterable(same), max_elements=10_000,
       notes="buffer(openings=, closing_selector=) requests its source without bound: 2**31-1 items do not fit."),
    op("bnd_buffer_time_skip", lambda f: f.buffer_time(60, timeskip=120).flat_map_iterable(same),
       max_elements=10_000, notes="buffer_time requests its source without bound: 2**31-1 items do not fit."),
    op("bnd_buffer_time_restart", lambda f: f.buffer_time(60, count=2, restart_timer_on_max_size=True)
       .on_backpressure_buffer().flat_map_iterable(same), max_elements=10_000,
       notes="buffer_time requests its source without bound (lists need demand: buffered after it)."),
    op("bnd_window_selectors", lambda f: f.window(openings=Flowable.just(0),
                                                  closing_selector=lambda _: Flowable.never())
       .flat_map(same), max_elements=10_000,
       notes="window(openings=, closing_selector=) requests its source without bound: 2**31-1 items do not fit."),
    op("bnd_buffer_supplier_never", lambda f: f.buffer(Flowable.never).flat_map_iterable(same),
       max_elements=10_000, notes="buffer(boundary_supplier) requests its source without bound: 2**31-1 items do not fit."),
    op("bnd_window_supplier_never", lambda f: f.window(Flowable.never).flat_map(same), max_elements=10_000,
       notes="window(boundary_supplier) requests its source without bound (windows buffer): 2**31-1 items do not fit."),
    op("bnd_sample_publisher_emit_last", lambda f: f.sample(Flowable.never(), emit_last=True)
       .on_backpressure_buffer(), max_elements=1,
       notes="sample(sampler) keeps one item (the last, at completion); it ignores demand: buffered after it."),
    # ---- end boundary overloads
    # ---- issue 17: selector overloads (one line per publisher; keep inside this block)
    op("sel_timeout_item", lambda f: f.timeout(item_timeout=lambda x: Flowable.never())),
    op("sel_timeout_first", lambda f: f.timeout(item_timeout=lambda x: Flowable.never(),
                                                first_timeout=Flowable.never())),
    op("sel_timeout_fallback", lambda f: f.timeout(item_timeout=lambda x: Flowable.never(),
                                                   fallback=Flowable.empty())),
    op("sel_debounce", lambda f: f.debounce(lambda x: Flowable.empty()).on_backpressure_buffer(),
       max_elements=10_000, notes="debounce ignores demand (an indicator decides): buffered after it."),
    op("sel_delay", lambda f: f.delay(lambda x: Flowable.empty())),
    op("sel_delay_subscription", lambda f: f.delay_subscription(Flowable.just(0))),
    op("sel_delay_both", lambda f: f.delay(lambda x: Flowable.just(0), subscription_delay=Flowable.empty())),
    op("sel_replay_selector", lambda f: f.replay(selector=lambda g: g), max_elements=1024),
    op("sel_replay_selector_size", lambda f: f.replay(2, selector=lambda g: g), max_elements=1024),
    op("sel_replay_selector_time", lambda f: f.replay(time=60, selector=lambda g: g), max_elements=1024),
    op("sel_replay_selector_size_time", lambda f: f.replay(5, 60, selector=lambda g: g),
       max_elements=1024),
    op("sel_replay_selector_observe_on", lambda f: f.replay(scheduler=Schedulers.computation(),
                                                            selector=lambda g: g), max_elements=1024),
    op("sel_replay_time_auto_connect", lambda f: f.replay(time=60).auto_connect(), max_elements=1024),
    op("sel_replay_observe_on_auto_connect",
       lambda f: f.replay(3, scheduler=Schedulers.computation()).auto_connect(), max_elements=1024),
    op("sel_publish_selector", lambda f: f.publish(selector=lambda g: g)),
    op("sel_publish_selector_zip", lambda f: f.publish(4, selector=lambda g: g.zip_with(g, lambda a, b: a))),
    op("sel_group_by_evicting", lambda f: f.group_by(lambda x: x % 3, map_factory=lambda ev: {})
       .flat_map(same)),
    # ---- end selector overloads
]


def _flatten(entries: list[Case | list[Case]]) -> list[Case]:
    out: list[Case] = []
    for e in entries:
        out.extend(e if isinstance(e, list) else [e])
    names = [c.name for c in out]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"duplicate case names: {duplicates}")
    return out


#: Every case, flattened from :data:`REGISTRY`.
CASES: list[Case] = _flatten(REGISTRY)
