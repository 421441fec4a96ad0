// The review and lesson endpoints of the API (docs/web-api.md, *Review*): a
// record's move tree, the estimate at a node, the referee's verdict on a move.
import { ApiError, ROOT } from "./api.js";

async function call(method, path, body) {
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
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const reviewApi = {
  record: (sgf) => call("POST", "api/review", { sgf }),
  game: (id) => call("GET", `api/games/${encodeURIComponent(id)}/review`),
  estimate: (body) => call("POST", "api/review/estimate", body),
  play: (body) => call("POST", "api/positions/play", body),
};
