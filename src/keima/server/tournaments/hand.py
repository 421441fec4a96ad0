"""A round's pairing as changes of the stored tournament: by the engine, and by a director's hand before the round
starts (``keima.server.tournaments.changes`` has the other changes and the rules they share).

- ``pair`` pairs the players not seated yet: the tables a director made by hand and the bye they chose stay, the
  engine pairs the rest (choosing the bye when the rest is odd). ``again`` drops the round's pairing first, the
  hand changes included unless ``keep`` (then the hand-made tables and the chosen bye stay, the swaps go);
- ``choose_bye`` gives the bye to a player: before the pairing, the engine then pairs the others; after it, the
  player changes places with the one who had it;
- ``match`` seats two players at one table: their former opponents meet each other (or one takes the freed bye);
  before the pairing, the table is made and the engine pairs the rest;
- ``swap`` exchanges two players' places.

The round's record (``settings["rounds"][n]``) keeps what was done by hand: ``hand_tables``, the tables made or
changed by hand, and ``hand_bye``, the bye a director chose; the page asks before "pair again" drops them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from keima.server.errors import Refused, quote
from keima.server.tournaments.changes import (
    _check_round,
    _not_started,
    _player,
    _with_round,
    engine_error,
    round_info,
)
from keima.server.tournaments.store import Change, Outcome, Stored
from keima.tournament.model import Game, Tournament, TournamentError
from keima.tournament.pairing import game_between, pair_round


def hand_tables(settings: dict[str, Any], rn: int) -> list[int]:
    """The tables of round ``rn`` made or changed by a director's hand."""
    return sorted(int(x) for x in round_info(settings, rn).get("hand_tables", []))


def hand_bye(settings: dict[str, Any], rn: int) -> str | None:
    """The bye of round ``rn`` a director chose (None: the engine's, or no bye)."""
    key: str | None = round_info(settings, rn).get("hand_bye")
    return key


def _playing(t: Tournament, rn: int) -> list[str]:
    return [p.key for p in t.players if p.plays(rn) and p.registering_status == "FIN"]


def _without_round(t: Tournament, rn: int, keep_tables: set[int], keep_bye: bool) -> Tournament:
    return replace(t, games=tuple(g for g in t.games if g.round != rn or g.table in keep_tables),
                   byes={r: k for r, k in t.byes.items() if r != rn or keep_bye})


def pair(rn: int, seed: int | None, again: bool, keep: bool = False) -> Change:
    """Pair round ``rn``'s players not seated yet with the engine (see the module docstring). Without ``again``
    a round the engine has paired already is refused (409); ``again`` replaces its pairing before it starts (409
    after), dropping the hand changes unless ``keep``."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        mine = set(hand_tables(s.settings, rn))
        chosen = hand_bye(s.settings, rn)
        games = t.games_of_round(rn)
        engine_made = [g for g in games if g.table not in mine]
        engine_bye = rn in t.byes and t.byes[rn] != chosen
        settings = s.settings
        seated = {k for g in games for k in (g.white, g.black)} | ({t.byes[rn]} if rn in t.byes else set())
        waiting = [k for k in _playing(t, rn) if k not in seated]
        if (engine_made or engine_bye) and not again and not waiting:
            raise Refused("wrong-phase", f"round {rn} is paired already: ask to pair it again")
        if again:
            _not_started(s, rn, "paired again")
            # A hand-made table stays only if it was made by ``match`` (a swapped table is the engine's, changed).
            made = set(round_info(s.settings, rn).get("made_tables", [])) if keep else set()
            t = _without_round(t, rn, made, keep and chosen is not None)
            settings = _with_round(settings, rn, hand_tables=sorted(made),
                                   made_tables=sorted(made), hand_bye=chosen if keep else None)
        try:
            p = pair_round(t, rn, seed)
        except TournamentError as exc:
            raise engine_error(exc) from None
        if not p.games and not any(g.round == rn for g in t.games):
            raise Refused("wrong-phase", f"nobody to pair in round {rn}")
        t = replace(t, games=t.games + p.games, byes={**t.byes, rn: p.bye} if p.bye else t.byes)
        detail: dict[str, Any] = {"round": rn, "games": len(p.games), "bye": p.bye, "again": bool(again and games)}
        if again and (mine or chosen):
            detail["kept" if keep else "dropped"] = {"tables": sorted(mine), "bye": chosen}
        return Outcome(t, settings, [("pair", detail)])

    return do


def unpair(rn: int) -> Change:
    """Drop round ``rn``'s pairing, hand changes included, before it starts (409 after)."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        _not_started(s, rn, "unpaired")
        if not any(g.round == rn for g in t.games) and rn not in t.byes:
            raise Refused("wrong-phase", f"round {rn} is not paired")
        settings = _with_round(s.settings, rn, hand_tables=[], made_tables=[], hand_bye=None)
        return Outcome(_without_round(t, rn, set(), False), settings, [("unpair", {"round": rn})])

    return do


