"""A demo board's tree (docs/teaching.md): nodes holding a move or setup stones, marks and a comment, every move
played by the referee (``keima.rules``) so that captures, ko and what is legal are the rules' own.

One ``Game`` serves the whole tree: it stands at one node (``at``) and moves to another by taking events back to
the common ancestor and applying the nodes down the other path, as a reader walks a record. A node keeps what the
referee said of it (``captured``: the stones its move took), so that a client draws any node from the tree alone
(its parent's board, the node's stones, the captured ones lifted) without knowing the rules.

Points on the wire are GTP vertices (``"D4"``, ``"pass"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from keima.rules import BLACK, WHITE, Game, GameError, RulesError, opponent
from keima.rules.coords import CoordinateError, from_gtp, to_gtp
from keima.server.errors import Refused, game_error, quote

#: The most nodes one board's tree holds (a lesson, a game and its variations stay far below).
MAX_NODES = 3000
#: The longest comment on a node, in characters.
MAX_COMMENT = 2000
MARK_KINDS = ("triangle", "square", "circle", "cross", "letter", "number")
MAX_LABEL = 4
#: The most moves of a line a watcher proposes.
MAX_LINE = 50


def bad(field: str, message: str) -> Refused:
    """A 422 naming the wrong ``field`` of an op or a body."""
    return Refused("invalid-request", f"{field}: {message}", field=field)


@dataclass
class Node:
    """One node of the tree: ``move`` (colour ``"B"``/``"W"``, vertex), ``setup`` (``black``, ``white``,
    ``empty`` vertices and ``to_move``), ``captured`` (what the referee lifted), ``marks`` (vertex -> kind,
    label) and ``comment``."""

    id: int
    parent: int | None
    children: list[int] = field(default_factory=list)
    move: dict[str, str] | None = None
    setup: dict[str, Any] | None = None
    captured: list[str] = field(default_factory=list)
    marks: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    comment: str = ""
    deleted: bool = False  # taken out of the tree: its parent no longer lists it (ids stay the list's indexes)

    def as_json(self) -> dict[str, Any]:
        """The node as ``GET /api/boards/{id}`` shows it (absent parts left out, so that a tree stays small)."""
        out: dict[str, Any] = {"id": self.id, "parent": self.parent, "children": list(self.children)}
        if self.move is not None:
            out["move"] = dict(self.move)
        if self.setup is not None:
            out["setup"] = dict(self.setup)
        if self.captured:
            out["captured"] = list(self.captured)
        if self.marks:
            out["marks"] = [{"point": p, "kind": k, **({"label": lb} if lb else {})} for p, (k, lb) in self.marks.items()]
        if self.comment:
            out["comment"] = self.comment
        if self.deleted:
            out["deleted"] = True
        return out


class BoardTree:
    """The tree and the referee that stands at one of its nodes. Raises ``Refused`` for anything the rules or the
    limits refuse; the tree is then unchanged."""

    def __init__(self, size: int, rules: str, komi: float | None) -> None:
        try:
            self.game = Game(size=size, rules=rules, komi=komi)
        except RulesError as exc:  # a size, rules or komi the referee does not play
            raise bad("size" if "size" in str(exc) else "rules", str(exc)) from None
        self.size = size
        self.rules = self.game.rules.name
        self.komi = self.game.komi
        self.nodes: list[Node] = [Node(id=0, parent=None)]
        self._path: list[int] = [0]  # the nodes the game has applied, root first
        self._after: dict[int, int] = {0: len(self.game.events)}

    # -- reading -----------------------------------------------------------------------------------------------
    def node(self, nid: Any, field: str = "node") -> Node:
        """Node ``nid``; 422 naming ``field`` when the tree has none."""
        if isinstance(nid, bool) or not isinstance(nid, int) or not 0 <= nid < len(self.nodes) \
                or self.nodes[nid].deleted:
            raise bad(field, f"the board has no node {quote(str(nid))}")
        return self.nodes[nid]

    def delete(self, nid: Any) -> Node:
        """Take node ``nid`` and the lines below it out of the tree (not the root); returns it. Its nodes keep
        their ids (and count towards ``MAX_NODES``): a client holding the tree never sees an id change."""
        node = self.node(nid, "op.node")
        if node.parent is None:
            raise bad("op.node", "the root stays: start another board to start again")
        self.nodes[node.parent].children.remove(node.id)
        stack = [node.id]
        while stack:
            n = self.nodes[stack.pop()]
            n.deleted = True
            stack.extend(n.children)
        return node

    def reachable(self) -> list[Node]:
        """The nodes of the tree (deleted ones left out), each parent before its children, first lines first."""
        out: list[Node] = []
        stack = [0]
        while stack:
            n = self.nodes[stack.pop()]
            out.append(n)
            stack.extend(reversed(n.children))
        return out

    def vertex(self, text: Any, field: str, *, passing: bool = False) -> str:
        """``text`` as a vertex of this board (``"pass"`` only when ``passing``); 422 naming ``field``."""
        try:
            p = from_gtp(str(text), self.size)
        except CoordinateError:
            raise bad(field, f"{quote(str(text))} is not a point of a {self.size}x{self.size} board") from None
        if p is None and not passing:
            raise bad(field, "a pass is not a point of the board")
        return "pass" if p is None else to_gtp(p, self.size)

    def as_json(self) -> dict[str, Any]:
        """The tree as the API sends it: ``size``, ``rules``, ``komi`` and ``nodes`` (ids are indexes)."""
        return {"size": self.size, "rules": self.rules, "komi": self.komi,
                "nodes": [n.as_json() for n in self.nodes]}

    def colors_at(self, nid: int) -> list[int]:
        """The board at node ``nid`` as the referee has it (0 empty, 1 black, 2 white, a point each)."""
        self._goto(nid)
        return list(self.game.board.colors)

    # -- the referee -------------------------------------------------------------------------------------------
    def _goto(self, nid: int) -> None:
        target: list[int] = []
        at: int | None = nid
        while at is not None:
            target.append(at)
            at = self.nodes[at].parent
        target.reverse()
        keep = 0
        while keep < min(len(target), len(self._path)) and target[keep] == self._path[keep]:
            keep += 1
        mark = self._after[self._path[keep - 1]]
        while len(self.game.events) > mark:
            self.game.undo()
        self._path = self._path[:keep]
        for n in target[keep:]:
            self._apply(self.nodes[n])
            self._path.append(n)
            self._after[n] = len(self.game.events)

    def _apply(self, node: Node) -> list[str]:
        """Apply ``node`` to the game; returns the vertices its move captured. Raises ``GameError``."""
        g = self.game
        if node.setup is not None:
            s = node.setup
            if g.phase == "scoring":
                g.resume(g.to_move)
            g.setup(s.get("black", ()), s.get("white", ()), s.get("empty", ()), s.get("to_move"))
        if node.move is None:
            return []
        color = BLACK if node.move["color"] == "B" else WHITE
        if g.phase == "scoring":
            g.resume(opponent(color))  # as a review does: the mover's opponent asked to go on
        before = g.board.colors[:]
        g.play(node.move["vertex"], color, allow_out_of_turn=True)
        after = g.board.colors
        return [to_gtp(p, self.size) for p, c in enumerate(before) if c and not after[p]]

    def _child(self, parent: Node, node: Node) -> Node:
        """Play ``node`` below ``parent`` through the referee and add it; 409 when the rules refuse it."""
        if len(self.nodes) >= MAX_NODES:
            raise Refused("too-large", f"the board holds {MAX_NODES} nodes, its most: start another board",
                          field="op", reason="tree-full")
        self._goto(parent.id)
        mark = len(self.game.events)
        try:
            node.captured = self._apply(node)
        except GameError as exc:
            while len(self.game.events) > mark:
                self.game.undo()
            raise game_error(exc) from None
        self.nodes.append(node)
        parent.children.append(node.id)
        self._path.append(node.id)
        self._after[node.id] = len(self.game.events)
        return node

    # -- changes -----------------------------------------------------------------------------------------------
    def set_root(self, setup: dict[str, Any]) -> None:
        """Set the start position (the root's stones, vertices already checked) of a tree that has only its
        root. Raises ``Refused`` 422 (``field`` ``black``) for an impossible position."""
        assert len(self.nodes) == 1
        try:
            self.game.setup(setup.get("black", ()), setup.get("white", ()), (), setup.get("to_move"))
        except GameError as exc:
            raise bad("black", f"impossible position: {exc}") from None
        self.nodes[0].setup = {k: v for k, v in setup.items() if v}
        self._after[0] = len(self.game.events)

    def graft(self, parent_id: int, move: dict[str, str] | None, setup: dict[str, Any] | None) -> Node:
        """A new child of ``parent_id`` with a move and/or setup read from a record, played by the referee."""
        return self._child(self.nodes[parent_id], Node(id=len(self.nodes), parent=parent_id, move=move, setup=setup))

    def add_move(self, parent_id: Any, color: Any, vertex: Any) -> tuple[Node, bool]:
        """The child of ``parent_id`` holding ``color``'s move at ``vertex``: the one already there, or a new one
        played by the referee (then the second value is True)."""
        parent = self.node(parent_id, "op.parent")
        if color not in ("B", "W"):
            raise bad("op.move.color", f"{quote(str(color))} is not a colour: use B or W")
        where = self.vertex(vertex, "op.move.vertex", passing=True)
        for cid in parent.children:
            child = self.nodes[cid]
            if child.setup is None and child.move == {"color": color, "vertex": where}:
                return child, False
        return self._child(parent, Node(id=len(self.nodes), parent=parent.id,
                                        move={"color": color, "vertex": where})), True

    def add_setup(self, parent_id: Any, setup: Any) -> Node:
        """A new child of ``parent_id`` adding and removing stones (``black``, ``white``, ``empty``: vertices)
        and saying who plays next (``to_move``, optional)."""
        parent = self.node(parent_id, "op.parent")
        if not isinstance(setup, dict):
            raise bad("op.setup", "give the stones as {\"black\": [...], \"white\": [...], \"empty\": [...]}")
        out: dict[str, Any] = {}
        for key in ("black", "white", "empty"):
            points = setup.get(key, [])
            if not isinstance(points, list) or len(points) > self.size * self.size:
                raise bad(f"op.setup.{key}", "give a list of points")
            if points:
                out[key] = [self.vertex(v, f"op.setup.{key}.{i}") for i, v in enumerate(points)]
        to_move = setup.get("to_move")
        if to_move not in (None, "B", "W"):
            raise bad("op.setup.to_move", "B, W or nothing")
        if to_move is not None:
            out["to_move"] = to_move
        if not out:
            raise bad("op.setup", "a setup adds or removes at least one stone")
        unknown = set(setup) - {"black", "white", "empty", "to_move"}
        if unknown:
            raise bad(f"op.setup.{sorted(unknown)[0]}", "not a part of a setup")
        return self._child(parent, Node(id=len(self.nodes), parent=parent.id, setup=out))

    def line(self, parent_id: Any, moves: Any, field: str = "moves") -> list[dict[str, str]]:
        """The moves of a proposed line below ``parent_id``, checked by the referee (played, then taken back):
        each ``{"color", "vertex"}``. 422 naming ``moves.N`` for a bad move, 409 for an illegal one."""
        parent = self.node(parent_id, "parent")
        if not isinstance(moves, list) or not 1 <= len(moves) <= MAX_LINE:
            raise bad(field, f"a line is 1 to {MAX_LINE} moves")
        out = []
        for i, m in enumerate(moves):
            if not isinstance(m, dict) or m.get("color") not in ("B", "W"):
                raise bad(f"{field}.{i}", "a move is {\"color\": \"B\" or \"W\", \"vertex\"}")
            out.append({"color": m["color"], "vertex": self.vertex(m.get("vertex"), f"{field}.{i}", passing=True)})
        self._goto(parent.id)
        mark = len(self.game.events)
        try:
            for i, m in enumerate(out):
                try:
                    self._apply(Node(id=-1, parent=None, move=m))
                except GameError as exc:
                    err = game_error(exc)
                    raise Refused(err.code, f"move {i + 1} of the line: {err.message}", reason=err.reason,
                                  field=f"{field}.{i}") from None
        finally:
            while len(self.game.events) > mark:
                self.game.undo()
        return out

    def set_mark(self, nid: Any, point: Any, kind: Any, label: Any) -> tuple[str, str | None]:
        """Put a mark on ``point`` of node ``nid`` (``kind`` None or ``"none"`` takes it off); returns the vertex
        and the label kept (letters and numbers carry one: the client's, or the next free one)."""
        node = self.node(nid, "op.node")
        where = self.vertex(point, "op.point")
        if kind in (None, "none"):
            node.marks.pop(where, None)
            return where, None
        if kind not in MARK_KINDS:
            raise bad("op.kind", f"{quote(str(kind))} is not a mark: use one of {', '.join(MARK_KINDS)} or none")
        text: str | None = None
        if kind in ("letter", "number"):
            if label is None:
                text = _next_label(kind, [lb for k, lb in node.marks.values() if k == kind and lb])
            elif not isinstance(label, str) or not 1 <= len(label.strip()) <= MAX_LABEL \
                    or not label.strip().isprintable():
                raise bad("op.label", f"a label is 1 to {MAX_LABEL} printable characters")
            else:
                text = label.strip()
        elif label is not None:
            raise bad("op.label", "only letters and numbers carry a label")
        node.marks[where] = (kind, text)
        return where, text

    def set_comment(self, nid: Any, text: Any) -> str:
        """Replace the comment of node ``nid``; returns it as kept (control characters other than newlines and
        tabs are refused: the text is shown as text, never as markup)."""
        node = self.node(nid, "op.node")
        if not isinstance(text, str) or len(text) > MAX_COMMENT:
            raise bad("op.text", f"a comment is text of at most {MAX_COMMENT} characters")
        if any(not (c.isprintable() or c in "\n\t") for c in text):
            raise bad("op.text", "a comment holds no control characters")
        node.comment = text
        return text


def _next_label(kind: str, used: list[str]) -> str:
    if kind == "number":
        n = 1
        while str(n) in used:
            n += 1
        return str(n)
    for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if c not in used:
            return c
    return "?"
