"""Request bodies of the API (pydantic models: validation and the OpenAPI description in one place).

Limits keep every request small: sizes 2..25, handicap 0..9, clock times up to 90 days (main time, a Fischer
cap) and 30 days (a move's time: increment, period, per move), strings short; unknown fields
are refused so that a typo is reported instead of silently ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, StrictBool, StrictInt, TypeAdapter

from keima.rules.coords import MAX_SIZE, MIN_SIZE
from keima.server.accounts import CHAT_MAX

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
    #: A rated game (keima.server.ratings.subscriber): between registered players only.
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
    """A chat message (keima.server.games.chat): plain text, at most ``CHAT_MAX`` characters; ``to`` the players'
    chat (seated players only) or the spectators' chat (everyone else)."""

    type: Literal["chat"]
    # The limit counts the cleaned text (keima.server.accounts.text.clean_text): blanks and invisible characters around
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
