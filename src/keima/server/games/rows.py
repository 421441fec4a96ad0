"""The one mapping between a game session and its ``games`` row: ``to_row`` writes it, ``from_row`` makes a session of a
stored game again."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC
from typing import Any

from keima.server import timesource
from keima.server.games.clock import ClockSpec, GameClock
from keima.server.games.folding import replay
from keima.server.games.seats import Seats
from keima.server.games.session import GameSession
from keima.server.games.summary import summary_line

# The ``games`` columns that change during a game (the others are written once, at creation).
MUTABLE_COLUMNS = ("phase", "result", "seat_b", "seat_w", "invite_hash", "people", "summary")


def to_row(s: GameSession) -> dict[str, Any]:
    """Return the ``games`` row of a session (every column but ``updated_at``). The only place that maps a
    session to its columns: ``from_row`` is its inverse."""
    return {
        "id": s.id,
        "created_at": s.created_at,
        "params": s.params,
        "mode": s.mode,
        "clock": s.clock.spec.as_dict(),
        "bot_color": s.bot_color,
        "bot_level": s.bot_level,
        "seat_b": s.seats.black,
        "seat_w": s.seats.white,
        "invite_hash": s.invite_hash,
        "invite_color": s.invite_color,
        "phase": s.game.phase,
        "result": s.game.result,
        "people": {("B" if c == 1 else "W"): dict(p) for c, p in sorted(s.people.items())},
        "summary": summary_line(s, timesource.now()),
    }


def mutable_part(row: dict[str, Any]) -> dict[str, Any]:
    """The ``MUTABLE_COLUMNS`` of a row (what a log append may have to update)."""
    return {k: row[k] for k in MUTABLE_COLUMNS}


def from_row(row: Mapping[str, Any], entries: list[dict[str, Any]],
             people: dict[int, dict[str, Any]] | None = None) -> GameSession:
    """Rebuild a session from its ``games`` row and its log (the inverse of ``to_row``, then ``replay``).

    Raises ``GameError`` for a log that does not replay, ``KeyError``/``TypeError``/``ValueError`` for a
    malformed row or entry."""
    created = row["created_at"]
    if created.tzinfo is None:  # SQLite keeps no zone; every stored time is UTC
        created = created.replace(tzinfo=UTC)
    params = row["params"]
    s = GameSession(
        id=row["id"],
        created_at=created,
        params=params,
        mode=row["mode"],
        game=GameSession.new_game(params),
        clock=GameClock(ClockSpec.from_dict(row["clock"])),
        seats=Seats(row["seat_b"], row["seat_w"]),
        bot_color=row["bot_color"],
        bot_level=row["bot_level"],
        invite_hash=row["invite_hash"],
        invite_color=row["invite_color"],
    )
    replay(s, entries)
    frozen = row.get("people")
    if frozen:
        s.people = {(1 if k == "B" else 2): dict(v) for k, v in frozen.items()}
    else:  # a game stored before its players were recorded with it
        s.people = dict(people or {})
    s.stored_row = mutable_part(to_row(s))
    return s
