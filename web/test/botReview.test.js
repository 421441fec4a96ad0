// What the review page draws from the bot's review (src/botReview.js): the mistakes, the graphs' points,
// the candidates at a position and their marks on the board.
import { test } from "node:test";
import assert from "node:assert/strict";
import { candidateMarks, candidatesAt, candidatesOf, graphPoints, mistakes, secondsLeft } from "../src/botReview.js";

const cand = (move, winrate, visits) => ({ move, winrate, visits, pv: [move] });
// A 9x9 review: Black's move 1 (G3) lost 12 points against F6; White's move 2 was the bot's choice.
const MOVES = [
  { n: 0, color: null, played: null, winrate: 0.6, score: 5, loss: null, best: [] },
  { n: 1, color: "B", played: "G3", winrate: 0.2, score: -7, loss: 12, best: [cand("F6", 0.6, 300), cand("A5", 0.5, 20)] },
  { n: 2, color: "W", played: "F6", winrate: 0.25, score: -8, loss: 0, best: [cand("F6", 0.2, 250), cand("G5", 0.3, 9)] },
  { n: 3, color: "B", played: "C3", winrate: 0.2, score: -9.5, loss: 1.5, best: [cand("E2", 0.25, 100)] },
];

test("mistakes: the moves that lost 2 points or more, largest first", () => {
  assert.deepEqual(mistakes(MOVES).map((m) => m.n), [1]);
  assert.deepEqual(mistakes([...MOVES, { ...MOVES[3], n: 4, loss: 20 }]).map((m) => m.n), [4, 1]);
});

test("graph points: Black's win rate in percent and Black's lead, by move number", () => {
  const { winrate, score } = graphPoints(MOVES);
  assert.deepEqual(winrate.map((p) => [p.x, p.y]), [[0, 60], [1, 20], [2, 25], [3, 20]]);
  assert.deepEqual(score.map((p) => p.y), [5, -7, -8, -9.5]);
});

test("candidates: the next move's best moves with the mover's win rate, and the move played", () => {
  const atStart = candidatesAt(MOVES, 0);
  assert.equal(atStart.color, "B");
  assert.deepEqual(atStart.best.map((c) => [c.letter, c.move, c.mine, c.played]), [["A", "F6", 60, false], ["B", "A5", 50, false]]);
  assert.equal(atStart.playedAmong, false);
  const white = candidatesAt(MOVES, 1);
  assert.deepEqual(white.best.map((c) => c.mine), [80, 70]); // White's win rate: 1 - Black's
  assert.equal(white.playedAmong, true);
  assert.equal(candidatesAt(MOVES, 3), null); // the review says nothing after the last move
});

test("board marks: candidates labelled with their win rate, the move played elsewhere with a triangle", () => {
  const words = { candidate: (c) => `choice ${c.letter}`, played: "played" };
  const marks = candidateMarks(candidatesAt(MOVES, 0), 9, words);
  const at = (v) => marks.get((9 - Number(v.slice(1))) * 9 + "ABCDEFGHJ".indexOf(v[0]));
  assert.deepEqual(at("F6"), { type: "label", label: "60", spoken: "choice A" });
  assert.deepEqual(at("G3"), { type: "triangle", spoken: "played" });
  assert.equal(marks.size, 3);
  assert.equal(candidateMarks(null, 9, words).size, 0);
});

test("off the main line there are no review candidates: never the start position's", () => {
  assert.equal(candidatesAt(MOVES, null), null);
  assert.equal(candidatesAt(MOVES, undefined), null);
  // A node's own analysis: the side to move there, its win rate in percent.
  const own = candidatesOf("W", [cand("E2", 0.3, 100)]);
  assert.equal(own.color, "W");
  assert.deepEqual(own.best.map((c) => [c.letter, c.mine, c.played]), [["A", 70, false]]);
});

test("time left: from the searches seen done, else the seconds a search usually takes", () => {
  const running = { status: "running", seconds: 30, search_seconds: 1, progress: { done: 10, total: 70 } };
  assert.equal(secondsLeft(running, null, 0), 60); // search_seconds, not the cap
  assert.equal(secondsLeft({ ...running, search_seconds: undefined }, null, 0), 1800); // a server before it
  assert.equal(secondsLeft(running, { done: 4, at: 1000 }, 13000), 120); // 2 s a search here
  assert.equal(secondsLeft({ ...running, status: "done" }, null, 0), null);
  assert.equal(secondsLeft(null, null, 0), null);
});
