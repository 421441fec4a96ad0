"""``keima serve`` runs on jemalloc where the system has it (``keima.cli.allocator``): the memory of games that
left goes back to the system, where Python's own allocator keeps most of it (docs/server.md, *Memory*)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest

from keima.cli import allocator
from keima.server import housekeeping
from server.live import serve

LIB = "libjemalloc.so.2"


NONE_BEFORE = json.dumps({"LD_PRELOAD": None, "PYTHONMALLOC": None, "MALLOC_CONF": None})


@pytest.mark.parametrize(
    ("choice", "environ", "library", "expected"),
    [
        # auto: jemalloc where it is installed, Python's allocator where not
        ("auto", {}, LIB, {"LD_PRELOAD": LIB, "PYTHONMALLOC": "malloc", "MALLOC_CONF": allocator.JEMALLOC_CONF,
                           allocator.STARTED: NONE_BEFORE}),
        ("auto", {}, None, None),
        ("jemalloc", {}, LIB, {"LD_PRELOAD": LIB, "PYTHONMALLOC": "malloc", "MALLOC_CONF": allocator.JEMALLOC_CONF,
                               allocator.STARTED: NONE_BEFORE}),
        ("pymalloc", {}, LIB, None),
        # the restarted process goes on: no second restart, whatever it finds
        ("auto", {allocator.STARTED: NONE_BEFORE}, LIB, None),
        # the user's own preload is kept after jemalloc, their MALLOC_CONF wins
        ("auto", {"LD_PRELOAD": "libmine.so", "MALLOC_CONF": "narenas:1"}, LIB,
         {"LD_PRELOAD": f"{LIB} libmine.so", "PYTHONMALLOC": "malloc", "MALLOC_CONF": "narenas:1",
          allocator.STARTED: json.dumps({"LD_PRELOAD": "libmine.so", "PYTHONMALLOC": None,
                                         "MALLOC_CONF": "narenas:1"})}),
    ],
)
def test_restart_environment(choice: str, environ: dict[str, str], library: str | None,
                             expected: dict[str, str] | None) -> None:
    env = allocator.restart_environment(choice, {"HOME": "/home/x", **environ}, library)
    if expected is None:
        assert env is None
    else:
        assert env == {"HOME": "/home/x", **expected}


@pytest.mark.parametrize("before", [{}, {"LD_PRELOAD": "libmine.so", "MALLOC_CONF": "narenas:1"},
                                    {"PYTHONMALLOC": "pymalloc_debug"}])
def test_the_restarted_process_gives_its_children_the_environment_it_had_before(before: dict[str, str]) -> None:
    # A browser opened by keima serve must not inherit jemalloc: Chromium started with it stops at once.
    environ = {"HOME": "/home/x", **before}
    env = allocator.restart_environment("auto", environ, LIB)
    assert env is not None
    assert allocator.restored_environment(env) == environ


def test_adopt_in_the_restarted_process_restores_the_environment_and_keeps_the_allocator_known(
        monkeypatch: pytest.MonkeyPatch) -> None:
    env = allocator.restart_environment("auto", {"HOME": "/home/x", "LD_PRELOAD": "libmine.so"}, LIB)
    assert env is not None
    monkeypatch.setattr(os, "environ", dict(env))
    monkeypatch.setattr(housekeeping, "python_on_c_malloc", False)
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("restarted twice"))
    allocator.adopt("auto")
    assert os.environ == {"HOME": "/home/x", "LD_PRELOAD": "libmine.so"}
    assert housekeeping.python_on_c_malloc is True


@pytest.mark.parametrize(("choice", "library", "words"),
                         [("jemalloc", None, "jemalloc is not installed"), ("tcmalloc", LIB, "unknown allocator")])
def test_a_choice_that_cannot_be_kept_is_refused_with_its_reason(choice: str, library: str | None, words: str) -> None:
    with pytest.raises(allocator.AllocatorError, match=words):
        allocator.restart_environment(choice, {}, library)


def maps_of(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.skipif(allocator.jemalloc_library() is None and not os.environ.get("CI"),
                    reason="jemalloc is not installed here (Debian: libjemalloc2; CI installs it)")
def test_keima_serve_runs_on_jemalloc_where_installed_and_on_pymalloc_when_asked(tmp_path: Path) -> None:
    with serve(f"sqlite:///{tmp_path / 'a.db'}") as (proc, base):
        # The same process (the restart replaces its program, not its id): the one a supervisor started.
        assert "jemalloc" in maps_of(proc.pid)
        assert httpx.get(base + "/api/stats").json()["allocator"] == "jemalloc"
    with serve(f"sqlite:///{tmp_path / 'b.db'}", "--allocator", "pymalloc") as (proc, base):
        assert "jemalloc" not in maps_of(proc.pid)
        assert httpx.get(base + "/api/stats").json()["allocator"] == "pymalloc"


def test_an_unknown_allocator_in_the_environment_is_a_usage_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "keima", "serve", "--no-open", "--port", "0",
                        "--db", f"sqlite:///{tmp_path / 'c.db'}"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, KEIMA_ALLOCATOR="tcmalloc"))
    assert r.returncode == 2
    assert "--allocator: unknown allocator 'tcmalloc'" in r.stderr


CHILD_THREADS = """
import glob, os, sys, time
from keima.cli import allocator

ME = open("/proc/self/comm").read().strip()  # the program's name ("python", "python3"): "main" below

def threads():
    # A new thread gets its name a moment after it starts: wait for it (at most 5 s) once there are two.
    deadline = time.monotonic() + 5
    while True:
        names = sorted(open(t + "/comm").read().strip() for t in glob.glob("/proc/self/task/*"))
        if names.count(ME) < 2 or time.monotonic() > deadline:
            return sorted("main" if name == ME else name for name in names)
        time.sleep(0.01)

pid = os.fork()
if pid == 0:
    before = threads()
    started = allocator.restart_background_thread()
    print("child", before, started, threads(), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("parent", allocator.restart_background_thread(), threads(), flush=True)
"""


def _fork_and_report(env: dict[str, str]) -> dict[str, str]:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", CHILD_THREADS], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    return {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in r.stdout.splitlines()}


@pytest.mark.skipif(allocator.jemalloc_library() is None and not os.environ.get("CI"),
                    reason="jemalloc is not installed here (Debian: libjemalloc2; CI installs it)")
def test_a_forked_web_process_gets_jemallocs_background_thread_again() -> None:
    lib = allocator.jemalloc_library()
    assert lib is not None
    env = dict(os.environ, LD_PRELOAD=lib, PYTHONMALLOC="malloc", MALLOC_CONF=allocator.JEMALLOC_CONF)
    seen = _fork_and_report(env)
    # The fork leaves the child without the thread; asked, jemalloc starts it again.
    assert seen["child"] == "['main'] True ['jemalloc_bg_thd', 'main']", seen
    assert "jemalloc_bg_thd" in seen["parent"]
    # Options that do not ask for the thread (a user's MALLOC_CONF wins over keima's): nothing started.
    seen = _fork_and_report(dict(env, MALLOC_CONF="narenas:2"))
    assert seen["child"] == "['main'] False ['main']", seen


def test_without_jemalloc_there_is_no_background_thread_to_start() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "MALLOC_CONF", "PYTHONMALLOC")}
    seen = _fork_and_report(env)
    assert seen["child"] == "['main'] False ['main']", seen
