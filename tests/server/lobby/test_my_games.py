""""My games" read at the reader's time and in the order a correspondence player works through them: the games
waiting for their move first, the least time left first; a weekend pause that began or ended since the game last
changed is seen as it is now, not as it was stored."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, registered
from ..moved_time import MovedTime
from ..notifications.test_notifications import corr_game, play

H = 3600.0
D = 86400.0


def mine(b: Browser) -> list[dict]:  # type: ignore[type-arg]
    games: list[dict] = b.req("GET", "/api/me/games", 200).json()["games"]  # type: ignore[type-arg]
    return games


def test_a_weekend_pause_is_read_at_the_readers_time(fast_client: TestClient, fixed_day: MovedTime) -> None:
    alice, bob = Browser(fast_client), Browser(fast_client)
    registered(alice, "alice")
    registered(bob, "bob")
    gid = corr_game(alice, bob, {"type": "simple", "per_move": 5 * D, "weekend_pause": True})
    fixed_day.move(2 * D + 10 * H)  # Friday 20:00 UTC
    play(alice, gid, "E5")
    [g] = mine(bob)
    assert g["paused"]["W"] is None and abs(g["time_left"]["W"] - 5 * D) < 10
    fixed_day.move(14 * H)  # Saturday 10:00: nothing changed in the game, its clock stands since midnight
    [g] = mine(bob)
    assert g["paused"]["W"] == "weekend" and abs(g["time_left"]["W"] - (5 * D - 4 * H)) < 10
    fixed_day.move(2 * D)  # Monday 10:00: the pause ended at midnight, ten hours ago
    [g] = mine(bob)
    assert g["paused"]["W"] is None and abs(g["time_left"]["W"] - (5 * D - 14 * H)) < 10
    assert abs(g["time_at"] - fixed_day.time()) < 5


def test_my_turn_first_least_time_left_first(fast_client: TestClient, fixed_day: MovedTime) -> None:
    alice, bob, carol = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    for b, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        registered(b, name)
    waiting = corr_game(bob, alice)  # bob Black: bob to move, not alice
    long = corr_game(carol, alice, {"type": "simple", "per_move": 5 * D, "weekend_pause": False})
    short = corr_game(bob, alice, {"type": "simple", "per_move": 2 * D, "weekend_pause": False})
    play(carol, long, "E5")
    fixed_day.move(H)
    play(bob, short, "E5")
    order = [g["id"] for g in mine(alice)]
    assert order == [short, long, waiting]
    fixed_day.move(D)  # the short one still has less time left
    assert [g["id"] for g in mine(alice)][:2] == [short, long]
    play(alice, short, "C3")  # answered: it goes after the games still waiting for her
    assert [g["id"] for g in mine(alice)][0] == long
