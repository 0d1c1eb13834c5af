"""A time argument that cannot work is a ValueError at the call, as ``interval(inf)`` is.

The period of a periodic task (``buffer_time``/``window_time``'s timespan and
timeskip, ``sample``/``throttle_last``'s period, ``interval``'s period) must be
finite: the scheduler refuses an infinite one, and refused at subscription the error
could only reach ``plugins.on_error`` while the subscriber waited forever. NaN is
refused everywhere. A one-shot delay may be ``inf``: it never fires.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2 import TestScheduler
from rxpy2._internal.arguments import require_duration

INF = math.inf
NAN = math.nan

PERIODIC = {
    "buffer_time(timespan)": ("timespan", lambda f, v, s: f.buffer_time(v, s)),
    "buffer_time(timespan, count)": ("timespan", lambda f, v, s: f.buffer_time(v, s, count=3)),
    "buffer_time(timeskip)": ("timeskip", lambda f, v, s: f.buffer_time(1.0, s, timeskip=v)),
    "window_time(timespan)": ("timespan", lambda f, v, s: f.window_time(v, scheduler=s)),
    "window_time(timespan, count)": ("timespan",
                                     lambda f, v, s: f.window_time(v, scheduler=s, count=3)),
    "window_time(timeskip)": ("timeskip", lambda f, v, s: f.window_time(1.0, v, scheduler=s)),
    "sample(period)": ("period", lambda f, v, s: f.sample(v, scheduler=s)),
    "throttle_last(period)": ("period", lambda f, v, s: f.throttle_last(v, scheduler=s)),
    "interval(period)": ("period", lambda f, v, s: Flowable.interval(v, scheduler=s)),
    "interval_range(period)": ("period",
                               lambda f, v, s: Flowable.interval_range(0, 3, 0.0, v, scheduler=s)),
}

ONE_SHOT = {
    "throttle_first(window)": ("window", lambda f, v, s: f.throttle_first(v, scheduler=s)),
    "throttle_latest(timeout)": ("timeout", lambda f, v, s: f.throttle_latest(v, scheduler=s)),
    "throttle_with_timeout(timeout)": ("timeout",
                                       lambda f, v, s: f.throttle_with_timeout(v, scheduler=s)),
    "debounce(timeout)": ("timeout", lambda f, v, s: f.debounce(v, scheduler=s)),
    "timeout(timeout)": ("timeout", lambda f, v, s: f.timeout(v, scheduler=s)),
    "delay(delay)": ("delay", lambda f, v, s: f.delay(v, scheduler=s)),
    "delay_subscription(delay)": ("delay", lambda f, v, s: f.delay_subscription(v, scheduler=s)),
    "interval(initial_delay)": ("initial_delay",
                                lambda f, v, s: Flowable.interval(1.0, v, scheduler=s)),
    "timer(delay)": ("delay", lambda f, v, s: Flowable.timer(v, scheduler=s)),
    "take_time(duration)": ("duration", lambda f, v, s: f.take_time(v, scheduler=s)),
    "skip_time(duration)": ("duration", lambda f, v, s: f.skip_time(v, scheduler=s)),
}


@pytest.mark.parametrize("case", sorted(PERIODIC))
def test_an_infinite_period_is_a_value_error_at_assembly_naming_the_argument(case):
    name, build = PERIODIC[case]
    with pytest.raises(ValueError, match=f"^{name} must be >= 0 and finite, not inf"):
        build(Flowable.never(), INF, TestScheduler())


@pytest.mark.parametrize("case", sorted(PERIODIC) + sorted(ONE_SHOT))
def test_nan_is_a_value_error_at_assembly_naming_the_argument(case):
    name, build = {**PERIODIC, **ONE_SHOT}[case]
    with pytest.raises(ValueError, match=f"^{name} "):
        build(Flowable.never(), NAN, TestScheduler())


@pytest.mark.parametrize("case", sorted(PERIODIC))
def test_a_finite_period_still_works(case, plugin_errors):
    _, build = PERIODIC[case]
    s = TestScheduler()
    ts = build(Flowable.never(), 1.0, s).test()
    s.advance_time_by(5.0)
    ts.assert_no_errors()
    assert plugin_errors == []


def test_an_infinite_one_shot_delay_never_fires(plugin_errors):
    s = TestScheduler()
    debounced = Flowable.just(1, 2, 3).debounce(INF, scheduler=s).test()
    not_timed_out = Flowable.just(1, 2).timeout(INF, scheduler=s).test()
    never = Flowable.timer(INF, scheduler=s).test()
    s.advance_time_by(1e9)
    debounced.assert_result(3)
    not_timed_out.assert_result(1, 2)
    never.assert_empty()
    assert plugin_errors == []


# ---------------------------------------------------------------- the one check

def test_require_duration_accepts_seconds():
    assert require_duration(1.5, "t") == 1.5
    r = require_duration(2, "t")
    assert r == 2.0 and type(r) is float
    assert require_duration(0, "t") == 0.0
    assert require_duration(INF, "t") == INF
    assert require_duration(1.0, "t", finite=True) == 1.0


@pytest.mark.parametrize("v", [NAN, -1, -0.5, 10**400], ids=repr)
def test_require_duration_refuses_nan_negative_and_too_large(v: Any):
    with pytest.raises(ValueError, match="^t "):
        require_duration(v, "t")


def test_require_duration_finite_refuses_inf():
    with pytest.raises(ValueError, match="^t must be >= 0 and finite, not inf"):
        require_duration(INF, "t", finite=True)


@pytest.mark.parametrize("v", [None, "1", True, [1]], ids=repr)
def test_require_duration_refuses_a_non_number(v: Any):
    with pytest.raises(TypeError, match="^t must be a number of seconds"):
        require_duration(v, "t")
