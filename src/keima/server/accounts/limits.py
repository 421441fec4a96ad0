"""Rate limits (login attempts, chat messages): in this process, or shared by every process of a cluster.

A limit allows at most ``limit`` events per ``window`` seconds per key (a sliding window). Callers see one
interface, ``Limiter``: ``await limiter.check(key)`` counts one event and returns 0.0 when it is allowed, else the
seconds until one more would be (the refused event is not counted).

- ``RateLimit`` keeps its counts in process memory: a single server process (no ``--redis``).
- ``RedisLimit`` keeps them in Redis (cluster mode), so that N web processes allow the limit once, not N times:
  one sorted set per key (``keima:limit:<name>:<key>``) holding the accepted events' times, trimmed, counted
  and added to by one Lua script (atomic in Redis), on Redis's own clock (the processes' clocks may differ).
  When Redis does not answer (down, restarting, slow), the event is counted by an in-process ``RateLimit``
  instead and a warning is logged: a request never fails because of the limit's store, and the limit never
  stops limiting (during an outage each process allows the limit on its own, as without Redis).

``Limits`` makes the limiters of a process (``Limits()`` in process memory, ``Limits(redis_url)`` in Redis) and
closes the shared Redis connection. ``ChatFlood`` holds the chat's limits beside the one per sender: per game and
per client address, so that many fresh guests cannot flood a game's chat between them.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import logging
import os
import secrets
import time
from typing import Any, Protocol

from keima.server.errors import Refused
from keima.server.housekeeping import Warnings

log = logging.getLogger("keima.server.accounts.limits")

PREFIX = "keima:limit:"
# How long a process keeps to its in-process counts after Redis failed to answer, before asking it again: an
# unreachable Redis then costs one connection timeout per this much time, not one per request.
RETRY_S = 1.0
# Redis commands of a limit wait at most this long: a login or a chat message is not held up by a slow Redis.
TIMEOUT_S = 0.5
# At most one warning about an unreachable Redis per this many seconds (a flood of requests, not of log lines).
WARN_EVERY_S = 30.0
# Chat messages per game and per client address (the limit per sender is keima.server.games.chat's): a lively game's
# players and spectators stay well under the first, a club behind one address under the second; thirty guests
# made by one script do not.
CHAT_GAME_LIMIT = 20
CHAT_ADDRESS_LIMIT = 10
CHAT_FLOOD_WINDOW = 10.0

# KEYS[1]: the key's sorted set. ARGV: window (ms), limit, a unique member for this event.
# Returns 0 when the event is allowed (and counted), else the milliseconds until one more is allowed.
_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""


class Limiter(Protocol):
    """A rate limit: at most ``limit`` events per ``window`` seconds per key."""

    limit: int
    window: float

    async def check(self, key: str) -> float:
        """Count one event for ``key``; returns 0.0 when allowed, else the seconds until one more is allowed
        (the refused event is not counted). Never raises for the limit's own storage."""
        ...


