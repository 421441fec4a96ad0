"""Conditional moves in correspondence games: "if he plays D4, I answer C6; then if E5, F6 ...".

A player leaves a tree of answers for the opponent's next moves (``PUT /api/games/{id}/conditional``): a list of
nodes ``{"if": vertex, "play": vertex, "then": [nodes]}``. Every move of the tree is checked when it is stored, on a
copy of the game replayed from its log: a refusal names the line of moves, the node (``field``, a dotted path
such as ``tree.0.then.1.play``) and the referee's reason (``occupied``, ``suicide``, ``ko``, ``off-board``...).
Two nodes for the same move of the opponent with the same answer are one (their continuations merged); with two
different answers they are refused (``reason`` ``two-answers``). The tree is stored for the game's version it was
made for (409 when the game has moved on). Trees are private: stored apart from the game's log
(``keima.server.games.conditional_store``), shown to their player only.

When the opponent plays a move the tree expects, the answer is played for the player in the same transaction as
the move (``Conditional.follow``, a follower of the game service): the two are stored together or not at all, so
a process killed between them cannot lose the answer, and the branch under it is kept in that transaction too.
Any other move (or an undo) drops the trees of the game.
"""

from __future__ import annotations

import asyncio
from typing import Any

from keima.rules.board import opponent
from keima.rules.coords import to_gtp
from keima.rules.events import Event
from keima.rules.game import Game, GameError
from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games import conditional_store
from keima.server.games.conditional_store import Tree
from keima.server.games.events import GameEvent
from keima.server.games.service import FollowUp, GameService, Op
from keima.server.games.session import GameSession
from keima.server.storage import Store

MAX_NODES = 200
#: The events after which the stored trees are looked at again (answered, or dropped).
MOVES = frozenset({"moved", "passed", "handicap", "undone", "finished"})


def _count(tree: Any) -> int:
    # Iterative: a body nested deeper than Python's recursion limit is counted, not a crash.
    n, stack = 0, [tree]
    while stack:
        nodes = stack.pop()
        if not isinstance(nodes, list):
            continue
        for node in nodes:
            n += 1
            if isinstance(node, dict):
                stack.append(node.get("then"))
    return n


def replayed(s: GameSession) -> Game:
    """A copy of the game of ``s``, replayed from its events (the copy can be played on freely)."""
    g = GameSession.new_game(s.params)
    for d in s.event_dicts:
        g.apply(Event.from_dict(d))
    return g


def check(s: GameSession, color: int, tree: Any) -> Tree:
    """Check the tree of ``color`` against the game of ``s`` now; returns it with its vertices as the board names
    them ("D4", "pass") and the nodes for the same move merged. Raises ``Refused`` 422 ``invalid-request`` naming
    the first move that cannot be played there (``field``: its dotted path, ``reason``: the referee's) or a move
    with two answers (``reason`` ``two-answers``), 409 when it is not the opponent's turn, 422 for a game that is
    not a correspondence game or a tree over ``MAX_NODES``."""
    if not s.clock.spec.correspondence:
        raise Refused("invalid-request", "conditional moves are for correspondence games", field="tree")
    if s.game.phase != "play":
        raise Refused("wrong-phase", "conditional moves are left during play", reason="wrong-phase")
    if s.game.to_move == color:
        raise Refused("wrong-phase", "it is your turn: play your move; conditional moves answer your opponent's",
                      reason="wrong-turn")
    if not isinstance(tree, list):
        raise Refused("invalid-request", "a tree is a list of {\"if\", \"play\", \"then\"}", field="tree")
    if _count(tree) > MAX_NODES:
        raise Refused("invalid-request", f"at most {MAX_NODES} conditional moves", field="tree",
                      reason="too-long")
    g = replayed(s)
    return _walk(g, color, [(n, f"tree.{i}") for i, n in enumerate(tree)], [])


