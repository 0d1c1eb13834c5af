"""The error a Spark source or sink signals when Spark fails."""

from __future__ import annotations


class SparkJobError(RuntimeError):
    """A Spark job of an rxpy2 source or sink failed.

    The exception PySpark raised (a ``PythonException`` carrying the executor's Python
    traceback, a ``Py4JJavaError``, ...) is kept as ``__cause__``; the message repeats its
    last line so that the executor's error is readable at once.
    """

    def __init__(self, message: str, *, partition: int | None = None,
                 job_group: str | None = None) -> None:
        super().__init__(message)
        self.partition = partition
        self.job_group = job_group


def describe(error: BaseException) -> str:
    """The most telling line of a Spark error: the Python exception of an executor's
    traceback when there is one, else the first line of the message."""
    text = str(error).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return type(error).__name__
    for ln in reversed(lines):  # "ValueError: bad row" at the end of a Python traceback
        head = ln.split(":", 1)[0]
        if head.endswith(("Error", "Exception")) and " " not in head and not ln.startswith("at "):
            return ln
    return lines[0]
