"""The count, step by step: every counting method of ``scoring.py`` told as the sequence a referee follows.

``count_steps`` takes the very ``Score`` that ``score_position`` returns (the totals ``keima score`` prints and a
finished game shows) and splits each method's ``Breakdown`` into steps. Each step adds some of the breakdown's
fields to a running total, so the last step's totals are the method's totals by construction (and a test checks
it on many random games). Each step also says which points it changes on the board, so that a UI can show the
board as the count goes: stones removed, stones placed, points counted (with their owner).

The sentence shown at each step is not written here: the UI renders it from its FR and EN strings keyed by the
step's ``kind``, with the step's ``values``. Each step carries a ``rule`` reference (a source code and the part
of that public text the step follows; docs/rules.md, « Public sources », gives the addresses):

``ffg``             FFG rules, « Règle française du jeu de go »
``ffg-quick-count`` FFG rules, « Méthode de décompte rapide », and the FFG page of the same name (diagrams 14-19)
``egc2011``         EGC 2011 rules, R. Jasiek's explanations (examples numbered 1-9)
``aga``             AGA Rules of Go (rules numbered)
``japanese-1989``   Japanese Rules of Go, 1989 (articles numbered)
``tromp-taylor``    Tromp-Taylor concise rules (rules numbered)
``chinese``         the written Chinese rules (n points to White in a handicap game)

The methods, step kinds in order (a step with nothing to show is left out where noted):

``quick-count`` (FFG quick count)
    ``qc-prisoners`` each side keeps the stones it captured; ``qc-pass-stones`` each pass hands one stone to the
    opponent; ``qc-black-last`` one more stone from White when Black moved last (kept even at zero: it says that
    White passed last); ``qc-dead`` the dead stones come off the board and join their captor's prisoners;
    ``qc-fill`` (one step per colour, Black's prisoners first) each side's prisoners go into the other side's
    territory; ``qc-count`` the empty points left in each territory are counted; ``qc-overflow`` (only when
    some prisoners did not fit) they count for their holder; ``qc-komi`` White adds komi.
``area``
    ``area-dead`` the dead stones are removed; ``area-stones`` the stones on the board; ``area-territory`` the
    empty points each colour surrounds; ``area-neutral`` (only if there are some) the points that count for
    nobody; ``area-komi``; ``area-handicap`` (only with a compensation) White's handicap compensation.
``territory`` (territory with pass stones, White passes last)
    ``tps-dead`` dead stones removed, they count as prisoners; ``tps-territory``; ``tps-captures``;
    ``tps-pass-stones``; ``tps-white-last`` the stone White hands over when Black moved last (kept at zero);
    ``tps-komi``.
``japanese`` (territory minus prisoners)
    ``jp-dead``; ``jp-territory``; ``jp-seki`` (only if some empty points touch a chain in seki) eyes of chains
    in seki count for nobody; ``jp-captures``; ``jp-komi``.

Where the quick count puts each prisoner: the FFG text only says that the prisoners are put into the opponent's
territory. The count does not depend on which points receive them: a prisoner placed on any point of the
territory removes exactly that one point from the count of empty points. keima fills the territory in reading
order (top row first, left to right), so that the same position always shows the same board. When a side holds
more prisoners than the other side has territory, the territory is filled completely and the stones left over
stay in the holder's hands; they count one point each for the holder (``overflow``), which is what putting them
in the holder's own count amounts to, and what the EGC 2011 explanations do in example 2. The quick count's
result stays the area result (with an n-1 handicap compensation), as docs/rules.md states and tests/rules prove.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from keima.rules.board import BLACK, EMPTY, WHITE, Board, color_name
from keima.rules.game import Game
from keima.rules.ruleset import Ruleset
from keima.rules.scoring import METHODS, Breakdown, Score, territory_regions

_OPP = {BLACK: WHITE, WHITE: BLACK}


@dataclass(frozen=True, slots=True)
class RuleRef:
    """Where a step's rule is written: ``source`` (a code of the module docstring) and the part of that text."""

    source: str
    article: str


