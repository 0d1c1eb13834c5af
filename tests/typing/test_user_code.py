"""What a user's type checker sees: user-style code with ``assert_type`` on each result.

Checked by ``.venv/bin/mypy --strict tests/typing/`` and by ``.venv/bin/pyright
tests/typing/`` (strict, from ``[tool.pyright]``; both in ``.ci/run``): a public signature
that widens to ``Any`` (or narrows to ``Never``, or leaves pyright an Unknown) fails those
runs, since ``assert_type`` compares the inferred type exactly. A line with
``# type: ignore[...]`` is a negative check: both checkers fail when it stops being an
error (mypy's ``warn_unused_ignores``, pyright's ``reportUnnecessaryTypeIgnoreComment``). At run time ``assert_type`` returns its argument,
so pytest runs the non-Spark examples once (``test_the_examples_run``) to show the code
is real; the Spark ones are only type-checked (they need a SparkSession).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable
from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any
from typing import assert_type

from rxpy2 import AsyncProcessor
from rxpy2 import BackpressureStrategy
from rxpy2 import BehaviorProcessor
from rxpy2 import Completable
from rxpy2 import Disposable
from rxpy2 import Emitter
from rxpy2 import Flowable
from rxpy2 import FlowableEmitter
from rxpy2 import GroupedFlowable
from rxpy2 import Maybe
from rxpy2 import MulticastProcessor
from rxpy2 import PublishProcessor
from rxpy2 import ReplayProcessor
from rxpy2 import Schedulers
from rxpy2 import Single
from rxpy2 import TestObserver
from rxpy2 import TestSubscriber
from rxpy2 import UnicastProcessor
from rxpy2 import plugins
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.spark import SparkFlowable
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd
from rxpy2.testing import MarbleScheduler
from rxpy2.testing import StepVerifier
from rxpy2.testing import TestPublisher
from rxpy2.testing.marbles import ColdFlowable
from rxpy2.testing.marbles import HotFlowable

if TYPE_CHECKING:
    from pyspark.sql import Column
    from pyspark.sql import Row


def core_chain() -> None:
    f = Flowable.range(1, 10)
    assert_type(f, Flowable[int])
    s = f.map(lambda x: str(x)).filter(lambda s: s != "3")
    assert_type(s, Flowable[str])
    assert_type(f.flat_map(lambda x: Flowable.just(x, x)), Flowable[int])
    assert_type(f.concat_map(lambda x: Flowable.just(float(x))), Flowable[float])
    assert_type(f.buffer(3), Flowable[list[int]])
    assert_type(f.take(3).skip(1), Flowable[int])
    assert_type(f.observe_on(Schedulers.single()).subscribe_on(Schedulers.io()), Flowable[int])
    assert_type(f.to_list(), Single[list[int]])
    assert_type(f.count(), Single[int])
    assert_type(f.first_element(), Maybe[int])
    assert_type(f.first_or_error(), Single[int])
    assert_type(f.ignore_elements(), Completable)
    assert_type(f.collect(list[int], lambda acc, x: acc.append(x)), Single[list[int]])
    assert_type(f.subscribe(lambda x: None), Disposable)
    assert_type(f.test(), TestSubscriber[int])
    assert_type(f.first_or_error().test(), TestObserver[int])
    assert_type(f.first_element().test(), TestObserver[int])
    assert_type(f.to_list().test(), TestObserver[list[int]])
    assert_type(f.first_element().test().values(), list[int])
    assert_type(f.ignore_elements().test(), TestObserver[Any])
    assert_type(f.to_list().blocking_get(), list[int])
    assert_type(f.first_element().blocking_get(), int | None)
    assert_type(f.first_element().blocking_get(0), int)
    p: PublishProcessor[str] = PublishProcessor.create()
    assert_type(p.map(len), Flowable[int])
    assert_type(f.concat_with(Single.just(1)), Flowable[int])
    assert_type(f.merge_with(Maybe.just(2)), Flowable[int])
    assert_type(f.concat_with(Completable.complete()), Flowable[int])
    assert_type(f.publish().ref_count(2, 0.5), Flowable[int])


def iteration() -> None:
    f = Flowable.just("a", "b")
    for x in f:
        assert_type(x, str)
    assert_type(list(f), list[str])
    assert_type(f.blocking_iterable(), Iterable[str])
    assert_type(f.blocking_first(), str)
    assert_type(f.blocking_first(None), str | None)
    assert_type(f.blocking_last(), str)
    assert_type(f.blocking_last(0), str | int)
    assert_type(Flowable.just(1).blocking_single(), int)
    assert_type(f.blocking_latest(), Iterable[str])
    assert_type(f.blocking_next(), Iterable[str])
    assert_type(f.blocking_most_recent("z"), Iterable[str])


async def async_iteration() -> list[int]:
    f = Flowable.range(0, 3)
    assert_type(f.to_async_iterable(), AsyncIterable[int])
    out: list[int] = []
    async for x in f:
        assert_type(x, int)
        out.append(x)
    async for y in f.to_async_iterable(prefetch=2):
        assert_type(y, int)
    return out


async def awaiting() -> tuple[int, str | None, None]:
    x: int = await Single.just(1)
    assert_type(await Single.just("s"), str)
    y = await Maybe.just("m")
    assert_type(y, str | None)
    nothing: Maybe[int] = Maybe.empty()
    assert_type(await nothing.map(str), str | None)
    await Completable.complete()
    assert_type(await Completable.complete(), None)
    z = None

    async def five() -> int:
        return 5

    s = Single.from_awaitable(five())
    assert_type(s, Single[int])
    assert_type(await s, int)
    assert_type(Flowable.from_async_iterable(Flowable.range(0, 2)), Flowable[int])
    return x, y, z


def piping_and_logging() -> None:
    # operator functions as RxPY users write them; mypy infers a lambda's result exactly
    # in the first position (a later lambda's may come out Any: mypy's limit, not pipe's)
    def to_text(g: Flowable[int]) -> Flowable[str]:
        return g.map(str)

    def collect(g: Flowable[str]) -> Single[list[str]]:
        return g.to_list()

    def get(s: Single[list[str]]) -> list[str]:
        return s.blocking_get()

    def floats(g: Flowable[Any]) -> Flowable[float]:
        return g.map(float)

    f = Flowable.range(1, 3)
    assert_type(f.pipe(), Flowable[int])
    assert_type(f.pipe(lambda g: g.map(str)), Flowable[str])
    assert_type(f.pipe(to_text), Flowable[str])
    assert_type(f.pipe(to_text, collect), Single[list[str]])
    assert_type(f.pipe(to_text, collect, get), list[str])
    assert_type(f.pipe(to_text, collect, get, len), int)
    assert_type(f.pipe(to_text, collect, get, len, str), str)
    assert_type(f.pipe(to_text, collect, get, len, str, bool), bool)
    assert_type(Single.just(1).pipe(lambda s: s.map(str)), Single[str])
    def as_flowable(s: Single[int]) -> Flowable[int]:
        return s.to_flowable()

    assert_type(Single.just(1).pipe(as_flowable, floats), Flowable[float])
    assert_type(Maybe.just(1).pipe(), Maybe[int])
    assert_type(Completable.complete().pipe(lambda c: c.to_single_default("d")), Single[str])
    assert_type(f.log(), Flowable[int])
    assert_type(f.log("app.flow", logging.DEBUG), Flowable[int])
    assert_type(Single.just(1).log(logging.getLogger("x")), Single[int])
    assert_type(Maybe.just("a").log(level="DEBUG"), Maybe[str])
    assert_type(Completable.complete().log(), Completable)
    assert_type(f.checkpoint(), Flowable[int])
    assert_type(f.map(str).checkpoint("parse"), Flowable[str])
    assert_type(Single.just(1).checkpoint("one"), Single[int])
    assert_type(Maybe.just("a").checkpoint(), Maybe[str])
    assert_type(Completable.complete().checkpoint(description="done"), Completable)
    assert_type(f.parallel(2).checkpoint("rails").sequential(), Flowable[int])
    assert_type(plugins.set_assembly_tracking(True), None)
    assert_type(plugins.is_assembly_tracking_enabled(), bool)
    plugins.set_assembly_tracking(False)


def accumulating() -> None:
    f = Flowable.range(1, 4)
    assert_type(f.reduce(lambda a, b: a + b), Maybe[int])
    assert_type(f.reduce(lambda acc, x: acc + str(x), ""), Single[str])
    assert_type(f.scan(lambda a, b: a + b), Flowable[int])
    assert_type(f.scan(lambda acc, x: acc + [x], list[int]()), Flowable[list[int]])
    assert_type(f.reduce_with(lambda: 0.5, lambda acc, x: acc * x), Single[float])


def combining() -> None:
    a = Flowable.range(1, 3)
    b = Flowable.just("x", "y", "z")
    c = Flowable.just(1.5, 2.5, 3.5)
    d = Flowable.just(True, False, True)
    assert_type(Flowable.zip(a, b), Flowable[tuple[int, str]])
    assert_type(Flowable.zip(a, b, c), Flowable[tuple[int, str, float]])
    assert_type(Flowable.zip(a, b, c, d), Flowable[tuple[int, str, float, bool]])
    assert_type(Flowable.zip(a, b, zipper=lambda i, s: f"{s}{i}"), Flowable[str])
    assert_type(Flowable.zip(a, b, c, zipper=lambda i, s, x: x), Flowable[float])

    def label(i: int, s: str, x: float) -> str:
        return s * i + str(x)

    assert_type(Flowable.zip(a, b, c, zipper=label), Flowable[str])
    assert_type(Flowable.zip(a, zipper=lambda i: [i]), Flowable[list[int]])
    assert_type(Flowable.zip(a, b, c, d, a, zipper=lambda *v: len(v)), Flowable[int])
    assert_type(Flowable.zip(a, b, c, d, zipper=lambda i, s, x, t: t), Flowable[bool])
    assert_type(Flowable.zip(a, b, c, d, a), Flowable[tuple[Any, ...]])
    assert_type(a.zip_with(b), Flowable[tuple[int, str]])
    assert_type(a.zip_with(["p", "q"]), Flowable[tuple[int, str]])
    assert_type(a.zip_with(c, lambda i, x: i + x), Flowable[float])
    assert_type(Flowable.combine_latest(a, b), Flowable[tuple[int, str]])
    assert_type(Flowable.combine_latest(a, b, c), Flowable[tuple[int, str, float]])
    assert_type(Flowable.combine_latest(a, b, c, d), Flowable[tuple[int, str, float, bool]])
    assert_type(Flowable.combine_latest(a, b, combiner=lambda i, s: f"{s}{i}"), Flowable[str])
    assert_type(Flowable.combine_latest_delay_error(a, b, c), Flowable[tuple[int, str, float]])
    assert_type(a.with_latest_from(b), Flowable[tuple[int, str]])
    assert_type(a.with_latest_from(b, combiner=lambda i, s: f"{i}{s}"), Flowable[str])
    assert_type(a.with_latest_from(b, c, combiner=lambda i, s, x: str(x)), Flowable[str])
    assert_type(a.with_latest_from(b, c), Flowable[tuple[Any, ...]])


def zero_one() -> None:
    f = Flowable.range(1, 3)
    assert_type(f.element_at(1), Maybe[int])
    assert_type(f.element_at(5, 0), Single[int])
    assert_type(f.first(0), Single[int])
    m = f.first_element()
    assert_type(m.switch_if_empty(Single.just(0)), Single[int])
    assert_type(m.switch_if_empty(Maybe.just(0)), Maybe[int])
    done = f.ignore_elements()
    assert_type(done.and_then(Single.just("s")), Single[str])
    assert_type(done.and_then(Maybe.just(1.5)), Maybe[float])
    assert_type(done.and_then(f), Flowable[int])
    assert_type(done.and_then(Completable.complete()), Completable)
    assert_type(Single.just(2).blocking_get(), int)
    assert_type(Single.zip(Single.just(1), Single.just("s"), lambda i, s: (i, s)),
                Single[tuple[int, str]])
    assert_type(Maybe.zip(Maybe.just(1), Maybe.just("s"), lambda i, s: (s, i)),
                Maybe[tuple[str, int]])



def zero_one_shared() -> None:
    """The methods Single, Maybe and Completable share keep each type's own types."""
    s, m, c = Single.just(1), Maybe.just("a"), Completable.complete()
    trampoline = Schedulers.trampoline()
    assert_type(s.hide().subscribe_on(trampoline).observe_on(trampoline), Single[int])
    assert_type(m.cache().do_finally(lambda: None).timeout(1.0), Maybe[str])
    assert_type(c.on_terminate_detach().amb_with(Completable.never()), Completable)
    assert_type(s.retry(2).on_error_resume_next(Single.just(0)), Single[int])
    assert_type(m.do_on_error(print).take_until(c), Maybe[str])
    assert_type(s.compose(lambda x: x.map(str)), Single[str])
    assert_type(m.compose(lambda x: x.map(len)), Maybe[int])
    assert_type(c.compose(lambda x: x.hide()), Completable)
    assert_type(s.to(lambda x: [x]), list[Single[int]])
    assert_type(c.delay_subscription(0.0, trampoline).blocking_get(), BaseException | None)
    assert_type(s.blocking_get(), int)
    assert_type(m.blocking_get(), str | None)
    assert_type(s.do_on_success(print).on_error_return_item(0), Single[int])
    assert_type(m.do_on_event(lambda v, e: None).on_error_return(str), Maybe[str])
    assert_type(s.repeat(2), Flowable[int])
    assert_type(m.flatten_as_flowable(list), Flowable[str])
    assert_type(s.ignore_element(), Completable)

