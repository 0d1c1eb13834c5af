"""``explain(flowable)``: which stages of an assembled chain run in Spark, which on the driver.

Walks the chain from the end back to its Spark source through each operator's ``source``
attribute; the source describes its own stages (:meth:`rxpy2.spark.SparkFlowable.explain`)
and every later operator is one line with why it runs on the driver (the reasons:
``docs/spark.md``, *explain()*). A ``from_stream`` source gives its own line too, and every
operator after it runs on the driver.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Protocol

from rxpy2._internal import describe
from rxpy2.spark.plan import Plan
from rxpy2.spark.plan import function_label

__all__ = ["explain"]


class _SparkSource(Protocol):
    """What explain() reads of a Spark source (:class:`rxpy2.spark.SparkFlowable`, which
    calls this module for its chains' ``explain()``: not imported here)."""

    @property
    def plan(self) -> Plan: ...

    def explain(self) -> str: ...

    def refusal(self, fn: Callable[..., Any], kind: str = "map") -> str | None: ...


def _spark_source(node: Any) -> _SparkSource | None:
    """``node`` when it is a Spark source: a node that explains itself (the class marker
    :mod:`rxpy2._internal.describe` reads too) with a Spark plan."""
    if getattr(type(node), "EXPLAINS_ITSELF", False) and isinstance(getattr(node, "plan", None),
                                                                      Plan):
        found: _SparkSource = node
        return found
    return None


def _stream_source(node: Any) -> bool:
    """Whether ``node`` is a streaming source (:class:`rxpy2.spark.StreamFlowable`, whose
    class says so: not imported here)."""
    cls = type(node)
    return bool(getattr(cls, "EXPLAINS_ITSELF", False) and getattr(cls, "STREAMING", False))


#: why every stage after from_stream runs on the driver
_AFTER_STREAM = "after from_stream: no stage is fused into a streaming query"

#: why a distinct after fused stages runs on the driver on Spark Connect, keep_order=False too
_CONNECT_DISTINCT = ("Spark Connect: a distinct after fused stages runs on the driver, with "
                     "keep_order=False too: Connect has no RDD.distinct of Python items")


def _connect_distinct(source: _SparkSource, kind: str) -> bool:
    """Whether ``kind`` is a ``distinct`` stage that a Spark Connect source with fused
    stages keeps on the driver whatever its ``keep_order`` (``SparkFlowable.distinct``)."""
    return (kind.startswith("distinct") and not kind.startswith("distinct_until")
            and bool(getattr(source, "on_connect", False)) and bool(source.plan.spark_steps))


#: take/limit: pushed into Spark directly on a source of rows (no function of their own)
_LIMIT: Any = object()

#: why a stage that could run in Spark does not, when the plan gives no other reason: it
#: was applied with the base Flowable's method (e.g. ``Flowable.map(source, f)``)
_UNFUSED = "assembled without the Spark source's fusion"

#: operator classes that are a fusable Python stage: class name -> (stage kind, field)
_FUSABLE_OPERATORS = {
    "FlowableMap": ("map", "mapper"),
    "FlowableFilter": ("filter", "predicate"),
    "FlowableFlattenIterable": ("flat_map_iterable", "mapper"),
}


def _arguments(op: Any) -> str:
    if type(op).__name__ in ("FlowableRange", "FlowableIntervalRange"):
        return describe.arguments_text(op, False)  # (start, count) as range() takes them
    parts = []
    for name in describe.slot_names(type(op)):
        if name.startswith("_") or name in describe.TUNING:
            continue
        v = getattr(op, name, None)
        if v is None:
            continue
        if callable(v) and not isinstance(v, type) and not hasattr(v, "subscribe"):
            parts.append(function_label(v))
        else:
            parts.append(describe.value_text(v, False))
    return ", ".join(parts)


def _driver_stages(op: Any) -> list[tuple[str, str, Any]]:
    """``op`` as ``(kind, text, function or None)`` per stage: a collapsed map/filter run
    (or a sync chain) gives each stage it holds; ``function`` is set for a fusable one
    (:data:`_LIMIT` for take/limit)."""
    cls = type(op).__name__
    if cls in ("FlowableMapFilter", "FlowableSyncChain"):
        out = []
        for stage, arg in op.stages:
            kind = stage.name  # the stage its operator declared (FusedStage)
            fn = arg[0] if isinstance(arg, tuple) else arg  # flat_map_iterable: (fn, prefetch)
            label = function_label(fn) if callable(fn) else describe.value_text(arg, False)
            fusable = kind in ("map", "filter", "flat_map_iterable") and callable(fn)
            out.append((kind, f"{kind}({label})", fn if fusable else None))
        return out
    known = _FUSABLE_OPERATORS.get(cls)
    if known is not None:
        kind, field = known
        fn = getattr(op, field, None)
        if callable(fn):
            return [(kind, f"{kind}({function_label(fn)})", fn)]
    name = describe.op_name(op)
    return [(name, f"{name}({_arguments(op)})", _LIMIT if name in ("take", "limit") else None)]


def explain(flowable: Any) -> str:
    """A plan of ``flowable``: one line per stage, from the source down to the last operator.

    Lines start with ``spark`` for what runs in Spark (``stage``: a Python function on the
    executors; ``column``: a Column expression in Spark SQL) and ``driver`` for what runs
    in this process under backpressure; a driver line ends with why it is not in Spark."""
    ops: list[Any] = []
    node = flowable
    source: _SparkSource | None = None
    stream: Any = None
    while node is not None and len(ops) < 10_000:
        source = _spark_source(node)
        if source is not None:
            break
        if _stream_source(node):
            stream = node
            break
        ops.append(node)
        node = getattr(node, "source", None) if "source" in describe.slot_names(type(node)) else None
    ops.reverse()
    stages = [st for op in ops for st in _driver_stages(op)]
    if stream is not None:
        lines = stream.explain().splitlines()
        lines += [f"driver  operator  {text}  [{_AFTER_STREAM}]" for _, text, _ in stages]
        return "\n".join(lines)
    if source is None:
        lines = ["(no Spark source: the whole chain runs on the driver)"]
        lines += [f"driver  operator  {text}" for _, text, _ in stages]
        return "\n".join(lines)
    lines = source.explain().splitlines()
    if stages and lines[-1].startswith("driver  ("):
        lines.pop()  # "Python stages applied next run on the driver": the lines below say it
    # the first driver stage: a map_partitions the source keeps on the driver, if any
    first = next((st.text() for st in source.plan.labels if st.where == "driver"), None)
    for kind, text, fn in stages:
        if fn is None:
            reason = f"not fusable: {kind}"
            if _connect_distinct(source, kind):
                reason += f" ({_CONNECT_DISTINCT})"
        elif fn is _LIMIT:
            plan = source.plan
            reason = (plan.off_reason()
                      or (f"after a driver operator ({first})" if first is not None else None)
                      or (f'not fusable with emit="{plan.emit}"' if plan.emit != "rows" else None)
                      or (f"{kind}(0): completes at subscription, with no Spark job"
                          if text == f"{kind}(0)" else None)
                      or _UNFUSED)
        elif first is None:
            why = source.refusal(fn, kind)
            # None: assembled past the source's own methods (e.g. Flowable.map(src, f))
            reason = why if why is not None else _UNFUSED
        else:
            reason = source.plan.off_reason() or f"after a driver operator ({first})"
        if first is None:
            first = text
        lines.append(f"driver  operator  {text}  [{reason}]")
    return "\n".join(lines)
