// A game's result in words, from the messages of one language's table.

/** Readable result from an SGF RE string ("B+5.5", "W+R", "0", "Void") in the words of the table `m`. */
export function resultIn(re, m) {
  if (!re) return "";
  if (re === "0" || re === "Draw" || re === "Jigo") return m.resultDraw;
  if (re === "Void" || re === "?") return m.resultVoid;
  const match = /^([BW])\+(.*)$/.exec(re);
  if (!match) return re;
  const winner = match[1] === "B" ? m.black : m.white;
  const how = match[2];
  if (how === "R" || how === "Resign") return m.resultResign(winner);
  if (how === "T" || how === "Time") return m.resultTime(winner);
  if (how === "F" || how === "Forfeit") return m.resultForfeit(winner);
  const n = Number(how);
  if (!Number.isNaN(n)) return m.resultPoints(winner, n);
  return re;
}
