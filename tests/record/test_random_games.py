"""Property: any game keima can reach (handicap, setup, captures, passes, disputes, dead stones, any ending)
is written to SGF and read back as the same game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from keima import Game
from keima.record import dump_sgf, load_record
from keima.rules.board import BLACK, EMPTY, WHITE
from keima.rules.game import GameError
from keima.rules.ruleset import PRESETS


@st.composite
def games(draw: st.DrawFn) -> Game:
    size = draw(st.integers(5, 9))
    rules = draw(st.sampled_from(sorted(PRESETS)))
    handicap = draw(st.sampled_from([0, 0, 0, 1, 2, 3]))
    placement = None
    if handicap >= 2:
        allowed = PRESETS[rules].handicap_placement
        placement = "free" if allowed == "free" or size < 7 else draw(st.sampled_from(["fixed", "free"]))
        if allowed == "fixed" and placement == "free":
            placement = "fixed"
        if placement == "fixed" and size < 7:
            handicap = 0
            placement = None
    komi = draw(st.one_of(st.none(), st.integers(-4, 16).map(lambda k: k / 2)))
    game = Game(size=size, rules=rules, komi=komi, handicap=handicap, placement=placement)
    points = st.integers(0, size * size - 1)
    for _ in range(draw(st.integers(0, 60))):
        if game.phase == "finished":
            break
        action = draw(st.sampled_from(["move"] * 8 + ["pass"] * 3 + ["undo", "setup", "end"]))
        try:
            if game.phase == "scoring":
                step = draw(st.sampled_from(["toggle", "toggle", "accept", "resume", "undo"]))
                if step == "toggle":
                    stones = [p for p in range(size * size) if game.board.get(p) != EMPTY]
                    if stones:
                        game.toggle_dead(draw(st.sampled_from(stones)))
                elif step == "accept":
                    game.accept(BLACK)
                    game.accept(WHITE)
                elif step == "resume":
                    game.resume(draw(st.sampled_from([BLACK, WHITE])))
                else:
                    game.undo()
            elif action == "move":
                legal = game.legal_moves()
                if legal:
                    game.play(draw(st.sampled_from(legal)))
            elif action == "pass" and game.phase == "play":
                game.play(None)
            elif action == "undo" and game.events:
                game.undo()
            elif action == "setup" and game.phase == "play":
                black = draw(st.lists(points, max_size=3, unique=True))
                white = [p for p in draw(st.lists(points, max_size=3, unique=True)) if p not in black]
                to_move = draw(st.sampled_from([None, BLACK, WHITE]))
                if black or white or to_move is not None:  # an empty setup is not written (nothing to say)
                    game.setup(black, white, to_move=to_move)
            elif action == "end":
                kind = draw(st.sampled_from(["resign", "timeout", "forfeit", "void"]))
                color = draw(st.sampled_from([BLACK, WHITE]))
                if kind == "resign":
                    game.resign(color)
                elif kind == "timeout":
                    game.timeout(color)
                elif kind == "forfeit":
                    game.forfeit(color)
                else:
                    game.declare_no_result()
        except GameError:
            pass  # an impossible setup or a refused action leaves the game unchanged
    return game


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(games())
def test_any_game_round_trips(game: Game) -> None:
    note(f"{game!r} events: {[e.to_dict() for e in game.events]}")
    text = dump_sgf(game)
    note(text)
    record = load_record(text)
    again = record.game
    assert again.size == game.size and again.komi == game.komi
    assert again.rules == game.rules
    assert again.handicap == game.handicap and set(again.handicap_stones) == set(game.handicap_stones)
    assert [(m.color, m.point) for m in again.moves] == [(m.color, m.point) for m in game.moves]
    assert again.board.colors == game.board.colors
    assert again.prisoners == game.prisoners
    assert again.result == game.result
    assert again.end_reason == game.end_reason
    if game.phase == "finished":
        assert again.phase == "finished" and again.dead == game.dead
    elif game.events and game.events[-1].kind == "resume":
        # SGF has no property for a resumption that no move or setup followed: the record ends in the
        # dead-stone phase (documented in docs/records-and-cli.md).
        assert again.phase == "scoring"
    else:
        assert again.phase == game.phase
    assert record.warnings == []
    assert dump_sgf(record) == text
