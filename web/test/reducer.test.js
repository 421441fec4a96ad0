// The game reducer (src/game/reducer.js) against the protocol-2 messages of docs/web-api.md:
// run with `node --test web/test/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY, reduce, serverTime, CHAT_KEPT } from "../src/game/reducer.js";
import { clockText, sideAt } from "../src/time.js";

// A 5x5 board as rows of "." (empty), "X" (black), "O" (white); returns the server's board list.
function board(diagram) {
  const code = { ".": 0, X: 1, O: 2 };
  return diagram.trim().split("\n").flatMap((row) => row.trim().split(/\s+/).map((c) => code[c]));
}

const T = 1_790_000_000; // the server's time of the first reading (epoch seconds)

const move = (n, color, point, vertex, captures = 0) => ({ n, color, point, vertex, captures });

function fullState(extra = {}) {
  return {
    id: "g1",
    version: 4,
    size: 5,
    phase: "play",
    to_move: "W",
    result: null,
    board: board(`
      . . . . .
      . X O . .
      . O X . .
      . . . . .
      . . . . .`),
    prisoners: { B: 0, W: 0 },
    pass_count: { B: 0, W: 0 },
    moves: [move(1, "B", 6, "B4"), move(2, "W", 7, "C4"), move(3, "B", 12, "C3"), move(4, "W", 11, "B3")],
    chat: [],
    you: ["W"],
    clock: {
      spec: { type: "absolute", main: 600 },
      running: "W",
      B: { main: 580, periods: null, period: null, stones: null, expired: false },
      W: { main: 590, periods: null, period: null, stones: null, expired: false },
      at: T,
    },
    ...extra,
  };
}

/** The model after a first full state received at the browser's time `local`. */
function started(local = T, game = fullState()) {
  return reduce(EMPTY, { type: "state", protocol: 2, game }, local).model;
}

test("a full state is taken as it comes, with its version and protocol", () => {
  const { model, reply, changed } = reduce(EMPTY, { type: "state", protocol: 2, game: fullState() }, T);
  assert.equal(changed, true);
  assert.equal(reply, null);
  assert.equal(model.protocol, 2);
  assert.equal(model.game.version, 4);
  assert.deepEqual(model.game.board, fullState().board);
  assert.deepEqual(model.game.you, ["W"]);
});

test("today's state message (no protocol, no clock reading) still works", () => {
  const game = fullState();
  delete game.clock.at;
  const { model } = reduce(EMPTY, { type: "state", game }, T + 5);
  assert.equal(model.protocol, 1);
  // No reading from the server: the values are as of the message, stamped with its arrival.
  assert.equal(model.game.clock.at, T + 5);
  const later = reduce(model, { type: "state", game: { ...fullState(), version: 5, clock: { ...game.clock } } }, T + 9);
  assert.equal(later.model.game.version, 5);
});

test("an older full state arriving late does not replace a newer one", () => {
  const model = started();
  const { model: after, changed } = reduce(model, { type: "state", game: fullState({ version: 3 }) }, T);
  assert.equal(changed, false);
  assert.equal(after.game.version, 4);
});

test("a move delta places the stone, removes the captured ones, counts them and appends the move", () => {
  const model = started();
  // White D3 captures the black stone at C3 (point 12): placed D3, removed C3.
  const delta = {
    type: "delta",
    from: 4,
    to: 5,
    event: { type: "moved", move: move(5, "W", 13, "D3", 1) },
    placed: [[13, "W"]],
    removed: [12],
    prisoners: { B: 0, W: 1 },
    to_move: "B",
    clock: { ...fullState().clock, running: "B", W: { ...fullState().clock.W, main: 588 }, at: T + 2 },
  };
  const { model: after, reply, changed } = reduce(model, delta, T + 2);
  assert.equal(changed, true);
  assert.equal(reply, null);
  assert.equal(after.game.version, 5);
  assert.deepEqual(
    after.game.board,
    board(`
      . . . . .
      . X O . .
      . O . O .
      . . . . .
      . . . . .`),
  );
  assert.deepEqual(after.game.prisoners, { B: 0, W: 1 });
  assert.equal(after.game.to_move, "B");
  assert.equal(after.game.moves.length, 5);
  assert.deepEqual(after.game.moves.at(-1), move(5, "W", 13, "D3", 1));
  assert.equal(after.game.clock.running, "B");
  // What the delta does not name is kept: the seats of the reader, the chat, the phase.
  assert.deepEqual(after.game.you, ["W"]);
  assert.equal(after.game.phase, "play");
  // The state held before is not changed (the page compares the two).
  assert.equal(model.game.moves.length, 4);
  assert.equal(model.game.board[12], 1);
});

