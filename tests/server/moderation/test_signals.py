"""Signals for the moderators (issue 47 item 5): a rating drop of more than 150 points in 14 days made of early
resignations, repeated disputes of the marking, repeated abandonments; never for what stays under the lines."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from keima.server import timesource
from keima.server.moderation import signals_store
from keima.server.storage import abandonments, game_log, games, make_engine, migrate, players, rating_history


def _game(conn: Any, gid: str, black: str, white: str, result: str, moves: int) -> None:
    now = timesource.now_utc()
    conn.execute(games.insert().values(id=gid, created_at=now, updated_at=now, params={}, mode="open", clock={},
                                       phase="finished", result=result, people={"B": {"id": black},
                                                                                 "W": {"id": white}},
                                       summary={"moves": moves}))


def test_sandbagging_stalling_and_abandoning_are_signalled(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    now = timesource.now_utc()
    with engine.begin() as conn:
        for pid in ("sand", "fair", "stall", "gone"):
            conn.execute(players.insert().values(id=pid, name=pid.upper(), name_key=pid, created_at=now))
        # sand loses 4 early resignations as Black (200 points); fair loses 4 long games (200 points).
        conn.execute(rating_history.insert().values(player_id="sand", seq=1, game_id="old", at=now - timedelta(30),
                                                    rating=1600.0, deviation=60.0))
        for i in range(4):
            _game(conn, f"s{i}", "sand", "fair", "W+R", 12)
            _game(conn, f"f{i}", "fair", "sand", "B+12.5", 220)
            conn.execute(rating_history.insert().values(player_id="sand", seq=10 + i, game_id=f"s{i}",
                                                        at=now - timedelta(days=i), rating=1550.0 - 50 * i,
                                                        deviation=60.0))
            conn.execute(rating_history.insert().values(player_id="fair", seq=10 + i, game_id=f"f{i}",
                                                        at=now - timedelta(days=i), rating=1450.0 - 50 * i,
                                                        deviation=60.0))
        _game(conn, "d1", "stall", "fair", "W+30.5", 200)
        for seq in range(3):
            conn.execute(game_log.insert().values(game_id="d1", seq=seq, created_at=now,
                                                  entry={"events": [{"kind": "resume", "color": 1}]}))
        for i in range(3):
            conn.execute(abandonments.insert().values(game_id=f"a{i}", player_id="gone", outcome="win", at=now))
        conn.execute(abandonments.insert().values(game_id="a9", player_id="fair", outcome="win", at=now))
    found = {(s["kind"], s["name"]): s for s in signals_store.signals(engine)}
    assert set(found) == {("sandbagging", "SAND"), ("stalling", "STALL"), ("abandoning", "GONE")}
    assert found[("sandbagging", "SAND")]["drop"] == 200.0
    assert sorted(found[("sandbagging", "SAND")]["games"]) == ["s0", "s1", "s2", "s3"]
    assert found[("stalling", "STALL")]["count"] == 3
    assert found[("abandoning", "GONE")]["count"] == 3
    with engine.begin() as conn:  # older than 14 days: no longer a sandbagging signal
        conn.execute(rating_history.update().values(at=now - timedelta(days=20)))
    assert ("sandbagging", "SAND") not in {(s["kind"], s["name"]) for s in signals_store.signals(engine)}
    engine.dispose()
