"""The typed bodies of the record review (docs/web-api.md, *Review*): a record to review with a variation to add, its
move tree as nodes, and a position with the estimate at it or the referee's verdict on one move."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from keima.record import DEFAULT_MAX_BYTES
from keima.server.games import Color

#: A review answers at most this many nodes (each carries its board): the record's size limit alone would
#: allow a tree of a hundred thousand nodes, whose boards would weigh tens of megabytes.
MAX_NODES = 4000
#: Playouts of one estimate: at most this many, whatever is asked (the estimator's own default is 160 to 600).
MAX_PLAYOUTS = 600
MAX_MOVES = 2000
Vertex = Annotated[str, Field(min_length=2, max_length=4)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AddIn(_Strict):
    """A move tried in review: ``color`` plays ``vertex`` (GTP, or ``"pass"``) after node ``at``."""

    at: Annotated[int, Field(ge=0, le=MAX_NODES)]
    color: Literal["B", "W"]
    vertex: Annotated[str, Field(min_length=2, max_length=4)]


class ReviewIn(_Strict):
    """``POST /api/review``: the SGF text, and a move to add to its tree as a new variation (``add``)."""

    sgf: Annotated[str, Field(min_length=2, max_length=DEFAULT_MAX_BYTES)]
    add: AddIn | None = None


class StartOut(_Strict):
    """The position before the first move: stones (GTP vertices) and the player to move."""

    black: list[str]
    white: list[str]
    to_move: Color


class NodeOut(_Strict):
    """One node of the tree. ``move``: GTP vertex, ``"pass"``, or None for a node without a move; ``number``:
    moves from the start to this node; ``board``: the position after it, one digit per point row by row from
    the top-left corner (0 empty, 1 black, 2 white); ``children``: node ids, the first continuing its line."""

    id: int
    parent: int | None
    children: list[int]
    color: Color | None
    move: str | None
    number: int
    comment: str | None
    board: str
    prisoners: dict[str, int]


class ReviewOut(_Strict):
    """The record as a tree: ``nodes[0]`` is the root; ``main_line`` the ids of the main line; ``end`` the
    last main-line position in the shape ``POST /api/positions/count`` takes (None when the record has no
    move); ``sgf`` the record as given, for download (with the move added, when one was: ``added`` is then
    its node's id)."""

    size: int
    rules: str
    komi: float
    handicap: int
    info: dict[str, str]
    result: str | None
    warnings: list[str]
    start: StartOut
    nodes: list[NodeOut]
    main_line: list[int]
    end: dict[str, Any] | None
    sgf: str
    added: int | None = None


class MoveIn(_Strict):
    color: Color
    vertex: Vertex


class PositionSetup(_Strict):
    size: Annotated[int, Field(ge=2, le=25)]
    rules: Annotated[str, Field(min_length=1, max_length=40)] = "french"
    komi: Annotated[float, Field(ge=-1000, le=1000, multiple_of=0.5)] | None = None
    black: Annotated[list[Vertex], Field(max_length=625)] = []
    white: Annotated[list[Vertex], Field(max_length=625)] = []
    to_move: Color = "B"
    moves: Annotated[list[MoveIn], Field(max_length=MAX_MOVES)] = []


class EstimateIn(PositionSetup):
    """``POST /api/review/estimate``: a start position and the moves that reach the node."""

    playouts: Annotated[int, Field(ge=16, le=MAX_PLAYOUTS)] | None = None


class EstimateOut(_Strict):
    """Each point's expected owner, row by row from the top-left corner: +1 Black .. -1 White."""

    size: int
    ownership: list[float]


class PlayIn(PositionSetup):
    """``POST /api/positions/play``: the position, then the move tried."""

    attempt: MoveIn


class PlayOut(_Strict):
    """The referee's verdict on ``attempt``. Legal: ``board`` after it, ``captured`` (GTP vertices). Refused:
    ``reason`` (occupied, suicide, ko, superko, ...) and ``message``, the referee's sentence; ``board`` is the
    position before the move."""

    legal: bool
    reason: str | None
    message: str | None
    board: list[int]
    captured: list[str]
    prisoners: dict[str, int]
    to_move: Color
