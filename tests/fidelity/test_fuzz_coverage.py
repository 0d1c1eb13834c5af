"""The random chains cover every operator and overload issue 30 names (so that coverage
cannot shrink silently): each is registered in ``OPS`` and its builder draws each form."""

from __future__ import annotations

import random

import pytest
from _fuzz_chains import OPS
from _fuzz_chains import RecordingSource
from _fuzz_chains import Run
from _fuzz_chains import Stage
from _fuzz_chains import cancelled_at_last_element
from _fuzz_chains import chain_error
from _fuzz_chains import run_chain
from test_random_chains import BASE_SEED
from test_random_chains import CHAINS

#: operator (its OPS name) -> what the descriptions of its drawn stages must show
REQUIRED: dict[str, tuple[str, ...]] = {
    "buffer_boundary": ("buffer(boundary=never()", "buffer(boundary=RecordingSource(",
                        "buffer(boundary_supplier(", "buffer(openings=RecordingSource("),
    "window_boundary": ("window(boundary=never()", "window(boundary=RecordingSource(",
                        "window(boundary_supplier(", "window(openings=RecordingSource("),
    "timeout_selector": ("timeout(item_timeout=", "first_timeout=never()", "first_timeout=empty()",
                         "fallback=RecordingSource("),
    "replay": ("replay().auto_connect()", "replay(1).auto_connect()", "replay(5).auto_connect()"),
    "concat_map_zero_one": ("concat_map_single(", "concat_map_maybe(", "concat_map_completable(",
                            "concat_map_single_delay_error(", "concat_map_maybe_delay_error(",
                            "concat_map_completable_delay_error("),
    "switch_map_zero_one": ("switch_map_single(", "switch_map_maybe(", "switch_map_completable(",
                            "switch_map_single_delay_error(", "switch_map_maybe_delay_error(",
                            "switch_map_completable_delay_error("),
    "flat_map_zero_one": ("flat_map_single(", "flat_map_maybe(", "flat_map_completable("),
    "flat_map_iterable": ("flat_map_iterable(", ").take("),
    "concat_map_iterable": ("concat_map_iterable(", ").take("),
    "concat_with": ("concat_with(RecordingSource(",),
    "concat_with_zero_one": ("concat_with(Single.just", "concat_with(Maybe.just",
                             "concat_with(Completable.complete()", "first_or_error())",
                             "first_element())", "ignore_elements())"),
    "merge_with": ("merge_with(RecordingSource(",),
    "merge_with_zero_one": ("merge_with(Single.just", "merge_with(Maybe.just",
                            "merge_with(Completable.complete()", "merge_with(Completable.error()",
                            "ignore_elements())"),
    "share": ("share()",),
    "ref_count": ("publish().ref_count(1)", "publish().ref_count(2)", "publish().ref_count(3)"),
    "parallel_sequential": (".sequential(", ".sequential_delay_error(", ".map(x -> [x])"),
    "parallel_fold": (".sorted(", ".to_sorted_list(", ".reduce("),
    "zero_one_chain": ("first_or_error().to_flowable()", "last_or_error().to_flowable()",
                       "single_or_error().to_flowable()", "reduce(least by repr).to_flowable()",
                       "reduce(seed=0", "to_list().flat_map_publisher(",
                       "first_or_error().concat_with(Single.just",
                       "first_element().concat_with(Maybe.just", "merge_with(Single.just",
                       "ignore_elements().and_then("),
}


def _descriptions(name: str, draws: int = 400) -> set[str]:
    """The descriptions of ``draws`` stages of ``name`` built (not run) over a source."""
    found = set()
    for seed in range(draws):
        run = Run(True)
        up = run.tap(RecordingSource(3, False), "source", "RecordingSource(3)")
        st = Stage(run, 1, up, seed)
        st.name = name
        OPS[name](st, random.Random(seed), up)
        found.add(st.desc)
    return found


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_ops_registry_draws_every_named_form(name: str) -> None:
    assert name in OPS, f"{name} is no longer drawn by the random chains"
    descs = _descriptions(name)
    missing = [form for form in REQUIRED[name] if not any(form in d for d in descs)]
    assert not missing, f"{name} never draws {missing}; it drew {sorted(descs)[:20]}"


def test_a_cancel_at_an_iterables_last_element_is_drawn(
        plugin_errors: list[BaseException]) -> None:
    """Among the chains of the default run, some consumer of flat_map_iterable or
    concat_map_iterable cancels inside the ``on_next`` of an iterable's last element."""
    hits = [seed for seed in range(BASE_SEED, BASE_SEED + CHAINS)
            if cancelled_at_last_element(run_chain(seed, True))]
    assert hits
    assert all(chain_error(e) for e in plugin_errors)  # (test_random_chains checks them)
