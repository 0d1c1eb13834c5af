"""RxJava 2.2.21's public method names and signatures per type, compared with rxpy2's.

    tools/api-coverage                      # writes docs/api-coverage.md from the JSON files
    tools/api-coverage --check              # the same, and exits 1 when the lists disagree
    tools/api-coverage --write-pending      # also rewrites the two pending lists from the gap
    tools/api-coverage --generate MIRROR    # regenerates tools/rxjava_2_2_21_api.json

``--generate`` reads the ``v2.2.21`` sources of a git mirror of ReactiveX/RxJava (a bare
repository is enough: files are read with ``git show v2.2.21:PATH``); it is the only mode that
needs the mirror, everything else (and ``tests/test_api_coverage.py``) reads the checked-in
JSON files. It writes each type's names (snake_case, overloads collapsed) and, under
``_signatures``, each public overload that is not ``@Deprecated`` (java.lang.Object's
instance methods left out, as for the names): ``static zip(Iterable<Publisher> sources,
Function zipper)``, generics stripped (an ``Iterable`` keeps its element type).

Names. Each RxJava name is, for rxpy2, one of:

* present: the rxpy2 class has the snake_case name (inherited attributes count);
* not ported: listed, with the reason and the Python way, in the ``## Names not ported`` table
  of ``docs/rxjava-differences.md``;
* pending: listed in ``tools/api_pending.json`` (not yet ported: issues 16 and 17).

Signatures. Each overload, named by its key ``buffer(long, TimeUnit, Scheduler)``, is one of
(the first that holds):

* accepted as RxJava writes it. Its Java parameters become sample arguments: ``int``/``long``
  an int; a ``TimeUnit`` is dropped and the ``long``s of that signature (but ``count`` and
  ``start``) become durations (rxpy2 takes seconds, a float); ``boolean`` a bool;
  ``Scheduler`` a scheduler; ``Publisher``/``Flowable`` a Flowable, ``SingleSource`` a
  Single (Maybe, Completable alike); a Publisher of sources (``Publisher<SingleSource>``)
  one that only a ``Publisher[Single[...]]`` annotation takes, a ``Consumer<Notification>``
  one that only a ``Callable[[Notification[T]], ...]`` takes; the functional interfaces
  (``Function``, ``BiFunction``, ``Predicate``, ``Consumer``, ``Action``, ``Callable``,
  ``...Transformer``, ``...OnSubscribe``, ...) a callable of as many arguments as their
  method; an ``Iterable`` or an array a list; varargs two arguments or one list; a type
  variable (``T item``) an item; a ``Comparator`` or an ``ObservableSource`` nothing rxpy2
  takes; an ``int capacityHint``/``initialCapacity`` (a JVM allocation hint) a hint that only
  a parameter of the same name takes.

  The arguments, in RxJava's order, are bound with ``inspect.Signature.bind`` (after a
  placeholder ``self`` for an instance method; a Java static method needs an rxpy2 static
  method, an instance method an rxpy2 instance method): first all positionally, then with
  the last ones by their Java parameter names in snake_case as keywords, one more at a time
  (``delay(long delay, TimeUnit unit, boolean delayError)`` binds as ``delay(<duration>,
  delay_error=<bool>)``). A method with typed ``@overload`` variants is bound against those
  (its declared call forms), any other against its runtime signature.

  A binding counts when every argument fits its parameter. A positional argument must not
  land on another parameter than the one named like it when rxpy2 has that name
  (``interval(long initialDelay, long period, TimeUnit unit)`` is taken as
  ``interval(initial_delay=..., period=...)``, never as rxpy2's ``interval(period,
  initial_delay)``). Each member of the annotation's union names what it takes (``int``,
  ``float``, ``Callable``, ``Publisher``, ``Scheduler``, ``Self`` the type itself, ...); a
  ``Callable[[A, B], R]`` takes only a function of two arguments (a ``BiConsumer`` is no
  ``Callable[[T], Any]``); ``Any`` or no annotation take everything, but on
  ``*sources: Any``, which takes sources and, last, a callable (the rule of the "Call forms"
  section of ``docs/rxjava-differences.md``); a TypeVar takes everything but a list (there a
  list is one item, where RxJava's ``Iterable`` overload means its items); an item (a Java
  type variable) fits every parameter. Nothing is called: no operator is assembled and
  nothing is subscribed;
* mapped: ``tools/api_overloads.json`` gives the rxpy2 call form that serves it
  (``"buffer(long, TimeUnit)": "buffer_time(timespan)"``), and that form binds (its
  arguments are placeholders: only their number and keywords are checked; a bare name is a
  property);
* not ported: its key is in the ``## Overloads not ported`` table of
  ``docs/rxjava-differences.md``, or its name is not ported;
* pending: listed in ``tools/api_pending_signatures.json``.

Both pending lists only shrink: an entry that is now present, accepted, mapped or documented
is a problem (``--check`` exits 1), as is a mapped form that no longer binds or one listed for
an overload that rxpy2 already takes as RxJava writes it.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import re
import subprocess
import sys
import typing
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
API_JSON = ROOT / "tools" / "rxjava_2_2_21_api.json"
PENDING_JSON = ROOT / "tools" / "api_pending.json"
OVERLOADS_JSON = ROOT / "tools" / "api_overloads.json"
PENDING_SIGNATURES_JSON = ROOT / "tools" / "api_pending_signatures.json"
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
    kept: set[str] = set()
    deprecated: set[str] = set()
    for decl in java_declarations(source, class_name):
        (deprecated if decl.deprecated else kept).add(decl.name)
    # an overload that is not deprecated keeps the name
    return kept, deprecated - kept


@dataclass
class JavaParam:
    type: str  # generics stripped: "Function", "Publisher[]", "Publisher..." (varargs)
    name: str
    element: str = ""  # an Iterable's element type, a Publisher's when it is a source type,
    # a Consumer's when it is a Notification


@dataclass
class JavaMethod:
    name: str  # as RxJava spells it
    static: bool
    deprecated: bool
    params: list[JavaParam]


def java_declarations(source: str, class_name: str) -> list[JavaMethod]:
    """Every public method declared directly in the top-level class of ``source``, overloads
    one by one, with its parameters (members of nested classes, constructors and the
    instance methods of java.lang.Object are left out)."""
    code = _NOISE.sub(lambda m: " " if m.group(0)[0] in "/" else '""', source)
    out: list[JavaMethod] = []
    depth = 0
    header: list[str] = []
    i = 0
    while i < len(code):
        ch = code[i]
        if depth == 1:
            if ch in "{;":
                header = []
            elif ch == "(":
                header.append(ch)
                close = _matching_paren(code, i)
                decl = _declaration("".join(header), class_name, code[i + 1:close])
                if decl is not None:
                    out.append(decl)
                header.append(code[i + 1:close + 1])
                i = close + 1
                continue
            else:
                header.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 1:
                header = []
        i += 1
    return out


def _matching_paren(code: str, start: int) -> int:
    level = 0
    for j in range(start, len(code)):
        if code[j] == "(":
            level += 1
        elif code[j] == ")":
            level -= 1
            if level == 0:
                return j
    return len(code) - 1


def _declaration(text: str, class_name: str, params: str) -> JavaMethod | None:
    """Called at each "(" of a top-level declaration: is it "public ... name("?"""
    m = _METHOD.search(text)
    if not m:
        return None
    modifiers, name = m.group(1), m.group(2)
    if name == class_name or name in {"if", "for", "while", "switch", "catch", "return", "new"}:
        return None
    static = "static" in modifiers.split()
    if name in _OBJECT_METHODS and not static:
        return None
    before = text[: m.start()]
    return JavaMethod(name, static, bool(re.search(r"@Deprecated\b", before)),
                      [_param(p) for p in _split_top(params)])


_GENERIC = re.compile(r"<[^<>]*>")
_ANNOTATION = re.compile(r"@\w+(?:\s*\([^()]*\))?")


def _strip_generics(text: str) -> str:
    prev = ""
    while prev != text:
        prev, text = text, _GENERIC.sub("", text)
    return text


def _split_top(params: str) -> list[str]:
    """Split a parameter list at the commas outside of ``<...>``."""
    out: list[str] = []
    level = 0
    cur: list[str] = []
    for ch in params:
        level += (ch == "<") - (ch == ">")
        if ch == "," and level == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [p.strip() for p in out if p.strip()]


def _param(text: str) -> JavaParam:
    text = _ANNOTATION.sub(" ", text)
    text = re.sub(r"\bfinal\b", " ", text).strip()
    type_text, _, name = text.rpartition(" ")
    type_text = re.sub(r"\s+", "", type_text)
    element = ""
    outer = _simple(_strip_generics(type_text))
    if outer in ("Iterable", "Publisher", "Consumer") and type_text.endswith(">"):
        inner = type_text[type_text.index("<") + 1:-1]
        element = _simple(_strip_generics(re.sub(r"^\?(?:extends|super)", "", inner)))
        if outer == "Publisher" and element not in _SOURCES:
            element = ""
        if outer == "Consumer" and element != "Notification":
            element = ""
    return JavaParam(outer, name, element)


# a Publisher of these is written ``Publisher<SingleSource>``: it is not a Publisher of items
# (and a ``Consumer<Notification>`` is not a Consumer of items)
_SOURCES = {"Publisher", "SingleSource", "MaybeSource", "CompletableSource"}


def _simple(type_text: str) -> str:
    """``java.util.concurrent.Future`` -> ``Future``, keeping ``[]`` and ``...``."""
    suffix = ""
    for end in ("...", "[]"):
        if type_text.endswith(end):
            type_text, suffix = type_text[: -len(end)], end
    return type_text.rsplit(".", 1)[-1] + suffix


def signature_text(decl: JavaMethod) -> str:
    """How a signature is stored: ``static zip(Iterable<Publisher> sources, Function zipper)``
    (the name in snake_case, generics stripped; an Iterable keeps its element type, and so do
    a Publisher of sources, ``Publisher<SingleSource>``, and ``Consumer<Notification>``)."""
    params = ", ".join(
        (f"{p.type}<{p.element}>" if p.element else p.type) + f" {p.name}" for p in decl.params)
    return ("static " if decl.static else "") + f"{snake_case(decl.name)}({params})"


def generate(mirror: Path) -> dict[str, object]:
    types: dict[str, list[str]] = {}
    skipped: dict[str, list[str]] = {}
    signatures: dict[str, list[str]] = {}
    for type_name, (path, _module, _cls) in TYPES.items():
        source = subprocess.run(["git", "-C", str(mirror), "show", f"{TAG}:{path}"],
                                check=True, capture_output=True, text=True).stdout
        class_name = path.rsplit("/", 1)[-1][:-5]
        names, deprecated = java_public_methods(source, class_name)
        types[type_name] = sorted({snake_case(n) for n in names})
        if deprecated:
            skipped[type_name] = sorted({snake_case(n) for n in deprecated})
        sigs = [signature_text(d) for d in java_declarations(source, class_name)
                if not d.deprecated]
        keys = [JavaSignature.parse(s).key for s in sigs]
        if len(set(keys)) != len(keys):
            raise SystemExit(f"{type_name}: two overloads read the same once generics are "
                             "stripped: " + ", ".join(sorted({k for k in keys
                                                              if keys.count(k) > 1})))
        signatures[type_name] = sigs
    return {
        "_regenerate": REGENERATE,
        "_source": f"ReactiveX/RxJava {TAG}: the public methods declared in each type's own "
                   "source file (inherited ones are listed under the parent type), "
                   "constructors, java.lang.Object overrides and @Deprecated methods left out; "
                   "snake_case, overloads collapsed under the type's key, one by one under "
                   "_signatures (in source order, generics stripped)",
        "_deprecated_left_out": skipped,
        "_signatures": signatures,
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
    return _table("Names not ported")


def _table(heading: str) -> dict[str, dict[str, str]]:
    text = DIFFERENCES_MD.read_text()
    m = re.search(rf"^## {heading}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
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


# -- signatures -----------------------------------------------------------------------------

_SIGNATURE = re.compile(r"^(static )?(\w+)\((.*)\)$")


@dataclass(frozen=True)
class JavaSignature:
    """One RxJava overload as stored in ``_signatures``."""

    static: bool
    name: str  # snake_case
    params: tuple[tuple[str, str], ...]  # (Java type, Java parameter name)

    @classmethod
    def parse(cls, text: str) -> JavaSignature:
        m = _SIGNATURE.match(text)
        if not m:
            raise ValueError(f"not a stored signature: {text!r}")
        params = tuple((t, n) for t, _, n in (p.strip().rpartition(" ")
                                               for p in m.group(3).split(", ") if p.strip()))
        return cls(bool(m.group(1)), m.group(2), params)

    @property
    def key(self) -> str:
        """``buffer(long, TimeUnit, Scheduler)``: how the tables name the overload."""
        return f"{self.name}({', '.join(t for t, _ in self.params)})"

    def __str__(self) -> str:
        return ("static " if self.static else "") + (
            f"{self.name}({', '.join(f'{t} {n}' for t, n in self.params)})")


# Java parameter type -> the kind of sample argument that stands for it.
_KIND = {
    "int": "int", "long": "int", "short": "int", "byte": "int", "Integer": "int", "Long": "int",
    "double": "float", "float": "float", "Double": "float",
    "boolean": "bool", "Boolean": "bool",
    "Scheduler": "scheduler",
    "Publisher": "Flowable", "Flowable": "Flowable",
    "SingleSource": "Single", "Single": "Single",
    "MaybeSource": "Maybe", "Maybe": "Maybe",
    "CompletableSource": "Completable", "Completable": "Completable",
    "ObservableSource": "Observable", "Observable": "Observable",
    "Iterable": "list",
    "Class": "type",
    "Throwable": "error",
    "Future": "future",
    "Subscriber": "subscriber", "FlowableSubscriber": "subscriber",
    "SingleObserver": "observer", "MaybeObserver": "observer", "CompletableObserver": "observer",
    "Subscription": "subscription",
    "BackpressureStrategy": "BackpressureStrategy",
    "BackpressureOverflowStrategy": "BackpressureOverflowStrategy",
    "ParallelFailureHandling": "ParallelFailureHandling",
    "Object": "item",
    "Comparator": "comparator",
}
_FUNCTIONAL = re.compile(r"(?:Function\d*|Predicate|Consumer|Action|Callable|Supplier|Transformer"
                         r"|Converter|Operator|OnSubscribe|Comparator|Runnable|Cancellable)$")
_TYPE_VARIABLE = re.compile(r"^[A-Z]$")
# a java long of a signature with a TimeUnit is a duration unless it is named so
_NOT_A_DURATION = {"count", "start"}
# JVM allocation hints: only an rxpy2 parameter of the same name takes one
# (buffer(boundary, initialCapacity) is not buffer(boundary, skip))
_HINTS = {"capacityHint", "initialCapacity"}

# the annotation heads (the names before "[" in each member of a union) that take a kind;
# ``Any``, ``object``, a TypeVar and a parameter without annotation take every kind, and a
# Java type variable (``T item``) fits every rxpy2 parameter
_TAKES = {
    "int": {"int", "float", "SupportsIndex"},
    "float": {"float"},
    "duration": {"float"},
    "bool": {"bool"},
    "scheduler": {"Scheduler", "Clock"},
    "Flowable": {"Publisher", "Flowable"},
    "Single": {"Single", "ZeroOneBase"},
    "Maybe": {"Maybe", "ZeroOneBase"},
    "Completable": {"Completable", "ZeroOneBase"},
    "Observable": set(),
    "list": {"Iterable", "Sequence", "list", "Collection"},
    "type": {"type"},
    "error": {"BaseException", "Exception"},
    "future": {"Future"},
    "subscriber": {"Subscriber", "SubscriberT"},
    "observer": {"SingleObserver", "MaybeObserver", "CompletableObserver"},
    "subscription": {"Subscription"},
    "callable": {"Callable", "ErrorHandling"},
    "comparator": set(),
    "BackpressureStrategy": {"BackpressureStrategy"},
    "BackpressureOverflowStrategy": {"BackpressureOverflowStrategy"},
    "ParallelFailureHandling": {"ParallelFailureHandling", "ErrorHandling"},
    "unknown": set(),
}
# a Publisher of sources: an annotation member such as ``Publisher[Single[T]]``
_PUBLISHER_OF_SOURCES = re.compile(r"^(?:\w+\.)?(?:Publisher|Flowable)\[\s*(?:\w+\.)?"
                                   r"(?:Publisher|Flowable|Single|Maybe|Completable|ZeroOneBase)\b")


def java_kind(java_type: str) -> str:
    base = java_type.removesuffix("...").removesuffix("[]")
    if base.startswith("Iterable<"):
        return "list"
    if base.startswith("Publisher<"):
        return "sources"
    if base == "Consumer<Notification>":
        return "notification_consumer"
    if java_type.endswith("[]"):
        return "list"
    if base in _KIND:
        return _KIND[base]
    if _TYPE_VARIABLE.match(base):
        return "item"
    if _FUNCTIONAL.search(base) or base in {"BooleanSupplier", "LongConsumer"}:
        return "callable"
    return "unknown"


@dataclass(frozen=True)
class _Arg:
    kind: str
    name: str  # the Java parameter name in snake_case: its keyword
    variadic: bool = False
    arity: int | None = None  # how many arguments a functional interface's method takes


class _Sample:
    """A placeholder argument: binding only looks at the number and the names of the
    arguments, and the kind is checked against the parameter's annotation."""

    def __init__(self, kind: str, name: str = "", arity: int | None = None) -> None:
        self.kind = kind
        self.name = name  # the Java parameter's name in snake_case ("" for a placeholder)
        self.arity = arity

    def __repr__(self) -> str:
        return f"<{self.kind}>"


