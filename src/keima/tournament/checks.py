"""What a director should know about a round's pairing before it starts: each warning names the players concerned.

* ``rematch``: a table whose two players met in an earlier round;
* ``colour``: a player who, with this round, has had White (or Black) more than once more than the other colour
  in games without handicap (OpenGotha's colour balance counts those only);
* ``handicap``: a table whose ranks call for more stones than the ceiling gives (or whose handicap is over the
  ceiling, the ceiling having been lowered after the pairing), while the ceiling allows handicap games at all;
* ``missing-result``: a table of the round before without a result.

A pairing by the engine avoids the first three when it can; a director's hand changes (a swap, two players paired
by hand, a bye chosen) may bring them.
"""

from __future__ import annotations

from dataclasses import dataclass

from keima.tournament.criteria import score_sheet
from keima.tournament.model import Result, Tournament
from keima.tournament.pairing import handicap_called_for


@dataclass(frozen=True)
class RoundWarning:
    """One warning: its ``kind`` (see the module docstring), the ``round`` and ``table`` it is about (``table`` None
    for a player's colours), the ``players`` it names (keys) and a number: the earlier round of a rematch, the
    colour balance (White minus Black) of a player, the stones the ranks call for, 0 for a missing result."""

    kind: str
    round: int
    table: int | None
    players: tuple[str, ...]
    value: int = 0


def round_warnings(t: Tournament, rn: int) -> list[RoundWarning]:
    """The warnings of round ``rn`` as paired now (none for a round outside the tournament): the missing results
    of round ``rn - 1`` (once round ``rn`` is paired, or is the next to pair), then per table the rematches and
    handicaps, then the players' colours."""
    if not 1 <= rn <= t.general.number_of_rounds:
        return []
    out: list[RoundWarning] = []
    games = t.games_of_round(rn)
    if rn > 1:
        out += [RoundWarning("missing-result", rn - 1, g.table, (g.white, g.black))
                for g in t.games_of_round(rn - 1) if g.result is Result.UNKNOWN]
    if not games:
        return out
    met = {frozenset((g.white, g.black)): g.round for g in t.games if g.round < rn}
    hp = t.handicap
    sheet = score_sheet(t) if hp.ceiling > 0 else None
    for g in games:
        first = met.get(frozenset((g.white, g.black)))
        if first is not None:
            out.append(RoundWarning("rematch", rn, g.table, (g.white, g.black), first))
        if sheet is not None:
            called = abs(handicap_called_for(t, sheet, rn, t.player(g.white), t.player(g.black)))
            if max(called, g.handicap) > hp.ceiling:
                out.append(RoundWarning("handicap", rn, g.table, (g.white, g.black), max(called, g.handicap)))
        elif g.handicap > hp.ceiling:
            out.append(RoundWarning("handicap", rn, g.table, (g.white, g.black), g.handicap))
    balance: dict[str, int] = {}
    for g in t.games:
        if g.round <= rn and g.handicap == 0:
            balance[g.white] = balance.get(g.white, 0) + 1
            balance[g.black] = balance.get(g.black, 0) - 1
    for g in games:
        for k in (g.white, g.black):
            if abs(balance.get(k, 0)) > 1:
                out.append(RoundWarning("colour", rn, None, (k,), balance[k]))
    return out