def _walk(g: Game, color: int, items: list[tuple[Any, str]], path: list[str]) -> Tree:
    # items: the nodes of one level, each with its dotted path in the body (nodes merged from two lines keep
    # their own paths, so a refusal points at the line the player wrote).
    merged: dict[str, tuple[str, list[tuple[Any, str]]]] = {}
    for node, where in items:
        then = node.get("then") if isinstance(node, dict) else None
        if not (isinstance(node, dict) and isinstance(node.get("if"), str) and isinstance(node.get("play"), str)
                and isinstance(then if then is not None else [], list)):
            raise Refused("invalid-request", "each move of the tree is {\"if\": vertex, \"play\": vertex, "
                          "\"then\": [...]}", field=where)
        theirs = _play(g, opponent(color), node["if"], path, f"{where}.if")
        try:
            mine = _play(g, color, node["play"], [*path, theirs], f"{where}.play")
            g.undo()
        finally:
            g.undo()
        below = [(n, f"{where}.then.{j}") for j, n in enumerate(then or [])]
        known = merged.get(theirs)
        if known is None:
            merged[theirs] = (mine, below)
        elif known[0] != mine:
            raise Refused("invalid-request", f"{' '.join([*path, theirs])}: two answers to the same move, "
                          f"{known[0]} and {mine}: keep one", reason="two-answers", field=f"{where}.play")
        else:
            known[1].extend(below)  # the same line written twice: one line, its continuations together
    out = []
    for theirs, (mine, below) in merged.items():
        g.play(theirs, opponent(color))
        g.play(mine, color)
        try:
            out.append({"if": theirs, "play": mine, "then": _walk(g, color, below, [*path, theirs, mine])})
        finally:
            g.undo()
            g.undo()
    return out


def _play(g: Game, color: int, vertex: str, path: list[str], where: str) -> str:
    try:
        record = g.play(vertex, color)
    except GameError as exc:
        raise Refused("invalid-request", f"{' '.join([*path, vertex])[:80]}: {exc}", field=where,
                      reason=exc.reason) from None
    except ValueError as exc:
        raise Refused("invalid-request", f"{' '.join([*path, vertex])[:80]}: {exc}", field=where,
                      reason="off-board") from None
    return to_gtp(record.point, g.size)


def read(engine: Any, game_id: str, color: int) -> tuple[int, Tree] | None:
    """(version, tree) of ``color`` in ``game_id``, or None. Blocking."""
    return conditional_store.read(engine, game_id).get(color)


class Conditional:
    """Plays the conditional answers (see the module docstring): a follower of ``service``."""

    def __init__(self, store: Store, service: GameService) -> None:
        self.store = store
        self.played = 0
        service.followers.append(self.follow)

    async def follow(self, s: GameSession, events: list[GameEvent]) -> FollowUp | None:
        """After a move (or an undo) of a correspondence game, not stored yet: the answer from the waiting
        player's tree when the move is the one it expects, and the trees kept (the branch under the answer) or
        dropped, in the move's transaction."""
        if not s.clock.spec.correspondence or not any(e.type in MOVES for e in events):
            return None
        trees = await asyncio.get_running_loop().run_in_executor(None, conditional_store.read, self.store.engine,
                                                                 s.id)
        moved = next((e for e in events if e.type in ("moved", "passed")), None)
        node: dict[str, Any] | None = None
        waiting = 0
        if moved is not None and s.game.phase == "play":
            waiting = opponent(1 if moved.data["move"]["color"] == "B" else 2)
            theirs = str(moved.data["move"].get("vertex") or "pass").upper()
            _version, tree = trees.get(waiting, (0, []))
            node = next((n for n in tree if str(n["if"]).upper() == theirs), None)
        if node is None:
            # No tree waits for this move: any tree left is for a position that is gone (even one stored while
            # this move was on its way: it is dropped in the move's transaction).
            return FollowUp(None, lambda _answered: [conditional_store.after_move(s.id, None)])
        answer, kept = str(node["play"]), list(node.get("then") or [])

        def play(s: GameSession) -> dict[str, Any]:
            if s.game.to_move != waiting:
                raise Refused("wrong-phase", "not the tree's turn", reason="wrong-turn")
            return s.apply({"type": "play", "move": answer}, frozenset({waiting}), timesource.now())

        def ops(answered: bool) -> list[Op]:
            if not answered:
                return [conditional_store.after_move(s.id, None)]
            self.played += 1
            return [conditional_store.after_move(s.id, (waiting, s.version, kept))]

        return FollowUp(play, ops)
