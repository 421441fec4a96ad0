// The chain of stones through one point, for showing a marking the player has not sent yet (the
// server still decides what a toggle does: this only draws the crosses the page expects).

/**
 * The points (row-major numbers) of the chain of stones at `point` on `board` (0 empty, 1 black,
 * 2 white; size x size): the stones of the same colour connected to it along the lines; [] for
 * an empty point.
 */
export function chainAt(board, size, point) {
  const color = board[point];
  if (!color) return [];
  const seen = new Set([point]);
  const todo = [point];
  while (todo.length) {
    const p = todo.pop();
    const x = p % size;
    const y = (p - x) / size;
    const next = [];
    if (x > 0) next.push(p - 1);
    if (x < size - 1) next.push(p + 1);
    if (y > 0) next.push(p - size);
    if (y < size - 1) next.push(p + size);
    for (const q of next) {
      if (board[q] === color && !seen.has(q)) {
        seen.add(q);
        todo.push(q);
      }
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/**
 * The marking `dead` (points) after toggling, in order, the chains at each of `points`: a chain
 * marked dead comes back alive, a live one is marked dead (as the server's toggle_dead does).
 */
export function toggledMarking(board, size, dead, points) {
  const marked = new Set(dead);
  for (const point of points) {
    const chain = chainAt(board, size, point);
    const wasDead = chain.some((p) => marked.has(p));
    for (const p of chain) {
      if (wasDead) marked.delete(p);
      else marked.add(p);
    }
  }
  return [...marked].sort((a, b) => a - b);
}
