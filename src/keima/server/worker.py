"""The ``keima worker`` process: it takes the jobs of the cluster's queue (``keima.server.live.jobs``: bot moves,
dead-stone estimates, chunks of the bot's reviews, records to check), runs them on its own games' hub, and keeps its
heartbeat key alive so that the web processes know a worker is running.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from keima.server.live import (
    HEARTBEAT_S,
    HEARTBEAT_TTL_S,
    QUEUE,
    WORKER_KEY,
    JobQueue,
    job_timeout,
    redis_settings,
)

log = logging.getLogger("keima.jobs")


# -------------------------------------------------------------------------------------------------- worker
async def _heartbeat(redis: Any, key: str) -> None:
    while True:
        with contextlib.suppress(Exception):
            await redis.set(key, b"1", ex=HEARTBEAT_TTL_S)
        await asyncio.sleep(HEARTBEAT_S)


#: Seconds a bot job waits in the queue again when this worker's bot threads are all busy.
BOT_BUSY_DELAY = 0.2


async def keima_job(ctx: dict[str, Any], kind: str, game_id: str, version: int) -> str:
    """The arq job function: ``BotRunner.run_job`` on the worker's hub. Returns its outcome ("done", "stale",
    "nothing", "gone"). When every bot thread of this worker is searching, the job goes back to the queue (arq's
    ``Retry``): waiting here behind another search would spend its timeout, and arq drops a job that times out
    (a worker that took a killed worker's two jobs at once lost the second one so)."""
    from arq.worker import Retry

    from keima.server.errors import Refused

    if ctx.get("bot_busy", 0) >= ctx.get("bot_slots", 1):
        raise Retry(defer=BOT_BUSY_DELAY)
    ctx["bot_busy"] = ctx.get("bot_busy", 0) + 1
    hub = ctx["hub"]
    try:
        outcome: str = await hub.bots.run_job(kind, game_id, version)
    except Refused as exc:
        log.warning("job %s %s@%d: %s", kind, game_id, version, exc.message)
        return "gone"
    finally:
        ctx["bot_busy"] -= 1
    log.info("job %s %s@%d: %s", kind, game_id, version, outcome)
    return outcome


#: Seconds between a review's chunks on the queue: bot moves queued meanwhile go first.
REVIEW_DELAY = 0.5
#: Seconds a worker waits before taking again a review chunk it found another chunk running for.
REVIEW_BUSY_DELAY = 2.0


async def keima_review(ctx: dict[str, Any], review_id: str) -> str:
    """The arq job of a review's chunk (``ReviewService.run_chunk``), in the worker's review thread; queues the
    next chunk when time ran out. Returns the chunk's outcome, or "busy" (another review chunk runs here: the
    job is taken again later)."""
    from arq.worker import Retry

    from keima.server.reviews import CHUNK_SECONDS

    lock: asyncio.Lock = ctx["review_lock"]
    if lock.locked():
        raise Retry(defer=REVIEW_BUSY_DELAY)
    service = ctx["reviews"]
    async with lock:
        outcome: str = await asyncio.get_running_loop().run_in_executor(
            service.pool, service.run_chunk, review_id, min(CHUNK_SECONDS, job_timeout() / 2))
    if outcome == "more":
        row = await service.get(review_id)
        await ctx["queue"].enqueue_review(review_id, int(row["progress"]["done"]), REVIEW_DELAY)
    log.info("review %s: %s", review_id, outcome)
    return outcome


async def keima_check(ctx: dict[str, Any], name: str, data: bytes, rules: str | None) -> dict[str, Any]:
    """The arq job of ``keima check --redis``: replay and count one record (``keima.archive.check_record``)."""
    from keima.archive import check_record

    result: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, check_record, name, data, rules)
    return result


