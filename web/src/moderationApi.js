// Client of the moderation API (docs/web-api.md, "Moderation"): blocks, the caller's standing, reports, abandoned
// live games, and the moderators' queue, actions, signals and audit log.
import { request } from "./api.js";

const enc = encodeURIComponent;

export const modApi = {
  blocks: () => request("GET", "api/me/blocks"),
  block: (name) => request("PUT", `api/me/blocks/${enc(name)}`),
  unblock: (name) => request("DELETE", `api/me/blocks/${enc(name)}`),
  standing: () => request("GET", "api/me/standing"),
  report: (body) => request("POST", "api/reports", body),
  conduct: (name) => request("GET", `api/players/${enc(name)}/conduct`),
  abandoned: (id) => request("GET", `api/games/${enc(id)}/abandoned`),
  claim: (id, outcome) => request("POST", `api/games/${enc(id)}/abandoned`, { outcome }),
  queue: (status = "open") => request("GET", `api/moderation/reports?status=${status}`),
  log: () => request("GET", "api/moderation/log"),
  signals: () => request("GET", "api/moderation/signals"),
  act: (body) => request("POST", "api/moderation/actions", body),
};

/** The reasons a report may give, in the order the form lists them. */
export const REASONS = ["harassment", "cheating", "escaping", "stalling", "sandbagging", "name", "spam", "other"];