_SELF = _Sample("self")


def java_arguments(sig: JavaSignature) -> list[_Arg]:
    """The arguments a Python caller passes for ``sig``: a ``TimeUnit`` goes, the ``long``s
    it qualifies become one duration each (seconds, a float)."""
    timed = any(t == "TimeUnit" for t, _ in sig.params)
    out = []
    for java_type, name in sig.params:
        if java_type == "TimeUnit":
            continue
        kind = java_kind(java_type)
        if timed and java_type == "long" and name not in _NOT_A_DURATION:
            kind = "duration"
        if name in _HINTS:
            kind = "hint"
        out.append(_Arg(kind, snake_case(name), java_type.endswith("..."),
                        java_arity(java_type) if kind == "callable" else None))
    return out


_ARITY = {"Function": 1, "BiFunction": 2, "Predicate": 1, "BiPredicate": 2, "Consumer": 1,
          "BiConsumer": 2, "LongConsumer": 1, "Action": 0, "Callable": 0, "Supplier": 0,
          "BooleanSupplier": 0, "Runnable": 0, "Cancellable": 0}


def java_arity(java_type: str) -> int | None:
    """The number of arguments of a functional interface's one method (``Function3``: 3;
    ``FlowableTransformer``, ``SingleOnSubscribe``, ...: 1), None when unknown."""
    base = java_type.removesuffix("...").removesuffix("[]")
    m = re.fullmatch(r"Function(\d)", base)
    if m:
        return int(m.group(1))
    if base in _ARITY:
        return _ARITY[base]
    if re.search(r"(?:Transformer|Converter|Operator|OnSubscribe)$", base):
        return 1
    return None


