"""A whole SGF tree as plain data, in and out: what a shared board (keima.server.boards) keeps of a record.

``read_tree(source)`` reads a record with ``load_record`` (its main line replayed through the referee, so a
record that cannot be read is refused exactly as everywhere else) and returns, besides the ``SgfRecord``, every
node of its tree in document order as a ``TreeNode``: its parent's index, its move, its setup stones, its marks
(TR, SQ, CR, MA, LB) and its comment. Nothing here checks a variation's moves: the caller replays them through the
referee. ``dump_tree(...)`` writes such nodes back as one SGF game with the given root properties.

Points are the referee's ints (``keima.rules.coords``); a move's point is None for a pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sgfmill import sgf

from keima.record.parse import DEFAULT_MAX_BYTES
from keima.record.sgf import INFO_PROPERTIES, SgfRecord, format_komi, load_record
from keima.version import package_version

#: The marks a node can carry, by their SGF property.
MARK_PROPERTIES = {"TR": "triangle", "SQ": "square", "CR": "circle", "MA": "cross"}
_PROPERTY_OF = {kind: ident for ident, kind in MARK_PROPERTIES.items()}


@dataclass
class TreeNode:
    """One node: ``parent`` (index in the list, None for the root), ``move`` (``"B"``/``"W"``, point or None for
    a pass) or None, the setup stones (``black``, ``white``, ``empty``) and ``to_move`` (PL) when set up,
    ``marks`` as (point, kind, label) with kind one of ``MARK_PROPERTIES``' values or ``"label"``, and
    ``comment``."""

    parent: int | None
    move: tuple[str, int | None] | None = None
    black: list[int] = field(default_factory=list)
    white: list[int] = field(default_factory=list)
    empty: list[int] = field(default_factory=list)
    to_move: str | None = None
    marks: list[tuple[int, str, str | None]] = field(default_factory=list)
    comment: str | None = None


def _point(rc: tuple[int, int], size: int) -> int:
    row, col = rc
    return (size - 1 - row) * size + col


def _rc(p: int, size: int) -> tuple[int, int]:
    return size - 1 - p // size, p % size


def _safe(node: Any, ident: str) -> Any:
    """A property's value, or None when it is absent or cannot be read (a malformed value in a variation is
    left out rather than refusing the whole record)."""
    if not node.has_property(ident):
        return None
    try:
        return node.get(ident)
    except ValueError:
        return None


def _node(node: Any, parent: int | None, size: int) -> TreeNode:
    out = TreeNode(parent=parent)
    colour, move = node.get_move()
    if colour is not None:
        out.move = (colour.upper(), None if move is None else _point(move, size))
    for ident, target in (("AB", out.black), ("AW", out.white), ("AE", out.empty)):
        target.extend(sorted(_point(rc, size) for rc in (_safe(node, ident) or ())))
    pl = _safe(node, "PL")
    if pl in ("b", "w"):
        out.to_move = pl.upper()
    for ident, kind in MARK_PROPERTIES.items():
        out.marks.extend((_point(rc, size), kind, None) for rc in sorted(_safe(node, ident) or ()))
    for rc, text in _safe(node, "LB") or ():
        out.marks.append((_point(rc, size), "label", str(text)))
    comment = _safe(node, "C")
    out.comment = None if comment is None else str(comment)
    return out


def read_tree(source: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES,
              max_nodes: int = 10_000) -> tuple[SgfRecord, list[TreeNode]]:
    """The record (``load_record``: raises ``SgfError``) and its tree's nodes in document order (depth first,
    first child first; index 0 is the root). Raises ``ValueError`` past ``max_nodes`` nodes."""
    record = load_record(source, max_bytes=max_bytes)
    size = record.game.size
    nodes: list[TreeNode] = []
    stack: list[tuple[Any, int | None]] = [(record.tree.get_root(), None)]
    while stack:
        node, parent = stack.pop()
        if len(nodes) >= max_nodes:
            raise ValueError(f"the record has more than {max_nodes} nodes")
        nodes.append(_node(node, parent, size))
        index = len(nodes) - 1
        stack.extend((child, index) for child in reversed(list(node)))
    return record, nodes


def dump_tree(nodes: list[TreeNode], *, size: int, komi: float, rules: str,
              info: Mapping[str, str] | None = None) -> str:
    """One SGF game of ``nodes`` (each parent before its children; index 0 is the root) with SZ, KM, RU and the
    game-information properties of ``info`` that SGF knows (``INFO_PROPERTIES``, and RE) on the root."""
    tree = sgf.Sgf_game(size=size)
    root = tree.get_root()
    root.set_raw("AP", f"keima:{package_version()}".encode("ascii"))
    root.set_raw("KM", format_komi(komi).encode("ascii"))
    root.set("RU", rules)
    for ident, value in (info or {}).items():
        if (ident in INFO_PROPERTIES or ident == "RE") and value:
            root.set(ident, value)
    made: list[Any] = []
    for node in nodes:
        out = root if node.parent is None else made[node.parent].new_child()
        made.append(out)
        if node.black or node.white or node.empty:
            out.set_setup_stones([_rc(p, size) for p in node.black], [_rc(p, size) for p in node.white],
                                 [_rc(p, size) for p in node.empty])
        if node.to_move is not None:
            out.set("PL", node.to_move.lower())
        if node.move is not None:
            colour, p = node.move
            out.set_move(colour.lower(), None if p is None else _rc(p, size))
        by_kind: dict[str, set[tuple[int, int]]] = {}
        labels: list[tuple[tuple[int, int], str]] = []
        for p, kind, label in node.marks:
            if kind == "label":
                labels.append((_rc(p, size), label or ""))
            elif kind in _PROPERTY_OF:
                by_kind.setdefault(_PROPERTY_OF[kind], set()).add(_rc(p, size))
        for ident, points in by_kind.items():
            out.set(ident, points)
        if labels:
            out.set("LB", labels)
        if node.comment:
            out.set("C", node.comment)
    return bytes(tree.serialise()).decode("utf-8")
