"""RxJava 2.2.21's public names and signatures (tools/rxjava_2_2_21_api.json) against rxpy2's.

Every RxJava name of a type is present in rxpy2 (snake_case), listed under ``## Names not
ported`` in docs/rxjava-differences.md with its reason, or on the not-yet-ported list
tools/api_pending.json. Every overload is taken by rxpy2 as RxJava writes it, served by a
call form of tools/api_overloads.json that binds, listed under ``## Overloads not ported``,
or on tools/api_pending_signatures.json. The pending lists only shrink: an entry that is now
present, taken, mapped or documented fails here (take it off the list). Offline: reads the
checked-in files only.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any
from typing import Generic
from typing import TypeVar
from typing import overload

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
    assert page == api_coverage.render(api_coverage.compare(),
                                       api_coverage.compare_signatures()), (
        "docs/api-coverage.md is stale: run tools/api-coverage")


# -- signatures --------------------------------------------------------------------------------


def test_the_rxjava_list_holds_every_overload() -> None:
    sigs = api_coverage.load_signatures()
    assert set(sigs) == set(api_coverage.TYPES)
    flowable = {str(s) for s in sigs["Flowable"]}
    assert len(flowable) > 450
    assert "buffer(int count, int skip)" in flowable
    assert "static zip(Publisher source1, Publisher source2, BiFunction zipper)" in flowable
    assert "static zip(Iterable<Publisher> sources, Function zipper)" in flowable
    assert "buffer(long timespan, TimeUnit unit, Scheduler scheduler)" in flowable
    assert "static from_array(T... items)" in flowable
    # the names list and the signatures list agree
    api = api_coverage.load_api()
    for type_name, type_sigs in sigs.items():
        assert {s.name for s in type_sigs} == set(api[type_name]), type_name
        keys = [s.key for s in type_sigs]
        assert len(keys) == len(set(keys)), type_name


def test_every_signature_is_taken_mapped_documented_or_pending() -> None:
    signatures = api_coverage.compare_signatures()
    unaccounted = [f"{cov.type_name}.{key}" for cov in signatures for key in cov.missing]
    assert not unaccounted, (
        "RxJava 2.2.21 overloads that rxpy2 neither takes as RxJava writes them, nor serves "
        "under a form of tools/api_overloads.json, nor lists under 'Overloads not ported' in "
        f"docs/rxjava-differences.md, nor has in tools/api_pending_signatures.json: "
        f"{unaccounted}")
    loaded = api_coverage.load_signatures()
    for cov in signatures:
        assert cov.total == len(loaded[cov.type_name])
        assert cov.total == (len(cov.accepted) + len(cov.mapped) + len(cov.different)
                             + len(cov.pending)), cov.type_name
    flowable = next(c for c in signatures if c.type_name == "Flowable")
    assert len(flowable.accepted) > 350


def test_the_signature_lists_agree_pending_only_shrinks_and_mapped_forms_bind() -> None:
    problems = [p for cov in api_coverage.compare_signatures() for p in cov.problems]
    assert not problems, problems


def _json(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _signature_problems() -> str:
    return "\n".join(p for cov in api_coverage.compare_signatures() for p in cov.problems)


def test_a_pending_signature_that_is_taken_mapped_or_documented_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api_coverage, "PENDING_SIGNATURES_JSON", _json(
        tmp_path, "pending.json", {"Flowable": ["buffer(int, int)", "buffer(long, TimeUnit)",
                                                "to_list(int)", "frobnicate(int)"]}))
    problems = _signature_problems()
    assert "Flowable.buffer(int, int) is accepted as RxJava writes it" in problems
    assert "Flowable.buffer(long, TimeUnit) is in tools/api_pending_signatures.json but is " \
           "mapped or documented" in problems
    assert "Flowable.to_list(int) is in tools/api_pending_signatures.json but is mapped or " \
           "documented" in problems
    assert "Flowable.frobnicate(int) is in tools/api_pending_signatures.json but is not an " \
           "RxJava 2.2.21 signature" in problems


def test_a_mapped_form_that_no_longer_binds_fails(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    overloads = api_coverage.load_overloads()
    overloads["Flowable"]["buffer(long, TimeUnit)"] = "buffer_time(timespan, every=2)"
    overloads["Flowable"]["take(long, TimeUnit)"] = "take_for_a_while(time)"
    overloads["Flowable"]["buffer(int, int)"] = "buffer(count, skip)"
    monkeypatch.setattr(api_coverage, "OVERLOADS_JSON", _json(tmp_path, "o.json", overloads))
    problems = _signature_problems()
    assert "Flowable.buffer(long, TimeUnit): the mapped form 'buffer_time(timespan, every=2)' " \
           "no longer binds" in problems
    assert "Flowable.take(long, TimeUnit): the mapped form 'take_for_a_while(time)' no longer " \
           "binds (take_for_a_while is not a method)" in problems
    assert "Flowable.buffer(int, int) is accepted as RxJava writes it (buffer(<int>, <int>)) " \
           "but is listed in tools/api_overloads.json" in problems
    cov = next(c for c in api_coverage.compare_signatures() if c.type_name == "Flowable")
    assert "buffer(long, TimeUnit)" in cov.missing
    assert api_coverage.main(["--check", "--no-write"]) == 1


def test_a_planted_signature_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(api_coverage.API_JSON.read_text())
    data["_signatures"]["Flowable"].append("buffer(String name, Locale locale)")
    data["_signatures"]["Single"].append("static frobnicate(int count)")
    monkeypatch.setattr(api_coverage, "API_JSON", _json(tmp_path, "api.json", data))
    signatures = api_coverage.compare_signatures()
    missing = {f"{c.type_name}.{k}" for c in signatures for k in c.missing}
    assert missing == {"Flowable.buffer(String, Locale)", "Single.frobnicate(int)"}
    page = api_coverage.render(api_coverage.compare(), signatures)
    assert "`buffer(String, Locale)`" in page and "`frobnicate(int)`" in page
    assert "| Flowable | 497 |" in page
    capsys.readouterr()
    assert api_coverage.main(["--check", "--no-write"]) == 1
    out = capsys.readouterr().out
    assert "problem: Single.frobnicate(int) is neither taken by rxpy2" in out
    assert api_coverage.main(["--no-write"]) == 0


def test_the_java_parser_reads_each_overload_and_its_parameters() -> None:
    source = """
    public abstract class Foo<T> {
        public static <T> Foo<T> fromArray(T... items) { return null; }
        public final <R> Foo<R> map(final Function<? super T, ? extends R> mapper,
                                    @NonNull Map<String, List<Integer>> table) { return null; }
        public static <T> Foo<T> zip(Iterable<? extends Publisher<? extends T>> sources,
                                     java.util.concurrent.Future<?> f, int[] counts) { return null; }
        public static <T> Foo<T> merge(Publisher<? extends SingleSource<? extends T>> sources,
                                       Publisher<? extends T> other) { return null; }
        public final Foo<T> doOnEach(final Consumer<? super Notification<T>> onNotification,
                                     Consumer<? super T> onNext) { return this; }
        @Deprecated
        public final void twice(int a) { }
        public final void twice() { }
        static final class Inner { public void request(long n) { } }
    }
    """
    decls = api_coverage.java_declarations(source, "Foo")
    texts = [api_coverage.signature_text(d) for d in decls if not d.deprecated]
    assert texts == [
        "static from_array(T... items)",
        "map(Function mapper, Map table)",
        "static zip(Iterable<Publisher> sources, Future f, int[] counts)",
        "static merge(Publisher<SingleSource> sources, Publisher other)",
        "do_on_each(Consumer<Notification> onNotification, Consumer onNext)",
        "twice()",
    ]
    assert [d.name for d in decls if d.deprecated] == ["twice"]
    sig = api_coverage.JavaSignature.parse(texts[2])
    assert sig.static and sig.key == "zip(Iterable<Publisher>, Future, int[])"
    assert str(sig) == texts[2]


def _kinds(text: str) -> list[str]:
    sig = api_coverage.JavaSignature.parse(text)
    return [a.kind for a in api_coverage.java_arguments(sig)]


def test_a_time_unit_folds_its_longs_into_durations() -> None:
    assert _kinds("static interval_range(long start, long count, long initialDelay, "
                  "long period, TimeUnit unit, Scheduler scheduler)") == [
        "int", "int", "duration", "duration", "scheduler"]
    assert _kinds("take_last(long count, long time, TimeUnit unit)") == ["int", "duration"]
    assert _kinds("buffer(int count, int skip)") == ["int", "int"]
    assert _kinds("zip_array(Function zipper, boolean delayError, Publisher... sources)") == [
        "callable", "bool", "Flowable"]
    assert _kinds("sorted(Comparator sortFunction)") == ["comparator"]


_T = TypeVar("_T")


class Scheduler:
    """What the binding rule reads from an annotation is its name."""


class Publisher(Generic[_T]):
    """A stand-in: only the names in the annotations matter."""


class Single(Generic[_T]):
    """A stand-in."""


class _Fake:
    """Stand-in rxpy2 type for the binding rule."""

    def buffer(self, count: int, skip: int | None = None) -> None: ...

    def delay(self, delay: float | None = None, scheduler: Scheduler | None = None, delay_error: bool = False,
              *, selector: Callable[[Any], Any] | None = None) -> None: ...

    @staticmethod
    def zip(*sources: Any, zipper: Callable[..., Any] | None = None) -> None: ...

    @overload
    @staticmethod
    def merge(sources: list[Any]) -> None: ...

    @overload
    @staticmethod
    def merge(s1: _Fake, s2: _Fake, /) -> None: ...

    @staticmethod
    def merge(*args: Any) -> None: ...

    def first(self, default: Callable[[], Any]) -> None: ...

    @staticmethod
    def concat(sources: Iterable[Publisher[Any]] | Publisher[Single[Any]]) -> None: ...

    @staticmethod
    def switch_on_next(sources: Publisher[Any]) -> None: ...

    def start_with(self, item: _T) -> None: ...

    @staticmethod
    def interval(period: float, initial_delay: float | None = None) -> None: ...

    def subscribe(self, on_success: Callable[[Any], Any] | Callable[..., Any] | None = None,
                  on_error: Callable[[BaseException], Any] | None = None) -> None: ...

    def do_on_event(self, callback: Callable[[Any], Any]) -> None: ...

    def to_list(self, capacity_hint: int = 16) -> None: ...


def _accepted(text: str) -> str | None:
    return api_coverage.accepted_as_written(_Fake, api_coverage.JavaSignature.parse(text))


def test_the_binding_rule() -> None:
    assert _accepted("buffer(int count, int skip)") == "buffer(<int>, <int>)"
    # a duration is not a count, whatever the arity
    assert _accepted("buffer(long timespan, TimeUnit unit)") is None
    # keywords by the Java names, the last ones first
    assert _accepted("delay(long delay, TimeUnit unit, boolean delayError)") == (
        "delay(<duration>, delay_error=<bool>)")
    assert _accepted("delay(Function selector)") == "delay(selector=<callable>)"
    assert _accepted("delay(long delay, TimeUnit unit, boolean delayErrors)") is None
    # static against static, instance against instance
    assert _accepted("static buffer(int count)") is None
    assert _accepted("zip(Publisher a, Publisher b, BiFunction f)") is None
    # *sources: Any takes sources and, last, a callable; not a list of them
    assert _accepted("static zip(Publisher a, Publisher b, BiFunction f)") is not None
    assert _accepted("static zip(Iterable<Publisher> sources, Function f)") is None
    assert _accepted("static zip(Function f, Publisher... sources)") is None
    # a method with typed overloads is bound against those only (its *args: Any takes these)
    assert _accepted("static merge(Iterable<Publisher> sources)") == "merge(<list>)"
    assert _accepted("static merge(Publisher a, Publisher b)") is None  # a Publisher is no _Fake
    assert _accepted("static merge(Publisher a, Publisher b, Publisher c)") is None
    # a Java type variable fits any parameter; a Comparator none
    assert _accepted("first(T defaultItem)") == "first(<item>)"
    assert _accepted("first(Comparator c)") is None
    # a Publisher of sources needs an annotation that says so
    assert _accepted("static concat(Publisher<SingleSource> sources)") == "concat(<sources>)"
    assert _accepted("static switch_on_next(Publisher<Publisher> sources)") is None
    assert _accepted("static switch_on_next(Publisher sources)") == "switch_on_next(<Flowable>)"
    # an argument lands on the parameter named like it, else it goes by keyword
    assert _accepted("static interval(long initialDelay, long period, TimeUnit unit)") == (
        "interval(initial_delay=<duration>, period=<duration>)")
    assert _accepted("static interval(long period, TimeUnit unit)") == "interval(<duration>)"
    # a Callable[[A], R] takes a one-argument function only; Callable[..., R] any
    assert _accepted("do_on_event(Consumer onSuccess)") == "do_on_event(<callable>)"
    assert _accepted("do_on_event(BiConsumer onEvent)") is None
    # a Consumer of Notifications is not a Consumer of items
    assert _accepted("do_on_event(Consumer<Notification> onNotification)") is None
    assert _accepted("subscribe(BiConsumer onCallback)") == "subscribe(<callable>)"
    assert _accepted("subscribe(Consumer onSuccess, Consumer onError)") == (
        "subscribe(<callable>, <callable>)")
    assert _accepted("subscribe(Consumer onSuccess, Action onError)") is None
    # an allocation hint goes only to a parameter of its name
    assert _accepted("buffer(int count, int initialCapacity)") is None
    assert _accepted("to_list(int capacityHint)") == "to_list(<hint>)"
    # a bare TypeVar takes an item, not a list meant as items
    assert _accepted("start_with(T item)") == "start_with(<item>)"
    assert _accepted("start_with(Iterable<T> items)") is None
