"""PostgreSQL out of reach (issue 30, item 10): a real PostgreSQL of the test's own is stopped under a running
server; chat, game creation, the lobby, new guests, login, reading one's player and opening a socket answer 503
``storage-error`` (a socket: closed with 1013), the log gets warning lines and no traceback; once PostgreSQL is
started again the same requests succeed, without restarting the server."""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from keima.server import create_app

from ..accounts.test_players import Browser, open_challenge, registered


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


PG_BIN = _pg_bin()
pytestmark = pytest.mark.skipif(PG_BIN is None, reason="needs PostgreSQL's initdb (scripts/test.sh installs it)")


class OwnPostgres:
    """A throw-away PostgreSQL cluster on a free loopback port (run as ``nobody`` when the tests run as root,
    as PostgreSQL refuses root), which the test may stop and start again on the same port."""

    def __init__(self) -> None:
        assert PG_BIN is not None
        self.dir = Path(tempfile.mkdtemp(prefix="keima-pg-down-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"postgresql+psycopg://keima@127.0.0.1:{self.port}/keima_test"
        if os.getuid() == 0:
            shutil.chown(self.dir, "nobody")
        self._run(f"{PG_BIN}/initdb -D {self.dir}/data -U keima --auth=trust -E UTF8")
        self.start()
        self._run(f"{PG_BIN}/createdb -h 127.0.0.1 -p {self.port} -U keima keima_test")

    def _run(self, command: str) -> None:
        argv = ["su", "-s", "/bin/sh", "nobody", "-c", command] if os.getuid() == 0 else ["sh", "-c", command]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        self._run(f"{PG_BIN}/pg_ctl -D {self.dir}/data -o '-p {self.port} -k {self.dir} "
                  f"-c listen_addresses=127.0.0.1' -l {self.dir}/log -w start")

    def stop(self) -> None:
        self._run(f"{PG_BIN}/pg_ctl -D {self.dir}/data -m immediate -w stop")

    def remove(self) -> None:
        subprocess.run(["su", "-s", "/bin/sh", "nobody", "-c", f"{PG_BIN}/pg_ctl -D {self.dir}/data -m immediate stop"]
                       if os.getuid() == 0 else ["sh", "-c", f"{PG_BIN}/pg_ctl -D {self.dir}/data -m immediate stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def own_pg() -> Iterator[OwnPostgres]:
    pg = OwnPostgres()
    try:
        yield pg
    finally:
        pg.remove()


def storage_error(r: object) -> None:
    status = r.status_code  # type: ignore[attr-defined]
    assert status == 503, r.text  # type: ignore[attr-defined]
    assert r.json()["error"]["code"] == "storage-error"  # type: ignore[attr-defined]


def test_postgres_down_answers_503_storage_error_everywhere_and_recovers(
        own_pg: OwnPostgres, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(own_pg.url)) as c:
        alice, bob, newcomer = Browser(c), Browser(c), Browser(c)
        registered(alice, "olga", "right-pass")
        bob.me()
        gid = open_challenge(alice)["game"]["id"]
        bob.req("POST", f"/api/games/{gid}/join", 200, json={})
        time.sleep(0.1)

        own_pg.stop()
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            # A new guest, a new game, a login, the lobby, one's player, chat: each refused the same way.
            storage_error(newcomer.req("PATCH", "/api/me", json={}))
            storage_error(alice.req("POST", "/api/games", json={"opponent": "open", "size": 9}))
            storage_error(newcomer.req("POST", "/api/session", json={"name": "olga", "password": "right-pass"}))
            storage_error(newcomer.req("GET", "/api/games?status=finished"))
            time.sleep(5.1)  # past the session cache: the session itself must be read
            storage_error(alice.req("GET", "/api/me"))
            storage_error(alice.req("POST", f"/api/games/{gid}/actions",
                                    json={"type": "chat", "text": "are you there?"}))
            # A socket on a game this process does not hold (it must be read) is closed: try again later.
            with pytest.raises(WebSocketDisconnect) as closed, newcomer.ws("/api/games/no-such-game-x/ws") as ws:
                ws.receive_json()
            assert closed.value.code == 1013
            # The lobby's socket: its lists cannot be read either.
            with pytest.raises(WebSocketDisconnect) as closed, newcomer.ws("/api/lobby/ws") as ws:
                ws.receive_json()
            assert closed.value.code == 1013
        keima_records = [r for r in caplog.records if r.name.startswith("keima")]
        assert any("storage-error" in r.getMessage() for r in keima_records)
        assert not [r for r in keima_records if r.exc_info], [r.getMessage() for r in keima_records if r.exc_info]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]

        own_pg.start()
        # Back: the same requests succeed, without restarting the server.
        deadline = time.monotonic() + 20
        while newcomer.req("PATCH", "/api/me", json={}).status_code != 200:
            assert time.monotonic() < deadline, "the server did not recover"
            time.sleep(0.2)
        alice.req("POST", "/api/games", 201, json={"opponent": "open", "size": 9})
        Browser(c).req("POST", "/api/session", 200, json={"name": "olga", "password": "right-pass"})
        alice.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "back"})
        assert alice.req("GET", "/api/me", 200).json()["name"] == "olga"
        assert len(c.get("/api/games?status=open").json()["games"]) >= 1
