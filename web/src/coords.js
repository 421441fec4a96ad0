// Point conventions shared with the server (docs/api.md): a point is
// row * size + col, row 0 at the top, col 0 at the left; GTP letters skip "I".
export const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/** GTP name ("D4") of the vertex [x, y] (x = column, y = row from the top). */
export function vertexToGtp([x, y], size) {
  return `${LETTERS[x]}${size - y}`;
}

/** [x, y] of a GTP name, or null for "pass" or anything unreadable. */
export function gtpToVertex(name, size) {
  if (typeof name !== "string") return null;
  const m = /^([A-HJ-Za-hj-z])(\d{1,2})$/.exec(name.trim());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1].toUpperCase());
  const y = size - Number(m[2]);
  if (x < 0 || x >= size || y < 0 || y >= size) return null;
  return [x, y];
}

/** [x, y] of an integer point. */
export function pointToVertex(p, size) {
  return [p % size, Math.floor(p / size)];
}

/** Accepts a GTP name, an integer point or an [x, y] pair; returns [x, y] or null (pass). */
export function anyToVertex(move, size) {
  if (move === null || move === undefined) return null;
  if (Array.isArray(move)) return move;
  if (typeof move === "number") return pointToVertex(move, size);
  if (typeof move === "object" && "x" in move) return [move.x, move.y];
  return gtpToVertex(move, size);
}
