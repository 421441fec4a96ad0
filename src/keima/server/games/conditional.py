"""Conditional moves in correspondence games: "if he plays D4, I answer C6; then if E5, F6 ...".

A player leaves a tree of answers for the opponent's next moves (``PUT /api/games/{id}/conditional``): a list of
nodes ``{"if": vertex, "play": vertex, "then": [nodes]}``. Every move of the tree is checked when it is stored, on a
copy of the game replayed from its log (a refusal names the move), and the tree is stored for the game's version
it was made for (409 when the game has moved on). When the opponent plays a move the tree expects
(``Conditional.listener``, after the move is stored), keima plays the answer for the player through the game
service at once and keeps the branch under it; any other move drops the tree. Trees are private: stored apart
from the game's log, shown to their player only.

The answer is played by the process that stored the opponent's move: a process killed in between leaves the
tree unplayed (the player's clock runs, and the tree still answers the move if it is sent again: never).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.rules.board import opponent
from keima.rules.coords import to_gtp
from keima.rules.events import Event
from keima.rules.game import Game, GameError
from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games.events import GameEvent
from keima.server.games.service import GameService
from keima.server.games.session import GameSession
from keima.server.storage import Store, conditional_moves

log = logging.getLogger("keima.server")

MAX_NODES = 200


def _count(tree: list[dict[str, Any]]) -> int:
    return sum(1 + _count(n.get("then") or []) for n in tree)


def replayed(s: GameSession) -> Game:
    """A copy of the game of ``s``, replayed from its events (the copy can be played on freely)."""
    g = GameSession.new_game(s.params)
    for d in s.event_dicts:
        g.apply(Event.from_dict(d))
    return g


def check(s: GameSession, color: int, tree: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Check the tree of ``color`` against the game of ``s`` now; returns it with its vertices as the board names
    them ("D4", "pass"). Raises ``Refused`` 422 naming the first move that cannot be played there, 409 when it is
    not the opponent's turn, 422 for a game that is not a correspondence game or a tree over ``MAX_NODES``."""
    if not s.clock.spec.correspondence:
        raise Refused("invalid-request", "conditional moves are for correspondence games", field="tree")
    if s.game.phase != "play":
        raise Refused("wrong-phase", "conditional moves are left during play", reason="wrong-phase")
    if s.game.to_move == color:
        raise Refused("wrong-phase", "it is your turn: play your move; conditional moves answer your opponent's",
                      reason="wrong-turn")
    if _count(tree) > MAX_NODES:
        raise Refused("invalid-request", f"at most {MAX_NODES} conditional moves", field="tree")
    g = replayed(s)
    return _walk(g, color, tree, [])


def _walk(g: Game, color: int, nodes: list[dict[str, Any]], path: list[str]) -> list[dict[str, Any]]:
    out = []
    seen: set[str] = set()
    if not isinstance(nodes, list):
        raise Refused("invalid-request", "a tree is a list of {\"if\", \"play\", \"then\"}", field="tree")
    for node in nodes:
        if not (isinstance(node, dict) and isinstance(node.get("if"), str) and isinstance(node.get("play"), str)
                and isinstance(node.get("then", []), list)):
            raise Refused("invalid-request", "each move of the tree is {\"if\": vertex, \"play\": vertex, "
                          "\"then\": [...]}", field="tree")
        theirs = _play(g, opponent(color), str(node["if"]), path)
        if theirs in seen:
            raise Refused("invalid-request", f"{' '.join([*path, theirs])}: this move has two answers", field="tree")
        seen.add(theirs)
        try:
            mine = _play(g, color, str(node["play"]), [*path, theirs])
            try:
                below = _walk(g, color, node.get("then") or [], [*path, theirs, mine])
            finally:
                g.undo()
        finally:
            g.undo()
        out.append({"if": theirs, "play": mine, "then": below})
    return out


def _play(g: Game, color: int, vertex: str, path: list[str]) -> str:
    try:
        record = g.play(vertex, color)
    except (GameError, ValueError) as exc:
        raise Refused("invalid-request", f"{' '.join([*path, vertex])[:80]}: {exc}", field="tree") from None
    return to_gtp(record.point, g.size)


# ---------------------------------------------------------------------------------------------------- storage
def read(engine: Engine, game_id: str, color: int) -> tuple[int, list[dict[str, Any]]] | None:
    """(version, tree) of ``color`` in ``game_id``, or None. Blocking."""
    c = conditional_moves.c
    with engine.connect() as conn:
        row = conn.execute(sa.select(c.version, c.tree).where(c.game_id == game_id, c.color == color)).first()
    return None if row is None else (int(row.version), list(row.tree))


def write(game_id: str, color: int, version: int, tree: list[dict[str, Any]] | None) -> Any:
    """A store operation: keep ``tree`` for ``color`` (None or empty: drop it)."""
    c = conditional_moves.c

    def op(conn: Connection) -> None:
        conn.execute(conditional_moves.delete().where(c.game_id == game_id, c.color == color))
        if tree:
            conn.execute(conditional_moves.insert().values(game_id=game_id, color=color, version=version, tree=tree))

    return op


class Conditional:
    """Plays the conditional answers of this process's games (see the module docstring)."""

    def __init__(self, store: Store, service: GameService) -> None:
        self.store = store
        self.service = service
        self._tasks: set[asyncio.Task[Any]] = set()
        self.played = 0
        service.listeners.append(self.listener)

    def listener(self, s: GameSession, events: list[GameEvent]) -> None:
        """A game service listener: after a move of a correspondence game, answer it from the other's tree."""
        if not s.clock.spec.correspondence:
            return
        for e in events:
            if e.type in ("moved", "passed"):
                mover = 1 if e.data["move"]["color"] == "B" else 2
                task = asyncio.get_running_loop().create_task(
                    self._answer(s.id, opponent(mover), e.data["move"]["vertex"], e.version))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _answer(self, game_id: str, color: int, theirs: str, version: int) -> None:
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(None, read, self.store.engine, game_id, color)
        if stored is None:
            return
        _version, tree = stored
        node = next((n for n in tree if n["if"].upper() == theirs.upper()), None)
        if node is None:
            await self.store.write(write(game_id, color, version, None))  # the opponent left the tree
            return
        done: list[int] = []

        def do(s: GameSession) -> dict[str, Any] | None:
            if s.version != version or s.game.to_move != color:
                return None  # something else happened first: the tree answers only the move it expected
            entry = s.apply({"type": "play", "move": node["play"]}, frozenset({color}), timesource.now())
            done.append(s.version)
            return entry

        try:
            await self.service.change(game_id, do, fresh=True)
        except Refused as exc:
            log.info("game %s: conditional move %s not played: %s", game_id, node["play"], exc.message)
        if done:
            self.played += 1
            await self.store.write(write(game_id, color, done[0], node.get("then") or None))
        else:
            await self.store.write(write(game_id, color, version, None))

    async def close(self) -> None:
        """Wait for the answers under way."""
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
