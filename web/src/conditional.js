// Conditional moves (docs/web-api.md, Conditional moves): the tree the server keeps, a list of nodes
// {if: their move, play: the answer, then: [nodes]}, as the page builds it by clicking on the board
// (components/game/Conditional.jsx) or reads it from typed lines. A place in the tree is a path: the moves
// from the position now, theirs first ("C3", "G7", "E5": after their E5, waiting for the answer). The
// functions here never change a tree: each returns a new one.

/**
 * The tree of the typed lines ("C3 G7 E5 F6"), one chain a line, in the order of the lines (node i of the
 * tree is line i of `lines`: the server merges the lines with a common start and names a refused node by its
 * place, "tree.3.then.0.play", which is line 4). Throws Error(line) for a line with an odd number of moves.
 */
export function chainsOf(text) {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  const tree = lines.map((line) => {
    const moves = line.split(/[\s,;]+/).filter(Boolean).map((m) => m.toUpperCase());
    if (moves.length % 2) throw new Error(line);
    let chain = [];
    for (let i = moves.length - 2; i >= 0; i -= 2) chain = [{ if: moves[i], play: moves[i + 1], then: chain }];
    return chain[0];
  });
  return { tree: tree.filter(Boolean), lines };
}

/** The lines of a tree, one a branch ("C3 G7 E5 F6"): what the text form holds for a stored tree. */
export function linesOf(tree, prefix = []) {
  const out = [];
  for (const n of tree) {
    const here = [...prefix, n.if, ...(n.play ? [n.play] : [])];
    if (n.then?.length) out.push(...linesOf(n.then, here));
    else out.push(here.join(" "));
  }
  return out;
}

const same = (a, b) => String(a).toUpperCase() === String(b).toUpperCase();

/** A deep copy of a tree. */
export function copyTree(tree) {
  return tree.map((n) => ({ if: n.if, play: n.play ?? null, then: copyTree(n.then || []) }));
}

/** The node whose opponent's move ends `path` (odd length) or whose answer ends it (even), or null. */
export function nodeAt(tree, path) {
  let nodes = tree;
  let node = null;
  for (let i = 0; i < path.length; i += 2) {
    node = nodes.find((n) => same(n.if, path[i]));
    if (!node) return null;
    if (i + 1 < path.length && !same(node.play, path[i + 1])) return null;
    nodes = node.then || [];
  }
  return node;
}

/**
 * Click `vertex` at `path`: at an even path, the opponent's move (an existing branch is followed, to its
 * answer when it has one; a new one waits for the answer); at an odd path, the answer to it. Returns
 * {tree, path}, or {error: "two-answers", answer} when the move there already has another answer (a move
 * has one answer: delete the branch to change it).
 */
export function addMove(tree, path, vertex) {
  const out = copyTree(tree);
  if (path.length % 2 === 0) {
    const parent = path.length ? nodeAt(out, path) : null;
    const nodes = parent ? parent.then : out;
    let node = nodes.find((n) => same(n.if, vertex));
    if (!node) {
      node = { if: vertex, play: null, then: [] };
      nodes.push(node);
    }
    return { tree: out, path: node.play ? [...path, node.if, node.play] : [...path, node.if] };
  }
  const node = nodeAt(out, path);
  if (node.play && !same(node.play, vertex)) return { error: "two-answers", answer: node.play };
  node.play = vertex;
  return { tree: out, path: [...path, vertex] };
}

/** The tree without the branch of the opponent's move path[path.length - 1 or -2] (and all under it). */
export function removeAt(tree, path) {
  const at = path.length % 2 ? path.length - 1 : path.length - 2;
  const out = copyTree(tree);
  const parent = at ? nodeAt(out, path.slice(0, at)) : null;
  const nodes = parent ? parent.then : out;
  const i = nodes.findIndex((n) => same(n.if, path[at]));
  if (i >= 0) nodes.splice(i, 1);
  return out;
}

/** The path of the first opponent's move still without an answer, or null. */
export function unanswered(tree, prefix = []) {
  for (const n of tree) {
    if (!n.play) return [...prefix, n.if];
    const below = unanswered(n.then || [], [...prefix, n.if, n.play]);
    if (below) return below;
  }
  return null;
}

/**
 * Where a refusal's field ("tree.0.then.1.play") points in the tree sent: {path, vertex, index} (path: the
 * moves up to and with the refused one; index: the root node, the line of a typed tree), or null.
 */
export function placeOf(tree, field) {
  const parts = String(field || "").split(".");
  if (parts[0] !== "tree" || parts.length < 3) return null;
  let nodes = tree;
  const path = [];
  let node = null;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i];
    if (part === "then") nodes = node?.then || [];
    else if (part === "if" || part === "play") {
      if (!node) return null;
      if (part === "play") path.push(node.if);
      return { path: [...path, node[part]], vertex: node[part], index: Number(parts[1]) };
    } else {
      if (node) path.push(node.if, node.play);
      node = nodes[Number(part)];
      if (!node) return null;
    }
  }
  return node ? { path: [...path, node.if], vertex: node.if, index: Number(parts[1]) } : null;
}
