"""The rank shown beside every name (``keima.server.ratings.shown``): earned from the rating once a player has a
rated game, in every summary (the lobby's lists, "my games", a player's history), ``GET /api/me``, a game's own
state and a tournament's players; the typed rank only before the first rated game. And a player's history by
the end of each game, with its rating change."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient

from keima.ratings import game as rating_game
from keima.ratings import ranks
from keima.ratings.glicko2 import Rating
from keima.server.ratings import shown_rank

from ..accounts.test_players import Browser, open_challenge, registered
from ..helpers import wait_for
from ..moved_time import MovedTime
from .test_ratings import rated_game


def _seat(game: dict[str, Any], color: str) -> tuple[str | None, bool]:
    p = game["players"][color]
    return p["rank"], p["provisional"]


def _rated(b: Browser, name: str, n: int) -> None:
    wait_for(lambda: len(b.req("GET", f"/api/players/{name}/ratings", 200).json()["ratings"]) == n)


def test_the_rule() -> None:
    earned = Rating(1700.0, 90.0, 0.06)
    assert shown_rank(earned, "20k").rank == ranks.rank_label(1700.0)
    assert (shown_rank(earned, "20k").provisional, shown_rank(earned, None).earned) == (False, True)
    assert shown_rank(Rating(1700.0, 200.0, 0.06), None).provisional is True
    assert (shown_rank(None, "5k").rank, shown_rank(None, "5k").provisional, shown_rank(None, "5k").earned) == (
        "5k", True, False)
    assert shown_rank(None, None).rank is None and shown_rank(None, "").rank is None


def test_ranks_are_earned_in_every_summary_and_in_me(client: TestClient) -> None:
    alice, bob, carol = Browser(client), Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bobby")  # no rank typed
    registered(carol, "carol")
    alice.req("PATCH", "/api/me", 200, json={"rank": "5k"})

    # Before the first rated game: the typed rank (or none), never earned.
    me = alice.req("GET", "/api/me", 200).json()
    assert (me["rank"], me["provisional"], me["rank_earned"]) == ("5k", True, False)
    assert bob.req("GET", "/api/me", 200).json()["rank"] is None
    first = open_challenge(alice)["game"]["id"]
    line = carol.req("GET", "/api/games?status=open", 200).json()["games"][0]
    assert line["id"] == first and _seat(line, "B") == ("5k", True)
    alice.req("DELETE", f"/api/games/{first}", 204)

    gid = rated_game(alice, bob)  # alice (Black) wins
    _rated(alice, "alice", 1)
    new_a, new_b = rating_game.rate(rating_game.initial("5k"), Rating(), 1.0)
    want_a = (ranks.rank_label(new_a.rating), ranks.is_provisional(new_a.deviation))
    want_b = (ranks.rank_label(new_b.rating), ranks.is_provisional(new_b.deviation))
    assert want_a != ("5k", True)  # the earned rank is not the typed one
    assert want_b[0] is not None

    me = alice.req("GET", "/api/me", 200).json()
    assert (me["rank"], me["provisional"], me["rank_earned"]) == (*want_a, True)
    me_b = bob.req("GET", "/api/me", 200).json()
    assert (me_b["rank"], me_b["provisional"], me_b["rank_earned"]) == (*want_b, True)
    assert alice.req("GET", "/api/players/alice", 200).json()["rank"] == want_a[0]

    # The lobby's finished list, "my games", the player's history: the ranks of now.
    finished = carol.req("GET", "/api/games?status=finished", 200).json()["games"]
    assert [(g["id"], _seat(g, "B"), _seat(g, "W")) for g in finished] == [(gid, want_a, want_b)]
    mine = bob.req("GET", "/api/me/games?status=finished", 200).json()["games"][0]
    assert (_seat(mine, "B"), _seat(mine, "W")) == (want_a, want_b)
    history = carol.req("GET", "/api/players/bobby/games", 200).json()["games"][0]
    assert (_seat(history, "B"), _seat(history, "W")) == (want_a, want_b)

    # A new challenge: in the lobby and on its own page, the earned rank; the other seat joins with theirs.
    g = open_challenge(alice)["game"]
    assert _seat(g, "B") == want_a
    line = carol.req("GET", "/api/games?status=open", 200).json()["games"][0]
    assert line["id"] == g["id"] and _seat(line, "B") == want_a
    joined = bob.req("POST", f"/api/games/{g['id']}/join", 200, json={}).json()["game"]
    assert (_seat(joined, "B"), _seat(joined, "W")) == (want_a, want_b)
    live = carol.req("GET", "/api/games?status=live", 200).json()["games"][0]
    assert (_seat(live, "B"), _seat(live, "W")) == (want_a, want_b)
    mine = alice.req("GET", "/api/me/games", 200).json()["games"][0]
    assert (_seat(mine, "B"), _seat(mine, "W")) == (want_a, want_b)
    # Carol has no rated game: her typed rank still shows.
    carol.req("PATCH", "/api/me", 200, json={"rank": "12k"})
    c = open_challenge(carol)["game"]
    assert _seat(c, "B") == ("12k", True)


def test_the_earned_rank_cannot_be_typed_over_but_can_be_sent_back(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "earner")
    registered(bob, "other")
    alice.req("PATCH", "/api/me", 200, json={"rank": "5k"})
    rated_game(alice, bob)
    _rated(alice, "earner", 1)
    shown = alice.req("GET", "/api/me", 200).json()["rank"]
    # The form sends back the rank it was given (the earned one): no change, and the typed one stays underneath.
    assert alice.req("PATCH", "/api/me", 200, json={"rank": shown, "name": "earner2"}).json()["rank"] == shown
    assert alice.req("PATCH", "/api/me", 409, json={"rank": "1d"}).json()["error"]["field"] == "rank"


def test_a_tournament_shows_the_accounts_earned_ranks(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "dana")
    registered(bob, "eliot")
    rated_game(alice, bob)
    _rated(alice, "dana", 1)
    earned = alice.req("GET", "/api/me", 200).json()
    t = alice.req("POST", "/api/tournaments", 201, json={"name": "Cup", "system": "swiss", "rounds": 2}).json()
    tid = t["id"]
    proposed = alice.req("POST", f"/api/tournaments/{tid}/players", 201,
                         json={"name": "Dana", "first_name": "D", "rank": "10k", "account": "dana"}).json()
    key = next(p["key"] for p in proposed["players"] if p["name"] == "Dana")
    alice.req("POST", f"/api/tournaments/{tid}/players/{key}/confirm", 200)
    alice.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": "Typed", "first_name": "T", "rank": "3k"})
    players = {p["name"]: p for p in alice.req("GET", f"/api/tournaments/{tid}", 200).json()["players"]}
    # The tournament keeps its declared rank (pairing uses it); the account's earned rank is shown beside it.
    assert players["Dana"]["rank"] == "10K"  # as tournaments write ranks
    assert (players["Dana"]["account_rank"], players["Dana"]["account_provisional"]) == (
        earned["rank"], earned["provisional"])
    assert players["Typed"]["account_rank"] is None


def test_the_history_is_by_end_with_each_rating_change(client: TestClient, fixed_day: MovedTime) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "long")
    registered(bob, "short")
    # A correspondence-like game started first, ended last; another started later and ended at once.
    first = alice.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite", "color": "B",
                                                        "rated": True}).json()
    fixed_day.move(3600)
    quick = rated_game(alice, bob, end="B resigns")
    _rated(alice, "long", 1)
    fixed_day.move(14 * 86400)
    tw = bob.req("POST", f"/api/games/{first['game']['id']}/join", 200,
                 json={"code": first["invite"]["code"]}).json()["seat"]["token"]
    tb = first["seat"]["token"]
    for b, w in zip(["C3", "C4", "C5", "C6", "C7"], ["G3", "G4", "G5", "G6", "G7"], strict=True):
        alice.req("POST", f"/api/games/{first['game']['id']}/actions", 200, json={"type": "play", "move": b},
                  headers={"X-Keima-Seat": tb})
        bob.req("POST", f"/api/games/{first['game']['id']}/actions", 200, json={"type": "play", "move": w},
                headers={"X-Keima-Seat": tw})
    bob.req("POST", f"/api/games/{first['game']['id']}/actions", 200, json={"type": "resign"},
            headers={"X-Keima-Seat": tw})
    _rated(alice, "long", 2)

    def history() -> list[dict[str, Any]]:
        games: list[dict[str, Any]] = bob.req("GET", "/api/players/long/games", 200).json()["games"]
        return games

    wait_for(lambda: all(g["rating_change"] is not None for g in history()))
    games = history()
    assert [g["id"] for g in games] == [first["game"]["id"], quick]  # the newest END first
    ended = [datetime.fromisoformat(g["ended_at"]) for g in games]
    started = [datetime.fromisoformat(g["created_at"]) for g in games]
    assert started[0] < started[1] and ended[0] > ended[1]
    assert (ended[0] - ended[1]).total_seconds() >= 14 * 86400
    assert all(g["rated"] for g in games)
    # Alice lost the quick game (Black resigned) and won the long one: her points, from her seat (Black).
    assert games[1]["rating_change"]["B"] < 0 < games[0]["rating_change"]["B"]
    # Games in progress have no end.
    assert all(g["ended_at"] is None for g in bob.req("GET", "/api/players/long/games?status=live", 200).json()["games"])