def _callable_arity(member: str) -> int | None:
    """``Callable[[T, U], R]`` -> 2, ``Callable[[], R]`` -> 0, ``Callable[..., R]`` -> None."""
    m = re.match(r"(?:\w+\.)?Callable\[\s*\[(.*)\]\s*,", member)
    if not m:
        return None
    inner = m.group(1).strip()
    if not inner:
        return 0
    level = 0
    count = 1
    for ch in inner:
        level += (ch == "[") - (ch == "]")
        count += ch == "," and level == 0
    return count


def _call_forms(args: list[_Arg]) -> list[tuple[list[_Sample], dict[str, _Sample]]]:
    """RxJava's arguments in its order: all positionally, then the last ones by their Java
    names (snake_case) as keywords, one more at a time. Varargs are two arguments or one
    list positionally, a list as a keyword."""
    forms = []
    for split in range(len(args), -1, -1):
        heads: list[list[_Sample]] = [[]]
        for arg in args[:split]:
            if arg.variadic:
                heads = [h + [_Sample(arg.kind), _Sample(arg.kind)] for h in heads] + [
                    h + [_Sample("list", arg.name)] for h in heads]
            else:
                heads = [h + [_Sample(arg.kind, arg.name, arg.arity)] for h in heads]
        keywords = {a.name: _Sample("list", a.name) if a.variadic
                    else _Sample(a.kind, a.name, a.arity) for a in args[split:]}
        if len(keywords) != len(args) - split:
            continue
        forms += [(h, keywords) for h in heads]
    return forms


