"""Request bodies of the API (pydantic models: validation and the OpenAPI description in one place).

Limits keep every request small: sizes 2..25, handicap 0..9, clock times up to 90 days (main time, a Fischer
cap) and 30 days (a move's time: increment, period, per move), strings short; unknown fields
are refused so that a typo is reported instead of silently ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, StrictBool, StrictInt, TypeAdapter

from keima.rules.coords import MAX_SIZE, MIN_SIZE
from keima.server.errors import ErrorDetail
from keima.server.housekeeping import Allocator
from keima.server.text import CHAT_MAX

#: The longest main time (or Fischer cap) and the longest time a move may get: correspondence games run for
#: weeks, but a clock beyond these is a game nobody is playing (docs/correspondence.md).
MAX_MAIN_S = 90 * 86400
MAX_MOVE_S = 30 * 86400
Seconds = Annotated[float, Field(gt=0, le=MAX_MAIN_S)]
MainOrZero = Annotated[float, Field(ge=0, le=MAX_MAIN_S)]
MoveSeconds = Annotated[float, Field(gt=0, le=MAX_MOVE_S)]
Color = Literal["B", "W"]
# A move: a board point (int) or a GTP vertex ("D4", "pass").
MoveIn = StrictInt | Annotated[str, Field(min_length=1, max_length=8)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClockNone(_Strict):
    type: Literal["none"]


class _Timed(_Strict):
    #: Each player's clock stops on their weekend; None (not given): on for a correspondence clock, off otherwise.
    weekend_pause: bool | None = None
    #: False: the players' vacations do not pause this game (a tournament's "no vacation").
    vacation: bool = True


class ClockAbsolute(_Timed):
    type: Literal["absolute"]
    main: Seconds


class ClockByoyomi(_Timed):
    type: Literal["byoyomi"]
    main: MainOrZero
    period: MoveSeconds
    periods: Annotated[int, Field(ge=1, le=100)]


class ClockCanadian(_Timed):
    type: Literal["canadian"]
    main: MainOrZero
    period: MoveSeconds
    stones: Annotated[int, Field(ge=1, le=1000)]


class ClockFischer(_Timed):
    type: Literal["fischer"]
    main: Seconds
    increment: Annotated[float, Field(ge=0, le=MAX_MOVE_S)]
    max: Seconds | None = None


class ClockSimple(_Timed):
    type: Literal["simple"]
    per_move: MoveSeconds


ClockIn = Annotated[
    ClockNone | ClockAbsolute | ClockByoyomi | ClockCanadian | ClockFischer | ClockSimple,
    Field(discriminator="type"),
]


class NewGame(_Strict):
    """``POST /api/games``."""

    size: Annotated[int, Field(ge=MIN_SIZE, le=MAX_SIZE)] = 19
    rules: Annotated[str, Field(min_length=1, max_length=40)] = "french"
    komi: Annotated[float, Field(ge=-1000, le=1000)] | None = None
    handicap: Annotated[int, Field(ge=0, le=9)] = 0
    placement: Literal["fixed", "free"] | None = None
    clock: ClockIn = Field(default_factory=lambda: ClockNone(type="none"))
    opponent: Literal["invite", "open", "bot", "local"] = "invite"
    color: Literal["B", "W", "random"] = "B"
    bot_level: Annotated[str, Field(max_length=40)] | None = None
    engine: Annotated[str, Field(max_length=80)] | None = None
    #: A rated game (keima.server.ratings_subscriber): between registered players only.
    rated: bool = False


class JoinGame(_Strict):
    """``POST /api/games/{id}/join``: the invitation code, or none to accept an open challenge."""

    code: Annotated[str, Field(min_length=1, max_length=100)] | None = None


class _ActionBase(_Strict):
    """Every action may name the colour it acts for (docs/web-api.md, *Actions*)."""

    color: Color | None = None


class PlayAction(_ActionBase):
    type: Literal["play"]
    move: MoveIn


class PlaceHandicapAction(_ActionBase):
    type: Literal["place_handicap"]
    points: Annotated[list[MoveIn], Field(min_length=1, max_length=9)]


class PassAction(_ActionBase):
    type: Literal["pass"]


class ResignAction(_ActionBase):
    type: Literal["resign"]


class UndoRequestAction(_ActionBase):
    type: Literal["undo_request"]


class UndoAnswerAction(_ActionBase):
    type: Literal["undo_answer"]
    accept: StrictBool


class ToggleDeadAction(_ActionBase):
    type: Literal["toggle_dead"]
    point: MoveIn


class AcceptAction(_ActionBase):
    type: Literal["accept"]


class ResumeAction(_ActionBase):
    type: Literal["resume"]


class ChatAction(_Strict):
    """A chat message (keima.server.chat): plain text, at most ``CHAT_MAX`` characters; ``to`` the players'
    chat (seated players only) or the spectators' chat (everyone else)."""

    type: Literal["chat"]
    # The limit counts the cleaned text (keima.server.text.clean_text): blanks and invisible characters around
    # it may take the raw text past CHAT_MAX.
    text: Annotated[str, Field(min_length=1, max_length=4 * CHAT_MAX)]
    to: Literal["players", "spectators"] = "players"


Action = Annotated[
    PlayAction
    | PlaceHandicapAction
    | PassAction
    | ResignAction
    | UndoRequestAction
    | UndoAnswerAction
    | ToggleDeadAction
    | AcceptAction
    | ResumeAction
    | ChatAction,
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


class ActionBody(RootModel[Action]):
    """``POST /api/games/{id}/actions``: one action (a root model keeps the discriminator in FastAPI)."""


class WsAction(_Strict):
    """A client's WebSocket frame carrying an action."""

    type: Literal["action"]
    id: Annotated[str, Field(max_length=64)] | None = None
    action: Action


class WsPing(_Strict):
    type: Literal["ping"]


class WsResync(_Strict):
    """Ask for the whole state: the client saw a gap in the versions after ``from``."""

    type: Literal["resync"]
    from_: int | None = Field(default=None, alias="from")
    id: Annotated[str, Field(max_length=64)] | None = None

    model_config = ConfigDict(extra="forbid", validate_by_name=True, validate_by_alias=True)


WS_ADAPTER: TypeAdapter[Any] = TypeAdapter(Annotated[WsAction | WsPing | WsResync, Field(discriminator="type")])


# -- Responses: the bodies the server sends; keima.server.view builds them from these models ---------------------
class MoveOut(_Strict):
    n: int
    color: Color
    point: int | None
    vertex: str
    captures: int


class PlayerOut(_Strict):
    """A seat: ``name`` and ``rank`` of the player holding it (a bot's name names its level; None for a seat
    held by no player account, e.g. an API client's token)."""

    kind: Literal["human", "bot"]
    level: str | None
    seated: bool
    name: str | None = None
    rank: str | None = None


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


class GameState(_Strict):
    """A game as every client renders it (docs/web-api.md, *GameState*).

    ``clock``, ``moves`` and ``you`` come last: the server serializes the rest once per change and appends those
    three (the clock is read at each sending, the move list grows by one move at a time, ``you`` differs per
    viewer), see ``keima.server.view``."""

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
    """The correspondence time controls offered by name (``keima.server.clock.CORRESPONDENCE_PRESETS``)."""


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
