"""Macro fusion: compile a run of synchronous stages into one Python function.

A chain such as ``range(0, n).map(f).filter(p).take(10)`` is, at assembly time,
a source plus a tuple of *stages* (``kind``, argument). This module turns the
stage kinds into Python source text once per shape (cached), with every stage
inlined into a single loop over the source iterator, so an item costs the user's
function calls and a few local-variable operations — no subscriber object, no
method call, no atomic per stage. The functions of a particular chain are bound
by calling the compiled factory with them (closure cells, read as fast locals).

Why generated code rather than ``map``/``filter``/``islice`` iterators: on
CPython 3.11 a Python-to-Python call from bytecode is inlined by the
interpreter, whereas ``map(f, it)`` calls ``f`` through the C vectorcall path;
measured side by side, ``for x in it: x = f(x); if p(x): consume(x)`` is about
1.1x a plain hand-written loop, ``filter(p, map(f, it))`` about 1.2x, and the
latter still needs a Python-level guard against a ``None`` mapper result
(another 0.2x). The source iterator itself stays a C iterator (``range``,
``list``/``tuple``, or the user's iterator).

Stage kinds and what they compile to (``x`` is the item, ``fN``/``sN`` the
N-th stage's function/state):

==============  ============================================================
``map``         ``x = fN(x)``; a ``None`` result raises ``TypeError``
``filter``      the rest of the chain runs under ``if fN(x):``
``do_on_next``  ``fN(x)``
``take``        ``sN -= 1``; after the item, ``sN == 0`` ends the chain
``skip``        while ``sN`` is non-zero the item is dropped and ``sN -= 1``
``take_while``  a false ``fN(x)`` ends the chain before the item
``skip_while``  items are dropped while ``sN and fN(x)``; then ``sN = False``
``scan``        the first item is kept in ``sN`` as is; then ``x = sN = fN(sN, x)``
                (a ``None`` result raises ``TypeError``)
``distinct``    distinct_until_changed: the rest runs under ``if`` the item (``_key``:
                its key ``fN(x)``, not None) differs from the previous one ``sN``
                (``==``; ``_cmp``: ``not fN(previous, x)``; ``_both``: the key
                ``fN(x)`` compared by ``not gN(previous, key)``)
``scan_seed``   ``x = sN = fN(sN, x)`` (``sN`` starts as the seed); the seed itself
                goes out first, in a prologue before the loop (``qN``: sent)
``skip_last``   ``sN`` a deque: the item goes in; past ``fN`` items (the count) the
                oldest comes out and the rest of the chain runs for it
``buffer``      ``sN`` the open list: the item goes in; at ``fN`` items the list is
                the item the rest of the chain runs for; a non-empty list left at the
                end goes on in an epilogue (then the chain completes)
==============  ============================================================

The prologue (the seeds, the last ``scan_seed``'s first: RxJava 2's ScanSeed emits its
seed at its first request, before its upstream's) and the epilogue (buffer) run the
stages after theirs, with the same leaf, in the functions below. A chain holds at most
one ``buffer`` and no ``take``/``take_while`` after it (:func:`may_join`), so nothing
after a buffer stops the chain and the epilogue runs whenever the chain ends uncancelled.
(``take_last`` is a fold when it is the aggregation; the other counting stages stay
ordinary operators.)

Four functions come out of a factory (see :func:`compile_chain`):

* ``drain(sub, emit, r)``: runs the chain, calling ``emit(x)`` for at most ``r``
  items; returns ``(emitted, outcome)``. It reads ``sub.it`` (the source
  iterator), ``sub.state`` (the stateful stages' state, saved back on exit)
  and, for the read-ahead source (a user iterator), ``sub.pending`` and
  ``sub.cancelled`` (checked after every source item; a C iterator source is
  exhausted by the cancel itself, so the loop just ends: the caller tells a
  cancelled end from a real one by ``sub.cancelled``). A stage that raises ends it with ``ERROR`` and the
  exception in ``sub.error``; an exception from ``emit`` itself propagates.
* ``drain_conditional``: the same for a ConditionalSubscriber's ``try_on_next``
  (an item it refuses does not count against ``r``).
* ``sink(sub, emit)``: unbounded demand, for an ``emit`` whose exceptions are
  handled like the stages' (a LambdaSubscriber's ``on_next`` function): no
  counting, no flag; returns the outcome.
* ``gen(sub)``: a generator of the chain's items, for SYNC-fused ``poll()``.

A fifth, :func:`compile_fold`, runs the chain into an aggregation (reduce, count,
collect/to_list, last) in one call: ``fold(sub, acc, g)`` (see :data:`FOLDS`).

A chain whose last stage flattens (``flat_map``, ``concat_map``,
``flat_map_iterable``: :data:`FLATTEN`) compiles with :func:`flatten_text` into
``drain_all``/``sink`` for unbounded demand only (nested loops per inner; the
other cases run the operator: flowable_sync_chain.py, "Flattening stages").

For the stages alone (no source), :func:`compile_step` returns ``step(x)``:
the item after the stages, or :data:`DROP`; used where consecutive map/filter
stages over an arbitrary upstream collapse into one subscriber.
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from functools import lru_cache
from types import CodeType
from typing import Any

from rxpy2.internal.helpers.function_names import returned_none

__all__ = [
    "ACCUMULATING",
    "DROP",
    "END",
    "ERROR",
    "EXHAUSTED",
    "FOLDS",
    "HOLDING",
    "KINDS",
    "NOTHING",
    "NOT_READ",
    "PAUSED",
    "STATEFUL",
    "STOPPED",
    "USER_CODE",
    "compile_chain",
    "compile_fold",
    "compile_step",
    "initial_state",
    "mapper_none",
    "may_join",
]

#: The running-state stages (scan, distinct_until_changed): their state starts as NOTHING.
ACCUMULATING = frozenset({"scan", "distinct", "distinct_key", "distinct_cmp", "distinct_both"})
#: The stages that hold items back in a collection made per subscription (skip_last: a
#: deque, buffer: the open list); their argument is their count.
HOLDING = frozenset({"skip_last", "buffer"})
#: Every stage kind a chain may hold.
KINDS = frozenset({"map", "filter", "do_on_next", "take", "skip", "take_while", "skip_while",
                   "scan_seed", *ACCUMULATING, *HOLDING})
#: Kinds that keep per-subscription state.
STATEFUL = frozenset({"take", "skip", "skip_while", "scan_seed", *ACCUMULATING, *HOLDING})
#: Kinds that run user code (a thread BOUNDARY refuses fusion over them; plain
#: distinct_until_changed calls the items' ``==``, and RxJava 2 refuses BOUNDARY there too).
USER_CODE = frozenset({"map", "filter", "do_on_next", "take_while", "skip_while", "scan_seed",
                       *ACCUMULATING})
#: Kinds without a function argument (their argument is their state's start, or unused).
NO_FUNCTION = frozenset({"take", "skip", "distinct"})

#: The source is exhausted (complete unless cancelled).
EXHAUSTED = 0
#: ``r`` items were emitted or the subscription was cancelled; the state is saved.
PAUSED = 1
#: ``take`` reached its count or ``take_while`` failed: the chain completes.
STOPPED = 2
#: A stage raised; the exception is in ``sub.error``.
ERROR = 3

def mapper_none(fn: Any) -> TypeError:
    """The error of a fused ``map`` whose function ``fn`` returned None (§2.13)."""
    return returned_none("map", fn)


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: ``step`` result: a filter-like stage dropped the item.
DROP: Any = _Marker("DROP")
#: The read-ahead source's "no more items".
END: Any = _Marker("END")
#: (polled read-ahead source) no item was read ahead: the generator reads the iterator.
NOT_READ: Any = _Marker("NOT_READ")
#: The state of scan / distinct_until_changed before their first item.
NOTHING: Any = _Marker("NOTHING")


def scan_none(fn: Any) -> TypeError:
    """The error of a fused ``scan`` whose accumulator returned None (as FlowableScan's)."""
    return returned_none("scan", fn, "accumulator function")


def reduce_none(fn: Any) -> TypeError:
    """The error of a fused ``reduce`` whose reducer returned None (as FlowableReduce's)."""
    return returned_none("reduce", fn, "reducer function")


def key_none() -> TypeError:
    """A fused ``distinct_until_changed`` key function returned None."""
    return TypeError("The key function returned None")

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


def initial_state(stages: Sequence[tuple[str, Any]]) -> tuple[Any, ...]:
    """The per-subscription state of the stateful stages, in order (scan_seed: the seed
    and "not sent"; a holding stage: None, its collection made at the first run)."""
    out: list[Any] = []
    for kind, arg in stages:
        if kind not in STATEFUL:
            continue
        if kind == "scan_seed":
            out += (arg[1], False)
        else:
            out.append(True if kind == "skip_while" else NOTHING if kind in ACCUMULATING
                       else None if kind in HOLDING else arg)
    return tuple(out)


def may_join(kinds: Sequence[str], kind: str) -> bool:
    """Whether a stage of ``kind`` may follow the stage ``kinds`` in one chain: after a
    ``buffer`` no other buffer and nothing that stops the chain (its epilogue would then
    have to tell which stage stopped it)."""
    if "buffer" in kinds:
        return kind not in ("buffer", "take", "take_while")
    return True


def _accumulating_lines(kind: str, i: int, pad: str) -> list[str]:
    """scan (``sN`` the accumulator: the first item is emitted as is) and the
    distinct_until_changed kinds (``sN`` the previous key; the rest of the chain runs under
    the closing ``if`` when the key changed), in the operators' order of calls."""
    if kind == "scan":
        return [f"{pad}if s{i} is NOTHING:", f"{pad}    s{i} = x", f"{pad}else:",
                f"{pad}    x = f{i}(s{i}, x)", f"{pad}    if x is None:",
                f"{pad}        raise scan_none(f{i})", f"{pad}    s{i} = x"]
    key = "x"
    lines = []
    if kind == "distinct_key" or kind == "distinct_both":
        key = f"k{i}"
        lines = [f"{pad}k{i} = f{i}(x)", f"{pad}if k{i} is None:", f"{pad}    raise key_none()"]
    same = (f"f{i}(t{i}, x)" if kind == "distinct_cmp" else f"g{i}(t{i}, k{i})"
            if kind == "distinct_both" else f"t{i} == {key}")
    return lines + [f"{pad}t{i} = s{i}", f"{pad}s{i} = {key}",
                    f"{pad}if t{i} is NOTHING or not {same}:"]


def _stage_lines(kinds: tuple[str, ...], leaf: list[str], stop: list[str],
                 indent: int, start: int = 0) -> list[str]:
    """The stages from the ``start``-th kind on, nested, around the ``leaf`` lines."""
    lines: list[str] = []
    pad = "    " * indent
    for i in range(start, len(kinds)):
        kind = kinds[i]
        if kind == "map":
            lines += [f"{pad}x = f{i}(x)",
                      f"{pad}if x is None:",
                      f"{pad}    raise mapper_none(f{i})"]
        elif kind == "filter":
            lines.append(f"{pad}if f{i}(x):")
            indent += 1
        elif kind == "do_on_next":
            lines.append(f"{pad}f{i}(x)")
        elif kind == "take":
            lines.append(f"{pad}s{i} -= 1")
        elif kind == "skip":
            lines += [f"{pad}if s{i}:", f"{pad}    s{i} -= 1", f"{pad}else:"]
            indent += 1
        elif kind == "take_while":
            lines.append(f"{pad}if not f{i}(x):")
            lines += [f"{pad}    {s}" for s in stop]
        elif kind == "skip_while":
            lines += [f"{pad}if s{i} and f{i}(x):", f"{pad}    pass", f"{pad}else:",
                      f"{pad}    s{i} = False"]
            indent += 1
        elif kind in ACCUMULATING:
            more = _accumulating_lines(kind, i, pad)
            lines += more
            indent += more[-1].endswith(":")
        elif kind == "scan_seed":
            lines += [f"{pad}x = f{i}(s{i}, x)", f"{pad}if x is None:",
                      f"{pad}    raise scan_none(f{i})", f"{pad}s{i} = x"]
        elif kind == "skip_last":  # as FlowableSkipLast: the item n back goes on
            lines += [f"{pad}s{i}.append(x)", f"{pad}if len(s{i}) > f{i}:",
                      f"{pad}    x = s{i}.popleft()"]
            indent += 1
        elif kind == "buffer":  # as FlowableBuffer (exact): a full list goes on
            lines += [f"{pad}s{i}.append(x)", f"{pad}if len(s{i}) == f{i}:",
                      f"{pad}    x = s{i}", f"{pad}    s{i} = []"]
            indent += 1
        else:  # pragma: no cover - the assembly only builds known kinds
            raise ValueError(f"unknown stage kind {kind!r}")
        pad = "    " * indent
    lines += [pad + s for s in leaf]
    return lines


def _names(kinds: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The factory's parameters (the stages' functions, a holding stage's count) and the
    state's variables (``qN``: scan_seed's seed sent), in the order of :func:`_arguments`
    and :func:`initial_state`."""
    fns: list[str] = []
    state: list[str] = []
    for i, k in enumerate(kinds):
        if k not in NO_FUNCTION:
            fns.append(f"f{i}")
            if k == "distinct_both":
                fns.append(f"g{i}")
        if k in STATEFUL:
            state.append(f"s{i}")
            if k == "scan_seed":
                state.append(f"q{i}")
    return fns, state


def _arguments(stages: Sequence[tuple[str, Any]]) -> list[Any]:
    """The values of the factory's parameters (:func:`_names`) for these stages."""
    out: list[Any] = []
    for kind, arg in stages:
        if kind == "scan_seed":  # (accumulator, seed)
            out.append(arg[0])
        elif kind == "distinct_both":  # (key, comparer)
            out += arg
        elif kind not in NO_FUNCTION:
            out.append(arg)
    return out


def _load(state: list[str], kinds: tuple[str, ...]) -> list[str]:
    """The lines (at indent 1) that read the state; a holding stage's collection is made
    at its subscription's first run (its state starts as None)."""
    if not state:
        return []
    out = [f"    {', '.join(state)}, = sub.state"]
    for i, k in enumerate(kinds):
        if k in HOLDING:
            out += [f"    if s{i} is None:", f"        s{i} = {'deque()' if k == 'skip_last' else '[]'}"]
    return out


def _prologue(kinds: tuple[str, ...], leaf: list[str], after: list[str]) -> list[str]:
    """The seeds of the scan_seed stages, the last stage's first, each through the stages
    after it, in a one-pass loop that ``break`` leaves (a stop sets ``code``; ``after``
    may pause); each seed is marked sent (``qN``) before it goes on."""
    seeds = [i for i, k in enumerate(kinds) if k == "scan_seed"]
    if not seeds:
        return []
    out = ["while True:"]
    for j in reversed(seeds):
        out += [f"    if not q{j}:", f"        q{j} = True", f"        x = s{j}"]
        out += _stage_lines(kinds, leaf, ["code = STOPPED", "break"], 2, j + 1)
        for t in range(j + 1, len(kinds)):
            if kinds[t] == "take":
                out += [f"        if s{t} == 0:", "            code = STOPPED", "            break"]
        out += ["        " + s for s in after]
    return out + ["    break"]


def _epilogue(kinds: tuple[str, ...], leaf: list[str], check_cancel: bool) -> list[str]:
    """The buffer's open list, when not empty, through the stages after it once the chain
    ended (source exhausted or stopped before the buffer) uncancelled; the chain then
    completes even if that item's consumer cancels (``STOPPED``), as the operator does."""
    if "buffer" not in kinds:
        return []
    b = kinds.index("buffer")
    cond = f"code != PAUSED and s{b} and not sub.cancelled" if check_cancel else f"s{b}"
    return [f"if {cond}:", f"    x = s{b}", f"    s{b} = []", "    code = STOPPED",
            *_stage_lines(kinds, leaf, ["pass"], 1, b + 1)]


def _loop(kinds: tuple[str, ...], source: str, leaf: list[str], stop: list[str],
          after: list[str], pause: list[str], polled: bool = False) -> list[str]:
    """The source loop around the stages (indent 0 = the loop statement). ``polled``: the
    generator of a read-ahead source, which takes each source item from ``sub.pending``
    when ``is_empty`` read it ahead (else from the iterator) and leaves ``END`` there."""
    takes = [i for i, k in enumerate(kinds) if k == "take"]
    if polled and source == "read_ahead":
        head = ["while True:", "    x = sub.pending", "    if x is NOT_READ:",
                "        x = next(it, END)", "    else:", "        sub.pending = NOT_READ",
                "    if x is END:", "        sub.pending = END", "        break",
                "    if x is None:", "        raise sub.none_error()"]
        body = _stage_lines(kinds, leaf, stop, 1)
        for i in takes:
            body += [f"    if s{i} == 0:"] + [f"        {s}" for s in stop]
        return head + body
    if source == "read_ahead":
        # (a scan_seed chain over an empty iterable: END read at subscription, no item)
        head = ["x = sub.pending", "while x is not END:" if "scan_seed" in kinds
                else "while True:", "    if x is None:", "        raise sub.none_error()"]
    elif source == "checked":
        head = ["for x in it:", "    if x is None:", "        raise sub.none_error()"]
    else:
        head = ["for x in it:"]
    body = _stage_lines(kinds, leaf, stop, 1)
    for i in takes:
        body += [f"    if s{i} == 0:"] + [f"        {s}" for s in stop]
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


def _body(kinds: tuple[str, ...], source: str, leaf: list[str], stop: list[str],
          after: list[str], pause: list[str], prologue_after: list[str],
          check_cancel: bool = True) -> list[str]:
    """The prologue (scan_seed), the source loop (run only when the prologue neither
    stopped nor paused) and the epilogue (buffer), at indent 0."""
    loop = _loop(kinds, source, leaf, stop, after, pause)
    pro = _prologue(kinds, leaf, prologue_after)
    if pro:
        loop = [*pro, "if code == EXHAUSTED:", *["    " + s for s in loop]]
    return loop + _epilogue(kinds, leaf, check_cancel)


def _source_text(kinds: tuple[str, ...], source: str) -> str:
    fns, state = _names(kinds)
    load = _load(state, kinds)
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
        loop = _body(kinds, source, leaf, stop, after, pause,
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
    loop = _body(kinds, source, ["emit(x)"], stop, _cancel_check(source), [], cancelled)
    out += ["  def sink(sub, emit):", "    it = sub.it", *load, "    code = EXHAUSTED", "    try:"]
    out += ["      " + s for s in loop]
    out += ["    except Exception as ex:", "        sub.error = ex", "        code = ERROR",
            "    finally:"]
    out += save or ["        pass"]
    out += ["    return code"]
    # the generator for poll(): state lives in its frame
    loop = _loop(kinds, source, ["yield x"], ["break"], [], [], polled=True)
    pro = _prologue(kinds, ["yield x"], [])
    if pro:
        loop = [*pro, "if code == EXHAUSTED:", *["    " + s for s in loop]]
    loop += _epilogue(kinds, ["yield x"], False)
    out += ["  def gen(sub):", "    it = sub.it", *load, "    code = EXHAUSTED"]
    out += ["    " + s for s in loop]
    out += ["  return drain, drain_conditional, sink, gen"]
    return "\n".join(out) + "\n"


#: The names the scan/distinct_until_changed stages and the folds use in generated code.
_ACCUMULATING_NAMES: dict[str, Any] = {"NOTHING": NOTHING, "scan_none": scan_none,
                                       "reduce_none": reduce_none, "key_none": key_none,
                                       "deque": deque}


@lru_cache(maxsize=512)
def _chain_factory(kinds: tuple[str, ...], source: str) -> Callable[..., Any]:
    text = _source_text(kinds, source)
    namespace: dict[str, Any] = {
        "END": END, "NOT_READ": NOT_READ, "mapper_none": mapper_none, "EXHAUSTED": EXHAUSTED,
        "PAUSED": PAUSED, "STOPPED": STOPPED, "ERROR": ERROR, **_ACCUMULATING_NAMES,
    }
    exec(compile_registered(text, f"chain: {'/'.join(kinds)} over {source}"), namespace)
    return namespace["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


def compile_chain(stages: Sequence[tuple[str, Any]], source: str) -> tuple[Any, Any, Any, Any]:
    """``(drain, drain_conditional, sink, gen)`` for these stages over a ``source`` shape."""
    if source not in SOURCES:
        raise ValueError(f"unknown source shape {source!r}")
    kinds = tuple([kind for kind, _ in stages])  # (runs at each chain's first subscription)
    return _chain_factory(kinds, source)(*_arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


#: What a fold does with each item of the chain (``acc`` the result so far, ``g`` the
#: aggregation's function), as the ordinary aggregation's ``on_next`` does it.
FOLDS: dict[str, list[str]] = {
    # reduce without seed: the first item starts the fold (None: no item yet)
    "reduce": ["if acc is None:", "    acc = x", "else:", "    acc = g(acc, x)",
               "    if acc is None:", "        raise reduce_none(g)"],
    "reduce_seed": ["acc = g(acc, x)", "if acc is None:", "    raise reduce_none(g)"],
    "collect": ["g(acc, x)"],  # collect, collect_into, to_list (g = list.append)
    "count": ["acc += 1"],
    "last": ["acc = x"],
}


def _fold_text(kinds: tuple[str, ...], source: str, terminal: str) -> str:
    """``fold(sub, acc, g)``: the whole chain into one aggregation, unbounded, in one call;
    returns ``(outcome, acc)``. Errors of the stages and of ``g`` alike end it with
    ``ERROR`` (the exception in ``sub.error``); a cancel ends it as in ``sink``."""
    fns, state = _names(kinds)
    loop = _body(kinds, source, FOLDS[terminal], ["code = STOPPED", "break"],
                 _cancel_check(source), [], ["if sub.cancelled:", "    code = PAUSED", "    break"])
    out = [f"def factory({', '.join(fns)}):", "  def fold(sub, acc, g):", "    it = sub.it"]
    out += _load(state, kinds)
    out += ["    code = EXHAUSTED", "    try:"]
    out += ["      " + s for s in loop]
    out += ["    except Exception as ex:", "        sub.error = ex", "        code = ERROR",
            "    return code, acc", "  return fold"]
    return "\n".join(out) + "\n"


@lru_cache(maxsize=256)
def _fold_factory(kinds: tuple[str, ...], source: str, terminal: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {
        "END": END, "mapper_none": mapper_none, "EXHAUSTED": EXHAUSTED, "PAUSED": PAUSED,
        "STOPPED": STOPPED, "ERROR": ERROR, **_ACCUMULATING_NAMES,
    }
    exec(compile_registered(_fold_text(kinds, source, terminal),
                            f"{terminal}: {'/'.join(kinds)} over {source}"), namespace)
    return namespace["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


def compile_fold(stages: Sequence[tuple[str, Any]], source: str,
                 terminal: str) -> Callable[[Any, Any, Any], tuple[int, Any]]:
    """``fold(sub, acc, g)`` for these stages over a ``source`` shape into the
    ``terminal`` aggregation (a key of :data:`FOLDS`)."""
    kinds = tuple(k for k, _ in stages)
    return _fold_factory(kinds, source, terminal)(*_arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


def source_text(stages: Sequence[tuple[str, Any]], source: str) -> str:
    """The generated Python text for a chain (for reading and debugging)."""
    return _source_text(tuple(k for k, _ in stages), source)


@lru_cache(maxsize=512)
def _step_factory(kinds: tuple[str, ...]) -> Callable[..., Any]:
    fns, _ = _names(kinds)
    out = [f"def factory({', '.join(fns)}):", "  def step(x):"]
    for i, kind in enumerate(kinds):
        if kind == "map":
            out += [f"    x = f{i}(x)", "    if x is None:", f"        raise mapper_none(f{i})"]
        elif kind == "filter":
            out += [f"    if not f{i}(x):", "        return DROP"]
        else:
            raise ValueError(f"step() takes map and filter stages, not {kind!r}")
    out += ["    return x", "  return step"]
    namespace: dict[str, Any] = {"DROP": DROP, "mapper_none": mapper_none}
    exec(compile_registered("\n".join(out) + "\n", f"step: {'/'.join(kinds)}"), namespace)
    return namespace["factory"]  # type: ignore[no-any-return]  # exec'd code: its values are Any


def compile_step(stages: Sequence[tuple[str, Any]]) -> Callable[[Any], Any]:
    """``step(x)``: ``x`` through map/filter stages, or :data:`DROP`; raises what they raise."""
    return _step_factory(tuple(k for k, _ in stages))(*(f for _, f in stages))  # type: ignore[no-any-return]  # the generated factory is untyped


# ---------------------------------------------------------------- flattening stages
# (flat_map, concat_map, flat_map_iterable/concat_map_iterable as the LAST stage of a
# chain, run under unbounded demand; flowable_sync_chain.py says when and why)

#: The flattening stage kinds (a chain holds at most one, as its last stage).
FLATTEN = frozenset({"flat_map", "concat_map", "flat_map_iterable"})
#: The stage kinds that may come before a flattening stage.
FLATTEN_PREFIX = frozenset({"map", "filter", "do_on_next", "take", "skip", "take_while",
                            "skip_while"})
#: (flattening chain) an inner that is not synchronous was met: ``sub.inner`` holds it.
HANDOVER = 4


#: Prefix stages that pass every item on: after them (and over a source whose iterator
#: knows its length) flat_map need not count its scalar inners, it derives the count.
_ONE_TO_ONE = frozenset({"map", "do_on_next"})


def _derives_scalars(kinds: tuple[str, ...], source: str) -> bool:
    """Whether a flat_map chain derives its scalar-inner count at a hand-over from the
    source iterator's position (a ``range``/``list``/``tuple`` iterator's own
    ``__length_hint__``: ``operator.length_hint`` overflows past ``sys.maxsize``) less
    the other inners, instead of counting each scalar: an ``ns += 1`` per item costs a
    flat_map to ``just`` about a tenth of its time (an int object per count)."""
    return (kinds[-1] == "flat_map" and source != "read_ahead"
            and all(k in _ONE_TO_ONE for k in kinds[:-1]))


def _flatten_leaf(kind: str, i: int, source: str, emit: list[str],
                  derive: bool = False) -> list[str]:
    """The lines that flatten ``x`` through stage ``i`` (``emit`` emits ``y``). ``derive``:
    count the inners that are not scalar (``nn``), not the scalar ones (``ns``)."""
    def emitting(pad: str, value: str = "y") -> list[str]:
        return [pad + (f"emit({value})" if s == "emit(y)" else s) for s in emit]

    def inner_loop(pad: str, it: str, none_check: bool) -> list[str]:
        out = [f"{pad}for y in {it}:"]
        if none_check:
            out += [f"{pad}    if y is None:", f"{pad}        raise none_element()"]
        # cancelled inside an inner: the outer loop ends too (on another thread, cancel()
        # may not have exhausted the source's iterator yet)
        return out + emitting(pad + "    ") + [
            f"{pad}    if sub.cancelled:", f"{pad}        break",
            f"{pad}if sub.cancelled:", f"{pad}    code = PAUSED", f"{pad}    break"]

    if kind == "flat_map_iterable":
        return [f"p = f{i}(x)", "if p is None:",
                f"    raise iterable_none(f{i})",
                *inner_loop("", "p", True)]
    count = ["ns += 1"] if kind == "flat_map" and not derive else []
    other = ["nn += 1"] if derive else []  # an inner that is not scalar
    handover = ["sub.inner = p", "code = HANDOVER"]
    if derive:  # the items taken from the source, less the other inners and this one
        handover.append("sub.scalars = n0 - it.__length_hint__() - nn - 1")
    elif kind == "flat_map":
        handover.append("sub.scalars = ns")
    if source == "read_ahead":
        handover.append("sub.pending = NOT_READ")
    return [f"p = f{i}(x)", "t = type(p)", "if t is Just:", *["    " + s for s in count],
            *emitting("    ", "p.value"),
            "elif t is Range:", *["    " + s for s in other],
            *inner_loop("    ", "range(p.start, p.end)", False),
            "else:", f"    k, v = {'classify_fm(p)' if kind == 'flat_map' else f'classify_cm(p, f{i})'}",
            "    if k is ITER:", *["        " + s for s in other],
            *inner_loop("        ", "v", False),
            "    elif k is SCALAR:", *["        " + s for s in count],
            *emitting("        ", "v"),
            "    elif k is EMPTY:", *["        " + s for s in (count or ["pass"])],
            "    else:", *["        " + s for s in handover], "        break"]


def flatten_text(kinds: tuple[str, ...], source: str) -> str:
    """The generated text of a chain whose last stage is a flattening one: a factory of
    ``(drain_all(sub, emit), sink(sub, emit))``, both for unbounded demand. They return
    EXHAUSTED, STOPPED (a take/take_while before the stage), PAUSED (cancelled), ERROR
    (``sub.error``) or HANDOVER (``sub.inner``; ``sub.scalars`` for flat_map); the stages'
    state is saved back in ``sub.state`` as by :func:`compile_chain`'s functions."""
    prefix, kind = kinds[:-1], kinds[-1]
    k = len(prefix)
    fns, state = _names(kinds)
    load = [f"    {', '.join(state)}, = sub.state"] if state else []
    save = [f"        sub.state = ({', '.join(state)},)"] if state else []
    out: list[str] = [f"def factory({', '.join(fns)}):"]
    derive = _derives_scalars(kinds, source)
    counters = ["    n0 = it.__length_hint__()", "    nn = 0"] if derive else ["    ns = 0"]
    for name, emit in (("drain_all", ["emitting = True", "emit(y)", "emitting = False"]),
                       ("sink", ["emit(y)"])):
        leaf = _flatten_leaf(kind, k, source, emit, derive)
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
