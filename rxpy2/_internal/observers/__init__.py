"""Reusable observers of the 0-1 reactive types (RxJava 2's ``internal.observers``).

* :mod:`.empty` — ``EmptyDisposable`` and the "subscribe then terminate at once" helpers.
* :mod:`.callback` — the observers behind ``Single/Maybe/Completable.subscribe(callbacks)``.
* :mod:`.blocking` — ``BlockingMultiObserver`` behind ``blocking_get``/``blocking_await``.
* :mod:`.resume` — observers that continue a stream in a second source while keeping
  the first one's Disposable slot (``flat_map``, ``and_then``, ``switch_if_empty`` ...).
* :mod:`.do_finally` — ``DoFinallyObserver`` for the three types.
"""

from rxpy2._internal.observers.blocking import BlockingMultiObserver
from rxpy2._internal.observers.callback import CallbackCompletableObserver
from rxpy2._internal.observers.callback import CallbackMaybeObserver
from rxpy2._internal.observers.callback import ConsumerSingleObserver
from rxpy2._internal.observers.do_finally import DoFinallyObserver
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2._internal.observers.resume import ResumeCompletableObserver
from rxpy2._internal.observers.resume import ResumeMaybeObserver
from rxpy2._internal.observers.resume import ResumeSingleObserver

__all__ = [
    "BlockingMultiObserver",
    "CallbackCompletableObserver",
    "CallbackMaybeObserver",
    "ConsumerSingleObserver",
    "DoFinallyObserver",
    "EmptyDisposable",
    "ResumeCompletableObserver",
    "ResumeMaybeObserver",
    "ResumeSingleObserver",
]
