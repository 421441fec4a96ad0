"""OpenGotha's XML tournament file, read and written.

The file (OpenGotha's ``tournament.dtd``) holds a ``<Tournament>`` with ``<Players>``, ``<Games>``, ``<ByePlayers>``,
``<Teams>``, ``<ClubsGroups>``, the ``<TournamentParameterSet>`` (general, handicap, placement, pairing, display and
publishing settings) and the team parameters. Rounds and tables are numbered from 1 in the file, ranks written
``3D``/``12K``, games name players by key (name and first name, upper case, no blanks).

What keima does not use (display and publishing settings, teams, version attributes, any attribute it does not
know) is kept in :attr:`Tournament.extra` and written back, so that a file goes from OpenGotha to keima and back
without loss: :func:`read` then :func:`write` gives the same elements and attributes.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from typing import Any

from keima.tournament.criteria import check_criterion
from keima.tournament.model import (
    MAX_ROUNDS,
    DrawMode,
    Game,
    GeneralParameters,
    HandicapParameters,
    PairingParameters,
    Player,
    Result,
    Seeding,
    TimeSystem,
    Tournament,
    TournamentError,
    one_line,
    parse_rank,
    rank_text,
)

_Conv = tuple[Callable[[str], Any], Callable[[Any], str]]


def _bool(text: str) -> bool:
    return text.strip().lower() == "true"


def _bool_text(value: Any) -> str:
    return "true" if value else "false"


def _int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise TournamentError(f"not a whole number: {text!r}") from None


def _float_text(value: Any) -> str:
    return repr(float(value))


_STR: _Conv = (str, str)
_INT: _Conv = (_int, str)
_BOOL: _Conv = (_bool, _bool_text)
_RANK: _Conv = (parse_rank, rank_text)


def _enum(cls: Any) -> _Conv:
    return (lambda s: cls(s), lambda v: str(v.value))


#: (XML attribute, model field, conversion) of ``<GeneralParameterSet>``.
_GENERAL: tuple[tuple[str, str, _Conv], ...] = (
    ("name", "name", _STR),
    ("shortName", "short_name", _STR),
    ("location", "location", _STR),
    ("director", "director", _STR),
    ("beginDate", "begin_date", _STR),
    ("endDate", "end_date", _STR),
    ("numberOfRounds", "number_of_rounds", _INT),
    ("size", "size", _STR),
    ("komi", "komi", _STR),
    # keima's own: the ruleset games are refereed under (OpenGotha ignores an attribute it does not know).
    ("keimaRules", "rules", _STR),
    ("bInternet", "internet", _BOOL),
    ("basicTime", "basic_time", _INT),
    ("complementaryTimeSystem", "time_system", _enum(TimeSystem)),
    ("stdByoYomiTime", "byo_yomi_time", _INT),
    ("nbMovesCanTime", "canadian_moves", _INT),
    ("canByoYomiTime", "canadian_time", _INT),
    ("fischerTime", "fischer_time", _INT),
    ("genMMBar", "mm_bar", _RANK),
    ("genMMFloor", "mm_floor", _RANK),
    ("genMMZero", "mm_zero", _RANK),
    ("genNBW2ValueAbsent", "nbw2_absent", _INT),
    ("genNBW2ValueBye", "nbw2_bye", _INT),
    ("genMMS2ValueAbsent", "mms2_absent", _INT),
    ("genMMS2ValueBye", "mms2_bye", _INT),
    ("genRoundDownNBWMMS", "round_down", _BOOL),
    ("genCountNotPlayedGamesAsHalfPoint", "count_not_played_as_half", _BOOL),
    ("numberOfCategories", "number_of_categories", _INT),
)

_HANDICAP: tuple[tuple[str, str, _Conv], ...] = (
    ("hdBasedOnMMS", "based_on_mms", _BOOL),
    ("hdNoHdRankThreshold", "no_handicap_above", _RANK),
    ("hdCorrection", "correction", _INT),
    ("hdCeiling", "ceiling", _INT),
)

_PAIRING: tuple[tuple[str, str, _Conv], ...] = (
    ("paiStandardNX1Factor", "nx1_factor", (float, _float_text)),
    ("paiBaAvoidDuplGame", "avoid_duplicate", _INT),
    ("paiBaRandom", "random", _INT),
    ("paiBaDeterministic", "deterministic", _BOOL),
    ("paiBaBalanceWB", "balance_wb", _INT),
    ("paiMaAvoidMixingCategories", "avoid_mixing_categories", _INT),
    ("paiMaMinimizeScoreDifference", "minimize_score_difference", _INT),
    ("paiMaDUDDWeight", "dudd_weight", _INT),
    ("paiMaCompensateDUDD", "compensate_dudd", _BOOL),
    ("paiMaDUDDUpperMode", "dudd_upper_mode", _enum(DrawMode)),
    ("paiMaDUDDLowerMode", "dudd_lower_mode", _enum(DrawMode)),
    ("paiMaMaximizeSeeding", "maximize_seeding", _INT),
    ("paiMaLastRoundForSeedSystem1", "last_round_seed_system_1", _INT),
    ("paiMaSeedSystem1", "seed_system_1", _enum(Seeding)),
    ("paiMaSeedSystem2", "seed_system_2", _enum(Seeding)),
    ("paiMaAdditionalPlacementCritSystem1", "additional_criterion_1", _STR),
    ("paiMaAdditionalPlacementCritSystem2", "additional_criterion_2", _STR),
    ("paiSeRankThreshold", "secondary_rank_threshold", _RANK),
    ("paiSeNbWinsThresholdActive", "secondary_wins_threshold", _BOOL),
    ("paiSeBarThresholdActive", "secondary_bar_threshold", _BOOL),
    ("paiSeDefSecCrit", "default_secondary", _INT),
    ("paiSeMinimizeHandicap", "minimize_handicap", _INT),
    ("paiSeAvoidSameGeo", "avoid_same_geo", _INT),
    ("paiSePreferMMSDiffRatherThanSameCountry", "prefer_score_gap_to_same_country", _INT),
    ("paiSePreferMMSDiffRatherThanSameClubsGroup", "prefer_score_gap_to_same_clubs_group", _INT),
    ("paiSePreferMMSDiffRatherThanSameClub", "prefer_score_gap_to_same_club", _INT),
)

_PLAYER: tuple[tuple[str, str, _Conv], ...] = (
    ("name", "name", _STR),
    ("firstName", "first_name", _STR),
    ("rank", "rank", _RANK),
    ("rating", "rating", _INT),
    ("club", "club", _STR),
    ("country", "country", _STR),
    ("ffgLicence", "ffg_licence", _STR),
    ("ffgLicenceStatus", "ffg_licence_status", _STR),
    ("egfPin", "egf_pin", _STR),
    ("agaId", "aga_id", _STR),
    ("agaExpirationDate", "aga_expiration_date", _STR),
    ("ratingOrigin", "rating_origin", _STR),
    ("grade", "grade", _STR),
    ("smmsCorrection", "smms_correction", _INT),
    ("registeringStatus", "registering_status", _STR),
)

#: Elements keima does not model, kept verbatim; (parent, tag).
_VERBATIM = {
    ("Tournament", "Teams"),
    ("Tournament", "TeamTournamentParameterSet"),
    ("TournamentParameterSet", "DPParameterSet"),
    ("TournamentParameterSet", "PublishParameterSet"),
}


def _read_fields(
    element: ET.Element | None, table: tuple[tuple[str, str, _Conv], ...], extra: dict[str, str], prefix: str
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if element is None:
        extra[f"{prefix}#absent"] = "1"
        return values
    known = {attr for attr, _, _ in table}
    for attr, name, (parse, _) in table:
        if attr in element.attrib:
            try:
                values[name] = parse(element.attrib[attr])
            except (ValueError, TournamentError) as exc:
                raise TournamentError(f"{prefix}: bad {attr}={element.attrib[attr]!r}: {exc}") from None
        else:
            extra[f"{prefix}#missing:{attr}"] = "1"
    for attr, value in element.attrib.items():
        if attr not in known:
            extra[f"{prefix}@{attr}"] = value
    return values


def read(text: str | bytes) -> Tournament:
    """Parse an OpenGotha XML tournament file. Raises :class:`TournamentError` for a file that is not one (bad XML,
    no ``<Tournament>``, a game naming an unknown player, an unknown placement criterion)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise TournamentError(f"not XML: {exc}") from None
    if root.tag != "Tournament":
        raise TournamentError(f"not an OpenGotha tournament: root element <{root.tag}>")
    extra: dict[str, str] = {}
    for attr, value in root.attrib.items():
        extra[f"Tournament@{attr}"] = value

    players = []
    for el in root.iterfind("Players/Player"):
        values = _read_fields(el, _PLAYER, extra, "Player")
        part = el.get("participating", "1" * MAX_ROUNDS)
        values["participating"] = tuple(c == "1" for c in part)
        for needed in ("name", "first_name", "rank"):
            if needed not in values:
                raise TournamentError(f"a player has no {needed.replace('_', ' ')}: {el.attrib}")
        players.append(Player(**values))
    for key in [k for k in extra if k.startswith("Player#") or k.startswith("Player@")]:
        # Per-player oddities cannot be told apart once pooled; OpenGotha always writes every player attribute.
        del extra[key]

    games = []
    for el in root.iterfind("Games/Game"):
        code = el.get("result", "RESULT_UNKNOWN").removeprefix("RESULT_")
        by_default = code.endswith("_BYDEF")
        try:
            result = Result(code.removesuffix("_BYDEF"))
        except ValueError:
            raise TournamentError(f"unknown game result {el.get('result')!r}") from None
        games.append(
            Game(
                round=_int(el.get("roundNumber", "0")),
                table=_int(el.get("tableNumber", "0")),
                white=el.get("whitePlayer", ""),
                black=el.get("blackPlayer", ""),
                handicap=_int(el.get("handicap", "0")),
                result=result,
                by_default=by_default,
                known_color=_bool(el.get("knownColor", "true")),
            )
        )
    byes = {
        _int(el.get("roundNumber", "0")): el.get("player", "") for el in root.iterfind("ByePlayers/ByePlayer")
    }
    clubs_groups = tuple(
        (el.get("name", ""), tuple(c.get("name", "") for c in el.iterfind("Club")))
        for el in root.iterfind("ClubsGroups/ClubsGroup")
    )

    tps = root.find("TournamentParameterSet")
    gen_el = tps.find("GeneralParameterSet") if tps is not None else None
    general_values = _read_fields(gen_el, _GENERAL, extra, "GeneralParameterSet")
    if gen_el is not None:
        limits = sorted(
            (_int(c.get("number", "0")), parse_rank(c.get("lowerLimit", "30K")))
            for c in gen_el.iterfind("Categories/Category")
        )
        general_values["category_lower_limits"] = tuple(limit for _, limit in limits)
    general = GeneralParameters(**general_values)
    handicap = HandicapParameters(
        **_read_fields(
            tps.find("HandicapParameterSet") if tps is not None else None,
            _HANDICAP,
            extra,
            "HandicapParameterSet",
        )
    )
    pairing = PairingParameters(
        **_read_fields(
            tps.find("PairingParameterSet") if tps is not None else None,
            _PAIRING,
            extra,
            "PairingParameterSet",
        )
    )
    criteria_el = sorted(
        (_int(c.get("number", "0")), c.get("name", "NULL"))
        for c in root.iterfind(
            "TournamentParameterSet/PlacementParameterSet/PlacementCriteria/PlacementCriterion"
        )
    )
    names = [check_criterion(name) for _, name in criteria_el]
    while names and names[-1] == "NULL":  # OpenGotha pads to six criteria; the padding means nothing
        names.pop()
    criteria = tuple(names) if criteria_el else Tournament().criteria

    for parent in (root, tps):
        if parent is None:
            continue
        for child in parent:
            if (parent.tag, child.tag) in _VERBATIM:
                # Kept without its layout (indentation differs between writers), which XML does not count.
                kept = copy.deepcopy(child)
                kept.tail = None
                ET.indent(kept, space="")
                extra[f"xml:{parent.tag}/{child.tag}"] = ET.tostring(kept, encoding="unicode")
    t = Tournament(
        general, handicap, criteria, pairing, tuple(players), tuple(games), byes, clubs_groups, extra
    )
    t.check()
    return t