def _annotation_members(annotation: object) -> list[str]:
    """The members of an annotation's union (``Optional``/``Union`` unpacked, ``None`` left
    out): ``'int | Publisher[Any] | None'`` -> ``['int', 'Publisher[Any]']``."""
    text = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
    members: list[str] = []
    level = 0
    cur: list[str] = []
    for ch in text + "|":
        level += (ch == "[") - (ch == "]")
        if ch == "|" and level == 0:
            member = "".join(cur).strip()
            cur = []
            m = re.match(r"(?:typing\.)?(?:Optional|Union)\[(.*)\]$", member)
            if m:
                members += _annotation_members(_top_level_commas_to_bars(m.group(1)))
            elif member and member != "None":
                members.append(member)
        else:
            cur.append(ch)
    return members


def _top_level_commas_to_bars(text: str) -> str:
    level = 0
    out = []
    for ch in text:
        level += (ch == "[") - (ch == "]")
        out.append("|" if ch == "," and level == 0 else ch)
    return "".join(out)


def _annotation_heads(annotation: object) -> list[str]:
    """The names before "[" of each member: ``['int', 'Publisher']``."""
    return [m.split("[", 1)[0].rsplit(".", 1)[-1].strip() for m in _annotation_members(annotation)]


_SOURCE_KINDS = {"Flowable", "Single", "Maybe", "Completable", "item"}