class RateLimit:
    """At most ``limit`` events per ``window`` seconds per key (a sliding window, in this process)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._events: dict[str, collections.deque[float]] = {}

    def hit(self, key: str, now: float | None = None) -> float:
        """Count one event for ``key``; returns 0.0 when allowed, else the seconds until one more is allowed
        (the refused event is not counted)."""
        now = time.monotonic() if now is None else now
        q = self._events.setdefault(key, collections.deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.limit:
            return max(0.001, q[0] + self.window - now)
        q.append(now)
        if len(self._events) > 50_000:  # forget idle keys so that the table stays small
            for k in [k for k, v in self._events.items() if not v or v[-1] <= now - self.window][:25_000]:
                del self._events[k]
        return 0.0

    async def check(self, key: str) -> float:
        """See ``Limiter.check`` (``hit`` now)."""
        return self.hit(key)


class RedisLimit:
    """A ``Limiter`` whose counts live in Redis (every process on the same Redis shares them), falling back to
    an in-process ``RateLimit`` while Redis does not answer. Made by ``Limits.limiter``."""

    def __init__(self, redis: Any, name: str, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.name = name
        self.local = RateLimit(limit, window)
        self._redis = redis
        self._script = redis.register_script(_SCRIPT)
        self._down_until = 0.0
        self._warnings = Warnings(WARN_EVERY_S, log)

    def redis_key(self, key: str) -> str:
        """The Redis key holding ``key``'s events: ``keima:limit:<name>:<key>``, a long key by its SHA-256 (keys
        come from clients: a forwarded address or a name must not make a large Redis key)."""
        if len(key) > 100:
            key = "sha256:" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()
        return f"{PREFIX}{self.name}:{key}"

    async def check(self, key: str) -> float:
        """See ``Limiter.check``: counted in Redis, or in this process while Redis is unreachable."""
        now = time.monotonic()
        if now >= self._down_until:
            try:
                ms = await self._script(keys=[self.redis_key(key)],
                                        args=[max(1, round(self.window * 1000)), self.limit, secrets.token_hex(8)])
                return float(ms) / 1000.0
            except Exception as exc:  # redis-py raises its own errors, OSError, or asyncio's timeout
                self._down_until = time.monotonic() + RETRY_S
                self._warnings.warn("redis", f"rate limit {self.name!r}: Redis did not answer "
                                    f"({type(exc).__name__}: {exc}); limiting in this process meanwhile")
        return self.local.hit(key)


class Limits:
    """The rate limiters of one server process: in Redis at ``redis_url`` (cluster mode), else in memory."""

    def __init__(self, redis_url: str | None = None) -> None:
        self.redis_url = redis_url
        self._redis: Any = None
        if redis_url:
            import redis.asyncio as aioredis

            # Connecting needs no event loop yet: redis-py connects on the first command.
            self._redis = aioredis.Redis.from_url(redis_url, socket_connect_timeout=TIMEOUT_S,
                                                  socket_timeout=TIMEOUT_S)

    def limiter(self, name: str, limit: int, window: float) -> Limiter:
        """A limiter of ``limit`` events per ``window`` seconds, named ``name`` in Redis (one name per use:
        ``"login-name"``, ``"chat"``)."""
        if self._redis is None:
            return RateLimit(limit, window)
        return RedisLimit(self._redis, name, limit, window)

    async def close(self) -> None:
        """Close the Redis connections (nothing without Redis)."""
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def env_limit(name: str, default: int) -> int:
    """A per-address limit from the environment variable ``name`` (a positive whole number), else ``default``: a
    server whose players share one address (a club or a school behind one router) allows more."""
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


class ChatFlood:
    """The chat's limits besides the one per sender: ``CHAT_GAME_LIMIT`` messages per game and
    ``CHAT_ADDRESS_LIMIT`` per client address, each per ``CHAT_FLOOD_WINDOW`` seconds (in Redis in cluster mode,
    like every ``Limits`` limiter)."""

    def __init__(self, limits: Limits) -> None:
        self.per_game = limits.limiter("chat-game", CHAT_GAME_LIMIT, CHAT_FLOOD_WINDOW)
        per_address = env_limit("KEIMA_CHAT_ADDRESS_LIMIT", CHAT_ADDRESS_LIMIT)
        self.per_address = limits.limiter("chat-address", per_address, CHAT_FLOOD_WINDOW)

    async def check(self, game_id: str, address: str) -> None:
        """Count one message to ``game_id`` from ``address``; raises ``Refused`` 429 (``too-many-requests``,
        saying how long to wait) past either limit. The address is counted first: a flood from one address does
        not use up the game's allowance for everyone else."""
        for limiter, key, what in ((self.per_address, address, "from this address"),
                                   (self.per_game, game_id, "in this game")):
            wait = await limiter.check(key)
            if wait:
                raise Refused("too-many-requests",
                               f"too many chat messages {what}: try again in {max(1, round(wait))} s")
