"""A player's stored settings (one row each): time zone, vacation days, email address and language, and what they
want to be told; ``read`` gives them, ``upsert`` changes them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server import timesource
from keima.server.accounts.vacation import Vacation
from keima.server.storage import player_settings, players


def as_timestamp(d: datetime | None) -> float | None:
    if d is None:
        return None
    return (d if d.tzinfo is not None else d.replace(tzinfo=UTC)).timestamp()


def as_datetime(t: float | None) -> datetime | None:
    return None if t is None else datetime.fromtimestamp(t, UTC)


@dataclass(frozen=True)
class Away:
    """What pauses a player's correspondence clocks: their time zone (None: UTC) and vacation."""

    time_zone: str | None
    vacation: Vacation
    #: The rest of the player's settings, as ``GET /api/me`` shows them (``keima.server.notifications.notify``).
    email: str | None = None
    email_verified: bool = False
    lang: str | None = None
    notify: dict[str, Any] | None = None
    #: Mail to ``email`` bounced (the SMTP server refused the address for good): nothing is sent until it changes.
    email_bounced: bool = False

    def out(self, now: float) -> dict[str, Any]:
        """``MeOut.vacation``: ``{"on", "days_left", "until"}`` (``until``: Unix time it ends by itself)."""
        v = self.vacation
        on = v.away(now)
        return {"on": on, "days_left": round(v.left_at(now) / 86400, 2), "until": v.ends_at() if on else None}


def read(engine: Engine, player_id: str) -> Away:
    """The stored settings of ``player_id`` (without a vacation yet: 7 days as of the account's creation, and
    the days earned since). Blocking."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(player_settings).where(player_settings.c.player_id == player_id)).first()
        created = conn.execute(sa.select(players.c.created_at).where(players.c.id == player_id)).scalar()
    if row is None or row.vacation_left is None:
        vac = Vacation(at=as_timestamp(created) or timesource.now())
    else:
        vac = Vacation(left=row.vacation_left, at=as_timestamp(row.vacation_at) or 0.0, since=as_timestamp(row.vacation_since))
    if row is None:
        return Away(None, vac)
    return Away(row.time_zone, vac, row.email, bool(row.email_verified), row.lang, row.notify,
                row.email_bounced_at is not None)


def upsert(player_id: str, **values: Any) -> Any:
    """A store operation setting some columns of ``player_id``'s settings row (made when missing)."""

    def op(conn: Connection) -> None:
        done = conn.execute(player_settings.update().where(player_settings.c.player_id == player_id)
                            .values(**values)).rowcount
        if not done:
            conn.execute(player_settings.insert().values(player_id=player_id, **values))

    return op
