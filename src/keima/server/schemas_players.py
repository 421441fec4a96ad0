"""Request and answer bodies of the players', lobby and "my games" endpoints (keima.server.api_players); the
game-level bodies are in ``keima.server.schemas``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from keima.server.schemas import Color


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeOut(_Strict):
    """``GET /api/me``: the caller's player (``rank`` short, ``"15k"``; ``rank_text`` in words, ``"15 kyu"``);
    for a caller without a player, every field null and ``guest`` true."""

    id: str | None
    name: str | None
    rank: str | None
    rank_text: str | None
    guest: bool
    time_zone: str | None = None
    """The player's IANA time zone (their weekends in correspondence games); null: UTC until they set one."""
    vacation: VacationOut | None = None
    email: str | None = None
    email_verified: bool = False
    lang: str | None = None
    notify: dict[str, str] | None = None
    """Per kind of notification, how it is emailed: ``off``, ``now`` or ``digest``."""


class VacationOut(_Strict):
    """A player's vacation (docs/correspondence.md): ``on`` while away, ``days_left`` (spent while away, earned
    while not), ``until`` the server's Unix time it ends by itself (null when not away)."""

    on: bool
    days_left: float
    until: float | None


NotifyPref = Literal["off", "now", "digest"]
NotifyKind = Literal["your-turn", "challenge-accepted", "undo-request", "chat", "game-finished", "clock-low",
                     "automatch", "tournament-round"]


class MePatch(_Strict):
    """``PATCH /api/me``: a new name and/or rank (``""`` or null clears the rank), a time zone (an IANA name), an
    email address (``""`` removes it), the language of the emails, and per kind of notification ``off``, ``now``
    or ``digest`` (docs/correspondence.md)."""

    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    rank: Annotated[str, Field(max_length=10)] | None = None
    time_zone: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    email: Annotated[str, Field(max_length=254, pattern=r"^$|^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")] | None = None
    lang: Literal["en", "fr"] | None = None
    notify: dict[NotifyKind, NotifyPref] | None = None


class NotificationOut(_Strict):
    """One notification: its ``kind``, ``game`` (or null), ``text`` in the reader's language, ``at`` (Unix);
    ``tournament``: the tournament of a ``tournament-round`` notification (else null)."""

    id: int
    kind: str
    game: str | None
    text: str
    at: float
    read: bool
    tournament: str | None = None


class NotificationsOut(_Strict):
    """``GET /api/me/notifications``."""

    notifications: list[NotificationOut]


class ReadIn(_Strict):
    """``POST /api/me/notifications/read``: the ids, or ``all``."""

    ids: Annotated[list[int], Field(max_length=500)] | None = None
    all: bool = False


class Credentials(_Strict):
    """``POST /api/players`` (register) and ``POST /api/session`` (log in)."""

    name: Annotated[str, Field(min_length=1, max_length=40)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class PasswordChange(_Strict):
    """``POST /api/me/password``."""

    old: Annotated[str, Field(min_length=1, max_length=200)]
    new: Annotated[str, Field(min_length=1, max_length=200)]


class PlayerBrief(_Strict):
    """A seat in a summary (``name`` None: a seat held by no player account)."""

    name: str | None
    rank: str | None
    kind: Literal["human", "bot"]


class GameSummary(_Strict):
    """A game in a list: ``status`` ``open`` (a challenge anyone may accept), ``waiting`` (an invitation not
    taken yet), ``live`` or ``finished``; ``players`` null for a free seat; ``moves`` the number of moves;
    ``you`` the seats the reader holds (in "my games"); ``time_left`` each side's seconds (games with a clock)."""

    id: str
    size: int
    rules: str
    komi: float
    handicap: int
    clock: dict[str, Any] | None
    clock_text: str | None
    status: Literal["open", "waiting", "live", "finished"]
    mode: str
    players: dict[Color, PlayerBrief | None]
    moves: int
    to_move: Color
    result: str | None
    phase: str
    spectators: int
    created_at: str
    you: list[Color]
    time_left: dict[Color, float] | None
    time_at: float | None = None
    """The server's Unix time of ``time_left``: the running side has ``time_left - (now - time_at)``."""
    running: Color | None = None
    """The side whose clock runs."""
    rated: bool = False
    """Whether the game counts for the players' ratings."""
    rating_change: dict[Color, float] | None = None
    """Once a rated game is rated: how it moved each player's rating, in points."""
    paused: dict[Color, Literal["weekend", "vacation"] | None] | None = None
    """Correspondence games: why the running side's clock stands still (a page does not count it down)."""


class GamesOut(_Strict):
    """``GET /api/games`` and ``GET /api/me/games``."""

    games: list[GameSummary]
    now: float | None = None
    """The server's Unix time when the list was sent (a page ticks the clocks from it)."""


class LobbyOut(_Strict):
    """A lobby WebSocket message: the three lists, and the reader's games in progress (``mine``, null for a
    reader without a player)."""

    type: Literal["lobby"]
    open: list[GameSummary]
    live: list[GameSummary]
    finished: list[GameSummary]
    mine: list[GameSummary] | None
    now: float | None = None
    """The server's Unix time when the message was sent."""
