"""The routes of demo boards (docs/web-api.md, *Demo boards*): opening one, the list of live public boards,
reading one, its ops, answers and chat, its SGF, deleting it, and its WebSocket (``keima.server.boards.socket``).

Every write names its caller by the session cookie: 401 without a player, 403 ``not-in-control`` for an op from
someone not in control (checked on each op, whatever was true when the page opened).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import Response

from keima.server.accounts import check_chat_flood, clean_text, required_player
from keima.server.boards import socket as board_socket
from keima.server.boards.live import Stale
from keima.server.boards.model import BoardTree
from keima.server.boards.schemas import AnswerIn, BoardIn, BoardsOut, ChatIn, OpIn, OpOut, ProposalIn
from keima.server.boards.service import Boards, dumps, tree_from_sgf
from keima.server.edge import json_response, same_origin
from keima.server.errors import Refused
from keima.server.games import Hub, game_sgf

router = APIRouter()

#: The request body of ``POST /api/boards``: an SGF record of ``MAX_SGF`` bytes inside JSON, where escapes may
#: double it.
BOARDS_MAX_BODY = 2 * 256 * 1024 + 1024


def boards_of(conn: Request | WebSocket) -> Boards:
    """The process's boards."""
    b: Boards = conn.app.state.boards
    return b


async def _from_game(request: Request, game_id: str) -> tuple[BoardTree, dict[str, str], list[dict[str, str]]]:
    """The tree of a finished game's record, its details and its players (invited into control)."""
    hub: Hub = request.app.state.hub
    s = await hub.cache.get(game_id)
    async with s.lock:
        if s.game.phase != "finished":
            raise Refused("game-in-progress", "a game is reviewed together once it is over", field="game")
        text = game_sgf(s)
        people = [dict(p) for p in s.people.values() if p.get("id")]
    tree, info = await asyncio.to_thread(tree_from_sgf, text)
    return tree, info, [{"id": str(p["id"]), "name": str(p.get("name") or "?")} for p in people]


@router.post("/api/boards", status_code=201)
async def create(body: BoardIn, request: Request) -> Any:
    """Open a board (see ``BoardIn``); 201 with the board as ``GET /api/boards/{id}`` shows it. 401 without a
    player, 409 ``too-many-boards``, 413 for a record too large, 422 for one that cannot be read."""
    same_origin(request)  # a page of another site never writes on a board
    player = await required_player(request)
    if body.sgf is not None and body.game is not None:
        raise Refused("invalid-request", "sgf: give a record or a game, not both", field="sgf")
    if (body.visibility == "club") != (body.club is not None):
        raise Refused("invalid-request", "club: a club's board names its club, and only a club's board does",
                      field="club")
    invited: list[dict[str, str]] = []
    info: dict[str, str] = {}
    if body.game is not None:
        tree, info, invited = await _from_game(request, body.game)
    elif body.sgf is not None:
        tree, info = await asyncio.to_thread(tree_from_sgf, body.sgf)
    else:
        tree = BoardTree(body.size, body.rules, body.komi)
    title = " ".join(body.title.split()) or _title(info) or f"{player.name}'s board"
    board = await boards_of(request).create({"id": player.id, "name": player.name}, title[:80], body.visibility,
                                            tree, info, invited, at_end=body.game is not None, club=body.club)
    return json_response(dumps(board.state(player.id)), 201)


def _title(info: dict[str, str]) -> str:
    if info.get("PB") and info.get("PW"):
        return f"{info['PB']} - {info['PW']}"
    return info.get("GN", "")


@router.get("/api/boards", response_model=BoardsOut)
async def listed(request: Request, club: str | None = None) -> dict[str, Any]:
    """The live public boards (someone watching), most watched first; ``club``: the live boards of that club, for
    its members (403 ``not-member`` otherwise)."""
    if club is not None:
        player = await request.app.state.players.current(request.cookies)
        await boards_of(request).check_member(club[:60], None if player is None else player.id)
    return {"boards": boards_of(request).listed(club)}


