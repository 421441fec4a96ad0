"""The wire of demo boards (docs/web-api.md, *Demo boards*): the bodies the routes read. The ops themselves are
checked field by field by the board (``keima.server.boards.live``), so that a bad op's 422 names its field as
``op.<field>``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from keima.rules.coords import MAX_SIZE, MIN_SIZE


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BoardIn(_Strict):
    """``POST /api/boards``: a new board, empty (``size``, ``rules``, ``komi``), from an SGF record (``sgf``:
    its size, rules and komi win) or from a finished game of this server (``game``: its id)."""

    title: str = Field("", max_length=80)
    size: int = Field(19, ge=MIN_SIZE, le=MAX_SIZE)
    rules: str = Field("french", max_length=40)
    komi: float | None = Field(None, ge=-200, le=200)
    sgf: str | None = None
    game: str | None = Field(None, max_length=40)
    visibility: Literal["public", "link", "club"] = "public"
    #: With ``visibility`` ``club``: the club (its slug) whose members alone see the board; the owner must be one.
    club: str | None = Field(None, max_length=60)


class OpIn(_Strict):
    """``POST /api/boards/{id}/ops``: one op written against the board's ``version``."""

    version: int
    op: dict[str, Any]


class OpOut(_Strict):
    """The board's version after the op, and the op as every watcher receives it."""

    version: int
    op: dict[str, Any]


class AnswerIn(_Strict):
    """``POST /api/boards/{id}/answer``: a watcher's answer to the open question (a vertex)."""

    point: str = Field(max_length=8)


class ProposalIn(_Strict):
    """``POST /api/boards/{id}/proposals``: a line a watcher proposes below node ``parent``
    (``[{"color", "vertex"}]``, checked by the board)."""

    parent: int
    moves: list[dict[str, Any]] = Field(max_length=50)


class ChatIn(_Strict):
    """``POST /api/boards/{id}/chat``: a message to everyone on the board."""

    text: str = Field(max_length=2000)


class BoardsOut(_Strict):
    """``GET /api/boards``: the live public boards, or with ``?club=<slug>`` the live boards of that club."""

    boards: list[dict[str, Any]]
