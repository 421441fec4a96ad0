// The page's live connections to the server (a game's and the lobby's): one reconnecting
// WebSocket client. It reopens after a drop (backoff 0.5 s doubling to 8 s, back to 0.5 s once
// open), pings now and then so that proxies keep a quiet socket open, and sends requests that
// the server acknowledges by id, over HTTP while the socket is not open.
import { ApiError, ROOT } from "./api.js";

/** The WebSocket address of an API path ("api/lobby/ws") under the page's mount root. */
export function socketUrl(path, where = location) {
  const proto = where.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${where.host}${ROOT}${path}`;
}

export const FIRST_DELAY = 500;
export const LAST_DELAY = 8000;
const PING_EVERY = 25000;
// Close codes the server uses for what another try would not change: a game or board that does not exist, and a
// board the caller may not see (a club's, for its members): no reconnection.
const GONE = 4404;
const FORBIDDEN = 4403;

/**
 * A live socket to `path`. `onMessage(msg)` gets every decoded message other than the acks and
 * errors of requests; `onStatus(s)` gets "open", "closed" (reopening), "gone" (4404: given up) or "forbidden" (4403: given up).
 * `env` replaces the browser's WebSocket, timers and address (the unit tests' fakes).
 */
export class LiveSocket {
  constructor(path, { onMessage, onStatus = () => {}, ping = true } = {}, env = {}) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ping = ping;
    this.env = {
      WebSocket: env.WebSocket ?? globalThis.WebSocket,
      setTimeout: env.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
      clearTimeout: env.clearTimeout ?? ((id) => clearTimeout(id)),
      setInterval: env.setInterval ?? ((fn, ms) => setInterval(fn, ms)),
      clearInterval: env.clearInterval ?? ((id) => clearInterval(id)),
      location: env.location ?? globalThis.location,
    };
    this.pending = new Map();
    this.counter = 0;
    this.delay = FIRST_DELAY;
    this.closed = false;
    this.ws = null;
    this.open();
  }

  open() {
    if (this.closed) return;
    const { WebSocket: WS } = this.env;
    const ws = new WS(socketUrl(this.path, this.env.location));
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.delay = FIRST_DELAY;
      this.onStatus("open");
      this.env.clearInterval(this.pinger);
      if (this.ping) this.pinger = this.env.setInterval(() => this.sendRaw({ type: "ping" }), PING_EVERY);
    };
    ws.onmessage = (evt) => {
      if (this.ws === ws) this.receive(evt.data);
    };
    ws.onclose = (evt) => {
      if (this.ws !== ws) return;
      this.env.clearInterval(this.pinger);
      // Requests in flight on this socket may or may not have been applied: what comes next
      // says which, so they are settled as "in-flight".
      for (const [, p] of this.pending) p.reject(new ApiError(0, { error: { code: "network", reason: "in-flight" } }));
      this.pending.clear();
      if (evt?.code === GONE || evt?.code === FORBIDDEN) {
        this.onStatus(evt.code === GONE ? "gone" : "forbidden");
        return;
      }
      if (this.closed) return;
      this.onStatus("closed");
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, LAST_DELAY);
      this.timer = this.env.setTimeout(() => this.open(), wait);
    };
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === 1; // WebSocket.OPEN
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return; // not JSON: ignored
    }
    if ((msg?.type === "ack" || msg?.type === "error") && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === "ack") p.resolve(msg);
      else p.reject(new ApiError(msg.error?.status || 400, { error: msg.error }));
      return;
    }
    this.onMessage?.(msg);
  }

  /** Sends a message as it is when the socket is open; returns whether it went. */
  sendRaw(msg) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Sends `msg` with a fresh id and resolves on its ack (rejects with an ApiError on its error);
   * while the socket is not open, resolves or rejects as `fallback()` (the same request over
   * HTTP) does.
   */
  request(msg, fallback) {
    if (!this.isOpen) return fallback();
    const id = `c${++this.counter}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /** Drops the socket as a network failure would (the reconnection then follows). Handled at once, not
   * when the browser gets round to the close event: a busy browser may deliver that late. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    const closed = ws.onclose;
    ws.onclose = null;
    ws.close();
    closed?.call(ws, { code: 1006 });
  }

  close() {
    this.closed = true;
    this.env.clearTimeout(this.timer);
    this.env.clearInterval(this.pinger);
    this.ws?.close();
  }
}