FFG_END = RuleRef("ffg", "« Fin de la partie »")
FFG_HANDICAP = RuleRef("ffg", "« Partie à handicap »")
FFG_QUICK = RuleRef("ffg-quick-count", "« Méthode de décompte rapide », diagrams 14-16")
FFG_QUICK_HANDICAP = RuleRef("ffg-quick-count", "« Méthode de décompte rapide », diagrams 17-19")
EGC_OVERFLOW = RuleRef("egc2011", "example 2")
EGC_AREA = RuleRef("egc2011", "example 1")
EGC_TERRITORY = RuleRef("egc2011", "« méthode des territoires », examples 1-2")
AGA_PASS = RuleRef("aga", "rule 7")
AGA_COUNT = RuleRef("aga", "rule 12")
CHINESE_HANDICAP = RuleRef("chinese", "handicap compensation")
TT_SCORE = RuleRef("tromp-taylor", "rule 9")
JP_TERRITORY = RuleRef("japanese-1989", "art. 8")
JP_RESULT = RuleRef("japanese-1989", "art. 10")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a count.

    ``kind``: a stable code (module docstring); ``color``: the side the step is about, or None for both;
    ``values``: the numbers the step's sentence names, by side ("B", "W"); ``removed``: points whose stone is
    taken off at this step; ``placed``: (point, colour) of stones put on the board; ``counted``: (point, owner)
    of points counted at this step, owner ``EMPTY`` for points that count for nobody; ``totals``: each side's
    running total after this step; ``held``: the stones each side holds in hand after this step (the quick
    count; zero elsewhere); ``rule``: where the rule is written.
    """

    kind: str
    color: int | None
    values: Mapping[str, float]
    totals: Mapping[int, float]
    held: Mapping[int, int]
    rule: RuleRef
    removed: tuple[int, ...] = ()
    placed: tuple[tuple[int, int], ...] = ()
    counted: tuple[tuple[int, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict; colours as "B"/"W" (and "N" for nobody in ``counted``)."""

        def name(c: int) -> str:
            return "N" if c == EMPTY else color_name(c)

        return {
            "kind": self.kind,
            "color": None if self.color is None else color_name(self.color),
            "values": dict(self.values),
            "removed": list(self.removed),
            "placed": [[p, name(c)] for p, c in self.placed],
            "counted": [[p, name(c)] for p, c in self.counted],
            "totals": {color_name(c): v for c, v in self.totals.items()},
            "held": {color_name(c): v for c, v in self.held.items()},
            "rule": {"source": self.rule.source, "article": self.rule.article},
        }


