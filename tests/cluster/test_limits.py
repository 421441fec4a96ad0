"""Rate limits across a cluster (keima.server.accounts.limits): two real ``keima serve --redis`` processes allow the login and
chat limits once between them, not once each; the Redis limiter falls back to counting in its process while Redis
is down, and goes back to Redis when it returns; a logout on one process ends the session on the other within the
documented bound (``SESSION_CACHE_S``, docs/deploy.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.cluster.conftest import REDIS_BIN, Cluster, RedisServer, free_port, run_async

from keima.server.accounts.limits import Limits, RateLimit, RedisLimit
from keima.server.accounts.service import LOGIN_LIMIT, SESSION_CACHE_S, SESSION_COOKIE
from keima.server.games.chat import CHAT_LIMIT

# ---------------------------------------------------------------------------------------------- the limiter


def test_without_redis_the_limit_is_the_in_process_one() -> None:
    limiter = Limits().limiter("chat", 2, 1.0)
    assert isinstance(limiter, RateLimit)

    async def main() -> list[float]:
        return [await limiter.check("k") for _ in range(3)]

    waits = run_async(main())
    assert waits[:2] == [0.0, 0.0] and 0 < waits[2] <= 1.0


def test_two_processes_limiters_share_their_counts_in_redis(tmp_path: Path) -> None:
    if REDIS_BIN is None:
        pytest.skip("needs Debian's redis-server (scripts/test.sh installs it)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        async def main() -> list[float]:
            one, two = Limits(server.url), Limits(server.url)  # as two web processes would have
            a, b = one.limiter("test", 3, 60.0), two.limiter("test", 3, 60.0)
            try:
                waits = [await (a if i % 2 else b).check("who") for i in range(5)]
                waits.append(await a.check("someone else"))
                # A key from a client (a forwarded address, a name) is never a large Redis key.
                assert isinstance(a, RedisLimit) and len(a.redis_key("x" * 5000)) < 100
                waits.append(await a.check("x" * 5000))
                return waits
            finally:
                await one.close()
                await two.close()

        waits = run_async(main())
        assert waits[:3] == [0.0, 0.0, 0.0]
        assert 58 < waits[3] <= 60 and 58 < waits[4] <= 60  # counted once across both: the 4th and 5th refused
        assert waits[5] == 0.0 and waits[6] == 0.0  # per key
    finally:
        server.stop()


def test_the_redis_limit_falls_back_to_the_process_while_redis_is_down(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    if REDIS_BIN is None:
        pytest.skip("needs Debian's redis-server (scripts/test.sh installs it)")
    server = RedisServer(tmp_path)
    server.start()

    async def main() -> None:
        limits = Limits(server.url)
        limiter = limits.limiter("test", 2, 60.0)
        assert isinstance(limiter, RedisLimit)
        try:
            assert await limiter.check("k") == 0.0  # counted in Redis
            server.stop()
            t0 = time.monotonic()
            # Redis is gone: no exception, no free pass; the process counts on its own (from zero).
            waits = [await limiter.check("k") for _ in range(4)]
            assert waits[:2] == [0.0, 0.0] and all(58 < w <= 60 for w in waits[2:]), waits
            assert time.monotonic() - t0 < 3  # one failed attempt, then no Redis round trip per request
            assert limiter.local.hit("other") == 0.0  # the in-process counts are the ones used
            server.start()  # back, empty
            await asyncio.sleep(1.1)  # RETRY_S: then Redis is asked again
            assert await limiter.check("k") == 0.0
            assert await limiter.check("k") == 0.0
            assert await limiter.check("k") > 0  # counted in Redis again (the in-process count would refuse at once)
        finally:
            await limits.close()

    with caplog.at_level(logging.WARNING, logger="keima.server.accounts.limits"):
        try:
            run_async(main())
        finally:
            server.stop()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "Redis did not answer" in warnings[0].getMessage()


def test_an_unreachable_redis_from_the_start_still_limits() -> None:
    async def main() -> list[float]:
        limits = Limits(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
        limiter = limits.limiter("login-name", 2, 60.0)
        try:
            return [await limiter.check("n:x") for _ in range(3)]
        finally:
            await limits.close()

    waits = run_async(main())
    assert waits[:2] == [0.0, 0.0] and waits[2] > 58


# ---------------------------------------------------------------------------------------- two real processes


@pytest.fixture(scope="module")
def cluster(pg_url: str, own_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    # The module's own Redis: the login limit by address (every test client is 127.0.0.1) starts from zero.
    c = Cluster(pg_url, own_redis.url, tmp_path_factory.mktemp("limits"))
    try:
        c.wait_web(c.start_web())  # the first one migrates the database
        c.wait_web(c.start_web())
        yield c
    finally:
        c.stop()


def guest(base: str) -> str:
    """A new guest's session cookie value, made by the process at ``base`` (an empty ``PATCH /api/me`` is an
    action that needs a player: it makes the guest)."""
    r = httpx.patch(f"{base}/api/me", json={}, timeout=30)
    assert r.status_code == 200, r.text
    return r.cookies[SESSION_COOKIE]


def cookie(value: str) -> dict[str, str]:
    return {"cookie": f"{SESSION_COOKIE}={value}"}


@pytest.mark.postgres
@pytest.mark.slow
def test_wrong_logins_over_both_processes_are_refused_after_the_limit_counted_once(cluster: Cluster) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    name = f"lim{time.time_ns() % 10**9}"
    r = httpx.post(f"{p1}/api/players", json={"name": name, "password": "correct horse"},
                   headers=cookie(guest(p1)), timeout=30)
    assert r.status_code == 201, r.text
    for i in range(LOGIN_LIMIT):
        r = httpx.post(f"{(p1, p2)[i % 2]}/api/session", json={"name": name, "password": "wrong horse"}, timeout=30)
        assert r.status_code == 401, (i, r.text)
    # Each process saw only half of the attempts: the limit is still reached, on both, even with the right
    # password.
    for base in (p1, p2):
        r = httpx.post(f"{base}/api/session", json={"name": name, "password": "correct horse"}, timeout=30)
        assert r.status_code == 429, r.text
        err = r.json()["error"]
        assert err["code"] == "too-many-requests"
        assert "login attempts: try again in" in err["message"] and err["message"].endswith(" s")
        wait = int(err["message"].split("try again in ")[1].split()[0])
        assert 1 <= wait <= 60


async def chat_burst(bases: list[str], gid: str, token: str, n: int) -> list[httpx.Response]:
    """``n`` chat messages sent at once, in turn to each process of ``bases``: their counts land well within the
    limit's one-second window."""
    async with httpx.AsyncClient(timeout=30) as c:
        return await asyncio.gather(*(
            c.post(f"{bases[i % len(bases)]}/api/games/{gid}/actions", json={"type": "chat", "text": f"m{i}"},
                   headers={"x-keima-seat": token})
            for i in range(n)))


