"""The executors' stage runner (``executor_code.apply_steps``/``count_steps``) on plain
Python items, no Spark: each run of ``map``/``filter`` steps is one compiled loop, and it
must give what the steps give one generator at a time."""

from __future__ import annotations

import itertools
import random
import traceback
from typing import Any

import pytest

from rxpy2.spark import executor_code
from rxpy2.spark.executor_code import Step


def _reference(items: list[Any], steps: tuple[Step, ...]) -> list[Any]:
    """What the steps mean, one stage at a time over whole lists."""
    out = list(items)
    for kind, fn in steps:
        if kind == "map":
            out = [fn(x) for x in out]
        elif kind == "filter":
            out = [x for x in out if fn(x)]
        elif kind == "flat_map_iterable":
            out = [y for x in out for y in fn(x)]
        elif kind == "map_partitions":
            out = list(fn(iter(out)))
        else:
            out = list(fn(iter(out)))
    return out


def _random_steps(rnd: random.Random) -> tuple[Step, ...]:
    steps: list[Step] = []
    for _ in range(rnd.randrange(0, 7)):
        kind = rnd.choice(["map", "map", "filter", "filter", "flat_map_iterable",
                           "map_partitions"])
        k = rnd.randrange(1, 5)
        if kind == "map":
            steps.append(("map", lambda x, k=k: x * k + 1))
        elif kind == "filter":  # results of every truthiness: 0, "", [], and their opposites
            steps.append(("filter", lambda x, k=k: [0, "", [], 1, "y", [0]][x % (k + 2)]))
        elif kind == "flat_map_iterable":
            steps.append(("flat_map_iterable", lambda x, k=k: range(x, x + x % k)))
        else:
            steps.append(("map_partitions", lambda it, k=k: (x + k for x in it if x % 3)))
    if rnd.random() < 0.3:
        steps.append(("limit", executor_code.first(rnd.randrange(0, 20))))
    return tuple(steps)


def test_random_step_lists_give_what_their_stages_give_one_by_one() -> None:
    rnd = random.Random(20261204)
    for _ in range(400):
        steps = _random_steps(rnd)
        items = [rnd.randrange(0, 50) for _ in range(rnd.randrange(0, 40))]
        expected = _reference(items, steps)
        assert list(executor_code.apply_steps(items, steps)) == expected, steps
        assert executor_code.count_steps(items, steps) == len(expected), steps


def test_count_steps_of_no_step_counts_the_items() -> None:
    assert executor_code.count_steps(iter("abcd"), ()) == 4
    assert list(executor_code.apply_steps(iter("abcd"), ())) == list("abcd")


@pytest.mark.parametrize("count", [False, True])
def test_a_mapper_returning_none_is_a_type_error_naming_its_input(count: bool) -> None:
    steps: tuple[Step, ...] = (("filter", bool), ("map", lambda x: None if x == 3 else x))
    with pytest.raises(TypeError, match=r"map: the mapper returned None for 3"):
        if count:
            executor_code.count_steps([1, 2, 3, 4], steps)
        else:
            list(executor_code.apply_steps([1, 2, 3, 4], steps))


def test_a_user_error_propagates_and_the_traceback_shows_the_loops_line() -> None:
    def broken(x: int) -> int:
        raise ZeroDivisionError(x)

    with pytest.raises(ZeroDivisionError) as caught:
        list(executor_code.apply_steps([5], (("filter", bool), ("map", broken))))
    text = "".join(traceback.format_exception(caught.value))
    assert "y = f1(x)" in text and "<rxpy2 executor stages filter/map>" in text


def test_the_loop_is_lazy_a_limit_after_it_stops_the_reading() -> None:
    pulled: list[int] = []

    def source() -> Any:
        for i in itertools.count():
            pulled.append(i)
            yield i

    steps: tuple[Step, ...] = (("map", lambda x: x + 1), ("filter", lambda x: x % 2),
                               ("limit", executor_code.first(3)))
    assert list(executor_code.apply_steps(source(), steps)) == [1, 3, 5]
    assert pulled == [0, 1, 2, 3, 4]
