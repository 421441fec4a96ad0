"""The policy network: its input planes (``keima.ai.planes``), its forward pass and weights
(``keima.ai.network``), the shipped network's judgement, and its use in the search."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rules.diagram import random_board

from keima.ai import fastboard as fb
from keima.ai import network as N
from keima.ai import planes as PL
from keima.ai import search as S
from keima.ai.searcher import Searcher, load
from keima.rules import Game, from_gtp, to_gtp


def _setup(size: int, black: list[str], white: list[str], to_move: int) -> Game:
    game = Game(size)
    game.setup(black=[from_gtp(v, size) for v in black], white=[from_gtp(v, size) for v in white], to_move=to_move)
    return game


def _planes(game: Game, color: int | None = None) -> np.ndarray:
    n = game.size
    x = np.full((n * n, PL.N_PLANES), 7.0, dtype=np.float32)  # every cell must be overwritten
    PL.fill_planes(load(game), int(game.to_move) if color is None else color, x)
    return x


def _points(game: Game, x: np.ndarray, plane: int) -> set[str]:
    return {to_gtp(p, game.size) for p in np.nonzero(x[:, plane])[0]}


# Black's E5 is surrounded on three sides (one liberty, E4); White's three stones have three liberties each.
# Black's J9 next to White's H9 would be a self-atari; A9 is Black's own eye (A8, B9).
SURROUNDED = (["E5", "A8", "B9"], ["E6", "D5", "F5", "H9"])
# White's K10 with two liberties against Black's K11, J10, L9: Black's atari at K9 works as a ladder.
LADDER = (["K11", "J10", "L9"], ["K10"])
# Black's K10 in atari (White K11, J10, L9, K9): extending at L10 runs into a ladder.
ESCAPE = (["K10"], ["K11", "J10", "L9", "K9"])

CASES = [
    # (size, (black, white), to move, plane, expected points)
    (9, SURROUNDED, 1, PL.PL_OWN, {"E5", "A8", "B9"}),
    (9, SURROUNDED, 2, PL.PL_OWN, {"E6", "D5", "F5", "H9"}),  # read from the side to move
    (9, SURROUNDED, 1, PL.PL_OPP, {"E6", "D5", "F5", "H9"}),
    (9, SURROUNDED, 1, PL.PL_OWN_LIBS, {"E5"}),                # one liberty
    (9, SURROUNDED, 1, PL.PL_OWN_LIBS + 1, set()),             # two
    (9, SURROUNDED, 1, PL.PL_OWN_LIBS + 2, {"A8", "B9"}),       # three or more
    (9, SURROUNDED, 1, PL.PL_OPP_LIBS + 2, {"E6", "D5", "F5", "H9"}),
    (9, SURROUNDED, 2, PL.PL_CAPTURE, {"E4"}),
    (9, SURROUNDED, 1, PL.PL_CAPTURE, set()),
    (9, SURROUNDED, 1, PL.PL_SELF_ATARI, {"J9"}),
    (19, LADDER, 1, PL.PL_LADDER_ATARI, {"K9", "L10"}),  # either atari chases it down a ladder
    (19, (LADDER[0], [*LADDER[1], "O13"]), 1, PL.PL_LADDER_ATARI, {"L10"}),  # O13 breaks the one up
    (19, ESCAPE, 1, PL.PL_LADDER_ESCAPE, {"L10"}),
    (19, (ESCAPE[0] + ["O13"], ESCAPE[1]), 1, PL.PL_LADDER_ESCAPE, set()),
]


@pytest.mark.parametrize(("size", "stones", "to_move", "plane", "expected"), CASES)
def test_a_plane_marks_exactly_its_points(size: int, stones: tuple[list[str], list[str]], to_move: int,
                                          plane: int, expected: set[str]) -> None:
    game = _setup(size, stones[0], stones[1], to_move)
    assert _points(game, _planes(game), plane) == expected


def test_every_point_is_in_exactly_one_of_own_opposing_empty() -> None:
    game = _setup(9, *SURROUNDED, 1)
    x = _planes(game)
    assert set(np.unique(x)) <= {0.0, 1.0}
    assert np.array_equal(x[:, PL.PL_OWN] + x[:, PL.PL_OPP] + x[:, PL.PL_EMPTY], np.ones(81))
    assert np.array_equal(x[:, PL.PL_ONES], np.ones(81))


def test_candidates_are_the_legal_moves_but_own_eyes() -> None:
    game = _setup(9, *SURROUNDED, 1)
    x = _planes(game)
    legal = {to_gtp(p, 9) for p in game.legal_moves(1)}
    assert "A9" in legal  # filling the own eye is legal, but never a candidate
    assert _points(game, x, PL.PL_CANDIDATE) == legal - {"A9"}
    # For White, A9 is a suicide: not legal, not a candidate.
    assert "A9" not in _points(game, _planes(game, 2), PL.PL_CANDIDATE)


def test_last_moves_and_the_ko_point() -> None:
    # A ko on the left side: Black takes at B5 ... White may not take back at C5 at once.
    game = _setup(9, ["B6", "A5", "B4", "C5"], ["C6", "D5", "C4"], 2)
    game.play(from_gtp("E8", 9))   # White elsewhere
    game.play(from_gtp("F2", 9))   # Black elsewhere
    game.play(from_gtp("B5", 9))   # White plays into the ko shape and captures C5
    x = _planes(game)              # Black to move: may not retake at C5 at once
    assert _points(game, x, PL.PL_LAST) == {"B5"}
    assert _points(game, x, PL.PL_LAST2) == {"F2"}
    assert _points(game, x, PL.PL_KO) == {"C5"}
    assert "C5" not in _points(game, x, PL.PL_CANDIDATE)


def _transform(size: int, k: int, p: int) -> int:
    """The k-th of the 8 symmetries of the board (k & 4: transpose, then k & 3 quarter turns) applied to p."""
    r, c = divmod(p, size)
    if k & 4:
        r, c = c, r
    for _ in range(k & 3):
        r, c = size - 1 - c, r
    return r * size + c


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 7))
def test_planes_turn_with_the_board(seed: int, k: int) -> None:
    rng = random.Random(seed)
    size = rng.choice((7, 9, 19))
    board = random_board(rng, size, rng.uniform(0.2, 0.6))
    turned = [0] * (size * size)
    for p, colour in enumerate(board.colors):
        turned[_transform(size, k, p)] = colour
    games = []
    for colours in (list(board.colors), turned):
        game = Game(size)
        game.setup(black=[p for p, v in enumerate(colours) if v == 1],
                   white=[p for p, v in enumerate(colours) if v == 2], to_move=1)
        games.append(game)
    x, y = _planes(games[0]), _planes(games[1])
    perm = [_transform(size, k, p) for p in range(size * size)]
    assert np.array_equal(x, y[perm])


def _reference_forward(x: np.ndarray, n: int, net: N.Network) -> np.ndarray:
    """The network written the plain way: a convolution as a sum over the kernel's taps of shifted planes."""
    def conv(h: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
        cin = h.shape[1]
        k = int(round((w.shape[0] // cin) ** 0.5))
        grid = h.reshape(n, n, cin)
        pad = np.zeros((n + k - 1, n + k - 1, cin), np.float64)
        pad[k // 2:k // 2 + n, k // 2:k // 2 + n] = grid
        taps = w.reshape(k, k, cin, -1)
        out = np.zeros((n, n, taps.shape[3]), np.float64)
        for dr in range(k):
            for dc in range(k):
                out += pad[dr:dr + n, dc:dc + n] @ taps[dr, dc]
        return (out + b).reshape(n * n, -1)

    h = np.maximum(conv(x.astype(np.float64), net.stem_w, net.stem_b), 0)
    for i in range(0, len(net.blocks_w), 2):
        a = np.maximum(conv(h, net.blocks_w[i], net.blocks_b[i]), 0)
        h = np.maximum(conv(a, net.blocks_w[i + 1], net.blocks_b[i + 1]) + h, 0)
    return h @ net.head_w + net.head_b


def _random_network(rng: np.random.Generator, n: int, blocks: int, channels: int, stem: int) -> N.Network:
    def f(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.2).astype(np.float32)

    return N.Network(f(stem * stem * PL.N_PLANES, channels), f(channels), f(2 * blocks, 9 * channels, channels),
                     f(2 * blocks, channels), f(channels), f(n * n))


@pytest.mark.parametrize(("n", "blocks", "channels", "stem"), [(9, 0, 8, 3), (9, 2, 16, 5), (19, 1, 12, 3)])
def test_the_forward_pass_equals_the_plain_convolutions(n: int, blocks: int, channels: int, stem: int) -> None:
    rng = np.random.default_rng(n * 100 + blocks)
    net = _random_network(rng, n, blocks, channels, stem)
    colours = rng.choice(3, size=n * n, p=[0.7, 0.2, 0.1])
    game = Game(n)
    game.setup(black=[p for p in range(n * n) if colours[p] == 1],
               white=[p for p in range(n * n) if colours[p] == 2], to_move=1)
    x = _planes(game)
    got = N.forward(x, n, *net)
    assert got.dtype == np.float32 and got.shape == (n * n,)
    np.testing.assert_allclose(got, _reference_forward(x, n, net), rtol=1e-4, atol=1e-4)


def test_a_saved_network_reads_back_and_a_broken_one_is_refused(tmp_path: Path) -> None:
    net = _random_network(np.random.default_rng(1), 9, 1, 8, 3)
    N.save(net, tmp_path / "net.npz")
    back = N.read(tmp_path / "net.npz")
    for a, b in zip(net, back, strict=True):
        assert np.array_equal(a, b)
    broken = net._replace(head_w=np.zeros(7, np.float32))
    N.save(broken, tmp_path / "broken.npz")
    with pytest.raises(ValueError, match="do not fit together"):
        N.read(tmp_path / "broken.npz")


@pytest.mark.parametrize(("m", "n"), [(19, 13), (9, 13), (19, 9), (9, 9)])
def test_a_resized_network_keeps_its_convolutions_and_each_point_its_distances_to_the_edges(m: int, n: int) -> None:
    rng = np.random.default_rng(m * 100 + n)
    net = _random_network(rng, m, 1, 8, 3)
    # The bias of each point of the source board says its distances to the two nearer edges (capped at the
    # middle of the smaller board), so a resized network must give every point the same reading.
    half = (min(m, n) - 1) // 2

    def edges(p: int, size: int) -> tuple[int, int]:
        r, c = divmod(p, size)
        return min(r, size - 1 - r, half), min(c, size - 1 - c, half)

    net = net._replace(head_b=np.array([10 * a + b for a, b in (edges(p, m) for p in range(m * m))], np.float32))
    out = N.resized(net, n)
    assert N.board_size(out) == n and out.head_b.shape == (n * n,)
    assert [int(v) for v in out.head_b] == [10 * a + b for a, b in (edges(p, n) for p in range(n * n))]
    for a, b in zip(net[:-1], out[:-1], strict=True):
        assert a is b  # the convolutions are the very same weights
    x = np.zeros((n * n, PL.N_PLANES), np.float32)  # and it runs on the new board
    assert N.forward(x, n, *out).shape == (n * n,)
    with pytest.raises(ValueError, match="empty"):
        N.resized(N.empty_network(), n)


# --- the shipped network ---------------------------------------------------------------------------------------

SHIPPED = N.shipped(19)
needs_shipped = pytest.mark.skipif(N.is_empty(SHIPPED), reason="no policy network shipped")


def _probabilities(game: Game) -> dict[str, float]:
    x = _planes(game)
    scores = N.forward(x, game.size, *N.shipped(game.size)).astype(np.float64)
    cand = x[:, PL.PL_CANDIDATE] > 0
    e = np.where(cand, np.exp(scores - scores[cand].max()), 0.0)
    e /= e.sum()
    return {to_gtp(p, game.size): float(e[p]) for p in np.nonzero(cand)[0]}


def _line(vertex: str) -> int:
    p = from_gtp(vertex, 19)
    r, c = divmod(p, 19)
    return min(r, c, 18 - r, 18 - c) + 1


SHIPPED_9 = N.shipped(9)
needs_shipped_9 = pytest.mark.skipif(N.is_empty(SHIPPED_9), reason="no 9x9 policy network shipped")


SHIPPED_13 = N.shipped(13)
needs_shipped_13 = pytest.mark.skipif(N.is_empty(SHIPPED_13), reason="no 13x13 policy network shipped")


@needs_shipped
@needs_shipped_9
@needs_shipped_13
def test_each_shipped_network_is_made_for_its_board() -> None:
    assert N.board_size(SHIPPED) == 19
    assert N.board_size(SHIPPED_9) == 9
    assert N.board_size(SHIPPED_13) == 13
    assert N.is_empty(N.shipped(7))  # no network for 7x7


GAMES_13 = Path(__file__).resolve().parents[2] / "scripts" / "policy13-games" / "1-local-level10"


def _log_likelihood(net: N.Network, games: list[tuple[str, list[tuple[int, int, bool]]]], n: int,
                    replay: Any) -> float:
    """Mean log-probability ``net`` gives the example moves of ``games`` (``train_prior.read_games``, replayed by
    its ``replay``), as ``scripts/train_policy.py`` scores its held-out moves."""
    x = np.zeros((n * n, PL.N_PLANES), dtype=np.float32)
    total, count = 0.0, 0
    for _name, moves in games:
        for b, c, p in replay(moves, n):
            PL.fill_planes(b, c, x)
            point = fb.from_fast(p, n)
            candidates = x[:, PL.PL_CANDIDATE] == 1.0
            if not candidates[point]:
                continue
            scores = N.forward(x, n, *net)
            top = scores[candidates].max()
            total += float(scores[point] - top - np.log(np.exp(scores[candidates] - top).sum()))
            count += 1
    return total / count


@needs_shipped
@needs_shipped_13
def test_the_13x13_network_learnt_from_13x13_games_beyond_the_19x19_one_resized() -> None:
    # Fine-tuned (scripts/train_policy.py --init) from the 19x19 network resized (scripts/adapt_policy.py) on GNU
    # Go's 13x13 games: the same tower, and on six games held out of its training (one game in ten, in the
    # order the script reads them) it gives GNU Go's moves more probability than where it started.
    resized = N.resized(SHIPPED, 13)
    assert [a.shape for a in SHIPPED_13] == [a.shape for a in resized]
    prior: Any = _load_script("train_prior")
    held = [g for i, g in enumerate(prior.read_games(GAMES_13, 13)) if i % 10 == 0][:6]
    assert len(held) == 6
    assert _log_likelihood(SHIPPED_13, held, 13, prior.replay) > _log_likelihood(resized, held, 13, prior.replay) + 0.05


@needs_shipped_13
def test_the_13x13_network_opens_in_the_corners_on_the_third_and_fourth_lines() -> None:
    probs = _probabilities(Game(13))
    top = sorted(probs, key=lambda v: probs[v], reverse=True)[:4]

    def lines(v: str) -> set[int]:
        r, c = divmod(from_gtp(v, 13), 13)
        return {min(r, 12 - r) + 1, min(c, 12 - c) + 1}

    assert all(lines(v) <= {3, 4} for v in top), top
    assert sum(p for v, p in probs.items() if min(lines(v)) <= 2) < 0.1


@needs_shipped
def test_the_network_opens_in_the_corners_on_the_third_and_fourth_lines() -> None:
    probs = _probabilities(Game(19))
    top = sorted(probs, key=lambda v: probs[v], reverse=True)[:8]
    assert all(_line(v) in (3, 4) for v in top), top
    assert sum(probs[v] for v in probs if _line(v) <= 2) < 0.05


@needs_shipped
def test_the_network_captures_a_chain_that_just_ran_into_atari() -> None:
    # White has just extended K10-K11 to K9, where the chain has one liberty left, K8.
    game = _setup(19, ["D4", "Q16", "J9", "J10", "J11", "L9", "L10", "L11", "K12", "R10", "C10"],
                  ["Q4", "D16", "K10", "K11", "O17", "C14"], 2)
    game.play(from_gtp("K9", 19))
    probs = _probabilities(game)
    best = max(probs, key=lambda v: probs[v])
    assert best == "K8", sorted(probs.items(), key=lambda t: -t[1])[:3]


@needs_shipped_9
def test_the_9x9_network_takes_the_centre_of_an_empty_board() -> None:
    # Its training games began with one to three random stones, so an empty board is one it never saw; it still
    # puts almost all of its weight on tengen, as GNU Go and most 9x9 players do.
    probs = _probabilities(Game(9))
    assert max(probs, key=lambda v: probs[v]) == "E5"
    assert probs["E5"] > 0.5


# --- in the search ----------------------------------------------------------------------------------------------


def _searched(net_visits: int, playouts: int) -> Searcher:
    game = Game(19)
    for v in ("Q16", "D4", "Q3", "D16"):
        game.play(from_gtp(v, 19))
    searcher = Searcher(1 << 16, seed=3, net=SHIPPED, net_visits=net_visits)
    searcher.search(game, int(game.to_move), None, playouts)
    return searcher


@needs_shipped
def test_the_search_asks_the_network_at_the_root_and_at_visited_nodes() -> None:
    searcher = _searched(16, 600)
    ti = searcher.ti
    used = int(ti[S.T_META, 0])
    evaluated = np.nonzero(ti[S.T_NET, :used])[0]
    assert searcher._root in evaluated
    assert len(evaluated) > 1
    tf = searcher.tf
    prior_n = 10.0
    for node in evaluated:
        if node != searcher._root:
            assert tf[S.F_VIS, node] - prior_n >= 16


@needs_shipped
def test_the_search_can_leave_the_network_out() -> None:
    searcher = _searched(-1, 300)
    assert not searcher.ti[S.T_NET, : int(searcher.ti[S.T_META, 0])].any()


@needs_shipped_9
def test_the_search_uses_the_9x9_network_on_9x9() -> None:
    searcher = Searcher(1 << 14, seed=2)
    searcher.search(Game(9), 1, None, 200)
    assert searcher.ti[S.T_NET, searcher._root]


def test_no_network_on_boards_it_was_not_made_for() -> None:
    net = _random_network(np.random.default_rng(2), 19, 0, 4, 3)
    searcher = Searcher(1 << 14, seed=1, net=net, net_visits=0)
    searcher.search(Game(9), 1, None, 200)
    assert not searcher.ti[S.T_NET, : int(searcher.ti[S.T_META, 0])].any()


# --- the training script -----------------------------------------------------------------------------------------


def _load_script(name: str) -> object:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_games(folder: Path, count: int, seed: int) -> list[list[tuple[int, int | None, bool]]]:
    """Random 9x9 games among the candidates (two random-opening moves, a pass now and then); returns each
    game's moves as (colour, point or None, is an example)."""
    rng = random.Random(seed)
    games = []
    for g in range(count):
        game = Game(9)
        moves: list[tuple[int, int | None, bool]] = []
        nodes = []
        for i in range(24):
            c = int(game.to_move)
            cands = np.nonzero(_planes(game)[:, PL.PL_CANDIDATE])[0]
            if i % 11 == 10 or not len(cands):
                game.pass_move(c)
                moves.append((c, None, False))
                nodes.append(f";{'B' if c == 1 else 'W'}[]")
                continue
            p = int(rng.choice(list(cands)))
            game.play(p)
            r, cc = divmod(p, 9)
            moves.append((c, p, i >= 2))
            nodes.append(f";{'B' if c == 1 else 'W'}[{chr(97 + cc)}{chr(97 + r)}]" + ("C[random]" if i < 2 else ""))
        (folder / f"g{g:02d}.sgf").write_text(f"(;GM[1]FF[4]SZ[9]{''.join(nodes)})")
        games.append(moves)
    return games


def test_the_examples_are_the_chosen_moves_with_their_planes(tmp_path: Path) -> None:
    games = _write_games(tmp_path, 3, 11)
    script = _load_script("train_policy")
    out = tmp_path / "examples.npz"
    script.extract([tmp_path], out, 1, 9)  # type: ignore[attr-defined]
    with np.load(out) as z:
        planes = script.unpack(z["planes"], 9)  # type: ignore[attr-defined]
        targets, game_of = z["targets"], z["game"]
        assert int(z["size"]) == 9
    expected = []
    for g, moves in enumerate(games):
        replay = Game(9)
        for c, p, example in moves:
            if p is None:
                replay.pass_move(c)
                continue
            if example:
                expected.append((g, p, _planes(replay, c)))
            replay.play(p)
    assert len(targets) == len(expected)
    for i, (g, p, x) in enumerate(expected):
        assert (game_of[i], targets[i]) == (g, p)
        assert np.array_equal(planes[i].reshape(PL.N_PLANES, 81).T, x)


def test_a_handicap_game_is_replayed_from_its_stones_and_one_players_moves_can_be_left_out(tmp_path: Path) -> None:
    # A match record of keima's benchmarks: three handicap stones as setup (AB), then the players' moves. The
    # stones are on the board before the first move, and are never examples; with skip_player, the moves of the
    # player so named are played but are not examples either.
    (tmp_path / "h3.sgf").write_text(
        "(;GM[1]FF[4]SZ[9]PB[gnugo]PW[keima:strong]HA[3]AB[cc][gg][cg];W[ee];B[ec];W[ce];B[dd])")
    prior: Any = _load_script("train_prior")

    def examples(skip: str | None) -> list[tuple[int, str, int]]:
        [(_name, moves)] = prior.read_games(tmp_path, 9, skip)
        out = []
        for b, c, p in prior.replay(moves, 9):
            stones = sum(1 for q in range(81) if b[fb.COL, fb.to_fast(q, 9)] != fb.EMPTY)
            out.append((c, to_gtp(fb.from_fast(p, 9), 9), stones))
        return out

    assert examples(None) == [(fb.WHITE, "E5", 3), (fb.BLACK, "E7", 4), (fb.WHITE, "C5", 5), (fb.BLACK, "D6", 6)]
    assert examples("keima") == [(fb.BLACK, "E7", 4), (fb.BLACK, "D6", 6)]
    assert examples("gnugo") == [(fb.WHITE, "E5", 3), (fb.WHITE, "C5", 5)]
    assert examples("nobody") == examples(None)


def test_training_writes_a_network_keima_reads(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    _write_games(tmp_path, 12, 12)
    script = _load_script("train_policy")
    examples, out = tmp_path / "examples.npz", tmp_path / "net.npz"
    assert script.main(["extract", str(tmp_path), "--size", "9", "--out", str(examples), "--jobs", "1"]) == 0  # type: ignore[attr-defined]
    assert script.main(["train", str(examples), "--out", str(out), "--blocks", "1", "--channels", "8",  # type: ignore[attr-defined]
                        "--epochs", "2", "--device", "cpu"]) == 0
    net = N.read(out)
    assert N.board_size(net) == 9 and net.blocks_w.shape == (2, 72, 8)


def test_training_on_several_files_holds_out_one_game_in_ten_of_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    script = _load_script("train_policy")
    files = []
    for name, count, seed in (("a", 12, 21), ("b", 3, 22)):
        folder = tmp_path / name
        folder.mkdir()
        _write_games(folder, count, seed)
        files.append(tmp_path / f"{name}.npz")
        script.extract([folder], files[-1], 1, 9)  # type: ignore[attr-defined]
    held = []
    for f in files:
        with np.load(f) as z:
            held.append(int((z["game"] % 10 == 0).sum()))  # games 0 and 10 of a, game 0 of b
    out = tmp_path / "net.npz"
    assert script.main(["train", *map(str, files), "--out", str(out), "--blocks", "1", "--channels", "8",  # type: ignore[attr-defined]
                        "--epochs", "1", "--device", "cpu"]) == 0
    printed = capsys.readouterr().out
    assert f"{sum(held)} held out, from 3 games" in printed
    for f, count in zip(files, held, strict=True):
        assert f"{f}: {count} held-out moves" in printed
    assert N.board_size(N.read(out)) == 9


def test_training_from_a_network_file_starts_from_its_weights(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    _write_games(tmp_path, 12, 13)
    start = _random_network(np.random.default_rng(3), 9, 2, 8, 3)
    N.save(start, tmp_path / "start.npz")
    script = _load_script("train_policy")
    examples, out = tmp_path / "examples.npz", tmp_path / "net.npz"
    assert script.main(["extract", str(tmp_path), "--size", "9", "--out", str(examples), "--jobs", "1"]) == 0  # type: ignore[attr-defined]
    # Its shape, not the defaults (6 blocks of 64), and at a learning rate too small to move them, its weights: a
    # weight loaded into the wrong place would come out elsewhere.
    assert script.main(["train", str(examples), "--out", str(out), "--init", str(tmp_path / "start.npz"),  # type: ignore[attr-defined]
                        "--epochs", "1", "--rate", "1e-9", "--device", "cpu"]) == 0
    net = N.read(out)
    for got, want in zip(net, start, strict=True):
        assert got.shape == want.shape
        assert np.allclose(got, want, atol=1e-5)
    assert "before training" in capsys.readouterr().out


def test_the_adapting_script_writes_a_network_for_the_new_size_and_checks_it_on_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = _write_games(tmp_path, 3, 5)
    source = _random_network(np.random.default_rng(2), 13, 1, 8, 3)
    N.save(source, tmp_path / "source.npz")
    script = _load_script("adapt_policy")
    out = tmp_path / "net9.npz"
    assert script.main([str(tmp_path / "source.npz"), "--size", "9", "--out", str(out),  # type: ignore[attr-defined]
                        "--check", str(tmp_path)]) == 0
    net = N.read(out)
    assert N.board_size(net) == 9 and np.array_equal(net.head_b, N.resized(source, 9).head_b)
    printed = capsys.readouterr().out
    examples = sum(1 for moves in games for _c, _p, example in moves if example)
    assert f"3 games of 9x9, {examples} moves" in printed
    assert "adapted: top-1" in printed and "flat bias: top-1" in printed
