"""The bot behind keima's GTP engine: genmove answers legal moves and final_status_list uses the estimator."""

from __future__ import annotations

from keima.ai import make_player
from keima.gtp_engine import GtpEngine
from keima.rules import Game, from_gtp


def _ask(engine: GtpEngine, line: str) -> str:
    reply, _ = engine.handle_line(line)
    assert reply is not None
    assert reply.startswith("="), reply
    return reply[1:].strip()


def test_genmove_and_dead_stones_through_gtp() -> None:
    engine = GtpEngine(make_player("strong", seed=1), size=7, rules="french", seconds=0.05, seed=1)
    _ask(engine, "boardsize 7")
    _ask(engine, "clear_board")
    # A lone white stone inside Black's wall is reported dead; the wall is not.
    for move in ("b D7", "w G1", "b D6", "w F1", "b D5", "w E1", "b D4", "w E2", "b C4", "w F2",
                 "b B4", "w G2", "b A4", "w B6"):
        _ask(engine, f"play {move}")
    dead = _ask(engine, "final_status_list dead").split()
    assert "B6" in dead
    assert "D7" not in dead
    _ask(engine, "clear_board")
    replay = Game(7)
    for _ in range(6):
        color = "b" if replay.to_move == 1 else "w"
        vertex = _ask(engine, f"genmove {color}")
        if vertex.lower() == "resign":
            break
        point = from_gtp(vertex, 7)
        assert point is None or replay.legality(point) is None
        replay.play(point)
