"""Marble testing: the parser, cold and hot sources, expectations and their messages, and
timed operators on a MarbleScheduler."""

from __future__ import annotations

import re

import pytest

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.testing import MarbleScheduler
from rxpy2.testing import TestScheduler
from rxpy2.testing import TestSubscriber
from rxpy2.testing.marbles import parse_marble
from rxpy2.testing.marbles import parse_subscription
from rxpy2.testing.marbles import render


@pytest.fixture
def s() -> MarbleScheduler:
    return MarbleScheduler()


# ---- the parser

def test_each_symbol() -> None:
    err = ValueError("boom")
    assert parse_marble("-a-b-|") == [(1, ("N", "a")), (3, ("N", "b")), (5, ("C", None))]
    assert parse_marble("--#", error=err) == [(2, ("E", err))]
    assert parse_marble("a") == [(0, ("N", "a"))]
    assert parse_marble("") == []
    assert parse_marble("---") == []


def test_values_map_the_characters() -> None:
    assert parse_marble("-x|", {"x": 10}) == [(1, ("N", 10)), (2, ("C", None))]


def test_spaces_are_ignored() -> None:
    assert parse_marble("  - a - | ") == parse_marble("-a-|")


def test_a_group_is_one_frame() -> None:
    assert parse_marble("-(ab)-(c|)") == [(1, ("N", "a")), (1, ("N", "b")), (3, ("N", "c")),
                                          (3, ("C", None))]


def test_default_error() -> None:
    [(_, (kind, e))] = parse_marble("#")
    assert kind == "E" and type(e) is Exception and e.args == ("error",)


def test_hot_frames_count_from_the_caret() -> None:
    assert parse_marble("a-^-b|", hot=True) == [(-2, ("N", "a")), (2, ("N", "b")),
                                                (3, ("C", None))]
    assert parse_marble("(ab)^c", hot=True) == [(-1, ("N", "a")), (-1, ("N", "b")),
                                                (1, ("N", "c"))]
    assert parse_marble("-a-|", hot=True) == [(1, ("N", "a")), (3, ("C", None))]


@pytest.mark.parametrize(("marble", "message"), [
    ("-a-|-b", "after the terminal"),
    ("-#|", "after the terminal"),
    ("-(ab", "unclosed"),
    ("-a)", "without '('"),
    ("((a))", "nested"),
    ("-()-", "empty group"),
    ("(a-b)", "inside a group"),
    ("-^-a", "hot source"),
    ("-a-!", "subscription marbles"),
])
def test_bad_marbles(marble: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        parse_marble(marble)
    assert repr(marble) in str(info.value)


def test_bad_hot_and_values() -> None:
    with pytest.raises(ValueError, match="more than one"):
        parse_marble("^-^", hot=True)
    with pytest.raises(ValueError, match="no value for 'b'"):
        parse_marble("ab", {"a": 1})
    with pytest.raises(TypeError):
        parse_marble(None)  # type: ignore[arg-type]


def test_subscription_marbles() -> None:
    assert parse_subscription("^---!") == (0, 4)
    assert parse_subscription("--^") == (2, None)
    assert parse_subscription("-(^!)") == (1, 1)
    for bad, message in [("---", "no '^'"), ("!^", "before"), ("^!!", "more than one '!'"),
                         ("^a", "'a'"), ("^^", "more than one '^'"), ("(^", "unclosed")]:
        with pytest.raises(ValueError, match=re.escape(message)):
            parse_subscription(bad)


def test_render() -> None:
    assert render(parse_marble("-a-(bc)-|")) == "-a-(bc)-|"
    assert render([(2, ("N", 10))], {"x": 10}) == "--x"
    assert render([(1, ("N", 10)), (2, ("E", ValueError()))]) == "-<10>#"


# ---- cold

def test_cold_plays_from_each_subscription(s: MarbleScheduler) -> None:
    c = s.cold("-a-|")
    first = c.test()
    s.advance_time_to(s.frames(2))
    second = c.test()
    s.run()
    first.assert_result("a")
    second.assert_result("a")
    s.expect_subscriptions(c, "^--!", "--^--!")


def test_cold_with_values_and_error(s: MarbleScheduler) -> None:
    boom = KeyError("k")
    c = s.cold("-a-b-#", {"a": 1, "b": 2}, boom)
    s.expect_flowable(c, "-a-b-#", {"a": 1, "b": 2}, error=boom)


def test_cold_honours_backpressure(s: MarbleScheduler) -> None:
    ts: TestSubscriber[str] = s.cold("(abc|)").test(initial_request=1)
    s.trigger_actions()
    ts.assert_values("a").assert_not_complete()
    s.advance_time_to(s.frames(5))
    ts.request(1)
    ts.assert_values("a", "b").assert_not_complete()
    ts.request(5)
    ts.assert_result("a", "b", "c")


def test_cold_cancel_stops_the_timeline(s: MarbleScheduler) -> None:
    c = s.cold("-a-b-c-|")
    ts = c.test()
    s.advance_time_to(s.frames(2))
    ts.cancel()
    s.run()
    ts.assert_values("a").assert_not_complete()
    assert s.pending_count() == 0
    s.expect_subscriptions(c, "^-!")


def test_cold_bad_request_goes_to_the_plugins(s: MarbleScheduler,
                                              plugin_errors: list[BaseException]) -> None:
    ts = s.cold("(a|)").test(initial_request=0)
    ts.request(0)
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)
    ts.request(1)
    ts.assert_result("a")


