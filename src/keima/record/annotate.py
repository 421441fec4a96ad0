"""Notes on the main line of a record read by ``load_record``: comments, labels and other properties written on the
node of each move, and lines added as variations (a review's analysis, ``keima review``).

The record's tree is kept whole (variations, comments, unknown properties): a note's comment is added below the
node's own ``C``, its labels join the node's own, its other properties replace the node's. What an earlier
annotation wrote is taken out first, so that a record annotated twice carries one analysis: the comment from the
line ``MARK`` on, the labels listed in the private property ``KMLB``, and the variations whose first node's
comment starts with ``MARK``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sgfmill import sgf, sgf_grammar

from keima.record.sgf import SgfRecord
from keima.rules.board import BLACK
from keima.rules.coords import to_sgf

#: The first line of every comment an annotation writes: how the next annotation finds what to replace.
MARK = "keima review:"
#: The private property that lists the points of the labels an annotation wrote (its own, to take out again).
OWN_LABELS = "KMLB"


@dataclass(frozen=True)
class NodeNote:
    """What to write on one node: ``comment`` (text), ``labels`` (board point -> short text, ``LB``),
    ``triangles`` (board points, ``TR``), ``properties`` (SGF identifier -> one text value, e.g. ``SBKV``)."""

    comment: str = ""
    labels: Mapping[int, str] = field(default_factory=dict)
    triangles: tuple[int, ...] = ()
    properties: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Variation:
    """A line to add as a variation: it branches from the node of move ``after`` (0: the node where the start
    position stands), beside the main line's next move; ``moves`` (colour, point; None: a pass) in order;
    ``comment`` on its first node."""

    after: int
    moves: tuple[tuple[int, int | None], ...]
    comment: str


def annotated_sgf(record: SgfRecord, notes: Mapping[int, NodeNote], variations: Iterable[Variation] = ()) -> str:
    """Return ``record`` as SGF text with ``notes`` written on its main line and ``variations`` added: key ``n``
    is the node of the ``n``-th move of ``record.moves`` (0: the node before the first move, where the start
    position stands). An earlier annotation's notes and variations are taken out first (the module docstring).
    Raises ``ValueError`` for a move number the record does not have or a property name that is not SGF's."""
    for note in notes.values():
        for ident in note.properties:
            if not sgf_grammar.is_valid_property_identifier(ident):
                raise ValueError(f"{ident!r} is not an SGF property name")
    tree = sgf.Sgf_game.from_bytes(record.tree.serialise())
    nodes = tree.get_main_sequence()
    for node in nodes:
        _clear(node, notes)
    size = record.game.size

    def node_of(n: int) -> sgf.Tree_node:
        if not 0 <= n <= len(record.moves):
            raise ValueError(f"the record has no move {n} (it has {len(record.moves)})")
        depth = record.move_depths[n - 1] if n else max(record.start_depth, 0)
        return nodes[min(depth, len(nodes) - 1)]

    for n, note in sorted(notes.items()):
        _write(node_of(n), note, size)
    for line in variations:
        parent = node_of(line.after)
        for i, (color, point) in enumerate(line.moves):
            parent = parent.new_child()
            parent.set_raw("B" if color == BLACK else "W", b"" if point is None else to_sgf(point, size).encode())
            if i == 0:
                parent.set("C", f"{MARK}\n{line.comment}")
    text: bytes = tree.serialise()
    return text.decode("utf-8")


def _clear(node: sgf.Tree_node, notes: Mapping[int, NodeNote]) -> None:
    """Take out of ``node`` what an earlier annotation wrote there: its comment, its labels, its variations, and
    the properties ``notes`` write again."""
    if node.has_property("C"):
        text = node.get("C")
        at = text.find(MARK)
        if at >= 0 and (at == 0 or text[at - 1] == "\n"):
            kept = text[:at].rstrip("\n")
            if kept:
                node.set("C", kept)
            else:
                node.unset("C")
    if node.has_property(OWN_LABELS):
        ours = set(node.get_raw_list(OWN_LABELS))
        node.unset(OWN_LABELS)
        if node.has_property("LB"):
            kept_labels = [raw for raw in node.get_raw_list("LB") if raw.split(b":", 1)[0] not in ours]
            if kept_labels:
                node.set_raw_list("LB", kept_labels)
            else:
                node.unset("LB")
    for ident in {i for note in notes.values() for i in note.properties}:
        if node.has_property(ident):
            node.unset(ident)
    for child in list(node)[1:]:
        if child.has_property("C") and child.get("C").startswith(MARK):
            child.delete()


def _write(node: sgf.Tree_node, note: NodeNote, size: int) -> None:
    if note.comment:
        old = node.get("C") if node.has_property("C") else ""
        mine = f"{MARK}\n{note.comment}"
        node.set("C", f"{old}\n\n{mine}" if old else mine)
    if note.labels:
        old_labels = node.get_raw_list("LB") if node.has_property("LB") else []
        taken = {raw.split(b":", 1)[0] for raw in old_labels}
        values = list(old_labels)
        added: list[bytes] = []
        for point, text in note.labels.items():
            where = to_sgf(point, size).encode()
            if where not in taken:
                values.append(where + b":" + sgf_grammar.escape_text(text.encode("utf-8")))
                added.append(where)
        node.set_raw_list("LB", values)
        if added:
            node.set_raw_list(OWN_LABELS, added)
    if note.triangles:
        old_tr = node.get_raw_list("TR") if node.has_property("TR") else []
        new = [to_sgf(p, size).encode() for p in note.triangles]
        node.set_raw_list("TR", list(dict.fromkeys([*old_tr, *new])))
    for ident, value in note.properties.items():
        node.set_raw(ident, sgf_grammar.escape_text(value.encode("utf-8")))
