"""The cross table both results files share: the standings after the last round, one fixed-width cell per round
saying the opponent's line number, the result, the colour and the handicap, as OpenGotha writes them.

A cell is ``OOOORTCH``: the opponent's line (4 columns, ``0`` when there was none), the result (``+`` win, ``-``
loss, ``=`` draw, ``?`` unknown), the type (``/`` played, ``!`` by forfeit), the colour (``w``, ``b``, ``?``) and
the handicap. A round without a game shows the value of the absence or bye (``+``, ``=``, ``-``) and no colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from keima import version
from keima.tournament.criteria import CRITERIA, ScoreSheet, score_sheet
from keima.tournament.model import Game, Result, TimeSystem, Tournament
from keima.tournament.standings import Standing, standings


def generator() -> str:
    """The program both files name (the only lines that differ from OpenGotha's own export)."""
    return f"keima {version.package_version()}"


@dataclass(frozen=True)
class Table:
    """The players who took part (a game or a bye), in standings order, with their place labels and cells."""

    lines: tuple[Standing, ...]
    places: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    sheet: ScoreSheet


def build(tournament: Tournament) -> Table:
    """The cross table after the tournament's last round. Raises :class:`TournamentError` for an inconsistent
    tournament."""
    sheet = score_sheet(tournament)
    rounds = tournament.general.number_of_rounds
    lines = standings(tournament, rounds, sheet=sheet, implied_only=True)
    line_of = {s.player.key: i + 1 for i, s in enumerate(lines)}
    places = []
    for i, s in enumerate(lines):
        label = "" if i > 0 and s.place == lines[i - 1].place else str(s.place)
        places.append(label.rjust(4)[-4:])
    cells = []
    mcmahon = bool(tournament.criteria) and tournament.criteria[0] == "MMS"
    g = tournament.general
    for s in lines:
        row = []
        for r in range(1, rounds + 1):
            game = sheet.game(s.player.key, r)
            if game is None:
                part = sheet.participation(s.player.key, r).value
                value = 0
                if part == "absent":
                    value = g.mms2_absent if mcmahon else g.nbw2_absent
                elif part == "bye":
                    value = g.mms2_bye if mcmahon else g.nbw2_bye
                sign = "-" if part == "not assigned" else "+" if value == 2 else "=" if value == 1 else "-"
                row.append("   0" + sign + "   ")
            else:
                row.append(_game_cell(game, s.player.key, line_of))
        cells.append(tuple(row))
    return Table(tuple(lines), tuple(places), tuple(cells), sheet)


def _game_cell(game: Game, key: str, line_of: dict[str, int]) -> str:
    white = key == game.white
    res = game.result
    if (
        res is Result.BOTH_WIN
        or (res is Result.WHITE_WINS and white)
        or (res is Result.BLACK_WINS and not white)
    ):
        sign = "+"
    elif (
        res is Result.BOTH_LOSE
        or (res is Result.WHITE_WINS and not white)
        or (res is Result.BLACK_WINS and white)
    ):
        sign = "-"
    elif res is Result.DRAW:
        sign = "="
    else:
        sign = "?"
    kind = "!" if game.by_default and res is not Result.UNKNOWN else "/"
    colour = ("w" if white else "b") if game.known_color else "?"
    return str(line_of[game.opponent(key)]).rjust(4)[-4:] + sign + kind + colour + str(game.handicap)


def score_text(value: int, criterion: str) -> str:
    """A criterion's value as the results files print it: whole part, then ``½``/``¼``/``¾`` for fractions, the
    category counted from 1."""
    coef = CRITERIA[criterion]
    if coef == -1:
        return str(-value + 1)
    whole = abs(value) // coef * (1 if value >= 0 else -1)
    frac = abs(value) % coef
    tail = ""
    if coef == 2 and frac == 1:
        tail = "½"
    elif coef == 4:
        tail = {1: "¼", 2: "½", 3: "¾"}.get(frac, "")
    return f"{whole}{tail}"


def adjusted_time(tournament: Tournament) -> int:
    """The EGF's adjusted time in seconds: main time plus 45 byo-yomi periods, or 60 s of Canadian overtime per
    move averaged, or 120 Fischer increments."""
    g = tournament.general
    main = g.basic_time * 60
    if g.time_system is TimeSystem.BYO_YOMI:
        return main + 45 * g.byo_yomi_time
    if g.time_system is TimeSystem.CANADIAN:
        return main + (60 * g.canadian_time) // max(1, g.canadian_moves)
    if g.time_system is TimeSystem.FISCHER:
        return main + 120 * g.fischer_time
    return main
