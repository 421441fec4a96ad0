"""The demo boards of this process (docs/teaching.md): creating them (empty, from SGF, from a finished game), the
one write path of their ops, the answers to questions, the chat, the fan-out of every change to the sockets
watching, and storing each board a moment after it changes.

A board lives in the process that loaded it (one server process; cluster mode does not spread boards). Every op
is one version: ``publish`` hands its delta to each socket without waiting (``BoardSocket.offer``), so that one
slow watcher never holds the others back. Storing is coalesced: a board is written at most once every
``SAVE_DELAY`` seconds while it changes, and once more when the process stops.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from keima.record import SgfError, read_tree
from keima.rules.coords import to_gtp
from keima.server import timesource
from keima.server.boards import store
from keima.server.boards.live import LiveBoard
from keima.server.boards.model import MAX_NODES, BoardTree, Node
from keima.server.clubs import MEMBER_ROLES, role_at
from keima.server.errors import Refused, quote

#: The most boards one player keeps (delete one to open another).
BOARDS_PER_PLAYER = 20
#: The most ops one player writes on one board per second (a presenter clicking fast stays far below).
OPS_PER_SECOND = 20
#: The largest SGF record a board is opened from, in bytes.
MAX_SGF = 256 * 1024
SAVE_DELAY = 2.0  # seconds between two writes of a changing board
#: Seconds a board nobody watches stays in memory after its last watcher left (then it is read again when asked).
IDLE_KEEP = 600.0


class Watcher(Protocol):
    """A socket watching a board (``keima.server.boards.socket.BoardSocket``)."""

    player_id: str | None

    def offer(self, version: int, text: str) -> None:
        """Queue a delta of ``version`` (never blocks)."""
        ...

    def notice(self, text: str) -> None:
        """Queue a message outside the versions (the answers for those in control)."""
        ...


def dumps(obj: Any) -> str:
    """Compact JSON, as every delta goes on the wire (an op costs its bytes times the watchers)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Boards:
    """The boards held by this process, by id."""

    def __init__(self, engine: Engine, store_write: Callable[[Any], Any]) -> None:
        self.engine = engine
        self._write = store_write
        self.live: dict[str, LiveBoard] = {}
        self.watchers: dict[str, set[Watcher]] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._dirty: set[str] = set()
        self._savers: dict[str, asyncio.Task[None]] = {}  # board id -> its write, SAVE_DELAY after a change
        self._idle: dict[str, asyncio.Task[None]] = {}  # board id -> its leaving memory, IDLE_KEEP after
        self._ops: dict[tuple[str, str], deque[float]] = {}

    # -- reading -----------------------------------------------------------------------------------------------
    async def get(self, board_id: str) -> LiveBoard:
        """Board ``board_id``, loaded from the database the first time; 404 ``not-found`` when there is none."""
        board = self.live.get(board_id)
        if board is not None:
            return board
        lock = self._loading.setdefault(board_id, asyncio.Lock())
        async with lock:
            board = self.live.get(board_id)
            if board is None:
                row = await asyncio.to_thread(store.load, self.engine, board_id) \
                    if len(board_id) <= 16 else None
                if row is None:
                    raise Refused("not-found", f"no demo board {quote(board_id)}")
                board = self.live[board_id] = await asyncio.to_thread(LiveBoard.restore, row)
        self._loading.pop(board_id, None)
        return board

    async def seen_by(self, board_id: str, pid: str | None) -> LiveBoard:
        """The board ``board_id`` as player ``pid`` (None: nobody logged in) may see it: a club's board only by
        that club's members (403 ``not-member`` naming ``club`` otherwise); 404 ``not-found`` as ``get``."""
        board = await self.get(board_id)
        if board.club is not None:
            await self.check_member(board.club, pid)
        return board

    async def check_member(self, club: str, pid: str | None) -> None:
        """Refuse (403 ``not-member``, naming ``club``) a player who is not a member of ``club``."""
        role = None if pid is None else await asyncio.to_thread(role_at, self.engine, club, pid)
        if role is None or role[1] not in MEMBER_ROLES:
            raise Refused("not-member", f"this board is for the members of the club {quote(club)}", field="club")

    def listed(self, club: str | None = None) -> list[dict[str, Any]]:
        """The live boards (someone watching), most watched first: the public ones, or those of ``club``."""
        out: list[dict[str, Any]] = []
        for bid, board in self.live.items():
            n = len(self.watchers.get(bid, ()))
            shown = board.visibility == "public" if club is None else board.club == club
            if shown and n:
                out.append({"id": bid, "title": board.title, "owner": board.person(board.owner),
                            "size": board.tree.size, "watchers": n, "nodes": len(board.tree.nodes)})
        out.sort(key=lambda b: (-b["watchers"], b["title"]))
        return out

    # -- creating ----------------------------------------------------------------------------------------------
    async def create(self, owner: dict[str, str], title: str, visibility: str, tree: BoardTree,
                     info: dict[str, str] | None = None, invited: list[dict[str, str]] | None = None,
                     relay: dict[str, Any] | None = None, at_end: bool = False,
                     club: str | None = None) -> LiveBoard:
        """Store and hold a new board of ``owner`` (``{"id", "name"}``); ``invited``: players put in control
        with the owner (the players of a game reviewed together); ``relay``: the tournament table it relays;
        ``at_end``: the presenter's node is the main line's last (a game reviewed opens on its last move, as its
        players last saw it); ``club``: the club whose members alone see it (the owner must be one: 403
        ``not-member``). 409 ``too-many-boards`` past ``BOARDS_PER_PLAYER``."""
        if club is not None:
            await self.check_member(club, owner["id"])
        kept = await asyncio.to_thread(store.owned, self.engine, owner["id"])
        if kept >= BOARDS_PER_PLAYER:
            raise Refused("too-many-boards", f"you keep {kept} boards, the most: delete one to open another",
                          reason="too-many-boards")
        board = LiveBoard(id=secrets.token_urlsafe(8)[:10], title=title, owner=owner["id"], visibility=visibility,
                          tree=tree, names={owner["id"]: owner["name"]}, info=dict(info or {}), relay=relay,
                          club=club)
        while at_end and tree.nodes[board.cursor].children:
            board.cursor = tree.nodes[board.cursor].children[0]
        for p in invited or []:
            if p["id"] != owner["id"]:
                board.names[p["id"]] = p["name"]
                board.controllers.append(p["id"])
        now = timesource.now_utc()
        await self._write(store.insert({"id": board.id, "owner": board.owner, "title": title,
                                        "visibility": visibility, "version": 0, "created_at": now,
                                        "updated_at": now, "data": board.data()}))
        self.live[board.id] = board
        return board

    async def delete(self, board: LiveBoard, pid: str) -> None:
        """Remove ``board`` (its owner only: 403 ``not-in-control`` else); its watchers are told it is gone."""
        if pid != board.owner:
            raise Refused("not-in-control", "only the board's owner deletes it")
        await self._write(store.delete(board.id))
        self.live.pop(board.id, None)
        self._dirty.discard(board.id)
        for w in list(self.watchers.get(board.id, ())):
            w.notice(dumps({"type": "gone"}))

    async def note_result(self, board_id: str, result: str) -> None:
        """Write the game's result on a board (its SGF's RE): a relayed table's result, once entered."""
        board = await self.get(board_id)
        board.info["RE"] = result
        self._dirty.add(board_id)
        await self._save(board_id)

    # -- changing ----------------------------------------------------------------------------------------------
    def _rate(self, board_id: str, pid: str) -> None:
        now = time.monotonic()
        q = self._ops.setdefault((board_id, pid), deque())
        while q and q[0] <= now - 1.0:
            q.popleft()
        if len(q) >= OPS_PER_SECOND:
            raise Refused("too-many-requests", f"at most {OPS_PER_SECOND} ops a second on one board: wait a moment")
        q.append(now)
        if len(self._ops) > 10_000:
            self._ops = {k: v for k, v in self._ops.items() if v and v[-1] > now - 1.0}

    async def op(self, board: LiveBoard, pid: str, version: Any, op: Any) -> tuple[int, dict[str, Any]]:
        """Apply one op (``LiveBoard.apply``), publish its delta; returns the new version and the op as sent."""
        self._rate(board.id, pid)
        out = board.apply(pid, version, op)
        self._changed(board, out)
        if out["type"] in ("question", "answers"):
            self._tell_answers(board)
        return board.version, out

    def _changed(self, board: LiveBoard, out: dict[str, Any]) -> None:
        board.version += 1
        self.live.setdefault(board.id, board)  # a change that raced the board's leaving memory keeps it there
        text = dumps({"type": "delta", "from": board.version - 1, "to": board.version, "op": out})
        for w in list(self.watchers.get(board.id, ())):
            w.offer(board.version, text)
        self._dirty.add(board.id)
        if board.id not in self._savers:
            self._savers[board.id] = asyncio.get_running_loop().create_task(self._save_later(board.id))

    def answer(self, board: LiveBoard, pid: str, point: Any) -> str:
        """A watcher's answer to the open question; those in control see the answers at once."""
        self._rate(board.id, pid)
        where = board.answer(pid, point)
        self._tell_answers(board)
        return where

    def propose(self, board: LiveBoard, pid: str, parent: Any, moves: Any) -> dict[str, Any]:
        """A watcher's proposed line: kept, and sent to those in control as ``{"type": "proposal", ...}``."""
        self._rate(board.id, pid)
        entry = board.propose(pid, parent, moves)
        text = dumps({"type": "proposal", **entry})
        for w in list(self.watchers.get(board.id, ())):
            if board.in_control(w.player_id):
                w.notice(text)
        return entry

    def _tell_answers(self, board: LiveBoard) -> None:
        counts, names = board.counts()
        text = dumps({"type": "answers", "question": board.question, "counts": counts, "names": names})
        for w in list(self.watchers.get(board.id, ())):
            if board.in_control(w.player_id):
                w.notice(text)

    def chat(self, board: LiveBoard, pid: str, text: str) -> int:
        """Post a chat message (anyone watching with a player); returns the version of its delta."""
        self._rate(board.id, pid)
        self._changed(board, board.post_chat(pid, text))
        return board.version

    # -- watching ----------------------------------------------------------------------------------------------
    def watch(self, board: LiveBoard, watcher: Watcher, name: str | None) -> None:
        """Add a socket; its player becomes one the owner can give control to."""
        self.watchers.setdefault(board.id, set()).add(watcher)
        if watcher.player_id is not None and name is not None:
            board.names[watcher.player_id] = name
        self._tell_people(board.id)

    def unwatch(self, board_id: str, watcher: Watcher) -> None:
        """Remove a socket."""
        ws = self.watchers.get(board_id)
        if ws is not None:
            ws.discard(watcher)
            if not ws:
                del self.watchers[board_id]
                if board_id not in self._idle:
                    self._idle[board_id] = asyncio.get_running_loop().create_task(self._forget_later(board_id))
        self._tell_people(board_id)

    async def _forget_later(self, board_id: str) -> None:
        """Drop a board nobody watches from memory ``IDLE_KEEP`` seconds on (written first), so that a process
        holds only the boards in use."""
        try:
            await asyncio.sleep(IDLE_KEEP)
        finally:
            self._idle.pop(board_id, None)
        if self.watchers.get(board_id):
            return
        await self._save(board_id)
        if not self.watchers.get(board_id) and board_id not in self._dirty:
            self.live.pop(board_id, None)

    def _tell_people(self, board_id: str) -> None:
        """Tell the owner's sockets who watches (the players, each once): whom control can be given to."""
        board = self.live.get(board_id)
        ws = self.watchers.get(board_id, set())
        if board is None:
            return
        ids = sorted({w.player_id for w in ws if w.player_id is not None})
        text = dumps({"type": "people", "people": [board.person(i) for i in ids]})
        for w in ws:
            if w.player_id == board.owner:
                w.notice(text)

    # -- storing -----------------------------------------------------------------------------------------------
    # Each board has its own timer, so that the writes of many live boards spread over time: one write of every
    # board at once held the event loop long enough to show in the watchers' latency (bench/boards_fanout.py).
    async def _save_later(self, board_id: str) -> None:
        try:
            await asyncio.sleep(SAVE_DELAY)
        finally:
            self._savers.pop(board_id, None)
        await self._save(board_id)

    async def _save(self, board_id: str) -> None:
        board = self.live.get(board_id)
        if board is not None and board_id in self._dirty:
            self._dirty.discard(board_id)
            await self._write(store.save(board_id, board.version, board.data(), timesource.now_utc()))

    async def flush(self) -> None:
        """Write every board changed since its last write."""
        for bid in list(self._dirty):
            await self._save(bid)

    async def close(self) -> None:
        """Write what is left (the process stops)."""
        for task in [*self._savers.values(), *self._idle.values()]:
            task.cancel()
        await self.flush()


