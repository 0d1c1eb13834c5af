"""Rule outcomes and small shared pieces of the TCK.

* :class:`SkipRule` is how a rule says "not run": it subclasses
  ``unittest.SkipTest``, which pytest reports as a skip, and the programmatic
  runner (:func:`rxpy2.tck.run_rules`) reports as outcome ``"skipped"``.
  :func:`not_verified` skips with a reason (an unmet precondition, an optional
  rule the publisher does not implement); :func:`untested` skips a rule the TCK
  has no test for, with a message that starts with ``"untested"``.
* :class:`RuleResult` is one line of a programmatic run.
* :class:`TestException` is the error the verifications make Publishers and
  Subscribers signal on purpose; :class:`SubscriberBufferOverflowException` is
  raised by a test subscriber whose buffer overflowed (the publisher emitted far
  more than was requested).
"""

from __future__ import annotations

import unittest
from dataclasses import dataclass
from typing import NoReturn

__all__ = [
    "OUTCOMES",
    "RULE_KINDS",
    "RuleResult",
    "SkipRule",
    "SubscriberBufferOverflowException",
    "TestException",
    "is_skip",
    "not_verified",
    "rule_kind",
    "untested",
]

#: The four classifications of a rule, as prefixes of its method name.
RULE_KINDS: tuple[str, ...] = ("required", "optional", "stochastic", "untested")
#: The outcomes of a rule in a programmatic run.
OUTCOMES: tuple[str, ...] = ("passed", "failed", "skipped")


class SkipRule(unittest.SkipTest):
    """The rule was not run; the message says why (pytest shows it as the skip reason)."""

    __test__ = False


def not_verified(reason: str = "Not verified by this TCK.") -> NoReturn:
    """Skip the running rule with ``reason``."""
    raise SkipRule(reason)


def untested(reason: str = "") -> NoReturn:
    """Skip a rule this TCK leaves untested; the message starts with ``"untested"``."""
    raise SkipRule(f"untested: {reason}" if reason else "untested: not verified by this TCK")


def is_skip(error: BaseException) -> bool:
    """True for :class:`SkipRule`, any ``unittest.SkipTest`` and pytest's skip outcome."""
    if isinstance(error, unittest.SkipTest):
        return True
    t = type(error)
    return t.__name__ == "Skipped" and t.__module__.startswith("_pytest")


def rule_kind(name: str) -> str | None:
    """``"required"``/``"optional"``/``"stochastic"``/``"untested"`` from a rule's name, else None."""
    for kind in RULE_KINDS:
        if name.startswith(kind + "_"):
            return kind
    return None


@dataclass(frozen=True)
class RuleResult:
    """The outcome of one rule: ``outcome`` is ``"passed"``, ``"failed"`` or ``"skipped"``."""

    name: str
    outcome: str
    message: str = ""

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, not {self.outcome!r}")

    @property
    def kind(self) -> str | None:
        """The rule's classification, from its name (see :data:`RULE_KINDS`)."""
        return rule_kind(self.name)

    @property
    def passed(self) -> bool:
        """Whether the rule ran and passed."""
        return self.outcome == "passed"

    @property
    def failed(self) -> bool:
        """Whether the rule ran and failed (``message`` says why)."""
        return self.outcome == "failed"

    @property
    def skipped(self) -> bool:
        """Whether the rule was not run (``message`` gives the reason, e.g. an optional capability missing)."""
        return self.outcome == "skipped"

    def __str__(self) -> str:
        return f"{self.outcome.upper():7} {self.name}" + (f": {self.message}" if self.message else "")


class TestException(RuntimeError):
    """The error a verification asks a Publisher or Subscriber to signal on purpose."""

    __test__ = False

    def __init__(self, message: str = "Test Exception: Boom!") -> None:
        super().__init__(message)


class SubscriberBufferOverflowException(RuntimeError):
    """A test subscriber received more items than its buffer holds (the publisher over-emitted)."""