def _marked(settings: dict[str, Any], rn: int, tables: set[int], made: set[int] | None = None,
            **values: Any) -> dict[str, Any]:
    info = round_info(settings, rn)
    extra = {} if made is None else {"made_tables": sorted(set(info.get("made_tables", [])) | made)}
    return _with_round(settings, rn, hand_tables=sorted(set(info.get("hand_tables", [])) | tables),
                       **extra, **values)


def swap(rn: int, a: str, b: str) -> Change:
    """Exchange players ``a`` and ``b`` in round ``rn`` before it starts: each takes the other's table (or the
    bye); colours and handicap are set again as the pairing sets them. Two players of one table change colours."""

    def do(s: Stored) -> Outcome:
        t, tables, byes = _swapped(s, rn, a, b)
        settings = _marked(s.settings, rn, tables)
        if byes.get(rn) != t.byes.get(rn):  # the bye moved by hand
            settings = _with_round(settings, rn, hand_bye=byes.get(rn))
        t = replace(t, byes=byes)
        return Outcome(t, settings, [("swap", {"round": rn, "a": a, "b": b})])

    return do


def _swapped(s: Stored, rn: int, a: str, b: str) -> tuple[Tournament, set[int], dict[int, str]]:
    """The tournament with ``a`` and ``b`` exchanged in round ``rn`` (its byes apart), the tables changed and the
    byes after the exchange."""
    t = s.tournament
    _check_round(t, rn)
    _not_started(s, rn, "changed")
    _player(t, a)
    _player(t, b)
    if a == b:
        raise Refused("invalid-request", "swap two different players", field="b")
    games = t.games_of_round(rn)
    where = {k: g for g in games for k in (g.white, g.black)}
    bye = t.byes.get(rn)
    for k in (a, b):
        if k not in where and k != bye:
            raise Refused("wrong-phase", f"{quote(k)} is not paired in round {rn}")
    new: dict[int, Game] = {}
    byes = dict(t.byes)
    try:
        if a in where and b in where and where[a] is where[b]:
            g = where[a]
            new[g.table] = replace(g, white=g.black, black=g.white)
        else:
            for x, y in ((a, b), (b, a)):
                if x in where:
                    g = where[x]
                    new[g.table] = game_between(t, rn, g.table, y, g.opponent(x))
                else:
                    byes[rn] = y
    except TournamentError as exc:
        raise engine_error(exc) from None
    t = replace(t, games=tuple(new.get(g.table, g) if g.round == rn else g for g in t.games))
    return t, set(new), byes


