"""Single: the single reactive type (RxJava 2's ``Single``).

``subscribe`` is final: it applies the subscribe hook and calls
:meth:`Single.subscribe_actual`, which every source and operator implements;
an exception escaping it goes to :func:`rxpy2.plugins.on_error`.
Operators live in ``rxpy2/internal/operators/single/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

from rxpy2 import plugins
from rxpy2.observers import SingleObserver

if TYPE_CHECKING:
    from rxpy2.testing import TestObserver

__all__ = ["Single"]

T = TypeVar("T")


class Single(Generic[T]):
    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "subscribe" in cls.__dict__:
            raise TypeError(f"{cls.__name__} must not override Single.subscribe; "
                            "implement subscribe_actual instead")

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        """Implemented by every source and operator."""
        raise NotImplementedError

    @final
    def _subscribe(self, observer: SingleObserver[T]) -> None:
        if observer is None:
            raise TypeError("observer is None")
        if plugins.hooks_active:
            observer = plugins.on_subscribe("single", self, observer)
        try:
            self.subscribe_actual(observer)
        except Exception as e:  # subscribe returns normally; the error is reported
            plugins.on_error(e)

    def subscribe_with(self, observer: Any) -> Any:
        """Subscribe ``observer`` and return it."""
        self._subscribe(observer)
        return observer

    def test(self, cancel: bool = False) -> TestObserver[Any]:
        """Subscribe a new :class:`rxpy2.testing.TestObserver` and return it."""
        from rxpy2.testing import TestObserver
        to: TestObserver[Any] = TestObserver()
        if cancel:
            to.dispose()
        self._subscribe(to)
        return to
