"""Bad input of every kind: illegal moves, coordinates off the board, unknown rulesets and parameters, handicaps
that do not fit, actions in the wrong phase. Each raises a clear error that names what was wrong, and the game
is exactly as it was before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import keima
from keima.rules.board import BLACK, WHITE
from keima.rules.ruleset import get_ruleset

from .diagram import setup_game


def snapshot(game: keima.Game) -> tuple[object, ...]:
    return (
        list(game.board.colors),
        game.board.hash,
        game.to_move,
        game.phase,
        dict(game.prisoners),
        dict(game.pass_count),
        game.consecutive_passes,
        len(game.moves),
        [e.to_dict() for e in game.events],
        game.result,
        game.dead,
        game.accepted,
        game.komi,
        game.handicap_stones,
    )


def refuses(game: keima.Game, action: Callable[[], Any], error: type[Exception], *words: str) -> Exception:
    """Run ``action``; assert it raises ``error`` whose message contains every one of ``words`` (case-blind),
    and that the game is unchanged and still consistent. Return the exception."""
    before = snapshot(game)
    with pytest.raises(error) as info:
        action()
    message = str(info.value).lower()
    for w in words:
        assert w.lower() in message, f"{message!r} does not name {w!r}"
    assert snapshot(game) == before
    game.check_consistency()
    return info.value


def midgame() -> keima.Game:
    """A 9x9 game a few moves in, with a capture and a ko: Black has just taken the ko at E5."""
    game, _ = setup_game(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X O . . . .
        . . X O . O . . .
        . . . X O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    game.play("A1")
    game.play("J1")
    game.play("E5")  # Black takes the white stone at D5: a ko
    return game


# ---------------------------------------------------------------- illegal moves
def test_occupied() -> None:
    game = midgame()
    e = refuses(game, lambda: game.play("E5"), keima.IllegalMove, "E5")
    assert isinstance(e, keima.IllegalMove) and e.reason == "occupied"
    assert e.color == WHITE


def test_ko() -> None:
    game = midgame()
    e = refuses(game, lambda: game.play("D5"), keima.IllegalMove, "D5")
    assert isinstance(e, keima.IllegalMove) and e.reason in ("ko", "superko")
    assert "ko" in str(e).lower()


def test_suicide_message_names_the_rule() -> None:
    game, _ = setup_game("X.X\n.X.\n...")
    game.play(None)
    e = refuses(game, lambda: game.play("B3"), keima.IllegalMove, "B3", "suicide")
    assert isinstance(e, keima.IllegalMove) and e.reason == "suicide"


def test_wrong_turn() -> None:
    game = keima.Game(size=9)
    e = refuses(game, lambda: game.play("E5", WHITE), keima.IllegalMove)
    assert isinstance(e, keima.IllegalMove) and e.reason == "wrong-turn"
    # GTP's play may place a stone out of turn on purpose.
    game.play("E5", WHITE, allow_out_of_turn=True)
    assert game.board.colors[4 * 9 + 4] == WHITE


@pytest.mark.parametrize("move", ["Z9", "A10", "K1", "I5", "A0", "J", "55", "D-4", 81, -1, 1000])
def test_off_board(move: str | int) -> None:
    game = midgame()
    e = refuses(game, lambda: game.play(move), ValueError)
    if isinstance(e, keima.IllegalMove):
        assert e.reason == "off-board"
    assert str(move) in str(e) or repr(move) in str(e)
    assert game.legality(move) is not None


@pytest.mark.parametrize("move", [1.5, True, ("D", 4), ["D4"], b"D4"])
def test_move_of_the_wrong_type(move: object) -> None:
    game = midgame()
    refuses(game, lambda: game.play(move), ValueError)  # type: ignore[arg-type]


@pytest.mark.parametrize("color", ["green", 0, 3, "", True, 1.0])
def test_bad_colour(color: object) -> None:
    game = midgame()
    e = refuses(game, lambda: game.play("A9", color), keima.GameError, "colour")  # type: ignore[arg-type]
    assert isinstance(e, keima.GameError) and e.reason == "bad-color"
    assert repr(color) in str(e)


def test_no_colour_means_the_player_to_move() -> None:
    game = midgame()
    mover = game.to_move
    record = game.play("A9", None)
    assert record.color == mover
    assert game.board.colors[0] == mover
    assert game.to_move == 3 - mover


# ---------------------------------------------------------------- rulesets and game settings
@pytest.mark.parametrize("name", ["klingon", "", "french2", "japanese-ish"])
def test_unknown_ruleset_name(name: str) -> None:
    with pytest.raises(keima.RulesError) as info:
        keima.Game(size=9, rules=name)
    assert repr(name) in str(info.value) or name in str(info.value)


@pytest.mark.parametrize("name", ["French", "FRENCH", "nz", "tromp_taylor", "Tromp-Taylor", "new zealand"])
def test_ruleset_spellings(name: str) -> None:
    assert keima.Game(size=9, rules=name).rules.name in keima.PRESETS


def test_unknown_ruleset_parameter() -> None:
    with pytest.raises(keima.RulesError) as info:
        get_ruleset("french", kou="simple")
    assert "kou" in str(info.value)


@pytest.mark.parametrize(
    ("field", "value"),
    [("ko", "super"), ("suicide", "sometimes"), ("scoring", "stones"), ("default_komi", "six"),
     ("default_komi", 6.3), ("seki_eyes_count", "yes"), ("handicap_bonus", "n+1")],
)  # fmt: skip
def test_bad_ruleset_value(field: str, value: object) -> None:
    with pytest.raises(keima.RulesError) as info:
        get_ruleset("french", **{field: value})
    assert field in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"size": 1}, "size"),
        ({"size": 26}, "size"),
        ({"size": "19"}, "size"),
        ({"size": 9, "handicap": 10}, "handicap"),
        ({"size": 9, "handicap": -1}, "handicap"),
        ({"size": 9, "handicap": "2"}, "handicap"),
        ({"size": 5, "handicap": 2}, "handicap"),  # no fixed handicap points on 5x5
        ({"size": 8, "handicap": 5}, "handicap"),  # even boards: 4 fixed points at most
        ({"size": 2, "handicap": 4, "placement": "free"}, "handicap"),  # 4 stones leave no point for White
        ({"size": 9, "komi": "seven"}, "komi"),
        ({"size": 9, "komi": float("nan")}, "komi"),
        ({"size": 9, "handicap": 2, "placement": "sideways"}, "placement"),
        ({"size": 9, "rules": "japanese", "handicap": 2, "placement": "free"}, "free"),
    ],
)
def test_bad_game_settings(kwargs: dict[str, Any], word: str) -> None:
    with pytest.raises(keima.RulesError) as info:
        keima.Game(**kwargs)
    assert word in str(info.value).lower()


# ---------------------------------------------------------------- actions in the wrong phase
def test_scoring_actions_during_play() -> None:
    game = midgame()
    refuses(game, lambda: game.accept(BLACK), keima.GameError, "phase")
    refuses(game, lambda: game.toggle_dead("E5"), keima.GameError, "phase")
    refuses(game, lambda: game.set_dead(["E5"]), keima.GameError, "phase")
    refuses(game, lambda: game.resume(WHITE), keima.GameError, "phase")


def test_moves_during_scoring() -> None:
    game = midgame()
    game.play(None)
    game.play(None)
    assert game.phase == "scoring"
    e = refuses(game, lambda: game.play("A9"), keima.IllegalMove)
    assert isinstance(e, keima.IllegalMove) and e.reason == "wrong-phase"
    e = refuses(game, lambda: game.play(None), keima.IllegalMove)
    assert isinstance(e, keima.IllegalMove) and e.reason == "wrong-phase"
    assert game.legality("A9") == "wrong-phase"
    assert game.legal_moves() == []
    refuses(game, lambda: game.toggle_dead("A8"), keima.GameError, "A8")  # empty point: no chain to mark
    refuses(game, lambda: game.score(dead=["A8"]), keima.GameError, "A8")


def test_everything_after_the_end() -> None:
    game = midgame()
    game.resign(WHITE)
    assert game.phase == "finished"
    assert game.result == "B+R"
    e = refuses(game, lambda: game.play("A9"), keima.IllegalMove)
    assert isinstance(e, keima.IllegalMove) and e.reason == "wrong-phase"
    refuses(game, lambda: game.resign(BLACK), keima.GameError)
    refuses(game, lambda: game.timeout(BLACK), keima.GameError)
    refuses(game, lambda: game.accept(BLACK), keima.GameError)
    refuses(game, lambda: game.declare_no_result(), keima.GameError)


def test_handicap_placement_errors() -> None:
    game = keima.Game(size=9, handicap=3, placement="free")
    assert game.phase == "handicap"
    e = refuses(game, lambda: game.play("E5", WHITE, allow_out_of_turn=True), keima.IllegalMove)
    assert isinstance(e, keima.IllegalMove)
    refuses(game, lambda: game.place_handicap(["C3", "G7"]), keima.GameError, "3")  # too few
    refuses(game, lambda: game.place_handicap(["C3", "C3", "G7"]), ValueError, "C3")  # twice
    refuses(game, lambda: game.place_handicap(["C3", "G7", "Z9"]), ValueError, "Z9")  # off the board
    refuses(game, lambda: game.place_handicap(["C3", "G7", None]), ValueError)  # a pass is no stone
    game.place_handicap(["C3", "G7", "E5"])
    assert game.phase == "play"
    assert game.to_move == WHITE
    refuses(game, lambda: game.place_handicap(["C7"]), keima.GameError)


def test_undo_with_nothing_to_undo() -> None:
    game = keima.Game(size=9)
    refuses(game, game.undo, keima.GameError)


def test_setup_errors() -> None:
    game = midgame()
    refuses(game, lambda: game.setup(black=["A9"], white=["A9"]), keima.GameError, "A9")
    # A white stone at B9 would be a chain without liberties among these black stones.
    refuses(game, lambda: game.setup(black=["A9", "C9", "B8"], white=["B9"]), keima.GameError, "B9")
    refuses(game, lambda: game.setup(black=["Z1"]), ValueError, "Z1")


def test_event_from_dict_errors() -> None:
    bads: list[Any] = [{}, {"kind": 3}, {"kind": "move", "point": "D4"}, {"kind": "move", "colour": 1}, []]
    for bad in bads:
        with pytest.raises(keima.GameError):
            keima.Event.from_dict(bad)


def test_replay_names_the_first_bad_event() -> None:
    game = keima.Game(size=9)
    game.play("E5")
    game.play("D5")
    events = [e.to_dict() for e in game.events]
    events.append({"kind": "move", "color": BLACK, "point": 4 * 9 + 4})  # E5 again: occupied
    with pytest.raises(keima.IllegalMove) as info:
        keima.Game.replay(events, size=9)
    assert info.value.reason == "occupied"
    assert f"event {len(events) - 1}" in str(info.value)
    with pytest.raises(keima.GameError) as info2:
        keima.Game.replay([*events[:2], {"kind": "accept", "color": WHITE}], size=9)
    assert "event 2" in str(info2.value)


def test_setup_outside_play() -> None:
    game = midgame()
    game.play(None)
    game.play(None)
    refuses(game, lambda: game.setup(black=["A9"]), keima.GameError, "phase")


def test_marking_errors_in_the_scoring_phase() -> None:
    game = midgame()
    game.play(None)
    game.play(None)
    refuses(game, lambda: game.set_dead(["E5", "A8"]), keima.GameError, "A8")  # A8 is empty
    refuses(game, lambda: game.set_dead(["Z9"]), ValueError, "Z9")
    refuses(game, lambda: game.toggle_dead(None), ValueError)
    refuses(game, lambda: game.accept("purple"), ValueError)
