"""What a director, a player or the server does to a tournament, as changes of its stored state.

Each function returns a ``keima.server.tournaments.store.Change``: given the tournament as stored, it checks the
request against it (raising ``Refused``: nothing is stored) and returns the new engine value, settings and log
entries. ``store_tournaments.change`` runs it in one locked transaction (a round's pairing, by the engine and by
hand, is ``keima.server.tournaments.hand``). The engine (``keima.tournament``) does the
pairing, standings and files; this module keeps the server's rules around it:

- a round *starts* when the director starts it (online: its games are made then, their clocks from its start time)
  or when its first result is entered; a started round is neither paired again nor swapped;
- a player's absence is set for a round that does not pair them yet;
- a result may be entered by a director, or at the table by either player of the game (once; fixing a known result
  is the directors' alone, and is logged as a fix with what it replaces).

``settings`` (JSON): ``online``, ``rated``, ``registration_open``, ``forfeit_minutes`` (how long a player of an
online round may be late before losing by forfeit), ``clock`` (the online games' clock, ``ClockSpec``'s dict) and
``rounds`` (``{"1": {"started": true, "start_at": ISO time or null}}``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from keima.server.errors import Refused, quote
from keima.server.tournaments.limits import check_players
from keima.server.tournaments.store import Change, Outcome, Stored
from keima.tournament.model import Game, Player, Result, Tournament, TournamentError

#: The API's names of the engine's results (what a result entry says).
RESULTS: dict[str, Result] = {
    "unknown": Result.UNKNOWN,
    "black": Result.BLACK_WINS,
    "white": Result.WHITE_WINS,
    "draw": Result.DRAW,
    "both_win": Result.BOTH_WIN,
    "both_lose": Result.BOTH_LOSE,
}
RESULT_NAMES = {v: k for k, v in RESULTS.items()}

#: The scheduler's jobs of an online round (``keima.server.tournaments.rounds``), keyed ``"{tournament}/{round}"``:
#: make its games at its start time, and judge the players absent at its forfeit limit.
ROUND_JOB = "t-round"
FORFEIT_JOB = "t-forfeit"

def new_settings(**values: Any) -> dict[str, Any]:
    """The settings of a new tournament: the defaults (at the table, unrated, registration open, 15 minutes to
    show up, the tournament's own clock) with ``values``."""
    return {"online": False, "rated": False, "registration_open": True, "forfeit_minutes": 15, "clock": None,
            "rounds": {}} | values


def engine_error(exc: TournamentError) -> Refused:
    """The engine's refusal as the API's (422: the request cannot be right)."""
    return Refused("invalid-request", str(exc))


def round_info(settings: dict[str, Any], rn: int) -> dict[str, Any]:
    """The server's record of round ``rn`` (``{}`` before anything happened to it)."""
    info: dict[str, Any] = settings.get("rounds", {}).get(str(rn), {})
    return info


def started(settings: dict[str, Any], rn: int) -> bool:
    """Whether round ``rn`` has started (see the module docstring)."""
    return bool(round_info(settings, rn).get("started"))


def _with_round(settings: dict[str, Any], rn: int, **values: Any) -> dict[str, Any]:
    rounds = dict(settings.get("rounds", {}))
    rounds[str(rn)] = {**rounds.get(str(rn), {}), **values}
    return {**settings, "rounds": rounds}


def _check_round(t: Tournament, rn: int) -> None:
    if not 1 <= rn <= t.general.number_of_rounds:
        raise Refused("not-found", f"round {rn} is not in 1..{t.general.number_of_rounds}")


def _not_started(s: Stored, rn: int, what: str) -> None:
    if started(s.settings, rn):
        raise Refused("round-started", f"round {rn} has started: it can no longer be {what}")


def _player(t: Tournament, key: str) -> Player:
    try:
        return t.player(key)
    except TournamentError:
        raise Refused("not-found", f"no player {quote(key)} in this tournament") from None


def _game_at(t: Tournament, rn: int, table: int) -> Game:
    for g in t.games:
        if g.round == rn and g.table == table:
            return g
    raise Refused("not-found", f"round {rn} has no table {table}")


def game_out(g: Game) -> dict[str, Any]:
    """A game as the log records it."""
    return {"round": g.round, "table": g.table, "white": g.white, "black": g.black, "handicap": g.handicap,
            "result": RESULT_NAMES[g.result], "by_forfeit": g.by_default}


def rated_result(g: Game) -> str:
    """The keima result the ratings count for a table's result: ``"B+"``, ``"W+"``, ``"0"``, or ``"Void"`` (not
    rated: a game not played, both winning or losing, no result)."""
    if g.by_default:
        return "Void"
    return {Result.BLACK_WINS: "B+", Result.WHITE_WINS: "W+", Result.DRAW: "0"}.get(g.result, "Void")


# -- the tournament and its directors ----------------------------------------------------------------------------
def add_director(pid: str, name: str) -> Change:
    """Name the account ``pid`` (``name``) a co-director (409 when it directs already)."""

    def do(s: Stored) -> Outcome:
        if pid in s.directors:
            raise Refused("already-director", f"{name} already directs this tournament")
        return Outcome(s.tournament, s.settings, [("co-director", {"name": name})], add_directors={pid: "co-director"})

    return do


def drop_director(pid: str, name: str, by: str) -> Change:
    """Remove the co-director ``pid``; only the director (account ``by``) may (403 for a co-director: one could
    otherwise remove the others), and the director stays (409)."""

    def do(s: Stored) -> Outcome:
        if s.directors.get(by) != "director":
            raise Refused("not-director", "only the tournament's director removes a co-director")
        role = s.directors.get(pid)
        if role is None:
            raise Refused("not-found", f"{name} does not direct this tournament")
        if role == "director":
            raise Refused("wrong-phase", "the director cannot be removed")
        return Outcome(s.tournament, s.settings, [("co-director-removed", {"name": name})], drop_directors=[pid])

    return do


# -- players ---------------------------------------------------------------------------------------------------
def register(player: Player, account: str | None, how: str) -> Change:
    """Register ``player`` (``how``: ``"typed"``, ``"ffg"``, ``"egd"``), bound to the account id ``account`` if
    given (409 when the name is registered already, or the account holds another player)."""

    def do(s: Stored) -> Outcome:
        check_players(len(s.tournament.players) + 1)
        try:
            t = s.tournament.with_player(player)
        except TournamentError as exc:
            raise Refused("already-registered", str(exc)) from None
        if account is not None and account in s.accounts.values():
            raise Refused("already-registered", "this account already plays in this tournament")
        log: list[tuple[str, dict[str, Any]]] = [("register", {"player": player.key, "how": how})]
        if account is None or how == "account":
            bind = {} if account is None else {player.key: account}
            return Outcome(t, s.settings, log, bind=bind)
        # A director's choice of account is a proposal: the account plays for this player only once it confirms
        # (``confirm_account``), or any account could be made to play in a tournament it never joined.
        proposals = {**s.settings.get("proposals", {}), player.key: account}
        log.append(("account-proposed", {"player": player.key}))
        return Outcome(t, {**s.settings, "proposals": proposals}, log)

    return do


def confirm_account(key: str, account: str) -> Change:
    """The account ``account`` confirms that it plays for the player ``key`` as a director proposed (404 when no
    such proposal was made to it; 409 when it plays for another player already)."""

    def do(s: Stored) -> Outcome:
        proposals = dict(s.settings.get("proposals", {}))
        if proposals.get(key) != account:
            raise Refused("not-found", f"no proposal to play for {quote(key)} in this tournament")
        if account in s.accounts.values():
            raise Refused("already-registered", "this account already plays in this tournament")
        del proposals[key]
        return Outcome(s.tournament, {**s.settings, "proposals": proposals},
                       [("account-confirmed", {"player": key})], bind={key: account})

    return do


def sign_up(player: Player, account: str) -> Change:
    """An account registers itself while registration is open (409 otherwise)."""
    inner = register(player, account, "account")

    def do(s: Stored) -> Outcome:
        if not s.settings.get("registration_open"):
            raise Refused("registration-closed", "registration is closed for this tournament")
        return inner(s)

    return do


def set_absent(key: str, rn: int, absent: bool) -> Change:
    """Mark a player absent from round ``rn`` (or present again) while the round does not pair them (409)."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        p = _player(t, key)
        if any(g.round == rn and key in (g.white, g.black) for g in t.games) or t.byes.get(rn) == key:
            raise Refused("wrong-phase", f"round {rn} pairs this player: pair it again without them first")
        flags = list(p.participating)
        flags[rn - 1] = not absent
        t = replace(t, players=tuple(replace(q, participating=tuple(flags)) if q.key == key else q
                                     for q in t.players))
        return Outcome(t, s.settings, [("absent" if absent else "present", {"player": key, "round": rn})])

    return do


# -- rounds ----------------------------------------------------------------------------------------------------
def start(rn: int, start_at: datetime) -> Change:
    """Start round ``rn`` (paired; not started yet: 409); online, its games are made at ``start_at`` by the
    scheduler (``ROUND_JOB``)."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        _not_started(s, rn, "started again")
        if not any(g.round == rn for g in t.games):
            raise Refused("wrong-phase", f"round {rn} is not paired")
        at = start_at.isoformat()
        settings = _with_round(s.settings, rn, started=True, start_at=at)
        jobs = [(ROUND_JOB, f"{s.id}/{rn}", start_at)] if s.settings.get("online") else []
        return Outcome(t, settings, [("start", {"round": rn, "start_at": at})], jobs=jobs)

    return do


def set_result(rn: int, table: int, result: str, by_forfeit: bool, player_id: str | None, director: bool) -> Change:
    """Enter the result of round ``rn``'s ``table``. A director enters or fixes any result; a player of the game
    (account ``player_id``) enters an unknown result of a game played at the table, once the round has started
    (403 otherwise; 409 before the start, for a game played on keima, or once the result is known). The round
    counts as started from its first result."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _check_round(t, rn)
        g = _game_at(t, rn, table)
        if not director:
            mine = player_id is not None and player_id in (s.accounts.get(g.white), s.accounts.get(g.black))
            if not mine:
                raise Refused("not-director", "only the directors and the two players enter this result")
            if (rn, table) in s.games or s.settings.get("online"):
                # An online table's result comes from its game (or a director): a player could otherwise decide
                # their game before it is made, and the start would then find the table decided.
                raise Refused("wrong-phase", "this game is played on keima: its result comes from the game")
            if not started(s.settings, rn):
                raise Refused("wrong-phase", f"round {rn} has not started: its results are entered once it has")
            if g.result is not Result.UNKNOWN:
                raise Refused("wrong-phase", "this result is entered already: ask a director to fix it")
        new = replace(g, result=RESULTS[result], by_default=by_forfeit and RESULTS[result] is not Result.UNKNOWN)
        t = replace(t, games=tuple(new if x is g else x for x in t.games))
        action = "fix" if g.result is not Result.UNKNOWN else "result"
        detail = {"round": rn, "table": table, "result": result, "by_forfeit": new.by_default}
        if action == "fix":
            detail["was"] = RESULT_NAMES[g.result]
        gid = s.games.get((rn, table))
        # The keima game of the table counts for the ratings as the directors decided.
        fixed = {} if gid is None else {gid: rated_result(new)}
        return Outcome(t, _with_round(s.settings, rn, started=True), [(action, detail)], fixed=fixed)

    return do


def game_result(rn: int, table: int, result: Result, by_forfeit: bool, game_id: str) -> Change:
    """The result of an online game (``game_id``) reaching its table, from the game's finished event: a result a
    director already entered for the table is kept (theirs is the last word)."""

    def do(s: Stored) -> Outcome:
        g = _game_at(s.tournament, rn, table)
        if g.result is not Result.UNKNOWN:
            return Outcome(s.tournament, s.settings, [])
        new = replace(g, result=result, by_default=by_forfeit)
        t = replace(s.tournament, games=tuple(new if x is g else x for x in s.tournament.games))
        detail = {"round": rn, "table": table, "result": RESULT_NAMES[result], "by_forfeit": by_forfeit,
                  "game": game_id}
        return Outcome(t, s.settings, [("game-result", detail)])

    return do


def online_games(rn: int, made: list[tuple[int, str]], forfeit_at: datetime) -> Change:
    """Bind the keima games ``made`` (``(table, game id)``) to round ``rn``'s tables (those not bound yet) and set
    the round's forfeit judgement at ``forfeit_at``."""

    def do(s: Stored) -> Outcome:
        new = [(rn, table, gid) for table, gid in made if (rn, table) not in s.games]
        log = [("games", {"round": rn, "games": {str(t): g for _, t, g in new}})] if new else []
        return Outcome(s.tournament, s.settings, log, games=new, jobs=[(FORFEIT_JOB, f"{s.id}/{rn}", forfeit_at)])

    return do


def check_in(rn: int, player_id: str) -> Change:
    """The caller (account ``player_id``) says they are at their online game of round ``rn``, started (409
    otherwise; 403 a caller who does not play in the tournament): at the forfeit limit, a player who checked in
    or moved is not absent."""

    def do(s: Stored) -> Outcome:
        key = next((k for k, v in s.accounts.items() if v == player_id), None)
        if key is None:
            raise Refused("not-director", "only the tournament's players check in")
        _check_round(s.tournament, rn)
        if not started(s.settings, rn):
            raise Refused("wrong-phase", f"round {rn} has not started")
        present = list(round_info(s.settings, rn).get("present", []))
        if key in present:
            return Outcome(s.tournament, s.settings, [])
        settings = _with_round(s.settings, rn, present=[*present, key])
        return Outcome(s.tournament, settings, [("check-in", {"round": rn, "player": key})])

    return do


def present(settings: dict[str, Any], rn: int) -> set[str]:
    """The players who checked in to round ``rn``."""
    return set(round_info(settings, rn).get("present", []))


def both_absent(rn: int, table: int, absent: bool) -> Change:
    """The server's verdict at the forfeit limit that neither player of round ``rn``'s ``table`` came (both lose
    by forfeit), or (``absent`` false) its withdrawal when a move arrived meanwhile."""

    def do(s: Stored) -> Outcome:
        g = _game_at(s.tournament, rn, table)
        result = Result.BOTH_LOSE if absent else Result.UNKNOWN
        new = replace(g, result=result, by_default=absent)
        t = replace(s.tournament, games=tuple(new if x is g else x for x in s.tournament.games))
        detail = {"round": rn, "table": table, "result": RESULT_NAMES[result], "by_forfeit": absent}
        return Outcome(t, s.settings, [("both-absent" if absent else "both-absent-withdrawn", detail)])

    return do
