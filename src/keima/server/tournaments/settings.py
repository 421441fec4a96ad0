"""A tournament's settings as a director sets them: on the creation form and afterwards (``PATCH
/api/tournaments/{tid}``), the engine's parameters (OpenGotha's: names, dates, rounds, system, McMahon bar and
floor, handicap, komi, time, placement criteria) beside the server's own (online, rated, registration, forfeit
limit, clock).

What may change once a round is paired (docs/tournaments.md, *Settings*):

- the board size, the system and the McMahon bar and floor no longer change (409): the pairings made were made on
  the board and the scores they set, every player's McMahon score from round 1 among them. Unpairing every round
  (before it starts) makes them free again;
- the number of rounds does not go below the last round paired (409);
- everything else changes at any time: names, dates, place, komi, rules, time, online or not (the files follow:
  ``.h9`` class, the XML's ``bInternet``), rated, registration, the placement criteria (the standings are computed
  from them at each reading) and the handicap policy, which applies to the rounds paired after the change (pair a
  round again before it starts to apply it there); the games already made keep their komi, clock and handicap.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from keima.server.errors import Refused
from keima.server.tournaments.store import Change, Outcome, Stored
from keima.tournament.model import (
    DEFAULT_CRITERIA,
    HandicapParameters,
    PairingParameters,
    System,
    TimeSystem,
    Tournament,
    TournamentError,
    parse_rank,
    rank_text,
)

#: The server's own settings (the rest are the engine's, in the tournament's OpenGotha file).
SERVER_KEYS = ("online", "rated", "registration_open", "forfeit_minutes", "clock", "club")

#: The handicap ceiling of a McMahon tournament per board size: a stone on a small board is worth several ranks,
#: so that the 19x19 ceiling (9) would give a 7-stone 9x9 table between ranks 8 apart.
CEILING_BY_SIZE = {9: 2, 13: 4, 19: 9}

#: The API's names of the time systems that follow the main time.
OVERTIME = {"byoyomi": TimeSystem.BYO_YOMI, "canadian": TimeSystem.CANADIAN, "fischer": TimeSystem.FISCHER,
            "sudden_death": TimeSystem.SUDDEN_DEATH}
OVERTIME_NAMES = {v: k for k, v in OVERTIME.items()}

#: What a system's first score criterion is (the engine reads the system from the criteria).
_SCORE = {System.MCMAHON: "MMS", System.SWISS: "NBW"}


def handicap_for(system: System, size: int) -> HandicapParameters:
    """The handicap policy a new tournament starts with: even games in a Swiss; OpenGotha's McMahon rule (from the
    MMS, one stone less, none above 1D) with a ceiling the board bears (``CEILING_BY_SIZE``)."""
    if system is not System.MCMAHON:
        return HandicapParameters(ceiling=0)
    return HandicapParameters(ceiling=CEILING_BY_SIZE.get(size, 9))


def last_paired(t: Tournament) -> int:
    """The last round with a game or a bye (0: none)."""
    return max([g.round for g in t.games] + list(t.byes), default=0)


def _rank(text: str, field: str) -> int:
    try:
        return parse_rank(text, strict=True)
    except TournamentError as exc:
        raise Refused("invalid-request", f"{field}: {exc}", field=field) from None


def _locked(values: dict[str, Any], paired: int, t: Tournament) -> None:
    """Refuse (409) what no longer changes once round ``paired`` is paired (see the module docstring)."""
    if not paired:
        return
    g = t.general
    now = {"size": int(g.size), "system": t.system.value.lower(), "mm_bar": g.mm_bar, "mm_floor": g.mm_floor}
    wanted = dict(values)
    for k in ("mm_bar", "mm_floor"):
        if isinstance(wanted.get(k), str):
            wanted[k] = _rank(wanted[k], k)
    why = {
        "size": f"round {paired} is paired on this board: the board size no longer changes",
        "system": "rounds are paired by this system's scores: the system no longer changes (unpair every round "
                  "to change it)",
        "mm_bar": "the McMahon bar sets every player's score from round 1, and rounds are paired on those scores: "
                  "it no longer changes (unpair every round to change it)",
        "mm_floor": "the McMahon floor sets every player's score from round 1, and rounds are paired on those "
                    "scores: it no longer changes (unpair every round to change it)",
    }
    for k, sentence in why.items():
        if k in wanted and wanted[k] is not None and wanted[k] != now[k]:
            raise Refused("wrong-phase", sentence, field=k, reason="paired")
    if values.get("rounds") is not None and values["rounds"] < paired:
        raise Refused("wrong-phase", f"round {paired} is paired: the tournament keeps at least {paired} rounds",
                      field="rounds", reason="paired")


def apply(t: Tournament, values: dict[str, Any]) -> Tournament:
    """``t`` with the engine settings of ``values`` (the API's names; ``None`` or absent: unchanged). Raises
    ``Refused`` 409 for what a paired round forbids and 422 (naming the field) for a value that cannot be."""
    _locked(values, last_paired(t), t)
    v = {k: x for k, x in values.items() if x is not None}
    g, hd, criteria, pairing = t.general, t.handicap, t.criteria, t.pairing
    if "system" in v:
        system = System.MCMAHON if v["system"] == "mcmahon" else System.SWISS
        if system is not t.system:
            # A system is its criteria, pairing weights and handicap rule (OpenGotha's defaults for it).
            criteria, pairing = DEFAULT_CRITERIA[system], PairingParameters.for_system(system)
            hd = handicap_for(system, int(v.get("size", g.size)))
    elif "size" in v and t.system is System.MCMAHON and hd.ceiling == handicap_for(t.system, int(g.size)).ceiling:
        hd = handicap_for(t.system, int(v["size"]))  # the board's default ceiling, unless the director set another
    general: dict[str, Any] = {}
    for name, field in (("name", "name"), ("short_name", "short_name"), ("location", "location"),
                        ("begin_date", "begin_date"), ("end_date", "end_date"), ("rounds", "number_of_rounds"),
                        ("rules", "rules"), ("online", "internet"), ("main_time", "basic_time"),
                        ("byoyomi_seconds", "byo_yomi_time"), ("canadian_stones", "canadian_moves"),
                        ("canadian_seconds", "canadian_time"), ("fischer_seconds", "fischer_time")):
        if name in v:
            general[field] = v[name]
    if "size" in v:
        general["size"] = str(v["size"])
    if "komi" in v:
        general["komi"] = str(float(v["komi"]))
    if "overtime" in v:
        general["time_system"] = OVERTIME[v["overtime"]]
    for name in ("mm_bar", "mm_floor"):
        if name in v:
            general[name] = _rank(v[name], name)
    g = replace(g, **general)
    if g.end_date < g.begin_date:
        raise Refused("invalid-request", "end_date: the tournament ends before it begins", field="end_date")
    if g.mm_floor > g.mm_bar:
        raise Refused("invalid-request", f"mm_floor: the McMahon floor ({rank_text(g.mm_floor)}) is above the bar "
                      f"({rank_text(g.mm_bar)})", field="mm_floor")
    handicap: dict[str, Any] = {}
    for name, field in (("handicap_ceiling", "ceiling"), ("handicap_correction", "correction")):
        if name in v:
            handicap[field] = v[name]
    if "handicap_based_on" in v:
        handicap["based_on_mms"] = v["handicap_based_on"] == "mms"
    if "no_handicap_above" in v:
        handicap["no_handicap_above"] = _rank(v["no_handicap_above"], "no_handicap_above")
    if "criteria" in v:
        criteria = tuple(v["criteria"])
    out = replace(t, general=g, handicap=replace(hd, **handicap), criteria=criteria, pairing=pairing)
    want = t.system if "system" not in v else System.MCMAHON if v["system"] == "mcmahon" else System.SWISS
    if ("criteria" in v or "system" in v) and out.system is not want and want in _SCORE:
        raise Refused("invalid-request", f"criteria: a {want.value.lower()} tournament's criteria put "
                      f"{_SCORE[want]} before any other score", field="criteria")
    try:
        out.general.ruleset()
    except TournamentError as exc:
        raise Refused("invalid-request", str(exc), field="rules") from None
    return out


def update(patch: dict[str, Any]) -> Change:
    """Change the settings named in ``patch`` (the API's names: the engine's and ``SERVER_KEYS``), by the rules of
    the module docstring."""

    def do(s: Stored) -> Outcome:
        t = apply(s.tournament, patch)
        settings = dict(s.settings)
        for k in SERVER_KEYS:
            if k in patch:
                settings[k] = patch[k]
        return Outcome(t, settings, [("settings", dict(patch))])

    return do


def out(t: Tournament, settings: dict[str, Any]) -> dict[str, Any]:
    """Every setting as ``SettingsOut`` names it."""
    g, hd = t.general, t.handicap
    return {
        "online": bool(settings.get("online")), "rated": bool(settings.get("rated")),
        "registration_open": bool(settings.get("registration_open")),
        "forfeit_minutes": int(settings.get("forfeit_minutes") or 0),
        "short_name": g.short_name, "location": g.location, "begin_date": g.begin_date, "end_date": g.end_date,
        "rules": g.rules, "mm_bar": rank_text(g.mm_bar).lower(), "mm_floor": rank_text(g.mm_floor).lower(),
        "handicap_ceiling": hd.ceiling, "handicap_correction": hd.correction,
        "handicap_based_on": "mms" if hd.based_on_mms else "rank",
        "no_handicap_above": rank_text(hd.no_handicap_above).lower(),
        "main_time": g.basic_time, "overtime": OVERTIME_NAMES[g.time_system], "byoyomi_seconds": g.byo_yomi_time,
        "canadian_stones": g.canadian_moves, "canadian_seconds": g.canadian_time, "fischer_seconds": g.fischer_time,
        "criteria": list(t.criteria), "locked": locked_now(t), "club": settings.get("club"),
    }


def locked_now(t: Tournament) -> list[str]:
    """The settings that no longer change (a round is paired), for the page to show them fixed."""
    return ["size", "system", "mm_bar", "mm_floor"] if last_paired(t) else []
