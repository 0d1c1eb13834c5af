"""Flowable.using (RxJava 2's FlowableUsing): the resource is released exactly once, before
the terminal signal when eager, after it otherwise, or on cancel."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Boom
from probes import Manual

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.testing import race


class Resource:
    def __init__(self, log: list[Any]) -> None:
        self.log = log
        log.append("acquire")

    def release(self) -> None:
        self.log.append("release")


def logged(source: Flowable[Any], log: list[Any]) -> Flowable[Any]:
    return source.do_on_next(lambda x: log.append(x)).do_on_error(
        lambda e: log.append("error")).do_on_complete(lambda: log.append("complete"))


@pytest.mark.parametrize("eager, order", [
    (True, ["acquire", 1, 2, "release", "done"]),
    (False, ["acquire", 1, 2, "done", "release"]),
])
def test_release_before_or_after_completion(eager, order):
    log: list[Any] = []
    f = Flowable.using(lambda: Resource(log), lambda r: Flowable.just(1, 2),
                       Resource.release, eager)
    f.subscribe(log.append, None, lambda: log.append("done"))
    assert log == order


@pytest.mark.parametrize("eager, order", [
    (True, ["acquire", "release", "error"]),
    (False, ["acquire", "error", "release"]),
])
def test_release_before_or_after_an_error(eager, order):
    log: list[Any] = []
    f = Flowable.using(lambda: Resource(log), lambda r: Flowable.error(Boom()),
                       Resource.release, eager)
    f.subscribe(log.append, lambda e: log.append("error"))
    assert log == order


def test_cancel_releases_once_and_cancels_upstream():
    log: list[Any] = []
    src = Manual()
    ts = Flowable.using(lambda: Resource(log), lambda r: src, Resource.release).test(2)
    assert src.probe.requests == [2]
    src.subscriber.on_next(1)
    ts.cancel()
    assert src.probe.cancelled
    assert log == ["acquire", "release"]
    ts.cancel()
    src.subscriber.on_complete()  # a late completion does not release again
    assert log == ["acquire", "release"]


def test_each_subscriber_gets_its_own_resource():
    log: list[Any] = []
    f = Flowable.using(lambda: Resource(log), lambda r: Flowable.just(len(log)), Resource.release)
    f.test().assert_result(1)
    f.test().assert_result(3)
    assert log == ["acquire", "release"] * 2


def test_resource_supplier_raising_is_the_error():
    released: list[Any] = []
    Flowable.using(lambda: 1 // 0, lambda r: Flowable.just(1), released.append) \
        .test().assert_failure(ZeroDivisionError)
    assert released == []


@pytest.mark.parametrize("eager", [True, False])
def test_source_supplier_raising_releases_then_signals(eager):
    log: list[Any] = []

    def supplier(r: Resource) -> Flowable[int]:
        raise Boom()

    ts = Flowable.using(lambda: Resource(log), supplier, Resource.release, eager).test()
    ts.assert_failure(Boom)
    assert log == ["acquire", "release"]


@pytest.mark.parametrize("bad, error", [(None, TypeError), (42, TypeError)])
def test_source_supplier_returning_no_publisher(bad, error):
    released: list[Any] = []
    Flowable.using(lambda: "r", lambda r: bad, released.append).test().assert_failure(error)
    assert released == ["r"]


def test_source_supplier_and_disposer_raising_are_joined():
    def boom_disposer(r: Any) -> None:
        raise KeyError("release")

    def supplier(r: Any) -> Flowable[int]:
        raise Boom()

    ts = Flowable.using(lambda: "r", supplier, boom_disposer).test()
    ts.assert_error(CompositeException)
    assert [type(e) for e in ts.errors()[0].exceptions] == [Boom, KeyError]


def test_eager_disposer_error_replaces_completion_and_joins_an_error():
    def boom_disposer(r: Any) -> None:
        raise KeyError("release")

    Flowable.using(lambda: "r", lambda r: Flowable.just(1), boom_disposer) \
        .test().assert_failure(KeyError, 1)
    ts = Flowable.using(lambda: "r", lambda r: Flowable.error(Boom()), boom_disposer).test()
    assert [type(e) for e in ts.errors()[0].exceptions] == [Boom, KeyError]


def test_lazy_disposer_error_goes_to_the_plugin(plugin_errors):
    def boom_disposer(r: Any) -> None:
        raise KeyError("release")

    Flowable.using(lambda: "r", lambda r: Flowable.just(1), boom_disposer, eager=False) \
        .test().assert_result(1)
    assert len(plugin_errors) == 1
    e = plugin_errors[0]
    assert isinstance(e.__cause__ if e.__cause__ is not None else e, KeyError)


def _cancel_vs_complete(eager: bool) -> None:
    log: list[Any] = []
    src = Manual()
    ts = Flowable.using(lambda: Resource(log), lambda r: src, Resource.release, eager).test()
    race(src.subscriber.on_complete, ts.cancel)
    assert log.count("release") == 1


@pytest.mark.parametrize("eager", [True, False])
def test_disposer_runs_once_when_cancel_races_completion(eager):
    for _ in range(300):
        _cancel_vs_complete(eager)


@pytest.mark.parametrize("args", [
    (None, lambda r: Flowable.just(1), print), (lambda: 1, None, print),
    (lambda: 1, lambda r: Flowable.just(1), None), (1, lambda r: Flowable.just(1), print),
])
def test_arguments_are_checked_at_assembly(args):
    with pytest.raises(TypeError):
        Flowable.using(*args)


def test_a_file_is_closed_after_reading(tmp_path):
    p = tmp_path / "lines.txt"
    p.write_text("a\nb\nc\n")
    handles: list[Any] = []

    def open_file() -> Any:
        handles.append(open(p))  # noqa: SIM115  (using closes it)
        return handles[-1]

    lines = Flowable.using(open_file, lambda fh: Flowable.from_iterable(fh).map(str.strip),
                           lambda fh: fh.close())
    assert list(lines.take(2)) == ["a", "b"]
    assert handles[0].closed
