"""Games as short summaries, as the lobby, "my games" and a player's page list them (docs/web-api.md, *Lobby*)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from keima.server.games import Color


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

class PlayerBrief(_Strict):
    """A seat in a summary (``name`` None: a seat held by no player account). ``rank``: the player's rank now,
    earned from their rated games (``provisional``: pages write it ``"3k?"``), or before their first rated game
    the rank they typed (``keima.server.ratings.shown``)."""

    name: str | None
    rank: str | None
    kind: Literal["human", "bot"]
    provisional: bool = False


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
    ended_at: str | None = None
    """When a finished game ended (ISO 8601, UTC), in a player's history (``GET /api/players/{name}/games``);
    null elsewhere and for games in progress."""


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
