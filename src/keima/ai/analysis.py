"""Game review by the bot: each position of a finished game searched, the moves played judged against the best.

``review_game(game)`` searches every position of ``game``'s main line, from the start to the position after the
last move, with the bot's search (``keima.ai.searcher``) and returns one ``MoveReview`` per move played:

- ``winrate`` and ``score``: Black's chance of winning (0-1) and Black's expected lead in points (an area count,
  komi deducted) in the position *after* the move, as the search of that position sees them;
- ``best``: the search's top moves in the position *before* the move (the alternatives to it), each with Black's
  win rate after it, its playouts and its principal variation;
- ``loss``: the points the move lost for the player who made it (the lead before minus the lead after, from the
  mover's side; 0 when the move is the search's first choice, never negative); ``winrate_loss`` the same in
  win rate.

Entry 0 (``n == 0``, no move) holds the starting position's evaluation, so that a graph starts at the start.

A review is slow (a search per position): ``review_game`` reports its progress, stops between playouts when its
``stop`` callable says so (raising ``Cancelled``) and, with ``nice``, lowers the priority of the thread it runs
in, so that live games' bot moves keep the processor (Linux schedules threads one by one: ``os.setpriority`` on the
thread's own id). The thread's priority cannot be raised back without privileges: call it with ``nice`` only in
a thread made for the review.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from keima.rules.board import BLACK, EMPTY, WHITE
from keima.rules.coords import to_gtp
from keima.rules.game import Game

#: Seconds of search per position when the caller gives no budget (a 60-move 9x9 game: about a minute).
DEFAULT_SECONDS = 1.0
#: Candidate moves kept per position.
DEFAULT_TOP = 5
#: A candidate with fewer playouts than this is not shown (a move the search barely looked at has no win rate).
MIN_CANDIDATE_VISITS = 2
#: How much lower than normal a review's thread runs (``os.setpriority``; 19 is the lowest priority).
NICE = 10


class Cancelled(Exception):
    """The review was stopped by its ``stop`` callable."""


@dataclass(frozen=True)
class Budget:
    """The search per position: at most ``seconds`` and at most ``playouts`` (None: no limit of that kind; at
    least one must be set)."""

    seconds: float | None = DEFAULT_SECONDS
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a review budget needs seconds or playouts")
        if self.seconds is not None and not (0 < self.seconds <= 600):
            raise ValueError(f"seconds per position must be in (0, 600], not {self.seconds}")
        if self.playouts is not None and not (1 <= self.playouts <= 1_000_000):
            raise ValueError(f"playouts per position must be in 1..1000000, not {self.playouts}")


@dataclass(frozen=True)
class Candidate:
    """One of the search's top moves: ``move`` (a board point, None for a pass), ``winrate`` Black's after it,
    ``visits`` its playouts, ``pv`` the line the search expects, starting with the move."""

    move: int | None
    winrate: float
    visits: int
    pv: list[int | None] = field(default_factory=list)


@dataclass(frozen=True)
class Evaluation:
    """One position searched: Black's ``winrate`` and expected ``score`` lead, the top moves of the side to move
    (``best``), the playouts it took."""

    winrate: float
    score: float
    best: list[Candidate]
    playouts: int

    def as_dict(self) -> dict[str, Any]:
        """This evaluation as JSON data (points as integers, a pass as None), for ``from_dict``."""
        return {"winrate": self.winrate, "score": self.score, "playouts": self.playouts,
                "best": [[c.move, c.winrate, c.visits, c.pv] for c in self.best]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evaluation:
        """The evaluation ``as_dict`` gave; raises ``KeyError``/``TypeError``/``ValueError`` for other data."""
        best = [Candidate(None if m is None else int(m), float(w), int(v), [None if p is None else int(p) for p in pv])
                for m, w, v, pv in data["best"]]
        return cls(float(data["winrate"]), float(data["score"]), best, int(data["playouts"]))


@dataclass(frozen=True)
class MoveReview:
    """Move ``n`` (1-based; 0: the start, no move) of the game reviewed; see the module docstring."""

    n: int
    color: int | None
    played: int | None
    winrate: float
    score: float
    loss: float | None
    winrate_loss: float | None
    best: list[Candidate]

    def as_dict(self, size: int) -> dict[str, Any]:
        """The review of this move as JSON data, points as GTP vertices (``"pass"`` for a pass): ``n``,
        ``color`` ("B", "W" or None), ``played``, ``winrate``, ``score``, ``loss``, ``winrate_loss``,
        ``best`` [{``move``, ``winrate``, ``visits``, ``pv``}]."""
        return {
            "n": self.n,
            "color": None if self.color is None else ("B" if self.color == BLACK else "W"),
            "played": None if self.n == 0 else vertex(self.played, size),
            "winrate": round(self.winrate, 4),
            "score": round(self.score, 2),
            "loss": None if self.loss is None else round(self.loss, 2),
            "winrate_loss": None if self.winrate_loss is None else round(self.winrate_loss, 4),
            "best": [
                {"move": vertex(c.move, size), "winrate": round(c.winrate, 4), "visits": c.visits,
                 "pv": [vertex(p, size) for p in c.pv]}
                for c in self.best
            ],
        }


def vertex(point: int | None, size: int) -> str:
    """A board point as a GTP vertex, None (a pass) as ``"pass"``."""
    return "pass" if point is None else to_gtp(point, size)


def positions(game: Game) -> list[tuple[Game, int | None, int | None]]:
    """Return ``game``'s main line as (position, colour, point) for each move played, the position being the
    game just before the move, then (position after the last move, None, None). Nothing after the last move
    (a marking, a resignation) is kept. ``game`` is not changed."""
    g = game.copy()
    out: list[tuple[Game, int | None, int | None]] = []
    while g.events and g.events[-1].kind != "move":
        g.undo()
    out.append((g.copy(), None, None))
    while g.events:
        ev = g.undo()
        if ev.kind == "move":
            out.append((g.copy(), ev.color, ev.point))
    out.reverse()
    return out


def lower_priority() -> None:
    """Run the calling thread at ``NICE`` lower priority (Linux: per thread). Does nothing where the platform
    cannot."""
    # Not Linux, or not allowed: the review then just competes as usual.
    # Relative to the thread's priority now: a server started under ``nice`` keeps its reviews below itself (an
    # absolute 10 would have raised them above a process started at 19, as root may).
    with contextlib.suppress(AttributeError, OSError):
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + NICE))


class Analyst:
    """Searches positions one after another with one search tree (made on first use, compiled search)."""

    def __init__(self, budget: Budget | None = None, top: int = DEFAULT_TOP, seed: int | None = None) -> None:
        self.budget = budget if budget is not None else Budget()
        self.top = top
        self.seed = seed
        self._searcher: Any = None

    def _search(self) -> Any:
        if self._searcher is None:
            from keima.ai.searcher import Searcher
            from keima.ai.warmup import DEFAULT

            DEFAULT.run()  # compile here (or wait for the background compilation): a review is never quick
            self._searcher = Searcher(1 << 19, heavy=True, seed=self.seed, threads=1)
        return self._searcher

    def evaluate(self, game: Game, stop: Callable[[], bool] | None = None) -> Evaluation:
        """Search ``game``'s position for the side to move (also after the game's end, as if play went on).
        Raises ``Cancelled`` when ``stop`` answers True."""
        searcher = self._search()
        searcher.reset()  # positions of a review follow each other, but each is judged afresh
        color = int(game.to_move)
        if game.phase == "play":
            allowed = None
        else:
            # After two passes or a resignation: every empty point, for the search to see how play would go on.
            allowed = [p for p, c in enumerate(game.board.colors) if c == EMPTY]
        result = searcher.search(game, color, self.budget.seconds, self.budget.playouts, allowed, True, stop)
        if stop is not None and stop():
            raise Cancelled
        black = color == BLACK
        best: list[Candidate] = []
        for move, visits, wr in result.ranked[: self.top]:
            if visits < MIN_CANDIDATE_VISITS:
                break
            best.append(Candidate(move, wr if black else 1.0 - wr, int(visits),
                                  searcher.principal_variation(move, game.size)))
        mover_wr = result.winrate if result.playouts else 0.5
        return Evaluation(mover_wr if black else 1.0 - mover_wr, result.score, best, result.playouts)


def review_game(game: Game, budget: Budget | None = None, *, top: int = DEFAULT_TOP, seed: int | None = None,
                progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None,
                nice: bool = False) -> list[MoveReview]:
    """Review ``game``'s main line (see the module docstring); returns entry 0 (the start) and one entry per
    move. ``budget``: the search per position (default ``Budget()``); ``top``: candidates kept per position;
    ``progress(done, total)``: called after each position searched (``total`` = moves + 1); ``stop``: asked
    between playouts, ``Cancelled`` raised once it answers True; ``nice``: lower this thread's priority first
    (``lower_priority``). ``game`` is not changed."""
    if nice:
        lower_priority()
    analyst = Analyst(budget, top, seed)
    line = positions(game)
    total = len(line)
    evals: list[Evaluation] = []
    for i, (position, _color, _point) in enumerate(line):
        if stop is not None and stop():
            raise Cancelled
        evals.append(analyst.evaluate(position, stop))
        if progress is not None:
            progress(i + 1, total)
    return assemble(line, evals)


def assemble(line: list[tuple[Game, int | None, int | None]], evals: list[Evaluation]) -> list[MoveReview]:
    """The review of a game from its ``positions`` and an evaluation of each (the same length): entry 0 and one
    entry per move, each move's loss judged from the evaluations before and after it. Raises ``ValueError``
    when the lengths differ."""
    if len(line) != len(evals) or not evals:
        raise ValueError(f"{len(evals)} evaluations for {len(line)} positions")
    out = [MoveReview(0, None, None, evals[0].winrate, evals[0].score, None, None, [])]
    for n in range(1, len(line)):
        _position, color, point = line[n - 1]
        before, after = evals[n - 1], evals[n]
        sign = 1.0 if color == BLACK else -1.0
        loss = max(0.0, sign * (before.score - after.score))
        wr_loss = max(0.0, sign * (before.winrate - after.winrate))
        if before.best and before.best[0].move == point:
            loss = wr_loss = 0.0  # the search's own choice: what it lost is the search's noise, not the player's
        out.append(MoveReview(n, color if color in (BLACK, WHITE) else None, point, after.winrate, after.score,
                              loss, wr_loss, before.best))
    return out


def mistakes(reviews: list[MoveReview], count: int = 5, min_loss: float = 2.0) -> list[MoveReview]:
    """The ``count`` moves that lost the most points (at least ``min_loss``), largest first."""
    lost = [r for r in reviews if r.loss is not None and r.loss >= min_loss]
    return sorted(lost, key=lambda r: -(r.loss or 0.0))[:count]
