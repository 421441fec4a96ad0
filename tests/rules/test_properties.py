"""Property tests on random games under every preset, sizes 5x5 to 19x19, against the naive reference referee.

Hypothesis draws the seed, board size, preset and handicap; a ``random.Random`` seeded from it plays the game, so
a failure shrinks to a small seed and replays exactly. Checked after every move:
- the board equals the reference board (flood-fill chains, captures recomputed from scratch), prisoners and turn
  agree, every chain's stones and liberties equal a flood-fill recomputation, no chain is left without liberties,
  and the hash is a function of the position (equal positions, equal hashes; different positions, different);
- each refused move is refused by the reference too, with the same reason, and leaves the game unchanged;
then every move is undone and each earlier state (board, hash, turn, prisoners, passes...) comes back exactly,
and ``Game.replay`` of the events rebuilds the same game.

On random games played to the end (sizes 5..9, with and without handicap): the counting identities of
docs/rules.md (« Counting methods »; the AGA commentary's appendix on area and territory scoring proves the
first), for any dead-stone marking: area difference minus (n-1) == territory-with-pass-stones difference
(White passing last), FFG quick count == area, each method's breakdown adds up to its total, territory equals a
naive region count; and the dead-stone agreement finishes the game with the ruleset's own result.

On 2x2 to 4x4 boards, where positions repeat all the time: every empty point's verdict under each repetition
rule and suicide rule, after every move of long random games with passes.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import keima
from keima.rules.board import BLACK, EMPTY, WHITE
from keima.rules.game import Game as RulesGame
from keima.rules.ruleset import PRESETS, Ruleset

from .reference import RefGame, all_chains, neighbours, regions

PRESET_NAMES = sorted(PRESETS)
REPETITION = {"ko", "superko"}


def snapshot(game: RulesGame) -> tuple[object, ...]:
    return (
        tuple(game.board.colors),
        game.board.hash,
        game.to_move,
        game.phase,
        tuple(sorted(game.prisoners.items())),
        tuple(sorted(game.pass_count.items())),
        game.consecutive_passes,
        len(game.moves),
        len(game.events),
        game.result,
        game.dead,
        game.accepted,
    )


def same_reason(a: str | None, b: str | None) -> bool:
    """keima reports an immediate single-stone recapture as "ko" under every rule; the reference says "superko"
    under superko rules. Both are repetition refusals."""
    if a in REPETITION and b in REPETITION:
        return True
    return a == b


def new_pair(size: int, rules: Ruleset, handicap: int, placement: str | None) -> tuple[keima.Game, RefGame]:
    game = keima.Game(size=size, rules=rules, handicap=handicap, placement=placement)
    colors = list(game.board.colors)
    ref = RefGame(size, rules.ko, rules.suicide == "multi-stone", colors, to_move=game.to_move)
    return game, ref


def choose_placement(rules: Ruleset, size: int, handicap: int, rng: random.Random) -> tuple[int, str | None]:
    """Return a handicap and placement the ruleset allows on this board (fixed points need 7x7 or more)."""
    if handicap < 2:
        return handicap, None
    allowed = rules.handicap_placement
    placement = rng.choice(["fixed", "free"]) if allowed == "either" else allowed
    if placement == "fixed" and size < 7:
        if allowed == "fixed":
            return 0, None
        placement = "free"
    return handicap, placement


def place_free_handicap(game: keima.Game, ref: RefGame, rng: random.Random) -> None:
    if game.phase != "handicap":
        return
    pts = rng.sample(range(game.size * game.size), game.handicap)
    game.place_handicap(pts)
    colors = [EMPTY] * (game.size * game.size)
    for p in pts:
        colors[p] = BLACK
    ref.colors = colors
    ref.to_move = WHITE
    # The empty board stood before the free placement: it stays in the history (a board-wide suicide may not
    # recreate it under positional superko); the handicap position counts as Black's creation.
    ref.history.append((tuple(colors), WHITE, BLACK))


def check_board(game: keima.Game, ref: RefGame, hashes: dict[tuple[int, ...], int]) -> None:
    colors = list(game.board.colors)
    assert colors == ref.colors, "board differs from the reference"
    assert game.to_move == ref.to_move
    assert dict(game.prisoners) == ref.prisoners
    size = game.size
    for color, stones, libs in all_chains(colors, size):
        assert libs, "a chain without liberties is left on the board"
        ch = game.board.chain(min(stones))
        assert ch.color == color
        assert set(ch.stones) == stones and len(ch.stones) == len(stones)
        assert set(ch.libs) == libs
    key = tuple(colors)
    h = game.board.hash
    if key in hashes:
        assert hashes[key] == h, "the same position has two hashes"
    else:
        hashes[key] = h


def try_move(game: keima.Game, ref: RefGame, p: int) -> bool:
    """Ask both referees about ``p``; if illegal, check the refusal; return True if it is legal."""
    here = snapshot(game)
    mine = game.legality(p)
    assert snapshot(game) == here, "legality() changed the game"
    theirs = ref.legality(p)
    assert same_reason(mine, theirs), f"point {p}: keima says {mine}, the reference says {theirs}"
    if mine is None:
        return True
    before = here
    try:
        game.play(p)
    except keima.IllegalMove as e:
        assert e.reason == mine
    else:
        raise AssertionError(f"play({p}) succeeded although legality said {mine}")
    assert snapshot(game) == before
    return False


def is_own_eye(colors: list[int], size: int, p: int, color: int) -> bool:
    """A point all of whose neighbours are ``color`` stones (playouts do not fill these)."""
    return all(colors[q] == color for q in neighbours(p, size))


def play_random(
    game: keima.Game,
    ref: RefGame,
    rng: random.Random,
    moves: int,
    hashes: dict[tuple[int, ...], int],
    states: list[tuple[object, ...]],
    *,
    to_the_end: bool,
) -> None:
    """Play up to ``moves`` random moves on both referees (to two passes when ``to_the_end``)."""
    size = game.size
    npoints = size * size
    for _ in range(moves):
        if game.phase != "play":
            return
        color = game.to_move
        chosen: int | None = None
        pass_chance = 0.02 if not to_the_end else 0.0
        if rng.random() >= pass_chance:
            candidates = [p for p in range(npoints) if ref.colors[p] == EMPTY]
            rng.shuffle(candidates)
            for p in candidates[:12] if not to_the_end else candidates:
                if to_the_end and is_own_eye(ref.colors, size, p, color):
                    continue
                if try_move(game, ref, p):
                    chosen = p
                    break
        if chosen is None and game.consecutive_passes >= 1 and not to_the_end:
            return  # a second pass would end the game; keep this game in play
        states.append(snapshot(game))
        game.play(chosen)
        ref.play(chosen)
        if game.phase == "finished" and game.result == "Void":
            # Japanese rules: a whole-board cycle ends the game without result (never met in practice here).
            return
        check_board(game, ref, hashes)


def undo_all(game: keima.Game, states: list[tuple[object, ...]]) -> None:
    while states:
        expected = states.pop()
        game.undo()
        assert snapshot(game) == expected, f"undo did not restore the state before move {len(states) + 1}"
    game.check_consistency()


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(5, 19),
    preset=st.sampled_from(PRESET_NAMES),
    handicap=st.sampled_from([0, 0, 0, 2, 3, 4]),
)
def test_random_games_against_the_reference(seed: int, size: int, preset: str, handicap: int) -> None:
    rng = random.Random(seed)
    rules = PRESETS[preset]
    handicap, placement = choose_placement(rules, size, handicap, rng)
    game, ref = new_pair(size, rules, handicap, placement)
    place_free_handicap(game, ref, rng)
    hashes: dict[tuple[int, ...], int] = {}
    check_board(game, ref, hashes)
    start = snapshot(game)
    states: list[tuple[object, ...]] = []
    # Small boards get long games (captures, kos, suicides, repetitions); large ones a moderate opening.
    moves = rng.randint(20, 140) if size <= 9 else rng.randint(20, 70)
    play_random(game, ref, rng, moves, hashes, states, to_the_end=False)
    game.check_consistency()
    # The full list of legal moves agrees with the reference (checked on a share of the games: it is slow).
    if game.phase == "play" and rng.random() < 0.3:
        expected = [p for p in range(size * size) if ref.colors[p] == EMPTY and ref.legality(p) is None]
        assert sorted(game.legal_moves()) == expected
    # The events survive JSON, and replaying them rebuilds the same game.
    events = [keima.Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in game.events]
    assert events == list(game.events)
    again = keima.Game.replay(
        events, size=size, rules=rules, komi=game.komi, handicap=game.handicap, placement=game.placement
    )
    assert snapshot(again) == snapshot(game)
    # A copy is independent of the original.
    twin = game.copy()
    assert snapshot(twin) == snapshot(game)
    if twin.phase == "play":
        here = snapshot(game)
        twin.play(None)
        assert snapshot(game) == here
    # Taking every move back restores every earlier state exactly.
    undo_all(game, states)
    assert snapshot(game) == start


def naive_score_sets(colors: list[int], size: int, dead: set[int]) -> tuple[set[int], set[int], int, int]:
    """Territory of each colour and stones left, with ``dead`` removed, by flood fill."""
    final = [EMPTY if p in dead else c for p, c in enumerate(colors)]
    terr: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
    for region, border in regions(final, size):
        if len(border) == 1:
            terr[next(iter(border))] |= region
    return terr[BLACK], terr[WHITE], final.count(BLACK), final.count(WHITE)


AREA_LIKE = [n for n in PRESET_NAMES if PRESETS[n].seki_eyes_count]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(5, 9),
    preset=st.sampled_from(PRESET_NAMES),
    handicap=st.sampled_from([0, 0, 1, 2, 3, 4]),
)
def test_counting_identities_on_finished_games(seed: int, size: int, preset: str, handicap: int) -> None:
    rng = random.Random(seed)
    rules = PRESETS[preset]
    handicap, placement = choose_placement(rules, size, handicap, rng)
    game, ref = new_pair(size, rules, handicap, placement)
    place_free_handicap(game, ref, rng)
    hashes: dict[tuple[int, ...], int] = {}
    states: list[tuple[object, ...]] = []
    play_random(game, ref, rng, 4 * size * size, hashes, states, to_the_end=True)
    if game.phase == "play":
        # The playout ran out of moves before two passes: end it now.
        for _ in range(2):
            if game.phase == "play":
                states.append(snapshot(game))
                game.play(None)
                ref.play(None)
    if game.result == "Void":
        return
    assert game.phase in ("scoring", "finished")
    if rules.dead_stones == "none":
        assert game.phase == "finished"
    # Sometimes a player disputes the marking and play resumes (pass stones are still given, EGC 2011
    # explanations, example 2); the opponent of the last passer moves first, so turns keep alternating and the
    # identities must still hold.
    if game.phase == "scoring" and rules.resume_first == "last-passer-opponent" and rng.random() < 0.3:
        last_passer = game.moves[-1].color
        states.append(snapshot(game))
        game.resume(rng.choice([BLACK, WHITE]))
        assert game.phase == "play"
        assert game.to_move == 3 - last_passer == ref.to_move
        play_random(game, ref, rng, 2 * size * size, hashes, states, to_the_end=True)
        for _ in range(2):
            if game.phase == "play":
                states.append(snapshot(game))
                game.play(None)
                ref.play(None)
        assert game.phase in ("scoring", "finished")
    moves = game.moves
    last_passer = moves[-1].color
    assert moves[-1].point is None and moves[-2].point is None

    # Any marking of whole chains as dead.
    colors = list(game.board.colors)
    chains = all_chains(colors, size)
    dead: set[int] = set()
    for _, stones, _ in chains:
        if rng.random() < 0.25:
            dead |= stones
    score = game.score(dead=sorted(dead))
    m = score.methods
    n = handicap if handicap >= 2 else 0

    def raw(method: str, fields: tuple[str, ...]) -> int:
        b, w = m[method].breakdown[BLACK], m[method].breakdown[WHITE]
        return int(sum(getattr(b, f) for f in fields) - sum(getattr(w, f) for f in fields))

    area_raw = raw("area", ("stones", "territory"))
    terr_raw = raw("territory", ("territory", "captures", "dead", "pass_stones", "extra_pass_stone"))
    assert area_raw - max(n - 1, 0) == terr_raw, f"area {area_raw}, territory {terr_raw}, handicap {n}"
    # White passes last: the extra stone is Black's exactly when Black's pass ended play.
    extra = m["territory"].breakdown[BLACK].extra_pass_stone
    assert extra == (1 if last_passer == BLACK else 0)
    assert m["territory"].breakdown[WHITE].extra_pass_stone == 0
    assert m["territory"].breakdown[BLACK].pass_stones == game.pass_count[WHITE]
    assert m["territory"].breakdown[WHITE].pass_stones == game.pass_count[BLACK]
    # The quick count equals area counting in even games and wherever White gets n-1 points.
    if n == 0 or rules.handicap_bonus == "n-1":
        assert m["quick-count"].margin == m["area"].margin
        assert m["quick-count"].result == m["area"].result
    # Each method's breakdown adds up to its total.
    for name, ms in m.items():
        for color, total in ((BLACK, ms.black), (WHITE, ms.white)):
            b = ms.breakdown[color]
            if name == "area":
                parts = b.stones + b.territory + b.komi + b.handicap_bonus
            elif name == "territory":
                parts = b.territory + b.captures + b.dead + b.pass_stones + b.extra_pass_stone + b.komi
            elif name == "quick-count":
                parts = b.territory - b.filled + b.overflow + b.komi
            else:
                parts = b.territory + b.captures + b.dead + b.komi
            assert parts == b.total == total, f"{name}: {b}"
        assert ms.margin == ms.black - ms.white
    # Territory and stones against a naive count (seki eyes count as territory under these presets).
    if rules.seki_eyes_count:
        tb, tw, sb, sw = naive_score_sets(colors, size, dead)
        assert set(score.territory[BLACK]) == tb
        assert set(score.territory[WHITE]) == tw
        assert (m["area"].breakdown[BLACK].stones, m["area"].breakdown[WHITE].stones) == (sb, sw)
        assert m["area"].breakdown[BLACK].territory == len(tb)
    # Prisoners: captures in the breakdowns are the game's prisoners; dead stones are the opponent's.
    assert m["japanese"].breakdown[BLACK].captures == game.prisoners[BLACK]
    assert m["japanese"].breakdown[BLACK].dead == sum(1 for p in dead if colors[p] == WHITE)
    assert m["japanese"].breakdown[WHITE].dead == sum(1 for p in dead if colors[p] == BLACK)

    # The agreement: both accept the marking, the game is finished with the own method's result; undo comes back.
    if game.phase == "scoring":
        before = snapshot(game)
        game.set_dead(sorted(dead))
        assert game.dead == frozenset(dead)
        game.accept(WHITE)
        game.accept(BLACK)
        assert game.phase == "finished"
        assert game.result == score.result
        for _ in range(3):
            game.undo()
        assert snapshot(game) == before
    undo_all(game, states)
    assert not game.moves


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(2, 4),
    ko=st.sampled_from(["simple", "positional", "situational", "natural-situational"]),
    suicide=st.sampled_from(["forbidden", "multi-stone"]),
)
def test_repetition_rules_on_tiny_boards(seed: int, size: int, ko: str, suicide: str) -> None:
    """Tiny boards repeat positions all the time: long random games (passes included) where every empty point's
    verdict is compared with the reference after every move, under each repetition and suicide rule."""
    rng = random.Random(seed)
    rules = PRESETS["french"].replace(ko=ko, suicide=suicide)
    # Japanese-style no result: a board play that brings back the same board with the same player to move for
    # the third time (the ruleset module's wording) ends the game as "Void".
    cycle = ko == "simple" and rng.random() < 0.5
    if cycle:
        rules = rules.replace(cycle_no_result=True)
    game, ref = new_pair(size, rules, 0, None)
    hashes: dict[tuple[int, ...], int] = {}
    states: list[tuple[object, ...]] = []
    for _ in range(rng.randint(10, 120)):
        if game.phase != "play":
            break
        legal = []
        for p in range(size * size):
            if ref.colors[p] != EMPTY:
                continue
            mine, theirs = game.legality(p), ref.legality(p)
            assert same_reason(mine, theirs), f"point {p}: keima says {mine}, the reference says {theirs}"
            if mine is None:
                legal.append(p)
        assert sorted(game.legal_moves()) == legal
        move: int | None = None
        if legal and (game.consecutive_passes == 1 or rng.random() > 0.15):
            move = rng.choice(legal)
        if move is None and game.consecutive_passes == 1:
            break  # a second pass would end the game
        states.append(snapshot(game))
        game.play(move)
        ref.play(move)
        check_board(game, ref, hashes)
        if cycle and move is not None:
            seen = sum(1 for b, m, _ in ref.history if b == tuple(ref.colors) and m == ref.to_move)
            if seen >= 3:
                assert (game.phase, game.result) == ("finished", "Void")
                break
        assert game.phase == "play"
    undo_all(game, states)
