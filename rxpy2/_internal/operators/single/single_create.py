"""Single.create: a function given a :class:`~rxpy2.emitter.SingleEmitter` per subscriber;
Single.unsafe_create / Single.wrap: a function (or an object's ``subscribe``) given the
observer itself (RxJava 2's SingleFromUnsafeSource).

:class:`CreateEmitter` is also the emitter of ``Maybe.create`` and
``Completable.create`` (RxJava 2's MaybeCreate/CompletableCreate emitters are
the same state machine): it holds one resource slot, which becomes ``DISPOSED``
when the first signal goes out or the downstream disposes; that releases the
resource and makes every later signal a no-op (an error then goes to
``plugins.on_error``). A function that raises signals its error the same way.

:class:`SingleUnsafeCreate` adds nothing: the function gets the downstream observer
and must keep the protocol itself. :func:`unsafe_source` and :func:`wrapped_subscribe`
are the argument checks of ``unsafe_create``/``wrap`` of the three types.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.cancellable import CancellableDisposable
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.emitter import Cancellable
from rxpy2.emitter import CompletableEmitter
from rxpy2.emitter import MaybeEmitter
from rxpy2.emitter import SingleEmitter
from rxpy2.operator_kit import require
from rxpy2.operator_kit import require_callable
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["CreateEmitter", "CreateOp", "SingleCreate", "SingleUnsafeCreate", "UnsafeCreateOp",
           "unsafe_source", "wrapped_subscribe"]

T = TypeVar("T")


class CreateOp(Generic[T]):
    """The operator body of the three ``create`` classes (a mixin): the emitter is the
    downstream's Disposable; ``source`` raising signals its error through the emitter."""

    __slots__ = ("source",)

    def __init__(self, source: Callable[[Any], Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: Any) -> None:
        emitter: CreateEmitter[T] = CreateEmitter(observer)
        observer.on_subscribe(emitter)
        try:
            self.source(emitter)
        except Exception as e:
            emitter.on_error(e)  # after a signal or dispose it goes to plugins.on_error


class SingleCreate(CreateOp[T], Single[T], Generic[T]):
    __slots__ = ()


class CreateEmitter(SingleEmitter[T], MaybeEmitter[T], CompletableEmitter, Disposable,
                    Generic[T]):
    """The emitter and the downstream's Disposable in one, for any of the three observers
    (a Single source function has no ``on_complete`` to call, a Completable one no
    ``on_success``: their emitter interfaces do not offer them)."""

    __slots__ = ("downstream", "_resource")

    def __init__(self, downstream: Any) -> None:
        self.downstream = downstream
        self._resource: AtomicReference[Disposable] = AtomicReference()

    def _signal(self, signal: Callable[..., Any], *args: Any) -> bool:
        """Send the first signal (False if one went out or the downstream disposed),
        then release the resource."""
        ref = self._resource
        if ref.get() is DISPOSED:
            return False
        d = ref.get_and_set(DISPOSED)
        if d is DISPOSED:
            return False
        try:
            signal(*args)
        finally:
            if d is not None:
                d.dispose()
        return True

    def on_success(self, item: T) -> None:
        if item is None:
            self._signal(self.downstream.on_error, TypeError("on_success called with None"))
        else:
            self._signal(self.downstream.on_success, item)

    def on_complete(self) -> None:
        self._signal(self.downstream.on_complete)

    def on_error(self, error: BaseException) -> None:
        if not self.try_on_error(error):
            plugins.on_error(error)

    def try_on_error(self, error: BaseException) -> bool:
        if error is None:
            error = TypeError("on_error called with None")
        return self._signal(self.downstream.on_error, error)

    def set_disposable(self, disposable: Disposable | None) -> None:
        DisposableHelper.set(self._resource, disposable)

    def set_cancellable(self, cancellable: Cancellable | None) -> None:
        self.set_disposable(CancellableDisposable.of(cancellable))

    def dispose(self) -> None:
        DisposableHelper.dispose(self._resource)

    def is_disposed(self) -> bool:
        return self._resource.get() is DISPOSED

    def __repr__(self) -> str:
        return f"CreateEmitter(disposed={self.is_disposed()})"


class UnsafeCreateOp(CreateOp[T]):
    """The operator body of the three ``unsafe_create``/``wrap`` classes (a mixin):
    ``source(observer)`` with the downstream observer itself."""

    __slots__ = ()

    def subscribe_actual(self, observer: Any) -> None:
        self.source(observer)


class SingleUnsafeCreate(UnsafeCreateOp[T], Single[T], Generic[T]):
    __slots__ = ()


def unsafe_source(source: Any, cls: type) -> Callable[[Any], Any]:
    """The argument of ``cls.unsafe_create``: a function of the observer; a ``cls``
    is refused (RxJava 2 refuses it too: ``wrap`` is the way to adapt one)."""
    if isinstance(source, cls):
        raise TypeError(f"unsafe_create() of a {cls.__name__}: use {cls.__name__}.wrap(source) "
                        "or the source itself")
    require_callable(source, "source")
    return source  # type: ignore[no-any-return]  # checked callable


def wrapped_subscribe(source: Any, cls: type) -> Callable[[Any], Any]:
    """The argument of ``cls.wrap`` (not a ``cls``): any object with a ``subscribe(observer)``
    method, but not another reactive type (convert that with its ``to_*`` method)."""
    require(source, "source")
    if isinstance(source, (ZeroOneBase, Publisher)):
        raise TypeError(f"{cls.__name__}.wrap() of a {type(source).__name__}: convert it "
                        f"to a {cls.__name__} first")
    subscribe = getattr(source, "subscribe", None)
    if not callable(subscribe):
        raise TypeError(f"{cls.__name__}.wrap() needs an object with a subscribe(observer) "
                        f"method, not {type(source).__name__}")
    return subscribe  # type: ignore[no-any-return]  # checked callable
