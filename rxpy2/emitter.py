"""The emitter interfaces handed to user code by the ``create`` sources and ``Flowable.generate``.

* :class:`Emitter`: ``on_next``/``on_error``/``on_complete``, the three signals a
  source function may produce. ``Flowable.generate`` passes one to its
  generator function (at most one ``on_next`` per call).
* :class:`FlowableEmitter`: the emitter of ``Flowable.create``; it adds the
  outstanding demand (:meth:`FlowableEmitter.requested`), cancellation
  (:meth:`FlowableEmitter.is_cancelled`, :meth:`FlowableEmitter.set_cancellable`,
  :meth:`FlowableEmitter.set_disposable`) and :meth:`FlowableEmitter.serialize`
  for calling it from several threads.
* :class:`SingleEmitter`, :class:`MaybeEmitter`, :class:`CompletableEmitter`: the
  emitters of ``Single.create``, ``Maybe.create`` and ``Completable.create`` (one
  signal, then nothing; a resource released on dispose or termination).
* :class:`Cancellable`: any zero-argument callable; it runs once when the
  downstream cancels or the stream terminates.

``None`` is never an item: ``on_next(None)`` turns into ``on_error(TypeError)``.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from typing import Generic
from typing import Protocol
from typing import TypeVar
from typing import runtime_checkable

from rxpy2._internal.disposable import Disposable

__all__ = ["Cancellable", "CompletableEmitter", "Emitter", "FlowableEmitter", "MaybeEmitter",
           "SingleEmitter"]

T = TypeVar("T")


@runtime_checkable
class Cancellable(Protocol):
    """A resource-releasing action: called once, without arguments; may raise (reported to
    :func:`rxpy2.plugins.on_error`)."""

    def __call__(self) -> object: ...


class Emitter(ABC, Generic[T]):
    """Signals for a source function: items, then at most one terminal signal.

    The methods must not be called concurrently (see :meth:`FlowableEmitter.serialize`).
    """

    __slots__ = ()

    @abstractmethod
    def on_next(self, item: T) -> None:
        """Signal an item (``None`` is turned into ``on_error(TypeError)``)."""

    @abstractmethod
    def on_error(self, error: BaseException) -> None:
        """Signal an error; after termination it goes to :func:`rxpy2.plugins.on_error`."""

    @abstractmethod
    def on_complete(self) -> None:
        """Signal completion; ignored after termination."""


class FlowableEmitter(Emitter[T], Generic[T]):
    """The emitter of ``Flowable.create``: an :class:`Emitter` that knows demand and cancellation."""

    __slots__ = ()

    @abstractmethod
    def requested(self) -> int:
        """The outstanding demand (``LONG_MAX`` for unbounded); a hint, it may change at once."""

    @abstractmethod
    def is_cancelled(self) -> bool:
        """True once the downstream cancelled or the stream terminated."""

    @abstractmethod
    def set_cancellable(self, cancellable: Cancellable | None) -> None:
        """Run ``cancellable`` once on cancel or termination; replaces (and runs) any
        previous cancellable or disposable. Runs at once when already cancelled."""

    @abstractmethod
    def set_disposable(self, disposable: Disposable | None) -> None:
        """Dispose ``disposable`` on cancel or termination; replaces (and disposes) any
        previous cancellable or disposable. Disposed at once when already cancelled."""

    @abstractmethod
    def serialize(self) -> FlowableEmitter[T]:
        """An emitter whose ``on_next``/``on_error``/``on_complete`` may be called from
        several threads at once (the signals are serialized)."""

    @abstractmethod
    def try_on_error(self, error: BaseException) -> bool:
        """Signal ``error`` if the stream is still live; False (and nothing reported) if not."""


class _ZeroOneEmitter(ABC):
    """What the emitters of ``Single.create``, ``Maybe.create`` and ``Completable.create``
    share: the error signal and the resource released on dispose or termination.

    The first signal wins; a later one is dropped (an error goes to
    :func:`rxpy2.plugins.on_error`, unless sent with :meth:`try_on_error`).
    """

    __slots__ = ()

    @abstractmethod
    def on_error(self, error: BaseException) -> None:
        """Signal an error; after termination or dispose it goes to ``plugins.on_error``."""

    @abstractmethod
    def try_on_error(self, error: BaseException) -> bool:
        """Signal ``error`` if still live; False (and nothing reported) if not."""

    @abstractmethod
    def set_disposable(self, disposable: Disposable | None) -> None:
        """Dispose ``disposable`` on dispose or termination (replacing and disposing any
        previous resource); disposed at once when already disposed."""

    @abstractmethod
    def set_cancellable(self, cancellable: Cancellable | None) -> None:
        """:meth:`set_disposable` for a zero-argument callable."""

    @abstractmethod
    def is_disposed(self) -> bool:
        """True once the downstream disposed or a signal went out."""


class SingleEmitter(_ZeroOneEmitter, Generic[T]):
    """The emitter of ``Single.create``: one ``on_success`` or one ``on_error``."""

    __slots__ = ()

    @abstractmethod
    def on_success(self, item: T) -> None:
        """Signal the item (``None`` is turned into ``on_error(TypeError)``)."""


class MaybeEmitter(_ZeroOneEmitter, Generic[T]):
    """The emitter of ``Maybe.create``: one ``on_success``, ``on_complete`` or ``on_error``."""

    __slots__ = ()

    @abstractmethod
    def on_success(self, item: T) -> None:
        """Signal the item (``None`` is turned into ``on_error(TypeError)``)."""

    @abstractmethod
    def on_complete(self) -> None:
        """Signal completion without an item; ignored after termination or dispose."""


class CompletableEmitter(_ZeroOneEmitter):
    """The emitter of ``Completable.create``: one ``on_complete`` or one ``on_error``."""

    __slots__ = ()

    @abstractmethod
    def on_complete(self) -> None:
        """Signal completion; ignored after termination or dispose."""
