"""Flowable.buffer_size(): RxJava 2's bufferSize(); the operators' ``buffer_size=`` keywords
still work (their fields were renamed so that the static method is not hidden)."""

from __future__ import annotations

from probes import ManualSource

import rxpy2.operator_kit as ops
from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers


def test_the_default_buffer_size():
    assert Flowable.buffer_size() == 128 == ops.BUFFER_SIZE
    assert Flowable.just(1).buffer_size() == 128  # reachable through any instance


def test_not_hidden_by_an_operator_field():
    src = ManualSource()
    for f in (src.observe_on(Schedulers.trampoline()), src.flat_map(Flowable.just),
              src.switch_map(Flowable.just), src.window(3), src.window(Flowable.never()),
              src.window_time(1.0), src.group_by(lambda x: x), src.publish(), src.replay(2),
              Flowable.zip(src, src), Flowable.combine_latest(src, src),
              Flowable.create(lambda e: None, BackpressureStrategy.BUFFER)):
        assert f.buffer_size() == 128, f


def test_buffer_size_keywords_still_tune_the_operators():
    src = ManualSource()
    src.observe_on(Schedulers.trampoline(), buffer_size=4).test(0)
    assert src.requests == [4]
    src = ManualSource()
    src.flat_map(lambda x: inner, buffer_size=2).test()
    inner = ManualSource()
    src.emit(1)
    assert inner.requests == [2]
    src = ManualSource()
    src.publish(buffer_size=8).connect()
    assert src.requests == [8]