def _write_fields(
    element: ET.Element,
    obj: Any,
    table: tuple[tuple[str, str, _Conv], ...],
    extra: Mapping[str, str],
    prefix: str,
) -> None:
    for attr, name, (_, show) in table:
        if f"{prefix}#missing:{attr}" in extra:
            continue
        # XML 1.0 cannot carry a control character at all, even escaped: a name with one would make a file that
        # no reader (ours included) opens again.
        element.set(attr, one_line(show(getattr(obj, name))))
    for key, value in extra.items():
        if key.startswith(prefix + "@"):
            element.set(key[len(prefix) + 1 :], one_line(value))


def write(tournament: Tournament) -> str:
    """The OpenGotha XML file of ``tournament`` (UTF-8 text with its XML declaration)."""
    extra = tournament.extra
    root = ET.Element("Tournament")
    for key, value in extra.items():
        if key.startswith("Tournament@"):
            root.set(key[len("Tournament@") :], value)
    players_el = ET.SubElement(root, "Players")
    for p in tournament.players:
        el = ET.SubElement(players_el, "Player")
        _write_fields(el, p, _PLAYER, {}, "Player")
        part = list(p.participating) + [True] * max(0, MAX_ROUNDS - len(p.participating))
        el.set("participating", "".join("1" if x else "0" for x in part))
    games_el = ET.SubElement(root, "Games")
    for g in tournament.games:
        code = f"RESULT_{g.result.value}" + ("_BYDEF" if g.by_default else "")
        ET.SubElement(
            games_el,
            "Game",
            {
                "roundNumber": str(g.round),
                "tableNumber": str(g.table),
                "whitePlayer": g.white,
                "blackPlayer": g.black,
                "knownColor": _bool_text(g.known_color),
                "handicap": str(g.handicap),
                "result": code,
            },
        )
    if tournament.byes:
        byes_el = ET.SubElement(root, "ByePlayers")
        for r in sorted(tournament.byes):
            ET.SubElement(byes_el, "ByePlayer", {"roundNumber": str(r), "player": tournament.byes[r]})
    _verbatim(root, extra, "Tournament/Teams")
    tps = ET.SubElement(root, "TournamentParameterSet")
    gen_el = ET.SubElement(tps, "GeneralParameterSet")
    _write_fields(gen_el, tournament.general, _GENERAL, extra, "GeneralParameterSet")
    if tournament.general.number_of_categories > 1 and tournament.general.category_lower_limits:
        cats = ET.SubElement(gen_el, "Categories")
        for i, limit in enumerate(tournament.general.category_lower_limits, start=1):
            ET.SubElement(cats, "Category", {"number": str(i), "lowerLimit": rank_text(limit)})
    if "HandicapParameterSet#absent" not in extra:
        _write_fields(
            ET.SubElement(tps, "HandicapParameterSet"),
            tournament.handicap,
            _HANDICAP,
            extra,
            "HandicapParameterSet",
        )
    crits = ET.SubElement(ET.SubElement(tps, "PlacementParameterSet"), "PlacementCriteria")
    names = list(tournament.criteria) + ["NULL"] * max(0, 6 - len(tournament.criteria))
    for i, name in enumerate(names, start=1):
        ET.SubElement(crits, "PlacementCriterion", {"number": str(i), "name": name})
    if "PairingParameterSet#absent" not in extra:
        _write_fields(
            ET.SubElement(tps, "PairingParameterSet"),
            tournament.pairing,
            _PAIRING,
            extra,
            "PairingParameterSet",
        )
    _verbatim(tps, extra, "TournamentParameterSet/DPParameterSet")
    _verbatim(tps, extra, "TournamentParameterSet/PublishParameterSet")
    _verbatim(root, extra, "Tournament/TeamTournamentParameterSet")
    if tournament.clubs_groups:
        groups_el = ET.SubElement(root, "ClubsGroups")
        for name, clubs in tournament.clubs_groups:
            group = ET.SubElement(groups_el, "ClubsGroup", {"name": name})
            for club in clubs:
                ET.SubElement(group, "Club", {"name": club})
    ET.indent(root, space="")
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        + ET.tostring(root, encoding="unicode")
        + "\n"
    )


def _verbatim(parent: ET.Element, extra: Mapping[str, str], where: str) -> None:
    text = extra.get("xml:" + where)
    if text is not None:
        parent.append(ET.fromstring(text))