def rxjava_call_forms() -> None:
    """RxJava 2's call forms that rxpy2 takes besides its own keep exact types."""
    a = Flowable.range(1, 3)
    b = Flowable.just(4, 5)
    x = Flowable.just("x", "y")
    c = Flowable.just(1.5, 2.5)
    d = Flowable.just(True, False)
    assert_type(Flowable.merge(a, b), Flowable[int])
    assert_type(Flowable.merge(a, b, a, b), Flowable[int])
    assert_type(Flowable.merge([a, b], 2), Flowable[int])
    assert_type(Flowable.merge(Flowable.just(a, b)), Flowable[int])
    assert_type(Flowable.concat(a, b), Flowable[int])
    assert_type(Flowable.concat(a, b, a), Flowable[int])
    assert_type(Flowable.merge_delay_error(a, b), Flowable[int])
    assert_type(Flowable.concat_delay_error(a, b), Flowable[int])
    s1, s2 = Single.just(1), Single.just(2)
    assert_type(Single.merge(s1, s2), Flowable[int])
    assert_type(Single.merge(Single.just(s1)), Single[int])
    assert_type(Single.concat(s1, s2, s1), Flowable[int])
    assert_type(Single.merge_delay_error(s1, s2), Flowable[int])
    m1, m2 = Maybe.just("a"), Maybe.just("b")
    assert_type(Maybe.merge(m1, m2), Flowable[str])
    assert_type(Maybe.concat(m1, m2), Flowable[str])
    assert_type(Maybe.merge_delay_error(m1, m2), Flowable[str])
    assert_type(Maybe.concat_delay_error(m1, m2), Flowable[str])
    assert_type(Single.zip(s1, Single.just("s"), Single.just(0.5), lambda i, s, f: (s, f)),
                Single[tuple[str, float]])
    assert_type(Single.zip(s1, s2, s1, s2, lambda a, b, c, d: str(a)), Single[str])
    assert_type(Single.zip(s1, s2, s1, s2, s1, lambda *v: len(v)), Single[int])
    assert_type(Single.zip(s1, s2, zipper=lambda a, b: a * 0.5), Single[float])
    assert_type(Maybe.zip(m1, m2, Maybe.just(1), lambda a, b, i: i), Maybe[int])
    assert_type(Maybe.zip(m1, m2, m1, m2, m1, lambda *v: v), Maybe[tuple[Any, ...]])
    done = Completable.complete()
    assert_type(Completable.merge(done, done), Completable)
    assert_type(Completable.concat(done, done, done), Completable)
    assert_type(Completable.merge_delay_error(done, done), Completable)
    assert_type(Flowable.zip(a, x, lambda i, s: f"{s}{i}"), Flowable[str])
    assert_type(Flowable.zip(a, x, c, lambda i, s, f: f), Flowable[float])
    assert_type(Flowable.zip(a, x, c, d, lambda i, s, f, t: t), Flowable[bool])
    assert_type(Flowable.zip(a, x, c, d, a, lambda *v: len(v)), Flowable[int])
    assert_type(Flowable.zip(a, x, lambda i, s: s, delay_error=True), Flowable[str])
    assert_type(Flowable.combine_latest(a, x, lambda i, s: (s, i)), Flowable[tuple[str, int]])
    assert_type(Flowable.combine_latest(a, x, c, lambda i, s, f: f), Flowable[float])
    assert_type(Flowable.combine_latest(a, x, c, d, a, lambda *v: str(v)), Flowable[str])
    assert_type(Flowable.combine_latest_delay_error(a, x, lambda i, s: s), Flowable[str])
    assert_type(a.with_latest_from(x, lambda i, s: f"{i}{s}"), Flowable[str])
    assert_type(a.with_latest_from(x, c, lambda i, s, f: f), Flowable[float])
    assert_type(a.with_latest_from(x, c, d, lambda i, s, f, t: t), Flowable[bool])
    assert_type(a.with_latest_from(x, c, d, b, lambda *v: len(v)), Flowable[int])
    assert_type(a.reduce(0, lambda acc, i: acc + i), Single[int])
    assert_type(a.reduce("", lambda acc, i: acc + str(i)), Single[str])
    assert_type(a.scan(0.5, lambda acc, i: acc * i), Flowable[float])
    assert_type(a.retry(lambda attempt, error: attempt < 3), Flowable[int])
    assert_type(a.retry(lambda error: isinstance(error, OSError)), Flowable[int])
    assert_type(a.retry(3), Flowable[int])
    assert_type(s1.retry(lambda attempt, error: attempt < 3), Single[int])
    assert_type(m1.retry(lambda error: True), Maybe[str])
    assert_type(done.retry(lambda attempt, error: False), Completable)


