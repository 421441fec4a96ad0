// Correspondence clocks on the page (src/time.js): days shown as "2 d 5 h", and a paused clock
// (its player's weekend or vacation, docs/web-api.md `paused`) that no page counts down.
import { test } from "node:test";
import assert from "node:assert/strict";
import { linesOf, treeOf } from "../src/conditional.js";
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

test("conditional lines make a tree, and a tree reads back as its lines", () => {
  const tree = treeOf("c3 g7 e5 f6\nC3 G7 D6 E6\nG3 C7");
  assert.deepEqual(linesOf(tree), ["C3 G7 E5 F6", "C3 G7 D6 E6", "G3 C7"]);
});

test("a line with a move and no answer is refused", () => {
  assert.throws(() => treeOf("C3 G7 E5"), /C3 G7 E5/);
  assert.deepEqual(treeOf("c3 g7")[0], { if: "C3", play: "G7", then: [] });
});
