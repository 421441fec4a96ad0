"""The results of tournaments' online games: a durable subscriber of the "finished" game events.

A finished game that plays a tournament's table (``tournament_games``) writes its result into that table, in the
transaction of the outbox's delivery (``keima.server.storage.queues.deliver``), so that it counts exactly once in the
standings whichever process delivers it and however often. A result a director entered first is kept (see
``keima.server.tournaments.changes.game_result``); a game lost by forfeit counts "by forfeit"; a void game is lost by both.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.engine import Connection

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games import Subscriber
from keima.server.tournaments import changes as ops
from keima.server.tournaments import store as st
from keima.tournament.model import Result, TournamentError

log = logging.getLogger("keima.server")

NAME = "tournaments"
SERVER = "keima"  # the log's name for changes the server makes by itself


def result_of(result: str, reason: str | None) -> tuple[Result, bool]:
    """The table's result of a keima game that ended with ``result`` (``"B+R"``, ``"W+F"``, ``"0"``, ``"Void"``)
    for ``reason``: (result, by forfeit). A void game is lost by both."""
    forfeit = reason == "forfeit"
    if result.startswith("B+"):
        return Result.BLACK_WINS, forfeit
    if result.startswith("W+"):
        return Result.WHITE_WINS, forfeit
    if result == "0":
        return Result.DRAW, False
    return Result.BOTH_LOSE, forfeit


def _apply(conn: Connection, event: dict[str, Any]) -> None:
    where = st.tournament_of_game(conn, event["game_id"])
    if where is None:
        return
    tid, rn, table = where
    data = event["data"]
    result, forfeit = result_of(str(data.get("result") or ""), data.get("reason"))
    try:
        st.change_in(conn, tid, ops.game_result(rn, table, result, forfeit, event["game_id"]), None, SERVER, timesource.now_utc())
    except (Refused, TournamentError) as exc:
        # The table is gone (the tournament deleted): the result has nowhere to go.
        log.warning("tournament %s round %d table %d: result not written: %s", tid, rn, table, exc)


SUBSCRIBER = Subscriber(NAME, frozenset({"finished"}), _apply)