def generating() -> None:
    assert_type(Flowable.generate(lambda: 0, lambda s, e: s + 1), Flowable[Any])

    def step(state: int, emitter: Emitter[str]) -> int:
        if state == 3:
            emitter.on_complete()
        else:
            emitter.on_next(str(state))
        return state + 1

    assert_type(Flowable.generate(lambda: 0, step), Flowable[str])


def grouping() -> None:
    f = Flowable.range(1, 6)
    g = f.group_by(lambda x: x % 2 == 0)
    assert_type(g, Flowable[GroupedFlowable[bool, int]])
    h = f.group_by(lambda x: x % 3, lambda x: str(x))
    assert_type(h, Flowable[GroupedFlowable[int, str]])
    assert_type(h.flat_map(lambda grp: grp.to_list().to_flowable()), Flowable[list[str]])


def spark(df: Any, rdd: Any, fmt: str) -> None:  # type-checked only: needs a SparkSession
    assert_type(from_dataframe(df), SparkFlowable[Row])
    assert_type(from_dataframe(df, 2), SparkFlowable[Row])
    assert_type(from_dataframe(df, row_format="row"), SparkFlowable[Row])
    assert_type(from_dataframe(df, row_format="dict"), SparkFlowable[dict[str, Any]])
    assert_type(from_dataframe(df, 1, "dict"), SparkFlowable[dict[str, Any]])
    assert_type(from_dataframe(df, row_format="tuple"), SparkFlowable[tuple[Any, ...]])
    assert_type(from_dataframe(df, emit="partitions"), SparkFlowable[list[Row]])
    assert_type(from_dataframe(df, row_format=fmt), SparkFlowable[Any])
    assert_type(from_dataframe(df, row_format="dict").map(lambda r: r["id"]), Flowable[Any])
    assert_type(from_rdd(rdd), SparkFlowable[Any])
    ints = from_rdd(rdd).map(int)
    assert_type(from_dataframe(df, row_format="tuple").take(5), Flowable[tuple[Any, ...]])
    assert_type(from_dataframe(df).count(), Single[int])
    assert_type(from_dataframe(df, row_format="dict").to_list(max_items=10),
                Single[list[dict[str, Any]]])
    assert_type(from_dataframe(df).distinct(keep_order=False), Flowable[Row])
    t = from_dataframe(df, row_format="tuple")
    assert_type(t.reduce(lambda a, b: a + b), Maybe[tuple[Any, ...]])
    assert_type(t.reduce(lambda acc, r: acc + len(r), 0, associative=True), Single[int])
    assert_type(t.reduce(0, lambda acc, r: acc + len(r)), Single[int])
    assert_type(ints, Flowable[int])
    col: Column = df.amount
    assert_type(from_dataframe(df).map(col), SparkFlowable[Any])
    assert_type(from_dataframe(df).map([col, "id"]), SparkFlowable[Any])
    assert_type(from_dataframe(df, row_format="tuple").filter(col), SparkFlowable[tuple[Any, ...]])
    assert_type(from_dataframe(df, fuse="require"), SparkFlowable[Row])
    assert_type(from_rdd(rdd, fuse="require").map(int), Flowable[int])
    assert_type(from_dataframe(df, emit="arrow"), SparkFlowable[Any])  # pyarrow: no annotations
    from_dataframe(42)  # type: ignore[call-overload]  # a DataFrame, not anything


