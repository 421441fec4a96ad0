"""Repetition rules (docs/rules.md): the positions that separate simple ko and the three superko rules.

The three positions (send-two-return-one on 6x5, a pass in between on 6x3, triple ko on 7x6) are those of KataGo's
public rules tests (``cpp/tests/testrules.cpp``), redrawn here (``X`` black, ``O`` white); coordinates in this file
are ``(x, y)`` from the top-left corner (``x`` = column). keima boards are square, so each is set in the top-left
corner of a square board whose extra rows are empty and far from the fight (they only add liberties to chains that
are never captured). Every expected verdict is also checked against the naive reference referee in
``reference.py``, so a wrong reading of a rule shows up there.

Where a sequence must not depend on who "created" the set-up position (natural-situational superko only forbids
recreating a board that the same player made by a board play, and set-up stones were placed by nobody), it
starts with one black and one white stone in the empty extra rows, so that the position before the fight was
made by a real White move.
"""

from __future__ import annotations

import pytest

import keima
from keima.rules.board import BLACK, EMPTY, WHITE
from keima.rules.ruleset import get_ruleset

from .diagram import board_colors, parse, setup_game
from .reference import RefGame

KO_RULES = ["simple", "positional", "situational", "natural-situational"]
Move = tuple[int, int] | None

SEND_TWO = """
.O.XXO
OXXXO.
O.X.OO
XX.OO.
OOOO.O
......
"""
PASS_BETWEEN = """
.OXO.X
OXXOOO
XX....
......
......
......
"""
TRIPLE_KO = """
OOOOOOO
OXO.O.O
X.XOXOX
XXXXXXX
OOOOOOO
.......
.......
"""


def pt(xy: tuple[int, int], size: int) -> int:
    """Return the point of ``(x, y)`` counted from the top-left corner."""
    x, y = xy
    return y * size + x


def rules_with(base: str, ko: str) -> keima.Ruleset:
    return get_ruleset(base, ko=ko)


def reference_for(diagram: str, ko: str, multi_stone: bool) -> RefGame:
    pos = parse(diagram)
    return RefGame(pos.size, ko, multi_stone, pos.colors())


def play_seq(game: keima.Game, ref: RefGame, moves: list[Move]) -> None:
    """Play ``moves`` on both the game and the reference, asserting each is legal on both."""
    for m in moves:
        p = None if m is None else pt(m, game.size)
        if p is not None:
            assert ref.legality(p) is None, f"reference refuses {m}: the test sequence is wrong"
        game.play(p)
        ref.play(p)
        assert board_colors(game) == ref.colors


def verdict(game: keima.Game, ref: RefGame, m: tuple[int, int]) -> str | None:
    """Return keima's reason for refusing ``m`` (None = legal), after checking it agrees with ``play`` and
    leaves the game unchanged, and that the reference gives the same verdict (legal or not)."""
    p = pt(m, game.size)
    reason = game.legality(p)
    before = (board_colors(game), game.to_move, len(game.moves), game.board.hash)
    if reason is not None:
        with pytest.raises(keima.IllegalMove) as info:
            game.play(p)
        assert info.value.reason == reason
        assert (board_colors(game), game.to_move, len(game.moves), game.board.hash) == before
    ref_reason = ref.legality(p)
    assert (reason is None) == (ref_reason is None), f"{m}: keima says {reason}, reference says {ref_reason}"
    return reason


def superko_reason(ko: str, reason: str | None) -> bool:
    """A repetition refusal: ``ko`` under the simple rule, ``ko`` or ``superko`` under a superko rule."""
    if ko == "simple":
        return reason == "ko"
    return reason in ("ko", "superko")


