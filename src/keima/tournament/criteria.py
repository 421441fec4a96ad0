"""Placement criteria: every player's scores after every round, computed as OpenGotha computes them.

:func:`score_sheet` returns a :class:`ScoreSheet`; ``sheet.value(key, "SOSM", r)`` is a criterion's value after
round ``r`` (from 1; 0 is before the first round), as an integer in the criterion's unit (:data:`CRITERIA`: most
are doubled so that half points are exact, SODOS is quadrupled, CAT is negated so that more is better).

The rules, in OpenGotha's words made ours:

* MMS starts at the player's rank clamped between floor and bar, counted from the McMahon zero (30K), plus any
  correction; NBW starts at 0. A win adds 1, a draw 1/2, a loss or an unknown result 0; forfeits count like games.
* A round a player does not play earns the absence or bye value of the parameters; when ``round_down`` is set the
  sum of those earnings is rounded down to a whole point (a draw's half point is never rounded).
* SOS sums the opponents' scores after the round considered; a round not played counts the player's own starting
  MMS for SOSM and 0 for SOSW. In a handicap game the opponent's MMS is corrected by the handicap (plus for White,
  minus for Black). SOS-1 and SOS-2 drop the one or two lowest terms. SODOS sums the scores of beaten opponents
  (half of a drawn one's); SOSOS sums the opponents' SOS; CUSS sums the score after each round.
* CPS (cup score) doubles the score of the rounds before at each round, so that a win outweighs every win
  after it.
* EXT and EXR (exploits attempted and achieved) weight each opponent's NBW by how hard the game was compared with
  the handicap the ranks call for.
* SDC counts wins inside a group of players tied on the criteria before it, when they all met; DC ranks such a
  group by their games against each other.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from keima.tournament.model import Game, GeneralParameters, Player, Result, Tournament, TournamentError

#: Criterion name (as OpenGotha's files write it) -> the factor its integer value carries (-1: negated category).
CRITERIA: Mapping[str, int] = {
    "NULL": 1,
    "CAT": -1,
    "Rank": 1,
    "Rating": 1,
    "NBW": 2,
    "MMS": 2,
    "CPS": 2,
    "SOSW": 2,
    "SOSW-1": 2,
    "SOSW-2": 2,
    "SODOSW": 4,
    "SOSOSW": 2,
    "CUSSW": 2,
    "SOSM": 2,
    "SOSM-1": 2,
    "SOSM-2": 2,
    "SODOSM": 4,
    "SOSOSM": 2,
    "CUSSM": 2,
    "EXT": 2,
    "EXR": 2,
    "DC": 1,
    "SDC": 1,
}

#: The short names OpenGotha prints in a results header (``.h9``) for each criterion.
SHORT_NAMES: Mapping[str, str] = {
    "NULL": "NULL",
    "CAT": "CAT",
    "Rank": "Rank",
    "Rating": "Rating",
    "NBW": "NBW",
    "MMS": "MMS",
    "CPS": "CPS",
    "SOSW": "SOS",
    "SOSW-1": "SOS-1",
    "SOSW-2": "SOS-2",
    "SODOSW": "SODOS",
    "SOSOSW": "SOSOS",
    "CUSSW": "CUSS",
    "SOSM": "SOS",
    "SOSM-1": "SOS-1",
    "SOSM-2": "SOS-2",
    "SODOSM": "SODOS",
    "SOSOSM": "SOSOS",
    "CUSSM": "CUSS",
    "EXT": "EXT",
    "EXR": "EXR",
    "DC": "DC",
    "SDC": "SDC",
}


def check_criterion(name: str) -> str:
    """Return ``name`` when keima computes it; raises :class:`TournamentError` otherwise."""
    if name not in CRITERIA:
        raise TournamentError(f"unknown or unsupported placement criterion {name!r}")
    return name


class Participation(enum.Enum):
    """What a player did in a round."""

    ABSENT = "absent"
    NOT_ASSIGNED = "not assigned"
    PAIRED = "paired"
    BYE = "bye"


def starting_mms(player: Player, general: GeneralParameters) -> int:
    """The player's McMahon score before the first round: rank clamped to [floor, bar], counted from the zero."""
    zero = general.mm_zero
    smms = min(max(player.rank - zero, general.mm_floor - zero), general.mm_bar - zero)
    return smms + player.smms_correction


