"""Bot moves and dead-stone estimates as jobs on a Redis queue, run by ``keima worker`` processes.

The queue is arq's (asyncio and Redis, like the rest of the server; docs/deploy.md says why arq). A job is
``(kind, game id, version)``: "bot" (the bot's turn: a move, or accepting a marking) or "estimate", for the game
as stored at that version. Its id is made of those three, so the web processes that all see the same turn enqueue
it once. A worker runs ``Hub.run_job``: it reads the game from the database, does nothing when the game has moved
on, and stores its result as the next log entry, which only one writer can take: a job run twice (a worker killed
after storing, before arq marked the job done) still moves once.

A worker killed mid-search leaves the job in the queue with an "in progress" key that expires ``timeout + 10``
seconds after it was taken; another worker (or the same one restarted) then takes it again.

Reviews by the bot (``keima.server.reviews.bot_reviews``) go on the same queue as jobs of their own, ``keima_review``: each
runs one chunk of a review (about ``CHUNK_SECONDS`` of search) in a thread of lowered priority and queues the next
chunk a little later (``REVIEW_DELAY``), so that the bot moves queued meanwhile are taken first; a worker has one
job slot more than its ``jobs`` for them and runs one chunk at a time, so a review never holds a live game's slot.

Each worker also keeps a key ``keima:worker:<id>`` alive (a few seconds' expiry, renewed every second), so that
the web processes can tell a bot game's players when no worker is running.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from typing import Any

log = logging.getLogger("keima.jobs")

QUEUE = "keima:jobs"
WORKER_KEY = "keima:worker:"
HEARTBEAT_S = 1.0
HEARTBEAT_TTL_S = 4


def job_timeout() -> float:
    """Seconds a job may run (``KEIMA_JOB_TIMEOUT``, default 20); a killed worker's job is retaken this plus 10
    seconds after it started."""
    try:
        return max(1.0, float(os.environ.get("KEIMA_JOB_TIMEOUT", "20")))
    except ValueError:
        return 20.0


def redis_settings(url: str) -> Any:
    """arq's connection settings for ``url`` (redis://HOST:PORT/N); raises ``ValueError`` for a bad URL."""
    from arq.connections import RedisSettings

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"not a Redis URL: {url!r} (expected redis://HOST:PORT/N)")
    settings = RedisSettings.from_dsn(url)
    settings.conn_timeout = 2
    settings.conn_retries = 3
    return settings


class JobQueue:
    """The web processes' end of the queue: ``enqueue`` jobs and count the live workers."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool: Any = None
        self.enqueued = 0
        self._workers: tuple[float, int] = (0.0, 0)

    async def start(self) -> None:
        """Connect (raises ``redis.exceptions.ConnectionError`` when Redis cannot be reached)."""
        from arq import create_pool

        self.pool = await create_pool(redis_settings(self.url), default_queue_name=QUEUE)

    async def close(self) -> None:
        """Close the connections."""
        if self.pool is not None:
            with contextlib.suppress(Exception):
                await self.pool.aclose()

    async def enqueue(self, kind: str, game_id: str, version: int) -> bool:
        """Queue job ``kind`` for ``game_id`` at ``version``; False when it was already queued or Redis is down
        (logged: the periodic sweep of the web process queues it again)."""
        try:
            job = await self.pool.enqueue_job("keima_job", kind, game_id, version,
                                              _job_id=f"{kind}:{game_id}:{version}")
        except Exception as exc:
            log.warning("cannot queue %s for game %s: %s", kind, game_id, type(exc).__name__)
            return False
        if job is not None:
            self.enqueued += 1
        return job is not None

    async def enqueue_review(self, review_id: str, done: int, delay: float = 0.0) -> bool:
        """Queue the next chunk of review ``review_id`` (``done`` positions stored: the job's id, so that the
        processes that find the same review stalled queue its chunk once), ``delay`` seconds from now. False
        when it was already queued or Redis is down."""
        try:
            job = await self.pool.enqueue_job("keima_review", review_id, _job_id=f"review:{review_id}:{done}",
                                              _defer_by=delay or None)
        except Exception as exc:
            log.warning("cannot queue review %s: %s", review_id, type(exc).__name__)
            return False
        return job is not None

    async def workers(self, max_age: float = 1.0) -> int:
        """How many workers are alive (their heartbeat key exists); cached for ``max_age`` seconds, and 0 while
        Redis cannot be reached."""
        at, n = self._workers
        if time.monotonic() - at < max_age:
            return n
        try:
            n = 0
            async for _key in self.pool.scan_iter(match=WORKER_KEY + "*", count=100):
                n += 1
        except Exception:
            n = 0
        self._workers = (time.monotonic(), n)
        return n