def tree_from_sgf(text: str) -> tuple[BoardTree, dict[str, str]]:
    """A board's tree read from an SGF record (every node replayed through the referee) and the record's
    details (PB, PW, EV, RO, RE...). Raises ``Refused``: 413 past ``MAX_SGF`` bytes or ``MAX_NODES`` nodes, 422
    (``field`` ``sgf``) for a record that cannot be read or an illegal move in a variation."""
    if len(text.encode("utf-8")) > MAX_SGF:
        raise Refused("too-large", f"sgf: the record is over {MAX_SGF} bytes", field="sgf")
    try:
        record, nodes = read_tree(text.encode("utf-8"), max_bytes=MAX_SGF, max_nodes=MAX_NODES)
    except SgfError as exc:
        raise Refused("invalid-request", f"sgf: {exc}", field="sgf", line=exc.line) from None
    except ValueError as exc:
        raise Refused("too-large", f"sgf: {exc}", field="sgf", reason="tree-full") from None
    size = record.game.size
    rules = record.rules.name if record.rules is not None else "french"
    tree = BoardTree(size, rules, record.game.komi)

    def vs(points: list[int]) -> list[str]:
        return [to_gtp(p, size) for p in points]

    made: list[Node] = []
    for i, n in enumerate(nodes):
        setup: dict[str, Any] | None = None
        if n.black or n.white or n.empty or n.to_move:
            setup = {k: v for k, v in (("black", vs(n.black)), ("white", vs(n.white)), ("empty", vs(n.empty)))
                     if v}
            if n.to_move:
                setup["to_move"] = n.to_move
        move = None if n.move is None else {"color": n.move[0],
                                            "vertex": "pass" if n.move[1] is None else to_gtp(n.move[1], size)}
        try:
            if n.parent is None:
                if setup:
                    tree.set_root(setup)
                node = tree.nodes[0]
                if move is not None:  # a move on the root: its first child
                    node = tree.graft(0, move, None)
            else:
                node = tree.graft(made[n.parent].id, move, setup)
        except Refused as exc:
            if exc.code == "too-large":
                raise
            raise Refused("invalid-request", f"sgf: node {i}: {exc.message}", field="sgf",
                          reason="illegal-move") from None
        made.append(node)
        node.comment = (n.comment or "")[:2000]
        for p, kind, label in n.marks:
            if kind == "label":
                text_label = (label or "?").strip()[:4] or "?"
                node.marks[to_gtp(p, size)] = ("number" if text_label.isdigit() else "letter", text_label)
            else:
                node.marks[to_gtp(p, size)] = (kind, None)
    info = dict(record.info)
    if record.result_text:
        info["RE"] = record.result_text
    return tree, info
