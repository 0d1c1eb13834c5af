"""Random synchronous chains checked against what RxJava 2.2.21 guarantees.

Each chain (a source, one to four operators of the synchronous catalogue and a script of
``request(n)``/``cancel()`` steps run through a TestSubscriber) comes from one seed; see
``_fuzz_chains.py`` for the checks and for each operator's demand model (read from the
RxJava 2.2.21 sources). A failure names the seed: replay it with
``RXPY2_FUZZ_REPLAY=<seed>[,<seed>...]``. ``RXPY2_FUZZ_CHAINS`` (default 1000) sets the number
of chains and ``RXPY2_FUZZ_SEED`` the base seed, for a longer run::

    RXPY2_FUZZ_CHAINS=5000 RXPY2_FUZZ_SEED=7 .venv/bin/python -m pytest tests/fidelity
"""

from __future__ import annotations

import os

from _fuzz_chains import Violation
from _fuzz_chains import chain_error
from _fuzz_chains import check_chain

BASE_SEED = int(os.environ.get("RXPY2_FUZZ_SEED", "20261125"))
CHAINS = int(os.environ.get("RXPY2_FUZZ_CHAINS", "1000"))
REPLAY = [int(s) for s in os.environ.get("RXPY2_FUZZ_REPLAY", "").split(",") if s.strip()]

Result = tuple[str, list[Violation]]
_results: list[Result] | None = None


def _run_all(plugin_errors: list[BaseException]) -> list[Result]:
    """Every chain: (description, violations)."""
    global _results
    if _results is None:
        seeds = REPLAY or range(BASE_SEED, BASE_SEED + CHAINS)
        results = []
        for seed in seeds:
            desc, violations, chain = check_chain(seed)
            for e in plugin_errors:
                if not chain_error(e):  # a late FuzzError is RxJava's way too
                    violations.append(Violation(chain, "plugin",
                                                f"rxpy2.plugins.on_error got {e!r}"))
            del plugin_errors[:]
            results.append((desc, violations))
        _results = results
    return _results


def _report(failed: list[tuple[str, list[Violation]]]) -> str:
    """The failures grouped by culprit and kind, with the first (shortest) chain of each."""
    groups: dict[tuple[str, str], list[tuple[str, Violation]]] = {}
    for desc, violations in failed:
        for v in violations:
            groups.setdefault((v.culprit.split("(")[0], v.kind), []).append((desc, v))
    lines = [f"{len(failed)} chain(s) broke what RxJava 2.2.21 guarantees "
             f"(replay one with RXPY2_FUZZ_REPLAY=<seed>):"]
    for (culprit, kind), hits in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        desc, v = min(hits, key=lambda h: len(h[0]))
        lines.append(f"* {culprit} [{kind}] x{len(hits)}, e.g. {desc}\n    {v.culprit}: {v.text}")
    return "\n".join(lines)


def test_random_chains_keep_rxjava2_invariants(plugin_errors: list[BaseException]) -> None:
    """At least 200 random chains: never more items than requested on any link, at most one
    terminal event and nothing after it, nothing after cancel(), upstream requests within
    each operator's RxJava 2.2.21 demand (pass-through, skip's +n, buffer's multiple, a
    prefetch replenished as it is consumed, ...), and the same signals fused and unfused."""
    results = _run_all(plugin_errors)
    assert REPLAY or len(results) >= 200
    failed = [(desc, found) for desc, found in results if found]
    assert not failed, _report(failed)
