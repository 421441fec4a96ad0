// The count endpoints of the API (docs/web-api.md, *Positions*): the count of a
// game step by step, the count of any position, a position read from SGF.
import { request as call } from "./api.js";

export const countApi = {
  game: (id) => call("GET", `api/games/${encodeURIComponent(id)}/count`),
  position: (body) => call("POST", "api/positions/count", body),
  sgf: (sgf, move) => call("POST", "api/positions/sgf", { sgf, move }),
};
