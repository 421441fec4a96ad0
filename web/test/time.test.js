// The clocks of the lobby's lists (src/time.js): a summary's seconds left, rebuilt into the
// game page's words and counted down from the server's time of the reading.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, runDown, sideFromTotal, summaryClockText } from "../src/time.js";

const BYO = { type: "byoyomi", main: 600, period: 30, periods: 3 };
const CANADIAN = { type: "canadian", main: 600, period: 300, stones: 25 };

test("the seconds left are main time first, then the periods one after the other", () => {
  // [spec, seconds left, words]
  const table = [
    [BYO, 690, "10:00 + 3 × 0:30"],
    [BYO, 91, "0:01 + 3 × 0:30"],
    [BYO, 90, "3 × 0:30"],
    [BYO, 75, "3 × 0:15"],
    [BYO, 31, "2 × 0:01"],
    [BYO, 30, "1 × 0:30"],
    [BYO, 0, "0:00"],
    [CANADIAN, 900, "10:00 + 25 stones in 5:00"],
    [CANADIAN, 120, "2:00"],
    [{ type: "absolute", main: 600 }, 599.2, "10:00"],
    [{ type: "fischer", main: 300, increment: 5 }, 61, "1:01"],
  ];
  for (const [spec, left, words] of table) {
    assert.equal(clockText(spec, sideFromTotal(spec, left)), words, `${spec.type} ${left}`);
  }
});

test("a rebuilt side runs down as the game page's does", () => {
  const side = sideFromTotal(BYO, 100);
  assert.deepEqual(side, { main: 10, periods: 3, period: 30, stones: null, expired: false });
  const later = runDown(BYO, side, 25);
  assert.equal(clockText(BYO, later), "3 × 0:15");
});

const summary = {
  status: "live", phase: "play", to_move: "W", clock: BYO,
  time_left: { B: 400, W: 500 },
};

test("the running side of a summary counts down from its reading; the other does not", () => {
  const g = { ...summary, time_at: 1000, running: "W" };
  assert.equal(summaryClockText(g, "W", 1012, null), "6:38 + 3 × 0:30");
  assert.equal(summaryClockText(g, "B", 1012, null), "5:10 + 3 × 0:30");
  // A clock running on the server that the summary says is stopped (scoring): no count.
  assert.equal(summaryClockText({ ...g, running: null }, "W", 1012, null), "6:50 + 3 × 0:30");
});

test("without time_at and running (today's server) the side to move counts from the list's arrival", () => {
  assert.equal(summaryClockText(summary, "W", 2010, 2000), "6:40 + 3 × 0:30");
  assert.equal(summaryClockText(summary, "B", 2010, 2000), "5:10 + 3 × 0:30");
  assert.equal(summaryClockText({ ...summary, phase: "scoring" }, "W", 2010, 2000), "6:50 + 3 × 0:30");
  assert.equal(summaryClockText({ ...summary, time_left: null }, "W", 2010, 2000), null);
});
