"""The board WebSocket (``/api/boards/{id}/ws``), on the model of the game socket (docs/web-api.md, *Demo boards*).

The first message is the whole board (``{"type": "state", "protocol": 1, "board": ...}``); every change then
comes as ``{"type": "delta", "from", "to", "op"}``. A socket that falls behind (more than ``MAX_QUEUED``
messages waiting) or misses a version gets the whole board again instead, and so does a client that asks
(``{"type": "resync"}``). The client writes with ``{"type": "op", "id", "version", "op"}`` (answered by an
``ack`` after the op's own delta, or an ``error``), answers a question with ``{"type": "answer", "point"}`` and
chats with ``{"type": "chat", "text"}``. Those in control also get ``{"type": "answers", "counts", "names"}``
as answers come. Every message is checked against the caller at the time it comes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from keima.server.accounts import check_chat_flood, clean_text, players_of
from keima.server.boards.live import LiveBoard, Stale
from keima.server.boards.service import Boards, dumps
from keima.server.edge import cross_origin, read_frame
from keima.server.errors import Refused

PROTOCOL = 1
MAX_QUEUED = 200  # messages waiting for one socket before it is sent the whole board instead
PONG = dumps({"type": "pong"})


class BoardSocket:
    """One watcher's socket: the messages waiting for it, in order, and the version last queued."""

    def __init__(self, websocket: WebSocket, player_id: str | None) -> None:
        self.ws = websocket
        self.player_id = player_id
        self.last = -1
        self.queue: deque[str] = deque()
        self.resync = False
        self.ready = asyncio.Event()

    def offer(self, version: int, text: str) -> None:
        """Queue the delta of ``version``; a gap or a full queue turns into the whole board."""
        if version <= self.last:
            return
        if version != self.last + 1 or len(self.queue) >= MAX_QUEUED:
            self.resync = True
            self.queue.clear()
        else:
            self.queue.append(text)
        self.last = version
        self.ready.set()

    def notice(self, text: str) -> None:
        """Queue a message outside the versions (an ack, an error, the answers)."""
        self.queue.append(text)
        self.ready.set()

    def state_text(self, board: LiveBoard) -> str:
        """The whole board for this socket's player; what was queued before is older and dropped."""
        self.queue.clear()
        self.last = board.version
        return dumps({"type": "state", "protocol": PROTOCOL, "board": board.state(self.player_id)})

    async def pump(self, boards: Boards, board_id: str) -> None:
        """Send what is queued, in order, until the socket closes."""
        try:
            while True:
                await self.ready.wait()
                self.ready.clear()
                if self.resync:
                    self.resync = False
                    board = boards.live.get(board_id)
                    if board is not None:
                        await self.ws.send_text(self.state_text(board))
                while self.queue:
                    await self.ws.send_text(self.queue.popleft())
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass


async def serve(boards: Boards, websocket: WebSocket, board_id: str) -> None:
    """Serve one board socket until it closes (see the module docstring)."""
    # A page of another site may watch, never write: its socket has no player whatever cookie came with it.
    player = None if cross_origin(websocket.headers) else await players_of(websocket).current(websocket.cookies)
    await websocket.accept()  # then the close code reaches the page (a refused handshake reads as a network fault)
    try:
        board = await boards.seen_by(board_id, None if player is None else player.id)
    except Refused as exc:
        await websocket.close(code=4403 if exc.code == "not-member" else 4404)
        return
    sock = BoardSocket(websocket, None if player is None else player.id)
    first = sock.state_text(board)
    boards.watch(board, sock, None if player is None else player.name)
    sender: asyncio.Task[None] | None = None
    try:
        await websocket.send_text(first)
        sender = asyncio.get_running_loop().create_task(sock.pump(boards, board_id))
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            await _receive(boards, board, sock, frame.get("text"))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        boards.unwatch(board_id, sock)
        if sender is not None:
            sender.cancel()


def _error(msg_id: Any, exc: Refused, version: int | None = None) -> str:
    out: dict[str, Any] = {"type": "error", "id": msg_id, "error": {**exc.detail().model_dump(), "status": exc.status}}
    if version is not None:
        out["version"] = version
    return dumps(out)


async def _receive(boards: Boards, board: LiveBoard, sock: BoardSocket, raw: str | None) -> None:
    msg_id: Any = None
    try:
        data, msg_id = read_frame(raw)
        if not isinstance(data, dict):
            raise Refused("invalid-request", "type: a message is an object with a type", field="type")
        kind = data.get("type")
        if kind == "ping":
            sock.notice(PONG)
            return
        if kind == "resync":
            sock.resync = True
            sock.ready.set()
            return
        if kind not in ("op", "answer", "chat", "propose"):
            raise Refused("invalid-request", "type: one of op, answer, chat, propose, resync, ping", field="type")
        # The player as of this message: one logged out since the socket opened writes as nobody.
        player = None if sock.player_id is None else await players_of(sock.ws).current(sock.ws.cookies)
        if player is None:
            raise Refused("not-logged-in", "log in (or play as a guest) to write on a board")
        if boards.live.get(board.id) is not board:
            raise Refused("not-found", "the board was deleted")
        ack: dict[str, Any] = {"type": "ack", "id": msg_id}
        if kind == "op":
            try:
                ack["version"], _ = await boards.op(board, player.id, data.get("version"), data.get("op"))
            except Stale as exc:
                sock.notice(_error(msg_id, exc, exc.current))
                return
        elif kind == "answer":
            ack["point"] = boards.answer(board, player.id, data.get("point"))
        elif kind == "propose":
            board.names.setdefault(player.id, player.name)
            ack["proposal"] = boards.propose(board, player.id, data.get("parent"), data.get("moves"))["id"]
        else:
            await check_chat_flood(sock.ws, f"board:{board.id}")
            text = data.get("text")
            if not isinstance(text, str):
                raise Refused("invalid-request", "text: the message's text", field="text")
            ack["version"] = boards.chat(board, player.id, clean_text(text))
        sock.notice(dumps(ack))
    except Refused as exc:
        sock.notice(_error(msg_id, exc))
