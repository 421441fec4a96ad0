"""A review on the workers' queue (``keima.server.worker.keima_review``), without Redis: each job runs one chunk,
stores the positions searched and queues the next chunk behind a delay; a worker runs one chunk at a time, in a
job slot of its own."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from arq.worker import Retry

from keima.ai import analysis
from keima.ai.analysis import NICE, Budget
from keima.server import worker
from keima.server.reviews.bot_reviews import ReviewService
from keima.server.storage.store import make_engine, migrate

from ..live import run_async

SGF = "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg];W[cg];B[gc])"


class FakeQueue:
    """The web processes' queue as the service sees it: it records the chunks queued."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, int, float]] = []

    async def enqueue_review(self, review_id: str, done: int, delay: float = 0.0) -> bool:
        self.queued.append((review_id, done, delay))
        return True


def test_a_review_runs_in_chunks_on_the_queue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEIMA_JOB_TIMEOUT", "1")  # chunks of half a second
    engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
    migrate(engine)
    queue = FakeQueue()
    # 0.2 s a position, the playouts too many to end a search first: chunks of two or three positions.
    service = ReviewService(engine, lambda _gid: None, jobs=queue, seconds=0.2, playouts=10**6)
    ctx: dict[str, Any] = {"reviews": service, "review_lock": asyncio.Lock(), "queue": queue}

    async def scenario() -> list[str]:
        body, started = await service.start_record(SGF, "address:a")
        assert started and queue.queued == [(body["id"], 0, 0.0)]
        outcomes = []
        while True:
            outcome = await worker.keima_review(ctx, body["id"])
            outcomes.append(outcome)
            if outcome != "more":
                break
            # Each chunk stored what it searched and queued the next one after it, a little later.
            done = (await service.get(body["id"]))["progress"]["done"]
            assert queue.queued[-1] == (body["id"], done, worker.REVIEW_DELAY)
        final = await service.get(body["id"])
        assert final["status"] == "done" and len(final["moves"]) == 6
        # A chunk of another review waits while one runs here.
        async with ctx["review_lock"]:
            with pytest.raises(Retry):
                await worker.keima_review(ctx, body["id"])
        return outcomes

    try:
        outcomes = run_async(scenario(), 120)  # a thread of its own: Playwright may hold the main thread's loop
    finally:
        service.close()
        engine.dispose()
    assert outcomes[-1] == "done" and len(outcomes) >= 2


def test_the_review_thread_runs_at_a_lower_priority(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
    service = ReviewService(engine, lambda _gid: None)
    try:
        inside = service.pool.submit(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())).result()
    finally:
        service.close()
        engine.dispose()
    assert inside == min(os.getpriority(os.PRIO_PROCESS, 0) + NICE, 19)


def test_a_worker_keeps_a_slot_for_reviews() -> None:
    made = worker.make_worker("sqlite://", "redis://127.0.0.1:1/0", jobs=2, warm=False)
    assert made.max_jobs == 3
    assert "keima_review" in made.functions


def test_a_bot_job_goes_back_to_the_queue_while_the_bot_threads_are_busy() -> None:
    # Waiting behind another search would spend the job's timeout, and arq drops a job that times out.
    from arq.worker import Retry

    class Bots:
        ran: list[str] = []

        async def run_job(self, kind: str, game_id: str, version: int) -> str:
            self.ran.append(game_id)
            return "done"

    class FakeHub:
        bots = Bots()

    ctx: dict[str, Any] = {"hub": FakeHub(), "bot_slots": 1, "bot_busy": 1}
    with pytest.raises(Retry):
        run_async(worker.keima_job(ctx, "bot", "g1", 3), 10)
    assert Bots.ran == [] and ctx["bot_busy"] == 1
    ctx["bot_busy"] = 0
    assert run_async(worker.keima_job(ctx, "bot", "g1", 3), 10) == "done"
    assert Bots.ran == ["g1"] and ctx["bot_busy"] == 0


def test_the_servers_budget_is_the_reviews_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same playouts by board size as ``keima review``, so that both give the same review of a record.
    monkeypatch.delenv("KEIMA_REVIEW_SECONDS", raising=False)
    monkeypatch.delenv("KEIMA_REVIEW_PLAYOUTS", raising=False)
    engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
    service = ReviewService(engine, lambda _gid: None)
    try:
        for size in (9, 13, 19):
            assert service.budget(size) == analysis.default_budget(size)
        assert service.budget(19, 0.5) == Budget(seconds=0.5, playouts=analysis.DEFAULT_PLAYOUTS[19])
        monkeypatch.setenv("KEIMA_REVIEW_PLAYOUTS", "300")
        assert ReviewService(engine, lambda _gid: None).budget(19).playouts == 300
    finally:
        service.close()
        engine.dispose()