test("a pass appends a move without a point and changes no stone", () => {
  const model = started();
  const delta = {
    type: "delta", from: 4, to: 5,
    event: { type: "passed", move: move(5, "W", null, "pass") },
    pass_count: { B: 0, W: 1 }, consecutive_passes: 1, to_move: "B",
  };
  const { model: after } = reduce(model, delta, T);
  assert.equal(after.game.moves.at(-1).vertex, "pass");
  assert.deepEqual(after.game.board, model.game.board);
  assert.deepEqual(after.game.pass_count, { B: 0, W: 1 });
  assert.equal(after.game.consecutive_passes, 1);
});

test("an accepted undo drops the moves it takes back and their stones", () => {
  const model = started();
  const delta = {
    type: "delta", from: 4, to: 5,
    event: { type: "undone", moves: 2, answer: true },
    removed: [12, 11],
    to_move: "B",
    undo_request: null,
  };
  const { model: after } = reduce({ ...model, game: { ...model.game, undo_request: { by: "W" } } }, delta, T);
  assert.deepEqual(after.game.moves.map((m) => m.vertex), ["B4", "C4"]);
  assert.deepEqual(
    after.game.board,
    board(`
      . . . . .
      . X O . .
      . . . . .
      . . . . .
      . . . . .`),
  );
  assert.equal(after.game.undo_request, null);
  assert.equal(after.game.to_move, "B");
});

test("a chat delta appends the message and keeps the last hundred", () => {
  const model = started();
  const message = { n: 4, from: "bob", text: "nice move", at: "2026-09-21T10:00:00Z", to: "players" };
  const { model: after } = reduce(model, { type: "delta", from: 4, to: 5, event: { type: "chatted", message } }, T);
  assert.deepEqual(after.game.chat, [message]);
  assert.equal(after.game.moves.length, 4);
  assert.deepEqual(after.game.board, model.game.board);

  const full = { ...model, game: { ...model.game, chat: Array.from({ length: CHAT_KEPT }, (_, i) => ({ ...message, text: `m${i}` })) } };
  const { model: capped } = reduce(full, { type: "delta", from: 4, to: 5, event: { type: "chatted", message } }, T);
  assert.equal(capped.game.chat.length, CHAT_KEPT);
  assert.equal(capped.game.chat[0].text, "m1");
  assert.equal(capped.game.chat.at(-1).text, "nice move");
});

test("a finished event sets the result and phase it comes with", () => {
  const model = started();
  const delta = {
    type: "delta", from: 4, to: 5,
    event: { type: "finished", result: "B+R", reason: "resignation" },
    phase: "finished", result: "B+R", end_reason: "resignation",
  };
  const { model: after } = reduce(model, delta, T);
  assert.equal(after.game.phase, "finished");
  assert.equal(after.game.result, "B+R");
  assert.equal(after.game.end_reason, "resignation");
});

test("a gap is not applied: the page asks for the full state from its version, once", () => {
  const model = started();
  const gap = { type: "delta", from: 6, to: 7, event: { type: "moved", move: move(7, "W", 0, "A5") }, placed: [[0, "W"]] };
  const first = reduce(model, gap, T);
  assert.equal(first.changed, false);
  assert.deepEqual(first.reply, { type: "resync", from: 4 });
  assert.equal(first.model.game.version, 4);
  assert.equal(first.model.game.board[0], 0);
  assert.equal(first.model.game.moves.length, 4);
  // Further deltas while waiting are not applied and do not ask again.
  const second = reduce(first.model, { ...gap, from: 7, to: 8 }, T);
  assert.equal(second.reply, null);
  assert.equal(second.changed, false);
  // The full state ends the wait.
  const resynced = reduce(second.model, { type: "state", game: fullState({ version: 8 }) }, T);
  assert.equal(resynced.model.game.version, 8);
  assert.equal(resynced.model.awaiting, null);
  const next = reduce(resynced.model, { type: "delta", from: 8, to: 9, event: { type: "proposed" }, proposal: [1] }, T);
  assert.equal(next.changed, true);
  assert.deepEqual(next.model.game.proposal, [1]);
});