@router.get("/api/boards/{board_id}")
async def read(board_id: str, request: Request) -> Any:
    """The board: ``id``, ``title``, ``owner``, ``controllers``, ``version``, ``tree``, ``cursor`` and the rest
    (docs/web-api.md); 404 for an unknown one."""
    player = await request.app.state.players.current(request.cookies)
    board = await boards_of(request).seen_by(board_id, None if player is None else player.id)
    return json_response(dumps(board.state(None if player is None else player.id)))


@router.post("/api/boards/{board_id}/ops", responses={200: {"model": OpOut}})
async def op(board_id: str, body: OpIn, request: Request) -> Any:
    """Apply one op: ``{"version", "op"}`` from those in control; the new version and the op as sent. 409
    ``stale-version`` with the current ``version`` beside the error."""
    same_origin(request)  # a page of another site never writes on a board
    player = await required_player(request)
    boards = boards_of(request)
    board = await boards.seen_by(board_id, player.id)
    try:
        version, out = await boards.op(board, player.id, body.version, body.op)
    except Stale as exc:
        return json_response(dumps({"error": exc.detail().model_dump(), "version": exc.current}), 409)
    return json_response(dumps({"version": version, "op": out}))


@router.post("/api/boards/{board_id}/answer")
async def answer(board_id: str, body: AnswerIn, request: Request) -> dict[str, Any]:
    """The caller's answer to the open question (hidden from the other watchers); 409 when none is open."""
    same_origin(request)  # a page of another site never writes on a board
    player = await required_player(request)
    boards = boards_of(request)
    board = await boards.seen_by(board_id, player.id)
    board.names.setdefault(player.id, player.name)
    return {"point": boards.answer(board, player.id, body.point)}


@router.post("/api/boards/{board_id}/proposals")
async def propose(board_id: str, body: ProposalIn, request: Request) -> dict[str, Any]:
    """A watcher proposes a line below ``parent`` (checked by the referee): those in control see it and may add
    it (op ``variation``). 409 for an illegal move, 422 naming ``moves.N``."""
    same_origin(request)
    player = await required_player(request)
    boards = boards_of(request)
    board = await boards.seen_by(board_id, player.id)
    board.names.setdefault(player.id, player.name)
    return {"proposal": boards.propose(board, player.id, body.parent, body.moves)["id"]}


@router.post("/api/boards/{board_id}/chat")
async def chat(board_id: str, body: ChatIn, request: Request) -> dict[str, Any]:
    """A message to everyone on the board (the chat's limits of games apply); the version of its delta."""
    same_origin(request)  # a page of another site never writes on a board
    player = await required_player(request)
    boards = boards_of(request)
    board = await boards.seen_by(board_id, player.id)
    await check_chat_flood(request, f"board:{board_id}")
    board.names.setdefault(player.id, player.name)
    return {"version": boards.chat(board, player.id, clean_text(body.text))}


@router.get("/api/boards/{board_id}/sgf")
async def sgf(board_id: str, request: Request) -> Response:
    """The board as an SGF record: the whole tree, marks and comments."""
    player = await request.app.state.players.current(request.cookies)
    board = await boards_of(request).seen_by(board_id, None if player is None else player.id)
    text = await asyncio.to_thread(board.sgf)
    return Response(text, media_type="application/x-go-sgf",
                    headers={"Content-Disposition": f'attachment; filename="board-{board.id}.sgf"'})


@router.delete("/api/boards/{board_id}", status_code=204)
async def delete(board_id: str, request: Request) -> Response:
    """Delete a board (its owner only)."""
    same_origin(request)  # a page of another site never writes on a board
    player = await required_player(request)
    boards = boards_of(request)
    await boards.delete(await boards.seen_by(board_id, player.id), player.id)
    return Response(status_code=204)


@router.websocket("/api/boards/{board_id}/ws")
async def ws(websocket: WebSocket, board_id: str) -> None:
    """The board's socket (``keima.server.boards.socket``)."""
    await board_socket.serve(boards_of(websocket), websocket, board_id)
