"""The schedulers at the edges of a process's life, each case in a fresh interpreter.

* End of script with live pipelines on io/computation/single/new_thread, and with a
  half-read iterator left in a global: the process exits at once (the threads are
  daemon threads, and nothing starts a thread while the interpreter finalizes),
  with exit code 0 and nothing on stderr. Before the fix a disposal during module
  teardown started the io keep-alive timer thread: ``Thread.start`` waited for
  ever for a thread that could not run.
* Ctrl-C in ``for x in Flowable.interval(0.1).observe_on(Schedulers.io())``: a
  ``KeyboardInterrupt`` traceback and a prompt exit (it hung).
* ``sys.exit(3)`` in an ``observe_on(trampoline())`` consumer exits with code 3, and
  a ``KeyboardInterrupt`` in a trampoline task reaches the caller (both were
  reported as undeliverable errors and the program carried on).
* After ``os.fork()`` the child's schedulers start fresh threads (the first timer,
  ``observe_on`` or ``subscribe_on`` in the child hung).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: how long a script may take to exit once its last line ran
EXIT_WITHIN = 2.0
#: start-up of a fresh interpreter importing rxpy2, on a loaded machine
STARTUP = 20.0


def _run(script: str, timeout: float = STARTUP) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


#: ends by printing the time its last line ran; the test measures the exit from there
_END = """
import time as _t
print("END", _t.time(), flush=True)
"""


def _assert_exits_promptly(script: str) -> None:
    try:
        r = _run(textwrap.dedent(script) + _END)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the process did not exit: stderr={e.stderr!r}")
    assert r.returncode == 0, r.stderr
    assert r.stderr == "", r.stderr
    end = float(r.stdout.split("END ")[-1])
    # the process has exited when run() returns: measure from its last line
    assert time.time() - end < EXIT_WITHIN + 1.0


EXIT_SCRIPTS = {
    "observe_on-io-iterator-in-a-global": """
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        it = iter(Flowable.interval(0.05).observe_on(Schedulers.io()))
        assert next(it) == 0
    """,
    "subscribe_on-io-iterator-in-a-global": """
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        it = iter(Flowable.interval(0.05).subscribe_on(Schedulers.io()))
        assert next(it) == 0
    """,
    "live-io-pipelines": """
        import threading
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        got = threading.Event()
        a = Flowable.interval(0.05).observe_on(Schedulers.io()).subscribe(lambda x: got.set())
        b = Flowable.interval(0.05).subscribe_on(Schedulers.io()).subscribe(lambda x: None)
        assert got.wait(5)
    """,
    "live-computation-pipelines-and-an-iterator": """
        import threading
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        got = threading.Event()
        a = (Flowable.interval(0.05).observe_on(Schedulers.computation())
             .subscribe(lambda x: got.set()))
        it = iter(Flowable.interval(0.05).map(lambda x: x * 2))
        assert next(it) == 0
        assert got.wait(5)
    """,
    "every-scheduler-busy-and-pending-timers": """
        import threading, time
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        for s in (Schedulers.computation(), Schedulers.io(), Schedulers.single(),
                  Schedulers.new_thread()):
            s.schedule_direct(lambda: time.sleep(60))   # blocked at exit
            s.schedule_direct(lambda: None, 3600)        # a timer that is still pending
            Flowable.timer(float("inf"), scheduler=s).subscribe(lambda x: None)
        it = iter(Flowable.interval(0.01).observe_on(Schedulers.io()))
        next(it)
        d = Flowable.interval(0.01).observe_on(Schedulers.single()).subscribe(lambda x: None)
    """,
}


@pytest.mark.parametrize("name", sorted(EXIT_SCRIPTS))
def test_a_script_with_live_scheduler_work_exits_at_once(name):
    _assert_exits_promptly(EXIT_SCRIPTS[name])


@pytest.mark.parametrize("op", ["observe_on", "subscribe_on"])
def test_ctrl_c_in_a_for_loop_over_an_io_pipeline_exits_with_keyboard_interrupt(op):
    # the child answers Ctrl-C as a program started from a terminal does, even when this
    # run inherited SIGINT ignored (a background job of a non-interactive shell): Python
    # installs its KeyboardInterrupt handler only where SIGINT is not ignored at start
    script = f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        for x in Flowable.interval(0.1).{op}(Schedulers.io()):
            print(x, flush=True)
    """
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "0"  # iterating
        p.send_signal(signal.SIGINT)
        try:
            _, err = p.communicate(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail("the process hung after Ctrl-C")
        assert p.returncode != 0
        assert "KeyboardInterrupt" in err
        assert err.count("Traceback") == 1, err  # only the interrupt's own
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()


def test_sys_exit_in_an_observe_on_trampoline_consumer_sets_the_exit_code():
    r = _run("""
        import sys
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers
        Flowable.range(1, 5).observe_on(Schedulers.trampoline()).subscribe(lambda x: sys.exit(3))
        print("carried on")
    """)
    assert r.returncode == 3, r.stderr
    assert "carried on" not in r.stdout
    assert "Undeliverable" not in r.stderr


def test_keyboard_interrupt_in_a_trampoline_task_reaches_the_caller():
    r = _run("""
        from rxpy2.schedulers import Schedulers
        def task():
            raise KeyboardInterrupt
        try:
            Schedulers.trampoline().schedule_direct(task)
        except KeyboardInterrupt:
            print("caught")
        ran = []
        Schedulers.trampoline().schedule_direct(lambda: ran.append(1))
        assert ran == [1]
        Schedulers.trampoline().schedule_direct(task)
        print("carried on")
    """)
    assert r.stdout.split() == ["caught"]
    assert r.returncode != 0
    assert "KeyboardInterrupt" in r.stderr and "Undeliverable" not in r.stderr


_FORK = """
    import faulthandler, os, sys, threading, traceback, warnings
    warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: fork with threads
    from rxpy2 import Flowable
    from rxpy2.schedulers import Schedulers
    KINDS = [Schedulers.computation, Schedulers.io, Schedulers.single, Schedulers.new_thread]

    # the parent uses every scheduler: each believes its threads exist
    for s in KINDS:
        assert Flowable.timer(0.01, scheduler=s()).blocking_first() == 0
    busy = threading.Event()
    live = Flowable.interval(0.005).observe_on(Schedulers.io()).subscribe(lambda x: busy.set())
    pending = Schedulers.computation().schedule_direct(
        lambda: print("pending task ran in", os.getpid(), flush=True), 0.3)
    assert busy.wait(5)

    def child():
        print("child", os.getpid(), flush=True)
        faulthandler.dump_traceback_later(10, exit=True)  # a hang ends the child, code 1
        assert Flowable.timer(0.01).blocking_first() == 0
        for s in KINDS:
            assert Flowable.timer(0.01, scheduler=s()).blocking_first() == 0
            assert Flowable.range(1, 50).observe_on(s()).blocking_last() == 50
            assert Flowable.range(1, 50).subscribe_on(s()).blocking_last() == 50
        assert list(Flowable.interval(0.01).observe_on(Schedulers.io()).take(3)) == [0, 1, 2]
        Schedulers.shutdown()
        Schedulers.start()
        assert Flowable.timer(0.01).blocking_first() == 0
        import time
        time.sleep(0.4)  # the parent's pending task does not run here

    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            child()
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    live.dispose()
    assert Flowable.timer(0.01).blocking_first() == 0  # the parent goes on as before
    sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_after_fork_the_childs_schedulers_start_fresh():
    try:
        r = _run(_FORK, timeout=STARTUP + 15)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"hung: {e.stderr!r}")
    assert r.returncode == 0, r.stderr
    child = r.stdout.split("child ")[1].split()[0]
    assert f"pending task ran in {child}" not in r.stdout, r.stdout


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_multiprocessing_fork_child_can_use_timers():
    r = _run("""
        import multiprocessing as mp, warnings
        warnings.simplefilter("ignore", DeprecationWarning)
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers

        def work(x):
            return Flowable.timer(0.01).map(lambda _: x * 2).observe_on(Schedulers.io()).blocking_first()

        if __name__ == "__main__":
            assert Flowable.timer(0.01).blocking_first() == 0   # the parent's timer runs
            with mp.get_context("fork").Pool(2) as pool:
                assert pool.map(work, [1, 2, 3], chunksize=1) == [2, 4, 6]
            print("ok")
    """, timeout=STARTUP + 15)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
