"""``scripts/cluster.sh`` starts a working cluster (two web processes on one port, two workers, its own Redis)
that plays like the single process, and stops everything it started."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from tests.cluster.conftest import PG_URL, REDIS_BIN

from keima.cli import allocator

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def descendants(root: int) -> list[int]:
    """The ids of the processes below ``root`` (its children, theirs, and so on)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        parents[int(stat.parent.name)] = int(fields[1])
    found: list[int] = []
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        kids = [pid for pid, ppid in parents.items() if ppid == parent]
        found += kids
        frontier += kids
    return found


def command_line(pid: int) -> list[bytes]:
    """The arguments of process ``pid`` ([] once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return []


def thread_names(pid: int) -> list[str]:
    """The names of process ``pid``'s threads."""
    return [Path(t, "comm").read_text().strip() for t in Path(f"/proc/{pid}/task").iterdir()]


def test_cluster_script_serves_a_human_and_a_bot_game(tmp_path: Path) -> None:
    if not PG_URL or not PG_URL.startswith("postgresql"):
        pytest.skip("needs PostgreSQL: set KEIMA_TEST_PG_URL")
    if REDIS_BIN is None:
        pytest.skip("needs redis-server")
    log = tmp_path / "cluster.log"
    env = dict(os.environ, KEIMA_PORT="0", KEIMA_DB=PG_URL)
    env.pop("KEIMA_REDIS", None)
    with log.open("wb") as fh:
        proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "cluster.sh")], stdout=fh, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while "ready:" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.2)
        m = re.search(r"ready: open (http://\S+?)/? ;", log.read_text())
        assert m, log.read_text()
        base = m.group(1).replace("localhost", "127.0.0.1")
        if allocator.jemalloc_library() is not None:
            # The web processes forked by `keima serve --workers 2` run jemalloc's background thread too.
            webs = [pid for pid in descendants(proc.pid) if b"serve" in command_line(pid)]
            assert len(webs) == 3, webs  # the one that forked, and its two web processes
            for pid in webs:
                deadline = time.monotonic() + 10  # a new thread is named a moment after it starts
                while "jemalloc_bg_thd" not in (names := thread_names(pid)) and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert "jemalloc_bg_thd" in names, (pid, names)
        with httpx.Client(base_url=base, timeout=30) as c:
            assert "<" in c.get("/").text
            r = c.post("/api/games", json={"opponent": "local", "size": 9})
            assert r.status_code == 201
            gid, token = r.json()["game"]["id"], r.json()["seat"]["token"]
            for move in ("E5", "C3", "G7"):
                assert c.post(f"/api/games/{gid}/actions", json={"type": "play", "move": move},
                              headers={"x-keima-seat": token}).status_code == 200
            # Each request may land on either process: all of them see the same game.
            for _ in range(6):
                assert c.get(f"/api/games/{gid}").json()["version"] == 3
            r = c.post("/api/games", json={"opponent": "bot", "size": 9, "color": "B", "bot_level": "beginner"})
            gid, token = r.json()["game"]["id"], r.json()["seat"]["token"]
            assert c.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "E5"},
                          headers={"x-keima-seat": token}).status_code == 200
            deadline = time.monotonic() + 120  # the workers compile the bot first
            while len(c.get(f"/api/games/{gid}").json()["moves"]) < 2:
                assert time.monotonic() < deadline, "the bot did not move"
                time.sleep(0.2)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)  # the script stops what it started
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    assert "keima cluster: stopped" in log.read_text()
