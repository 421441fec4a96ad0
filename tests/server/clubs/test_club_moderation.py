"""The clubs' ways to a game hold the moderation's rules (docs/moderation.md): a suspended member offers no club
challenge and challenges nobody on the ladder; a block stands between two members on the ladder as anywhere."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from keima.cli import main

from ..accounts.test_players import Browser, registered
from .helpers import club_with, code_of

BASE = "/api/clubs/club-de-go-de-grenoble"
LADDER = {"reach": 2, "days": 7, "speed": "live", "size": 9}


def _suspend(fast_client: TestClient, sqlite_url: str, name: str) -> None:
    mod = Browser(fast_client)
    registered(mod, "marie")
    assert main(["admin", "moderator", "add", "marie", "--db", sqlite_url]) == 0
    mod.req("POST", "/api/moderation/actions", 200, json={"action": "suspend", "name": name, "reason": "abuse",
                                                          "hours": 24})


def test_a_suspended_member_offers_no_challenge_nor_ladder_game(fast_client: TestClient, sqlite_url: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    _admin, (m0, m1), _ = club_with(fast_client, 2, ladder=LADDER)
    _suspend(fast_client, sqlite_url, "member1")
    capsys.readouterr()
    offer = {"size": 9, "speed": "live", "color": "B"}
    assert code_of(m1.req("POST", f"{BASE}/games", 403, json=offer)) == "suspended"
    assert code_of(m1.req("POST", f"{BASE}/ladder/challenges", 403, json={"defender": "member0"})) == "suspended"
    m0.req("POST", f"{BASE}/games", 201, json=offer)  # the others as before


def test_a_block_stands_between_two_members_on_the_ladder(fast_client: TestClient) -> None:
    _admin, (m0, m1), _ = club_with(fast_client, 2, ladder=LADDER)
    m0.req("PUT", "/api/me/blocks/member1", 204)
    assert code_of(m1.req("POST", f"{BASE}/ladder/challenges", 403, json={"defender": "member0"})) == "blocked"
    m0.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "boss"})


def test_a_block_withdraws_the_open_ladder_challenge_between_the_two(fast_client: TestClient) -> None:
    _admin, (m0, m1), _ = club_with(fast_client, 2, ladder=LADDER)
    m1.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "member0"})
    # member0 blocks the challenger: the challenge goes (she could neither accept it nor let it lapse without losing).
    m0.req("PUT", "/api/me/blocks/member1", 204)
    ladder = m0.req("GET", f"{BASE}/ladder", 200).json()
    assert [c["status"] for c in ladder["challenges"]] == ["withdrawn"]
    assert [m["name"] for m in sorted(m0.req("GET", BASE, 200).json()["members"], key=lambda m: m["place"])] == \
        ["boss", "member0", "member1"]  # nobody's place changed
