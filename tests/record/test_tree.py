"""A whole SGF tree as plain data (keima.record.tree): read with its variations, marks and comments, and written
back the same (issue 45: the demo board's SGF)."""

from __future__ import annotations

from keima.record import dump_tree, read_tree

TEXT = "(;GM[1]FF[4]SZ[9]KM[7]AB[cc]PL[W]C[hi];W[ee]TR[ff][gg]SQ[aa]CR[bb]MA[hh]LB[dd:A](;B[ec]C[main])(;B[]))"


def test_a_tree_reads_and_writes_back_the_same() -> None:
    record, nodes = read_tree(TEXT)
    assert record.game.size == 9 and len(nodes) == 4
    assert nodes[0].black == [20] and nodes[0].to_move == "W" and nodes[0].comment == "hi"
    assert nodes[1].move == ("W", 40) and nodes[3].move == ("B", None) and nodes[3].parent == 1
    assert sorted(k for _, k, _ in nodes[1].marks) == ["circle", "cross", "label", "square", "triangle", "triangle"]
    text = dump_tree(nodes, size=9, komi=7.0, rules="french", info={"EV": "Cup", "RE": "B+R", "XX": "no"})
    again, back = read_tree(text)
    assert [(n.parent, n.move, n.black, n.to_move, sorted(n.marks), n.comment) for n in back] == \
        [(n.parent, n.move, n.black, n.to_move, sorted(n.marks), n.comment) for n in nodes]
    assert again.info["EV"] == "Cup" and again.result_text == "B+R" and "XX" not in text
