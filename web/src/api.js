// Client of the server's JSON + WebSocket API (docs/web-api.md). The server is
// the authority: this module only sends intents and hands states to the UI.

/** Mount root of the UI and the API ("/" unless served under a prefix). */
export const ROOT = (typeof window !== "undefined" && window.KEIMA_ROOT) || "/";

/** An error answer of the API: code, reason, field and message as the server sent them. */
export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "http-error";
    this.reason = err.reason || null;
    this.field = err.field || null;
  }
}

/**
 * One call of the JSON API: resolves with the answer's JSON (null for an empty
 * answer such as 204), rejects with an ApiError (status 0 when the server
 * cannot be reached). Every module of the UI calls the API through it.
 */
export async function request(method, path, body) {
  let response;
  try {
    response = await fetch(ROOT + path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    throw new ApiError(0, { error: { code: "network", message: String(exc) } });
  }
  let data = null;
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  info: () => request("GET", "api/info"),
  create: (settings) => request("POST", "api/games", settings),
  get: (id) => request("GET", `api/games/${encodeURIComponent(id)}`),
  join: (id, code) => request("POST", `api/games/${encodeURIComponent(id)}/join`, { code }),
  action: (id, action) => request("POST", `api/games/${encodeURIComponent(id)}/actions`, action),
  sgfUrl: (id) => `${ROOT}api/games/${encodeURIComponent(id)}/sgf`,
};

/**
 * A live connection to one game: reopens itself after a drop (backoff 0.5 s
 * doubling to 8 s), passes every newer state to onState, and resolves each
 * action's promise on its ack or rejects it with an ApiError.
 */
export class GameSocket {
  constructor(gameId, { onState, onStatus, onNotice }) {
    this.gameId = gameId;
    this.onState = onState;
    this.onNotice = onNotice;
    this.onStatus = onStatus;
    this.pending = new Map();
    this.counter = 0;
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.open();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${ROOT}api/games/${encodeURIComponent(this.gameId)}/ws`;
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus("open");
      // A ping now and then keeps proxies from closing a quiet socket (a long think).
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, 25000);
    };
    ws.onmessage = (evt) => this.receive(evt.data);
    ws.onclose = (evt) => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      // Actions in flight on this socket may or may not have been applied: the
      // next state says which, so their promises are settled as "in-flight".
      for (const [, p] of this.pending) p.reject(new ApiError(0, { error: { code: "network", reason: "in-flight" } }));
      this.pending.clear();
      if (evt.code === 4404) {
        this.onStatus("gone");
        return;
      }
      if (this.closed) return;
      this.onStatus("closed");
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, 8000);
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "state") this.onState(msg.game);
    else if (msg.type === "notice") this.onNotice?.(msg.notice);
    else if (msg.type === "ack" && this.pending.has(msg.id)) {
      this.pending.get(msg.id).resolve();
      this.pending.delete(msg.id);
    } else if (msg.type === "error") {
      const p = this.pending.get(msg.id);
      if (p) {
        p.reject(new ApiError(msg.error?.status || 400, { error: msg.error }));
        this.pending.delete(msg.id);
      }
    }
  }

  /** Sends an action; falls back to HTTP while the socket is not open. */
  send(action) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return api.action(this.gameId, action).then((r) => {
        if (r && r.game) this.onState(r.game);
      });
    }
    const id = `c${++this.counter}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: "action", id, action }));
    });
  }

  /** Drops the socket as a network failure would (used by the tests' reconnection check too). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
