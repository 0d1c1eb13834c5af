"""What an assembled chain looks like at runtime: ``repr()`` and ``explain()``.

One generic walker for every reactive type: an operator keeps its upstream in its
``source`` attribute (every library operator does), so the chain is found by following
``source`` from the last operator back to the source. Each stage is named after its
fluent method, derived from the class name (``FlowableFlatMap`` -> ``flat_map``,
``SingleMap`` -> ``map``) with a table for the classes whose fluent name differs
(:data:`NAMES`); its arguments are the fields in its ``__slots__``: user functions by
name (a lambda as ``<lambda>``), sizes and values shortened with :mod:`reprlib`, tuning
fields left out. A macro-fused chain (``FlowableSyncChain``, ``FlowableMapFilter``)
shows the stages it fused.

``repr(Flowable.range(1, 9).map(parse).filter(lambda x: x))`` is
``range(1, 9) → map(parse) → filter(<lambda>)``; a chain longer than
:data:`MAX_SHOWN` stages is elided in the middle.
"""

from __future__ import annotations

import inspect
import re
import reprlib
from typing import Any

__all__ = ["MAX_SHOWN", "NAMES", "TUNING", "arguments_text", "chain_repr", "explain",
           "function_label", "slot_names", "stages", "value_text"]

#: the most stages ``repr`` shows; a longer chain keeps its head and tail
MAX_SHOWN = 12

#: class name -> fluent method name, where stripping the type prefix does not give it
NAMES: dict[str, str] = {
    "FlowableScanSeed": "scan",
    "FlowableDelaySubscriptionOther": "delay_subscription",
    "FlowablePublishMulticast": "publish",
    "FlowableMulticastSelector": "replay",
    "FlowableTakeUntilPredicate": "take_until",
    "FlowableConcatIterable": "concat",
    "FlowableConcatArray": "concat_array",
    "FlowableTakeLastOne": "take_last",
    "FlowableOnBackpressureBufferStrategy": "on_backpressure_buffer",
    "FlowableWithLatestFromMany": "with_latest_from",
    "FlowableZipIterable": "zip_with",
    "FlowableScalarXMap": "flat_map",
    "FlowableDetach": "on_terminate_detach",
    "FlowableFlatMapSingle": "flat_map_single",
    "FlowableFlatMapMaybe": "flat_map_maybe",
    "FlowableFlatMapCompletable": "flat_map_completable",
    "FlowableConcatMapSingle": "concat_map_single",
    "FlowableConcatMapMaybe": "concat_map_maybe",
    "FlowableConcatMapCompletable": "concat_map_completable",
    "FlowableSwitchMapSingle": "switch_map_single",
    "FlowableSwitchMapMaybe": "switch_map_maybe",
    "FlowableSwitchMapCompletable": "switch_map_completable",
    "FlowableIgnoreElementsCompletable": "ignore_elements",
    "FlowableReduceSeedSingle": "reduce",
    "FlowableReduceMaybe": "reduce",
    "FlowableToListSingle": "to_list",
    "FlowablePredicateStopSingle": "all/any",
    "FlowableWriteBatchesSingle": "write_batches",
    "FlowableBufferTimed": "buffer_time",
    "FlowableBufferExactBoundary": "buffer",
    "FlowableBufferBoundary": "buffer",
    "FlowableBufferBoundarySupplier": "buffer",
    "FlowableSampleTimed": "sample",
    "FlowableSamplePublisher": "sample",
    "FlowableWindowBoundary": "window",
    "FlowableWindowBoundarySelector": "window",
    "FlowableWindowBoundarySupplier": "window",
    "MaybeToSingle": "to_single",
    "MaybeFlatMapSingle": "flat_map_single",
    "SingleFlatMapMaybe": "flat_map_maybe",
    "CompletableToSingle": "to_single",
    "CompletableToMaybe": "to_maybe",
    "CompletableToFlowable": "to_flowable",
    "CompletableEmpty": "complete",
    "MaybeToFlowable": "to_flowable",
    "SingleToFlowable": "to_flowable",
    "ParallelFromPublisher": "parallel",
    "ParallelJoin": "sequential",
    "ParallelSortedJoin": "sorted",
    "ParallelReduceFull": "reduce",
    "ParallelFromArray": "from_array",
    "ParallelMapTry": "map",
    "ParallelFilterTry": "filter",
    "ParallelDoOnNextTry": "do_on_next",
    "MaybeFromSingle": "to_maybe",
    "SingleDetach": "on_terminate_detach",
    "MaybeDetach": "on_terminate_detach",
    "CompletableDetach": "on_terminate_detach",
    "SingleDelayWithPublisher": "delay_subscription",
    "MaybeDelayWithPublisher": "delay_subscription",
    "CompletableDelayWithPublisher": "delay_subscription",
    "MaybeDelayOtherPublisher": "delay",
    "MaybeTimeoutPublisher": "timeout",
    "SingleRetryBiPredicate": "retry",
    "MaybeRetryBiPredicate": "retry",
    "CompletableRetryBiPredicate": "retry",
    "SingleFlatMapCompletable": "flat_map_completable",
}

