// Demo boards (docs/teaching.md): the API calls, and the board of any node drawn from the tree the server
// sent. The server's referee played every move and said what it captured (node.captured): this module only
// puts the stones the tree names and lifts the captured ones, it never judges a move.
import { request } from "./api.js";
import { gtpToVertex, vertexToGtp } from "./coords.js";

const enc = encodeURIComponent;

export const boardsApi = {
  /** The live public boards, or (`club`: its slug) the live boards of a club, for its members. */
  list: (club = null) => request("GET", club ? `api/boards?club=${enc(club)}` : "api/boards"),
  create: (body) => request("POST", "api/boards", body),
  get: (id) => request("GET", `api/boards/${enc(id)}`),
  op: (id, version, op) => request("POST", `api/boards/${enc(id)}/ops`, { version, op }),
  answer: (id, point) => request("POST", `api/boards/${enc(id)}/answer`, { point }),
  chat: (id, text) => request("POST", `api/boards/${enc(id)}/chat`, { text }),
  propose: (id, parent, moves) => request("POST", `api/boards/${enc(id)}/proposals`, { parent, moves }),
  /** The referee's verdict on one more move of a draft line (POST /api/positions/play). */
  tryMove: (body) => request("POST", "api/positions/play", body),
  sgfPath: (id) => `api/boards/${enc(id)}/sgf`,
};

/** The point index of a GTP vertex on a size x size board (null for a pass). */
export function pointOf(vertex, size) {
  const v = gtpToVertex(vertex, size);
  return v ? v[1] * size + v[0] : null;
}

/** The node ids from the root to `id`. */
export function pathTo(nodes, id) {
  const out = [];
  for (let at = id; at != null; at = nodes[at]?.parent) out.push(at);
  return out.reverse();
}

/**
 * The position at node `id`: colors (flat array, 0 empty, 1 black, 2 white), prisoners {B, W} (stones each
 * side captured), the last move ([x, y] or null), who plays next ("B" or "W") and the move number.
 */
export function positionAt(tree, id) {
  const { size, nodes } = tree;
  const colors = new Array(size * size).fill(0);
  const prisoners = { B: 0, W: 0 };
  let last = null;
  let toMove = "B";
  let number = 0;
  for (const nid of pathTo(nodes, id)) {
    const n = nodes[nid];
    if (n.setup) {
      for (const [key, c] of [["black", 1], ["white", 2], ["empty", 0]]) {
        for (const v of n.setup[key] || []) colors[pointOf(v, size)] = c;
      }
      if (n.setup.to_move) toMove = n.setup.to_move;
      last = null;
    }
    if (n.move) {
      number += 1;
      const p = pointOf(n.move.vertex, size);
      if (p != null) colors[p] = n.move.color === "B" ? 1 : 2;
      for (const v of n.captured || []) colors[pointOf(v, size)] = 0;
      prisoners[n.move.color] += (n.captured || []).length;
      last = p == null ? null : [p % size, Math.floor(p / size)];
      toMove = n.move.color === "B" ? "W" : "B";
    }
  }
  return { colors, prisoners, last, toMove, number };
}

const SHUDAN = { triangle: "triangle", square: "square", circle: "circle", cross: "cross" };

/** A node's marks as the Board component draws them (point -> {type, label}). */
export function marksOf(tree, id) {
  const out = new Map();
  for (const m of tree.nodes[id]?.marks || []) {
    const p = pointOf(m.point, tree.size);
    out.set(p, SHUDAN[m.kind] ? { type: SHUDAN[m.kind] } : { type: "label", label: m.label });
  }
  return out;
}

/** The board after one delta's op (a new object; the tree's nodes copied where they change). */
export function applyOp(board, op) {
  const b = { ...board, tree: { ...board.tree, nodes: board.tree.nodes.slice() } };
  const nodes = b.tree.nodes;
  const touch = (id) => (nodes[id] = { ...nodes[id] });
  switch (op.type) {
    case "node": {
      const { type: _t, ...node } = op;
      nodes[op.id] = { ...node, children: [] };
      touch(op.parent).children = [...nodes[op.parent].children, op.id];
      b.cursor = op.id;
      b.revealed = null; // the answers shown stay until the presenter moves on
      break;
    }
    case "select":
      b.cursor = op.node;
      b.revealed = null;
      break;
    case "delete": {
      const gone = nodes[op.node];
      touch(gone.parent).children = nodes[gone.parent].children.filter((c) => c !== op.node);
      const stack = [op.node];
      while (stack.length) {
        const id = stack.pop();
        nodes[id] = { ...nodes[id], deleted: true };
        stack.push(...nodes[id].children);
      }
      b.cursor = op.cursor;
      break;
    }
    case "variation": {
      for (const n of op.nodes) {
        nodes[n.id] = { ...n, children: [] };
        touch(n.parent).children = [...nodes[n.parent].children, n.id];
      }
      b.cursor = op.nodes[op.nodes.length - 1].id;
      b.proposals = (b.proposals || []).filter((p) => p.id !== op.proposal);
      b.revealed = null;
      break;
    }
    case "mark": {
      const n = touch(op.node);
      const kept = (n.marks || []).filter((m) => m.point !== op.point);
      n.marks = op.kind === "none" ? kept : [...kept, { point: op.point, kind: op.kind, ...(op.label ? { label: op.label } : {}) }];
      break;
    }
    case "comment":
      touch(op.node).comment = op.text;
      break;
    case "control":
      b.controllers = op.controllers;
      b.you = { ...b.you, control: b.you?.owner || op.controllers.some((c) => c.id === b.you?.id) };
      break;
    case "question":
      b.question = { node: op.node };
      b.cursor = op.node;
      b.you = { ...b.you, answer: null };
      break;
    case "answers":
      b.question = null;
      b.revealed = op.counts;
      break;
    case "chat":
      b.chat = [...(b.chat || []), { name: op.name, text: op.text }].slice(-100);
      break;
    default:
      break;
  }
  return b;
}

/** The body asking the referee about `attempt` after a draft's `moves` from the position `pos` (positionAt). */
export function draftBody(tree, pos, moves, attempt) {
  const black = [];
  const white = [];
  const { size } = tree;
  pos.colors.forEach((c, p) => {
    const v = vertexToGtp([p % size, Math.floor(p / size)], size);
    if (c === 1) black.push(v);
    else if (c === 2) white.push(v);
  });
  return { size, rules: tree.rules, komi: tree.komi, black, white, to_move: pos.toMove, moves, attempt };
}

/** The heat map of answers for Shudan (rows of {strength 0..9, text}), or null without answers. */
export function heatOf(counts, size) {
  const entries = Object.entries(counts || {});
  if (!entries.length) return null;
  const most = Math.max(...entries.map(([, n]) => n));
  const map = Array.from({ length: size }, () => new Array(size).fill(null));
  for (const [v, n] of entries) {
    const p = pointOf(v, size);
    if (p == null) continue;
    map[Math.floor(p / size)][p % size] = { strength: Math.max(1, Math.round((9 * n) / most)), text: String(n) };
  }
  return map;
}
