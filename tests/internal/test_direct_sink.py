"""DirectSink: a subscriber may offer a function that the serializing drains (flat_map,
observe_on, a fused synchronous chain) call per item in place of its ``on_next``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2 import Schedulers
from rxpy2._internal.fuseable import DirectSink
from rxpy2._internal.fuseable import direct_sink
from rxpy2._internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2.testing import TestSubscriber

CHAINS: dict[str, Callable[[], Flowable[int]]] = {
    "sync chain": lambda: Flowable.range(0, 5).map(lambda x: x * 10),
    "flat_map": lambda: Flowable.range(0, 5).flat_map(lambda x: Flowable.just(x * 10)),
    # the trampoline runs the drain on the subscribing thread: all is over at subscribe's end
    "observe_on": lambda: Flowable.range(0, 5).map(lambda x: x * 10)
    .observe_on(Schedulers.trampoline()),
}


class Offering(TestSubscriber[int], DirectSink[int]):
    """A TestSubscriber that offers a function of its own: the items go there, not to on_next."""

    def __init__(self, fail_at: int | None = None) -> None:
        super().__init__()
        self.direct: list[int] = []
        self.failed: list[Exception] = []
        self.fail_at = fail_at

    def direct_sink(self) -> Callable[[int], object]:
        def sink(x: int) -> None:
            if x == self.fail_at:
                raise ValueError(x)
            self.direct.append(x)
        return sink

    def sink_failed(self, error: Exception) -> None:
        self.failed.append(error)
        self.cancel()
        self.on_error(error)


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_a_subscriber_that_offers_a_function_gets_the_items_through_it(chain: str) -> None:
    ts = Offering()
    CHAINS[chain]().subscribe(ts)
    ts.await_done()
    assert ts.direct == [0, 10, 20, 30, 40]
    ts.assert_no_values().assert_complete()


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_a_raising_function_goes_to_sink_failed_and_the_source_stops(chain: str) -> None:
    ts = Offering(fail_at=20)
    CHAINS[chain]().subscribe(ts)
    ts.await_done()
    assert ts.direct == [0, 10]
    assert [type(e) for e in ts.failed] == [ValueError]
    ts.assert_error(ValueError)


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_a_lambda_subscriber_subclass_with_its_own_on_next_sees_every_item(chain: str) -> None:
    seen: list[Any] = []

    class Counting(LambdaSubscriber[int]):
        def on_next(self, item: int) -> None:
            seen.append(("on_next", item))
            super().on_next(item)

    got: list[int] = []
    CHAINS[chain]().subscribe(Counting(got.append))
    assert got == [0, 10, 20, 30, 40]
    assert seen == [("on_next", x) for x in got]


def test_what_is_offered() -> None:
    f = print
    plain = LambdaSubscriber(f)
    assert direct_sink(plain) == (f, plain.sink_failed)
    assert direct_sink(LambdaSubscriber())[0] is id  # no on_next: a function that does nothing
    assert direct_sink(TestSubscriber()) is None

    class Declining(LambdaSubscriber[int]):
        def direct_sink(self) -> None:
            return None

    assert direct_sink(Declining(f)) is None