# Send-two-return-one (6x5 position and sequence idea from KataGo's testrules.cpp).
# After the prefix B(2,5) W(4,5) (extra row), Black takes the ko at (5,1); White's immediate retake at (5,0)
# is illegal under every rule. White passes, Black fills (3,2), White sends two at (2,0), Black takes two at
# (0,0): White's return of one at (1,0) recreates the board after Black's (3,2), a board Black made with White
# to move. Then White retakes the ko at (5,0) instead, Black passes, White returns one at (1,0), Black passes,
# White sends two again: Black's take at (0,0) now recreates the board White made with (5,0), which also stood
# with White to move after Black's pass.
SEND_TWO_EXPECTED: dict[str, dict[str, bool]] = {
    # rule: {check name: legal?}
    "simple": {"retake": False, "return": True, "take-again": True},
    "positional": {"retake": False, "return": False, "take-again": False},
    "situational": {"retake": False, "return": True, "take-again": False},
    # The board that Black's second take recreates was made by White's board play, not by Black's.
    "natural-situational": {"retake": False, "return": True, "take-again": True},
}


@pytest.mark.parametrize("ko", KO_RULES)
def test_send_two_return_one(ko: str) -> None:
    game, _ = setup_game(SEND_TWO, rules=rules_with("french", ko))
    ref = reference_for(SEND_TWO, ko, multi_stone=False)
    expected = SEND_TWO_EXPECTED[ko]

    play_seq(game, ref, [(2, 5), (4, 5), (5, 1)])
    assert game.prisoners[BLACK] == 1
    r = verdict(game, ref, (5, 0))
    assert superko_reason(ko, r), f"White's immediate retake must be refused under {ko}, got {r}"

    play_seq(game, ref, [None, (3, 2), (2, 0), (0, 0)])
    assert game.prisoners[BLACK] == 3
    r = verdict(game, ref, (1, 0))
    assert (r is None) == expected["return"], f"return-one under {ko}: {r}"
    if r is not None:
        assert superko_reason(ko, r)

    play_seq(game, ref, [(5, 0), None, (1, 0), None, (2, 0)])
    r = verdict(game, ref, (0, 0))
    assert (r is None) == expected["take-again"], f"second take of two under {ko}: {r}"
    if r is not None:
        assert r == "superko"


@pytest.mark.parametrize("ko", KO_RULES)
def test_send_two_return_one_from_setup(ko: str) -> None:
    """Straight from the set-up position: Black (5,1) takes a ko and White's immediate retake at (5,0) is
    illegal under every ko rule; then White (2,0) sends two, Black (0,0) takes two, White (1,0) returns one:
    illegal under positional, legal under situational.

    Under natural-situational superko this needs the set-up position to count as given to the board by White
    too (nobody placed its stones by a board play); the FFG rules (« Répétition », diagrams 10-11) and the
    Japanese 1989 rules (art. 6) forbid the immediate retake of a ko without any condition."""
    game, _ = setup_game(SEND_TWO, rules=rules_with("french", ko))
    ref = reference_for(SEND_TWO, ko, multi_stone=False)
    play_seq(game, ref, [(5, 1)])
    assert verdict(game, ref, (5, 0)) is not None
    play_seq(game, ref, [(2, 0), (0, 0)])
    r = verdict(game, ref, (1, 0))
    if ko == "positional":
        assert r == "superko"
    else:
        assert r is None, f"{ko}: the return of one stone is legal, got {r}"


# Pass in between (6x3 position of KataGo's testrules.cpp, suicide allowed). Prefix B(0,5) W(5,5) so that White made
# the position. Black (4,0) is a two-stone suicide, White passes, Black (5,0) recreates the position White made
# (with Black to move then, White to move now).
PASS_BETWEEN_EXPECTED = {
    "simple": True,
    "positional": False,
    "situational": True,
    "natural-situational": True,
}