def factories() -> None:
    """The static factories bind their own item type, whichever class they are called on."""
    assert_type(Flowable.just(1), Flowable[int])
    assert_type(Flowable.just("a", "b"), Flowable[str])
    assert_type(Flowable.from_iterable([1, 2]), Flowable[int])
    assert_type(Flowable.from_array(["a", "b"]), Flowable[str])
    assert_type(Flowable.from_callable(lambda: 1.5), Flowable[float])
    assert_type(Flowable.defer(lambda: Flowable.just(b"x")), Flowable[bytes])
    assert_type(Flowable.merge_array(Flowable.just(1), Flowable.just(2)), Flowable[int])
    assert_type(Single.just("a"), Single[str])
    assert_type(Single.from_callable(lambda: 2), Single[int])
    assert_type(Maybe.just(1.5), Maybe[float])
    assert_type(Maybe.from_callable(lambda: "m"), Maybe[str])
    assert_type(BehaviorProcessor.create_default(3), BehaviorProcessor[int])
    assert_type(StepVerifier.create(Flowable.just("s")), StepVerifier[str])

    # Flowable.create binds the item type of the emitter the source takes
    def emit(emitter: FlowableEmitter[int]) -> None:
        emitter.on_next(1)
        emitter.on_complete()

    assert_type(Flowable.create(emit, BackpressureStrategy.BUFFER), Flowable[int])


