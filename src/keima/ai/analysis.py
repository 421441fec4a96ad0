"""Game review by the bot: each position of a finished game searched, the moves played judged against the best.

``review_game(game)`` searches every position of ``game``'s main line, from the start to the position after the
last move, with the bot's search (``keima.ai.searcher``) and returns one ``MoveReview`` per move played:

- ``winrate`` and ``score``: Black's chance of winning (0-1) and Black's expected lead in points (an area count,
  komi deducted) in the position *after* the move, as the search of that position sees them;
- ``best``: the search's top moves in the position *before* the move (the alternatives to it), each with Black's
  win rate and lead after it, its playouts, its principal variation and the points it loses against the first;
- ``loss``: the points the move lost for the player who made it (the lead before minus the lead after, from the
  mover's side; 0 when the move is the search's first choice, never negative); ``winrate_loss`` the same in
  win rate.

Entry 0 (``n == 0``, no move) holds the starting position's evaluation, so that a graph starts at the start.

A review runs in two passes (``ReviewRun``, the one path of ``keima review`` and of the server's reviews): every
position searched once, then a *refine* pass within a budget of searches (``refine_budget``) that searches again
the positions around the moves that lost the most and those that got the fewest playouts; then *checks* the
positions around the largest losses whose evaluation looks like a line read too well (``suspect``: one candidate
took a large share of the playouts, its lead far above every other's; ``Check``: the position after that candidate
searched, the opponent to move, with a search of its own; a lead read on a line whose refutation that search
finds is lowered, ``Evaluation.verified``), round after round as other moves come among the largest; then,
round after round, searches again those around the moves whose place among the five largest losses is still in doubt
(``unsettled``: a loss's standard error comes from the spread of its positions' searches, ``Evaluation.error``),
each evaluation merged with the ones before (``Evaluation.merged``): a search's lead wanders by a point or two
from one run to the next, and whether a search reads a tactical line whose refutation it misses is luck; the
moves a review names first are the ones that must not depend on the run. Each move is then classed by what it
lost (``CLASSES``, ``thresholds``) and each player gets an accuracy figure (``summary``).

Each search has the caller's ``Budget`` or, by default, ``default_budget``: a number of playouts by board size
(``DEFAULT_PLAYOUTS``) under a time cap (``CAP_SECONDS``) that an idle machine never reaches. Playouts, not time:
two reviews of one record must agree, and a time budget gives a loaded machine's search fewer playouts.

A review is slow (a search per position): ``review_game`` reports its progress, stops between playouts when its
``stop`` callable says so (raising ``Cancelled``) and, with ``nice``, lowers the priority of the thread it runs
in, so that live games' bot moves keep the processor (Linux schedules threads one by one: ``os.setpriority`` on the
thread's own id). The thread's priority cannot be raised back without privileges: call it with ``nice`` only in
a thread made for the review.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from keima.rules.board import BLACK, EMPTY, WHITE
from keima.rules.coords import to_gtp
from keima.rules.game import Game

#: Playouts of search per position when the caller gives no budget, by board size (``default_playouts``): a
#: review's default is work, not time, so that two reviews of one record agree whatever the machine's load
#: (at 1 s a position, a loaded machine gave a 19x19 position 200 to 1,300 playouts and the top five mistakes of
#: two reviews agreed on 14 of 25; measured: docs/bot.md, *Game review*). 9x9: two reviews agreed on 13 of 15 at
#: 4,000; 19x19: 3,000 agreed no better than 1,000 (the disagreement is elsewhere) at nearly twice the time, so
#: 1,000, about what 1 s gave there; 13x13 in between, not measured.
DEFAULT_PLAYOUTS = {9: 4000, 13: 2000, 19: 1000}
#: The time cap per position of the default budget (``default_budget``): the playouts end a search on an idle
#: machine well before it; it only bounds a review on a machine so loaded that it would never end.
CAP_SECONDS = 30.0
#: Playouts a second of one review search, by board size, as measured on a shared 2-core machine under load
#: (``bench/review_stability.py``; docs/bot.md): the time a search is expected to take (``expected_seconds``)
#: before a review has shown its own pace.
EXPECTED_RATE = {9: 5000, 13: 1000, 19: 500}
#: Candidate moves kept per position.
DEFAULT_TOP = 5
#: A candidate with fewer playouts than this is not shown (a move the search barely looked at has no win rate).
MIN_CANDIDATE_VISITS = 2
#: How much lower than normal a review's thread runs (``os.setpriority``; 19 is the lowest priority).
NICE = 10
#: The refine pass's first round searches again the positions before and after this many moves, those that lost
#: the most (at least ``REFINE_MOVES``, or one move in ``REFINE_SHARE``).
REFINE_MOVES = 8
REFINE_SHARE = 8
#: The share of the refine pass's budget (``refine_budget``) its first round may take.
FIRST_SHARE = 0.75
#: The later rounds of the refine pass settle which moves are the review's ``TOP_MISTAKES`` largest: a move within
#: ``SETTLE_Z`` standard errors of the line between the last of them and the next gets its positions searched
#: once more, up to ``MAX_SEARCHES`` searches a position.
TOP_MISTAKES = 5
SETTLE_Z = 1.0
MAX_SEARCHES = 4
#: Before the settling rounds, the positions around the ``CHECKED_MOVES`` largest losses are checked
#: (``Check``): the position after the first candidate searched, the opponent to move, for a refutation of the
#: line that made the position's lead. ``CHECK_SALT``: the check's seed offset (``Analyst.evaluate``'s ``salt``),
#: apart from those of the searches again of a position.
CHECKED_MOVES = TOP_MISTAKES + 3
CHECK_SALT = 64
#: Only a position whose evaluation looks like a line read too well is checked (``suspect``): its first candidate
#: took at least ``CHECK_SHARE`` of the playouts (a search locked onto a line gives it 90 % of them; merged with a
#: search that did not, about half) and its lead stands ``CHECK_MARGIN`` usual spreads (``spread``) above every
#: other candidate's (or no other has one). Elsewhere a check's lead after one answer stands below
#: the tree's mean over every answer it tried by 5 to 10 points on 19x19 at 1,000 playouts (measured:
#: docs/bot.md), a bias, not a refutation, and the searches it takes are the settling rounds' budget.
CHECK_SHARE = 0.4
#: The moves of a line a review shows (``Searcher.principal_variation``'s default).
PV_LENGTH = 8
CHECK_MARGIN = 2.0
#: A search's usual spread of a position's lead on 9x9 (standard deviation in points, ``spread``; measured:
#: docs/bot.md) and how many searches' worth it counts for against the spread observed (``Evaluation.error``).
SPREAD = 1.5
SPREAD_WEIGHT = 2
#: A position whose search got fewer playouts than this share of the median is searched again too.
FEW_PLAYOUTS = 0.5
#: Classes of a move by the points it lost, each from its threshold up (``thresholds``): the same points on every
#: board, a point being a point in the count; set at about twice what the refined review's loss wanders from one
#: run to the next, so that a class names the move, not the search's noise (docs/web-ui.md).
CLASSES = ("inaccuracy", "mistake", "blunder")
THRESHOLDS = (2.0, 4.0, 8.0)


def default_playouts(size: int) -> int:
    """The default playouts a position on a ``size`` board (``DEFAULT_PLAYOUTS``; another size takes the figure
    of the nearest listed size at or above it, 19x19's above 19)."""
    for listed in sorted(DEFAULT_PLAYOUTS):
        if size <= listed:
            return DEFAULT_PLAYOUTS[listed]
    return DEFAULT_PLAYOUTS[max(DEFAULT_PLAYOUTS)]


class Cancelled(Exception):
    """The review was stopped by its ``stop`` callable."""


@dataclass(frozen=True)
class Budget:
    """The search per position: at most ``seconds`` and at most ``playouts`` (None: no limit of that kind; at
    least one must be set)."""

    seconds: float | None = None
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a review budget needs seconds or playouts")
        if self.seconds is not None and not (0 < self.seconds <= 600):
            raise ValueError(f"seconds per position must be in (0, 600], not {self.seconds}")
        if self.playouts is not None and not (1 <= self.playouts <= 1_000_000):
            raise ValueError(f"playouts per position must be in 1..1000000, not {self.playouts}")


def expected_seconds(size: int, budget: Budget | None = None) -> float:
    """About how long one search of ``budget`` (default ``default_budget(size)``) takes on a ``size`` board: its
    playouts at ``EXPECTED_RATE`` (the nearest listed size at or above), within its seconds."""
    budget = budget or default_budget(size)
    rate = next((EXPECTED_RATE[n] for n in sorted(EXPECTED_RATE) if size <= n), EXPECTED_RATE[max(EXPECTED_RATE)])
    guess = budget.playouts / rate if budget.playouts is not None else math.inf
    return min(guess, budget.seconds if budget.seconds is not None else math.inf)


def default_budget(size: int) -> Budget:
    """The review's budget a position when the caller gives none, on a ``size`` board: ``default_playouts(size)``
    playouts, at most ``CAP_SECONDS``."""
    return Budget(seconds=CAP_SECONDS, playouts=default_playouts(size))


@dataclass(frozen=True)
class Candidate:
    """One of the search's top moves: ``move`` (a board point, None for a pass), ``winrate`` Black's after it,
    ``visits`` its playouts, ``pv`` the line the search expects, starting with the move, ``score`` Black's lead
    after it (the mean of its playouts; None when unknown)."""

    move: int | None
    winrate: float
    visits: int
    pv: list[int | None] = field(default_factory=list)
    score: float | None = None


def candidate_losses(best: list[Candidate], color: int | None) -> list[float | None]:
    """The points each of ``best`` loses against the first, for ``color`` (the side that plays it): never negative,
    0 for the first, None where a lead is unknown."""
    if not best or best[0].score is None or color not in (BLACK, WHITE):
        return [None] * len(best)
    sign = 1.0 if color == BLACK else -1.0
    top = best[0].score
    return [None if c.score is None else max(0.0, sign * (top - c.score)) for c in best]


def _weighted(a: float, wa: float, b: float, wb: float) -> float:
    return (a * wa + b * wb) / (wa + wb) if wa + wb > 0 else (a + b) / 2


def _either(a: float | None, wa: float, b: float | None, wb: float) -> float | None:
    """``_weighted`` of two figures either of which may be unknown (None): the known one alone, if one."""
    if a is None or b is None:
        return a if b is None else b
    return _weighted(a, wa, b, wb)


@dataclass(frozen=True)
class Check:
    """A search of the position after an evaluation's first candidate ``move``, played by ``color``: Black's
    ``score`` and ``winrate`` after the reply that search chose (its most visited move, the opponent's best
    answer as a search at the root sees it), its ``playouts``, and ``pv`` the line checked (the move, then the
    reply's line)."""

    move: int | None
    color: int
    score: float
    winrate: float
    playouts: int
    pv: list[int | None] = field(default_factory=list)

    def as_list(self) -> list[Any]:
        """This check as JSON data (``from_list``)."""
        return [self.move, self.color, self.score, self.winrate, self.playouts, self.pv]

    @classmethod
    def from_list(cls, data: list[Any]) -> Check:
        """The check ``as_list`` gave; raises ``TypeError``/``ValueError`` for other data."""
        move, color, score, winrate, playouts, pv = data
        return cls(None if move is None else int(move), int(color), float(score), float(winrate), int(playouts),
                   [None if p is None else int(p) for p in pv])


@dataclass(frozen=True)
class Evaluation:
    """One position searched: Black's ``winrate`` and expected ``score`` lead, the top moves of the side to move
    (``best``), the playouts it took; ``searches`` how many searches were merged into it, ``wanted`` how many the
    review's plan asks for (the refine pass raises it); ``check`` the search of the position after the first
    candidate (``Check``, ``verified``), ``checking`` whether the plan asks for one."""

    winrate: float
    score: float
    best: list[Candidate]
    playouts: int
    searches: int = 1
    wanted: int = 1
    samples: tuple[float, ...] = ()
    check: Check | None = None
    checking: bool = False

    def as_dict(self) -> dict[str, Any]:
        """This evaluation as JSON data (points as integers, a pass as None), for ``from_dict``."""
        out = {"winrate": self.winrate, "score": self.score, "playouts": self.playouts,
               "searches": self.searches, "wanted": self.wanted, "samples": list(self.leads),
               "best": [[c.move, c.winrate, c.visits, c.pv, c.score] for c in self.best]}
        if self.check is not None:
            out["check"] = self.check.as_list()
        if self.checking:
            out["checking"] = True
        return out

    @property
    def searched(self) -> int:
        """Searches done for this position: its own and its check's."""
        return self.searches + (self.check is not None)

    @property
    def planned(self) -> int:
        """Searches the plan asks for this position, its check's included (those done if more)."""
        return max(self.wanted, self.searches) + (self.checking or self.check is not None)

    def verified(self) -> Evaluation:
        """This evaluation as its check (``check``) leaves it: when the check finds the first candidate worth less
        to its player than the search's own playouts through it said (a line the search read in its tree, whose
        refutation a search at the root of the position after the move finds), those playouts count at the
        check's lead and win rate: the candidate's share of the position's playouts moves the position's figures
        by the difference, the candidate's figures are the check's. The candidate's line is the checked one
        whatever the check finds. Unchanged without a check, or when the checked move is no longer a candidate;
        the check itself is not kept."""
        check = self.check
        if check is None:
            return self
        k = next((i for i, c in enumerate(self.best) if c.move == check.move), None)
        if k is None:
            return replace(self, check=None)
        cand = self.best[k]
        sign = 1.0 if check.color == BLACK else -1.0
        best = list(self.best)
        if cand.score is None or sign * (check.score - cand.score) >= 0:
            # The check confirms the move, or finds it better: an answer the tree had read and the check's search
            # missed, whose reading stands (only a refutation found is evidence that the tree's lead was wrong).
            best[k] = replace(cand, pv=check.pv)
            return replace(self, best=best, check=None)
        share = min(1.0, cand.visits / self.playouts) if self.playouts else 1.0
        winrate = min(1.0, max(0.0, self.winrate + share * (check.winrate - cand.winrate)))
        best[k] = replace(cand, winrate=check.winrate, score=check.score, pv=check.pv)
        return replace(self, winrate=winrate, score=self.score + share * (check.score - cand.score), best=best,
                       check=None)

    @property
    def leads(self) -> tuple[float, ...]:
        """Black's lead as each search merged here saw it (``samples``; the merged ``score`` alone for an
        evaluation stored before they were kept)."""
        return self.samples or (self.score,)

    def error(self, size: int) -> float:
        """The standard error of ``score`` on a ``size`` board: the spread of the searches' leads, drawn towards
        ``SPREAD`` (a search's usual spread there, worth ``SPREAD_WEIGHT`` searches: two searches that happen to
        agree do not make a position certain), divided by the square root of the searches."""
        leads = self.leads
        k = len(leads)
        mean = sum(leads) / k
        squares = sum((x - mean) ** 2 for x in leads)
        prior = spread(size)
        variance = (SPREAD_WEIGHT * prior * prior + squares) / (SPREAD_WEIGHT + k - 1)
        return math.sqrt(variance / k)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evaluation:
        """The evaluation ``as_dict`` gave (or gave before candidates had a lead); raises
        ``KeyError``/``TypeError``/``ValueError`` for other data."""
        best = []
        for m, w, v, pv, *rest in data["best"]:
            score = None if not rest or rest[0] is None else float(rest[0])
            best.append(Candidate(None if m is None else int(m), float(w), int(v),
                                  [None if p is None else int(p) for p in pv], score))
        samples = tuple(float(x) for x in data.get("samples", ()))
        check = None if data.get("check") is None else Check.from_list(data["check"])
        return cls(float(data["winrate"]), float(data["score"]), best, int(data["playouts"]),
                   int(data.get("searches", 1)), int(data.get("wanted", 1)), samples, check,
                   bool(data.get("checking", False)))

    def merged(self, other: Evaluation, top: int = DEFAULT_TOP) -> Evaluation:
        """This evaluation and ``other`` (another search of the same position) as one: win rates and leads
        weighted by playouts, candidates by move (visits added, the line of the search that visited the move
        most), the ``top`` most visited kept; the check (``check``) of either, this one's first."""
        moves: dict[int | None, Candidate] = {}
        for cand in [*self.best, *other.best]:
            old = moves.get(cand.move)
            if old is None:
                moves[cand.move] = cand
                continue
            moves[cand.move] = Candidate(cand.move, _weighted(old.winrate, old.visits, cand.winrate, cand.visits),
                                         old.visits + cand.visits, old.pv if old.visits >= cand.visits else cand.pv,
                                         _either(old.score, old.visits, cand.score, cand.visits))
        best = sorted(moves.values(), key=lambda c: -c.visits)[:top]
        a, b = self.playouts, other.playouts
        return Evaluation(_weighted(self.winrate, a, other.winrate, b), _weighted(self.score, a, other.score, b),
                          best, a + b, self.searches + other.searches, max(self.wanted, other.wanted),
                          self.leads + other.leads, self.check or other.check, self.checking or other.checking)

    def wanting(self, wanted: int) -> Evaluation:
        """This evaluation with the plan asking for at least ``wanted`` searches."""
        return replace(self, wanted=max(self.wanted, wanted))


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
    searches: int = 1

    @property
    def kind(self) -> str | None:
        """The move's class by its loss (``move_class``)."""
        return move_class(self.loss)

    def as_dict(self, size: int) -> dict[str, Any]:
        """The review of this move as JSON data, points as GTP vertices (``"pass"`` for a pass): ``n``,
        ``color`` ("B", "W" or None), ``played``, ``winrate``, ``score``, ``loss``, ``winrate_loss``, ``class``
        (``move_class``), ``searches`` (of the position after the move, its check's included), ``best`` [{``move``, ``winrate``,
        ``score``, ``loss`` (points against the first), ``visits``, ``pv``}]."""
        losses = candidate_losses(self.best, self.color)
        return {
            "n": self.n,
            "color": None if self.color is None else ("B" if self.color == BLACK else "W"),
            "played": None if self.n == 0 else vertex(self.played, size),
            "winrate": round(self.winrate, 4),
            "score": round(self.score, 2),
            "loss": None if self.loss is None else round(self.loss, 2),
            "winrate_loss": None if self.winrate_loss is None else round(self.winrate_loss, 4),
            "class": self.kind,
            "searches": self.searches,
            "best": [candidate_dict(c, lost, size) for c, lost in zip(self.best, losses, strict=True)],
        }


def candidate_dict(cand: Candidate, lost: float | None, size: int) -> dict[str, Any]:
    """A candidate as JSON data (``MoveReview.as_dict``'s ``best`` entries)."""
    return {"move": vertex(cand.move, size), "winrate": round(cand.winrate, 4),
            "score": None if cand.score is None else round(cand.score, 2),
            "loss": None if lost is None else round(lost, 2), "visits": cand.visits,
            "pv": [vertex(p, size) for p in cand.pv]}


def move_class(loss: float | None) -> str | None:
    """The class (``CLASSES``) of a move that lost ``loss`` points: the highest whose threshold it reaches; None
    under the first."""
    kind = None
    for name, threshold in zip(CLASSES, THRESHOLDS, strict=True):
        if loss is not None and loss >= threshold:
            kind = name
    return kind


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
    """Searches positions one after another with one search tree (made on first use, compiled search), each
    within ``budget`` (None: ``default_budget`` of the position's board size)."""

    def __init__(self, budget: Budget | None = None, top: int = DEFAULT_TOP, seed: int | None = None) -> None:
        self.budget = budget
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

    def evaluate(self, game: Game, stop: Callable[[], bool] | None = None, salt: int = 0,
                 budget: Budget | None = None) -> Evaluation:
        """Search ``game``'s position for the side to move (also after the game's end, as if play went on).
        ``salt``: with a seed, another search of a position searched before gets another one (a refine search
        that repeated the first would add nothing); ``budget``: this search's, instead of the analyst's. Raises
        ``Cancelled`` when ``stop`` answers True."""
        searcher = self._search()
        searcher.reset()  # positions of a review follow each other, but each is judged afresh
        if self.seed is not None:
            searcher.seed = self.seed + 7919 * salt
        color = int(game.to_move)
        if game.phase == "play":
            allowed = None
        else:
            # After two passes or a resignation: every empty point, for the search to see how play would go on.
            allowed = [p for p, c in enumerate(game.board.colors) if c == EMPTY]
        budget = budget or self.budget or default_budget(game.size)
        result = searcher.search(game, color, budget.seconds, budget.playouts, allowed, True, stop)
        if stop is not None and stop():
            raise Cancelled
        black = color == BLACK
        best: list[Candidate] = []
        for move, visits, wr in result.ranked[: self.top]:
            if visits < MIN_CANDIDATE_VISITS:
                break
            best.append(Candidate(move, wr if black else 1.0 - wr, int(visits),
                                  searcher.principal_variation(move, game.size), result.scores.get(move)))
        mover_wr = result.winrate if result.playouts else 0.5
        return Evaluation(mover_wr if black else 1.0 - mover_wr, result.score, best, result.playouts,
                          samples=(result.score,))


def suspect(evaluation: Evaluation, color: int, size: int) -> bool:
    """Whether ``evaluation`` (of a position where ``color`` is to move, on a ``size`` board) looks like a line
    read too well, to be checked (``Check``): its first candidate took ``CHECK_SHARE`` of the playouts or more
    and its lead (from ``color``'s side) stands ``CHECK_MARGIN`` times ``spread(size)`` or more above every
    other candidate's, or no other candidate has a lead (a search that locked onto one line and found nothing
    near it: whether another run finds that line at all is luck)."""
    if not evaluation.best or evaluation.playouts <= 0:
        return False
    first = evaluation.best[0]
    if first.score is None or first.visits < CHECK_SHARE * evaluation.playouts:
        return False
    sign = 1.0 if color == BLACK else -1.0
    others = [sign * c.score for c in evaluation.best[1:] if c.score is not None]
    return not others or sign * first.score - max(others) >= CHECK_MARGIN * spread(size)


def refine_count(moves: int) -> int:
    """How many moves' positions the refine pass searches again at first, in a game of ``moves`` moves."""
    return min(moves, max(REFINE_MOVES, -(-moves // REFINE_SHARE)))


def refine_budget(moves: int) -> int:
    """The searches the refine pass may add to the first pass's in a game of ``moves`` moves: two for each of
    the ``refine_count`` moves of its first round (which, their positions shared between neighbouring moves,
    takes fewer; the checks and the settling rounds take the rest)."""
    return 2 * refine_count(moves)


def spread(size: int) -> float:
    """A search's usual spread of a position's lead (standard deviation, points) on a ``size`` board:
    ``SPREAD`` on 9x9, in proportion to the board's side above (the leads are larger)."""
    return SPREAD * max(1.0, size / 9)


def loss_error(before: Evaluation, after: Evaluation, size: int) -> float:
    """The standard error of the loss of the move between positions ``before`` and ``after`` (the two
    evaluations' errors, ``Evaluation.error``, being independent searches)."""
    return math.hypot(before.error(size), after.error(size))


def unsettled(reviews: list[MoveReview], evals: list[Evaluation], size: int, top: int | None = None) -> list[int]:
    """The moves (``n``) whose place among the ``top`` (default ``TOP_MISTAKES``) largest losses of
    ``reviews`` (``assemble`` of ``evals``) is in doubt, the most doubtful first: those among the ``top`` + 3
    largest whose loss is within ``SETTLE_Z`` standard errors (``loss_error``) of the line between the
    ``top``-th and the next. None when fewer moves lost anything."""
    top = TOP_MISTAKES if top is None else top
    ranked = sorted((r for r in reviews if r.loss), key=lambda r: (-(r.loss or 0.0), r.n))
    if len(ranked) <= top:
        return []
    line = ((ranked[top - 1].loss or 0.0) + (ranked[top].loss or 0.0)) / 2
    doubt = []
    for r in ranked[: top + 3]:
        error = loss_error(evals[r.n - 1], evals[r.n], size)
        distance = abs((r.loss or 0.0) - line) / error
        if distance < SETTLE_Z:
            doubt.append((distance, r.n))
    return [n for _d, n in sorted(doubt)]


class ReviewRun:
    """A review under way: ``line`` (``positions``) and ``evals`` so far (the server stores them between its
    chunks and gives them back here). ``step`` searches the next position the plan asks for: each position once,
    in order, then the refine pass (the module docstring), whose plan is made when the first pass is over and
    kept in the evaluations' ``wanted``."""

    def __init__(self, line: list[tuple[Game, int | None, int | None]], evals: list[Evaluation] | None = None,
                 refine: bool = True) -> None:
        self.line = line
        self.evals = list(evals or [])
        self.refine = refine
        self._replan()

    @property
    def complete(self) -> bool:
        """Every position searched as often as the plan asks (the plan is made as soon as a pass ends)."""
        return len(self.evals) == len(self.line) and self._next() is None

    @property
    def done(self) -> int:
        """Searches done (checks included)."""
        return sum(e.searched for e in self.evals)

    @property
    def total(self) -> int:
        """Searches the review will take at most: the first pass and the refine pass's budget
        (``refine_budget``, checks included), the searches done once the review is complete (the settling rounds stop as soon as
        the largest mistakes are told apart, often before the budget is spent)."""
        first = len(self.line)
        if not self.refine:
            return first
        if self.complete:
            return self.done
        return max(first + refine_budget(first - 1), sum(e.planned for e in self.evals))

    def _next(self) -> int | None:
        """The position whose search comes next: the first pass in order, then the searches again a round asks
        for, then its checks (after the searches again, so that a check takes the first candidate they leave)."""
        if len(self.evals) < len(self.line):
            return len(self.evals)
        for i, e in enumerate(self.evals):
            if e.searches < e.wanted:
                return i
        for i, e in enumerate(self.evals):
            if e.checking and e.check is None:
                return i
        return None

    def checkable(self, i: int) -> bool:
        """Whether position ``i`` is to be checked (``Check``): in play, its evaluation ``suspect``, not checked
        nor asked for yet."""
        e = self.evals[i]
        position = self.line[i][0]
        return (position.phase == "play" and e.check is None and not e.checking
                and suspect(e, int(position.to_move), position.size))

    def _replan(self) -> None:
        """Once every search asked for is done, plan the next round of the refine pass (if any)."""
        if self.refine and len(self.evals) == len(self.line) and self._next() is None:
            self._plan()

    def _plan(self) -> bool:
        """Plan the next round of the refine pass; returns whether it asked for any search. The first round
        asks for a second search of the positions around the moves that lost the most (the ``refine_count``
        largest) and of the positions of few playouts; each later round for the checks (``Check``) of the
        positions around the ``CHECKED_MOVES`` largest losses not checked yet, the largest first, while there
        are any, then (``unsettled``) for one more search of the positions around the moves whose place among
        the ``TOP_MISTAKES`` largest the searches so far leave in doubt, while the refine pass's budget
        (``refine_budget``, checks included) lasts."""
        if len(self.evals) < len(self.line) or len(self.line) < 2:
            return False
        reviews = assemble(self.line, self.evals)
        budget = refine_budget(len(self.line) - 1)
        left = len(self.line) + budget - sum(e.planned for e in self.evals)
        if all(e.wanted == 1 for e in self.evals):
            # The largest losses first, then the positions of fewest playouts, within a share of the budget: the
            # settling rounds need the rest.
            ranked = sorted((r for r in reviews if r.loss), key=lambda r: (-(r.loss or 0.0), r.n))
            order = [i for r in ranked[: refine_count(len(self.line) - 1)] for i in (r.n - 1, r.n)]
            median = sorted(e.playouts for e in self.evals)[len(self.evals) // 2]
            order += sorted((i for i, e in enumerate(self.evals) if e.playouts < FEW_PLAYOUTS * median),
                            key=lambda i: self.evals[i].playouts)
            left = min(left, int(FIRST_SHARE * budget))
        else:
            ranked = sorted((r for r in reviews if r.loss), key=lambda r: (-(r.loss or 0.0), r.n))
            checks = [i for r in ranked[:CHECKED_MOVES] for i in (r.n - 1, r.n) if self.checkable(i)]
            if checks and left > 0:
                # Check the positions around the largest losses first, largest first: a lead read on a line whose
                # refutation the search missed is worth more to correct than a search's noise to average.
                for i in dict.fromkeys(checks):
                    if left <= 0:
                        break
                    self.evals[i] = replace(self.evals[i], checking=True)
                    left -= 1
                return True
            order = [i for n in unsettled(reviews, self.evals, self.line[0][0].size) for i in (n - 1, n)]
        asked: set[int] = set()
        for i in order:
            e = self.evals[i]
            if i in asked or e.searches >= MAX_SEARCHES or len(asked) >= left:
                continue
            asked.add(i)
            self.evals[i] = e.wanting(e.searches + 1)
        return bool(asked)

    def step(self, analyst: Analyst, stop: Callable[[], bool] | None = None) -> bool:
        """Search the next position the plan asks for; returns False (searching nothing) once the review is
        complete. Raises ``Cancelled`` (``Analyst.evaluate``)."""
        i = self._next()
        if i is None:
            return False
        e = self.evals[i] if i < len(self.evals) else None
        if e is None:
            self.evals.append(analyst.evaluate(self.line[i][0], stop))
        elif e.searches < e.wanted:
            again = analyst.evaluate(self.line[i][0], stop, salt=e.searches)
            self.evals[i] = e.merged(again, analyst.top)
        else:
            self.evals[i] = self._check(i, analyst, stop)
        self._replan()
        return True

    def _check(self, i: int, analyst: Analyst, stop: Callable[[], bool] | None) -> Evaluation:
        """Position ``i``'s evaluation with its check (``Check``): the position after its first candidate
        searched with the analyst's budget, the reply that search chose giving the check's figures (Black's lead
        and win rate after it, the mean of its playouts: the reply the opponent would choose, not the mean over
        every reply the search tried). Without a candidate (none can be: the plan checks those that have one),
        the plan's request is dropped."""
        e = self.evals[i]
        position = self.line[i][0]
        if not e.best:
            return replace(e, checking=False)
        move = e.best[0].move
        after = position.copy()
        after.play(move)
        ev = analyst.evaluate(after, stop, salt=CHECK_SALT + e.searches)
        reply = next((c for c in ev.best if c.score is not None), None)
        score, winrate = (ev.score, ev.winrate) if reply is None else (reply.score or 0.0, reply.winrate)
        # As long as a search's own line (``Searcher.principal_variation``: 8 moves), the move included.
        line = [move, *(reply.pv if reply is not None else [])][:PV_LENGTH]
        return replace(e, check=Check(move, int(position.to_move), score, winrate, ev.playouts, line))

    def reviews(self) -> list[MoveReview]:
        """The per-move review of the positions searched so far (``assemble``)."""
        return assemble(self.line[: len(self.evals)], self.evals) if self.evals else []


def review_game(game: Game, budget: Budget | None = None, *, top: int = DEFAULT_TOP, seed: int | None = None,
                progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None,
                nice: bool = False, refine: bool = True) -> list[MoveReview]:
    """Review ``game``'s main line (see the module docstring); returns entry 0 (the start) and one entry per
    move. ``budget``: the search per position (default ``default_budget(game.size)``); ``top``: candidates kept per position;
    ``progress(done, total)``: called after each search (``ReviewRun.done`` / ``total``: the positions, then
    the refine pass's); ``stop``: asked between playouts, ``Cancelled`` raised once it answers True; ``nice``:
    lower this thread's priority first (``lower_priority``); ``refine``: run the refine pass. ``game`` is not
    changed."""
    if nice:
        lower_priority()
    analyst = Analyst(budget, top, seed)
    run = ReviewRun(positions(game), refine=refine)
    while True:
        if stop is not None and stop():
            raise Cancelled
        if not run.step(analyst, stop):
            break
        if progress is not None:
            progress(run.done, run.total)
    return run.reviews()


def assemble(line: list[tuple[Game, int | None, int | None]], evals: list[Evaluation]) -> list[MoveReview]:
    """The review of a game from its ``positions`` and an evaluation of each (the same length): entry 0 and one
    entry per move, each move's loss judged from the evaluations before and after it, as their checks leave them
    (``Evaluation.verified``). Raises ``ValueError`` when the lengths differ."""
    if len(line) != len(evals) or not evals:
        raise ValueError(f"{len(evals)} evaluations for {len(line)} positions")
    # A position's searches as the review's progress counts them: its own and its check's (``verified`` drops it).
    searched = [e.searched for e in evals]
    evals = [e.verified() for e in evals]
    out = [MoveReview(0, None, None, evals[0].winrate, evals[0].score, None, None, [], searched[0])]
    for n in range(1, len(line)):
        _position, color, point = line[n - 1]
        before, after = evals[n - 1], evals[n]
        sign = 1.0 if color == BLACK else -1.0
        loss = max(0.0, sign * (before.score - after.score))
        wr_loss = max(0.0, sign * (before.winrate - after.winrate))
        if before.best and before.best[0].move == point:
            loss = wr_loss = 0.0  # the search's own choice: what it lost is the search's noise, not the player's
        out.append(MoveReview(n, color if color in (BLACK, WHITE) else None, point, after.winrate, after.score,
                              loss, wr_loss, before.best, searched[n]))
    return out


def mistakes(reviews: list[MoveReview], count: int | None = 5, min_loss: float = THRESHOLDS[0]) -> list[MoveReview]:
    """The ``count`` moves (None: all) that lost the most points (at least ``min_loss``), largest first."""
    lost = [r for r in reviews if r.loss is not None and r.loss >= min_loss]
    ranked = sorted(lost, key=lambda r: (-(r.loss or 0.0), r.n))
    return ranked if count is None else ranked[:count]


def accuracy(losses: list[float]) -> float | None:
    """A player's accuracy from the points each of their moves lost: the mean over the moves of
    ``100 * 2 ** (-loss / THRESHOLDS[1])`` (a move that loses nothing counts 100, a mistake's threshold 50, a
    blunder's 25); None without moves."""
    if not losses:
        return None
    return sum(100.0 * math.pow(2.0, -max(0.0, x) / THRESHOLDS[1]) for x in losses) / len(losses)


def summary(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Each player's figures from a review's moves as JSON data (``MoveReview.as_dict``): ``thresholds``
    (class -> points) and, for "B" and "W", ``moves`` (judged), ``accuracy`` (``accuracy``, one decimal),
    ``mean_loss`` (points a move), ``counts`` (class -> moves) and ``list`` (every move of a class, as
    {``n``, ``played``, ``loss``, ``class``}, largest loss first)."""
    out: dict[str, Any] = {"thresholds": dict(zip(CLASSES, THRESHOLDS, strict=True))}
    for color in ("B", "W"):
        mine = [m for m in moves if m.get("color") == color and m.get("loss") is not None]
        losses = [float(m["loss"]) for m in mine]
        listed = sorted((m for m in mine if move_class(m["loss"])), key=lambda m: (-m["loss"], m["n"]))
        acc = accuracy(losses)
        out[color] = {
            "moves": len(mine),
            "accuracy": None if acc is None else round(acc, 1),
            "mean_loss": round(sum(losses) / len(losses), 2) if losses else None,
            "counts": {k: sum(1 for m in listed if move_class(m["loss"]) == k) for k in CLASSES},
            "list": [{"n": m["n"], "played": m["played"], "loss": m["loss"], "class": move_class(m["loss"])}
                     for m in listed],
        }
    return out


def position_json(ev: Evaluation, color: int, size: int) -> dict[str, Any]:
    """One position's evaluation as JSON data (``POST /api/analysis/position``): Black's ``winrate`` and
    ``score``, ``to_move`` ("B"/"W"), ``playouts`` and the candidates of the side to move (``candidate_dict``)."""
    losses = candidate_losses(ev.best, color)
    return {"winrate": round(ev.winrate, 4), "score": round(ev.score, 2), "playouts": ev.playouts,
            "to_move": "B" if color == BLACK else "W",
            "best": [candidate_dict(c, lost, size) for c, lost in zip(ev.best, losses, strict=True)]}
