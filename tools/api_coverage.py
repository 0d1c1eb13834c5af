"""RxJava 2.2.21's public method names per type, compared with rxpy2's.

    tools/api-coverage                      # writes docs/api-coverage.md from the JSON files
    tools/api-coverage --check              # the same, and exits 1 when the lists disagree
    tools/api-coverage --write-pending      # also rewrites tools/api_pending.json from the gap
    tools/api-coverage --generate MIRROR    # regenerates tools/rxjava_2_2_21_api.json

``--generate`` reads the ``v2.2.21`` sources of a git mirror of ReactiveX/RxJava (a bare
repository is enough: files are read with ``git show v2.2.21:PATH``); it is the only mode that
needs the mirror, everything else (and ``tests/test_api_coverage.py``) reads the checked-in
JSON files.

Each RxJava name is, for rxpy2, one of:

* present: the rxpy2 class has the snake_case name (inherited attributes count);
* not ported: listed, with the reason and the Python way, in the ``## Names not ported`` table
  of ``docs/rxjava-differences.md``;
* pending: listed in ``tools/api_pending.json`` (not yet ported: issues 16 and 17).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
API_JSON = ROOT / "tools" / "rxjava_2_2_21_api.json"
PENDING_JSON = ROOT / "tools" / "api_pending.json"
DIFFERENCES_MD = ROOT / "docs" / "rxjava-differences.md"
COVERAGE_MD = ROOT / "docs" / "api-coverage.md"
TAG = "v2.2.21"
REGENERATE = "tools/api-coverage --generate <git mirror of ReactiveX/RxJava>"

_JAVA = "src/main/java/io/reactivex/"
# type name -> (RxJava source file, rxpy2 module, rxpy2 class name)
TYPES: dict[str, tuple[str, str, str]] = {
    "Flowable": (_JAVA + "Flowable.java", "rxpy2", "Flowable"),
    "Single": (_JAVA + "Single.java", "rxpy2", "Single"),
    "Maybe": (_JAVA + "Maybe.java", "rxpy2", "Maybe"),
    "Completable": (_JAVA + "Completable.java", "rxpy2", "Completable"),
    "ParallelFlowable": (_JAVA + "parallel/ParallelFlowable.java", "rxpy2", "ParallelFlowable"),
    "ConnectableFlowable": (_JAVA + "flowables/ConnectableFlowable.java", "rxpy2",
                            "ConnectableFlowable"),
    "FlowableProcessor": (_JAVA + "processors/FlowableProcessor.java", "rxpy2.processors",
                          "FlowableProcessor"),
    "PublishProcessor": (_JAVA + "processors/PublishProcessor.java", "rxpy2.processors",
                         "PublishProcessor"),
    "BehaviorProcessor": (_JAVA + "processors/BehaviorProcessor.java", "rxpy2.processors",
                          "BehaviorProcessor"),
    "ReplayProcessor": (_JAVA + "processors/ReplayProcessor.java", "rxpy2.processors",
                        "ReplayProcessor"),
    "UnicastProcessor": (_JAVA + "processors/UnicastProcessor.java", "rxpy2.processors",
                         "UnicastProcessor"),
    "AsyncProcessor": (_JAVA + "processors/AsyncProcessor.java", "rxpy2.processors",
                       "AsyncProcessor"),
    "MulticastProcessor": (_JAVA + "processors/MulticastProcessor.java", "rxpy2.processors",
                           "MulticastProcessor"),
}

# java.lang.Object's methods: skipped unless declared static (then they are operators,
# e.g. Single.equals(a, b)).
_OBJECT_METHODS = {"equals", "hashCode", "toString", "getClass", "clone", "finalize",
                   "notify", "notifyAll", "wait"}

# -- generating the JSON from the Java sources ---------------------------------------------------

_NOISE = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)
_METHOD = re.compile(r"\bpublic\s+([^;{}=()]*?)\b([A-Za-z_]\w*)\s*\($", re.S)


def snake_case(name: str) -> str:
    """``flatMapIterable`` -> ``flat_map_iterable``."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def java_public_methods(source: str, class_name: str) -> tuple[set[str], set[str]]:
    """(public method names, @Deprecated-only names) declared directly in the top-level class
    of ``source`` (members of nested classes and constructors are left out)."""
    code = _NOISE.sub(lambda m: " " if m.group(0)[0] in "/" else '""', source)
    deprecated: set[str] = set()
    kept: set[str] = set()
    depth = 0
    header: list[str] = []
    for ch in code:
        if depth == 1:
            if ch in "{;":
                header = []
            elif ch == "(":
                header.append(ch)
                _declaration("".join(header), class_name, kept, deprecated)
            else:
                header.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 1:
                header = []
    # an overload that is not deprecated keeps the name
    return kept, deprecated - kept


