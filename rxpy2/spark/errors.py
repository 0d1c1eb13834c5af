"""The error a Spark source or sink signals when Spark fails."""

from __future__ import annotations

import re


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

    @classmethod
    def caused_by(cls, what: str, cause: BaseException, *, partition: int | None = None,
                  job_group: str | None = None) -> SparkJobError:
        """``what: <the telling line of cause>`` (:func:`describe`), ``cause`` its
        ``__cause__``."""
        err = cls(f"{what}: {describe(cause)}", partition=partition, job_group=job_group)
        err.__cause__ = cause
        return err


_EXCEPTION_LINE = re.compile(r"^(?:Caused by: |: )?((?:[\w$]+\.)*[\w$]*(?:Error|Exception)\b.*)$")


def describe(error: BaseException) -> str:
    """The most telling line of a Spark error: the innermost ``SomeError: message`` line
    (the Python exception at the end of an executor's traceback, or the deepest Java
    ``Caused by:``), one with a message before a bare class name (a Connect error ends with
    its ``JVM stacktrace:``'s class alone), else the first line of the message."""
    text = str(error).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return type(error).__name__
    bare: str | None = None
    for ln in reversed(lines):
        if ln.startswith("at ") or ln.startswith("..."):
            continue  # a Java stack frame
        m = _EXCEPTION_LINE.match(ln)
        if m:
            if ":" in m.group(1):
                return m.group(1)
            if bare is None:
                bare = m.group(1)
    return bare if bare is not None else lines[0]


class SparkFusionError(ValueError):
    """``fuse="require"``: a stage that would run in Spark cannot, so it would run on the
    driver instead. Raised at assembly (when the operator is applied), naming the stage,
    its function and the reason (``not picklable: ...``)."""

    def __init__(self, message: str, *, stage: str, reason: str) -> None:
        super().__init__(message)
        self.stage = stage
        self.reason = reason