def _loose(param: inspect.Parameter) -> bool:
    return param.annotation is inspect.Parameter.empty or _annotation_heads(
        param.annotation) in (["Any"], [])


def _takes(param: inspect.Parameter, sample: _Sample, names: dict[str, object],
           own: str) -> bool:
    kind = sample.kind
    if kind == "hint":
        return param.name == sample.name
    if kind in ("item", "self") or param.annotation is inspect.Parameter.empty:
        return True
    if kind == "sources" and any(_PUBLISHER_OF_SOURCES.match(m)
                                 for m in _annotation_members(param.annotation)):
        return True
    if kind == "notification_consumer":
        return any(re.match(r"(?:\w+\.)?Callable\[\s*\[[^]]*Notification", m)
                   for m in _annotation_members(param.annotation))
    heads = _annotation_heads(param.annotation)
    for head in heads:
        if head in ("Any", "object"):
            return True
        if isinstance(names.get(head), TypeVar):
            # a list given for a bare T is one item, where RxJava's Iterable overload means
            # its items (start_with(Iterable) is not start_with(T))
            return kind != "list"
        if head == "Self" and kind == own:
            return True
        if head in _TAKES.get(kind, set()):
            if head == "Callable" and sample.arity is not None:
                # a Callable[[A, B], R] takes a function of two arguments only
                arities = {_callable_arity(m) for m in _annotation_members(param.annotation)
                           if m.split("[", 1)[0].rsplit(".", 1)[-1].strip() == "Callable"}
                if None not in arities and sample.arity not in arities:
                    continue
            return True
    return False


