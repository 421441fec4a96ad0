"""A player's time zone and vacation: stored with their settings, and passed on to their correspondence games.

The pauses themselves are in each game's clock (``keima.server.games.pauses``): a side's clock holds its player's time
zone and vacation interval, set by a change of the game (``GameSession.set_pauses``) when the player sits down,
changes their time zone, goes away or comes back. So a game's log alone says how its clock ran, and every process
of a cluster counts it the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any

import sqlalchemy as sa
from fastapi import Request, WebSocket
from sqlalchemy.engine import Engine

from keima.server import timesource
from keima.server.accounts import Away, Player, as_datetime, read, upsert
from keima.server.errors import Refused
from keima.server.games import reads as store_reads
from keima.server.games.pauses import valid_zone
from keima.server.games.service import GameService
from keima.server.games.session import GameSession
from keima.server.storage import Store, games

log = logging.getLogger("keima.server")


class AwaySettings:
    """Reads and changes players' time zones and vacations, and hands them to their games."""

    def __init__(self, store: Store, service: GameService) -> None:
        self.store = store
        self.service = service

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def get(self, player_id: str) -> Away:
        """The settings of ``player_id``."""
        away: Away = await self._run(read, self.store.engine, player_id)
        return away

    async def set_time_zone(self, player_id: str, tz: str) -> Away:
        """Set ``player_id``'s time zone (an IANA name, checked with zoneinfo: 422 ``field`` ``time_zone``
        otherwise) and give it to their correspondence games."""
        if not valid_zone(tz):
            raise Refused("invalid-request", f"unknown time zone {tz[:64]!r}: give an IANA name such as "
                          "Europe/Paris", field="time_zone")
        await self.store.write(upsert(player_id, time_zone=tz))
        away = await self.get(player_id)
        await self.pass_on(player_id, away)
        return away

    async def set_vacation(self, player_id: str, on: bool) -> Away:
        """Start (``on``) or end ``player_id``'s vacation now and pause or restart their correspondence clocks.
        Raises ``Refused`` 409 ``no-vacation-left`` when no day is left to start one."""
        now = timesource.now()
        away = await self.get(player_id)
        if on == away.vacation.away(now):
            return away
        try:
            vac = away.vacation.start(now) if on else away.vacation.stop(now)
        except ValueError as exc:
            raise Refused("no-vacation-left", str(exc)) from None
        await self.store.write(upsert(player_id, vacation_left=vac.left, vacation_at=as_datetime(vac.at),
                                      vacation_since=as_datetime(vac.since)))
        away = dataclasses.replace(away, vacation=vac)
        await self.pass_on(player_id, away, ended_at=None if on else now)
        return away

    async def pass_on(self, player_id: str, away: Away, ended_at: float | None = None,
                      only: str | None = None) -> None:
        """Give ``away`` to the clocks of ``player_id`` in their games under way (``only``: in that game alone).
        ``ended_at``: the vacation just ended then (the clocks keep the part of it already spent)."""
        seats: dict[str, list[int]] = await self._run(store_reads.seats_of, self.store.engine, player_id)
        if only is not None:
            seats = {only: seats.get(only, [])}
        live = await self._run(_live, self.store.engine, list(seats))
        for gid in live:
            for color in seats[gid]:
                await self._pass_to(gid, color, away, ended_at)

    async def _pass_to(self, gid: str, color: int, away: Away, ended_at: float | None) -> None:
        def do(s: GameSession) -> dict[str, Any] | None:
            side = s.clock.sides.get(color)
            interval = away.vacation.interval()
            if interval is None and ended_at is not None and side is not None and side.away is not None:
                interval = (side.away[0], min(side.away[1], ended_at))  # what was spent stays paused
            elif interval is None and side is not None and side.away is not None \
                    and side.away[1] <= timesource.now():
                interval = side.away  # a vacation that ended by itself: the past stays as it ran
            return s.set_pauses(color, away.time_zone, interval, timesource.now())

        with contextlib.suppress(Refused):
            await self.service.change(gid, do, fresh=True)


def _live(engine: Engine, ids: list[str]) -> list[str]:
    if not ids:
        return []
    with engine.connect() as conn:
        return [r.id for r in conn.execute(sa.select(games.c.id).where(games.c.id.in_(ids),
                                                                      games.c.phase != "finished"))]


def away_of(conn: Request | WebSocket) -> AwaySettings:
    """The players' time zones and vacations (``keima.server.games.away``)."""
    settings: AwaySettings = conn.app.state.away
    return settings


async def seated(conn: Request | WebSocket, player: Player, s: Any) -> None:
    """``player`` just sat down in the game ``s``: its clock learns their time zone and vacation (a
    correspondence game only)."""
    if s.clock.spec.correspondence:
        settings = away_of(conn)
        await settings.pass_on(player.id, await settings.get(player.id), only=s.id)
