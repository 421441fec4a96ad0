"""The audit's limits hold across the web processes of a cluster (issue 49): they are counted in the database, not
in one process. Fresh guests of one address share its reviews under way, whichever process they ask; an address
gets at most three confirmation links a day, whichever process the accounts asking for them use."""

from __future__ import annotations

import contextlib
import secrets

import httpx
import pytest
import sqlalchemy as sa
from tests.cluster.conftest import Cluster

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def record(first: str) -> str:
    return f"(;GM[1]FF[4]SZ[9]KM[7];B[{first}];W[cc];B[gg])"


def guest(base: str) -> httpx.Client:
    """A browser's client on ``base``: its first change makes it a guest (the ``Origin`` of the server's pages)."""
    c = httpx.Client(base_url=base, headers={"Origin": base}, timeout=30)
    assert c.patch("/api/me", json={}).status_code == 200
    return c


def test_guests_of_one_address_share_its_reviews_across_processes(two_webs: Cluster) -> None:
    engine = sa.create_engine(two_webs.db)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM analyses"))  # the test database outlives a run
    engine.dispose()
    # No worker runs: the reviews stay queued, under way for the limits.
    answers = []
    for i, first in enumerate(("ee", "dd", "ff")):
        with contextlib.closing(guest(two_webs.base(i % 2))) as c:
            answers.append(c.post("/api/analysis", json={"sgf": record(first)}))
    assert [a.status_code for a in answers] == [202, 202, 429], [a.text for a in answers]
    assert answers[2].json()["error"]["code"] == "review-limit"


def test_an_address_gets_three_confirmation_links_a_day_across_processes(two_webs: Cluster) -> None:
    victim = f"victim-{secrets.token_hex(4)}@example.org"
    codes = []
    for i in range(4):
        with contextlib.closing(guest(two_webs.base(i % 2))) as c:
            name = f"s{secrets.token_hex(4)}"
            assert c.post("/api/players", json={"name": name, "password": "correct horse"}).status_code == 201
            codes.append(c.patch("/api/me", json={"email": victim}).status_code)
    assert codes == [200, 200, 200, 429]
