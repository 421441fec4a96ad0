"""A review by the bot in a cluster: asked of a web process, run by a worker in chunks on the queue (each chunk
queues the next), read from another web process, and shared."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from tests.cluster.conftest import Cluster

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

RECORD = "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg];W[cg];B[gc];W[eg];B[ec];W[dc];B[fe];W[ge])"


@pytest.fixture(scope="module")
def cluster(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(pg_url, redis_url, tmp_path_factory.mktemp("review-cluster"))
    # A fifth of a second a position, chunks of two seconds (half the job timeout): several chunks a review.
    c.env["KEIMA_REVIEW_SECONDS"] = "0.2"
    try:
        c.wait_web(c.start_web())
        c.start_web()
        c.start_worker()
        c.wait_web(c.webs[1])
        c.wait_workers(1)
        yield c
    finally:
        c.stop()


def test_a_review_runs_on_the_worker_in_chunks(cluster: Cluster) -> None:
    # The test database outlives a run: a review left by an earlier one would be found instead of started.
    engine = sa.create_engine(cluster.db)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM analyses"))
    engine.dispose()
    r = httpx.post(f"{cluster.base(0)}/api/analysis", json={"sgf": RECORD}, timeout=30)
    assert r.status_code == 202, r.text
    url = r.json()["url"]
    deadline = time.monotonic() + 120
    seen: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        body = httpx.get(cluster.base(1) + url, timeout=30).json()  # the other web process reads it
        seen.append(body["progress"])
        if body["status"] == "done":
            break
        time.sleep(0.3)
    assert body["status"] == "done", body
    # Progress counts searches: the record's 11 positions, then the refine pass over the largest drops.
    progress = body["progress"]
    assert progress["done"] == progress["total"] >= 11, progress
    assert [m["played"] for m in body["moves"]][:3] == [None, "E5", "C7"]
    assert any(0 < p["done"] < p["total"] for p in seen)  # partial results showed while it ran
    log = cluster.workers[0].text()
    assert log.count(": more") >= 1 and ": done" in log  # chunked: at least one chunk queued the next
    again = httpx.post(f"{cluster.base(1)}/api/analysis", json={"sgf": RECORD}, timeout=30)
    assert again.status_code == 200 and again.json()["url"] == url  # shared across the processes
