// The review and lesson endpoints of the API (docs/web-api.md, *Review*): a
// record's move tree, the estimate at a node, the referee's verdict on a move.
import { request as call } from "./api.js";

export const reviewApi = {
  record: (sgf) => call("POST", "api/review", { sgf }),
  game: (id) => call("GET", `api/games/${encodeURIComponent(id)}/review`),
  estimate: (body) => call("POST", "api/review/estimate", body),
  play: (body) => call("POST", "api/positions/play", body),
};
