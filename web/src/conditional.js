// Conditional moves as the page writes them (components/game/Conditional.jsx): one sequence a line, their move
// then the answer, and the tree the server keeps (docs/web-api.md, Conditional moves).

/** The tree of the lines ("C3 G7 E5 F6"), or throws Error(line) for a line with an odd number of moves. */
export function treeOf(text) {
  const root = [];
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const moves = line.split(/[\s,;]+/).filter(Boolean).map((m) => m.toUpperCase());
    if (moves.length % 2) throw new Error(line);
    let nodes = root;
    for (let i = 0; i < moves.length; i += 2) {
      let node = nodes.find((n) => n.if === moves[i]);
      if (!node) {
        node = { if: moves[i], play: moves[i + 1], then: [] };
        nodes.push(node);
      }
      nodes = node.then;
    }
  }
  return root;
}

/** The lines of a tree, one a branch ("C3 G7 E5 F6"): what the editor holds for a stored tree. */
export function linesOf(tree, prefix = []) {
  const out = [];
  for (const n of tree) {
    const here = [...prefix, n.if, n.play];
    if (n.then?.length) out.push(...linesOf(n.then, here));
    else out.push(here.join(" "));
  }
  return out;
}
