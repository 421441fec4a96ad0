"""A real ``keima serve`` in a child process, and WebSocket seats that talk to it (for the race and durability
tests: real sockets, real frames, real processes that can be killed)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from .helpers import apply_delta

TIMEOUT = 20.0  # seconds any one reply may take before the test fails (a loaded machine, PostgreSQL)


@contextmanager
def serve(db_url: str, *extra: str, env: dict[str, str] | None = None) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Run ``keima serve`` on a free loopback port (``env``: variables added to this process's); yields (process,
    base URL). Killed at the end if alive."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "keima", "serve", "--no-open", "--port", "0", "--db", db_url, *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "KEIMA_TIME_START" in line:  # the server says first when its clock starts
            line = proc.stdout.readline()
        m = re.search(r"http://[^/:]+:(\d+)/", line)
        assert m, f"unexpected first line from keima serve: {line!r}"
        base = f"http://127.0.0.1:{m.group(1)}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/info", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            assert proc.poll() is None, "server exited"
            time.sleep(0.05)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()


def invite_game(base: str, size: int = 9) -> tuple[str, str, str]:
    """Create an invitation game and take the second seat; returns (game id, Black token, White token)."""
    with httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        g = http.post("/api/games", json={"size": size, "opponent": "invite", "color": "B"}).json()
        gid = g["game"]["id"]
        r = http.post(f"/api/games/{gid}/join", json={"code": g["invite"]["code"]},
                      headers={"X-Keima-Seat": "nobody-yet"})
        r.raise_for_status()
        return gid, g["seat"]["token"], r.json()["seat"]["token"]


class Seat:
    """One WebSocket on a game, holding a seat token (or none: a spectator). ``send`` returns the message id;
    ``reply`` waits for that message's ``ack`` or ``error``; ``state`` is the newest state received."""

    _ids = itertools.count(1)

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, base: str, gid: str, token: str | None) -> Seat:
        headers = {"X-Keima-Seat": token} if token else {}
        ws = await connect(base.replace("http://", "ws://") + f"/api/games/{gid}/ws", additional_headers=headers,
                           open_timeout=TIMEOUT, ping_interval=None)
        return cls(ws)

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    if self.state is None or msg["game"]["version"] > self.state["version"]:
                        self.state = msg["game"]
                elif msg["type"] == "delta":
                    if self.state is not None and msg["from"] == self.state["version"]:
                        self.state = apply_delta(self.state, msg)
                    elif self.state is not None and msg["to"] > self.state["version"]:
                        await self.ws.send(json.dumps({"type": "resync", "from": self.state["version"]}))
                elif msg["type"] in ("ack", "error"):
                    fut = self._replies.get(msg["id"])
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
        for fut in self._replies.values():  # the connection is gone: nobody will answer
            if not fut.done():
                fut.set_exception(ConnectionError("the socket closed before the reply"))

    async def send(self, action: dict[str, Any]) -> str:
        mid = f"m{next(self._ids)}"
        self._replies[mid] = asyncio.get_running_loop().create_future()
        await self.ws.send(json.dumps({"type": "action", "id": mid, "action": action}))
        return mid

    async def reply(self, mid: str) -> dict[str, Any]:
        return await asyncio.wait_for(self._replies[mid], TIMEOUT)

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader


def game_state(base: str, gid: str) -> dict[str, Any]:
    """The game's state over HTTP (as a spectator)."""
    r = httpx.get(f"{base}/api/games/{gid}", timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def run_async(coro: Coroutine[Any, Any, Any], timeout: float) -> Any:
    """Run ``coro`` to its end in a thread of its own (Playwright's sync API, in tests/browser, may hold an
    event loop in the main thread); returns its result, re-raises its exception, fails after ``timeout`` s."""
    out: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(asyncio.run(asyncio.wait_for(coro, timeout)))
        except BaseException as exc:  # re-raised in the caller's thread below
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout + 30)
    assert not thread.is_alive(), f"the scenario did not end in {timeout} s"
    if errors:
        raise errors[0]
    return out[0]
