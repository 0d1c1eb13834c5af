"""Single, Maybe and Completable checkpoint(), and assembly tracking on the 0-1 types: the
note an error gets (on another thread too), the signals that pass unchanged."""

from __future__ import annotations

import sys
import threading

import pytest
from probes import Boom

from rxpy2 import Completable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2.schedulers import Schedulers


def here() -> int:
    return sys._getframe(1).f_lineno


def notes(error: BaseException) -> list[str]:
    return [n for n in getattr(error, "__notes__", []) if n.startswith("rxpy2")]


def failure(to: object) -> BaseException:
    to.await_done()  # type: ignore[attr-defined]
    (error,) = to.errors()  # type: ignore[attr-defined]
    return error  # type: ignore[no-any-return]


def fail(x: object) -> object:
    raise Boom(f"bad {x}")


def test_single_note_names_this_file_and_line():
    line = here(); marked = Single.just(2).map(fail).checkpoint("single stage")  # noqa: E702
    assert notes(failure(marked.test())) == [
        f"rxpy2 checkpoint 'single stage': assembled at {__file__}:{line} in "
        "test_single_note_names_this_file_and_line, after just(2) → map(fail)"]


def test_error_on_another_thread():
    threads = []

    def failing(x: int) -> int:
        threads.append(threading.current_thread())
        raise Boom("hop")

    chain = Single.just(1).observe_on(Schedulers.computation()).map(failing)
    line = here(); marked = chain.checkpoint("after observe_on")  # noqa: E702
    error = failure(marked.test())
    assert threads and threads[0] is not threading.current_thread()
    (note,) = notes(error)
    assert f"'after observe_on': assembled at {__file__}:{line} in " in note


def test_maybe_and_completable_keep_their_type_and_note():
    marked = Maybe.error(Boom("m")).checkpoint("maybe")
    assert isinstance(marked, Maybe)
    assert notes(failure(marked.test()))[0].startswith("rxpy2 checkpoint 'maybe': assembled at ")
    done = Completable.error(Boom("c")).checkpoint()
    assert isinstance(done, Completable)
    assert notes(failure(done.test()))[0].startswith("rxpy2 checkpoint: assembled at ")


def test_signals_pass_unchanged():
    Single.just(1).checkpoint().test().assert_result(1)
    Maybe.just("a").checkpoint().test().assert_result("a")
    Maybe.empty().checkpoint().test().assert_result()
    Completable.complete().checkpoint().test().assert_result()
    disposed = []
    to = Single.never().do_on_dispose(lambda: disposed.append(1)).checkpoint().test()
    assert not to.is_disposed()
    to.dispose()
    assert disposed == [1]


def test_two_subscribers_one_note():
    error = Boom("same")
    marked = Single.error(error).checkpoint("twice")
    marked.test()
    marked.test()
    assert len(notes(error)) == 1


def test_description_must_be_a_string():
    with pytest.raises(TypeError):
        Single.just(1).checkpoint(b"bytes")  # type: ignore[arg-type]


def test_tracking_notes_the_failing_operator():
    plugins.set_assembly_tracking(True)
    try:
        source = Single.just(1).subscribe_on(Schedulers.io())
        line = here(); chain = source.map(fail)  # noqa: E702
        error = failure(chain.filter(bool).test())
    finally:
        plugins.set_assembly_tracking(False)
    (note,) = notes(error)
    assert note.startswith("rxpy2 assembly trace: the error came out of map(fail), "
                           f"assembled at {__file__}:{line} in ")
    assert notes(failure(Single.just(1).map(fail).test())) == []  # off again


def test_fatal_exception_is_not_swallowed():
    def interrupt(x: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Single.just(1).map(interrupt).checkpoint("fatal").test()
    plugins.set_assembly_tracking(True)
    try:
        with pytest.raises(KeyboardInterrupt):
            Maybe.just(1).map(interrupt).test()
    finally:
        plugins.set_assembly_tracking(False)


def test_a_user_assembly_hook_still_runs_under_tracking():
    seen: list[str] = []

    def hook(s):  # type: ignore[no-untyped-def]
        seen.append(type(s).__name__)
        return s

    plugins.set_on_single_assembly(hook)
    plugins.set_assembly_tracking(True)
    try:
        error = failure(Single.just(1).map(fail).test())
    finally:
        plugins.set_assembly_tracking(False)
    assert seen == ["SingleJust", "SingleMap"]
    assert notes(error)[0].startswith("rxpy2 assembly trace: the error came out of map(fail)")