def _declaration(text: str, class_name: str, kept: set[str], deprecated: set[str]) -> None:
    """Called at each "(" of a top-level declaration: is it "public ... name("?"""
    m = _METHOD.search(text)
    if not m:
        return
    modifiers, name = m.group(1), m.group(2)
    if name == class_name or name in {"if", "for", "while", "switch", "catch", "return", "new"}:
        return
    if name in _OBJECT_METHODS and "static" not in modifiers.split():
        return
    before = text[: m.start()]
    (deprecated if re.search(r"@Deprecated\b", before) else kept).add(name)


def generate(mirror: Path) -> dict[str, object]:
    types: dict[str, list[str]] = {}
    skipped: dict[str, list[str]] = {}
    for type_name, (path, _module, _cls) in TYPES.items():
        source = subprocess.run(["git", "-C", str(mirror), "show", f"{TAG}:{path}"],
                                check=True, capture_output=True, text=True).stdout
        names, deprecated = java_public_methods(source, path.rsplit("/", 1)[-1][:-5])
        types[type_name] = sorted({snake_case(n) for n in names})
        if deprecated:
            skipped[type_name] = sorted({snake_case(n) for n in deprecated})
    return {
        "_regenerate": REGENERATE,
        "_source": f"ReactiveX/RxJava {TAG}: the public methods declared in each type's own "
                   "source file (inherited ones are listed under the parent type), "
                   "constructors, java.lang.Object overrides and @Deprecated methods left out; "
                   "snake_case, overloads collapsed",
        "_deprecated_left_out": skipped,
        **types,
    }


# -- comparing ---------------------------------------------------------------------------------


def load_api() -> dict[str, list[str]]:
    data = json.loads(API_JSON.read_text())
    return {k: v for k, v in data.items() if not k.startswith("_")}


def load_pending() -> dict[str, list[str]]:
    if not PENDING_JSON.exists():
        return {}
    data = json.loads(PENDING_JSON.read_text())
    return {k: v for k, v in data.items() if not k.startswith("_")}


_CODE = re.compile(r"`([^`]+)`")


def not_ported() -> dict[str, dict[str, str]]:
    """type -> {snake_case name: why} from the ``## Names not ported`` table. The type cell may
    name several types (comma-separated); the name cell several names in backticks."""
    text = DIFFERENCES_MD.read_text()
    m = re.search(r"^## Names not ported\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    out: dict[str, dict[str, str]] = {}
    if not m:
        return out
    for line in m.group(1).splitlines():
        if not line.startswith("| ") or line.startswith("| type") or "---" in line:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) < 4:
            continue
        types = [t.strip().strip("`") for t in cells[0].split(",")]
        for type_name in types:
            for name in _CODE.findall(cells[1]):
                out.setdefault(type_name, {})[name] = cells[2]
    return out


def rxpy2_class(type_name: str) -> type | None:
    _path, module, cls = TYPES[type_name]
    return getattr(importlib.import_module(module), cls, None)


@dataclass
class Coverage:
    type_name: str
    present: list[str] = field(default_factory=list)
    not_ported: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # in none of the three
    problems: list[str] = field(default_factory=list)


def compare() -> list[Coverage]:
    api = load_api()
    pending = load_pending()
    absent = not_ported()
    result = []
    for type_name, names in api.items():
        cls = rxpy2_class(type_name)
        cov = Coverage(type_name)
        reasons = absent.get(type_name, {})
        waiting = set(pending.get(type_name, []))
        for name in names:
            here = cls is not None and hasattr(cls, name)
            if here:
                cov.present.append(name)
            elif name in reasons:
                cov.not_ported.append(name)
            elif name in waiting:
                cov.pending.append(name)
            else:
                cov.missing.append(name)
            if name in waiting and (here or name in reasons):
                cov.problems.append(f"{type_name}.{name} is in tools/api_pending.json but is "
                                    + ("present in rxpy2" if here else "listed as not ported")
                                    + ": take it off the pending list")
            if here and name in reasons:
                cov.problems.append(f"{type_name}.{name} is present in rxpy2 but listed as not "
                                    "ported in docs/rxjava-differences.md")
        for name in sorted(waiting - set(names)):
            cov.problems.append(f"{type_name}.{name} is in tools/api_pending.json but is not an "
                                "RxJava 2.2.21 name")
        for name in sorted(set(reasons) - set(names)):
            cov.problems.append(f"{type_name}.{name} is listed as not ported but is not an "
                                "RxJava 2.2.21 name of that type")
        result.append(cov)
    for type_name in sorted(set(absent) - set(api)):
        cov = Coverage(type_name, problems=[f"unknown type {type_name!r} in the Names not "
                                            "ported table"])
        result.append(cov)
    for type_name in sorted(set(pending) - set(api)):
        result.append(Coverage(type_name, problems=[f"unknown type {type_name!r} in "
                                                    "tools/api_pending.json"]))
    return result