@dataclass(slots=True)
class _Builder:
    """Accumulates steps, keeping the running totals and the stones in hand."""

    totals: dict[int, float] = field(default_factory=lambda: {BLACK: 0.0, WHITE: 0.0})
    held: dict[int, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    steps: list[Step] = field(default_factory=list)

    def add(
        self,
        kind: str,
        rule: RuleRef,
        *,
        gain: Mapping[int, float] | None = None,
        hold: Mapping[int, int] | None = None,
        values: Mapping[str, float] | None = None,
        color: int | None = None,
        removed: tuple[int, ...] = (),
        placed: tuple[tuple[int, int], ...] = (),
        counted: tuple[tuple[int, int], ...] = (),
    ) -> None:
        for c, v in (gain or {}).items():
            self.totals[c] += v
        for c, n in (hold or {}).items():
            self.held[c] += n
        if values is None:
            values = {color_name(c): v for c, v in (gain or hold or {}).items()}
        self.steps.append(
            Step(kind, color, dict(values), dict(self.totals), dict(self.held), rule, removed, placed, counted)
        )


def _both(b: Mapping[int, Breakdown], name: str) -> dict[int, float]:
    return {c: float(getattr(b[c], name)) for c in (BLACK, WHITE)}


def _marks(points: Mapping[int, frozenset[int]] | Mapping[int, set[int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((p, c) for c, pts in points.items() for p in pts))


def _komi_rule(rules: Ruleset, handicap: int) -> RuleRef:
    if handicap >= 1 and rules.handicap_komi is not None:
        return FFG_HANDICAP
    return FFG_END


def _quick(
    score: Score, b: Mapping[int, Breakdown], dead_points: tuple[int, ...], handicap: int
) -> tuple[Step, ...]:
    out = _Builder()
    out.add("qc-prisoners", FFG_QUICK, hold={c: b[c].captures for c in (BLACK, WHITE)})
    out.add("qc-pass-stones", FFG_QUICK, hold={c: b[c].pass_stones for c in (BLACK, WHITE)})
    out.add("qc-black-last", FFG_QUICK, hold={BLACK: b[BLACK].extra_pass_stone}, color=BLACK)
    out.add("qc-dead", FFG_QUICK, hold={c: b[c].dead for c in (BLACK, WHITE)}, removed=dead_points)
    for holder in (BLACK, WHITE):
        owner = _OPP[holder]
        n = b[owner].filled  # the holder's prisoners placed in the owner's territory
        spots = sorted(score.territory[owner])[:n]
        # The prisoners are stones of the owner's colour (taken from the owner), so they go back as such.
        out.add(
            "qc-fill",
            FFG_QUICK,
            hold={holder: -n},
            values={color_name(holder): n, "room": len(score.territory[owner])},
            color=holder,
            placed=tuple((p, owner) for p in spots),
        )
    empty: dict[int, set[int]] = {}
    for c in (BLACK, WHITE):
        empty[c] = set(sorted(score.territory[c])[b[c].filled :])
    out.add(
        "qc-count",
        FFG_QUICK,
        gain={c: b[c].territory - b[c].filled for c in (BLACK, WHITE)},
        counted=_marks(empty),
    )
    if b[BLACK].overflow or b[WHITE].overflow:
        out.add(
            "qc-overflow",
            EGC_OVERFLOW,
            gain=_both(b, "overflow"),
            hold={c: -b[c].overflow for c in (BLACK, WHITE)},
        )
    out.add(
        "qc-komi",
        FFG_QUICK_HANDICAP if handicap >= 2 else FFG_QUICK,
        gain={WHITE: b[WHITE].komi},
        values={"W": b[WHITE].komi, "handicap": handicap},
        color=WHITE,
    )
    return tuple(out.steps)


def _area(
    score: Score, b: Mapping[int, Breakdown], final: Board, dead_points: tuple[int, ...], dead_by: Mapping[int, int],
    rules: Ruleset, handicap: int,
) -> tuple[Step, ...]:
    out = _Builder()
    src = TT_SCORE if rules.dead_stones == "none" else FFG_END
    out.add("area-dead", src, values={color_name(c): n for c, n in dead_by.items()}, removed=dead_points)
    stones = {c: frozenset(final.stones(c)) for c in (BLACK, WHITE)}
    out.add("area-stones", src, gain=_both(b, "stones"), counted=_marks(stones))
    out.add("area-territory", src, gain=_both(b, "territory"), counted=_marks(score.territory))
    if score.neutral:
        out.add("area-neutral", EGC_AREA, values={"N": len(score.neutral)},
                counted=tuple((p, EMPTY) for p in sorted(score.neutral)))
    out.add("area-komi", _komi_rule(rules, handicap), gain={WHITE: b[WHITE].komi},
            values={"W": b[WHITE].komi, "handicap": handicap}, color=WHITE)
    if b[WHITE].handicap_bonus:
        out.add("area-handicap", FFG_HANDICAP if rules.handicap_bonus == "n-1" else CHINESE_HANDICAP,
                gain={WHITE: b[WHITE].handicap_bonus},
                values={"W": b[WHITE].handicap_bonus, "handicap": handicap, "n": rules.handicap_bonus == "n"},
                color=WHITE)
    return tuple(out.steps)


def _territory(score: Score, b: Mapping[int, Breakdown], dead_points: tuple[int, ...]) -> tuple[Step, ...]:
    out = _Builder()
    out.add("tps-dead", EGC_TERRITORY, gain=_both(b, "dead"), removed=dead_points)
    out.add("tps-territory", EGC_TERRITORY, gain=_both(b, "territory"), counted=_marks(score.territory))
    out.add("tps-captures", EGC_TERRITORY, gain=_both(b, "captures"))
    out.add("tps-pass-stones", AGA_PASS, gain=_both(b, "pass_stones"))
    out.add("tps-white-last", AGA_PASS, gain={BLACK: b[BLACK].extra_pass_stone}, color=BLACK)
    out.add("tps-komi", AGA_COUNT, gain={WHITE: b[WHITE].komi}, values={"W": b[WHITE].komi}, color=WHITE)
    return tuple(out.steps)


def _japanese(
    score: Score, b: Mapping[int, Breakdown], final: Board, dead_points: tuple[int, ...]
) -> tuple[Step, ...]:
    out = _Builder()
    out.add("jp-dead", JP_RESULT, gain=_both(b, "dead"), removed=dead_points)
    out.add("jp-territory", JP_TERRITORY, gain=_both(b, "territory"), counted=_marks(score.japanese_territory))
    # Seki eyes: single-colour regions that the area count would give, but that touch a chain in seki.
    raw, _neutral, _regions = territory_regions(final)
    eyes = {c: raw[c] - score.japanese_territory[c] for c in (BLACK, WHITE)}
    if eyes[BLACK] or eyes[WHITE]:
        out.add("jp-seki", JP_TERRITORY, values={"B": len(eyes[BLACK]), "W": len(eyes[WHITE])},
                counted=tuple((p, EMPTY) for p in sorted(eyes[BLACK] | eyes[WHITE])))
    out.add("jp-captures", JP_RESULT, gain=_both(b, "captures"))
    out.add("jp-komi", JP_RESULT, gain={WHITE: b[WHITE].komi}, values={"W": b[WHITE].komi}, color=WHITE)
    return tuple(out.steps)


def count_steps(board: Board, rules: Ruleset, score: Score, *, handicap_stones: int) -> dict[str, tuple[Step, ...]]:
    """Return the steps of every method (keys of ``scoring.METHODS``) by which ``score`` counts ``board``.

    ``score`` is ``scoring.score_position``'s result for ``board`` under ``rules`` with ``handicap_stones``
    (``Game.score()`` for a game): the steps are split from that very object, so the last step of each method has
    that method's totals. ``board`` is not changed. Raises ``ValueError`` if ``score`` was not made from this board
    (a dead point that holds no stone).
    """
    dead_points = tuple(sorted(p for p in score.dead if board.colors[p] != EMPTY))
    if len(dead_points) != len(score.dead):
        raise ValueError("the score's dead stones are not stones of this board")
    final = board.copy()
    final.remove(dead_points)
    n = handicap_stones if handicap_stones >= 2 else 0
    by = {name: score.methods[name].breakdown for name in METHODS}
    # Dead stones by their colour (the area count names the stones removed, not who gains them).
    dead_by = {c: sum(1 for p in dead_points if board.colors[p] == c) for c in (BLACK, WHITE)}
    return {
        "quick-count": _quick(score, by["quick-count"], dead_points, n),
        "area": _area(score, by["area"], final, dead_points, dead_by, rules, n),
        "territory": _territory(score, by["territory"], dead_points),
        "japanese": _japanese(score, by["japanese"], final, dead_points),
    }


def steps_as_dict(steps: Mapping[str, tuple[Step, ...]]) -> dict[str, list[dict[str, Any]]]:
    """Return ``count_steps``'s result as JSON-safe data: method name -> list of ``Step.as_dict()``."""
    return {name: [s.as_dict() for s in seq] for name, seq in steps.items()}


def game_count_steps(game: Game, score: Score | None = None) -> dict[str, tuple[Step, ...]]:
    """Return ``count_steps`` for a game's current position and dead-stone marking (``score``: ``game.score()``,
    computed when None)."""
    return count_steps(
        game.board, game.rules, game.score() if score is None else score, handicap_stones=len(game.handicap_stones)
    )
