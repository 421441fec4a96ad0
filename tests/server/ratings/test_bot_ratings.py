"""Bots as rated players: a registered person's rated game against keima's bot or a GTP engine rates both, each
bot level under its own key, once per game whatever the deliveries; the bot's page answers by its name, and
``keima ratings recompute`` gives the live numbers again (docs/ratings.md, *Bots as players*)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.cli import main as cli_main
from keima.ratings import game as rating_game
from keima.ratings import ranks
from keima.ratings.glicko2 import Rating
from keima.ratings.handicap import rank_difference
from keima.rules.ruleset import get_ruleset
from keima.server.accounts.text import check_name, reserved_reason
from keima.server.errors import Refused
from keima.server.ratings import bot_players
from keima.server.ratings import subscriber as ratings_subscriber
from keima.server.storage import queues as store_events
from keima.server.storage.store import make_engine, migrate, now_utc
from keima.server.storage.tables import game_outbox, games, rating_history

from ..accounts.test_players import Browser, registered
from ..helpers import deliver_racing, wait_for
from .test_ratings import table_rows

BOT = "keima (beginner)"
# Points for the person's stones, tried in turn: the bot may have taken one.
POINTS = ["C3", "G7", "C7", "G3", "E5", "D4", "F6", "D6", "F4", "E3", "E7", "C5", "G5"]


def play_and_resign(person: Browser, gid: str, token: str, stones: int = 5) -> None:
    """``person`` (Black) plays ``stones`` stones against the bot, each after the bot's answer, then resigns."""
    seat = {"X-Keima-Seat": token}
    points = iter(POINTS)
    played = 0
    while played < stones:
        wait_for(lambda: person.req("GET", f"/api/games/{gid}", 200).json()["to_move"] == "B", timeout=120)
        r = person.req("POST", f"/api/games/{gid}/actions", json={"type": "play", "move": next(points)},
                       headers=seat)
        assert r.status_code in (200, 409), r.text  # 409: the bot holds that point
        played += r.status_code == 200
    wait_for(lambda: person.req("GET", f"/api/games/{gid}", 200).json()["to_move"] == "B", timeout=120)
    person.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"}, headers=seat)


def test_a_rated_game_against_the_bot_rates_the_person_and_the_bot_once(client: TestClient, db_url: str) -> None:
    alice, guest, nobody = Browser(client), Browser(client), Browser(client)
    registered(alice, "alice")
    guest.me()
    offer = {"size": 9, "opponent": "bot", "bot_level": "beginner", "color": "B", "rated": True}
    # Guests and callers with no player are not rated, against the bot neither.
    for who in (guest, nobody):
        assert who.req("POST", "/api/games", 422, json=offer).json()["error"]["field"] == "rated"

    before = alice.req("GET", "/api/players/keima%20(beginner)", 200).json()
    assert before == {"name": BOT, "kind": "bot", "rank": "25k", "provisional": True,
                      "rating": {"rating": pytest.approx(ranks.rating_of_rank("25k")), "deviation": 250,
                                 "volatility": 0.06},
                      "games": {"won": 0, "lost": 0}}

    g = alice.req("POST", "/api/games", 201, json=offer).json()
    gid = g["game"]["id"]
    assert g["game"]["rated"] is True and g["game"]["players"]["W"]["name"] == BOT
    play_and_resign(alice, gid, g["seat"]["token"])
    wait_for(lambda: alice.req("GET", f"/api/games/{gid}", 200).json()["rating_change"] is not None)

    # Alice, a newcomer, lost to the beginner at its starting rank: each from their values before the game.
    expect_a, expect_bot = rating_game.rate(Rating(), bot_players.starting_rating("beginner"), 0.0)
    bot = alice.req("GET", "/api/players/KEIMA%20(Beginner)", 200).json()  # names match case aside
    assert bot["name"] == BOT and bot["games"] == {"won": 1, "lost": 0}
    assert bot["rating"] == pytest.approx({"rating": expect_bot.rating, "deviation": expect_bot.deviation,
                                           "volatility": expect_bot.volatility})
    assert bot["rating"]["rating"] > before["rating"]["rating"]
    me = alice.req("GET", "/api/players/alice", 200).json()
    assert me["kind"] == "player" and me["games"] == {"won": 0, "lost": 1}
    assert me["rating"]["rating"] == pytest.approx(expect_a.rating)
    change = alice.req("GET", f"/api/games/{gid}", 200).json()["rating_change"]
    assert change == {"B": pytest.approx(round(expect_a.rating - 1500, 1)),
                      "W": pytest.approx(round(expect_bot.rating - before["rating"]["rating"], 1))}
    history = alice.req("GET", f"/api/players/{BOT}/ratings", 200).json()["ratings"]
    assert [(h["game"], h["rating"]) for h in history] == [(gid, pytest.approx(expect_bot.rating))]

    # The bot's page: its games (its seat White) and its score against each person, from its side.
    page = alice.req("GET", f"/api/players/{BOT}/games", 200).json()
    assert [x["id"] for x in page["games"]] == [gid] and page["seats"] == {gid: ["W"]}
    assert alice.req("GET", f"/api/players/{BOT}/games?result=lost", 200).json()["games"] == []
    assert alice.req("GET", f"/api/players/{BOT}/opponents", 200).json()["opponents"] == [
        {"name": "alice", "kind": "player", "won": 1, "lost": 0, "drawn": 0}]
    assert alice.req("GET", "/api/players/keima%20(grandmaster)", 404).json()["error"]["code"] == "not-found"
    # A person's games against a bot level, by its name.
    mine = alice.req("GET", f"/api/players/alice/games?opponent={BOT}", 200).json()
    assert [x["id"] for x in mine["games"]] == [gid] and mine["seats"] == {gid: ["B"]}
    assert alice.req("GET", "/api/players/alice/games?opponent=keima%20(strong)", 200).json()["games"] == []
    assert alice.req("GET", "/api/players/alice/games?opponent=keima%20(grandmaster)", 422).json()["error"][
        "field"] == "opponent"

    # Once: a delivery again changes nothing, and recompute gives the live rows (the bot's under its key).
    live = table_rows(db_url)
    assert [row[0] for row in live[0]] == sorted([alice.me()["id"], "bot:beginner"])
    assert len(live[1]) == 2
    engine = make_engine(db_url)
    sub = ratings_subscriber.SUBSCRIBER
    assert store_events.deliver(engine, sub.name, sub.kinds, sub.apply) == 0
    engine.dispose()
    assert table_rows(db_url) == live
    assert cli_main(["ratings", "recompute", "--db", db_url]) == 0
    assert table_rows(db_url) == live


