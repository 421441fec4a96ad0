"""Ladder games: a challenge accepted becomes a normal keima game between the two accounts, made through the game
service as a tournament's online game is (``keima.server.tournaments.rounds``), and its end moves the ladder.

- The challenger plays Black, the defender White, even, komi 7.5, on the club's board size; the clock is the
  club's choice: live (20 minutes and 5 byo-yomi periods of 30 seconds) or correspondence (Fischer: 3 days,
  a day more a move, at most 7; weekends paused). Both seats are bound to the players from the start, so the
  clock of the player to move runs at once. The game's id is derived from the challenge (``game_id_of``), so a
  retry finds the game it made.
- ``SUBSCRIBER``, a durable outbox subscriber of "finished" events, reads the game's result and settles the
  challenge and the ladder (``keima.server.clubs.store.game_ended``) in the delivery's transaction: exactly once,
  whichever process delivers.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from sqlalchemy.engine import Connection

from keima.rules.board import BLACK, WHITE
from keima.server import timesource
from keima.server.accounts import Players
from keima.server.clubs import store as st
from keima.server.errors import Refused
from keima.server.games import CORRESPONDENCE_PRESETS, Hub, Subscriber, build, token_hash

NAME = "clubs"
LIVE_CLOCK: dict[str, Any] = {"type": "byoyomi", "main": 1200, "period": 30, "periods": 5}
CORRESPONDENCE_CLOCK: dict[str, Any] = dict(CORRESPONDENCE_PRESETS["fischer-3d"])


def game_id_of(club_id: str, challenge_id: int) -> str:
    """The keima game id of ladder challenge ``challenge_id`` of club ``club_id`` (11 URL-safe characters)."""
    digest = hashlib.sha256(f"ladder {club_id} {challenge_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest)[:11].decode()


async def start(hub: Hub, players: Players, club: dict[str, Any], challenger: str, defender: str, gid: str) -> None:
    """Make the ladder game ``gid`` between ``challenger`` (Black) and ``defender`` (White) by the club's
    settings; nothing when it exists already."""
    try:
        await hub.cache.get(gid)
        return
    except Refused as exc:
        if exc.code != "no-such-game":
            raise
    black_p, white_p = await players.get(challenger), await players.get(defender)
    if black_p is None or white_p is None:
        raise Refused("not-found", "a player of this challenge is gone")
    black, white = await hub.seat_person(black_p.person()), await hub.seat_person(white_p.person())
    assert black is not None and white is not None
    rules = club["settings"]
    clock = LIVE_CLOCK if rules.get("speed") == "live" else CORRESPONDENCE_CLOCK
    body = {"size": int(rules.get("size") or 19), "rules": "french", "komi": 7.5, "handicap": 0, "placement": None,
            "clock": dict(clock), "opponent": "invite", "color": "B", "rated": False}
    session, _, _ = build(body, {}, game_id=gid, token=players.seat_token(challenger, gid), person=black)
    session.seats.white = token_hash(players.seat_token(defender, gid))
    session.people[WHITE] = dict(white)
    session.invite_hash = None
    session.invite_color = None
    session.sync_clock(timesource.now())
    await hub.service.create(session)
    await players.seat(gid, [BLACK], challenger)
    await players.seat(gid, [WHITE], defender)


def _apply(conn: Connection, event: dict[str, Any]) -> None:
    st.game_ended(conn, event["game_id"], str((event.get("data") or {}).get("result") or ""))


SUBSCRIBER = Subscriber(NAME, frozenset({"finished"}), _apply)
