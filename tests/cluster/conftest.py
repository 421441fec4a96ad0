"""Fixtures for the cluster tests: a Redis server, and keima web processes and workers as real subprocesses.

They need PostgreSQL (``KEIMA_TEST_PG_URL``) and Redis: ``KEIMA_TEST_REDIS_URL`` (scripts/test.sh starts one), or
Debian's ``redis-server`` on the PATH, which the fixtures start on a free loopback port themselves (the test
that restarts Redis always does). Without them the tests are skipped.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
import pytest

PG_URL = os.environ.get("KEIMA_TEST_PG_URL")
REDIS_URL = os.environ.get("KEIMA_TEST_REDIS_URL")
T = TypeVar("T")
REDIS_BIN = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


def in_thread(fn: Callable[[], T]) -> T:
    """Call ``fn`` in a thread of its own and return its result (or raise its exception): ``asyncio.run`` needs a
    thread without a running event loop, and the browser tests' Playwright leaves one in the main thread."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return cast(T, box["value"])


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` in a thread of its own (see ``in_thread``)."""
    return in_thread(lambda: asyncio.run(coro))


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """A ``redis-server`` of our own on a free loopback port, without persistence (``restart`` empties it)."""

    def __init__(self, folder: Path) -> None:
        assert REDIS_BIN is not None
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [str(REDIS_BIN), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


class Proc:
    """A keima subprocess (``serve`` or ``worker``); its output goes to a log file."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str]) -> None:
        self.log = log
        self._fh = log.open("wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "keima", *args], stdout=self._fh, stderr=subprocess.STDOUT,
                                     env=env)
        self.port: int | None = None

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill9(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()
        self._fh.close()


class Cluster:
    """Web processes and workers on one PostgreSQL database and one Redis."""

    def __init__(self, db: str, redis: str, folder: Path) -> None:
        self.db = db
        self.redis = redis
        self.folder = folder
        self.webs: list[Proc] = []
        self.workers: list[Proc] = []
        self.env = dict(os.environ, KEIMA_JOB_TIMEOUT="4", PYTHONUNBUFFERED="1")

    def start_web(self) -> Proc:
        port = free_port()
        p = Proc(["serve", "--no-open", "--port", str(port), "--db", self.db, "--redis", self.redis],
                 self.folder / f"web{len(self.webs)}.log", self.env)
        p.port = port
        self.webs.append(p)
        return p

    def start_worker(self, *extra: str) -> Proc:
        p = Proc(["worker", "--db", self.db, "--redis", self.redis, "--log-level", "info", *extra],
                 self.folder / f"worker{len(self.workers)}.log", self.env)
        self.workers.append(p)
        return p

    def wait_web(self, p: Proc, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "serving on" in p.text():
                try:
                    if httpx.get(f"http://127.0.0.1:{p.port}/api/info", timeout=2).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
            if p.proc.poll() is not None:
                raise RuntimeError(f"keima serve exited: {p.text()[-2000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"keima serve did not start: {p.text()[-2000:]}")

    def live_workers(self) -> int:
        import redis

        r = redis.Redis.from_url(self.redis)
        try:
            return len(list(r.scan_iter(match="keima:worker:*")))
        finally:
            r.close()

    def wait_workers(self, n: int, timeout: float = 180) -> None:
        """Wait until ``n`` workers are alive and every running one has its search ready: a worker loads the
        compiled search from numba's cache in the background as it starts (``keima.ai.warmup``), a moment on a
        quiet machine but 10 to 40 s on a loaded one, and until then its jobs crawl (the loading holds the
        interpreter) and outrun the 4 s ``KEIMA_JOB_TIMEOUT`` here; arq drops a timed-out job, and nothing queues
        a bot move again for a game that no WebSocket watches, so the bot never moves."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.live_workers() >= n and all("search ready" in w.text() for w in self.workers
                                                if w.proc.poll() is None):
                return
            for w in self.workers:
                if w.proc.poll() is not None:
                    raise RuntimeError(f"keima worker exited: {w.text()[-2000:]}")
            time.sleep(0.2)
        raise RuntimeError("the workers did not start: " + " | ".join(w.text()[-500:] for w in self.workers))

    def base(self, i: int) -> str:
        return f"http://127.0.0.1:{self.webs[i].port}"

    def stop(self) -> None:
        for p in self.webs + self.workers:
            p.stop()


def need_cluster_services() -> None:
    if not PG_URL:
        pytest.skip("needs PostgreSQL: set KEIMA_TEST_PG_URL (scripts/test.sh does)")
    if not PG_URL.startswith("postgresql"):
        pytest.skip("the cluster tests need PostgreSQL")


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis server of the module's own (restartable)."""
    if REDIS_BIN is None:
        pytest.skip("needs Debian's redis-server (scripts/test.sh installs it)")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis URL: ``KEIMA_TEST_REDIS_URL``, or a server started here."""
    if REDIS_URL:
        yield REDIS_URL
        return
    if REDIS_BIN is None:
        pytest.skip("needs Redis: set KEIMA_TEST_REDIS_URL or install redis-server")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def pg_url() -> str:
    """The test PostgreSQL database (the schema is migrated by the processes themselves)."""
    need_cluster_services()
    assert PG_URL is not None
    return PG_URL


@pytest.fixture()
def two_webs(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two ``keima serve`` processes on the test PostgreSQL and a shared Redis, both answering; stopped after."""
    c = Cluster(pg_url, redis_url, tmp_path_factory.mktemp("two-webs"))
    try:
        c.wait_web(c.start_web())
        c.wait_web(c.start_web())
        yield c
    finally:
        c.stop()
