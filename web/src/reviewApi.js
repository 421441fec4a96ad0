// The review and lesson endpoints of the API (docs/web-api.md, *Review*): a
// record's move tree, the estimate at a node, the referee's verdict on a move.
import { request as call } from "./api.js";

export const reviewApi = {
  // add: {at, color, vertex}, a move tried after node `at`, answered as the tree with that variation.
  record: (sgf, add = null) => call("POST", "api/review", add ? { sgf, add } : { sgf }),
  game: (id) => call("GET", `api/games/${encodeURIComponent(id)}/review`),
  estimate: (body) => call("POST", "api/review/estimate", body),
  play: (body) => call("POST", "api/positions/play", body),
};
