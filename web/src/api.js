// Client of the server's JSON + WebSocket API (docs/web-api.md). The server is
// the authority: this module only sends intents and hands states to the UI.

/** Mount root of the UI and the API ("/" unless served under a prefix). */
export const ROOT = (typeof window !== "undefined" && window.KEIMA_ROOT) || "/";

/** An error answer of the API: code, reason, field, line and message as the server sent them. */
export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "http-error";
    this.reason = err.reason || null;
    this.field = err.field || null;
    this.line = err.line ?? null;
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
  bots: () => request("GET", "api/bots"),
  create: (settings) => request("POST", "api/games", settings),
  get: (id) => request("GET", `api/games/${encodeURIComponent(id)}`),
  join: (id, code) => request("POST", `api/games/${encodeURIComponent(id)}/join`, { code }),
  action: (id, action) => request("POST", `api/games/${encodeURIComponent(id)}/actions`, action),
  player: (name) => request("GET", `api/players/${encodeURIComponent(name)}`),
  ratings: (name) => request("GET", `api/players/${encodeURIComponent(name)}/ratings`),
  opponents: (name) => request("GET", `api/players/${encodeURIComponent(name)}/opponents`),
  /** A page of a player's games: filters {status, size, result, opponent, before, limit}, empty ones left out. */
  playerGames: (name, filters) => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== "" && v != null));
    return request("GET", `api/players/${encodeURIComponent(name)}/games?${query}`);
  },
  conditional: (id) => request("GET", `api/games/${encodeURIComponent(id)}/conditional`),
  setConditional: (id, body) => request("PUT", `api/games/${encodeURIComponent(id)}/conditional`, body),
  dropConditional: (id) => request("DELETE", `api/games/${encodeURIComponent(id)}/conditional`),
  sgfUrl: (id) => `${ROOT}api/games/${encodeURIComponent(id)}/sgf`,
};
