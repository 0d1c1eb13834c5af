"""``python -m benchmarks``: run the suite (see :mod:`benchmarks.runner`).

``python -m benchmarks --spark [options]`` runs the Spark benchmarks instead
(:mod:`benchmarks.spark`, the same as ``python -m benchmarks.spark [options]``).
"""

import sys

if "--spark" in sys.argv[1:]:
    from benchmarks.spark import main as spark_main

    sys.exit(spark_main([a for a in sys.argv[1:] if a != "--spark"],
                        prog="python -m benchmarks --spark"))

from benchmarks.runner import main  # noqa: E402

sys.exit(main())
