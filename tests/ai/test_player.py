"""Behaviour of the computer player: legal moves under every ruleset, odd positions, time budgets, the end of the
game, resignation and the dead-stone phase. Budgets are tiny so that the whole file stays fast."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from keima.ai import LEVELS, estimate_dead, make_player
from keima.ai import fastboard as fb
from keima.ai.player import Player, level_name
from keima.ai.search import F_VIS, T_FIRST, T_MOVE, T_NCHILD
from keima.rules import PRESETS, Game, GameError, from_gtp, get_ruleset


def _rows(game: Game, rows: list[str]) -> None:
    """Set up a position from an ASCII diagram (``X`` black, ``O`` white, ``.`` empty; row 0 at the top)."""
    n = game.size
    black = [r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X"]
    white = [r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "O"]
    game.setup(black=black, white=white)


def _check_move(game: Game, move: object, color: int) -> None:
    assert move is None or move == "resign" or (isinstance(move, int) and game.legality(move, color) is None)


def test_levels_and_bad_level() -> None:
    assert LEVELS[:3] == ("beginner", "intermediate", "strong")
    assert [make_player(i).level for i in (1, 2, 3)] == list(LEVELS[:3])
    assert level_name(" Strong ") == "strong"
    assert level_name("15K") == "15k"
    for bad in ("grandmaster", 0, 4, True, 2.5):
        with pytest.raises(ValueError, match="unknown bot level"):
            make_player(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_plays_only_legal_moves_under_every_ruleset(rules: str) -> None:
    """Short bot-vs-bot games on 5x5: every move is legal for the referee, under each preset."""
    rng = random.Random(rules)
    game = Game(5, rules=rules)
    players = {1: make_player("strong", seed=1), 2: make_player("beginner", seed=2)}
    for _ in range(60):
        if game.phase != "play":
            break
        color = game.to_move
        move = players[color].genmove(game, color, seconds=rng.choice([0.0, 0.02, 0.05]))
        _check_move(game, move, color)
        if move == "resign":
            game.resign(color)
            break
        game.play(move)
    assert game.move_number > 0


def test_superko_is_respected_on_tiny_boards() -> None:
    """On 2x2 and 3x3 boards whole-board repetitions are everywhere: the bot must never recreate a position
    that positional or natural-situational superko forbids (its own board knows only simple ko)."""
    for rules in ("tromp-taylor", "french", "aga", "japanese"):
        for n in (2, 3):
            game = Game(n, rules=get_ruleset(rules, cycle_no_result=False))
            player = make_player("strong", seed=3)
            for _ in range(40):
                if game.phase != "play":
                    break
                color = game.to_move
                move = player.genmove(game, color, seconds=0.01)
                _check_move(game, move, color)
                if move == "resign":
                    break
                game.play(move)


def test_superko_forbidden_recapture_is_never_chosen() -> None:
    """Positional superko: after Black's capture in the send-two-return-one shape, positions where White's only
    good-looking capture repeats the board are refused by the referee, so the bot answers something else."""
    game = Game(4, rules="tromp-taylor")
    #  . X O .
    #  X O . O
    #  . X O .
    #  . . . .
    _rows(game, [".XO.", "XO.O", ".XO.", "...."])
    game.play(from_gtp("C3", 4), 1)  # Black captures the ko stone at B3
    assert game.legality(from_gtp("B3", 4), 2) is not None  # the immediate recapture is forbidden
    player = make_player("strong", seed=5)
    for seconds in (0.0, 0.05, 0.2):
        move = player.genmove(game, 2, seconds=seconds)
        _check_move(game, move, 2)
        assert move != from_gtp("B3", 4)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 8, 11, 15, 19, 21, 25])
def test_every_board_size_and_zero_budget(n: int) -> None:
    game = Game(n)
    player = make_player("strong", seed=n)
    rng = random.Random(n)
    for i in range(6):
        if game.phase != "play":
            break
        color = game.to_move
        move = player.genmove(game, color, seconds=0.0 if i % 2 else 0.01)
        _check_move(game, move, color)
        if move == "resign":
            break
        if move is None and rng.random() < 0.5:
            legal = game.legal_moves()
            move = rng.choice(legal) if legal else None
        game.play(move)


def test_handicap_free_placement_and_fixed() -> None:
    game = Game(9, handicap=3, placement="free", rules="chinese")
    player = make_player("intermediate", seed=1)
    while game.phase == "handicap":
        move = player.genmove(game, 1)
        assert isinstance(move, int) and game.legality(move, 1) is None
        game.play(move)
    assert len(game.handicap_stones) == 3 or game.board.count(1) == 3
    move = player.genmove(game, game.to_move, seconds=0.05)
    _check_move(game, move, game.to_move)
    fixed = Game(9, handicap=4)
    move = player.genmove(fixed, fixed.to_move, seconds=0.05)
    _check_move(fixed, move, fixed.to_move)


def test_setup_position_out_of_turn_and_other_phases() -> None:
    game = Game(7)
    _rows(game, ["..XO...", ".XXO...", "XXOO...", "OO.....", ".......", ".......", "......."])
    player = make_player("strong", seed=2)
    for color in (1, 2):  # out of turn as GTP's genmove may ask
        move = player.genmove(game, color, seconds=0.02)
        assert move is None or move == "resign" or game.legality(move, color, allow_out_of_turn=True) is None
    game.pass_move()
    game.pass_move()
    assert game.phase == "scoring"
    assert player.genmove(game, 1, seconds=0.02) is None


DEAD_WHITE = [
    # A lone white stone deep in Black's area on 7x7; both sides otherwise settled.
    "...X.O.",
    ".O.X.O.",
    "...X.O.",
    "XXXXOO.",
    "...XO..",
    "...XO..",
    "...XO..",
]


def test_estimator_finds_dead_stone_and_respects_benson() -> None:
    game = Game(7, komi=0.5)
    _rows(game, DEAD_WHITE)
    dead = estimate_dead(game, seed=1)
    assert from_gtp("B6", 7) in dead
    # Unconditionally alive black stones (two real eyes) are never dead.
    alive = Game(5, komi=0.5)
    _rows(alive, ["X.XO.", "XXXO.", ".XXOO", "XX.XO", ".X.XO"])
    dead2 = estimate_dead(alive, seed=2)
    assert from_gtp("A5", 5) not in dead2


def test_dead_stone_phase_propose_accept_and_play_on() -> None:
    game = Game(7, komi=0.5)
    _rows(game, DEAD_WHITE)
    game.pass_move(1)
    game.pass_move(2)
    assert game.phase == "scoring"
    bot = make_player("strong", seed=7)
    claim = bot.propose_dead(game)
    assert from_gtp("B6", 7) in claim
    game.set_dead(claim, 1)
    assert bot.accepts(game)
    game.set_dead([], 2)  # the opponent says nothing is dead: the bot does not accept that
    assert not bot.accepts(game)
    bot.propose_dead(game)
    game.resume(2)
    # Play on: the bot (Black) must capture the stone it claimed dead, never passing while it stands.
    for _ in range(12):
        if game.board.get(from_gtp("B6", 7)) != 2:
            break
        if game.to_move == 1:
            move = bot.genmove(game, 1, seconds=0.05)
            assert isinstance(move, int), "the bot passed while its claimed dead stone stood"
            game.play(move)
        else:
            game.pass_move()
    assert game.board.get(from_gtp("B6", 7)) != 2


def test_never_resigns_itself_in_a_hopeless_game() -> None:
    """Resigning is the seat's decision (tests/seat/test_seat.py): the bot alone, even with White unable to live
    anywhere, answers a legal move or a pass."""
    game = Game(7, komi=0.5)
    _rows(game, [
        "XXXXXXX",
        "X.X.X.X",
        "XXXXXXX",
        ".......",
        "XXXXXXX",
        "X.X.X.X",
        "XXXXXXX",
    ])
    game.setup(to_move=2)
    for level in ("strong", "beginner"):
        player = make_player(level, seed=8)
        # A fixed playout count, not a time, so that a loaded machine gives the same answer.
        player.config = dataclasses.replace(player.config, playouts=800)
        move = player.genmove(game, 2, seconds=60.0)
        assert move is None or (isinstance(move, int) and game.legality(move, 2) is None), move
        if level == "strong":
            # The search sees the game as lost (the seat, judging such verdicts over several moves, resigns).
            assert player.last_result is not None and player.last_result.winrate < 0.15


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=9),
    stones=st.lists(st.tuples(st.integers(min_value=0, max_value=80), st.sampled_from([1, 2])), max_size=40),
    rules=st.sampled_from(sorted(PRESETS)),
    to_move=st.sampled_from([1, 2]),
)
def test_any_setup_position_gets_a_legal_answer(n: int, stones: list[tuple[int, int]], rules: str,
                                                to_move: int) -> None:
    """Whatever position the referee accepts as setup, both colours get a legal move (or a pass) at once."""
    game = Game(n, rules=rules)
    placed: dict[int, int] = {}
    for p, c in stones:
        if p < n * n:
            placed[p] = c
    try:
        game.setup(black=[p for p, c in placed.items() if c == 1], white=[p for p, c in placed.items() if c == 2],
                   to_move=to_move)
    except GameError:
        assume(False)
    player = make_player("strong", seed=0)
    for color in (to_move, 3 - to_move):
        move = player.genmove(game, color, seconds=0.0)
        assert move is None or move == "resign" or game.legality(
            move, color, allow_out_of_turn=color != game.to_move) is None


def test_odd_time_budgets_still_answer() -> None:
    game = Game(5)
    player = make_player("intermediate", seed=9)
    for seconds in (-1.0, float("nan"), float("inf"), 0.0):
        move = player.genmove(game, 1, seconds=seconds)
        _check_move(game, move, 1)


def _fixed(level: str, playouts: int, seed: int) -> Player:
    """A player limited by a playout count rather than time, so that a loaded machine gives the same answer."""
    player = make_player(level, seed=seed)
    player.config = dataclasses.replace(player.config, playouts=playouts)
    return player


def test_search_finds_the_centre_on_3x3() -> None:
    """On 3x3 the centre is Black's only first move that wins the whole board (a known solved result), so with
    komi 8.5 it is the only winning move; the bot must play it, not pass on a board it expects to own."""
    game = Game(3, komi=8.5)
    assert _fixed("strong", 3000, 11).genmove(game, 1, seconds=60.0) == from_gtp("B2", 3)


def test_tree_is_reused_two_plies_later() -> None:
    game = Game(9)
    player = _fixed("strong", 3000, 13)
    move = player.genmove(game, 1, seconds=60.0)
    assert isinstance(move, int)
    searcher = player._searcher
    ti, tf = searcher.ti, searcher.tf
    # White answers with its most visited reply in Black's tree, so that the node is expanded.
    first, count = int(ti[T_FIRST, 0]), int(ti[T_NCHILD, 0])
    node = next(i for i in range(first, first + count) if ti[T_MOVE, i] == fb.to_fast(move, 9))
    first, count = int(ti[T_FIRST, node]), int(ti[T_NCHILD, node])
    assert count > 0
    reply = max(range(first, first + count), key=lambda i: tf[F_VIS, i])
    assert ti[T_MOVE, reply] != fb.PASS
    game.play(move)
    game.play(fb.from_fast(int(ti[T_MOVE, reply]), 9))
    visits_before = float(tf[F_VIS, reply])
    player.genmove(game.copy(), 1, seconds=60.0)
    assert searcher._root == reply
    assert tf[F_VIS, reply] > visits_before  # the new search added to the reused statistics


def test_a_dead_stone_claim_does_not_follow_into_a_new_game() -> None:
    game = Game(7, komi=0.5)
    _rows(game, DEAD_WHITE)
    game.pass_move(1)
    game.pass_move(2)
    bot = make_player("strong", seed=15)
    assert bot.propose_dead(game)
    fresh = Game(7, komi=0.5)
    _rows(fresh, DEAD_WHITE)  # same stones, but a new game with no moves: the old claim must not bind
    assert bot._claim_targets(fresh, list(fresh.board.colors), 1) == set()
    assert isinstance(bot.genmove(fresh, 1, seconds=0.05), int | None)


def test_ownership_estimate() -> None:
    from keima.ai import estimate_ownership

    game = Game(7, komi=0.5)
    _rows(game, DEAD_WHITE)
    own = estimate_ownership(game, seed=2)
    assert len(own) == 49 and all(-1.0 <= x <= 1.0 for x in own)
    assert own[from_gtp("B6", 7)] > 0.5  # the dead white stone's point ends Black's
    assert own[from_gtp("G1", 7)] < -0.5  # White's corner


def test_estimator_leaves_a_seki_alive() -> None:
    """Each side has one eye and they share two liberties: a seki. Nothing is dead (the seki veto of
    ``keima.rules.life`` holds even when random playouts break the seki)."""
    game = Game(5, komi=0.5)
    _rows(game, [
        ".XOO.",
        "XXOOO",
        "XX.OO",
        "XXX.O",
        "XXXOO",
    ])
    assert estimate_dead(game, seed=4) == frozenset()


def test_estimator_loses_no_capturing_race_to_the_seki_test() -> None:
    """Final position of a game against GNU Go (9x9 match, game 22): Black's chain F8-F7-G7-H7-J7-H6 has two
    liberties (H8, J6) and cannot make more; with Black's dead stones on the right removed, White kills it. A
    shape-based seki test once called it seki; the playouts capture it nearly always, and it is dead (GNU Go
    agrees)."""
    game = Game(9, komi=7.5)
    _rows(game, [
        "...XOOOO.",
        "...XOXO.O",
        "...XOXXXX",
        "XX.XXOOX.",
        "X.XXXO.OX",
        ".XXXO.OOX",
        "XX.XOOOOX",
        ".XXOO.XOX",
        "X.XXOX.X.",
    ])
    dead = estimate_dead(game, seed=1)
    for vertex in ("F8", "F7", "G7", "H7", "J7", "H6", "J5", "J2", "H1"):
        assert from_gtp(vertex, 9) in dead
    assert from_gtp("D9", 9) not in dead and from_gtp("E9", 9) not in dead


@pytest.mark.parametrize(("size", "handicap", "moves", "color", "expected"), [
    (19, 0, 0, 2, 0.0),  # an even game: no extra komi
    (19, 3, 0, 1, 0.0),  # Black, who took the stones, searches the true count
    (19, 3, 0, 2, 24.0),  # White at the start: 8 points a stone
    (19, 3, 100, 2, 12.0),  # half way to move 200
    (19, 3, 200, 2, 0.0),  # run out
    (19, 3, 250, 2, 0.0),  # never negative
    (19, 9, 50, 2, 54.0),
    (9, 2, 0, 2, 16.0),  # a stone is worth as much on a small board ...
    (9, 2, 20, 2, 16.0 * (1 - 20 / (200 * 81 / 361))),
    (9, 2, 45, 2, 0.0),  # ... but the game is shorter: run out at move 200 x 81 / 361 = 44.9
])
def test_dynamic_komi_of_a_handicap_game(size: int, handicap: int, moves: int, color: int, expected: float) -> None:
    from keima.ai.searcher import handicap_komi

    game = Game(size, handicap=handicap, rules="french")
    rng = random.Random(moves)
    while game.move_number < moves:
        game.play(rng.choice(game.legal_moves()))
    assert handicap_komi(game, color) == pytest.approx(expected)


def test_extra_komi_moves_the_win_rate_but_not_the_reported_score() -> None:
    """White's search with extra komi finds its moves more often winning (the playouts are counted with it),
    while the score it reports is still the true count's: extra komi shifts what the search aims for, not what
    the bot tells its user."""
    from keima.ai.searcher import Searcher

    game = Game(9, handicap=2, rules="french")
    plain = Searcher(1 << 16, seed=5).search(game, 2, None, 3000)
    extra = Searcher(1 << 16, seed=5).search(game, 2, None, 3000, extra_komi=20.0)
    # 20 points on 9x9 move the win rate by 0.18 to 0.25 over seeds 5-7 (3,000 playouts): well clear of noise.
    assert extra.winrate > plain.winrate + 0.15
    assert abs(extra.score - plain.score) < 5.0  # both Black's mean margin with the true komi (20 points apart else)


def test_the_player_searches_a_handicap_game_with_the_dynamic_komi() -> None:
    """As White in a handicap game the player hands its search the extra komi; as Black, and in an even game, none."""
    from keima.ai.searcher import Searcher

    seen: list[float] = []

    class Spy(Searcher):
        def search(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            seen.append(float(kwargs.get("extra_komi", 0.0)))  # type: ignore[arg-type]
            return super().search(*args, **kwargs)  # type: ignore[arg-type]

    player = _fixed("intermediate", 200, 7)
    player._searcher = Spy(1 << 16, seed=7)
    handicap = Game(19, handicap=4, rules="french")
    move = player.genmove(handicap, 2, seconds=5.0)
    _check_move(handicap, move, 2)
    handicap.play(move)
    player.genmove(handicap, 1, seconds=5.0)
    player.genmove(Game(19), 2, seconds=5.0)
    assert seen == [pytest.approx(32.0), 0.0, 0.0]
