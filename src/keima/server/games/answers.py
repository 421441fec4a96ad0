"""What the server sends about games (pydantic models: validation and the OpenAPI description in one place): a game's
state and its parts, the answers of the game endpoints, the server's info and figures, and the WebSocket messages
(docs/web-api.md, *Games* and *WebSocket*). ``keima.server.games.view`` builds them; what clients send is in
``keima.server.games.schemas``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from keima.server.errors import ErrorDetail
from keima.server.games.schemas import ClockIn, Color
from keima.server.housekeeping import Allocator


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MoveOut(_Strict):
    n: int
    color: Color
    point: int | None
    vertex: str
    captures: int


class PlayerOut(_Strict):
    """A seat: ``name`` and ``rank`` of the player holding it (a bot's name names its level; None for a seat
    held by no player account, e.g. an API client's token). ``rank``: the rank shown beside the name when the
    player took the seat, earned from their rated games (``provisional``: pages write it ``"3k?"``) or, before
    their first rated game, the rank they typed (``keima.server.ratings.shown``)."""

    kind: Literal["human", "bot"]
    level: str | None
    seated: bool
    name: str | None = None
    rank: str | None = None
    provisional: bool = False


class ChatOut(_Strict):
    """A chat message: ``n`` the number of moves played when it was sent (it belongs after move ``n``),
    ``from`` the sender's name, ``at`` the time (ISO 8601, UTC), ``to`` which chat, ``sender`` the sender's
    handle, the same in every game, which a reader mutes (``PUT /api/me/mutes/{sender}``; null for messages
    stored before handles were)."""

    model_config = ConfigDict(extra="forbid", serialize_by_alias=True, validate_by_name=True,
                              validate_by_alias=True)

    n: int
    from_: str = Field(alias="from")
    text: str
    at: str
    to: Literal["players", "spectators"]
    account: bool = False
    """True when a player account wrote it (``from`` is its name of the day, a page may link to the player);
    false for a seat held by a token alone (``from`` is then the colour, ``"Black"``)."""
    sender: str | None = None


class SideClockOut(_Strict):
    """One side's time as of the message (``periods``: byo-yomi only; ``period``: byo-yomi and Canadian;
    ``stones``: Canadian only)."""

    main: float
    periods: int | None
    period: float | None
    stones: int | None
    expired: bool


class ClockOut(_Strict):
    """Both clocks as of ``at`` (docs/web-api.md, ``clock``): the server's time of the reading, Unix seconds; the
    side ``running`` has been charged up to ``at``, so a page shows ``value - (server's now - at)`` for it, unless
    ``paused`` names why that side's clock stands still (its weekend, its vacation), and until ``pauses_at`` (the
    server's Unix time the running clock will stop for a pause; None: it will not)."""

    spec: ClockIn
    running: Color | None
    at: float
    B: SideClockOut
    W: SideClockOut
    paused: dict[Color, Literal["weekend", "vacation"] | None]
    pauses_at: float | None = None
    resumes_at: float | None = None
    """The server's Unix time at which the running side's pause ends (its clock counts from then)."""


class UndoRequestOut(_Strict):
    by: Color


class EventOut(_Strict):
    """The tournament a game belongs to (``/t/{id}`` is its page), with the round and table it is played at."""

    id: str
    name: str
    round: int
    table: int


class GameState(_Strict):
    """A game as every client renders it (docs/web-api.md, *GameState*).

    ``clock``, ``moves`` and ``you`` come last: the server serializes the rest once per change and appends those
    three (the clock is read at each sending, the move list grows by one move at a time, ``you`` differs per
    viewer), see ``keima.server.games.view``."""

    id: str
    version: int
    created_at: str
    mode: Literal["invite", "open", "bot", "local"]
    size: int
    rules: dict[str, Any]
    komi: float
    handicap: int
    placement: Literal["fixed", "free"] | None
    handicap_stones: list[int]
    handicap_left: int
    phase: Literal["handicap", "play", "scoring", "finished"]
    to_move: Color
    result: str | None
    end_reason: str | None
    board: list[int]
    prisoners: dict[Color, int]
    pass_count: dict[Color, int]
    consecutive_passes: int
    dead: list[int]
    accepted: list[Color]
    proposal: list[int] | None
    score: dict[str, Any] | None
    players: dict[Color, PlayerOut]
    invite_open: bool
    undo_request: UndoRequestOut | None
    bot_note: str | None = None
    """What the computer seat says about the dead-stone marking it disputes ("keima thinks D4 is alive ...")."""
    bot_warming: bool = False
    """Always false: kept for clients that read it. It said that keima's bot was still being compiled and its first
    move would wait; the bot now answers at once while it compiles (``keima.ai.warmup``)."""
    scoring_deadline: float | None = None
    """A correspondence game's scoring phase: the server's Unix time at which the marking on the board stands
    unless someone acts (docs/correspondence.md); null otherwise."""
    chat: list[ChatOut] = Field(default_factory=list)
    rated: bool = False
    """Whether the game counts for the players' ratings (docs/ratings.md)."""
    rating_change: dict[Color, float] | None = None
    """Once a rated game is rated: how it moved each player's rating, in points (``{"B": 12.3, "W": -12.1}``)."""
    event: EventOut | None = None
    """A tournament's game: the tournament (``id``, ``name``), its ``round`` and ``table``; null otherwise."""
    clock: ClockOut | None
    """Read when the state is sent (never a reading kept from an earlier moment)."""
    moves: list[MoveOut]
    you: list[Color]


class SeatOut(_Strict):
    colors: list[Color]
    token: str


class InviteOut(_Strict):
    code: str
    url: str


class Created(_Strict):
    """Answer of ``POST /api/games`` and ``POST /api/games/{id}/join``."""

    game: GameState
    seat: SeatOut
    invite: InviteOut | None


class GameEnvelope(_Strict):
    """Answer of ``POST /api/games/{id}/actions``."""

    game: GameState


class SizesOut(_Strict):
    min: int
    max: int
    common: list[int]


class InfoOut(_Strict):
    """Answer of ``GET /api/info``: what the new-game form needs."""

    version: str
    rulesets: dict[str, dict[str, Any]]
    default_ruleset: str
    bot_levels: list[str]
    engines: list[str] = []
    """GTP engines offered as opponents (``keima serve --engine NAME=COMMAND``)."""
    sizes: SizesOut
    clock_types: list[str]
    clock_presets: dict[str, dict[str, Any]] = {}
    """The correspondence time controls offered by name (``keima.server.games.clock.CORRESPONDENCE_PRESETS``)."""


class GcOut(_Strict):
    """The garbage collector's passes by generation: how many, the longest (ms), their total (s)."""

    collections: list[int]
    longest_ms: list[float]
    total_s: float


class StatsOut(_Strict):
    """Answer of ``GET /api/stats`` (docs/web-api.md)."""

    games_in_memory: int
    actions: int
    p50_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    gc: GcOut
    allocator: Allocator


# -- WebSocket messages from the server (docs/web-api.md, *WebSocket*) -----------------------------------------
# -- WebSocket messages from the server (docs/web-api.md, *WebSocket*) -----------------------------------------
class WsState(_Strict):
    """The whole state: first on every socket (with ``protocol``), then after a gap or a ``resync``."""

    type: Literal["state"]
    protocol: int | None = None
    game: GameState


class DeltaClock(_Strict):
    """The clocks in a delta: ``at`` and ``running`` always, a side only when its stored time changed."""

    at: float
    running: Color | None
    B: dict[str, Any] | None = None
    W: dict[str, Any] | None = None
    paused: dict[Color, Literal["weekend", "vacation"] | None] | None = None
    pauses_at: float | None = None
    resumes_at: float | None = None


class WsDelta(_Strict):
    """One stored change of the game, version ``from`` to ``to`` (docs/web-api.md, *Deltas*): its ``event``, the
    stones ``placed`` and ``removed``, and every other ``GameState`` field that changed, under its name (absent
    when unchanged)."""

    model_config = ConfigDict(extra="allow", serialize_by_alias=True, validate_by_name=True, validate_by_alias=True)

    type: Literal["delta"]
    from_: int = Field(alias="from")
    to: int
    event: dict[str, Any]
    placed: list[tuple[int, Color]] | None = None
    removed: list[int] | None = None
    prisoners: dict[Color, int] | None = None
    clock: DeltaClock | None = None
    phase: str | None = None
    result: str | None = None


class WsAck(_Strict):
    type: Literal["ack"]
    id: str | None


class WsErrorDetail(ErrorDetail):
    status: int


class WsError(_Strict):
    type: Literal["error"]
    id: str | None
    error: WsErrorDetail


class WsPong(_Strict):
    type: Literal["pong"]


class WsNotice(_Strict):
    """Cluster mode: the bot's turn waits for a worker and none is running ("no-bot-worker"), or no longer
    (``null``)."""

    type: Literal["notice"]
    notice: Literal["no-bot-worker"] | None