def _signatures(func: Any) -> list[inspect.Signature]:
    """The signatures of ``func``'s typed ``@overload`` variants when it has some (they are
    its declared call forms: ``merge(a, b)``, told apart at the call, is declared there,
    while the implementation is typed loosely), else its runtime signature."""
    out = []
    for candidate in typing.get_overloads(func) or [func]:
        try:
            out.append(inspect.signature(candidate))
        except (TypeError, ValueError):
            continue
    return out


def _binds(func: Any, instance: bool, positional: list[_Sample], keywords: dict[str, _Sample],
           own: str = "", check_kinds: bool = True) -> bool:
    names = getattr(inspect.unwrap(func), "__globals__", {})
    objs = ([_SELF] if instance else []) + positional
    for sig in _signatures(func):
        try:
            bound = sig.bind(*objs, **keywords)
        except TypeError:
            continue
        if not check_kinds or all(_bound_kinds_fit(sig, bound, names, own)):
            return True
    return False


def _bound_kinds_fit(sig: inspect.Signature, bound: inspect.BoundArguments,
                     names: dict[str, object], own: str) -> list[bool]:
    fits = []
    for pname, value in bound.arguments.items():
        param = sig.parameters[pname]
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            values = list(value)
            if _loose(param):
                # *sources: Any: sources (or items), the function last (the Call forms rule)
                fits += [v.kind in _SOURCE_KINDS or (v.kind == "callable" and i == len(values) - 1)
                         for i, v in enumerate(values)]
                continue
        elif param.kind is inspect.Parameter.VAR_KEYWORD:
            values = list(value.values())
        else:
            values = [value]
            # a positional argument must not land on a parameter other than the one rxpy2
            # names like it: interval(initialDelay, period) is not interval(period, ...)
            fits += [not v.name or v.name == pname or v.name not in sig.parameters
                     for v in values]
        fits += [_takes(param, v, names, own) for v in values]
    return fits


def rxpy2_method(cls: type | None, name: str) -> tuple[Any, str] | None:
    """(the function, "static", "instance" or "property") for ``cls.name``, or None."""
    if cls is None:
        return None
    try:
        raw = inspect.getattr_static(cls, name)
    except AttributeError:
        return None
    if isinstance(raw, (staticmethod, classmethod)):
        return getattr(cls, name), "static"
    if isinstance(raw, property):
        return raw, "property"
    if inspect.isfunction(raw):
        return raw, "instance"
    return None


def accepted_as_written(cls: type | None, sig: JavaSignature) -> str | None:
    """The call form (e.g. ``buffer(<int>, skip=<int>)``) under which rxpy2's method takes
    the RxJava overload as RxJava writes it, or None."""
    found = rxpy2_method(cls, sig.name)
    if found is None:
        return None
    func, how = found
    if how == "property" or (how == "static") != sig.static:
        return None
    for positional, keywords in _call_forms(java_arguments(sig)):
        if _binds(func, how == "instance", positional, keywords, getattr(cls, "__name__", "")):
            shown = [repr(p) for p in positional] + [f"{k}={v!r}" for k, v in keywords.items()]
            return f"{sig.name}({', '.join(shown)})"
    return None


def mapped_form_binds(cls: type | None, form: str) -> str | None:
    """None when the hand-written call form ``form`` (``buffer_time(timespan,
    scheduler=s)``, a bare name for a property) is one rxpy2 accepts; else why not. The
    arguments are placeholders: only their number and keywords are checked."""
    try:
        tree = ast.parse(form, mode="eval").body
    except SyntaxError:
        return "not a Python call"
    if isinstance(tree, ast.Name):
        found = rxpy2_method(cls, tree.id)
        return None if found is not None and found[1] == "property" else (
            f"{tree.id} is not a property")
    if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name):
        return "not a call of a method by its name"
    found = rxpy2_method(cls, tree.func.id)
    if found is None or found[1] == "property":
        return f"{tree.func.id} is not a method"
    positional: list[_Sample] = []
    for arg in tree.args:
        positional += [_Sample("item"), _Sample("item")] if isinstance(arg, ast.Starred) else [
            _Sample("item")]
    if any(k.arg is None for k in tree.keywords):
        return "** is not a call form"
    keywords = {str(k.arg): _Sample("item") for k in tree.keywords}
    if not _binds(found[0], found[1] == "instance", positional, keywords,
                  check_kinds=False):
        return "does not bind to " + tree.func.id + str(inspect.signature(found[0]))
    return None


def load_signatures() -> dict[str, list[JavaSignature]]:
    data = json.loads(API_JSON.read_text())
    return {t: [JavaSignature.parse(s) for s in sigs]
            for t, sigs in data.get("_signatures", {}).items()}


