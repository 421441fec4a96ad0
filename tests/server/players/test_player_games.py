"""A player's games (``GET /api/players/{name}/games``: filters, keyset paging, refusals, names of the day) and
their score against each opponent (``GET /api/players/{name}/opponents``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, open_challenge, registered
from ..helpers import wait_for


def game(black: Browser, white: Browser, *, size: int = 9, end: str | None = "W resigns", moves: int = 1,
         rated: bool = False) -> str:
    """``black`` invites ``white`` to a game of ``size``, each plays ``moves`` stones, then ``end`` ("W resigns",
    "B resigns"; None: the game goes on); returns its id."""
    g = black.req("POST", "/api/games", 201, json={"size": size, "opponent": "invite", "color": "B",
                                                    "rated": rated}).json()
    gid, tb = g["game"]["id"], g["seat"]["token"]
    tw = white.req("POST", f"/api/games/{gid}/join", 200, json={"code": g["invite"]["code"]}).json()["seat"]["token"]
    for i in range(moves):
        black.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": f"C{i + 1}"},
                  headers={"X-Keima-Seat": tb})
        white.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": f"G{i + 1}"},
                  headers={"X-Keima-Seat": tw})
    if end is not None:
        loser, token = (white, tw) if end == "W resigns" else (black, tb)
        loser.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"}, headers={"X-Keima-Seat": token})
    return gid


def ids(b: Browser, url: str, status: int = 200) -> list[str]:
    return [g["id"] for g in b.req("GET", url, status).json()["games"]]


@pytest.fixture
def three(client: TestClient) -> tuple[Browser, Browser, Browser]:
    alice, bob, carol = Browser(client), Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bob")
    registered(carol, "carol")
    return alice, bob, carol


def test_filters_pick_the_players_games_by_status_size_result_and_opponent(
        client: TestClient, three: tuple[Browser, Browser, Browser]) -> None:
    alice, bob, carol = three
    g1 = game(alice, bob)                           # alice Black, bob resigns: won
    g2 = game(bob, alice)                           # alice White, bob (Black) wins: lost
    g3 = game(alice, carol, size=13, end="B resigns")  # alice resigns: lost
    g4 = game(carol, alice, end="B resigns")        # carol resigns: won
    other = game(bob, carol)                        # not alice's
    live = game(alice, bob, end=None)
    open_challenge(alice)                           # neither finished nor live: nobody has taken it
    reader = Browser(client)

    cases = [
        ("", [g4, g3, g2, g1]),
        ("?status=finished", [g4, g3, g2, g1]),
        ("?result=won", [g4, g1]),
        ("?result=lost", [g3, g2]),
        ("?size=13", [g3]),
        ("?size=19", []),
        ("?opponent=bob", [g2, g1]),
        ("?opponent=BOB&result=lost", [g2]),  # the opponent's name is matched as names are, case aside
        ("?opponent=carol&size=9", [g4]),
        ("?status=live", [live]),
        ("?status=live&opponent=carol", []),
    ]
    for query, expected in cases:
        assert ids(reader, f"/api/players/alice/games{query}") == expected, query
    assert ids(reader, "/api/players/ALICE/games?result=lost&opponent=bob") == [g2]
    assert ids(reader, "/api/players/carol/games") == [other, g4, g3]

    # The summaries are the lobby's; ``you`` is the reader's own seats (none for a stranger).
    first = reader.req("GET", "/api/players/alice/games?limit=1").json()["games"][0]
    assert first["status"] == "finished" and first["result"] == "W+R" and first["you"] == []
    assert first["players"]["B"]["name"] == "carol" and first["players"]["W"]["name"] == "alice"
    assert alice.req("GET", "/api/players/alice/games?limit=1").json()["games"][0]["you"] == ["W"]
    assert carol.req("GET", "/api/players/alice/games?limit=1").json()["games"][0]["you"] == ["B"]


def test_keyset_paging_goes_on_after_the_last_game_of_a_page(
        client: TestClient, three: tuple[Browser, Browser, Browser]) -> None:
    alice, bob, _carol = three
    games = [game(alice, bob, end="W resigns" if i % 2 else "B resigns") for i in range(5)]
    newest_first = games[::-1]
    pages, before = [], None
    while True:
        url = "/api/players/alice/games?limit=2" + (f"&before={before}" if before else "")
        page = ids(alice, url)
        if not page:
            break
        pages.append(page)
        before = page[-1]
    assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]
    # Paging within a filter: the lost games are games 0, 2, 4 (alice resigned).
    lost = [games[4], games[2], games[0]]
    assert ids(alice, "/api/players/alice/games?result=lost&limit=2") == lost[:2]
    assert ids(alice, f"/api/players/alice/games?result=lost&limit=2&before={lost[1]}") == lost[2:]
    # A game finishing between two pages is on the first page when read again, never repeated on the next.
    later = game(alice, bob)
    assert ids(alice, f"/api/players/alice/games?limit=2&before={newest_first[1]}") == newest_first[2:4]
    assert ids(alice, "/api/players/alice/games?limit=1") == [later]


def test_refusals_name_the_bad_filter(client: TestClient, three: tuple[Browser, Browser, Browser]) -> None:
    alice, bob, _carol = three
    game(alice, bob)
    cases = [
        ("?status=open", "status"),
        ("?status=waiting", "status"),
        ("?result=draw", "result"),
        ("?status=live&result=won", "result"),  # games in progress are neither won nor lost yet
        ("?size=1", "size"),
        ("?size=nine", "size"),
        ("?limit=0", "limit"),
        ("?limit=101", "limit"),  # a page holds at most 100 games
        ("?opponent=nobody", "opponent"),
        ("?before=no-such-game", "before"),
        ("?before=" + "x" * 33, "before"),
    ]
    for query, field in cases:
        err = alice.req("GET", f"/api/players/alice/games{query}", 422).json()["error"]
        assert err["code"] == "invalid-request" and field in (err["field"] or ""), (query, err)
    assert alice.req("GET", "/api/players/nobody/games", 404).json()["error"]["code"] == "not-found"
    assert alice.req("GET", "/api/players/nobody/opponents", 404).json()["error"]["code"] == "not-found"
    assert len(ids(alice, "/api/players/alice/games?limit=100")) == 1
    paths = client.get("/openapi.json").json()["paths"]
    assert "get" in paths["/api/players/{name}/games"] and "get" in paths["/api/players/{name}/opponents"]


def test_games_follow_the_player_not_the_name_which_the_record_keeps(
        client: TestClient, three: tuple[Browser, Browser, Browser]) -> None:
    alice, bob, _carol = three
    g1 = game(alice, bob)
    alice.req("PATCH", "/api/me", 200, json={"name": "alicia"})
    assert alice.req("GET", "/api/players/alice/games", 404).status_code == 404
    answer = alice.req("GET", "/api/players/alicia/games").json()
    found = answer["games"]
    assert [g["id"] for g in found] == [g1]
    assert found[0]["players"]["B"]["name"] == "alice"  # the name of the day
    assert answer["seats"] == {g1: ["B"]}  # the page's player's seat, whatever name the record keeps
    # The freed name is someone else's now: the old games are not theirs.
    newcomer = Browser(client)
    registered(newcomer, "alice")
    assert ids(newcomer, "/api/players/alice/games") == []
    assert ids(newcomer, "/api/players/bob/games?opponent=alice") == []
    assert ids(newcomer, "/api/players/bob/games?opponent=alicia") == [g1]


def score(b: Browser, name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = b.req("GET", f"/api/players/{name}/opponents", 200).json()["opponents"]
    return data


def test_opponents_table_counts_wins_and_losses_against_each(
        client: TestClient, three: tuple[Browser, Browser, Browser]) -> None:
    alice, bob, carol = three
    game(alice, bob)                    # won
    game(bob, alice)                    # lost
    game(alice, bob, end="B resigns")   # lost
    game(carol, alice, end="B resigns")  # won
    game(alice, bob, end=None)          # in progress: not counted
    game(bob, carol)                    # not alice's
    # A guest takes an open challenge and resigns.
    guest = Browser(client)
    g = open_challenge(alice)
    token = guest.req("POST", f"/api/games/{g['game']['id']}/join", 200, json={}).json()["seat"]["token"]
    guest.req("POST", f"/api/games/{g['game']['id']}/actions", 200, json={"type": "resign"},
              headers={"X-Keima-Seat": token})
    guest_name = guest.me()["name"]
    # The bot: alice resigns at once.
    b = alice.req("POST", "/api/games", 201, json={"size": 9, "opponent": "bot", "bot_level": "beginner",
                                                    "color": "B"}).json()
    alice.req("POST", f"/api/games/{b['game']['id']}/actions", 200, json={"type": "resign"},
              headers={"X-Keima-Seat": b["seat"]["token"]})

    wait_for(lambda: sum(o["won"] + o["lost"] for o in score(alice, "alice")) == 6)
    assert score(alice, "alice") == [
        {"name": "bob", "kind": "player", "won": 1, "lost": 2, "drawn": 0},
        {"name": "carol", "kind": "player", "won": 1, "lost": 0, "drawn": 0},
        {"name": guest_name, "kind": "guest", "won": 1, "lost": 0, "drawn": 0},
        {"name": "keima (beginner)", "kind": "bot", "won": 0, "lost": 1, "drawn": 0},
    ]
    assert score(bob, "bob")[0] == {"name": "alice", "kind": "player", "won": 2, "lost": 1, "drawn": 0}

    # A renamed opponent shows under the name of today (the page links to it); a deleted one as its games show it.
    bob.req("PATCH", "/api/me", 200, json={"name": "robert"})
    carol.req("DELETE", "/api/me", 204)
    table = {o["kind"] + ":" + o["name"]: (o["won"], o["lost"]) for o in score(alice, "alice")}
    deleted = [k for k in table if k.startswith("deleted:")]
    assert table["player:robert"] == (1, 2) and len(deleted) == 1 and table[deleted[0]] == (1, 0)
    assert deleted[0].split(":")[1].startswith("deleted-")
    assert score(alice, "robert")[0]["name"] == "alice"
    assert score(Browser(client), "alice") == score(alice, "alice")  # public: a stranger reads the same


def test_chat_messages_say_whether_an_account_wrote_them(client: TestClient) -> None:
    # The page links a writer's name to their page only when an account wrote the message: a seat held by a token
    # alone writes under its colour, which is nobody's name.
    alice, nobody = Browser(client), Browser(client)
    registered(alice, "alice")
    g = nobody.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite", "color": "B"}).json()
    gid = g["game"]["id"]
    tw = alice.req("POST", f"/api/games/{gid}/join", 200, json={"code": g["invite"]["code"]}).json()["seat"]["token"]
    for who, token in ((nobody, g["seat"]["token"]), (alice, tw)):
        who.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "hi", "to": "players"},
                headers={"X-Keima-Seat": token})
    chat = alice.req("GET", f"/api/games/{gid}", 200).json()["chat"]
    assert [(m["from"], m["account"]) for m in chat] == [("Black", False), ("alice", True)]


def test_a_same_screen_game_is_listed_once_and_neither_won_nor_lost(
        client: TestClient, three: tuple[Browser, Browser, Browser]) -> None:
    alice, bob, _carol = three
    won = game(alice, bob)
    g = alice.req("POST", "/api/games", 201, json={"size": 9, "opponent": "local"}).json()
    local = g["game"]["id"]
    alice.req("POST", f"/api/games/{local}/actions", 200, json={"type": "resign"},
              headers={"X-Keima-Seat": g["seat"]["token"]})
    answer = alice.req("GET", "/api/players/alice/games").json()
    assert [x["id"] for x in answer["games"]] == [local, won]
    assert answer["seats"] == {local: ["B", "W"], won: ["B"]}
    assert ids(alice, "/api/players/alice/games?result=won") == [won]
    assert ids(alice, "/api/players/alice/games?result=lost") == []
    assert [o["name"] for o in score(alice, "alice")] == ["bob"]


def test_finished_games_stay_in_the_order_they_finished(client: TestClient,
                                                       three: tuple[Browser, Browser, Browser]) -> None:
    """What comes after a game's end (chat, a rated game's rating change) does not move it up the finished lists:
    a rated game played first was listed above the games finished after it once its rating change came."""
    alice, bob, _carol = three
    first = game(alice, bob, moves=5, rated=True)
    second = game(bob, alice)
    assert ids(alice, "/api/players/alice/games") == [second, first]
    # The rating change is recorded in the game (a job of the scheduler), then someone chats in the first game.
    wait_for(lambda: alice.req("GET", f"/api/games/{first}", 200).json()["rating_change"] is not None, 10)
    alice.req("POST", f"/api/games/{first}/actions", 200, json={"type": "chat", "text": "good game"})
    assert ids(alice, "/api/players/alice/games") == [second, first]
    assert [g["id"] for g in alice.req("GET", "/api/me/games?status=finished", 200).json()["games"]] == [second, first]
