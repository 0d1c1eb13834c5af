"""No operator object may hide a fluent method with a field of the same name.

``FlowableTimer(...).delay(1)`` must reach ``Flowable.delay``: a field called
``delay`` on the operator would shadow the method and break chaining. This scans
every Flowable subclass in ``rxpy2._internal.operators.flowable`` (its
``__slots__`` and the fields its ``__init__`` assigns).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import rxpy2._internal.operators.flowable as operators
from rxpy2.flowable import Flowable

_ASSIGNED = re.compile(r"self\.(\w+)\s*(?::[^=\n]+)?=(?!=)")


def _operator_classes() -> list[type]:
    found = []
    for info in pkgutil.iter_modules(operators.__path__):
        mod = importlib.import_module(f"{operators.__name__}.{info.name}")
        for obj in vars(mod).values():
            if inspect.isclass(obj) and issubclass(obj, Flowable) and obj.__module__ == mod.__name__:
                found.append(obj)
    return found


def test_the_scan_finds_the_operators():
    names = {c.__name__ for c in _operator_classes()}
    assert {"FlowableMap", "FlowableRange", "FlowableConcatArray"} <= names


def test_no_operator_field_shadows_a_fluent_method():
    methods = {n for n in dir(Flowable) if not n.startswith("_")}
    clashes = []
    for cls in _operator_classes():
        fields: set[str] = set()
        for k in cls.__mro__:
            slots = getattr(k, "__slots__", ())
            fields |= {slots} if isinstance(slots, str) else set(slots)
        if "__init__" in cls.__dict__:
            fields |= set(_ASSIGNED.findall(inspect.getsource(cls.__init__)))
        bad = sorted(fields & methods)
        if bad:
            clashes.append(f"{cls.__module__}.{cls.__name__}: {bad}")
    assert not clashes, "fields that hide Flowable methods: " + "; ".join(clashes)
