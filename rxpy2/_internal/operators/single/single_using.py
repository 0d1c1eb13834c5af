"""Single.using, and the ``using`` shared with Maybe and Completable.

RxJava 2's SingleUsing/MaybeUsing/CompletableUsing: per subscriber, acquire a
resource (``resource_supplier()``), subscribe the source ``source_supplier(resource)``
returns, and release the resource (``disposer(resource)``) exactly once: before the
terminal signal when ``eager``, after it otherwise, or on dispose. The resource is
held in a :class:`~rxpy2._internal.helpers.using_resource.UsingResource` (shared with
Flowable.using), so a dispose racing the terminal signal releases it once.

Errors: a supplier raising (or returning ``None``/the wrong type) is signalled; the
resource, if acquired, is still released. A disposer raising in eager mode becomes
the error (joined with the upstream's error in a ``CompositeException``); in
non-eager mode, or on dispose, it goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import ValidatedUpstream
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.using_resource import RELEASED
from rxpy2._internal.helpers.using_resource import UsingResource
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleUsing", "UsingSource"]

T = TypeVar("T")

class UsingSource:
    """``using`` itself, mixed into SingleUsing/MaybeUsing/CompletableUsing before the type;
    ``_KIND`` is the type ``source_supplier`` must return."""

    __slots__ = ("resource_supplier", "source_supplier", "disposer", "eager")

    _KIND: ClassVar[Any]

    def __init__(self, resource_supplier: Callable[[], Any],
                 source_supplier: Callable[[Any], Any], disposer: Callable[[Any], Any],
                 eager: bool) -> None:
        self.resource_supplier = resource_supplier
        self.source_supplier = source_supplier
        self.disposer = disposer
        self.eager = eager

    def subscribe_actual(self, observer: Any) -> None:
        try:
            resource = self.resource_supplier()
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        try:
            source: Any = self.source_supplier(resource)
            if source is None:
                raise returned_none("using", self.source_supplier, "source supplier")
            if not isinstance(source, self._KIND):
                raise TypeError(f"using: the source supplier returned a {type(source).__name__}, "
                                f"not a {self._KIND.__name__}")
        except Exception as e:
            err: BaseException = e
            if self.eager:
                try:
                    self.disposer(resource)
                except Exception as de:
                    err = CompositeException(e, de)
            EmptyDisposable.error(err, observer)
            if not self.eager:
                try:
                    self.disposer(resource)
                except Exception as de:
                    plugins.on_error(de)
            return
        source._subscribe(UsingObserver(observer, resource, self.disposer, self.eager))


class UsingObserver(ValidatedUpstream, UsingResource, SingleObserver[Any], MaybeObserver[Any],
                    CompletableObserver, Disposable):
    """Holds the resource (the reference) until it is released; one for the three types."""

    __slots__ = ("downstream", "eager", "upstream")

    def __init__(self, downstream: Any, resource: Any, disposer: Callable[[Any], Any],
                 eager: bool) -> None:
        super().__init__(resource, disposer)
        self.downstream = downstream
        self.eager = eager
        self.upstream: Disposable | None = None

    def _signal(self, name: str, *args: Any) -> None:
        """The terminal signal, the resource released before it (eager) or after it; in
        eager mode a disposer error replaces an item or completion, and joins an error."""
        self.upstream = DISPOSED
        if self.eager:
            r = self.release_before()
            if r is RELEASED:
                return
            if isinstance(r, BaseException):
                if name == "on_error":
                    args = (CompositeException(args[0], r),)
                else:
                    name, args = "on_error", (r,)
        getattr(self.downstream, name)(*args)
        if not self.eager:
            self.release_after()

    def on_success(self, item: Any) -> None:
        self._signal("on_success", item)

    def on_complete(self) -> None:
        self._signal("on_complete")

    def on_error(self, error: BaseException) -> None:
        self._signal("on_error", error)

    def dispose(self) -> None:
        d = self.upstream
        if d is not None:
            d.dispose()
        self.upstream = DISPOSED
        self.release_after()

    def is_disposed(self) -> bool:
        d = self.upstream
        return d is not None and d.is_disposed()


class SingleUsing(UsingSource, Single[T], Generic[T]):
    __slots__ = ()

    _KIND = Single