@pytest.mark.postgres
@pytest.mark.slow
def test_chat_over_both_processes_is_limited_once(cluster: Cluster) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    r = httpx.post(f"{p1}/api/games", json={"opponent": "local", "size": 9}, timeout=30)
    assert r.status_code == 201, r.text
    gid, token = r.json()["game"]["id"], r.json()["seat"]["token"]
    for base in (p1, p2):  # both processes hold the game before the burst
        assert httpx.get(f"{base}/api/games/{gid}", timeout=30).status_code == 200

    # Twice the limit and more, half to each process, at once.
    answers = run_async(chat_burst([p1, p2], gid, token, 2 * CHAT_LIMIT + 2))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] * CHAT_LIMIT + [429] * (CHAT_LIMIT + 2), [r.text for r in answers]
    refused = [r.json()["error"] for r in answers if r.status_code == 429]
    assert all(e["message"].startswith("too many chat messages: try again in") for e in refused)
    chat = httpx.get(f"{p2}/api/games/{gid}", timeout=30).json()["chat"]
    assert len(chat) == CHAT_LIMIT


@pytest.mark.postgres
@pytest.mark.slow
def test_a_logout_on_one_process_ends_the_session_on_the_other_within_the_cache_bound(cluster: Cluster) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    value = guest(p1)
    me = httpx.get(f"{p2}/api/me", headers=cookie(value), timeout=30).json()
    assert me["guest"] is True  # process 2 now has the session in its cache
    assert httpx.delete(f"{p1}/api/session", headers=cookie(value), timeout=30).status_code == 204
    t0 = time.monotonic()
    while True:
        now = httpx.get(f"{p2}/api/me", headers=cookie(value), timeout=30).json()
        if now["id"] != me["id"]:
            break  # the ended session is refused: process 2 made a new guest
        assert time.monotonic() - t0 < SESSION_CACHE_S + 2, "the ended session still works on the other process"
        time.sleep(0.2)


@pytest.mark.postgres
@pytest.mark.slow
def test_with_redis_down_the_processes_still_limit_and_never_answer_5xx(cluster: Cluster, own_redis: RedisServer) -> None:
    # Last in this module: it stops the module's Redis (and starts it again, empty).
    p1, p2 = cluster.base(0), cluster.base(1)
    r = httpx.post(f"{p1}/api/games", json={"opponent": "local", "size": 9}, timeout=30)
    assert r.status_code == 201, r.text
    gid, token = r.json()["game"]["id"], r.json()["seat"]["token"]
    own_redis.stop()
    try:
        codes = [httpx.post(f"{p1}/api/session", json={"name": "nobody-here", "password": "wrong horse"},
                            timeout=30).status_code for _ in range(LOGIN_LIMIT + 2)]
        # Counted by the process alone (from zero: the earlier attempts were counted in Redis).
        assert codes == [401] * LOGIN_LIMIT + [429] * 2
        chat = sorted(r.status_code for r in run_async(chat_burst([p2], gid, token, CHAT_LIMIT + 2)))
        assert chat == [200] * CHAT_LIMIT + [429] * 2, chat
        assert "Redis did not answer" in cluster.webs[0].text() and "Redis did not answer" in cluster.webs[1].text()
    finally:
        own_redis.start()
