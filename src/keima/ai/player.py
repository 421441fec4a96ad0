"""The computer player behind ``keima.ai.make_player``.

``Player.genmove`` proposes a move; whatever any search behind it suggests, the move returned is always one the
referee accepts (``game.legality(move, color) is None``), falling back to the next candidate and finally to a pass.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass
from typing import Any, Literal

from keima.ai.ranked import Sampling, policy_scores, sampled_move
from keima.ai.warmup import DEFAULT as DEFAULT_WARMUP
from keima.ai.warmup import Warmup
from keima.rules import EMPTY, is_true_eye

Move = int | None | Literal["resign"]

#: The levels of the first ladder, also accepted as 1..3 (``level_name``).
NUMBERED: tuple[str, ...] = ("beginner", "intermediate", "strong")
#: The levels named by the rank they play at (``keima.ai.ranked``), weakest first; each one's measured rank is in
#: ``LEVEL_RANKS``.
RANKED: tuple[str, ...] = ("25k", "20k", "15k", "12k")
#: Every level, as the server and the command line offer them.
LEVELS: tuple[str, ...] = (*NUMBERED, *RANKED)


def level_name(level: str | int) -> str:
    """Return the canonical level name for ``level`` (a name of ``LEVELS`` or 1..3).

    Raises ``ValueError`` naming the accepted values when ``level`` is none of them.
    """
    wrong = f"unknown bot level {level!r}: use one of {', '.join(LEVELS)} or 1..{len(NUMBERED)}"
    if isinstance(level, bool):
        raise ValueError(wrong)
    if isinstance(level, int):
        if 1 <= level <= len(NUMBERED):
            return NUMBERED[level - 1]
    elif isinstance(level, str):
        text = level.strip().lower()
        if text in LEVELS:
            return text
        if text.isdigit() and 1 <= int(text) <= len(NUMBERED):
            return NUMBERED[int(text) - 1]
    raise ValueError(wrong)


@dataclass(frozen=True)
class LevelConfig:
    """How one strength level searches."""

    playouts: int | None  # playouts per move (None: limited by time only)
    seconds: float  # default time per move when the caller gives none
    heavy: bool  # heavy (tactics + patterns) or light (uniform) playouts
    max_nodes: int  # per search tree
    threads: int = 1  # search threads, one tree each (root parallelism); at most the machine's CPU count
    #: A level that teaches (``keima.seat``: it plays on while a border is open and does not resign early).
    teaching: bool = False
    #: A ranked level's draw (``keima.ai.ranked``): it plays the policy network's choice among sampled moves
    #: instead of searching (None: it searches).
    sampling: Sampling | None = None


LEVEL_CONFIGS: dict[str, LevelConfig] = {
    "beginner": LevelConfig(playouts=120, seconds=1.0, heavy=False, max_nodes=1 << 17, teaching=True),
    "intermediate": LevelConfig(playouts=2000, seconds=2.0, heavy=True, max_nodes=1 << 19, teaching=True),
    "strong": LevelConfig(playouts=None, seconds=3.0, heavy=True, max_nodes=1 << 20,
                          threads=2),
    # The ranked levels' draws: the share of the candidate moves drawn and the weight of the points near the last
    # move set the strength, measured against GNU Go 3.8 level 10 (bench/rank_levels.py; docs/bot.md, « Levels by
    # rank »): the network alone about 12k; a quarter of the moves, near ones four times as likely, 15k; a fifth,
    # near ones three times, 20k; 11%, near ones three times, 25k (measured against the 20k level).
    "25k": LevelConfig(playouts=0, seconds=0.5, heavy=False, max_nodes=0, teaching=True,
                       sampling=Sampling(share=0.11, local=3.0)),
    "20k": LevelConfig(playouts=0, seconds=0.5, heavy=False, max_nodes=0, teaching=True,
                       sampling=Sampling(share=0.2, local=3.0)),
    "15k": LevelConfig(playouts=0, seconds=0.5, heavy=False, max_nodes=0, teaching=True,
                       sampling=Sampling(share=0.25, local=4.0)),
    "12k": LevelConfig(playouts=0, seconds=0.5, heavy=False, max_nodes=0, teaching=True,
                       sampling=Sampling(share=1.0)),
}

MAX_SECONDS = 3600.0  # one move never thinks longer than this, whatever the caller asks


class Player:
    """A computer player at one of ``LEVELS``; create it with ``make_player``.

    Between moves it keeps its search tree (reused when the new position lies two plies below the last root)
    and, after proposing dead stones, its claim: if play resumes it keeps playing (never passing) until the
    opposing stones it called dead are captured."""

    def __init__(self, level: str | int = "strong", seed: int | None = None,
                 warmup: Warmup | None = None) -> None:
        self.level = level_name(level)
        #: The compilation this player depends on (``keima.ai.warmup``; default: the process's).
        self.warmup = warmup if warmup is not None else DEFAULT_WARMUP
        self.config = LEVEL_CONFIGS[self.level]
        self._rng = random.Random(seed)
        self._seed = seed
        self._searcher: Any = None
        self._quick: Any = None
        self._pass_searcher: Any = None
        self._claimed: frozenset[int] = frozenset()
        self._claim_moves = 0
        self._claim_at = 0  # game.move_number when the claim was made
        self.last_result: Any = None

    def reset(self) -> None:
        """Forget everything kept between moves (search tree, dead-stone claim); call it for a new game."""
        if self._searcher is not None:
            self._searcher.reset()
        self._claimed = frozenset()
        self._claim_moves = 0
        self.last_result = None

    def compiled(self) -> bool:
        """Whether this player's moves come from the compiled search now. While a background compilation
        (``keima.ai.warmup``) is under way they come from ``keima.ai.quick`` instead: the player waits only
        while the compiled code is being read from numba's cache. With no compilation started, it compiles
        here, in the caller's thread, before its first move's clock starts."""
        w = self.warmup
        if w.ready():
            return True
        if w.busy():
            return w.settle()
        w.run()
        return True

    def _get_searcher(self) -> Any:
        if not self.compiled():
            if self._quick is None:
                from keima.ai.quick import QuickSearcher

                self._quick = QuickSearcher(self._seed)
            return self._quick
        if self._searcher is None:
            from keima.ai.searcher import Searcher  # numba loads on first use, not on import of keima.ai

            threads = max(1, min(self.config.threads, os.cpu_count() or 1))
            self._searcher = Searcher(self.config.max_nodes, heavy=self.config.heavy, seed=self._seed,
                                      threads=threads)
        return self._searcher

    def _legal(self, game: Any, move: int | None, color: int) -> bool:
        out_of_turn = color != game.to_move
        return game.legality(move, color, allow_out_of_turn=out_of_turn) is None

    def genmove(self, game: Any, color: int | None = None, seconds: float | None = None) -> Move:
        """Return the move for ``color`` (default: the side to move) in ``game``: a board point or ``None`` for a
        pass (resigning is the seat's decision: ``keima.seat``). The game is not changed. The returned point is always legal for the referee
        (superko included). ``seconds`` is the time budget for this move (``None``: the level's default; 0 still
        answers a legal move at once). Outside the play and handicap phases the answer is a pass."""
        if color is None:
            color = int(game.to_move)
        if game.phase == "handicap":
            point: int | None = game.next_handicap_point()  # the usual placement, written once in the rules
            return point
        if game.phase != "play":
            return None
        colors = list(game.board.colors)
        legal = list(game.legal_moves(color))
        candidates = [p for p in legal if not is_true_eye(game.board, p, color)]
        allow_pass = True
        targets = self._claim_targets(game, colors, color)
        if targets:
            # Play resumed after a disagreement: capture what we claimed dead; no pass while it stands.
            allow_pass = False
            near = [p for p in candidates if p in targets]
            if near:
                candidates = near
        if not candidates:
            return None
        if self.config.sampling is not None:
            scores = policy_scores(game, color, compiled=self.compiled())
            return sampled_move(game, color, candidates, self.config.sampling, self._rng, scores)
        budget = self.config.seconds if seconds is None else float(seconds)
        if not math.isfinite(budget):
            budget = self.config.seconds  # no usable budget given (inf, nan): the level's default
        budget = min(max(0.0, budget), MAX_SECONDS)
        # Keep a margin for loading the position and checking legality.
        budget = max(0.0, budget * 0.9 - 0.02)
        playouts = self.config.playouts
        if budget == 0.0:
            playouts = 0
        from keima.ai.searcher import handicap_komi

        result = self._get_searcher().search(game, color, budget, playouts, candidates, allow_pass,
                                             extra_komi=handicap_komi(game, color))
        self.last_result = result
        if allow_pass and game.consecutive_passes >= 1 and result.playouts >= 50 and result.winrate < 0.15:
            # A lost count is accepted instead of throwing stones into the other side (resigning is the seat's).
            return None
        if allow_pass and self._decided(result, game, color, budget, playouts):
            return None
        for move, _visits, _wr in result.ranked:
            if move is None:
                if allow_pass:
                    return None
                continue
            if self._legal(game, move, color):
                return int(move)
        return None

    def _decided(self, result: Any, game: Any, color: int, budget: float, playouts: int | None) -> bool:
        """True when the game is decided and a pass loses nothing: the best move wins, every empty point is
        settled in the playouts, and a search from the position after a pass (the opponent to move) confirms
        that the opponent's best answer still loses."""
        if result.move is None:
            return True
        if result.playouts < 100 or result.winrate < 0.9:
            return False
        own = result.ownership
        colors = game.board.colors
        if not all(c != EMPTY or abs(own[p]) >= 0.9 for p, c in enumerate(colors)):
            return False
        if getattr(game.rules, "dead_stones", "agreement") == "none":
            # Every stone counts at the end: first capture the opposing stones the playouts call dead.
            opp = 3 - color
            if any(colors[p] == opp for p in estimate_dead(game, seed=self._seed, warmup=self.warmup)):
                return False
        if self._pass_searcher is None:
            from keima.ai.searcher import Searcher

            self._pass_searcher = Searcher(1 << 17, heavy=self.config.heavy, seed=self._seed)
        else:
            self._pass_searcher.reset()
        check = self._pass_searcher.search(game, 3 - color, budget * 0.3,
                                           None if playouts is None else max(100, playouts // 3))
        return bool(1.0 - check.winrate >= 0.9)

    def _claim_targets(self, game: Any, colors: list[int], color: int) -> set[int]:
        """Liberties of the opposing chains this player claimed dead that are still on the board."""
        if not self._claimed:
            return set()
        if game.move_number < self._claim_at:
            # Another game (or moves taken back): the claim was about a position that no longer exists.
            self._claimed = frozenset()
            return set()
        opp = 3 - color
        standing = [p for p in self._claimed if colors[p] == opp]
        self._claim_moves += 1
        if not standing or self._claim_moves > game.size * game.size:
            self._claimed = frozenset()
            return set()
        libs: set[int] = set()
        for p in standing:
            libs |= set(game.board.chain(p).libs)
        return libs

    def claim_open(self, game: Any, color: int) -> bool:
        """True while opposing stones this player claimed dead (see ``propose_dead``) still stand in ``game``,
        in a position after the claim (it then keeps playing to capture them)."""
        if not self._claimed or game.move_number < self._claim_at:
            return False
        colors = game.board.colors
        return any(colors[p] == 3 - color for p in self._claimed)

    def propose_dead(self, game: Any) -> frozenset[int]:
        """Return the stones this player believes dead in ``game``'s current position, and remember the claim
        (if play resumes, it captures them)."""
        dead = estimate_dead(game, seed=self._seed, warmup=self.warmup)
        self._claimed = dead
        self._claim_moves = 0
        self._claim_at = game.move_number
        return dead

    def accepts(self, game: Any) -> bool:
        """Return True when the dead stones marked in ``game`` (``game.dead``) are the ones this player believes
        dead (it then accepts; otherwise it should resume play)."""
        return frozenset(game.dead) == self.propose_dead(game)


def _owner(warmup: Warmup | None) -> Any:
    """The ownership estimate to use now: the compiled one, or ``keima.ai.quick``'s while a background
    compilation is under way (see ``Player.compiled``)."""
    w = warmup if warmup is not None else DEFAULT_WARMUP
    if w.busy() and not w.settle():
        from keima.ai.quick import ownership as quick_ownership

        return quick_ownership
    from keima.ai.searcher import ownership

    return ownership


def estimate_dead(game: Any, playouts: int | None = None, seed: int | None = None,
                  warmup: Warmup | None = None) -> frozenset[int]:
    """Return the dead stones of ``game``'s current position from playouts, Benson's unconditional life and seki
    detection (see ``keima.ai.estimate``). The game is not changed. While the search is being compiled in the
    background (``warmup``, default: the process's), the playouts are interpreted and fewer
    (``keima.ai.quick.ownership``)."""
    from keima.ai.estimate import estimate_dead as _estimate

    return _estimate(game, playouts, seed, owner=_owner(warmup))


def estimate_ownership(game: Any, playouts: int | None = None, seed: int | None = None,
                       warmup: Warmup | None = None) -> list[float]:
    """Return each point's expected owner in ``game``'s current position, from +1.0 (Black) to -1.0 (White),
    as the mean over playouts half started by each side (see ``keima.ai.searcher.ownership``; fewer, interpreted
    playouts while the search is being compiled, as for ``estimate_dead``). The game is not changed."""
    return [float(x) for x in _owner(warmup)(game, playouts, seed)]