def choose_bye(rn: int, key: str | None) -> Change:
    """Give round ``rn``'s bye to ``key`` before it starts (see the module docstring); ``key`` None drops a chosen
    bye of a round not paired yet. 409 when the players of the round are an even number (nobody has the bye), or
    the round is paired without a bye; 422 (``player``) for a player who does not play the round."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        _not_started(s, rn, "changed")
        current = t.byes.get(rn)
        games = t.games_of_round(rn)
        seated = {k for g in games for k in (g.white, g.black)}
        if key is None:
            if hand_bye(s.settings, rn) is None or seated:
                raise Refused("wrong-phase", f"round {rn} has no bye chosen before its pairing to drop")
            t = replace(t, byes={r: k for r, k in t.byes.items() if r != rn})
            return Outcome(t, _with_round(s.settings, rn, hand_bye=None), [("bye", {"round": rn, "player": None})])
        p = _player(t, key)
        playing = _playing(t, rn)
        if key not in playing:
            raise Refused("invalid-request", f"{p.name} {p.first_name} does not play round {rn}".replace("  ", " "),
                          field="player")
        if len(playing) % 2 == 0:
            raise Refused("wrong-phase", f"{len(playing)} players play round {rn}, an even number: nobody has the bye")
        if key == current:
            return Outcome(t, _with_round(s.settings, rn, hand_bye=key), [])
        if key in seated:
            if current is None:
                raise Refused("wrong-phase", f"round {rn} is paired without a bye")
            t, tables, byes = _swapped(s, rn, key, current)
            settings = _marked(s.settings, rn, tables, hand_bye=key)
            return Outcome(replace(t, byes=byes), settings, [("bye", {"round": rn, "player": key})])
        # Not seated: the round is not paired (or paired in part by hand); the engine pairs the others.
        t = replace(t, byes={**t.byes, rn: key})
        return Outcome(t, _with_round(s.settings, rn, hand_bye=key), [("bye", {"round": rn, "player": key})])

    return do


def match(rn: int, a: str, b: str) -> Change:
    """Seat ``a`` and ``b`` at one table of round ``rn`` before it starts (see the module docstring). 422 (``b``)
    for one player twice, or a player who does not play the round; 409 for two players at one table already."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        _not_started(s, rn, "changed")
        if a == b:
            raise Refused("invalid-request", "choose two different players", field="b")
        playing = set(_playing(t, rn))
        for k, field in ((a, "a"), (b, "b")):
            p = _player(t, k)
            if k not in playing:
                raise Refused("invalid-request", f"{p.name} {p.first_name} does not play round {rn}".strip(),
                              field=field)
        games = t.games_of_round(rn)
        where = {k: g for g in games for k in (g.white, g.black)}
        if a in where and where.get(b) is where[a]:
            raise Refused("wrong-phase", f"they play each other at table {where[a].table} already")
        bye = t.byes.get(rn)
        # Where each was: a table (its opponent is freed) or the bye.
        freed = [where[k].opponent(k) for k in (a, b) if k in where]
        old_tables = sorted(where[k].table for k in (a, b) if k in where)
        used = {g.table for g in games}
        table = old_tables[0] if old_tables else next(n for n in range(1, len(used) + 2) if n not in used)
        try:
            made = [game_between(t, rn, table, a, b)]
            byes = dict(t.byes)
            if bye in (a, b):
                del byes[rn]
            if len(freed) == 2:
                made.append(game_between(t, rn, old_tables[1], freed[0], freed[1]))
            elif len(freed) == 1 and bye in (a, b):
                byes[rn] = freed[0]
        except TournamentError as exc:
            raise engine_error(exc) from None
        gone = {where[k].table for k in (a, b) if k in where}
        t = replace(t, games=tuple(g for g in t.games if g.round != rn or g.table not in gone) + tuple(made),
                    byes=byes)
        settings = _marked(s.settings, rn, {g.table for g in made}, {table})
        if byes.get(rn) != bye:  # the bye moved by hand
            settings = _with_round(settings, rn, hand_bye=byes.get(rn))
        return Outcome(t, settings, [("match", {"round": rn, "a": a, "b": b, "table": table})])

    return do