def item_type_from_context() -> None:
    """Factories with no item to bind (empty/error/never, the processors, TestPublisher)
    are generic in a free type variable, RxJava 2's ``Flowable.<Integer>empty()``: the
    expected type binds it, and nothing that needs an ``int`` takes them as ``Any``."""
    f = Flowable.range(1, 3)
    assert_type(f.concat_with(Flowable.empty()), Flowable[int])
    assert_type(f.switch_if_empty(Flowable.error(ValueError())), Flowable[int])
    assert_type(f.merge_with(Flowable.never()), Flowable[int])
    e: Flowable[str] = Flowable.empty()
    assert_type(e.map(len), Flowable[int])
    m: Maybe[int] = Maybe.empty()
    assert_type(m.to_single(0), Single[int])
    s: Single[str] = Single.error(ValueError())
    assert_type(s.map(len), Single[int])
    n: Single[bytes] = Single.never()
    assert_type(n.to_flowable(), Flowable[bytes])
    pp: PublishProcessor[int] = PublishProcessor.create()
    assert_type(pp.map(str), Flowable[str])
    bp: BehaviorProcessor[str] = BehaviorProcessor.create()
    assert_type(bp.get_value(), str | None)
    ap: AsyncProcessor[float] = AsyncProcessor.create()
    assert_type(ap.to_list(), Single[list[float]])
    rp: ReplayProcessor[int] = ReplayProcessor.create_with_size(2)
    assert_type(rp.get_values(), list[int])
    up: UnicastProcessor[str] = UnicastProcessor.create()
    assert_type(up.first(""), Single[str])
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    assert_type(mp.count(), Single[int])
    tp: TestPublisher[int] = TestPublisher.create()
    assert_type(tp.next(1, 2), TestPublisher[int])
    # not Any: each is rejected where something else is expected
    wrong_flowable: int = Flowable.empty()  # type: ignore[assignment]
    wrong_processor: int = PublishProcessor.create()  # type: ignore[assignment]
    wrong_publisher: int = TestPublisher.create()  # type: ignore[assignment]
    del wrong_flowable, wrong_processor, wrong_publisher


