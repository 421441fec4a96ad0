"""Notes written on a record's main line (``keima.record.annotate``): added to what the nodes hold, never in place
of it, and refused for a move the record does not have."""

from __future__ import annotations

import pytest
from sgfmill import sgf

from keima.record import load_record
from keima.record.annotate import NodeNote, Variation, annotated_sgf
from keima.rules import from_gtp

RECORD = "(;GM[1]FF[4]SZ[9]C[root]AB[aa];B[ee]C[mine]LB[cc:X]TR[dd];W[cc](;B[gg])(;B[aa]))"


def test_notes_join_what_the_nodes_hold() -> None:
    record = load_record(RECORD)
    notes = {
        0: NodeNote(comment="start", properties={"SBKV": "50.00"}),
        1: NodeNote(comment="note", labels={from_gtp("C7", 9): "A", from_gtp("G3", 9): "B"},
                    triangles=(from_gtp("D6", 9), from_gtp("E4", 9)), properties={"SBKV": "61.25", "SBKS": "-2.50"}),
        3: NodeNote(comment="last"),
    }
    game = sgf.Sgf_game.from_bytes(annotated_sgf(record, notes).encode())
    root, first, second, third = game.get_main_sequence()
    assert root.get("C") == "root\n\nkeima review:\nstart" and root.get_raw("SBKV") == b"50.00"
    assert first.get("C") == "mine\n\nkeima review:\nnote"
    # C7 was labelled X by the record: its label stays; G3 gets B. D6's triangle is not doubled.
    assert sorted(first.get("LB")) == sorted([((6, 2), "X"), ((2, 6), "B")])
    assert sorted(first.get("TR")) == sorted([(5, 3), (3, 4)])
    assert (first.get_raw("SBKV"), first.get_raw("SBKS")) == (b"61.25", b"-2.50")
    assert not second.has_property("C")
    assert third.get("C") == "keima review:\nlast" and third.get_move() == ("b", (2, 6))
    assert len(game.get_main_sequence()[2]) == 2  # the variation stays


def test_bad_notes_are_refused() -> None:
    record = load_record(RECORD)
    with pytest.raises(ValueError, match="no move 4"):
        annotated_sgf(record, {4: NodeNote(comment="x")})
    with pytest.raises(ValueError, match="not an SGF property name"):
        annotated_sgf(record, {1: NodeNote(properties={"sbkv": "1"})})


def test_variations_are_added_and_an_annotation_made_again_replaces_the_first() -> None:
    """A line branches beside the main line's next move, its comment on its first node; annotating the annotated
    record again takes out the first annotation's comments, labels (the record's own stay), properties and
    lines: one analysis, never two."""
    record = load_record(RECORD)
    c3, g3, d4 = from_gtp("C3", 9), from_gtp("G3", 9), from_gtp("D4", 9)
    notes = {1: NodeNote(comment="note", labels={from_gtp("C7", 9): "A", c3: "B"}, properties={"SBKV": "61.25"})}
    line = Variation(1, ((2, g3), (1, None), (2, d4)), "better: G3")
    once = annotated_sgf(record, notes, [line])
    game = sgf.Sgf_game.from_bytes(once.encode())
    first = game.get_main_sequence()[1]
    assert len(first) == 2
    better = list(first)[1]
    assert better.get("C") == "keima review:\nbetter: G3" and better.get_move() == ("w", (2, 6))
    assert [n.get_move() for n in (better[0], better[0][0])] == [("b", None), ("w", (3, 3))]
    twice = annotated_sgf(load_record(once), notes, [line])
    assert twice == once
    # Annotated again with nothing: the record as it was (its own comment, label and triangle).
    bare = sgf.Sgf_game.from_bytes(annotated_sgf(load_record(once), {}).encode())
    node = bare.get_main_sequence()[1]
    assert node.get("C") == "mine" and node.get("LB") == [((6, 2), "X")] and len(node) == 1
    assert node.has_property("SBKV") and not node.has_property("KMLB")
    assert load_record(twice).moves == record.moves
