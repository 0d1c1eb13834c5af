"""No name trap: a field can never hide a method of a reactive type.

``Flowable`` and its relatives share one namespace between ~170 fluent methods and
the fields of operators and user subclasses; a field named ``count`` would make
``.count()`` fail with ``'int' object is not callable`` far from the cause. So:

* at class creation (:func:`check_class`, called by the ``__init_subclass__`` of
  ``Flowable``, ``ZeroOneBase`` and ``ParallelFlowable``): a class attribute or a
  ``__slots__`` entry named like a method of a base class is a ``TypeError``;
* at construction: a class whose instances have a ``__dict__`` (a subclass without
  ``__slots__``; every library class has slots, so this costs them nothing) gets
  its ``__init__`` wrapped, and an instance attribute named like a method is a
  ``TypeError`` as soon as ``__init__`` returns.

The message names the field and the method, e.g. ``MyFlowable.count (a field)
would hide Flowable.count() (a method); rename the field``.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["check_class"]

_METHOD_TYPES = (staticmethod, classmethod, functools.partialmethod)

#: per class: the method names an instance field must not take, and their owners
_NAMES_ATTR = "_rxpy2_method_names"


def _is_method(value: Any) -> bool:
    return callable(value) or isinstance(value, _METHOD_TYPES)


def _is_field(value: Any) -> bool:
    """A plain value or a slot (a property is not a field: it may replace a method)."""
    return not (_is_method(value) or isinstance(value, property))


def _method_owners(cls: type) -> dict[str, type]:
    """Every non-dunder method name reachable from ``cls`` -> the class that defines it."""
    owners: dict[str, type] = {}
    for klass in reversed(cls.__mro__):
        for name, value in klass.__dict__.items():
            if name.startswith("__") or not _is_method(value):
                continue
            owners[name] = klass
    return owners


def _fail(cls: type, name: str, owner: type) -> TypeError:
    return TypeError(f"{cls.__name__}.{name} (a field) would hide "
                     f"{owner.__name__}.{name}() (a method); rename the field")


def check_class(cls: type) -> None:
    """``TypeError`` when a class attribute or slot of ``cls`` hides a base's method;
    arm the construction-time check when instances of ``cls`` have a ``__dict__``."""
    base_owners = _method_owners(cls.__mro__[1])
    for name, value in cls.__dict__.items():
        if name.startswith("__") or not _is_field(value):
            continue
        owner = base_owners.get(name)
        if owner is not None:  # a plain value or a slot's member descriptor
            raise _fail(cls, name, owner)
    if cls.__dictoffset__ == 0:  # slotted: no instance attribute can appear
        return
    owners = _method_owners(cls)
    setattr(cls, _NAMES_ATTR, (frozenset(owners), owners))
    init = cls.__init__  # type: ignore[misc]  # patching the class itself, not an instance
    if getattr(init, "_rxpy2_name_trap", False):
        return  # inherited and already checking (it reads the names of type(self))

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        names, by_name = getattr(type(self), _NAMES_ATTR)
        fields = self.__dict__
        if fields and not names.isdisjoint(fields):
            name = next(n for n in fields if n in names)
            raise _fail(type(self), name, by_name[name])

    __init__._rxpy2_name_trap = True  # type: ignore[attr-defined]  # a marker attribute on the function
    cls.__init__ = __init__  # type: ignore[misc]  # patching the class itself, not an instance