class Lengths(OperatorSubscriber[str, int]):
    """An operator kit user's subscriber: its downstream takes the output items."""

    def hook_on_next(self, item: str) -> None:
        assert_type(self.downstream, Subscriber[int])
        self.downstream.on_next(len(item))
        self.downstream.on_next(item)  # type: ignore[arg-type]  # an int, not the input


def operator_kit() -> None:
    ts: TestSubscriber[int] = TestSubscriber()
    lengths = Lengths(ts)
    assert_type(lengths.downstream, Subscriber[int])


def test_kit() -> None:
    """StepVerifier's expectations take the items' type."""
    verifier = StepVerifier.create(Flowable.just(1, 2))
    assert_type(verifier.expect_next(1, 2), StepVerifier[int])
    assert_type(verifier.expect_next_sequence([1, 2]), StepVerifier[int])
    verifier.expect_next("1")  # type: ignore[arg-type]  # an int, as the items


def marbles() -> None:
    """cold()/hot() items: the characters, or the values' type."""
    s = MarbleScheduler()
    assert_type(s.cold("-a|"), ColdFlowable[str])
    assert_type(s.cold("-a|", {"a": 1}), ColdFlowable[int])
    assert_type(s.hot("^-a|", {"a": 1.5}), HotFlowable[float])
    assert_type(s.cold("-a|", {"a": 1}).map(str), Flowable[str])
    s.expect_flowable(s.cold("-a|", {"a": 1}).delay(s.frames(1), scheduler=s), "--a|", {"a": 1})


def test_the_examples_run() -> None:
    for example in (core_chain, iteration, accumulating, combining, zero_one, zero_one_shared,
                    generating, grouping, rxjava_call_forms, piping_and_logging, factories,
                    item_type_from_context, test_kit, operator_kit, marbles):
        example()
    assert asyncio.run(async_iteration()) == [0, 1, 2]
    assert asyncio.run(awaiting()) == (1, "m", None)