#: fields that tune an operator (sizes, modes, internal state) rather than say what it does
TUNING = frozenset({
    "source", "sources", "buffer_size", "prefetch", "delay_error", "delay_errors",
    "error_mode", "max_concurrency", "current", "connection", "lock", "clients",
    "ref_counted", "request_on", "is_interval", "restart", "stages", "step", "shape",
    "error_if_missing", "loop", "capacity_hint", "size_bound",
})

#: micro fusion known from the class alone (the mode itself is negotiated at subscription)
_FUSION: dict[str, str] = {
    "FlowableRange": "offers SYNC fusion",
    "FlowableFromArray": "offers SYNC fusion",
    "FlowableFromIterable": "offers SYNC fusion",
    "FlowableJust": "scalar source (flat_map/concat_map subscribe its mapping directly)",
    "FlowableEmpty": "scalar source",
    "FlowableFromCallable": "callable source",
    "FlowableMap": "passes SYNC/ASYNC fusion through",
    "FlowableDoAfterNext": "passes SYNC/ASYNC fusion through",
    "FlowableDoFinally": "passes SYNC/ASYNC fusion through",
    "FlowableDoOnEach": "passes SYNC/ASYNC fusion through",
    "FlowableCheckpoint": "passes SYNC/ASYNC fusion through",
    "FlowableObserveOn": "requests ANY fusion upstream (thread boundary); offers ASYNC",
    "FlowableFlattenIterable": "requests ANY fusion upstream; offers SYNC over a SYNC upstream",
    "FlowableFlatMap": "requests ANY fusion of each inner source",
    "UnicastProcessor": "offers ASYNC fusion",
}

_PREFIXES = ("Flowable", "Single", "Maybe", "Completable", "Parallel")
_SUFFIXES = ("Single", "Maybe", "Completable")

_short = reprlib.Repr()
_short.maxstring = 24
_short.maxother = 24
_short.maxlist = _short.maxtuple = _short.maxset = _short.maxdict = 4
_short.maxlevel = 2


def op_name(op: Any) -> str:
    """The fluent name of ``op``'s operator: ``FlowableFlatMap`` -> ``flat_map``."""
    cls = type(op).__name__
    fixed = NAMES.get(cls)
    if fixed is not None:
        return fixed
    name = cls
    for p in _PREFIXES:
        if name.startswith(p) and len(name) > len(p) and name[len(p)].isupper():
            name = name[len(p):]
            break
    for s in _SUFFIXES:
        if name.endswith(s) and len(name) > len(s):
            name = name[:-len(s)]
            break
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def function_label(fn: Any, where: bool = False) -> str:
    """A user function by name (``parse``, ``<lambda>``, ``partial(parse)``); ``where``
    adds ``file:line`` to a lambda."""
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str):
        func = getattr(fn, "func", None)  # functools.partial
        if func is not None and func is not fn:
            return f"partial({function_label(func, where)})"
        return type(fn).__name__
    if where and name == "<lambda>":
        code = getattr(fn, "__code__", None)
        if code is not None:
            return f"<lambda at {code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}>"
    return name


def value_text(v: Any, where: bool) -> str:
    """An operator's field as ``repr`` shows it: a Publisher by its operator name, a class
    by its name, a function by :func:`function_label`, other values shortened."""
    from rxpy2.reactivestreams import Publisher

    if isinstance(v, Publisher):
        return f"<{op_name(v)}>"
    if isinstance(v, type):
        return v.__name__
    if callable(v) and not isinstance(v, (int, float, str)):
        return function_label(v, where)
    if type(v).__module__.startswith("rxpy2.schedulers"):
        return type(v).__name__
    try:
        return _short.repr(v)
    except Exception:  # a broken __repr__ must not break ours
        return f"<{type(v).__name__}>"


def slot_names(cls: type) -> list[str]:
    """The ``__slots__`` of ``cls`` and its bases, base classes first."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        s = klass.__dict__.get("__slots__", ())
        names += [s] if isinstance(s, str) else list(s)
    return names


def _defaults(cls: type) -> dict[str, Any]:
    """The defaults of ``cls.__init__``'s parameters, by name (cached on first use)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        try:
            params = inspect.signature(cls.__init__).parameters.values()  # type: ignore[misc]
        except (TypeError, ValueError):
            params = ()  # type: ignore[assignment]
        found = {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}
        _DEFAULTS[cls] = found
    return found


_DEFAULTS: dict[type, dict[str, Any]] = {}
_NO_DEFAULT = object()


