// Players, the lobby and "my games" (docs/web-api.md, Players and Lobby): the
// caller's player as a signal, the lobby socket feeding the lists, and the
// "your turn" notice (tab title and a short stone sound) for games not on screen.
import { request as call } from "./api.js";
import { LiveSocket } from "./socket.js";
import { noteServerTime, serverNow } from "./time.js";
import { signal } from "./signal.js";

/** The caller's player ({id, name, rank, rank_text, guest}), null until known. */
export const me = signal(null);
/** The latest lobby message ({open, live, finished, mine}), null until the first. */
export const lobby = signal(null);
/** The game automatch found for this player (the lobby socket's "matched" message), null until one. */
export const matched = signal(null);
/** The lobby socket's latest "notifications" message ({unread, at}): a notification was stored for the player. */
export const bellRang = signal(null);

export const playersApi = {
  me: () => call("GET", "api/me"),
  patchMe: (fields) => call("PATCH", "api/me", fields),
  register: (name, password) => call("POST", "api/players", { name, password }),
  login: (name, password) => call("POST", "api/session", { name, password }),
  logout: () => call("DELETE", "api/session"),
  changePassword: (old, next) => call("POST", "api/me/password", { old, new: next }),
  deleteAccount: () => call("DELETE", "api/me"),
  joinOpen: (id) => call("POST", `api/games/${encodeURIComponent(id)}/join`, {}),
  myGames: (status) => call("GET", `api/me/games?status=${status}`),
  startVacation: () => call("PUT", "api/me/vacation"),
  endVacation: () => call("DELETE", "api/me/vacation"),
  notifications: () => call("GET", "api/me/notifications"),
  readNotifications: (body) => call("POST", "api/me/notifications/read", body),
  seen: () => call("POST", "api/me/seen"),
  resendVerification: () => call("POST", "api/me/email/verify"),
  // The chat senders the player muted (the server leaves their messages out of what it sends this player).
  mutes: () => call("GET", "api/me/mutes"),
  mute: (sender, name) => call("PUT", `api/me/mutes/${encodeURIComponent(sender)}`, { name }),
  unmute: (sender) => call("DELETE", `api/me/mutes/${encodeURIComponent(sender)}`),
};

/** After an action that may have made a guest player (the server makes one for a page without a player:
 * a game, a join, a spectator's chat message), reads the player again so the header names them. */
export function afterAction(result) {
  if (!me.get()?.id) refreshMe().catch(() => {});
  return result;
}

/** Reads the caller's player (id null until an action made one) and reopens the lobby socket as them. */
export async function refreshMe() {
  const player = await playersApi.me();
  me.set(player);
  if (!LobbySocket.current || LobbySocket.player !== (player?.id ?? null)) LobbySocket.restart();
  return player;
}

/** The lobby socket: one per page, reopened after a drop and whenever the page's player changes (a login, a
 * logout, a registration or a guest made by an action): the server reads the player once, when it opens. */
export const LobbySocket = {
  current: null,
  player: null, // the player id the socket was opened as
  restart() {
    LobbySocket.current?.close();
    LobbySocket.player = me.get()?.id ?? null;
    LobbySocket.current = new LiveSocket("api/lobby/ws", { onMessage: onLobby, ping: false });
  },
};

me.subscribe((player) => {
  if (LobbySocket.current && LobbySocket.player !== (player?.id ?? null)) LobbySocket.restart();
});

function onLobby(msg) {
  if (msg?.type === "matched") {
    matched.set(msg.game);
    return;
  }
  if (msg?.type === "notifications") {
    bellRang.set({ unread: msg.unread, at: Date.now() });
    return;
  }
  if (msg?.type !== "lobby") return;
  // The lists' clocks count from the server's time of the message (absent: its arrival).
  noteServerTime(msg.now);
  lobby.set({ ...msg, readAt: serverNow() });
  noticeTurns(msg.mine || []);
}

// -- "your turn" in another game ---------------------------------------------------------
/** The game on screen (its turn is shown there, not announced). */
export const onScreen = signal(null);
/** Games where it is the player's turn, other than the one on screen. */
export const myTurns = signal([]);
/** Whether the stone sound plays: "on", "off", or null (never chosen: on when the browser allows sound). */
export const sound = signal(readSound());

function readSound() {
  try {
    return localStorage.getItem("keima.sound");
  } catch {
    return null;
  }
}

export function setSound(value) {
  try {
    localStorage.setItem("keima.sound", value);
  } catch {
    // not remembered, still switched
  }
  sound.set(value);
  if (value === "on") audio()?.resume?.();
}

let audioContext = null;
function audio() {
  if (audioContext) return audioContext;
  const Ctx = typeof window !== "undefined" && (window.AudioContext || window.webkitAudioContext);
  if (!Ctx) return null;
  audioContext = new Ctx();
  return audioContext;
}

/**
 * Whether the sound is on: as chosen, else on only where the browser lets a page play sound before any
 * click (its autoplay policy); where it does not say, off until the player switches it on.
 */
export function soundIsOn(choice = sound.get()) {
  if (choice) return choice === "on";
  try {
    return typeof navigator !== "undefined" && navigator.getAutoplayPolicy?.("audiocontext") === "allowed";
  } catch {
    return false;
  }
}

// A sound switched on in an earlier visit may play once the player has clicked anywhere (browsers allow sound
// after a gesture): the audio context is resumed on the first click.
if (typeof document !== "undefined") {
  document.addEventListener(
    "pointerdown",
    () => {
      if (soundIsOn()) audio()?.resume?.();
    },
    { once: true, capture: true },
  );
}

/** A short stone-on-wood click; silent when sound is off or the browser forbids it (autoplay). */
export function playStone() {
  if (!soundIsOn()) return false;
  const ctx = audio();
  if (!ctx || ctx.state !== "running") return false; // autoplay forbidden until the user acts: off
  const now = ctx.currentTime;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(900, now);
  osc.frequency.exponentialRampToValueAtTime(300, now + 0.08);
  gain.gain.setValueAtTime(0.4, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
  osc.connect(gain).connect(ctx.destination);
  osc.start(now);
  osc.stop(now + 0.13);
  return true;
}

let announced = new Set();
let lastMine = [];
// The game on screen changes without a lobby message (a game just created, a link followed in the page): the
// games announced are counted again then, or the header and the tab title would count the game being looked at.
onScreen.subscribe(() => {
  const here = onScreen.get();
  myTurns.set(myTurns.get().filter((g) => g.id !== here));
  noticeTurns(lastMine, { quiet: true });
});

/**
 * Whether the lobby summary `g` waits for a move of the reader: one seat of theirs, to move, in play (a game being
 * counted waits for nobody's move). The header's count, "my games" and the /moves page all ask this.
 */
export function waitsForMe(g) {
  return g.status === "live" && (g.phase === "play" || g.phase === "handicap") && g.you.length === 1 &&
    g.you.includes(g.to_move);
}

function noticeTurns(mine, { quiet = false } = {}) {
  lastMine = mine;
  const here = onScreen.get();
  const turns = mine.filter((g) => waitsForMe(g) && g.id !== here);
  myTurns.set(turns);
  const ids = new Set(turns.map((g) => `${g.id}:${g.moves}`));
  if (!quiet && [...ids].some((k) => !announced.has(k))) playStone();
  announced = ids;
}
