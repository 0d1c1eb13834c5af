"""Assembly sites: where the user's code built a stage, for ``checkpoint()`` and for
assembly tracking (``rxpy2.plugins.set_assembly_tracking``).

* :func:`user_site` walks the caller's frames (``sys._getframe`` and ``f_back``, no
  ``traceback`` module, no source lines read) to the first one whose module is not
  ``rxpy2`` or below it, and answers it as an :class:`AssemblySite` (its code object
  and instruction offset; the line number is looked up when a note is written).
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
from types import CodeType
from typing import Any

__all__ = ["AssemblySite", "add_note_once", "record", "site_of", "user_site"]


class AssemblySite:
    """One frame of the user's code, kept as its code object and the offset of its last
    instruction: ``filename:lineno in function``, the line found only when asked for (a
    note being written)."""

    __slots__ = ("code", "lasti")

    def __init__(self, code: CodeType, lasti: int) -> None:
        self.code = code
        self.lasti = lasti

    @property
    def filename(self) -> str:
        return self.code.co_filename

    @property
    def function(self) -> str:
        return self.code.co_name

    @property
    def lineno(self) -> int | None:
        """The line of the instruction (as ``frame.f_lineno`` says it), ``None`` if none."""
        for start, end, line in self.code.co_lines():
            if start <= self.lasti < end:
                return line
        return None

    def __str__(self) -> str:
        return f"{self.filename}:{self.lineno} in {self.function}"

    def __repr__(self) -> str:
        return f"AssemblySite({self.filename!r}, {self.lineno}, {self.function!r})"


def user_site() -> AssemblySite | None:
    """The first frame above this call that is outside the ``rxpy2`` package (by its
    module's ``__name__``); ``None`` when every frame is rxpy2's (a stage assembled by
    the library itself, on one of its threads)."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__")
        if name.__class__ is not str or not (name.startswith("rxpy2.") or name == "rxpy2"):
            return AssemblySite(frame.f_code, frame.f_lasti)
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