def category(player: Player, general: GeneralParameters) -> int:
    """The player's category (0 is the strongest) from the lower limits of the categories."""
    if general.number_of_categories <= 1:
        return 0
    for c, limit in enumerate(general.category_lower_limits):
        if player.rank >= limit:
            return c
    return len(general.category_lower_limits)


@dataclass
class _Row:
    """One player's values; lists are indexed by round, from 0 (after the first round)."""

    player: Player
    smms: int
    participation: list[Participation]
    games: list[Game | None]
    values: dict[str, list[int]]
    dc: int = 0
    sdc: int = 0


class ScoreSheet:
    """Every criterion of every player after every round (see the module's docstring)."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.rows: dict[str, _Row] = {}
        _fill(self)

    def value(self, key: str, criterion: str, after_round: int) -> int:
        """``criterion``'s integer value for player ``key`` after round ``after_round`` (0: before round 1).

        Raises :class:`TournamentError` for an unknown criterion, KeyError for an unknown player."""
        row = self.rows[key]
        crit = check_criterion(criterion)
        rn = after_round - 1
        if crit == "NULL":
            return 0
        if crit == "CAT":
            return -category(row.player, self.tournament.general)
        if crit == "Rank":
            return row.player.rank
        if crit == "Rating":
            return row.player.rating
        if crit == "DC":
            return row.dc
        if crit == "SDC":
            return row.sdc
        if rn < 0:
            return 2 * row.smms if crit == "MMS" else 0
        series = row.values[crit]
        return series[rn] if rn < len(series) else series[-1] if series else 0

    def participation(self, key: str, round_number: int) -> Participation:
        """What ``key`` did in round ``round_number`` (from 1)."""
        return self.rows[key].participation[round_number - 1]

    def game(self, key: str, round_number: int) -> Game | None:
        """``key``'s game of round ``round_number`` (from 1), if any."""
        return self.rows[key].games[round_number - 1]


def score_sheet(tournament: Tournament) -> ScoreSheet:
    """Compute every criterion of ``tournament`` (see :class:`ScoreSheet`). Raises :class:`TournamentError` when
    the tournament is inconsistent (:meth:`Tournament.check`)."""
    tournament.check()
    return ScoreSheet(tournament)