# ---- hot

def test_hot_is_shared_and_runs_from_its_creation(s: MarbleScheduler) -> None:
    h = s.hot("-a-^-b-c-|")
    early = h.test()
    s.advance_time_to(s.frames(3))
    late = h.test()
    s.run()
    early.assert_result("b", "c")
    late.assert_result("c")
    s.expect_subscriptions(h, "^-----!", "---^--!")


def test_hot_expectation_and_take_until(s: MarbleScheduler) -> None:
    h = s.hot("^-a-b-c-d-|")
    stop = s.hot("-----x")
    s.expect_flowable(h.take_until(stop), "--a-b|")
    s.expect_subscriptions(h, "^----!")


def test_hot_without_demand_signals_missing_backpressure(s: MarbleScheduler) -> None:
    h = s.hot("-a-|")
    ts = h.test(initial_request=0)
    s.run()
    ts.assert_error(MissingBackpressureException)
    assert isinstance(h.processor.has_subscribers(), bool)


def test_hot_before_caret_goes_to_early_subscribers(s: MarbleScheduler) -> None:
    h = s.hot("a^b|")  # 'a' is emitted at once, before anyone subscribes
    s.expect_flowable(h, "-b|")


# ---- expectations

def test_mismatch_message_shows_both_marbles(s: MarbleScheduler) -> None:
    with pytest.raises(AssertionError) as info:
        s.expect_flowable(s.cold("-a-b|"), "-a--b|")
    text = str(info.value)
    assert "expected: -a--b|" in text
    assert "actual:   -a-b|" in text
    assert "[1: 'a', 3: 'b', 4: complete]" in text


def test_mismatch_on_values_error_and_terminal(s: MarbleScheduler) -> None:
    with pytest.raises(AssertionError):
        s.expect_flowable(s.cold("-a|", {"a": 1}), "-a|", {"a": 2})
    with pytest.raises(AssertionError):
        s.expect_flowable(s.cold("-#", error=KeyError("x")), "-#", error=KeyError("y"))
    with pytest.raises(AssertionError):
        s.expect_flowable(s.cold("-#", error=KeyError("x")), "-#", error=ValueError)
    with pytest.raises(AssertionError):
        s.expect_flowable(s.cold("-a"), "-a|")
    with pytest.raises(AssertionError):
        s.expect_flowable(s.cold("-a-b|"), "-a|")


def test_error_matchers(s: MarbleScheduler) -> None:
    s.expect_flowable(s.cold("-#", error=KeyError("x")), "-#")
    s.expect_flowable(s.cold("-#", error=KeyError("x")), "-#", error=LookupError)
    s.expect_flowable(s.cold("-#", error=KeyError("x")), "-#", error=KeyError("x"))


def test_subscription_mismatch(s: MarbleScheduler) -> None:
    c = s.cold("-a|")
    s.expect_flowable(c, "-a|")
    with pytest.raises(AssertionError, match=r"expected \(subscribe, end\): \[\(0, 3\)\]"):
        s.expect_subscriptions(c, "^--!")
    s.expect_subscriptions(c, "^-!")


def test_endless_source_stops_at_max_frames(s: MarbleScheduler) -> None:
    s.expect_flowable(Flowable.interval(s.frames(2), scheduler=s).take_while(lambda _: True),
                      "--0-1-2", {"0": 0, "1": 1, "2": 2}, max_frames=7)
    assert s.pending_count() == 0  # cancelled after recording


def test_single_maybe_completable(s: MarbleScheduler) -> None:
    s.expect_flowable(Single.just(1).delay(s.frames(2), scheduler=s), "--(x|)", {"x": 1})
    s.expect_flowable(Maybe.empty(), "|")
    s.expect_flowable(Completable.timer(s.frames(3), scheduler=s), "---|")


def test_frame_duration_is_configurable() -> None:
    s = MarbleScheduler(frame=2.0)
    assert isinstance(s, TestScheduler)
    s.expect_flowable(s.cold("-a|").delay(4.0, scheduler=s), "---a|")
    with pytest.raises(ValueError):
        MarbleScheduler(frame=0)


# ---- timed operators on the MarbleScheduler

def test_delay(s: MarbleScheduler) -> None:
    s.expect_flowable(s.cold("-a-b-|").delay(s.frames(3), scheduler=s), "----a-b-|")


def test_debounce(s: MarbleScheduler) -> None:
    source = s.cold("-a--bc---d---|")
    s.expect_flowable(source.debounce(s.frames(2), scheduler=s), "---a---c---d-|")


def test_merge_of_two_colds(s: MarbleScheduler) -> None:
    s.expect_flowable(Flowable.merge(s.cold("--a--b--|"), s.cold("-c---d|")),
                      "-ca--(bd)--|")


def test_switch_map(s: MarbleScheduler) -> None:
    inner = {"a": s.cold("xy|"), "b": s.cold("-z-|")}
    source = s.cold("-a---b-|")
    s.expect_flowable(source.switch_map(lambda k: inner[k]), "-xy---z-|")
    s.expect_subscriptions(inner["a"], "-^-!")
    s.expect_subscriptions(inner["b"], "-----^--!")


def test_switch_map_cancels_the_previous_inner(s: MarbleScheduler) -> None:
    inner = s.cold("-x-y-|")
    source = s.cold("a-a---|")
    s.expect_flowable(source.switch_map(lambda _: inner), "-x-x-y-|")
    s.expect_subscriptions(inner, "^-!", "--^----!")
