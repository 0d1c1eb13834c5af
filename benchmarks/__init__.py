"""rxpy2's benchmark suite: rxpy2 next to plain Python loops, builtins chains and RxPY.

Run it from a checkout with ``python -m benchmarks`` (or ``tools/bench``, which
sets up ``.venv`` with the ``bench`` extra first); ``--help`` lists the options.

* :mod:`benchmarks.workloads`: the timed workloads, each a list of
  implementations doing the same work and returning a checksum of what their
  consumer received;
* :mod:`benchmarks.memory`: peak RSS per stream size, each size in a fresh process;
* :mod:`benchmarks.import_cost`: the ``import`` workload, ``import rxpy2`` in fresh
  processes next to ``python -c pass`` (``--import-runs`` of them, 20 by default);
* :mod:`benchmarks.runner`: runs the implementations of a workload interleaved,
  takes medians, prints the tables and writes them into ``docs/performance.md``;
* :mod:`benchmarks.report`: the report's records, the tables, the machine description
  and the targets;
* :mod:`benchmarks.spark`: ``rxpy2.spark`` next to PySpark's own ways to bring rows
  to the driver (``python -m benchmarks.spark``, or ``python -m benchmarks --spark``);
  writes its own section of ``docs/performance.md``. Its parts on the chain pushed into
  Spark are in :mod:`benchmarks.spark_pushdown`, the streaming part in
  :mod:`benchmarks.spark_stream`; what they share (session, data, timing loop) in
  :mod:`benchmarks.spark_common`;
* ``bench_atomics``, ``bench_flat_map``, ``bench_observe_on_memory``: older
  single-topic scripts (``python -m benchmarks.bench_atomics`` and so on);
  ``bench_context``: what context propagation adds per scheduled task.
"""