test("a delta already applied (to <= version) is ignored, and asks nothing", () => {
  const model = started();
  for (const [from, to] of [[3, 4], [2, 3]]) {
    const old = { type: "delta", from, to, event: { type: "moved", move: move(to, "B", 0, "A5") }, placed: [[0, "B"]] };
    const { model: after, reply, changed } = reduce(model, old, T);
    assert.equal(changed, false);
    assert.equal(reply, null);
    assert.equal(after, model);
  }
});

test("a delta before any state asks for the full state", () => {
  const { reply, changed } = reduce(EMPTY, { type: "delta", from: 0, to: 1, event: { type: "proposed" } }, T);
  assert.equal(changed, false);
  assert.deepEqual(reply, { type: "resync", from: 0 });
});

test("the clock counts from the server's time: a browser clock one hour wrong shows the players' time", () => {
  // The players' page (browser clock right) and a spectator's page (browser clock one hour fast)
  // receive the same state 0.05 s after the server made it, then both look 12.3 s later.
  const game = fullState();
  const players = started(T + 0.05, game);
  const spectator = started(T + 3600 + 0.05, game);
  const shown = (model, local) => sideAt(model.game.clock, "W", serverTime(model, local));
  const a = shown(players, T + 12.35);
  const b = shown(spectator, T + 3600 + 12.35);
  assert.ok(Math.abs(a.main - 577.7) < 1e-6, `players see ${a.main}`);
  assert.ok(Math.abs(b.main - a.main) < 1e-6, `spectator sees ${b.main}, players ${a.main}`);
  assert.equal(clockText(game.clock.spec, b), "9:38");
  // The side whose clock is stopped shows its reading.
  assert.equal(sideAt(spectator.game.clock, "B", serverTime(spectator, T + 3600 + 12.35)).main, 580);
});

test("a page opened mid-move shows the time the players' page shows", () => {
  // The players' page had the state since the move (at T); a page opened 40 s later gets a new
  // reading made then (W charged provisionally, at T + 40), with a browser clock 1 hour slow.
  const players = started(T);
  const late = fullState({ clock: { ...fullState().clock, W: { ...fullState().clock.W, main: 550 }, at: T + 40 } });
  const opened = started(T + 40 - 3600, late);
  const p = sideAt(players.game.clock, "W", serverTime(players, T + 45));
  const o = sideAt(opened.game.clock, "W", serverTime(opened, T + 45 - 3600));
  assert.ok(Math.abs(p.main - 545) < 1e-6);
  assert.ok(Math.abs(o.main - p.main) < 1e-6);
});

test("a delta's reading updates the offset; a delta without a clock keeps the clock it had", () => {
  const model = started(T);
  const delta = { type: "delta", from: 4, to: 5, event: { type: "chatted", message: { text: "hi" } }, at: T + 100 };
  const { model: after } = reduce(model, delta, T + 100 + 7200);
  assert.equal(after.offset, -7200);
  assert.equal(after.game.clock, model.game.clock);
});

test("a message's own send time, when it has one, sets the offset rather than an older clock reading", () => {
  // The clock was read at the move (T); the state is sent 30 s later with now = T + 30.
  const { model } = reduce(EMPTY, { type: "state", game: { ...fullState(), now: T + 30 } }, T + 30 + 3600);
  assert.equal(model.offset, -3600);
  const w = sideAt(model.game.clock, "W", serverTime(model, T + 35 + 3600));
  assert.ok(Math.abs(w.main - 555) < 1e-6, `${w.main}`);
});

test("a delta's clock names only what changed: the side that moved, at and running; the rest is kept", () => {
  const model = started(T);
  const delta = {
    type: "delta", from: 4, to: 5, event: { type: "moved", move: move(5, "W", 13, "D3") }, placed: [[13, "W"]],
    to_move: "B", clock: { at: T + 20, running: "B", W: { main: 570, expired: false } },
  };
  const { model: after } = reduce(model, delta, T + 20);
  assert.equal(after.game.clock.spec.type, "absolute");
  assert.equal(after.game.clock.B.main, 580);
  assert.equal(after.game.clock.W.main, 570);
  assert.equal(after.game.clock.running, "B");
  const b = sideAt(after.game.clock, "B", serverTime(after, T + 30));
  assert.ok(Math.abs(b.main - 570) < 1e-6, `${b.main}`);
});
