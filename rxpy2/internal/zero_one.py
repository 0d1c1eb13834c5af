"""What the 0-1 reactive types (Single, Maybe, Completable) share.

:class:`ZeroOneBase` holds their subscribe path: ``subscribe`` may not be
overridden (a subclass implements ``subscribe_actual``); ``_subscribe`` runs the
loop of :mod:`rxpy2.internal.helpers.subscribe_loop` (the subscribe hook, and an
exception escaping ``subscribe_actual`` signalled to the observer, §1.9); the callback form of ``subscribe`` is
:meth:`ZeroOneBase._subscribe_callbacks`; ``subscribe_with`` and ``test`` are
the same for all three.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, final

from rxpy2.internal.helpers import subscribe_loop as _loop
from rxpy2.internal.helpers.arguments import ABSENT, require_callable
from rxpy2.internal.name_trap import check_class as _check_fields
from rxpy2.internal.observers.empty import EmptyDisposable

if TYPE_CHECKING:
    from rxpy2.disposables import Disposable
    from rxpy2.reactivestreams import Publisher
    from rxpy2.testing import TestObserver

__all__ = ["ZeroOneBase", "as_publisher", "require_instance"]



def require_instance(value: Any, cls: type, name: str) -> None:
    """``TypeError`` unless ``value`` is a ``cls`` (an argument check at assembly)."""
    if value is None:
        raise TypeError(f"{name} is None")
    if not isinstance(value, cls):
        raise TypeError(f"{name} must be a {cls.__name__}, not {type(value).__name__}")


def as_publisher(other: Any) -> Publisher[Any] | None:
    """``other`` as a Publisher: itself if it is one, a Single, Maybe or Completable
    through its ``to_flowable()``; ``None`` for anything else (the caller decides)."""
    from rxpy2.reactivestreams import Publisher
    if isinstance(other, Publisher):
        return other
    if isinstance(other, ZeroOneBase):
        flowable: Publisher[Any] = other.to_flowable()  # type: ignore[attr-defined]  # each subclass has it
        return flowable
    return None


class ZeroOneBase:
    """Base of Single, Maybe and Completable; each sets ``_TYPE`` (its plugin hook key)."""

    __slots__ = ()

    _TYPE: ClassVar[str]
    _loop_kind: ClassVar[_loop.Kind]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _check_fields(cls)  # no name trap: a field never hides a fluent method
        if "_TYPE" in cls.__dict__:  # Single, Maybe, Completable themselves
            # their part in the subscribe loop: hook key, any observer (None is refused
            # by _prepare_subscriber), and the upstream of a failed observer (§1.9)
            cls._loop_kind = _loop.Kind(cls._TYPE, object, EmptyDisposable.INSTANCE)
            return
        if "subscribe" in cls.__dict__:
            root = next(c for c in cls.__mro__ if "_TYPE" in c.__dict__)
            raise TypeError(f"{cls.__name__} must not override {root.__name__}.subscribe; "
                            "implement subscribe_actual instead")

    def subscribe_actual(self, observer: Any) -> None:
        raise NotImplementedError

    @final
    def _subscribe(self, observer: Any) -> None:
        """Subscribe in the loop of ``subscribe_loop`` (no frame per stage of a chain)."""
        if observer is None:
            raise TypeError("observer is None")
        _loop.run(self, observer, self._loop_kind)

    @final
    def _prepare_subscriber(self, observer: Any) -> Any:
        if observer is None:
            raise TypeError("observer is None")
        return observer

    @final
    def _subscribe_callbacks(self, observer_type: type, callback_observer: Callable[..., Any],
                             **callbacks: Any) -> Disposable | None:
        """The body of ``subscribe``: an ``observer_type`` (returns ``None``), or callbacks.

        ``callbacks`` are the named arguments in order; the first may be an
        observer or left out (``ABSENT``), the others default to ``None``. The
        callbacks go to ``callback_observer(*callbacks)``, which is subscribed
        and returned.
        """
        items = iter(callbacks.items())
        _name, first = next(items)
        if isinstance(first, observer_type):
            if any(fn is not None for _n, fn in items):
                raise TypeError("subscribe(observer) takes no callbacks")
            self._subscribe(first)
            return None
        if first is None:
            raise TypeError("observer is None")
        args = []
        for name, fn in callbacks.items():
            if fn is ABSENT:
                fn = None
            elif fn is not None:
                require_callable(fn, name)
            args.append(fn)
        o: Disposable = callback_observer(*args)
        self._subscribe(o)
        return o

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
