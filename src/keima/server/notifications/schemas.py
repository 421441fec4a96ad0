"""The typed bodies of the notification endpoints (docs/web-api.md, *Notifications*): what a player may be told of,
the bell's list and marking it read."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

NotifyPref = Literal["off", "now", "digest"]


NotifyKind = Literal["your-turn", "challenge-accepted", "undo-request", "chat", "game-finished", "clock-low",
                     "automatch", "tournament-round", "count-deadline", "club"]



class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

class NotificationOut(_Strict):
    """One notification: its ``kind``, ``game`` (or null), ``text`` in the reader's language, ``at`` (Unix, when
    the newest of its kind and game came); ``tournament``: the tournament of a ``tournament-round`` notification
    (else null), ``club`` the club of a ``club`` notification; for a game's: ``opponent`` (a name), ``size`` (the board) and ``color`` (the reader's, ``B``/``W``),
    each null when unknown; ``count``: how many chat messages it stands for (1 for other kinds); ``moves``: the
    game's number of moves now, ``left``: the reader's seconds left while their clock runs (else null)."""

    id: int
    kind: str
    game: str | None
    text: str
    at: float
    read: bool
    tournament: str | None = None
    #: The club of a ``club`` notification (its address, /c/<club>), else null.
    club: str | None = None
    opponent: str | None = None
    size: int | None = None
    color: Literal["B", "W"] | None = None
    count: int = 1
    moves: int | None = None
    left: float | None = None


class NotificationsOut(_Strict):
    """``GET /api/me/notifications``."""

    notifications: list[NotificationOut]


class ReadIn(_Strict):
    """``POST /api/me/notifications/read``: the ids, or ``all``, or every notification about one ``game`` (its page
    was opened)."""

    # A notification's id is a positive 64-bit number: anything else is refused here (422), before the database.
    ids: Annotated[list[Annotated[int, Field(ge=1, le=2**63 - 1)]], Field(max_length=500)] | None = None
    all: bool = False
    game: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")] | None = None
