"""One demo board held in memory: its tree, the presenter's node (``cursor``), who is in control, the chat, the open
question and its answers, and the versioned ops that change it (docs/web-api.md, *Demo boards*).

Every op is checked against the caller (``apply``): only those in control write, only the owner gives or takes
back control; a stale ``version`` is refused with the current one (``Stale``). An applied op returns the op as
every watcher receives it in its delta: the server's ids and facts filled in (a new node's id, what its move
captured, a mark's label, the answers' counts).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from keima.record import TreeNode, dump_tree
from keima.rules.coords import from_gtp
from keima.server.boards.model import MARK_KINDS, BoardTree, bad
from keima.server.errors import Refused

#: Chat messages a board keeps (the newest).
CHAT_KEPT = 100
OP_TYPES = ("node", "select", "mark", "comment", "control", "question", "answers", "variation", "delete")
#: Proposals a board keeps (the newest; one per watcher).
PROPOSALS_KEPT = 20


class Stale(Refused):
    """An op written against an older ``version`` than the board's (409 ``stale-version``, the current one
    given)."""

    def __init__(self, current: int, given: int) -> None:
        super().__init__("stale-version", f"the board is at version {current}, not {given}: apply the deltas "
                         "since (or read it again) and send the op again", reason="stale-version", field="version")
        self.current = current


@dataclass
class LiveBoard:
    """A board and who acts on it (player ids; ``names``: the display name of each player the board knows)."""

    id: str
    title: str
    owner: str
    visibility: str
    tree: BoardTree
    names: dict[str, str] = field(default_factory=dict)
    controllers: list[str] = field(default_factory=list)
    cursor: int = 0
    version: int = 0
    info: dict[str, str] = field(default_factory=dict)
    chat: list[dict[str, str]] = field(default_factory=list)
    question: int | None = None
    answers: dict[str, str] = field(default_factory=dict)  # player id -> vertex, for the open question
    relay: dict[str, Any] | None = None  # the tournament table it relays: {"tournament", "round", "table"}
    club: str | None = None  # the club (its slug) whose members alone see a board of visibility "club"
    proposals: dict[int, dict[str, Any]] = field(default_factory=dict)  # id -> a watcher's proposed line
    next_proposal: int = 1

    # -- reading -----------------------------------------------------------------------------------------------
    def person(self, pid: str) -> dict[str, str]:
        """``{"id", "name"}`` of a player the board knows."""
        return {"id": pid, "name": self.names.get(pid, "?")}

    def in_control(self, pid: str | None) -> bool:
        """Whether player ``pid`` may write (the owner always may)."""
        return pid is not None and (pid == self.owner or pid in self.controllers)

    def state(self, pid: str | None = None) -> dict[str, Any]:
        """The board as ``GET /api/boards/{id}`` answers it, with ``you`` for player ``pid``."""
        return {
            "id": self.id, "title": self.title, "owner": self.person(self.owner),
            "controllers": [self.person(c) for c in self.controllers], "visibility": self.visibility,
            "club": self.club,
            "version": self.version, "tree": self.tree.as_json(), "cursor": self.cursor, "info": dict(self.info),
            "chat": list(self.chat), "question": None if self.question is None else {"node": self.question},
            "relay": self.relay,
            "proposals": list(self.proposals.values()) if self.in_control(pid) else [],
            "you": {"id": pid, "control": self.in_control(pid), "owner": pid == self.owner,
                    "answer": None if pid is None else self.answers.get(pid)},
        }

    def counts(self) -> tuple[dict[str, int], dict[str, list[str]]]:
        """The answers to the open question: how many chose each point, and who."""
        counts = Counter(self.answers.values())
        names: dict[str, list[str]] = {}
        for pid, where in self.answers.items():
            names.setdefault(where, []).append(self.names.get(pid, "?"))
        return dict(counts), names

    def sgf(self) -> str:
        """The board as one SGF game: the whole tree, marks and comments, and the record's details."""
        size = self.tree.size

        def pts(vs: list[str]) -> list[int]:
            return [p for p in (from_gtp(v, size) for v in vs) if p is not None]

        nodes: list[TreeNode] = []
        kept = self.tree.reachable()
        index = {n.id: i for i, n in enumerate(kept)}  # the record's nodes: the tree without its deleted ones
        for n in kept:
            out = TreeNode(parent=None if n.parent is None else index[n.parent], comment=n.comment or None)
            if n.move is not None:
                out.move = (n.move["color"], from_gtp(n.move["vertex"], size))
            if n.setup is not None:
                out.black, out.white, out.empty = (pts(n.setup.get(k, [])) for k in ("black", "white", "empty"))
                out.to_move = n.setup.get("to_move")
            for v, (kind, label) in n.marks.items():
                p = from_gtp(v, size)
                assert p is not None
                out.marks.append((p, "label" if kind in ("letter", "number") else kind, label))
            nodes.append(out)
        info = dict(self.info)
        info.setdefault("GN", self.title)
        return dump_tree(nodes, size=size, komi=self.tree.komi, rules=self.tree.rules, info=info)

    # -- changing ----------------------------------------------------------------------------------------------
    def apply(self, pid: str, version: Any, op: Any) -> dict[str, Any]:
        """Apply ``op`` written by player ``pid`` at ``version``; returns the op as the delta carries it (the
        caller bumps the version). Raises ``Refused``: 403 for a caller not in control (``not-in-control``) or
        not the owner for ``control``, 409 ``Stale``, 422 for a bad op, 409 ``illegal-move`` from the referee."""
        if not isinstance(op, dict) or op.get("type") not in OP_TYPES:
            raise bad("op.type", f"an op is an object whose type is one of {', '.join(OP_TYPES)}")
        kind = op["type"]
        if kind == "control" and pid != self.owner:
            raise Refused("not-in-control", "only the board's owner gives and takes back control")
        if not self.in_control(pid):
            raise Refused("not-in-control", "you are not in control of this board: ask its owner")
        if isinstance(version, bool) or not isinstance(version, int):
            raise bad("version", "the version the op was written against, an integer")
        if version != self.version:
            raise Stale(self.version, version)
        handler = getattr(self, f"_op_{kind}")
        out: dict[str, Any] = handler(op)
        return out

    def _op_node(self, op: dict[str, Any]) -> dict[str, Any]:
        if ("move" in op) == ("setup" in op):
            raise bad("op.move", "a node holds a move or a setup (one of them)")
        if "move" in op:
            move = op["move"]
            if not isinstance(move, dict):
                raise bad("op.move", "give the move as {\"color\": \"B\", \"vertex\": \"D4\"}")
            node, new = self.tree.add_move(op.get("parent"), move.get("color"), move.get("vertex"))
            if not new:  # the move is there already: the op goes there
                self.cursor = node.id
                return {"type": "select", "node": node.id}
        else:
            node = self.tree.add_setup(op.get("parent"), op["setup"])
        self.cursor = node.id
        out: dict[str, Any] = {"type": "node", "parent": node.parent, "id": node.id}
        if node.move is not None:
            out["move"] = dict(node.move)
        if node.setup is not None:
            out["setup"] = dict(node.setup)
        if node.captured:
            out["captured"] = list(node.captured)
        return out

    def _op_select(self, op: dict[str, Any]) -> dict[str, Any]:
        self.cursor = self.tree.node(op.get("node"), "op.node").id
        return {"type": "select", "node": self.cursor}

    def _op_mark(self, op: dict[str, Any]) -> dict[str, Any]:
        kind = op.get("kind")
        where, label = self.tree.set_mark(op.get("node"), op.get("point"), kind, op.get("label"))
        out = {"type": "mark", "node": op["node"], "point": where, "kind": kind if kind in MARK_KINDS else "none"}
        if label is not None:
            out["label"] = label
        return out

    def _op_comment(self, op: dict[str, Any]) -> dict[str, Any]:
        text = self.tree.set_comment(op.get("node"), op.get("text"))
        return {"type": "comment", "node": op["node"], "text": text}

    def _op_control(self, op: dict[str, Any]) -> dict[str, Any]:
        to = op.get("to")
        if to is None:
            self.controllers = []
        elif not isinstance(to, str) or to not in self.names:
            raise bad("op.to", "give control to a player watching the board (their id), or null to take it back")
        elif to != self.owner:
            self.controllers = [to]
        return {"type": "control", "to": to, "controllers": [self.person(c) for c in self.controllers]}

    def _op_question(self, op: dict[str, Any]) -> dict[str, Any]:
        node = self.tree.node(op.get("node"), "op.node")
        self.question = self.cursor = node.id
        self.answers = {}
        return {"type": "question", "node": node.id}

    def _op_answers(self, op: dict[str, Any]) -> dict[str, Any]:
        if self.question is None:
            raise Refused("wrong-phase", "no question is open on this board", reason="no-question")
        counts, _ = self.counts()
        self.question = None
        self.answers = {}
        return {"type": "answers", "counts": counts}

    def _op_delete(self, op: dict[str, Any]) -> dict[str, Any]:
        node = self.tree.delete(op.get("node"))
        if self.tree.nodes[self.cursor].deleted:
            self.cursor = node.parent  # type: ignore[assignment]
        if self.question is not None and self.tree.nodes[self.question].deleted:
            self.question, self.answers = None, {}
        return {"type": "delete", "node": node.id, "cursor": self.cursor}

    def _op_variation(self, op: dict[str, Any]) -> dict[str, Any]:
        proposal = self.proposals.get(op.get("proposal"))  # type: ignore[arg-type]
        if proposal is None:
            raise bad("op.proposal", "no such proposal (taken already, or replaced by a newer one)")
        made = []
        parent = proposal["parent"]
        for m in proposal["moves"]:
            node, _ = self.tree.add_move(parent, m["color"], m["vertex"])
            made.append(node)
            parent = node.id
        del self.proposals[proposal["id"]]
        self.cursor = parent
        return {"type": "variation", "proposal": proposal["id"], "nodes": [n.as_json() for n in made]}

    def propose(self, pid: str, parent: Any, moves: Any) -> dict[str, Any]:
        """Keep player ``pid``'s proposed line (checked by the referee), replacing their earlier one."""
        line = self.tree.line(parent, moves)
        for key in [k for k, v in self.proposals.items() if v["by"] == pid]:
            del self.proposals[key]
        entry = {"id": self.next_proposal, "by": pid, "name": self.names.get(pid, "?"), "parent": parent,
                 "moves": line}
        self.next_proposal += 1
        self.proposals[entry["id"]] = entry
        while len(self.proposals) > PROPOSALS_KEPT:
            del self.proposals[min(self.proposals)]
        return entry

    def answer(self, pid: str, point: Any) -> str:
        """Record player ``pid``'s answer to the open question (their last one counts); returns the vertex.
        409 when no question is open, 422 for a point off the board."""
        if self.question is None:
            raise Refused("wrong-phase", "no question is open on this board", reason="no-question")
        where = self.tree.vertex(point, "point")
        self.answers[pid] = where
        return where

    def post_chat(self, pid: str, text: str) -> dict[str, Any]:
        """Keep a chat message of player ``pid`` (text already cleaned); returns its op."""
        msg = {"name": self.names.get(pid, "?"), "text": text}
        self.chat = (self.chat + [msg])[-CHAT_KEPT:]
        return {"type": "chat", **msg}

    # -- storing -----------------------------------------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        """What the database keeps of the board (``boards.data``)."""
        return {"tree": self.tree.as_json(), "cursor": self.cursor, "names": dict(self.names),
                "controllers": list(self.controllers), "info": dict(self.info), "chat": list(self.chat),
                "relay": self.relay, "club": self.club}

    @classmethod
    def restore(cls, row: dict[str, Any]) -> LiveBoard:
        """The board of a stored row, its tree replayed through the referee."""
        data = row["data"]
        t = data["tree"]
        tree = BoardTree(int(t["size"]), str(t["rules"]), float(t["komi"]))
        for n in t["nodes"]:
            if n["parent"] is None:
                if n.get("setup"):
                    tree.set_root(n["setup"])
                node = tree.nodes[0]
            else:
                node = tree.graft(n["parent"], n.get("move"), n.get("setup"))
            node.comment = n.get("comment", "")
            node.marks = {m["point"]: (m["kind"], m.get("label")) for m in n.get("marks", [])}
        for n in t["nodes"]:
            if n.get("deleted") and not tree.nodes[n["id"]].deleted:
                tree.delete(n["id"])
        return cls(id=row["id"], title=row["title"], owner=row["owner"], visibility=row["visibility"], tree=tree,
                   names=dict(data.get("names", {})), controllers=list(data.get("controllers", [])),
                   cursor=int(data.get("cursor", 0)), version=int(row["version"]), info=dict(data.get("info", {})),
                   chat=list(data.get("chat", [])), relay=data.get("relay"), club=data.get("club"))
