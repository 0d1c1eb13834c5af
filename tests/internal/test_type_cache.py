"""``class_check``: ``isinstance`` against an ABC, cached per class."""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod

import pytest

from rxpy2._internal import type_cache
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.fuseable import is_flowable_subscriber
from rxpy2._internal.type_cache import class_check
from rxpy2.observers import FlowableSubscriber
from rxpy2.testing import TestSubscriber


class _Shape(ABC):
    @abstractmethod
    def area(self) -> float: ...


class _Square(_Shape):
    def area(self) -> float:
        return 1.0


class _Other:
    pass


def test_answers_as_isinstance_and_remembers_each_class() -> None:
    check = class_check(_Shape)
    for obj in (_Square(), _Other(), 1, None, _Square()):
        assert check(obj) is isinstance(obj, _Shape)
    assert check.__name__ == "is__Shape"


def test_the_library_checks_agree_with_isinstance() -> None:
    ts: TestSubscriber[int] = TestSubscriber()
    assert is_flowable_subscriber(ts) is isinstance(ts, FlowableSubscriber)
    assert is_conditional(ts) is isinstance(ts, ConditionalSubscriber)
    assert not is_flowable_subscriber(object())


def test_beyond_the_limit_it_still_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type_cache, "_LIMIT", 2)
    check = class_check(_Shape)
    kinds = [type(f"K{i}", (_Square,) if i % 2 else (_Other,), {}) for i in range(6)]
    for k in kinds:
        assert check(k()) is isinstance(k(), _Shape)
    for k in kinds:  # again, the remembered ones and the others
        assert check(k()) is isinstance(k(), _Shape)
