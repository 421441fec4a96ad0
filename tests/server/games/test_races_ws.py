"""Conflicting intents on one game at the same moment, over WebSocket action frames, on a real ``keima serve``
(SQLite, and PostgreSQL when ``KEIMA_TEST_PG_URL`` is set).

Whatever the order the server picks, the game stays consistent: every intent gets an ``ack`` or a 4xx
``error``, each acknowledged intent is stored exactly once (the game's version counts them), a refused one not
at all, and the stored log replays (after a ``kill -9`` and a restart) to exactly the state the players saw.
"""

from __future__ import annotations

import random
import signal
from typing import Any

import pytest

from server.live import Seat, game_state, invite_game, run_async, serve

# 9x9 points with an even row + column: no two are neighbours, so no stone placed on them is ever captured
# and no move on them is suicide; the referee's answers then depend only on turn, phase and occupancy.
SPREAD = [p for p in range(81) if (p // 9 + p % 9) % 2 == 0]


async def race(*sends: tuple[Seat, dict[str, Any]]) -> list[dict[str, Any]]:
    """Send every frame before reading any reply (the intents reach the server together); returns the replies
    in the order of ``sends``. Fails on a reply that is neither an ack nor a 4xx error."""
    ids = [await seat.send(action) for seat, action in sends]
    replies = [await seat.reply(mid) for (seat, _action), mid in zip(sends, ids, strict=True)]
    for r in replies:
        assert r["type"] == "ack" or 400 <= r["error"]["status"] < 500, r
    return replies


def acked(replies: list[dict[str, Any]]) -> int:
    return sum(r["type"] == "ack" for r in replies)


async def two_moves_for_one_turn(base: str) -> str:
    # Black's two browser tabs each send a different move for the same turn: exactly one is played.
    gid, black, white = invite_game(base)
    b1, b2, w = [await Seat.open(base, gid, t) for t in (black, black, white)]
    expected: list[int] = []
    try:
        points = iter(SPREAD)
        for _ in range(8):
            p1, p2, q = next(points), next(points), next(points)
            r1, r2 = await race((b1, {"type": "play", "move": p1}), (b2, {"type": "play", "move": p2}))
            assert acked([r1, r2]) == 1, (r1, r2)
            loser = r2 if r1["type"] == "ack" else r1
            assert loser["error"]["code"] == "illegal-move" and loser["error"]["reason"] == "wrong-turn"
            expected.append(p1 if r1["type"] == "ack" else p2)
            (rw,) = await race((w, {"type": "play", "move": q}))
            assert rw["type"] == "ack"
            expected.append(q)
    finally:
        for s in (b1, b2, w):
            await s.close()
    st = game_state(base, gid)
    assert [m["point"] for m in st["moves"]] == expected
    assert st["version"] == 1 + len(expected)  # the join, then one entry per acknowledged move
    return gid


async def a_move_against_a_resignation(base: str) -> str:
    # White's move and Black's resignation cross: either order is a consistent game, and nothing after it.
    gid, black, white = invite_game(base)
    b, w = await Seat.open(base, gid, black), await Seat.open(base, gid, white)
    try:
        (r,) = await race((b, {"type": "play", "move": SPREAD[0]}))
        assert r["type"] == "ack"
        rw, rb = await race((w, {"type": "play", "move": SPREAD[1]}), (b, {"type": "resign"}))
        assert rb["type"] == "ack"
        (late,) = await race((w, {"type": "play", "move": SPREAD[2]}))
        assert late["type"] == "error" and late["error"]["status"] == 409
    finally:
        await b.close()
        await w.close()
    st = game_state(base, gid)
    assert st["phase"] == "finished" and st["result"] == "W+R"
    white_played = rw["type"] == "ack"
    assert [m["point"] for m in st["moves"]] == [SPREAD[0]] + ([SPREAD[1]] if white_played else [])
    assert st["version"] == 1 + 1 + white_played + 1
    return gid


async def undo_races(base: str, seed: int) -> str:
    # Undo requests, answers and moves from both players' two tabs, two or three at a time, in random mixes.
    gid, black, white = invite_game(base)
    seats = {"B": [await Seat.open(base, gid, black), await Seat.open(base, gid, black)],
             "W": [await Seat.open(base, gid, white), await Seat.open(base, gid, white)]}
    rng = random.Random(seed)
    acks = 0
    try:
        for _ in range(25):
            st = game_state(base, gid)
            free = [p for p in SPREAD if st["board"][p] == 0]
            sends = []
            for _k in range(rng.choice((2, 3))):
                color = rng.choice("BW")
                kind = rng.choice(("play", "play", "undo_request", "undo_answer"))
                action: dict[str, Any] = {"type": kind}
                if kind == "play":
                    action["move"] = rng.choice(free)
                elif kind == "undo_answer":
                    action["accept"] = rng.random() < 0.7
                sends.append((rng.choice(seats[color]), action))
            acks += acked(await race(*sends))
    finally:
        for pair in seats.values():
            for s in pair:
                await s.close()
    st = game_state(base, gid)
    assert st["phase"] == "play" and st["version"] == 1 + acks
    return gid


@pytest.mark.slow
def test_conflicting_frames_leave_consistent_replayable_games(db_url: str) -> None:
    games: list[str] = []
    with serve(db_url) as (proc, base):
        async def scenarios() -> None:
            games.append(await two_moves_for_one_turn(base))
            games.append(await a_move_against_a_resignation(base))
            for seed in (1, 2):
                games.append(await undo_races(base, seed))

        run_async(scenarios(), 240)
        seen = {gid: game_state(base, gid) for gid in games}
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    with serve(db_url) as (_proc, base):
        for gid in games:
            assert game_state(base, gid) == seen[gid], gid
