// Correspondence clocks on the page (src/time.js): days shown as "2 d 5 h", and a paused clock
// (its player's weekend or vacation, docs/web-api.md `paused`) that no page counts down.
import { test } from "node:test";
import assert from "node:assert/strict";
import { addMove, chainsOf, linesOf, placeOf, removeAt, unanswered } from "../src/conditional.js";
import { formatSeconds, pausedAt, sideAt, summaryClockText } from "../src/time.js";

const D = 86400;
const H = 3600;
const SIMPLE = { type: "simple", per_move: 2 * D, weekend_pause: true };

test("a day or more reads in days and hours, less as before", () => {
  const table = [
    [2 * D + 5 * H + 59 * 60, "2\u00a0d 5\u00a0h"],
    [3 * D, "3\u00a0d"],
    [D, "1\u00a0d"],
    [D - 1, "23:59:59"],
    [90, "1:30"],
  ];
  for (const [seconds, words] of table) assert.equal(formatSeconds(seconds), words, String(seconds));
});

test("a paused side stands still, a running one stops where its pause begins", () => {
  const reading = { spec: SIMPLE, running: "W", at: 1000, B: { main: 2 * D }, W: { main: D } };
  // [paused, pauses_at, seconds after the reading, W's main time shown]
  const table = [
    [null, null, H, D - H],
    [{ B: null, W: "weekend" }, null, 10 * H, D],
    [{ B: null, W: "vacation" }, null, 10 * H, D],
    [{ B: null, W: null }, 1000 + 2 * H, 10 * H, D - 2 * H],
    [{ B: null, W: null }, 1000 + 2 * H, H, D - H],
  ];
  for (const [paused, pausesAt, after, main] of table) {
    const clock = { ...reading, paused, pauses_at: pausesAt };
    assert.equal(sideAt(clock, "W", 1000 + after).main, main, JSON.stringify([paused, pausesAt, after]));
    assert.equal(sideAt(clock, "B", 1000 + after).main, 2 * D); // never Black's: not running
  }
});

test("the lists do not count down a paused side either", () => {
  const g = { clock: SIMPLE, time_left: { B: 2 * D, W: D + 5 * H }, time_at: 0, running: "W", status: "live" };
  assert.equal(summaryClockText(g, "W", 3 * H, 0), "1\u00a0d 2\u00a0h");
  assert.equal(summaryClockText({ ...g, paused: { B: null, W: "weekend" } }, "W", 3 * H, 0), "1\u00a0d 5\u00a0h");
});

test("a weekend that ends counts from its end, and says no more that it is paused", () => {
  const clock = {
    spec: SIMPLE, running: "W", at: 1000, B: { main: 2 * D }, W: { main: D },
    paused: { B: null, W: "weekend" }, resumes_at: 1000 + 5 * H,
  };
  assert.equal(sideAt(clock, "W", 1000 + 4 * H).main, D);
  assert.equal(pausedAt(clock, "W", 1000 + 4 * H), "weekend");
  assert.equal(sideAt(clock, "W", 1000 + 7 * H).main, D - 2 * H);
  assert.equal(pausedAt(clock, "W", 1000 + 7 * H), null);
  assert.equal(pausedAt({ ...clock, running: "B", paused: { B: null, W: "vacation" } }, "W", 1000 + 7 * H), "vacation");
});

test("typed lines are one chain a line, in their order, and a tree reads back as its lines", () => {
  const { tree, lines } = chainsOf("c3 g7 e5 f6\n\nC3 G7 D6 E6\nG3 C7");
  assert.deepEqual(lines, ["c3 g7 e5 f6", "C3 G7 D6 E6", "G3 C7"]);
  assert.equal(tree.length, 3); // the server merges the common start, and names a refused line by its index
  assert.deepEqual(tree[0], { if: "C3", play: "G7", then: [{ if: "E5", play: "F6", then: [] }] });
  assert.deepEqual(linesOf(tree), ["C3 G7 E5 F6", "C3 G7 D6 E6", "G3 C7"]);
});

test("a line with a move and no answer is refused", () => {
  assert.throws(() => chainsOf("C3 G7 E5"), /C3 G7 E5/);
  assert.deepEqual(chainsOf("c3 g7").tree[0], { if: "C3", play: "G7", then: [] });
});

test("clicks build a tree: their move, the answer, and a branch from going back", () => {
  let tree = [];
  let path = [];
  for (const v of ["C3", "G7", "E5", "F6"]) ({ tree, path } = addMove(tree, path, v));
  assert.deepEqual(path, ["C3", "G7", "E5", "F6"]);
  ({ tree, path } = addMove(tree, ["C3", "G7"], "D6")); // back two moves, another move of theirs
  assert.deepEqual(path, ["C3", "G7", "D6"]);
  assert.deepEqual(unanswered(tree), ["C3", "G7", "D6"]); // waiting for the answer
  ({ tree, path } = addMove(tree, path, "E6"));
  assert.equal(unanswered(tree), null);
  assert.deepEqual(linesOf(tree), ["C3 G7 E5 F6", "C3 G7 D6 E6"]);
  // Their move again follows the branch to its answer; another answer to it is refused.
  assert.deepEqual(addMove(tree, [], "c3").path, ["C3", "G7"]);
  assert.deepEqual(addMove(tree, ["C3"], "H7"), { error: "two-answers", answer: "G7" });
  assert.deepEqual(linesOf(removeAt(tree, ["C3", "G7", "E5"])), ["C3 G7 D6 E6"]);
  assert.deepEqual(removeAt(tree, ["C3", "G7"]), []);
});

test("a refusal's field points at its line and move", () => {
  const tree = [{ if: "C3", play: "G7", then: [{ if: "E5", play: "F6", then: [] }] }, { if: "G3", play: "C7", then: [] }];
  assert.deepEqual(placeOf(tree, "tree.0.then.0.play"), { path: ["C3", "G7", "E5", "F6"], vertex: "F6", index: 0 });
  assert.deepEqual(placeOf(tree, "tree.1.if"), { path: ["G3"], vertex: "G3", index: 1 });
  assert.equal(placeOf(tree, "tree"), null);
  assert.equal(placeOf(tree, "tree.5.if"), null);
});