def _names(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) if names else "none"


def render(coverage: list[Coverage]) -> str:
    lines = [
        "# RxJava 2.2.21 API coverage",
        "",
        "Written by `tools/api-coverage` (do not edit by hand). Every public method name of",
        "RxJava 2.2.21's types (`tools/rxjava_2_2_21_api.json`, generated from the `v2.2.21`",
        "sources), in snake_case, is either present in rxpy2, not ported on purpose (the reason",
        "and the Python way are in [the RxJava differences](rxjava-differences.md#names-not-ported)),",
        "or not yet ported (`tools/api_pending.json`, issues 16 and 17).",
        "`tests/test_api_coverage.py` fails when a name is in none of these, and when a pending",
        "name has been ported (the pending list only shrinks).",
        "",
        "Each type lists the methods declared in its own RxJava source file: the processors'",
        "inherited Flowable operators are counted under Flowable.",
        "",
        "| type | RxJava names | present | not ported (with a reason) | not yet ported |",
        "| --- | --- | --- | --- | --- |",
    ]
    totals = [0, 0, 0, 0]
    for cov in coverage:
        n = len(cov.present) + len(cov.not_ported) + len(cov.pending) + len(cov.missing)
        pend = len(cov.pending) + len(cov.missing)
        lines.append(f"| {cov.type_name} | {n} | {len(cov.present)} | {len(cov.not_ported)} "
                     f"| {pend} |")
        for i, v in enumerate((n, len(cov.present), len(cov.not_ported), pend)):
            totals[i] += v
    lines.append(f"| all | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |")
    for cov in coverage:
        lines += [
            "",
            f"## {cov.type_name}",
            "",
            f"- present ({len(cov.present)}): {_names(cov.present)}",
            f"- not ported, with a reason ({len(cov.not_ported)}): {_names(cov.not_ported)}",
            f"- not yet ported ({len(cov.pending) + len(cov.missing)}): "
            f"{_names(sorted(cov.pending + cov.missing))}",
        ]
    return "\n".join(lines) + "\n"


def write_pending(coverage: list[Coverage]) -> None:
    data: dict[str, object] = {
        "_about": "RxJava 2.2.21 names not yet ported to rxpy2 (issues 16 and 17). This list "
                  "may only shrink: tests/test_api_coverage.py fails when a name here is "
                  "present in rxpy2 or listed under 'Names not ported' in "
                  "docs/rxjava-differences.md. Rewritten from the current gap by "
                  "`tools/api-coverage --write-pending`.",
    }
    for cov in coverage:
        names = sorted(cov.pending + cov.missing)
        if names:
            data[cov.type_name] = names
    PENDING_JSON.write_text(json.dumps(data, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generate", metavar="MIRROR", type=Path,
                        help="regenerate tools/rxjava_2_2_21_api.json from a git mirror of "
                             "ReactiveX/RxJava (needs the v2.2.21 tag)")
    parser.add_argument("--write-pending", action="store_true",
                        help="rewrite tools/api_pending.json with the current gap")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a name is unaccounted for or the lists disagree")
    parser.add_argument("--no-write", action="store_true", help="do not write docs/api-coverage.md")
    args = parser.parse_args(argv)
    if args.generate:
        data = generate(args.generate)
        API_JSON.write_text(json.dumps(data, indent=1) + "\n")
        counts = {k: len(v) for k, v in data.items() if not k.startswith("_")}
        print(f"wrote {API_JSON.relative_to(ROOT)}: {counts}")
    coverage = compare()
    if args.write_pending:
        write_pending(coverage)
        print(f"wrote {PENDING_JSON.relative_to(ROOT)}")
        coverage = compare()
    for cov in coverage:
        print(f"{cov.type_name:20} present {len(cov.present):4}  not ported "
              f"{len(cov.not_ported):3}  pending {len(cov.pending):3}  "
              f"unaccounted {len(cov.missing):3}")
    if not args.no_write:
        COVERAGE_MD.write_text(render(coverage))
        print(f"wrote {COVERAGE_MD.relative_to(ROOT)}")
    problems = [p for cov in coverage for p in cov.problems]
    problems += [f"{cov.type_name}.{n} is neither in rxpy2, nor listed as not ported, nor pending"
                 for cov in coverage for n in cov.missing]
    for p in problems:
        print("problem:", p)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
