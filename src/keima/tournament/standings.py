"""Standings after any round: players ordered by the tournament's placement criteria, ties broken as OpenGotha
breaks them (by name, then first name, for the order; equal criteria share a place)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from keima.tournament.criteria import CRITERIA, ScoreSheet, check_criterion, score_sheet
from keima.tournament.model import Player, Result, Tournament


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``place`` from 1 (shared by players equal on every criterion), the player, and
    each criterion's integer value (in the unit of :data:`keima.tournament.criteria.CRITERIA`)."""

    place: int
    player: Player
    values: tuple[tuple[str, int], ...]

    def value(self, criterion: str) -> int:
        """This line's value of ``criterion``; KeyError when the tournament does not rank by it."""
        return dict(self.values)[criterion]


def used_criteria(criteria: Sequence[str]) -> tuple[str, ...]:
    """The criteria that rank, ``NULL`` left out; raises :class:`TournamentError` for an unknown one."""
    return tuple(check_criterion(c) for c in criteria if c != "NULL")


def _order_key(sheet: ScoreSheet, criteria: Sequence[str], after_round: int, key: str) -> tuple[int, ...]:
    return tuple(-sheet.value(key, c, after_round) for c in criteria)


def standings(
    tournament: Tournament,
    after_round: int | None = None,
    sheet: ScoreSheet | None = None,
    implied_only: bool = False,
) -> list[Standing]:
    """The standings after round ``after_round`` (default: the last round with a game or bye; 0 before the first).

    ``implied_only`` keeps only players who played a game or had a bye, as the results files do. Raises
    :class:`TournamentError` for an inconsistent tournament or an unknown criterion."""
    if sheet is None:
        sheet = score_sheet(tournament)
    if after_round is None:
        after_round = max([g.round for g in tournament.games] + list(tournament.byes), default=0)
    criteria = used_criteria(tournament.criteria)
    keys = [p.key for p in tournament.players]
    if implied_only:
        implied = (
            {g.white for g in tournament.games}
            | {g.black for g in tournament.games}
            | set(tournament.byes.values())
        )
        keys = [k for k in keys if k in implied]

    def by_name(k: str) -> tuple[str, str]:
        p = sheet.rows[k].player
        return (p.name, p.first_name)

    direct = next((i for i, c in enumerate(criteria) if c in ("DC", "SDC")), len(criteria))
    if direct < len(criteria):
        before = criteria[:direct]
        keys.sort(key=lambda k: (_order_key(sheet, before, after_round, k), by_name(k)))
        _fill_direct_confrontation(tournament, sheet, keys, before, criteria[direct + 1 :], after_round)
    keys.sort(key=lambda k: (_order_key(sheet, criteria, after_round, k), by_name(k)))
    out: list[Standing] = []
    previous: tuple[int, ...] | None = None
    place = 0
    for i, k in enumerate(keys):
        values = tuple((c, sheet.value(k, c, after_round)) for c in criteria)
        order = _order_key(sheet, criteria, after_round, k)
        if order != previous:
            place = i + 1
            previous = order
        out.append(Standing(place, sheet.rows[k].player, values))
    return out


def _fill_direct_confrontation(
    tournament: Tournament,
    sheet: ScoreSheet,
    ordered: list[str],
    before: Sequence[str],
    after: Sequence[str],
    after_round: int,
) -> None:
    """Set SDC and DC on each group of players tied on the criteria ``before`` DC or SDC."""
    for row in sheet.rows.values():
        row.dc = row.sdc = 0
    i = 0
    while i < len(ordered):
        j = i + 1
        first = _order_key(sheet, before, after_round, ordered[i])
        while j < len(ordered) and _order_key(sheet, before, after_round, ordered[j]) == first:
            j += 1
        group = ordered[i:j]
        i = j
        if len(group) < 2:
            continue
        balance = _head_to_head(tournament, group, after_round)
        # SDC only when every two of them met with a winner overall.
        if all(balance.get((a, b), 0) != 0 for a in group for b in group if a != b):
            for a in group:
                sheet.rows[a].sdc = sum(1 for b in group if balance.get((a, b), 0) > 0)
        _direct_ranks(sheet, group, balance, after, after_round)


def _head_to_head(tournament: Tournament, group: list[str], after_round: int) -> dict[tuple[str, str], int]:
    """(a, b) -> a's wins minus losses against b over the games up to ``after_round`` (forfeits left out)."""
    members = set(group)
    balance: dict[tuple[str, str], int] = {}
    for g in tournament.games:
        if g.round > after_round or g.white not in members or g.black not in members:
            continue
        if g.by_default or g.result not in (Result.WHITE_WINS, Result.BLACK_WINS):
            continue
        winner, loser = (g.white, g.black) if g.result is Result.WHITE_WINS else (g.black, g.white)
        balance[(winner, loser)] = balance.get((winner, loser), 0) + 1
        balance[(loser, winner)] = balance.get((loser, winner), 0) - 1
    return balance


def _direct_ranks(
    sheet: ScoreSheet,
    group: list[str],
    balance: dict[tuple[str, str], int],
    after: Sequence[str],
    after_round: int,
) -> None:
    """DC, as OpenGotha ranks a tied group: a player who beat another is ranked above him.

    Players who beat each other in a circle cannot be told apart by their games: the games inside the circle are
    ignored, and each of them takes on the others' wins and losses against the rest of the group. Then, from the
    bottom: of the players who beat nobody still unranked, the lowest on the criteria after DC are ranked last.
    DC is the rank counted from the bottom, so that more is better. As OpenGotha does, a pair counts as "beat"
    only when its balance of wins is exactly one."""
    beats = {(a, b) for (a, b), v in balance.items() if v == 1}
    after_values = {k: tuple(sheet.value(k, c, after_round) for c in after if c in CRITERIA) for k in group}
    # Reachability by "beat", then the circles (strongly connected sets of more than one player).
    reach = {a: {b for b in group if (a, b) in beats} for a in group}
    changed = True
    while changed:
        changed = False
        for a in group:
            more = set().union(*(reach[b] for b in reach[a])) - reach[a] if reach[a] else set()
            if more:
                reach[a] |= more
                changed = True
    circle = {
        a: frozenset([a] + [b for b in group if b != a and b in reach[a] and a in reach[b]]) for a in group
    }
    edges = {(w, lo) for (w, lo) in beats if lo not in circle[w]}
    for members in set(circle.values()):
        if len(members) < 2:
            continue
        outside_wins = {(d, lo) for (w, lo) in edges if w in members for d in members}
        outside_losses = {(w, d) for (w, lo) in edges if lo in members for d in members}
        edges |= outside_wins | outside_losses
    remaining = set(group)
    rank: dict[str, int] = {}
    while remaining:
        free = [n for n in remaining if not any((n, lo) in edges for lo in remaining)] or list(remaining)
        low = min(after_values[n] for n in free)
        last = [n for n in free if after_values[n] == low]
        for n in last:
            rank[n] = 1 + len(remaining) - len(last)
        remaining -= set(last)
    top = max(rank.values())
    for k in group:
        sheet.rows[k].dc = top - rank[k]
