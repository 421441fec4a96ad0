"""Counting: territory regions, then every counting method of the rule texts, each with its full breakdown.

Territory of a colour: each maximal empty region (dead stones removed first) whose bordering stones are all of that
colour. A region bordered by both colours, or by none, is neutral (dame); ``open_points`` names the neutral points
still worth a move (the board is settled when there are none). Komi and handicap compensation go to
White. The methods (docs/rules.md, « Counting methods », cites the public texts):

``area``
    Stones on the board + territory (the FFG rules' count, « Fin de la partie », and the reference method of the
    EGC 2011 rules, « méthode des aires »). White also receives the ruleset's handicap bonus (n-1 under
    French/EGC/AGA, n under Chinese rules).
``territory``
    Territory + prisoners (captures, dead stones) + pass stones received, White passing last: if Black made the
    last move, White hands one extra stone (EGC 2011 explanations, « méthode des territoires »; AGA rules 7 and
    12). Its difference equals the area difference minus (n-1) in a game with n >= 2 handicap stones, and the area
    difference in an even game.
``quick-count``
    The FFG quick count (FFG rules, « Méthode de décompte rapide »): each player fills the opponent's territory
    with the opponent's stones he holds (captures, dead stones, pass stones, and the extra stone if Black played
    last), then empty points are compared; stones that do not fit count for their holder (EGC 2011 explanations,
    second example). White adds the komi (0.5 in a French handicap game). Same result as ``area`` with an n-1
    handicap bonus.
``japanese``
    Territory minus prisoners, Japanese style (Japanese 1989 rules, art. 8 and 10): territory + captures + dead
    stones, no pass stones, eyes of chains in seki are nobody's territory, dame not counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, TypeVar, cast, overload

from keima.rules.board import BLACK, EMPTY, WHITE, Board, color_name
from keima.rules.life import seki_points, seki_stones
from keima.rules.ruleset import Ruleset

T = TypeVar("T")

METHODS = ("area", "territory", "quick-count", "japanese")


def format_points(value: float) -> str:
    """Return ``value`` as SGF writes a score: ``5.5``, ``7``, ``0.5``."""
    return f"{value:g}"


def result_string(margin: float) -> str:
    """Return the SGF RE value for a black-minus-white ``margin``: ``"B+5.5"``, ``"W+0.5"`` or ``"0"``."""
    if margin > 0:
        return f"B+{format_points(margin)}"
    if margin < 0:
        return f"W+{format_points(-margin)}"
    return "0"


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One player's count under one method; fields a method does not use are zero."""

    stones: int = 0
    territory: int = 0
    captures: int = 0
    dead: int = 0
    pass_stones: int = 0
    extra_pass_stone: int = 0
    komi: float = 0.0
    handicap_bonus: int = 0
    filled: int = 0
    overflow: int = 0
    total: float = 0.0

    def as_dict(self) -> dict[str, float]:
        """Return the fields as a dict."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class MethodScore:
    """The count of one method: totals, margin (black - white), result string and both breakdowns."""

    name: str
    black: float
    white: float
    breakdown: Mapping[int, Breakdown]
    neutral: int = 0

    @property
    def margin(self) -> float:
        """Black's total minus White's."""
        return self.black - self.white

    @property
    def result(self) -> str:
        """The SGF RE string of this method's count."""
        return result_string(self.margin)

    def headline(self) -> dict[str, Any]:
        """Return the result and both totals as a JSON-safe dict (keys ``result``, ``black``, ``white``)."""
        return {"result": self.result, "black": self.black, "white": self.white}

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict: name, result, totals, margin, neutral and both breakdowns (keys "B", "W")."""
        return {
            "name": self.name,
            **self.headline(),
            "margin": self.margin,
            "neutral": self.neutral,
            "breakdown": {color_name(c): b.as_dict() for c, b in self.breakdown.items()},
        }


class _OwnMethod(Generic[T]):
    """A read-only attribute of ``Score`` that reads the field of the same name of its ruleset's own method."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, score: None, owner: type) -> _OwnMethod[T]: ...

    @overload
    def __get__(self, score: Score, owner: type | None = None) -> T: ...

    def __get__(self, score: Score | None, owner: type | None = None) -> T | _OwnMethod[T]:
        if score is None:
            return self  # read on the class: the descriptor itself, for help() and its docstring
        return cast(T, getattr(score.own, self.name))


