"""The floors of rxpy2, as docs/architecture.md draws them, held against its imports.

Every ``import`` and ``from ... import`` of a module of ``rxpy2/`` counts, wherever it
stands (the top, a function, an ``if TYPE_CHECKING:`` block): a reader and a type checker
follow each one. Nothing is imported or run here.
"""

from __future__ import annotations

import ast
import pathlib
from collections import defaultdict

import rxpy2

PACKAGE = pathlib.Path(rxpy2.__file__).parent

#: The floors, from the top: a module stands on the floor of the longest prefix here that
#: names it, and imports only from its own floor and those below (docs/architecture.md).
FLOORS: dict[int, tuple[str, ...]] = {
    7: ("rxpy2", "rxpy2.spark", "rxpy2.tck"),
    6: ("rxpy2.flowable", "rxpy2.single", "rxpy2.maybe", "rxpy2.completable",
        "rxpy2._internal.zero_one", "rxpy2.connectable_flowable", "rxpy2.grouped_flowable",
        "rxpy2.parallel", "rxpy2.processors",
        "rxpy2._internal.operators", "rxpy2.testing",
        "rxpy2._internal.combine_latest_signature"),
    5: ("rxpy2.operator_kit", "rxpy2._internal.arguments"),
    4: ("rxpy2._internal.subscribers", "rxpy2._internal.subscriptions", "rxpy2._internal.observers",
        "rxpy2._internal.helpers", "rxpy2.schedulers", "rxpy2.disposables",
        "rxpy2._internal.describe"),
    3: ("rxpy2.plugins", "rxpy2._internal.fuseable", "rxpy2.observers", "rxpy2.emitter"),
    2: ("rxpy2._internal.drain", "rxpy2._internal.atomic", "rxpy2._internal.queues"),
    1: ("rxpy2.reactivestreams", "rxpy2.exceptions", "rxpy2.notification", "rxpy2.backpressure",
        "rxpy2.timed", "rxpy2._internal", "rxpy2._internal.lazy_import", "rxpy2._internal.type_cache",
        "rxpy2._internal.name_trap", "rxpy2._internal.disposable"),
}

#: The one circle allowed: the Flowable types (their fluent methods build operators) and
#: their operators (which build Flowables), tied through the deferred operator packages
#: (rxpy2/_internal/lazy_import.py). Prefixes of module names.
THE_CIRCLE = (
    "rxpy2.flowable", "rxpy2.single", "rxpy2.maybe", "rxpy2.completable",
    "rxpy2._internal.zero_one", "rxpy2.connectable_flowable", "rxpy2.grouped_flowable",
    "rxpy2.parallel", "rxpy2.processors",
    "rxpy2._internal.operators.",
    # the typed signature Flowable.combine_latest and combine_latest_delay_error share,
    # which answers Flowables
    "rxpy2._internal.combine_latest_signature",
)

#: The public face of the kernel, and the only modules that may import it: the operators
#: and the packages above them (the face imports the kernel, so no kernel module may).
FACE = "rxpy2.operator_kit"
FACE_USERS = ("rxpy2._internal.operators.", "rxpy2.spark", "rxpy2.processors", "rxpy2.parallel")


def _modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for target in targets:
                resolved = _resolve(target) if target.startswith("rxpy2") else None
                if resolved and resolved != name:
                    edges[name].add(resolved)
    return edges


EDGES = _imports()


def _circles() -> list[set[str]]:
    """The strongly connected parts of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    counter = 0
    for root in sorted(MODULES):
        if root in index:
            continue
        work = [(root, iter(sorted(EDGES[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(EDGES[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    part = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        part.add(w)
                        if w == v:
                            break
                    if len(part) > 1:
                        found.append(part)
    return found


def _floor(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for floor, prefixes in FLOORS.items():
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                    best is None or len(prefix) > best[1]):
                best = (floor, len(prefix))
    return None if best is None else best[0]


def test_every_module_stands_on_a_floor() -> None:
    assert sorted(m for m in MODULES if _floor(m) is None) == []


def test_no_import_runs_up_a_floor() -> None:
    up = sorted(f"{a} (floor {_floor(a)}) imports {b} (floor {_floor(b)})"
                for a, targets in EDGES.items() for b in targets
                if (_floor(b) or 0) > (_floor(a) or 0))
    assert up == []


def test_the_only_circle_is_the_flowable_types_and_their_operators() -> None:
    circles = _circles()
    assert len(circles) <= 1, [sorted(c)[:5] for c in circles]
    outside = sorted(m for c in circles for m in c if not m.startswith(THE_CIRCLE))
    assert outside == []


def test_nothing_below_the_face_imports_it() -> None:
    importers = sorted(m for m, targets in EDGES.items()
                       if FACE in targets and not m.startswith(FACE_USERS))
    assert importers == []


def test_no_module_imports_another_modules_private_names() -> None:
    taken = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rxpy2"):
                taken += [f"{name}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert taken == []


def test_the_circle_is_found_when_there_is_one() -> None:
    # the check above must be able to fail: the Flowable types and operators do form a circle
    circles = _circles()
    assert circles and {"rxpy2.flowable", "rxpy2._internal.operators.flowable.flowable_map"} <= circles[0]
