// Positions for reviewing a finished or running game move by move. The server
// sends only the current board and the move list, so earlier boards are
// rebuilt here by placing stones and removing chains left without liberties.
// This is display only: the server alone decides legality and scores.

function neighbours(p, size) {
  const x = p % size;
  const y = Math.floor(p / size);
  const out = [];
  if (x > 0) out.push(p - 1);
  if (x < size - 1) out.push(p + 1);
  if (y > 0) out.push(p - size);
  if (y < size - 1) out.push(p + size);
  return out;
}

function chainWithoutLiberty(board, start, size) {
  const color = board[start];
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length) {
    const p = stack.pop();
    for (const q of neighbours(p, size)) {
      if (board[q] === 0) return null;
      if (board[q] === color && !seen.has(q)) {
        seen.add(q);
        stack.push(q);
      }
    }
  }
  return seen;
}

/** Board (flat array) after the first n entries of moves, starting from the handicap stones. */
export function positionAfter(size, handicapStones, moves, n) {
  const board = new Array(size * size).fill(0);
  for (const p of handicapStones || []) board[p] = 1;
  for (const move of moves.slice(0, n)) {
    const p = move.point;
    if (p === null || p === undefined) continue;
    const color = move.color === "W" ? 2 : 1;
    board[p] = color;
    for (const q of neighbours(p, size)) {
      if (board[q] === 3 - color) {
        const dead = chainWithoutLiberty(board, q, size);
        if (dead) for (const d of dead) board[d] = 0;
      }
    }
    const own = chainWithoutLiberty(board, p, size);
    if (own) for (const d of own) board[d] = 0; // multi-stone suicide, where the rules allow it
  }
  return board;
}
