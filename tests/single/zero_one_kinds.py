"""The three 0-1 types side by side, for tests parametrized over ``kind`` ("single",
"maybe", "completable"): their classes, probes, sources and how each signals success."""

from __future__ import annotations

from typing import Any

from probes import Boom
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Maybe
from rxpy2 import Single

KINDS = ["single", "maybe", "completable"]
TYPES: dict[str, Any] = {"single": Single, "maybe": Maybe, "completable": Completable}
PROBES: dict[str, Any] = {"single": ProbeSingle, "maybe": ProbeMaybe,
                          "completable": ProbeCompletable}
#: the source that terminates normally (``1``, or completes), the failing one, the silent one
OK: dict[str, Any] = {"single": lambda: Single.just(1), "maybe": lambda: Maybe.just(1),
                      "completable": Completable.complete}
FAILING: dict[str, Any] = {"single": lambda: Single.error(Boom()),
                           "maybe": lambda: Maybe.error(Boom()),
                           "completable": lambda: Completable.error(Boom())}
NEVER: dict[str, Any] = {"single": Single.never, "maybe": Maybe.never,
                         "completable": Completable.never}


def signal_ok(kind: str, probe: Any) -> None:
    """The probe's normal terminal signal: ``success(1)``, or ``complete()``."""
    if kind == "completable":
        probe.complete()
    else:
        probe.success(1)


def check_ok(kind: str, to: Any, item: Any = 1) -> None:
    """``to`` got the normal terminal signal (``item``, or the completion)."""
    if kind in ("completable", "maybe_empty"):
        to.assert_result()
    else:
        to.assert_result(item)


def blocking(source: Any) -> Any:
    """Wait (5 s at most) for ``source``'s item or completion."""
    if isinstance(source, Completable):
        return source.blocking_await(5)
    if isinstance(source, Maybe):
        return source.blocking_get(timeout=5)
    return source.blocking_get(5)
