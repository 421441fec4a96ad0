// The game as this page knows it, kept up to date from the server's messages (docs/web-api.md,
// protocol 2): a full state replaces it; a delta (version v-1 -> v) changes what it names. A
// delta that does not follow the version held (a gap) is not applied: the page asks for the
// full state again. Pure: the caller passes the browser's time and sends the reply, if any.

/** The model before any message: no game yet, and no version to follow. */
export const EMPTY = Object.freeze({ game: null, offset: null, awaiting: null, protocol: 1 });

// Keys of a delta that are not GameState keys to copy as they come (handled one by one, or
// never sent in a delta: the page keeps its own).
const NOT_COPIED = new Set([
  "type", "from", "to", "event", "placed", "removed", "clock", "at", "now",
  "board", "moves", "chat", "you", "version", "id", "size", "rules", "created_at", "mode",
]);

/** Chat messages kept, as on the server. */
export const CHAT_KEPT = 100;

/**
 * The server's time when it sent a message (epoch seconds), or null when it says none: its own
 * `now` or `at` if it has one, else its clock reading's `at` (made when the message was, per the
 * protocol; a reading cached from earlier would make the page's estimate late by as much).
 */
function readingOf(msg) {
  const at = msg.now ?? msg.at ?? msg.game?.now ?? msg.clock?.at ?? msg.game?.clock?.at;
  return typeof at === "number" && Number.isFinite(at) ? at : null;
}

/**
 * A clock as the page keeps it: with `at`, the server's time of its reading. Today's server sends
 * none; its values are then as of the message, whose server time is estimated from the offset.
 */
function stamped(clock, serverTime) {
  if (!clock || typeof clock.at === "number") return clock;
  return { ...clock, at: serverTime };
}

/**
 * The model after `msg` arrived at the browser's time `local` (epoch seconds): returns
 * {model, reply, changed}: `reply` a message to send back (a resync request) or null; `changed`
 * whether the game changed. Messages other than "state" and "delta" change nothing.
 */
export function reduce(model, msg, local) {
  if (msg?.type === "state" && msg.game) return applyState(model, msg, local);
  if (msg?.type === "delta") return applyDelta(model, msg, local);
  return { model, reply: null, changed: false };
}

function withOffset(model, msg, local) {
  const at = readingOf(msg);
  return at === null ? model.offset : at - local;
}

function applyState(model, msg, local) {
  const next = msg.game;
  const held = model.game;
  // An older full state arriving late (the HTTP answer after the socket's first state).
  if (held && held.id === next.id && next.version < held.version) return { model, reply: null, changed: false };
  const offset = withOffset(model, msg, local);
  const game = { ...next, clock: stamped(next.clock, local + (offset ?? 0)) };
  const protocol = msg.protocol ?? model.protocol;
  return { model: { game, offset, awaiting: null, protocol }, reply: null, changed: true };
}

function applyDelta(model, msg, local) {
  const held = model.game;
  const version = held ? held.version : null;
  if (held && typeof msg.to === "number" && msg.to <= version) {
    return { model, reply: null, changed: false }; // already applied
  }
  if (!held || msg.from !== version) {
    // A gap (or no state yet): ask once for the full state and wait for it.
    const from = version ?? 0;
    const reply = model.awaiting === from ? null : { type: "resync", from };
    return { model: { ...model, awaiting: from }, reply, changed: false };
  }
  const offset = withOffset(model, msg, local);
  const game = { ...held, version: msg.to };
  for (const [key, value] of Object.entries(msg)) {
    if (!NOT_COPIED.has(key)) game[key] = value;
  }
  if (msg.placed?.length || msg.removed?.length) {
    const board = held.board.slice();
    for (const [point, color] of msg.placed || []) board[point] = color === "B" ? 1 : color === "W" ? 2 : color;
    for (const point of msg.removed || []) board[point] = 0;
    game.board = board;
  }
  if (msg.clock !== undefined) {
    // A delta's clock names `at` and `running`, and only the sides whose stored time changed.
    const clock = msg.clock && held.clock ? { ...held.clock, ...msg.clock } : msg.clock;
    game.clock = stamped(clock, local + (offset ?? 0));
  }
  const event = msg.event || {};
  if ((event.type === "moved" || event.type === "passed") && event.move) {
    game.moves = [...(held.moves || []), event.move];
  } else if (event.type === "undone" && event.moves > 0) {
    game.moves = (held.moves || []).slice(0, Math.max(0, (held.moves || []).length - event.moves));
  } else if (event.type === "chatted" && event.message) {
    game.chat = [...(held.chat || []), event.message].slice(-CHAT_KEPT);
  }
  return { model: { ...model, game, offset, awaiting: null }, reply: null, changed: true };
}

/** The server's time now, as the model estimates it from its last reading (the browser's time before any). */
export function serverTime(model, local) {
  return local + (model.offset ?? 0);
}
