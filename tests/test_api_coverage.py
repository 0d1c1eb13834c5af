"""RxJava 2.2.21's public names (tools/rxjava_2_2_21_api.json) against rxpy2's.

Every RxJava name of a type is present in rxpy2 (snake_case), listed under ``## Names not
ported`` in docs/rxjava-differences.md with its reason, or on the not-yet-ported list
tools/api_pending.json. That list only shrinks: a name on it that is now present or listed as
not ported fails here (take it off the list). Offline: reads the checked-in files only.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_coverage", ROOT / "tools" / "api_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("api_coverage", module)
    spec.loader.exec_module(module)
    return module


api_coverage = _tool()


def test_the_rxjava_list_covers_every_type() -> None:
    api = api_coverage.load_api()
    assert set(api) == set(api_coverage.TYPES)
    assert len(api["Flowable"]) > 150
    assert {"flat_map", "observe_on", "subscribe_on", "retry_when"} <= set(api["Flowable"])
    assert "--generate" in json.loads(api_coverage.API_JSON.read_text())["_regenerate"]


def test_every_rxjava_name_is_present_not_ported_or_pending() -> None:
    unaccounted = [f"{cov.type_name}.{name}" for cov in api_coverage.compare()
                   for name in cov.missing]
    assert not unaccounted, (
        "RxJava 2.2.21 names neither in rxpy2, nor under 'Names not ported' in "
        f"docs/rxjava-differences.md, nor in tools/api_pending.json: {unaccounted}")


def test_the_pending_list_only_shrinks_and_the_not_ported_table_is_true() -> None:
    problems = [p for cov in api_coverage.compare() for p in cov.problems]
    assert not problems, (problems, "a name ported or listed as not ported: take it off "
                          "tools/api_pending.json (tools/api-coverage --write-pending)")


def test_a_pending_name_that_is_present_or_not_ported_fails(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    pending = tmp_path / "api_pending.json"
    pending.write_text(json.dumps({"Flowable": ["map", "as", "no_such_rxjava_name"]}))
    monkeypatch.setattr(api_coverage, "PENDING_JSON", pending)
    problems = " ".join(p for cov in api_coverage.compare() for p in cov.problems)
    assert "Flowable.map is in tools/api_pending.json but is present in rxpy2" in problems
    assert "Flowable.as is in tools/api_pending.json but is listed as not ported" in problems
    assert "Flowable.no_such_rxjava_name" in problems


def test_every_not_ported_row_gives_a_reason_and_a_python_way() -> None:
    text = api_coverage.DIFFERENCES_MD.read_text()
    section = text.split("## Names not ported", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| type") and "---" not in line]
    assert rows
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split(" | ")]
        assert len(cells) == 4 and all(cells), row
        assert api_coverage._CODE.findall(cells[1]), row
    assert api_coverage.not_ported()["Flowable"]["as"]


def test_snake_case() -> None:
    assert api_coverage.snake_case("flatMapIterable") == "flat_map_iterable"
    assert api_coverage.snake_case("as") == "as"
    assert api_coverage.snake_case("concatMapEagerDelayError") == "concat_map_eager_delay_error"


def test_the_java_parser_keeps_top_level_public_methods_only() -> None:
    source = """
    public abstract class Foo<T> implements Bar {
        static final String S = "public int fake(";
        /** public void inComment() */
        public Foo() { }
        @CheckReturnValue
        @SchedulerSupport(SchedulerSupport.NONE)
        public static <T> Foo<T> fromArray(T... items) { return null; }
        @Deprecated
        public final Foo<T> old() { return this; }
        @Deprecated
        public final void twice(int a) { }
        public final void twice() { }
        protected void subscribeActual() { }
        @Override
        public boolean equals(Object o) { return false; }
        public static boolean equals(Foo a, Foo b) { return false; }
        static final class Inner { public void request(long n) { } }
        public abstract void connect(Consumer<? super Disposable> c);
    }
    """
    names, deprecated = api_coverage.java_public_methods(source, "Foo")
    assert names == {"fromArray", "twice", "equals", "connect"}
    assert deprecated == {"old"}


def test_the_coverage_page_is_up_to_date() -> None:
    page = api_coverage.COVERAGE_MD.read_text()
    assert page == api_coverage.render(api_coverage.compare()), (
        "docs/api-coverage.md is stale: run tools/api-coverage")
