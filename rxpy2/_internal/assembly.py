"""Assembly sites: where the user's code built a stage, for ``checkpoint()`` and for
assembly tracking (``rxpy2.plugins.set_assembly_tracking``).

* :func:`user_site` walks the caller's frames (``sys._getframe`` and ``f_back``, no
  ``traceback`` module, no source lines read) to the first one whose module is not
  ``rxpy2`` or below it, and answers it as an :class:`AssemblySite` (file, line,
  function): a few hundred nanoseconds.
* :func:`record` and :func:`site_of`: the sites of the sources assembled while tracking
  is on, held beside them (a ``WeakKeyDictionary``: a site does not keep its source
  alive, and a source collected takes its entry with it).
* :func:`add_note_once`: a note on an exception (``BaseException.add_note``), unless the
  same text (or a note of the same kind) is on it already. Only ever run on the error
  path.

Standard library only (the lowest floor): the notes' texts are made by the operators.
"""

from __future__ import annotations

import sys
import threading
import weakref
from typing import Any

__all__ = ["AssemblySite", "add_note_once", "record", "site_of", "user_site"]


class AssemblySite:
    """One frame of the user's code: ``filename:lineno in function``."""

    __slots__ = ("filename", "lineno", "function")

    def __init__(self, filename: str, lineno: int, function: str) -> None:
        self.filename = filename
        self.lineno = lineno
        self.function = function

    def __str__(self) -> str:
        return f"{self.filename}:{self.lineno} in {self.function}"

    def __repr__(self) -> str:
        return f"AssemblySite({self.filename!r}, {self.lineno}, {self.function!r})"


def _in_rxpy2(module: object) -> bool:
    return isinstance(module, str) and (module == "rxpy2" or module.startswith("rxpy2."))


def user_site() -> AssemblySite | None:
    """The first frame above this call that is outside the ``rxpy2`` package (by its
    module's ``__name__``); ``None`` when every frame is rxpy2's (a stage assembled by
    the library itself, on one of its threads)."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        if not _in_rxpy2(frame.f_globals.get("__name__")):
            code = frame.f_code
            return AssemblySite(code.co_filename, frame.f_lineno, code.co_name)
        frame = frame.f_back
    return None


_sites: weakref.WeakKeyDictionary[Any, AssemblySite] = weakref.WeakKeyDictionary()


def record(source: object, site: AssemblySite) -> None:
    """Remember that ``source`` was assembled at ``site`` (for as long as it lives)."""
    try:
        _sites[source] = site
    except TypeError:  # a replacement from a user's assembly hook that takes no weak reference
        pass


def site_of(source: object) -> AssemblySite | None:
    """The site :func:`record` kept for ``source``, if any."""
    try:
        return _sites.get(source)
    except TypeError:
        return None


_note_lock = threading.Lock()


def add_note_once(error: BaseException, text: str, kind: str | None = None) -> bool:
    """``error.add_note(text)`` unless ``text`` is one of its notes already, or (``kind``
    given) one of its notes starts with ``kind``; two threads noting the same error at
    once add it once. True when it was added. Never raises an ``Exception``: a note must
    not replace the error it describes (an exception whose ``__notes__`` was set to
    something that is not a list keeps what it has)."""
    with _note_lock:
        try:
            notes = getattr(error, "__notes__", None)
            if notes is not None:
                if text in notes:
                    return False
                if kind is not None and any(isinstance(n, str) and n.startswith(kind)
                                            for n in notes):
                    return False
            error.add_note(text)
            return True
        except Exception:
            return False
