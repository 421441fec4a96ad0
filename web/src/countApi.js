// The count endpoints of the API (docs/web-api.md, *Positions*): the count of a
// game step by step, the count of any position, a position read from SGF.
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

export const countApi = {
  game: (id) => call("GET", `api/games/${encodeURIComponent(id)}/count`),
  position: (body) => call("POST", "api/positions/count", body),
  sgf: (sgf, move) => call("POST", "api/positions/sgf", { sgf, move }),
};