@pytest.mark.parametrize("ko", KO_RULES)
def test_pass_in_between(ko: str) -> None:
    game, _ = setup_game(PASS_BETWEEN, rules=rules_with("egc2011", ko))
    ref = reference_for(PASS_BETWEEN, ko, multi_stone=True)
    play_seq(game, ref, [(0, 5), (5, 5)])
    play_seq(game, ref, [(4, 0)])
    # The two black stones (4,0) and (5,0) left the board: a suicide, and White's prisoners.
    size = game.size
    assert game.board.colors[pt((4, 0), size)] == EMPTY
    assert game.board.colors[pt((5, 0), size)] == EMPTY
    assert game.prisoners[WHITE] == 2
    play_seq(game, ref, [None])
    r = verdict(game, ref, (5, 0))
    assert (r is None) == PASS_BETWEEN_EXPECTED[ko], f"{ko}: {r}"
    if r is not None:
        assert r == "superko"


def test_pass_in_between_suicide_forbidden() -> None:
    """Under the French rules the two-stone suicide that starts the cycle is itself illegal."""
    game, _ = setup_game(PASS_BETWEEN, rules="french")
    ref = reference_for(PASS_BETWEEN, "natural-situational", multi_stone=False)
    assert verdict(game, ref, (4, 0)) == "suicide"


TRIPLE_CYCLE: list[Move] = [(3, 1), (1, 2), (5, 1), (3, 2), (1, 1), (5, 2)]


@pytest.mark.parametrize(
    ("ko", "first_illegal"),
    [
        ("simple", None),
        ("positional", 6),
        ("situational", 6),
        # The set-up position (Black to move) counts as given to the board by White, as if White had just
        # played (see the send-two test above): White's 6th move may not recreate it.
        ("natural-situational", 6),
    ],
)
def test_triple_ko_from_setup(ko: str, first_illegal: int | None) -> None:
    game, _ = setup_game(TRIPLE_KO, rules=rules_with("french", ko))
    ref = reference_for(TRIPLE_KO, ko, multi_stone=False)
    for i, m in enumerate(TRIPLE_CYCLE * 2, start=1):
        assert m is not None
        r = verdict(game, ref, m)
        if first_illegal is not None and i == first_illegal:
            assert r == "superko", f"move {i} {m} under {ko}: {r}"
            return
        assert r is None, f"move {i} {m} under {ko} must be legal: {r}"
        play_seq(game, ref, [m])
    assert first_illegal is None


@pytest.mark.parametrize("ko", ["positional", "situational", "natural-situational"])
def test_triple_ko_after_real_moves(ko: str) -> None:
    """With the starting position made by White's board play, every superko rule forbids the 6th move."""
    game, _ = setup_game(TRIPLE_KO, rules=rules_with("french", ko))
    ref = reference_for(TRIPLE_KO, ko, multi_stone=False)
    play_seq(game, ref, [(0, 6), (6, 6)])
    play_seq(game, ref, TRIPLE_CYCLE[:5])
    last = TRIPLE_CYCLE[5]
    assert last is not None
    assert verdict(game, ref, last) == "superko"


def test_triple_ko_japanese_no_result() -> None:
    """Simple ko lets the triple ko cycle; the Japanese preset ends the game without result when the same
    board with the same player to move comes back for the third time (after two full cycles)."""
    game, _ = setup_game(TRIPLE_KO, rules="japanese")
    ref = reference_for(TRIPLE_KO, "simple", multi_stone=False)
    play_seq(game, ref, [(0, 6), (6, 6)])
    cycle = TRIPLE_CYCLE * 2
    for i, m in enumerate(cycle, start=1):
        assert game.phase == "play", f"the game ended early, after cycle move {i - 1}"
        play_seq(game, ref, [m])
    assert game.phase == "finished"
    assert game.result == "Void"


def test_triple_ko_simple_rule_keeps_playing() -> None:
    """Without the no-result clause, simple ko lets the cycle go on for ever."""
    game, _ = setup_game(TRIPLE_KO, rules=get_ruleset("japanese", cycle_no_result=False))
    ref = reference_for(TRIPLE_KO, "simple", multi_stone=False)
    play_seq(game, ref, TRIPLE_CYCLE * 4)
    assert game.phase == "play"
    assert game.result is None
