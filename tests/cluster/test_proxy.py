"""The reverse proxy of docs/deploy.md, run for real: Debian's nginx with exactly the documented block (read out of
the doc; only its addresses, port and certificate paths replaced by the test's own) in front of two
``keima serve --redis`` processes, over HTTPS with a throw-away certificate. Through nginx: the page and
``/api/info`` load, a browser (its ``Origin`` header) creates a game and holds its seat on a WebSocket, which
receives the moves made directly on either process within a second; the cookies keep ``HttpOnly`` and get
``Secure``; the login limit counts per client address (``X-Forwarded-For``), not per proxy."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from tests.cluster.conftest import Cluster, RedisServer, free_port, run_async

from keima.server.accounts.service import LOGIN_LIMIT, SESSION_COOKIE

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
OPENSSL = shutil.which("openssl")
# What the test replaces in the documented block, each exactly once: the rest runs as written.
UPSTREAMS = ("127.0.0.1:8001", "127.0.0.1:8002")
LISTEN = "listen 443 ssl;"
CERT = "/etc/ssl/keima/fullchain.pem"
KEY = "/etc/ssl/keima/privkey.pem"


def documented_block() -> str:
    """The ```nginx block of the reverse-proxy section of docs/deploy.md."""
    blocks = re.findall(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "docs/deploy.md should show one nginx block"
    return str(blocks[0])


def nginx_config(folder: Path, port: int, upstreams: list[int], cert: Path, key: Path) -> str:
    """A whole nginx configuration: the documented block in an ``http`` block whose files all lie in ``folder``."""
    block = documented_block()
    for old, new in [(UPSTREAMS[0], f"127.0.0.1:{upstreams[0]}"), (UPSTREAMS[1], f"127.0.0.1:{upstreams[1]}"),
                     (LISTEN, f"listen 127.0.0.1:{port} ssl;"), (CERT, str(cert)), (KEY, str(key))]:
        assert block.count(old) == 1, f"docs/deploy.md's nginx block should name {old!r} once"
        block = block.replace(old, new)
    # As root, nginx's workers would run as an unprivileged user that cannot write into the test's folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                            "scgi"))
    return (f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} info;\n"
            f"events {{ worker_connections 256; }}\nhttp {{\n    access_log {folder / 'access.log'};\n{temp}\n"
            f"{block}}}\n")


class Nginx:
    """nginx in the foreground (``daemon off``), stopped by its process id."""

    def __init__(self, folder: Path, config: str, port: int) -> None:
        self.folder = folder
        self.port = port
        path = folder / "nginx.conf"
        path.write_text(config, encoding="utf-8")
        assert NGINX is not None
        self.proc = subprocess.Popen([NGINX, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(path),
                                      "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def log(self) -> str:
        err = self.folder / "error.log"
        return err.read_text(errors="replace")[-3000:] if err.exists() else ""

    def wait(self, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                _out, err = self.proc.communicate()
                raise RuntimeError(f"nginx exited: {err.decode(errors='replace')} {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not start: {self.log()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # fast shutdown: the master stops its workers
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throw-away certificate for 127.0.0.1 and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def proxied(pg_url: str, own_redis: RedisServer,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cluster, str, ssl.SSLContext]]:
    """Two web processes behind nginx: (the cluster, nginx's https base URL, a TLS context trusting it)."""
    if NGINX is None:
        pytest.skip("needs Debian's nginx (scripts/test.sh installs it)")
    if OPENSSL is None:
        pytest.skip("needs the openssl command (a throw-away certificate for nginx)")
    folder = tmp_path_factory.mktemp("proxy")
    cert, key = self_signed(folder)
    # The module's own Redis: the login limit by address starts from zero.
    c = Cluster(pg_url, own_redis.url, folder)
    nginx: Nginx | None = None
    try:
        c.wait_web(c.start_web())  # the first one migrates the database
        c.wait_web(c.start_web())
        port = free_port()
        assert c.webs[0].port is not None and c.webs[1].port is not None
        nginx = Nginx(folder, nginx_config(folder, port, [c.webs[0].port, c.webs[1].port], cert, key), port)
        nginx.wait()
        yield c, f"https://127.0.0.1:{port}", ssl.create_default_context(cafile=str(cert))
    finally:
        if nginx is not None:
            nginx.stop()
        c.stop()


def cookie_attributes(resp: httpx.Response, name: str) -> set[str]:
    """The attributes (lower case, without values) of the ``Set-Cookie`` header setting ``name``."""
    for header in resp.headers.get_list("set-cookie"):
        if header.startswith(name + "="):
            return {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}
    raise AssertionError(f"no cookie {name} in {resp.headers.get_list('set-cookie')}")


def test_the_page_the_api_a_game_and_its_cookies_through_nginx(proxied: tuple[Cluster, str, ssl.SSLContext]) -> None:
    _cluster, base, tls = proxied
    origin = {"origin": base}  # what a browser on the proxied page sends with each change
    with httpx.Client(base_url=base, verify=tls, timeout=30) as c:
        page = c.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "<title>" in page.text.lower() or "<title" in page.text
        info = c.get("/api/info")
        assert info.status_code == 200 and "version" in info.json()
        assert c.get("/api/me").json()["id"] is None  # reading makes no player
        me = c.patch("/api/me", json={}, headers=origin)  # an action that needs one makes the guest
        assert me.status_code == 200 and me.json()["guest"] is True
        # Over HTTPS (X-Forwarded-Proto) the session cookie is Secure, and HttpOnly as everywhere.
        assert {"httponly", "secure"} <= cookie_attributes(me, SESSION_COOKIE)
        made = c.post("/api/games", json={"opponent": "local", "size": 9}, headers=origin)
        assert made.status_code == 201, made.text  # a 403 cross-origin here: the proxy lost the Host's port
        gid = made.json()["game"]["id"]
        assert {"httponly", "secure"} <= cookie_attributes(made, f"keima_seat_{gid}")
        played = c.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "E5"}, headers=origin)
        assert played.status_code == 200, played.text


def test_a_websocket_through_nginx_gets_the_moves_made_directly_on_either_process(
        proxied: tuple[Cluster, str, ssl.SSLContext]) -> None:
    cluster, base, tls = proxied
    with httpx.Client(base_url=base, verify=tls, timeout=30) as c:
        made = c.post("/api/games", json={"opponent": "local", "size": 9}, headers={"origin": base})
        assert made.status_code == 201, made.text
        gid, token = made.json()["game"]["id"], made.json()["seat"]["token"]
        seat_cookie = f"keima_seat_{gid}={made.cookies[f'keima_seat_{gid}']}"

    async def main() -> list[float]:
        url = base.replace("https://", "wss://") + f"/api/games/{gid}/ws"
        # A browser's socket: its Origin and the seat cookie; nginx hands it to one process or the other.
        async with websockets.connect(url, ssl=tls, additional_headers={"origin": base, "cookie": seat_cookie}) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["type"] == "state" and first["game"]["version"] == 0
            assert first["game"]["you"] == ["B", "W"]  # the seat holder's, not a spectator's socket
            await asyncio.sleep(0.3)  # the subscription reaches Redis
            delays = []
            # One move directly on each process: one of them is not the process behind the socket.
            for i, (move, proc) in enumerate((("E5", 0), ("C3", 1))):
                t0 = time.perf_counter()
                async with httpx.AsyncClient() as direct:
                    r = await direct.post(f"{cluster.base(proc)}/api/games/{gid}/actions",
                                          json={"type": "play", "move": move}, headers={"x-keima-seat": token})
                    assert r.status_code == 200, r.text
                msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                delays.append(time.perf_counter() - t0)
                assert msg["type"] == "delta" and msg["to"] == i + 1
                assert msg["event"]["move"]["vertex"] == move
            # The socket acts through nginx too.
            await ws.send(json.dumps({"type": "action", "id": "a", "action": {"type": "play", "move": "G7"}}))
            got = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(2)]
            assert got[-1] == {"type": "ack", "id": "a"}, got
            return delays

    delays = run_async(main())
    assert max(delays) < 1.0, delays


def test_the_login_limit_counts_per_client_address_behind_nginx(proxied: tuple[Cluster, str, ssl.SSLContext]) -> None:
    # Every request reaches the web processes from nginx's address (127.0.0.1); X-Forwarded-For carries the
    # client's. The two clients here come from loopback addresses of their own, which uvicorn does not trust as
    # proxies (FORWARDED_ALLOW_IPS: 127.0.0.1 and ::1), as remote clients would.
    _cluster, base, tls = proxied

    def client(address: str) -> httpx.Client:
        return httpx.Client(base_url=base, timeout=30,
                            transport=httpx.HTTPTransport(verify=tls, local_address=address))

    def login(c: httpx.Client, i: int, headers: dict[str, str] | None = None) -> httpx.Response:
        return c.post("/api/session", json={"name": f"nobody{i}", "password": "wrong horse"}, headers=headers)

    with client("127.0.0.5") as attacker, client("127.0.0.6") as bystander:
        for i in range(LOGIN_LIMIT):
            assert login(attacker, i).status_code == 401
        refused = login(attacker, LOGIN_LIMIT)
        assert refused.status_code == 429 and "try again in" in refused.json()["error"]["message"]
        # A forged X-Forwarded-For of its own does not give the client a new address: nginx appends the real one.
        assert login(attacker, LOGIN_LIMIT + 1, {"x-forwarded-for": "192.0.2.1"}).status_code == 429
        # Another client is not locked out by the first one's attempts.
        assert login(bystander, LOGIN_LIMIT + 2).status_code == 401