@dataclass(frozen=True, slots=True)
class Score:
    """Every counting method applied to one position, with the ruleset's own method as the headline."""

    method: str
    methods: Mapping[str, MethodScore]
    dead: frozenset[int]
    territory: Mapping[int, frozenset[int]]
    neutral: frozenset[int]
    seki: frozenset[int]
    japanese_territory: Mapping[int, frozenset[int]] = field(default_factory=dict)

    @property
    def own(self) -> MethodScore:
        """The ruleset's own method."""
        return self.methods[self.method]

    black = _OwnMethod[float]("Black's total under the ruleset's own method.")
    white = _OwnMethod[float]("White's total under the ruleset's own method.")
    margin = _OwnMethod[float]("Black minus White under the ruleset's own method.")
    result = _OwnMethod[str]("The SGF RE string under the ruleset's own method.")

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict of the whole count."""
        return {
            **self.own.headline(),
            "method": self.method,
            "methods": {name: m.as_dict() for name, m in self.methods.items()},
            "dead": sorted(self.dead),
            "territory": {color_name(c): sorted(pts) for c, pts in self.territory.items()},
            "neutral": sorted(self.neutral),
            "seki": sorted(self.seki),
        }


def territory_regions(board: Board) -> tuple[dict[int, set[int]], set[int], list[tuple[set[int], set[int]]]]:
    """Return (territory by colour, neutral points, regions) of ``board`` as it stands.

    Each region is (empty points, bordering stone points)."""
    terr: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
    neutral: set[int] = set()
    regions = board.regions((EMPTY,))
    for pts, border in regions:
        border_colors = {board.colors[q] for q in border}
        if len(border_colors) == 1:
            terr[border_colors.pop()] |= pts
        else:
            neutral |= pts
    return terr, neutral, regions


#: The largest territory (empty points and dead stones' points) that counts as closed whatever playouts say: an
#: invader needs two eyes, and a two-eyed group takes at least six stones around two empty points that touch no
#: opposing stone, so in a region this small every invading stone can be answered before a second eye forms (a
#: 3x3 corner, where random playouts let an invader live now and then, is the classic case).
CLOSED_REGION = 9


@dataclass(frozen=True)
class Settlement:
    """What ``board`` says about the end of play once the dead stones are off (see :func:`settlement`)."""

    open: frozenset[int]
    """Empty points still worth a move: neutral points (bordered by both colours, or by none) but seki points."""
    seki: frozenset[int]
    """Seki points (``life.seki_points``): shared points neither side can fill without self-atari."""
    closed: frozenset[int]
    """Territory in regions of at most ``CLOSED_REGION`` points (the dead stones' points included)."""

    @property
    def settled(self) -> bool:
        """True when no point is open: every point is one side's territory or a seki point."""
        return not self.open


def settlement(board: Board, dead: frozenset[int] = frozenset()) -> Settlement:
    """Read ``board`` with the ``dead`` stones off (see :class:`Settlement`). ``board`` is not changed."""
    final = board.copy()
    final.remove(dead)
    _terr, neutral, regions = territory_regions(final)
    seki = seki_points(final) if neutral else frozenset()
    closed: set[int] = set()
    for pts, border in regions:
        if len({final.colors[q] for q in border}) == 1 and len(pts) <= CLOSED_REGION:
            closed |= pts
    return Settlement(frozenset(neutral - seki), frozenset(seki), frozenset(closed))


def open_points(board: Board, dead: frozenset[int] = frozenset()) -> frozenset[int]:
    """Return the empty points of ``board`` still worth a move once the ``dead`` stones are off: those of the
    neutral regions (bordered by both colours, or by none) except the seki points (``life.seki_points``), where
    a move loses or gains nothing. The board is settled, every point owned by one side or in seki, when this is
    empty. ``board`` is not changed."""
    return settlement(board, dead).open


def handicap_bonus(rules: Ruleset, handicap_stones: int) -> int:
    """Return the points White receives in an area count for ``handicap_stones`` under ``rules``: none, one per
    stone (``"n"``) or one per stone but the first (``"n-1"``); 0 for fewer than two stones (no handicap)."""
    n = handicap_stones if handicap_stones >= 2 else 0
    return {"none": 0, "n-1": max(n - 1, 0), "n": n}[rules.handicap_bonus]


def score_position(
    board: Board,
    rules: Ruleset,
    *,
    komi: float,
    handicap_stones: int,
    dead: frozenset[int],
    prisoners: Mapping[int, int],
    pass_count: Mapping[int, int],
    last_mover: int | None,
) -> Score:
    """Count ``board`` with ``dead`` stones removed under every method (see the module docstring).

    ``prisoners``: stones each colour captured in play; ``pass_count``: passes each colour made; ``last_mover``:
    the colour of the last move (for the White-passes-last stone). The board is not changed.
    """
    final = board.copy()
    dead_by = {BLACK: 0, WHITE: 0}
    for p in dead:
        c = board.colors[p]
        if c != EMPTY:
            dead_by[c] += 1
    final.remove(dead)
    terr, neutral, regions = territory_regions(final)
    stones = {c: final.count(c) for c in (BLACK, WHITE)}
    seki = seki_stones(final)
    jterr: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
    for pts, border in regions:
        cols = {final.colors[q] for q in border}
        if len(cols) == 1 and not (border & seki):
            jterr[cols.pop()] |= pts
    if not rules.seki_eyes_count:
        # A ruleset that gives seki eyes to nobody applies that to every method, not only the Japanese count.
        for c in (BLACK, WHITE):
            neutral |= terr[c] - jterr[c]
            terr[c] = set(jterr[c])
    bonus = handicap_bonus(rules, handicap_stones)
    extra = 1 if last_mover == BLACK else 0
    opp = {BLACK: WHITE, WHITE: BLACK}

    def komi_of(c: int) -> float:
        return komi if c == WHITE else 0.0

    # Area.
    area = {}
    for c in (BLACK, WHITE):
        b = bonus if c == WHITE else 0
        t = len(terr[c])
        area[c] = Breakdown(
            stones=stones[c],
            territory=t,
            komi=komi_of(c),
            handicap_bonus=b,
            total=stones[c] + t + komi_of(c) + b,
        )
    # Territory with pass stones, White passing last.
    tps = {}
    for c in (BLACK, WHITE):
        t = len(terr[c])
        ex = extra if c == BLACK else 0
        ps = pass_count[opp[c]]
        tps[c] = Breakdown(
            territory=t,
            captures=prisoners[c],
            dead=dead_by[opp[c]],
            pass_stones=ps,
            extra_pass_stone=ex,
            komi=komi_of(c),
            total=t + prisoners[c] + dead_by[opp[c]] + ps + ex + komi_of(c),
        )
    # FFG quick count.
    held = {c: prisoners[c] + dead_by[opp[c]] + pass_count[opp[c]] + (extra if c == BLACK else 0) for c in (BLACK, WHITE)}
    quick = {}
    for c in (BLACK, WHITE):
        t = len(terr[c])
        filled = min(held[opp[c]], t)  # opponent's stones placed in my territory
        mine_placed = min(held[c], len(terr[opp[c]]))
        overflow = held[c] - mine_placed
        quick[c] = Breakdown(
            territory=t,
            captures=prisoners[c],
            dead=dead_by[opp[c]],
            pass_stones=pass_count[opp[c]],
            extra_pass_stone=extra if c == BLACK else 0,
            komi=komi_of(c),
            filled=filled,
            overflow=overflow,
            total=(t - filled) + overflow + komi_of(c),
        )
    # Japanese: territory minus prisoners.
    jap = {}
    for c in (BLACK, WHITE):
        t = len(jterr[c])
        jap[c] = Breakdown(
            territory=t,
            captures=prisoners[c],
            dead=dead_by[opp[c]],
            komi=komi_of(c),
            total=t + prisoners[c] + dead_by[opp[c]] + komi_of(c),
        )
    nn = len(neutral)
    jneutral = board.npoints - stones[BLACK] - stones[WHITE] - len(jterr[BLACK]) - len(jterr[WHITE])
    methods = {
        "area": MethodScore("area", area[BLACK].total, area[WHITE].total, area, nn),
        "territory": MethodScore("territory", tps[BLACK].total, tps[WHITE].total, tps, nn),
        "quick-count": MethodScore("quick-count", quick[BLACK].total, quick[WHITE].total, quick, nn),
        "japanese": MethodScore("japanese", jap[BLACK].total, jap[WHITE].total, jap, jneutral),
    }
    return Score(
        method="area" if rules.scoring == "area" else "japanese",
        methods=methods,
        dead=frozenset(dead),
        territory={c: frozenset(terr[c]) for c in (BLACK, WHITE)},
        neutral=frozenset(neutral),
        seki=seki,
        japanese_territory={c: frozenset(jterr[c]) for c in (BLACK, WHITE)},
    )