def _fill(sheet: ScoreSheet) -> None:
    t = sheet.tournament
    gps = t.general
    n = max(gps.number_of_rounds, max((g.round for g in t.games), default=0), max(t.byes, default=0))
    rows = sheet.rows
    for p in t.players:
        part = [Participation.NOT_ASSIGNED if p.plays(r + 1) else Participation.ABSENT for r in range(n)]
        rows[p.key] = _Row(p, starting_mms(p, gps), part, [None] * n, {})
    for each in t.games:
        for k in (each.white, each.black):
            rows[k].participation[each.round - 1] = Participation.PAIRED
            rows[k].games[each.round - 1] = each
    for r, k in t.byes.items():
        if 1 <= r <= n:
            rows[k].participation[r - 1] = Participation.BYE

    def played(row: _Row, r: int) -> bool:
        g = row.games[r]
        return g is not None and g.result is not Result.UNKNOWN and not g.by_default

    # NBW and MMS, then the virtual scores SOS uses when unplayed games count half a point.
    for row in rows.values():
        key = row.player.key
        nbw: list[int] = []
        mms: list[int] = []
        vnbw: list[int] = []
        vmms: list[int] = []
        cps: list[int] = []
        cup = 0
        from_games = from_played = 0
        bonus_nbw = bonus_mms = 0
        virtual = 0
        for r in range(n):
            g = row.games[r]
            pts = g.points_x2(key) if g is not None else 0
            from_games += pts
            cup = 2 * cup + pts
            if row.participation[r] is Participation.ABSENT:
                bonus_nbw += gps.nbw2_absent
                bonus_mms += gps.mms2_absent
            elif row.participation[r] is Participation.BYE:
                bonus_nbw += gps.nbw2_bye
                bonus_mms += gps.mms2_bye
            b_nbw, b_mms = bonus_nbw, bonus_mms
            if gps.round_down:
                # Only what absences and byes earned is rounded, never a draw's half point.
                b_nbw, b_mms = b_nbw // 2 * 2, b_mms // 2 * 2
            nbw.append(from_games + b_nbw)
            cps.append(cup + b_nbw)
            mms.append(2 * row.smms + from_games + b_mms)
            if played(row, r):
                from_played += pts
            else:
                virtual += 1
            vnbw.append(from_played + virtual)
            vmms.append(2 * row.smms + from_played + virtual)
        row.values["NBW"] = nbw
        row.values["CPS"] = cps
        row.values["MMS"] = mms
        row.values["_VNBW"] = vnbw
        row.values["_VMMS"] = vmms
        cussw: list[int] = []
        cussm: list[int] = []
        for r in range(n):
            cussw.append(nbw[r] + (cussw[-1] if cussw else 0))
            cussm.append(mms[r] + (cussm[-1] if cussm else 0))
        row.values["CUSSW"] = cussw
        row.values["CUSSM"] = cussm

    virtual_sos = gps.count_not_played_as_half
    for row in rows.values():
        key = row.player.key
        for suffix, score, vscore in (("W", "NBW", "_VNBW"), ("M", "MMS", "_VMMS")):
            sos: list[int] = []
            sodos: list[int] = []
            m1: list[int] = []
            m2: list[int] = []
            for r in range(n):
                terms: list[int] = []
                defeated = 0
                for rr in range(r + 1):
                    g = row.games[rr]
                    if row.participation[rr] is not Participation.PAIRED or g is None:
                        terms.append(2 * row.smms if suffix == "M" else 0)
                        continue
                    opp = rows[g.opponent(key)]
                    term = opp.values[vscore if virtual_sos else score][r]
                    if suffix == "M":
                        term += 2 * g.handicap if key == g.white else -2 * g.handicap
                    terms.append(term)
                    defeated += term * g.points_x2(key)
                total = sum(terms)
                sos.append(total)
                sodos.append(defeated)
                if r == 0:
                    m1.append(0)
                    m2.append(0)
                elif r == 1:
                    # OpenGotha keeps the larger of two terms for SOSW-1 and leaves SOSM-1 at 0 after round 2.
                    m1.append(max(terms[0], terms[1]) if suffix == "W" else 0)
                    m2.append(0)
                else:
                    low = sorted(range(r + 1), key=lambda i: (terms[i], i))
                    m1.append(total - terms[low[0]])
                    m2.append(total - terms[low[0]] - terms[low[1]])
            row.values["SOS" + suffix] = sos
            row.values["SODOS" + suffix] = sodos
            row.values["SOS" + suffix + "-1"] = m1
            row.values["SOS" + suffix + "-2"] = m2

    for row in rows.values():
        key = row.player.key
        sososw: list[int] = []
        sososm: list[int] = []
        ext: list[int] = []
        exr: list[int] = []
        for r in range(n):
            sw = sm = xt = xr = 0
            for rr in range(r + 1):
                g = row.games[rr]
                if row.participation[rr] is not Participation.PAIRED or g is None:
                    sm += 2 * row.smms * (r + 1)
                    continue
                opp = rows[g.opponent(key)]
                sw += opp.values["SOSW"][r]
                sm += opp.values["SOSM"][r]
                real_hd = g.handicap if key == g.white else -g.handicap
                natural_hd = row.player.rank - opp.player.rank
                gap = real_hd - natural_hd
                coef = 0 if gap < 0 else 1 if gap == 0 else 2 if gap == 1 else 3
                xt += opp.values["NBW"][r] * coef
                if g.points_x2(key) == 2:
                    xr += opp.values["NBW"][r] * coef
            sososw.append(sw)
            sososm.append(sm)
            ext.append(xt)
            exr.append(xr)
        row.values["SOSOSW"] = sososw
        row.values["SOSOSM"] = sososm
        row.values["EXT"] = ext
        row.values["EXR"] = exr