def test_a_game_on_one_screen_is_not_rated_even_by_a_registered_player(client: TestClient) -> None:
    alice = Browser(client)
    registered(alice, "alice")
    err = alice.req("POST", "/api/games", 422, json={"opponent": "local", "rated": True}).json()["error"]
    assert err["field"] == "rated"


# -- many games, straight into the outbox ------------------------------------------------------------------------
# An engine whose "bot:engine:<name>" would not fit the ratings' 32-character ids: keyed by a digest.
LONG_ENGINE = "engine:" + "Very Long Engine Name 1234567"
LEVELS = ["beginner", "intermediate", "strong", "engine:GNU Go", LONG_ENGINE]
RULES = ["french", "japanese", "chinese"]


def seed_games(url: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` finished games straight into the outbox, as the service writes them: half between two of three
    people, half of one person against a bot level (the game records the person only); some unrated, void or
    abandoned, some with handicap. Returns each game's players (the bot's as ``bot_players.person``), settings
    and finished event data, in outbox order."""
    rng = random.Random(seed)
    engine = make_engine(url)
    migrate(engine)
    now = now_utc()
    out = []
    with engine.begin() as conn:
        for i in range(n):
            rules = rng.choice(RULES)
            handicap = rng.choice([0, 0, 2])
            params = {"size": rng.choice([9, 19]), "rules": rules, "handicap": handicap, "placement": "fixed",
                      "komi": get_ruleset(rules).default_komi if handicap == 0 else 0.5, "rated": True}
            data = {"result": rng.choice(["B+R", "W+3.5", "W+T", "0", "Void"]), "reason": "resign",
                    "rated": rng.random() < 0.85, "moves": {"B": rng.choice([4, 40, 40]), "W": 40}}
            if rng.random() < 0.5:
                b, w = rng.sample(["p1", "p2", "p3"], 2)
                people = {"B": {"id": b, "name": b, "rank": None}, "W": {"id": w, "name": w, "rank": "10k"}}
                columns: dict[str, Any] = {"mode": "invite", "people": people}
                rated_people = people
            else:
                level, person, bot = rng.choice(LEVELS), rng.choice(["p1", "p2", "p3"]), rng.choice("BW")
                human = "W" if bot == "B" else "B"
                people = {human: {"id": person, "name": person, "rank": None}}
                columns = {"mode": "bot", "people": people, "bot_level": level, "bot_color": 1 if bot == "B" else 2}
                rated_people = {**people, bot: bot_players.person(level)}
            conn.execute(games.insert().values(id=f"g{i}", created_at=now, updated_at=now, params=params, clock={},
                                               phase="finished", result=data["result"], **columns))
            conn.execute(game_outbox.insert().values(game_id=f"g{i}", version=1, kind="finished", data=data,
                                                     created_at=now))
            out.append({"people": rated_people, "params": params, "data": data})
    engine.dispose()
    return out


def by_hand(events: list[dict[str, Any]]) -> tuple[dict[str, Rating], int]:
    """The ratings after ``events``, one game after the other, from the pure functions alone (a player's first
    game from their rank: a bot level's starting rank), and the number of rated games."""
    now: dict[str, Rating] = {}
    rated = 0
    for e in events:
        d, p, people = e["data"], e["params"], e["people"]
        score = rating_game.score_of(d["result"])
        if not d["rated"] or min(d["moves"].values()) < 5 or score is None:
            continue
        rated += 1
        b, w = people["B"], people["W"]
        rb = now.get(b["id"]) or rating_game.initial(b["rank"])
        rw = now.get(w["id"]) or rating_game.initial(w["rank"])
        shift = rank_difference(p["handicap"], p["size"], p["komi"], get_ruleset(p["rules"]))
        now[b["id"]], now[w["id"]] = rating_game.rate(rb, rw, score, shift)
    return now, rated


def test_racing_deliveries_rate_people_and_bots_once_each_and_recompute_agrees(db_url: str) -> None:
    events = seed_games(db_url, 60, seed=2024)
    expected, rated = by_hand(events)
    bots = {pid for pid in expected if pid.startswith(bot_players.PREFIX)}
    assert len(bots) == len(LEVELS), "the seed leaves a bot level unrated: pick another"
    engine = make_engine(db_url)
    deliver_racing(engine, ratings_subscriber.SUBSCRIBER, limit=4)
    for pid, r in expected.items():
        got = ratings_subscriber.rating_of(engine, pid)
        assert got is not None, pid
        assert got[0] == pytest.approx(r, rel=1e-12), pid
    with engine.connect() as conn:
        per_player = dict(conn.execute(sa.select(rating_history.c.player_id, sa.func.count())
                                       .group_by(rating_history.c.player_id)).all())
    assert sum(per_player.values()) == 2 * rated  # each rated game once, for both sides
    assert max(map(len, per_player)) <= 32  # the ratings' ids hold 32 characters (PostgreSQL enforces it)
    live = table_rows(db_url)
    assert ratings_subscriber.recompute(engine) == rated
    assert table_rows(db_url) == live
    engine.dispose()


# -- the bots' names and keys --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "level"), [
    ("keima (beginner)", "beginner"),
    ("KEIMA (Strong)", "strong"),
    ("keima (intermediate)", "intermediate"),
    ("GNU Go", "engine:GNU Go"),
    ("gnu go", "engine:GNU Go"),
    ("keima", None),  # keima without a level names no rated player
    ("keima (grandmaster)", None),
    ("Leela", None),  # an engine this server does not offer
])
def test_a_bot_is_found_by_the_name_its_games_show(name: str, level: str | None) -> None:
    assert bot_players.level_named(name, ["GNU Go"]) == level


def test_a_bot_key_is_stable_short_and_never_a_person_id() -> None:
    keys = [bot_players.key(level) for level in LEVELS]
    assert keys[:4] == ["bot:beginner", "bot:intermediate", "bot:strong", "bot:engine:GNU Go"]
    assert keys[4].startswith("bot:#") and len(keys[4]) == 32 and keys[4] == bot_players.key(LONG_ENGINE)
    assert len(set(keys)) == len(keys)



@pytest.mark.parametrize("level", [*LEVELS, "engine:Leela"])
def test_nobody_may_take_a_bots_name(level: str) -> None:
    # keima's names and engines' names with a space are not names a person may write; an engine's one-word name
    # is reserved while the server offers it (a person's id, a URL-safe token, has no ':' to meet a bot's key).
    name = bot_players.person(level)["name"]
    try:
        check_name(name)
    except Refused:
        return
    assert reserved_reason(name, [level.removeprefix("engine:")]) is not None