def make_worker(db_url: str, redis_url: str, *, jobs: int = 1, warm: bool = True, smtp_url: str | None = None,
                public_url: str | None = None) -> Any:
    """Return an arq ``Worker`` that runs keima's jobs with ``jobs`` searches at a time, on the database at
    ``db_url``. ``warm``: start compiling the bot in the background as it starts (``warm_up``). ``smtp_url``: the
    worker also sends the notifications' email queue through that server (``keima.server.notifications.mailer``; the queue is
    keyed by Message-ID, so web processes sending too send nothing twice), with ``public_url`` in the links."""
    from arq import Worker, func

    from keima.server.app import make_hub
    from keima.server.live import RedisPubSub
    from keima.server.reviews import ReviewService, stored_game
    from keima.server.storage import Store, make_engine

    async def startup(ctx: dict[str, Any]) -> None:
        if warm:
            warm_up()
        engine = make_engine(db_url)
        store = Store(engine)
        store.start()
        pubsub = RedisPubSub(redis_url)
        await pubsub.start()
        queue = JobQueue(redis_url)
        await queue.start()
        hub = make_hub(store, pubsub, shared=True, jobs=queue, timers=False, bot_threads=jobs)
        reviews = ReviewService(engine, lambda gid: stored_game(store, gid), jobs=queue)
        ctx.update(reviews=reviews, review_lock=asyncio.Lock(), bot_slots=jobs, bot_busy=0)
        pubsub.on_remote = hub.on_remote
        pubsub.rebuildable = hub.rebuildable
        if smtp_url:
            from keima.server.accounts import Players, load_secret
            from keima.server.notifications import Mailer, Smtp

            secret = await asyncio.to_thread(load_secret, store)  # the web processes' key: the same links
            mailer = Mailer(engine, Smtp.parse(smtp_url), public_url or "http://localhost:8000",
                            Players(store, secret).sign)
            mailer.start()
            ctx["mailer"] = mailer
        key = WORKER_KEY + secrets.token_hex(6)
        ctx.update(hub=hub, store=store, engine=engine, pubsub=pubsub, queue=queue, key=key,
                   beat=asyncio.get_running_loop().create_task(_heartbeat(ctx["redis"], key)))

    async def shutdown(ctx: dict[str, Any]) -> None:
        beat = ctx.get("beat")
        if beat is not None:
            beat.cancel()
        with contextlib.suppress(Exception):
            await ctx["redis"].delete(ctx["key"])
        reviews = ctx.get("reviews")
        if reviews is not None:
            reviews.close()
        mailer = ctx.get("mailer")
        if mailer is not None:
            await mailer.close()
        hub = ctx.get("hub")
        if hub is not None:
            await hub.close()
            await ctx["pubsub"].close()
            await ctx["queue"].close()
            ctx["store"].stop()
            ctx["engine"].dispose()

    timeout = job_timeout()
    return Worker(
        # Many tries: a job sent back to the queue while the bot threads are busy counts as one.
        functions=[func(keima_job, name="keima_job", timeout=timeout, max_tries=1000),
                   # The same timeout: arq marks every job in progress for its functions' longest timeout + 10 s,
                   # which is how long a killed worker's bot move waits to be taken again (a record's check
                   # takes milliseconds).
                   func(keima_check, name="keima_check", timeout=timeout, max_tries=2, keep_result=600),
                   # A chunk searches CHUNK_SECONDS (less than the timeout) and stores each position as it goes:
                   # one killed mid-chunk loses a position. Many tries: "busy" retries count as tries.
                   func(keima_review, name="keima_review", timeout=timeout, max_tries=1000)],
        queue_name=QUEUE,
        redis_settings=redis_settings(redis_url),
        on_startup=startup,
        on_shutdown=shutdown,
        max_jobs=jobs + 1,  # one slot for a review's chunk, so that live moves never wait for one
        keep_result=0,
        poll_delay=0.05,
        handle_signals=True,
    )


def warm_up() -> None:
    """Start compiling the search in the background (``keima.ai.warmup``); returns at once. Jobs taken meanwhile
    get the bot's quick moves instead of waiting for it."""
    from keima.ai.warmup import DEFAULT

    DEFAULT.start()
