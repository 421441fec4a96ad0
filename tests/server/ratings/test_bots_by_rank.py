"""``GET /api/bots``: every bot level with its rank now, and the ranked level nearest to the caller ("a bot of my
rank", docs/web-api.md, *Bots by rank*)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from keima import ai
from keima.server.ratings import bot_players

from ..accounts.test_players import Browser, registered


def test_every_level_is_listed_with_its_rank_and_the_ranked_ones_marked(client: TestClient) -> None:
    out = Browser(client).req("GET", "/api/bots", 200).json()
    assert [b["level"] for b in out["levels"]] == list(ai.LEVELS)
    by_level = {b["level"]: b for b in out["levels"]}
    # A ranked level starts at the rank it is named by; the first ladder at its starting rank.
    for level in ai.RANKED:
        assert by_level[level] == {"level": level, "name": f"keima ({level})", "rank": level,
                                   "provisional": True, "ranked": True}
    assert by_level["strong"]["rank"] == "8k" and by_level["strong"]["ranked"] is False
    assert out["for_me"] is None  # no player, no rank: nothing to be near


@pytest.mark.parametrize(("typed", "expected"), [("24k", "25k"), ("19k", "20k"), ("16k", "15k"), ("11k", "12k"),
                                                ("3d", "12k"), ("30k", "25k")])
def test_the_nearest_ranked_level_to_the_rank_typed(client: TestClient, typed: str, expected: str) -> None:
    b = Browser(client)
    registered(b, "zoe")
    b.req("PATCH", "/api/me", 200, json={"rank": typed})
    assert b.req("GET", "/api/bots", 200).json()["for_me"] == expected


def test_nearest_takes_the_weaker_level_on_a_tie() -> None:
    assert bot_players.nearest({"20k": 800.0, "15k": 1000.0}, 900.0) == "20k"
    assert bot_players.nearest({"20k": 800.0, "15k": 1000.0}, 951.0) == "15k"
    assert bot_players.nearest({}, 900.0) is None
