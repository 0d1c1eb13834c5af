"""Macro fusion: compile a run of synchronous stages into one Python function.

A chain such as ``range(0, n).map(f).filter(p).take(10)`` is, at assembly time, a source
plus a tuple of stages; this module turns the stages into Python source text once per
shape (cached), every stage inlined into one loop over the source iterator, so an item
costs the user's function calls and a few local-variable operations. Each stage is
declared by its operator's module as a
:class:`~rxpy2._internal.helpers.fused_stage.FusedStage`; this module knows no stage by
name. Out come :func:`compile_chain` (``drain``, ``drain_conditional``, ``sink``,
``gen``), :func:`compile_fold`, :func:`flatten_text` and :func:`compile_step`.

Why generated code, and what each function reads and returns: docs/fusion.md,
"Synchronous chains" and "Inside the stage compiler".
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from collections.abc import Callable
from collections.abc import Sequence
from functools import lru_cache
from types import CodeType
from typing import Any

from rxpy2._internal.helpers.fused_stage import NOTHING
from rxpy2._internal.helpers.fused_stage import FusedFold
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.sentinel import Sentinel

__all__ = [
    "DROP",
    "END",
    "ERROR",
    "EXHAUSTED",
    "HANDOVER",
    "NOTHING",
    "NOT_READ",
    "PAUSED",
    "STOPPED",
    "arguments",
    "compile_chain",
    "compile_fold",
    "compile_push",
    "compile_step",
    "flatten_text",
    "initial_state",
    "inner_iterable_leaf",
    "inner_publisher_leaf",
    "may_join",
    "namespace",
    "source_text",
]

#: A chain's stages: (declaration, argument) pairs.
Stages = Sequence[tuple[FusedStage, Any]]
#: The shape of a chain's code: its stages' declarations.
Specs = tuple[FusedStage, ...]

#: The source is exhausted (complete unless cancelled).
EXHAUSTED = 0
#: ``r`` items were emitted or the subscription was cancelled; the state is saved.
PAUSED = 1
#: A stage ended the chain early (``take`` reached its count, ``take_while`` failed).
STOPPED = 2
#: A stage raised; the exception is in ``sub.error``.
ERROR = 3
#: (flattening chain) an inner that is not synchronous was met: ``sub.inner`` holds it.
HANDOVER = 4


#: ``step`` result: a filter-like stage dropped the item.
DROP: Any = Sentinel("DROP")
#: The read-ahead source's "no more items".
END: Any = Sentinel("END")
#: (polled read-ahead source) no item was read ahead: the generator reads the iterator.
NOT_READ: Any = Sentinel("NOT_READ")

# The three source shapes: a C iterator whose items are never None (range, just),
# one whose items may be None (list/tuple of from_array), and a user iterator read
# one item ahead (from_iterable: completion comes with the last item).
SOURCES = ("plain", "checked", "read_ahead")


_numbers = itertools.count(1)


def _code_objects(code: CodeType) -> list[CodeType]:
    out = [code]
    for c in code.co_consts:
        if isinstance(c, CodeType):
            out += _code_objects(c)
    return out


def _release(filename: str, alive: list[int]) -> None:
    alive[0] -= 1
    if alive[0] == 0:
        linecache.cache.pop(filename, None)


def compile_registered(text: str, what: str) -> CodeType:
    """Compile generated ``text`` under a unique pseudo-filename (``<rxpy2 fused chain 3:
    map/filter over plain>``) registered with :mod:`linecache`, so a traceback through
    the generated code shows its lines; the entry lives as long as one of the code
    objects does (the functions of a chain outlive the factory's cache slot)."""
    filename = f"<rxpy2 fused {what} {next(_numbers)}>"
    # mtime None: linecache.checkcache keeps the entry (there is no file to check)
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    code = compile(text, filename, "exec")
    codes = _code_objects(code)
    alive = [len(codes)]
    for c in codes:
        weakref.finalize(c, _release, filename, alive)
    return code


def _specs(stages: Stages) -> Specs:
    return tuple([spec for spec, _ in stages])


def _label(specs: Specs) -> str:
    return "/".join(spec.name for spec in specs)


def namespace(specs: Specs, *extra: dict[str, Any]) -> dict[str, Any]:
    """The globals of generated code for these stages: the outcomes and markers, what the
    stages' templates use (their ``names``), then ``extra``."""
    out: dict[str, Any] = {"END": END, "NOT_READ": NOT_READ, "NOTHING": NOTHING, "DROP": DROP,
                           "EXHAUSTED": EXHAUSTED, "PAUSED": PAUSED, "STOPPED": STOPPED,
                           "ERROR": ERROR, "HANDOVER": HANDOVER}
    for spec in specs:
        out.update(spec.names)
    for names in extra:
        out.update(names)
    return out


def initial_state(stages: Stages) -> tuple[Any, ...]:
    """The per-subscription state of the stateful stages, in order (:func:`_names`)."""
    out: list[Any] = []
    for spec, arg in stages:
        if spec.initial is not None:
            out += spec.initial(arg)
    return tuple(out)


def may_join(stages: Stages, spec: FusedStage) -> bool:
    """Whether ``spec`` may follow ``stages`` in one chain: after a stage with an epilogue
    (buffer) no other one and nothing that stops the chain (the epilogue would then have
    to tell which stage stopped it). (A plain loop: it runs at every assembly.)"""
    for s, _ in stages:
        if s.epilogue is not None:
            return spec.epilogue is None and not spec.stops
    return True


def _stage_lines(specs: Specs, leaf: list[str], stop: list[str],
                 indent: int, start: int = 0) -> list[str]:
    """The stages from the ``start``-th on, nested, around the ``leaf`` lines; a stage's
    ``after`` lines follow the rest of the chain at the stage's own indent."""
    lines: list[str] = []
    afters: list[tuple[str, Sequence[str]]] = []
    pad = "    " * indent
    for i in range(start, len(specs)):
        spec = specs[i]
        if spec.loop is None:  # pragma: no cover - a flattening stage is compiled apart
            raise ValueError(f"{spec.name} is no loop stage")
        lines += [pad + s for s in spec.loop(i, stop)]
        if spec.after is not None:
            afters.append((pad, spec.after(i, stop)))
        if spec.nests:
            indent += 1
            pad = "    " * indent
    lines += [pad + s for s in leaf]
    for at, more in reversed(afters):
        lines += [at + s for s in more]
    return lines


def _names(specs: Specs) -> tuple[list[str], list[str]]:
    """The factory's parameters (the stages' functions, a holding stage's count) and the
    state's variables, in the order of :func:`arguments` and :func:`initial_state`."""
    fns: list[str] = []
    state: list[str] = []
    for i, spec in enumerate(specs):
        fns += [f"{p}{i}" for p in spec.params]
        state += [f"{p}{i}" for p in spec.state]
    return fns, state


def arguments(stages: Stages) -> list[Any]:
    """The values of the factory's parameters (:func:`_names`) for these stages."""
    out: list[Any] = []
    for spec, arg in stages:
        if spec.params:
            values = spec.arguments
            if values is None:  # the argument is the one function (no call: per chain)
                out.append(arg)
            else:
                out += values(arg)
    return out


def _load(state: list[str], specs: Specs) -> list[str]:
    """The lines (at indent 1) that read the state, then the stages' ``load`` lines (a
    holding stage's collection, made at its subscription's first run)."""
    if not state:
        return []
    out = [f"    {', '.join(state)}, = sub.state"]
    for i, spec in enumerate(specs):
        if spec.load is not None:
            out += ["    " + s for s in spec.load(i)]
    return out


def _has_prologue(specs: Specs) -> bool:
    return any(spec.prologue is not None for spec in specs)


def _prologue(specs: Specs, leaf: list[str], after: list[str]) -> list[str]:
    """The items going out before the source is read (the seeds of scan_seed stages), the
    last stage's first (RxJava 2's ScanSeed emits its seed at its first request, before
    its upstream's), each through the stages after it, in a one-pass loop that ``break``
    leaves (a stop sets ``code``; ``after`` may pause)."""
    firsts = [i for i, spec in enumerate(specs) if spec.prologue is not None]
    if not firsts:
        return []
    out = ["while True:"]
    for j in reversed(firsts):
        out += ["    " + s for s in specs[j].prologue(j)]  # type: ignore[misc]  # not None: filtered above
        out += _stage_lines(specs, leaf, ["code = STOPPED", "break"], 2, j + 1)
        out += ["        " + s for s in after]
    return out + ["    break"]


def _epilogue(specs: Specs, leaf: list[str], check_cancel: bool) -> list[str]:
    """A held item (buffer's open list), when there is one, through the stages after its
    stage once the chain ended (source exhausted or stopped before it) uncancelled; the
    chain then completes even if that item's consumer cancels (``STOPPED``), as the
    operator does. A chain holds at most one such stage (:func:`may_join`)."""
    for b, spec in enumerate(specs):
        if spec.epilogue is not None:
            held, take = spec.epilogue(b)
            cond = f"code != PAUSED and {held} and not sub.cancelled" if check_cancel else held
            return [f"if {cond}:", *["    " + s for s in take], "    code = STOPPED",
                    *_stage_lines(specs, leaf, ["pass"], 1, b + 1)]
    return []


def _loop(specs: Specs, source: str, leaf: list[str], stop: list[str],
          after: list[str], pause: list[str], polled: bool = False) -> list[str]:
    """The source loop around the stages (indent 0 = the loop statement). ``polled``: the
    generator of a read-ahead source, which takes each source item from ``sub.pending``
    when ``is_empty`` read it ahead (else from the iterator) and leaves ``END`` there."""
    if polled and source == "read_ahead":
        head = ["while True:", "    x = sub.pending", "    if x is NOT_READ:",
                "        x = next(it, END)", "    else:", "        sub.pending = NOT_READ",
                "    if x is END:", "        sub.pending = END", "        break",
                "    if x is None:", "        raise sub.none_error()"]
        return head + _stage_lines(specs, leaf, stop, 1)
    if source == "read_ahead":
        # (a chain with a prologue over an empty iterable: END read at subscription, no item)
        head = ["x = sub.pending", "while x is not END:" if _has_prologue(specs)
                else "while True:", "    if x is None:", "        raise sub.none_error()"]
    elif source == "checked":
        head = ["for x in it:", "    if x is None:", "        raise sub.none_error()"]
    else:
        head = ["for x in it:"]
    body = _stage_lines(specs, leaf, stop, 1)
    body += ["    " + s for s in after]
    if source == "read_ahead":
        body += ["    x = next(it, END)", "    if x is END:", "        break"]
        body += ["    " + s for s in pause]
    return head + body


def _cancel_check(source: str) -> list[str]:
    """The per-item cancellation check: only over a user iterator. The ``range``/``list``/
    ``tuple`` iterator of the other shapes is exhausted by ``cancel()`` itself (its pickle
    ``__setstate__``), so their loops end at the next item with no check per item."""
    if source == "read_ahead":
        return ["if sub.cancelled:", "    code = PAUSED", "    break"]
    return []


def _body(specs: Specs, source: str, leaf: list[str], stop: list[str],
          after: list[str], pause: list[str], prologue_after: list[str],
          check_cancel: bool = True) -> list[str]:
    """The prologue (run before the source), the source loop (run only when the prologue
    neither stopped nor paused) and the epilogue, at indent 0."""
    loop = _loop(specs, source, leaf, stop, after, pause)
    pro = _prologue(specs, leaf, prologue_after)
    if pro:
        loop = [*pro, "if code == EXHAUSTED:", *["    " + s for s in loop]]
    return loop + _epilogue(specs, leaf, check_cancel)


def _source_text(specs: Specs, source: str) -> str:
    fns, state = _names(specs)
    load = _load(state, specs)
    save = [f"        sub.state = ({', '.join(state)},)"] if state else []
    out: list[str] = [f"def factory({', '.join(fns)}):"]
    # a prologue item checks the cancel flag whatever the source (no iterator end stops it)
    cancelled = ["if sub.cancelled:", "    code = PAUSED", "    break"]
    for name, conditional in (("drain", False), ("drain_conditional", True)):
        if conditional:
            leaf = ["emitting = True", "if emit(x):", "    e += 1", "emitting = False"]
        else:
            leaf = ["emitting = True", "emit(x)", "emitting = False", "e += 1"]
        stop = ["code = STOPPED", "break"]
        after = _cancel_check(source)
        if source == "read_ahead":
            pause = ["if e == r:", "    sub.pending = x", "    code = PAUSED", "    break"]
        else:
            after += ["if e == r:", "    code = PAUSED", "    break"]
            pause = []
        loop = _body(specs, source, leaf, stop, after, pause,
                     [*cancelled, "if e == r:", "    code = PAUSED", "    break"])
        out += [f"  def {name}(sub, emit, r):", "    it = sub.it", *load,
                "    e = 0", "    code = EXHAUSTED", "    emitting = False", "    try:"]
        out += ["      " + s for s in loop]
        out += ["    except Exception as ex:", "        if emitting:", "            raise",
                "        sub.error = ex", "        code = ERROR", "    finally:"]
        out += save or ["        pass"]
        out += ["    return e, code"]
    # unbounded demand into a sink that fails like the stages (LambdaSubscriber's on_next):
    # no counting, no telling the sink's exceptions from the stages'
    stop = ["code = STOPPED", "break"]
    loop = _body(specs, source, ["emit(x)"], stop, _cancel_check(source), [], cancelled)
    out += ["  def sink(sub, emit):", "    it = sub.it", *load, "    code = EXHAUSTED", "    try:"]
    out += ["      " + s for s in loop]
    out += ["    except Exception as ex:", "        sub.error = ex", "        code = ERROR",
            "    finally:"]
    out += save or ["        pass"]
    out += ["    return code"]
    # the generator for poll(): state lives in its frame
    loop = _loop(specs, source, ["yield x"], ["break"], [], [], polled=True)
    pro = _prologue(specs, ["yield x"], [])
    if pro:
        loop = [*pro, "if code == EXHAUSTED:", *["    " + s for s in loop]]
    loop += _epilogue(specs, ["yield x"], False)
    out += ["  def gen(sub):", "    it = sub.it", *load, "    code = EXHAUSTED"]
    out += ["    " + s for s in loop]
    out += ["  return drain, drain_conditional, sink, gen"]
    return "\n".join(out) + "\n"


#: Compiled factories kept per kind (chains, folds, steps, flattening chains), least
#: recently used dropped first: about 16 KiB each (the code and its linecache text), so a
#: program that builds ever new chain shapes holds at most a few MiB of them; a shape
#: dropped and met again is compiled again (well under a millisecond).
CACHE_SIZE = 128


@lru_cache(maxsize=CACHE_SIZE)
def _chain_factory(specs: Specs, source: str) -> Callable[..., Any]:
    text = _source_text(specs, source)
    env = namespace(specs)
    exec(compile_registered(text, f"chain: {_label(specs)} over {source}"), env)
    return env["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


def compile_chain(stages: Stages, source: str) -> tuple[Any, Any, Any, Any]:
    """``(drain, drain_conditional, sink, gen)`` for these stages over a ``source`` shape."""
    if source not in SOURCES:
        raise ValueError(f"unknown source shape {source!r}")
    # (runs at each chain's first subscription)
    return _chain_factory(_specs(stages), source)(*arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


def _fold_text(specs: Specs, source: str, fold: FusedFold) -> str:
    """``fold(sub, acc, g)``: the whole chain into one aggregation, unbounded, in one call;
    returns ``(outcome, acc)``. Errors of the stages and of ``g`` alike end it with
    ``ERROR`` (the exception in ``sub.error``); a cancel ends it as in ``sink``."""
    fns, state = _names(specs)
    loop = _body(specs, source, list(fold.lines), ["code = STOPPED", "break"],
                 _cancel_check(source), [], ["if sub.cancelled:", "    code = PAUSED", "    break"])
    out = [f"def factory({', '.join(fns)}):", "  def fold(sub, acc, g):", "    it = sub.it"]
    out += _load(state, specs)
    out += ["    code = EXHAUSTED", "    try:"]
    out += ["      " + s for s in loop]
    out += ["    except Exception as ex:", "        sub.error = ex", "        code = ERROR",
            "    return code, acc", "  return fold"]
    return "\n".join(out) + "\n"


@lru_cache(maxsize=CACHE_SIZE)
def _fold_factory(specs: Specs, source: str, fold: FusedFold) -> Callable[..., Any]:
    env = namespace(specs, dict(fold.names))
    exec(compile_registered(_fold_text(specs, source, fold),
                            f"{fold.name}: {_label(specs)} over {source}"), env)
    return env["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


def compile_fold(stages: Stages, source: str,
                 fold: FusedFold) -> Callable[[Any, Any, Any], tuple[int, Any]]:
    """``fold(sub, acc, g)`` for these stages over a ``source`` shape into an aggregation
    (``fold``: what it does per item, as its subscriber declares it)."""
    return _fold_factory(_specs(stages), source, fold)(*arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


def source_text(stages: Stages, source: str) -> str:
    """The generated Python text for a chain (for reading and debugging)."""
    return _source_text(_specs(stages), source)


@lru_cache(maxsize=CACHE_SIZE)
def _step_factory(specs: Specs) -> Callable[..., Any]:
    fns, _ = _names(specs)
    out = [f"def factory({', '.join(fns)}):", "  def step(x):"]
    for i, spec in enumerate(specs):
        if spec.step is None:
            raise ValueError(f"step() takes stages with a step, not {spec.name}")
        out += ["    " + s for s in spec.step(i)]
    out += ["    return x", "  return step"]
    env = namespace(specs)
    exec(compile_registered("\n".join(out) + "\n", f"step: {_label(specs)}"), env)
    return env["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


@lru_cache(maxsize=CACHE_SIZE)
def _push_factory(specs: Specs) -> Callable[..., Any]:
    fns, _ = _names(specs)
    out = [f"def factory({', '.join(fns)}):",
           "  def make(sub, emit, failed, null_item, NONE):",
           "    def push(x):",
           "      if sub.done:",
           "        return",
           "      if sub.source_mode != NONE:  # ASYNC-fused: the item is a 'ready' signal",
           "        sub.downstream.on_next(x)",
           "        return",
           "      if x is None:",
           "        raise null_item()",
           "      try:"]
    for i, spec in enumerate(specs):
        if spec.step is None:
            raise ValueError(f"push() takes stages with a step, not {spec.name}")
        # a dropped item is replaced upstream at once (request(1)), as the operator does
        out += ["        " + s.replace("return DROP", "return sub.upstream.request(1)")
                for s in spec.step(i)]
    out += ["      except Exception as e:",
            "        sub.fail(e)",
            "        return",
            "      try:",
            "        emit(x)",
            "      except Exception as e:",
            "        if failed is None:",
            "          raise",
            "        sub.done = True",
            "        failed(e)",
            "    return push",
            "  return make"]
    env = namespace(specs)
    exec(compile_registered("\n".join(out) + "\n", f"step: {_label(specs)} (on_next)"), env)
    return env["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


def compile_push(stages: Stages) -> Callable[..., Callable[[Any], None]]:
    """``make(sub, emit, failed, null_item, NONE)``: a subscriber's ``on_next`` running
    these map/filter stages inline on each item: ``sub``'s ``done``, fusion and §2.13
    checks, a stage's error to ``sub.fail``, a dropped item replaced with
    ``sub.upstream.request(1)``, the result to ``emit`` (what that raises to ``failed``,
    after ``sub.done`` is set; with no ``failed`` it propagates)."""
    return _push_factory(_specs(stages))(*arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


def compile_step(stages: Stages) -> Callable[[Any], Any]:
    """``step(x)``: ``x`` through map/filter stages, or :data:`DROP`; raises what they raise."""
    return _step_factory(_specs(stages))(*arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


# ---------------------------------------------------------------- flattening stages
# (flat_map, concat_map, flat_map_iterable/concat_map_iterable as the LAST stage of a
# chain, run under unbounded demand; flowable_sync_chain.py says when and why)


def _derives_scalars(specs: Specs, source: str) -> bool:
    """Whether a chain whose last stage counts its scalar inners (flat_map) derives that
    count at a hand-over from the source iterator's position (a ``range``/``list``/
    ``tuple`` iterator's own ``__length_hint__``: ``operator.length_hint`` overflows past
    ``sys.maxsize``) less the other inners, instead of counting each scalar: an
    ``ns += 1`` per item costs a flat_map to ``just`` about a tenth of its time (an int
    object per count). It does when only one-to-one stages come before it."""
    last = specs[-1].flatten
    return (last is not None and last.counts_scalars and source != "read_ahead"
            and all(spec.one_to_one for spec in specs[:-1]))


def _emitting(emit: Sequence[str], pad: str, value: str = "y") -> list[str]:
    return [pad + (f"emit({value})" if s == "emit(y)" else s) for s in emit]


def _inner_loop(emit: Sequence[str], pad: str, it: str, none_check: bool) -> list[str]:
    out = [f"{pad}for y in {it}:"]
    if none_check:
        out += [f"{pad}    if y is None:", f"{pad}        raise none_element()"]
    # cancelled inside an inner: the outer loop ends too (on another thread, cancel()
    # may not have exhausted the source's iterator yet)
    return out + _emitting(emit, pad + "    ") + [
        f"{pad}    if sub.cancelled:", f"{pad}        break",
        f"{pad}if sub.cancelled:", f"{pad}    code = PAUSED", f"{pad}    break"]


def inner_iterable_leaf(i: int, emit: Sequence[str]) -> list[str]:
    """The lines flattening ``x`` into the iterable ``fN(x)`` (``emit`` emits ``y``; a
    None iterable raises ``iterable_none(fN)``, a None element ``none_element()``)."""
    return [f"p = f{i}(x)", "if p is None:", f"    raise iterable_none(f{i})",
            *_inner_loop(emit, "", "p", True)]


def inner_publisher_leaf(i: int, source: str, emit: Sequence[str], derive: bool,
                         counts_scalars: bool, classify: str) -> list[str]:
    """The lines flattening ``x`` into the Publisher ``fN(x)`` (``emit`` emits ``y``):
    a just/empty/Callable inner inline, a range or other synchronous inner as a nested
    loop (``classify`` the expression telling them apart), any other one handed over.
    ``counts_scalars``: the scalar inners are counted (``ns``) or, ``derive``, the other
    inners (``nn``) from which the scalars are derived at a hand-over."""
    count = ["ns += 1"] if counts_scalars and not derive else []
    other = ["nn += 1"] if derive else []  # an inner that is not scalar
    handover = ["sub.inner = p", "code = HANDOVER"]
    if derive:  # the items taken from the source, less the other inners and this one
        handover.append("sub.scalars = n0 - it.__length_hint__() - nn - 1")
    elif counts_scalars:
        handover.append("sub.scalars = ns")
    if source == "read_ahead":
        handover.append("sub.pending = NOT_READ")
    return [f"p = f{i}(x)", "t = type(p)", "if t is Just:", *["    " + s for s in count],
            *_emitting(emit, "    ", "p.value"),
            "elif t is Range:", *["    " + s for s in other],
            *_inner_loop(emit, "    ", "range(p.start, p.end)", False),
            "else:", f"    k, v = {classify}",
            "    if k is ITER:", *["        " + s for s in other],
            *_inner_loop(emit, "        ", "v", False),
            "    elif k is SCALAR:", *["        " + s for s in count],
            *_emitting(emit, "        ", "v"),
            "    elif k is EMPTY:", *["        " + s for s in (count or ["pass"])],
            "    else:", *["        " + s for s in handover], "        break"]


def flatten_text(specs: Specs, source: str) -> str:
    """The generated text of a chain whose last stage is a flattening one: a factory of
    ``(drain_all(sub, emit), sink(sub, emit))``, both for unbounded demand. They return
    EXHAUSTED, STOPPED (a take/take_while before the stage), PAUSED (cancelled), ERROR
    (``sub.error``) or HANDOVER (``sub.inner``; ``sub.scalars`` when the stage counts its
    scalar inners); the stages' state is saved back in ``sub.state`` as by
    :func:`compile_chain`'s functions."""
    prefix, last = specs[:-1], specs[-1].flatten
    if last is None:  # pragma: no cover - the sync chain checks it
        raise ValueError(f"{specs[-1].name} is no flattening stage")
    k = len(prefix)
    fns, state = _names(specs)
    load = [f"    {', '.join(state)}, = sub.state"] if state else []
    save = [f"        sub.state = ({', '.join(state)},)"] if state else []
    out: list[str] = [f"def factory({', '.join(fns)}):"]
    derive = _derives_scalars(specs, source)
    counters = ["    n0 = it.__length_hint__()", "    nn = 0"] if derive else ["    ns = 0"]
    for name, emit in (("drain_all", ["emitting = True", "emit(y)", "emitting = False"]),
                       ("sink", ["emit(y)"])):
        leaf = list(last.leaf(k, source, emit, derive))
        loop = _loop(prefix, source, leaf, ["code = STOPPED", "break"],
                     _cancel_check(source), [])
        out += [f"  def {name}(sub, emit):", "    it = sub.it", *load, *counters,
                "    code = EXHAUSTED", "    emitting = False", "    try:"]
        out += ["      " + s for s in loop]
        out += ["    except Exception as ex:"]
        if name == "drain_all":
            out += ["        if emitting:", "            raise"]
        out += ["        sub.error = ex", "        code = ERROR", "    finally:"]
        out += save or ["        pass"]
        out += ["    return code"]
    out += ["  return drain_all, sink"]
    return "\n".join(out) + "\n"
