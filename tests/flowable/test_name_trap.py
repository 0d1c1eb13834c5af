"""No name trap (issue 14 item 3): a field of an operator or a user subclass never
hides a fluent method; the TypeError names the field and the method."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest

import rxpy2
from rxpy2 import Flowable
from rxpy2.completable import Completable
from rxpy2.connectable_flowable import ConnectableFlowable
from rxpy2.grouped_flowable import GroupedFlowable
from rxpy2.maybe import Maybe
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.single import Single

MESSAGE = r"MyFlowable\.count \(a field\) would hide Flowable\.count\(\) \(a method\); rename the field"


def test_instance_field_named_like_a_method_fails_at_construction() -> None:
    class MyFlowable(Flowable[int]):
        def __init__(self) -> None:
            self.count = 3

        def subscribe_actual(self, subscriber: Any) -> None:
            Flowable.range(0, self.count).subscribe(subscriber)

    with pytest.raises(TypeError, match=MESSAGE):
        MyFlowable()


def test_field_set_by_an_inherited_init_is_caught_in_a_subclass() -> None:
    class Base(Flowable[int]):
        def __init__(self, name: str) -> None:
            self.name = name

    class Sub(Base):
        pass

    assert Sub("x").name == "x"

    class Sub2(Base):
        def __init__(self) -> None:
            super().__init__("y")
            self.filter = None

    with pytest.raises(TypeError, match=r"Sub2\.filter \(a field\) would hide Flowable\.filter\(\)"):
        Sub2()


def test_other_fields_are_fine() -> None:
    class MyFlowable(Flowable[int]):
        def __init__(self, n: int) -> None:
            self.n = n

        def subscribe_actual(self, subscriber: Any) -> None:
            Flowable.range(0, self.n).subscribe(subscriber)

    MyFlowable(3).count().test().assert_result(3)


def test_class_attribute_named_like_a_method_fails_at_class_creation() -> None:
    with pytest.raises(TypeError, match=r"Bad\.map \(a field\) would hide Flowable\.map\(\)"):
        class Bad(Flowable[int]):
            map = 1


def test_slot_named_like_a_method_fails_at_class_creation() -> None:
    with pytest.raises(TypeError, match=r"Bad\.map \(a field\) would hide Flowable\.map\(\)"):
        class Bad(Flowable[int]):
            __slots__ = ("map",)


def test_overriding_a_method_with_a_method_or_property_is_allowed() -> None:
    class Ok(Flowable[int]):
        __slots__ = ("_n",)

        def count(self) -> Any:
            return super().count()

    class Rails(ParallelFlowable[int]):
        parallelism = 2  # a value replacing an abstract property is not a trap

        def subscribe_actual(self, subscribers: Any) -> None:
            raise NotImplementedError

    assert Rails().parallelism == 2
    assert Ok is not None


@pytest.mark.parametrize(("base", "method"), [
    (Single, "map"), (Maybe, "filter"), (Completable, "and_then"),
    (ParallelFlowable, "sequential"), (ConnectableFlowable, "connect"),
    (GroupedFlowable, "group_by"),
])
def test_every_reactive_type_is_guarded(base: type, method: str) -> None:
    with pytest.raises(TypeError, match=rf"Bad\.{method} \(a field\) would hide"):
        type("Bad", (base,), {method: 0})
    with pytest.raises(TypeError, match=rf"Bad\.{method} \(a field\) would hide"):
        type("Bad", (base,), {"__slots__": (method,)})

    def init(self: Any) -> None:
        setattr(self, method, 0)

    cls = type("Bad", (base,), {"__init__": init})
    cls.__abstractmethods__ = frozenset()  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=rf"Bad\.{method} \(a field\) would hide"):
        cls()


def test_library_classes_are_unaffected() -> None:
    # importing every module creates every library class (each checked at creation)
    for info in pkgutil.walk_packages(rxpy2.__path__, "rxpy2."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # optional extras (pyspark)
            continue
    f = Flowable.range(1, 10).map(str).filter(bool).take(5).scan(lambda a, b: a + b)
    f.test().assert_complete()
    g = (Flowable.range(1, 6).group_by(lambda x: x % 2)
         .flat_map(lambda grp: grp.count().to_flowable()).to_list())
    g.test().assert_complete()
    Flowable.range(1, 3).publish().ref_count().test().assert_result(1, 2, 3)
    Flowable.range(1, 3).parallel(2).map(lambda x: x).sequential().test().assert_value_count(3)
    Single.just(1).map(lambda x: x).filter(bool).to_single(0).test().assert_result(1)
    Completable.complete().and_then(Single.just(1)).test().assert_result(1)