def arguments_text(op: Any, where: bool) -> str:
    """The arguments of operator ``op`` as its stage shows them: its fields that say what
    it does (not :data:`TUNING`; not ``None``; not equal to the default of the ``__init__``
    parameter of the same name), ``range``'s as ``(start, count)``."""
    t = type(op).__name__
    if t == "FlowableRange" or t == "FlowableIntervalRange":
        start, end = op.start, op.end
        rest = [value_text(getattr(op, n), where) for n in ("initial_delay", "period", "scheduler")
                if hasattr(op, n)]
        return ", ".join([str(start), str(end - start), *rest])
    parts = []
    if t == "ParallelFromPublisher":
        parts.append(str(op._parallelism))
    defaults = _defaults(type(op))
    for n in slot_names(type(op)):
        if n.startswith("_") or n in TUNING:
            continue
        v = getattr(op, n, None)
        if v is None:
            continue
        d = defaults.get(n, _NO_DEFAULT)
        if d is not _NO_DEFAULT and type(d) is type(v) and d == v:
            continue
        parts.append(value_text(v, where))
    if getattr(op, "sources", None) is not None and type(op.sources) in (list, tuple):
        parts.insert(0, f"{len(op.sources)} sources")
    return ", ".join(parts)


def _fused_stage(kind: str, arg: Any, where: bool) -> str:
    return f"{kind}({value_text(arg, where)})"


def stages(obj: Any, where: bool = False) -> list[tuple[str, str, Any, str]]:
    """The chain ending in ``obj``, source first: ``(text, how, node, fusion)`` per stage.

    ``how`` is ``"source"``, ``"operator"``, ``"fused"`` (a stage of a macro-fused
    chain; ``node`` is the chain) or ``"explained"`` (a node whose class declares
    ``EXPLAINS_ITSELF``, a Spark source: ``text`` is its own ``explain()``); ``fusion``
    says how the stage is fused, where known."""
    out: list[tuple[str, str, Any, str]] = []
    node = obj
    seen = 0
    chain_source_of: Any = None
    while node is not None and seen < 10_000:
        seen += 1
        cls = type(node)
        if node is not obj and getattr(cls, "EXPLAINS_ITSELF", False):
            out.append((node.explain(), "explained", node, ""))
            break
        name = cls.__name__
        if name in ("FlowableSyncChain", "FlowableMapFilter"):
            n = len(node.stages)
            if name == "FlowableSyncChain":
                what = "sync chain: one compiled loop with its source"
                chain_source_of = node
            else:
                what = "map/filter run: one compiled step in one subscriber"
            for i in range(n - 1, -1, -1):
                stage, a = node.stages[i]
                out.append((_fused_stage(stage.name, a, where), "fused", node,
                            f"macro-fused stage {i + 1}/{n} of a {what}"))
            node = node.source
            continue
        source = getattr(node, "source", None) if "source" in slot_names(cls) else None
        text = f"{op_name(node)}({arguments_text(node, where)})"
        fusion = _FUSION.get(name, "")
        if chain_source_of is not None:
            fusion = (f"source of a macro-fused sync chain of {len(chain_source_of.stages)} "
                      "stage(s); the chain offers SYNC fusion")
            chain_source_of = None
        out.append((text, "operator" if source is not None else "source", node, fusion))
        node = source
    out.reverse()
    return out


def chain_repr(obj: Any) -> str:
    """``range(1, 9) → map(parse) → filter(<lambda>)`` (elided in the middle when long)."""
    try:
        texts = [t if how != "explained" else f"{type(n).__name__}(…)"
                 for t, how, n, _ in stages(obj)]
    except Exception:  # repr must never raise
        return f"<{type(obj).__name__}>"
    if len(texts) > MAX_SHOWN:
        head = MAX_SHOWN // 2
        tail = MAX_SHOWN - head - 1
        texts = [*texts[:head], f"… {len(texts) - head - tail} more …", *texts[-tail:]]
    return " → ".join(texts)


def explain(obj: Any) -> str:
    """The chain ending in ``obj``, one line per stage (source first): what the stage is,
    its user functions (a lambda with its file:line), and how it runs (macro-fused into a
    compiled loop, or the micro fusion its class takes part in, where known statically:
    the mode itself is negotiated at subscription). A chain over a node that explains
    itself and has ``explain_chain`` (a Spark source) is that node's text of the chain."""
    lines: list[str] = []
    chain = stages(obj, where=True)
    first = chain[0] if chain else None
    whole = getattr(first[2], "explain_chain", None) if first and first[1] == "explained" else None
    if whole is not None:
        # a chain over a node that explains itself (a Spark source) and every stage after
        # it: where each runs and why (rxpy2.spark.explain)
        text: str = whole(obj)
        return text
    width = min(max((len(t) for t, how, _, _ in chain if how != "explained"), default=0), 60)
    for i, (text, how, _, fusion) in enumerate(chain):
        if how == "explained":  # a node that explains itself (a Spark source)
            lines += text.splitlines()
            continue
        kind = "stage" if how == "fused" else how
        lines.append((f"{i:>3}  {kind:<8}  {text:<{width}}" + (f"  [{fusion}]" if fusion else "")).rstrip())
    return "\n".join(lines)
