"""``explain(flowable)``: which stages of an assembled chain run in Spark, which on the driver.

Walks the chain from the end back to its source through each operator's ``source``
attribute (how every rxpy2 operator keeps its upstream); the Spark source describes its
own fused stages (:meth:`rxpy2.spark.SparkFlowable.explain`).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["explain"]


def _name(op: Any) -> str:
    """``FlowableFlatMap`` → ``flat_map``."""
    name = type(op).__name__
    if name.startswith("Flowable") and len(name) > len("Flowable"):
        name = name[len("Flowable"):]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def explain(flowable: Any) -> str:
    """A plan of ``flowable``: one line per stage, from the source down to the last operator.

    Lines start with ``spark`` for what runs on the executors and ``driver`` for what
    runs in this process under backpressure."""
    from rxpy2.spark.source import SparkFlowable

    driver: list[str] = []
    node = flowable
    seen = 0
    while node is not None and seen < 10_000:
        if isinstance(node, SparkFlowable):
            return "\n".join(node.explain().splitlines() + driver[::-1])
        driver.append(f"driver  operator  {_name(node)}")
        node = getattr(node, "source", None)
        seen += 1
    return "\n".join(["(no Spark source: the whole chain runs on the driver)"] + driver[::-1])