def load_overloads() -> dict[str, dict[str, str]]:
    if not OVERLOADS_JSON.exists():
        return {}
    data = json.loads(OVERLOADS_JSON.read_text())
    return {k: v for k, v in data.items() if not k.startswith("_")}


def load_pending_signatures() -> dict[str, list[str]]:
    if not PENDING_SIGNATURES_JSON.exists():
        return {}
    data = json.loads(PENDING_SIGNATURES_JSON.read_text())
    return {k: v for k, v in data.items() if not k.startswith("_")}


def overloads_not_ported() -> dict[str, dict[str, str]]:
    """type -> {signature key: why} from the ``## Overloads not ported`` table (the
    signature cell may hold several keys in backticks)."""
    return _table(r"Overloads not ported")


@dataclass
class SignatureCoverage:
    type_name: str
    total: int = 0
    accepted: list[tuple[str, str]] = field(default_factory=list)  # (key, the form it binds)
    mapped: list[tuple[str, str]] = field(default_factory=list)  # (key, the rxpy2 form)
    different: list[tuple[str, str]] = field(default_factory=list)  # (key, where the reason is)
    pending: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def compare_signatures() -> list[SignatureCoverage]:
    signatures = load_signatures()
    overloads = load_overloads()
    pending = load_pending_signatures()
    differ = overloads_not_ported()
    names_absent = not_ported()
    result = []
    for type_name, sigs in signatures.items():
        cls = rxpy2_class(type_name)
        cov = SignatureCoverage(type_name, total=len(sigs))
        mapped = overloads.get(type_name, {})
        reasons = differ.get(type_name, {})
        absent = names_absent.get(type_name, {})
        waiting = set(pending.get(type_name, []))
        keys = {s.key for s in sigs}
        for sig in sigs:
            key = sig.key
            form = accepted_as_written(cls, sig)
            if form is not None:
                cov.accepted.append((key, form))
                for table, where in ((mapped, "tools/api_overloads.json"),
                                     (reasons, "'Overloads not ported'"),
                                     (waiting, "tools/api_pending_signatures.json")):
                    if key in table:
                        cov.problems.append(f"{type_name}.{key} is accepted as RxJava writes "
                                            f"it ({form}) but is listed in {where}: take it off")
            elif key in mapped:
                why = mapped_form_binds(cls, mapped[key])
                if why is not None:
                    cov.problems.append(f"{type_name}.{key}: the mapped form {mapped[key]!r} "
                                        f"no longer binds ({why})")
                    cov.missing.append(key)
                else:
                    cov.mapped.append((key, mapped[key]))
            elif key in reasons:
                cov.different.append((key, reasons[key]))
            elif sig.name in absent:
                cov.different.append((key, f"name `{sig.name}` not ported"))
            elif key in waiting:
                cov.pending.append(key)
            else:
                cov.missing.append(key)
            if key in waiting and (key in mapped or key in reasons or sig.name in absent):
                cov.problems.append(f"{type_name}.{key} is in tools/api_pending_signatures.json "
                                    "but is mapped or documented: take it off the pending list")
        for table, where in ((mapped, "tools/api_overloads.json"),
                             (reasons, "'Overloads not ported'"),
                             (waiting, "tools/api_pending_signatures.json")):
            for key in sorted(set(table) - keys):
                cov.problems.append(f"{type_name}.{key} is in {where} but is not an RxJava "
                                    f"2.2.21 signature of {type_name}")
        result.append(cov)
    for source, where in ((overloads, "tools/api_overloads.json"),
                          (differ, "the Overloads not ported table"),
                          (pending, "tools/api_pending_signatures.json")):
        for type_name in sorted(set(source) - set(signatures)):
            result.append(SignatureCoverage(type_name, problems=[
                f"unknown type {type_name!r} in {where}"]))
    return result


def _names(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) if names else "none"


