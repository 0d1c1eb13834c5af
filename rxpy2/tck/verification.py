"""The base of the four verifications: one test per rule, for pytest and for a runner.

A *rule* is a method named ``required_*``, ``optional_*``, ``stochastic_*`` or
``untested_*`` (the official TCK's names in snake_case) that takes only ``self``. A
subclass gets a ``test_<rule>`` alias per rule, so pytest collects one test per rule from
``class TestX(SomeVerification)``; override a rule method to change what it runs (to skip
it with a reason, say). Configure by overriding methods and class attributes (no
``__init__``); set ``__test__ = False`` on an abstract intermediate class.
:meth:`Verification.setup_method` gives each rule a clean environment: ``env`` when set,
else :meth:`create_environment` (``TestEnvironment()`` by default).

More: docs/tck.md, "How a verification class becomes tests".
"""

from __future__ import annotations

import inspect
from typing import Any

from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.support import RULE_KINDS
from rxpy2.tck.support import RuleResult
from rxpy2.tck.support import SkipRule
from rxpy2.tck.support import is_skip
from rxpy2.tck.support import rule_kind

__all__ = ["Verification", "is_rule_name", "run_rule", "run_rules"]

_PREFIXES = tuple(kind + "_" for kind in RULE_KINDS)


def is_rule_name(name: str) -> bool:
    """True when ``name`` has a rule's prefix (``required_``, ``optional_``, ...)."""
    return name.startswith(_PREFIXES)


def _is_rule(name: str, value: Any) -> bool:
    """A rule: a rule-prefixed function that takes nothing but ``self``.

    A prefixed method with required arguments is a helper
    (``optional_active_publisher_test(elements, ...)``, ``stochastic_test(n, body)``).
    """
    if not is_rule_name(name) or not callable(value):
        return False
    try:
        params = list(inspect.signature(value).parameters.values())
    except (TypeError, ValueError):
        return True
    required = [p for p in params[1:]
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return not required


def _make_alias(rule: str, fn: Any) -> Any:
    def alias(self: Verification) -> None:
        getattr(self, rule)()

    alias.__name__ = f"test_{rule}"
    alias.__qualname__ = f"Verification.test_{rule}"
    alias.__doc__ = getattr(fn, "__doc__", None)
    alias._rxpy2_tck_rule = rule  # type: ignore[attr-defined]  # a marker attribute on the function
    return alias


def _untested_alias(self: Verification) -> None:
    """The rules the TCK has no test for, reported together: one skip per verification
    that names them all (a subclass that overrides one to test it runs it here)."""
    skipped: list[str] = []
    for rule in self.rules_by_kind()["untested"]:
        try:
            getattr(self, rule)()
        except BaseException as e:
            if not is_skip(e):
                raise
            skipped.append(str(e).removeprefix("untested: "))
    if skipped:
        raise SkipRule(f"untested ({len(skipped)} rules the TCK has no test for): "
                       + "; ".join(skipped))


_untested_alias.__name__ = _untested_alias.__qualname__ = "test_untested_rules"


class Verification:
    """Base class of PublisherVerification and the subscriber/processor verifications."""

    __test__: bool = False

    #: The environment of the rules; ``None`` means "ask :meth:`create_environment`".
    env: TestEnvironment | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__test__" not in cls.__dict__:
            cls.__test__ = True
        for name, value in list(cls.__dict__.items()):
            if (_is_rule(name, value) and f"test_{name}" not in cls.__dict__
                    and rule_kind(name) != "untested"):
                setattr(cls, f"test_{name}", _make_alias(name, value))
        if ("test_untested_rules" not in cls.__dict__
                and any(_is_rule(n, v) and rule_kind(n) == "untested"
                        for n, v in cls.__dict__.items())):
            cls.test_untested_rules = _untested_alias  # type: ignore[attr-defined]  # added to the class at run time

    # ---- hooks -------------------------------------------------------------------------------

    def create_environment(self) -> TestEnvironment:
        """The environment used when the ``env`` class attribute is not set."""
        return TestEnvironment()

    def setup_method(self, method: Any = None) -> None:
        """Before each rule: make the environment if there is none, clear its async errors."""
        if self.env is None:
            self.env = self.create_environment()
        self.env.clear_async_errors()

    def teardown_method(self, method: Any = None) -> None:
        """After each rule (a hook for subclasses)."""

    @property
    def _env(self) -> TestEnvironment:
        """``env``, made by :meth:`create_environment` first when it is not set."""
        if self.env is None:
            self.env = self.create_environment()
        return self.env

    # ---- introspection -----------------------------------------------------------------------

    @classmethod
    def rule_names(cls) -> list[str]:
        """Every rule of this class, in definition order (base classes first)."""
        seen: dict[str, None] = {}
        for klass in reversed(cls.__mro__):
            for name, value in klass.__dict__.items():
                if _is_rule(name, value):
                    seen.setdefault(name, None)
        return [n for n in seen if _is_rule(n, getattr(cls, n, None))]

    @classmethod
    def rules_by_kind(cls) -> dict[str, list[str]]:
        """The rule names grouped by classification."""
        out: dict[str, list[str]] = {k: [] for k in RULE_KINDS}
        for name in cls.rule_names():
            kind = rule_kind(name)
            if kind is not None:
                out[kind].append(name)
        return out


def _failure_message(error: BaseException) -> str:
    if isinstance(error, AssertionError):
        text = str(error) or "AssertionError"
    else:
        text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    cause = error.__cause__
    if cause is not None and str(cause) and str(cause) not in text:
        text += f" (caused by {type(cause).__name__}: {cause})"
    return text


def run_rule(target: Verification | type[Verification], name: str) -> RuleResult:
    """Run one rule the way pytest would (fresh instance for a class, ``setup_method``
    before, ``teardown_method`` after) and classify the outcome."""
    if not _is_rule(name, getattr(type(target) if not isinstance(target, type) else target, name, None)):
        raise ValueError(f"{name!r} is not a rule of {target!r}")
    instance = target() if isinstance(target, type) else target
    outcome, message = "passed", ""
    try:
        instance.setup_method(None)
        getattr(instance, name)()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - every failure of a rule is its result (pytest's
        # skip/fail outcomes are BaseExceptions too); the fatal ones are re-raised above
        if is_skip(e):
            outcome, message = "skipped", str(e)
        else:
            outcome, message = "failed", _failure_message(e)
    finally:
        try:
            instance.teardown_method(None)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # noqa: BLE001
            if outcome != "failed":
                outcome, message = "failed", "teardown: " + _failure_message(e)
    return RuleResult(name, outcome, message)


def run_rules(target: Verification | type[Verification],
              only: str | list[str] | tuple[str, ...] | set[str] | None = None) -> list[RuleResult]:
    """Run every rule of a verification (class or instance), or the rules named in ``only``.

    A class is instantiated anew for each rule (as pytest does); an instance is reused.
    Returns one :class:`~rxpy2.tck.RuleResult` per rule: ``"failed"`` for an
    AssertionError or any other exception (with its message), ``"skipped"`` for
    :class:`~rxpy2.tck.SkipRule` (with the reason).
    """
    cls = target if isinstance(target, type) else type(target)
    names = cls.rule_names()
    if only is not None:
        wanted = [only] if isinstance(only, str) else list(only)
        unknown = [n for n in wanted if n not in names]
        if unknown:
            raise ValueError(f"not rules of {cls.__name__}: {unknown}")
        names = [n for n in names if n in set(wanted)]
    return [run_rule(target, n) for n in names]
