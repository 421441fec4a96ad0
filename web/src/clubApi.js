// Client of the club endpoints (docs/web-api.md, Clubs; docs/clubs.md).
import { request } from "./api.js";

const base = (slug) => `api/clubs/${encodeURIComponent(slug)}`;

export const clubApi = {
  list: (mine = false) => request("GET", `api/clubs${mine ? "?mine=true" : ""}`),
  create: (body) => request("POST", "api/clubs", body),
  get: (slug) => request("GET", base(slug)),
  patch: (slug, body) => request("PATCH", base(slug), body),
  join: (slug, code) => request("POST", `${base(slug)}/members`, code ? { code } : {}),
  setRole: (slug, name, role) => request("PUT", `${base(slug)}/members/${encodeURIComponent(name)}`, { role }),
  drop: (slug, name) => request("DELETE", `${base(slug)}/members/${encodeURIComponent(name)}`),
  announce: (slug, text) => request("POST", `${base(slug)}/announcements`, { text }),
  ladder: (slug) => request("GET", `${base(slug)}/ladder`),
  challenge: (slug, defender) => request("POST", `${base(slug)}/ladder/challenges`, { defender }),
  accept: (slug, id) => request("POST", `${base(slug)}/ladder/challenges/${id}/accept`),
  withdraw: (slug, id) => request("DELETE", `${base(slug)}/ladder/challenges/${id}`),
  imports: (slug) => request("GET", `${base(slug)}/imports`),
  importList: (slug, lines) => request("POST", `${base(slug)}/imports`, { lines }),
  propose: (slug, licence, account) =>
    request("PUT", `${base(slug)}/imports/${encodeURIComponent(licence)}`, { account }),
  answer: (slug, licence, accept) =>
    request("POST", `${base(slug)}/imports/${encodeURIComponent(licence)}/answer`, { accept }),
  playerClubs: (name) => request("GET", `api/players/${encodeURIComponent(name)}/clubs`),
};
