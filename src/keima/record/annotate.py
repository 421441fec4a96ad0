"""Notes on the main line of a record read by ``load_record``: comments, labels, triangles and other properties
written on the node of each move (a review's analysis, ``keima review``).

The record's tree is kept whole (variations, comments, unknown properties): a note's comment is added below the
node's own ``C``, its labels and triangles join the node's own, and its other properties replace the node's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sgfmill import sgf, sgf_grammar

from keima.record.sgf import SgfRecord
from keima.rules.coords import to_sgf


@dataclass(frozen=True)
class NodeNote:
    """What to write on one node: ``comment`` (text), ``labels`` (board point -> short text, ``LB``),
    ``triangles`` (board points, ``TR``), ``properties`` (SGF identifier -> one text value, e.g. ``SBKV``)."""

    comment: str = ""
    labels: Mapping[int, str] = field(default_factory=dict)
    triangles: tuple[int, ...] = ()
    properties: Mapping[str, str] = field(default_factory=dict)


def annotated_sgf(record: SgfRecord, notes: Mapping[int, NodeNote]) -> str:
    """Return ``record`` as SGF text with ``notes`` written on its main line: key ``n`` is the node of the
    ``n``-th move of ``record.moves`` (0: the node before the first move, where the start position stands).
    Raises ``ValueError`` for a move number the record does not have or a property name that is not SGF's."""
    for note in notes.values():
        for ident in note.properties:
            if not sgf_grammar.is_valid_property_identifier(ident):
                raise ValueError(f"{ident!r} is not an SGF property name")
    tree = sgf.Sgf_game.from_bytes(record.tree.serialise())
    nodes = tree.get_main_sequence()
    size = record.game.size
    for n, note in sorted(notes.items()):
        if not 0 <= n <= len(record.moves):
            raise ValueError(f"the record has no move {n} (it has {len(record.moves)})")
        depth = record.move_depths[n - 1] if n else max(record.start_depth, 0)
        node = nodes[min(depth, len(nodes) - 1)]
        _write(node, note, size)
    text: bytes = tree.serialise()
    return text.decode("utf-8")


def _write(node: sgf.Tree_node, note: NodeNote, size: int) -> None:
    if note.comment:
        old = node.get("C") if node.has_property("C") else ""
        node.set("C", f"{old}\n\n{note.comment}" if old else note.comment)
    if note.labels:
        old_labels = node.get_raw_list("LB") if node.has_property("LB") else []
        taken = {raw.split(b":", 1)[0] for raw in old_labels}
        values = list(old_labels)
        for point, text in note.labels.items():
            where = to_sgf(point, size).encode()
            if where not in taken:
                values.append(where + b":" + sgf_grammar.escape_text(text.encode("utf-8")))
        node.set_raw_list("LB", values)
    if note.triangles:
        old_tr = node.get_raw_list("TR") if node.has_property("TR") else []
        new = [to_sgf(p, size).encode() for p in note.triangles]
        node.set_raw_list("TR", list(dict.fromkeys([*old_tr, *new])))
    for ident, value in note.properties.items():
        node.set_raw(ident, sgf_grammar.escape_text(value.encode("utf-8")))