def render(coverage: list[Coverage], signatures: list[SignatureCoverage]) -> str:
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
        "## Names",
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
    lines += [
        "",
        "## Signatures",
        "",
        "Every public overload of those methods (deprecated ones and java.lang.Object's left",
        "out), one by one, is either accepted by rxpy2 as RxJava writes it (its arguments, a",
        "`TimeUnit` and its `long` folded into seconds, bind to the rxpy2 method's signature or",
        "to one of its typed overloads, with the kinds of argument its annotations take: the",
        "rule is in `tools/api_coverage.py`), served by another rxpy2 call form",
        "(`tools/api_overloads.json`, each form checked to bind), not ported on purpose (with",
        "a reason: [the RxJava differences](rxjava-differences.md#overloads-not-ported), or its",
        "name is not ported), or not yet ported (`tools/api_pending_signatures.json`, a list that",
        "only shrinks). A signature is written `name(Java parameter types)`, generics stripped.",
        "",
        "| type | RxJava signatures | as RxJava writes them | another rxpy2 form "
        "| not ported (with a reason) | not yet ported |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    sig_totals = [0, 0, 0, 0, 0]
    by_type = {sig.type_name: sig for sig in signatures}
    for sig in signatures:
        row = (sig.total, len(sig.accepted), len(sig.mapped), len(sig.different),
               len(sig.pending) + len(sig.missing))
        lines.append(f"| {sig.type_name} | " + " | ".join(str(v) for v in row) + " |")
        for i, v in enumerate(row):
            sig_totals[i] += v
    lines.append("| all | " + " | ".join(str(v) for v in sig_totals) + " |")
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
        found = by_type.get(cov.type_name)
        if found is None:
            continue
        sig = found
        lines.append(f"- signatures: {sig.total}, {len(sig.accepted)} of them as RxJava "
                     "writes them")
        lines.append(f"- signatures served by another rxpy2 form ({len(sig.mapped)})"
                     + (":" if sig.mapped else ": none"))
        lines += [f"  - `{key}`: `{form}`" for key, form in sig.mapped]
        lines.append(f"- signatures not ported, with a reason ({len(sig.different)})"
                     + (":" if sig.different else ": none"))
        lines += [f"  - `{key}`: {why}" for key, why in sig.different]
        waiting = sorted(sig.pending + sig.missing)
        lines.append(f"- signatures not yet ported ({len(waiting)}): {_names(waiting)}")
    return "\n".join(lines) + "\n"


def write_pending(coverage: list[Coverage], signatures: list[SignatureCoverage]) -> None:
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
    sigs: dict[str, object] = {
        "_about": "RxJava 2.2.21 overloads (tools/rxjava_2_2_21_api.json's _signatures) that "
                  "rxpy2 does not take yet, neither as RxJava writes them nor under a form of "
                  "tools/api_overloads.json, and that are not listed under 'Overloads not "
                  "ported' in docs/rxjava-differences.md. This list may only shrink: "
                  "tests/test_api_coverage.py fails when one here is taken, mapped or "
                  "documented. Rewritten from the current gap by "
                  "`tools/api-coverage --write-pending`.",
    }
    for sig in signatures:
        keys = sorted(sig.pending + sig.missing)
        if keys:
            sigs[sig.type_name] = keys
    PENDING_SIGNATURES_JSON.write_text(json.dumps(sigs, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generate", metavar="MIRROR", type=Path,
                        help="regenerate tools/rxjava_2_2_21_api.json from a git mirror of "
                             "ReactiveX/RxJava (needs the v2.2.21 tag)")
    parser.add_argument("--write-pending", action="store_true",
                        help="rewrite tools/api_pending.json and "
                             "tools/api_pending_signatures.json with the current gap")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a name or a signature is unaccounted for or the "
                             "lists disagree")
    parser.add_argument("--no-write", action="store_true", help="do not write docs/api-coverage.md")
    args = parser.parse_args(argv)
    if args.generate:
        data = generate(args.generate)
        API_JSON.write_text(json.dumps(data, indent=1) + "\n")
        counts = {k: len(v) for k, v in data.items()
                  if not k.startswith("_") and isinstance(v, list)}
        print(f"wrote {API_JSON.relative_to(ROOT)}: {counts}")
    coverage = compare()
    signatures = compare_signatures()
    if args.write_pending:
        write_pending(coverage, signatures)
        print(f"wrote {PENDING_JSON.relative_to(ROOT)}, "
              f"{PENDING_SIGNATURES_JSON.relative_to(ROOT)}")
        coverage = compare()
        signatures = compare_signatures()
    for cov in coverage:
        print(f"{cov.type_name:20} present {len(cov.present):4}  not ported "
              f"{len(cov.not_ported):3}  pending {len(cov.pending):3}  "
              f"unaccounted {len(cov.missing):3}")
    for sig in signatures:
        print(f"{sig.type_name:20} signatures {sig.total:4}  as written {len(sig.accepted):4}  "
              f"mapped {len(sig.mapped):3}  not ported {len(sig.different):3}  pending "
              f"{len(sig.pending):3}  unaccounted {len(sig.missing):3}")
    if not args.no_write:
        COVERAGE_MD.write_text(render(coverage, signatures))
        print(f"wrote {COVERAGE_MD.relative_to(ROOT)}")
    problems = [p for cov in coverage for p in cov.problems]
    problems += [f"{cov.type_name}.{n} is neither in rxpy2, nor listed as not ported, nor pending"
                 for cov in coverage for n in cov.missing]
    problems += [p for sig in signatures for p in sig.problems]
    problems += [f"{sig.type_name}.{k} is neither taken by rxpy2 as RxJava writes it, nor "
                 "mapped (tools/api_overloads.json), nor listed as not ported, nor pending"
                 for sig in signatures for k in sig.missing]
    for p in problems:
        print("problem:", p)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
