// The lobby's filter of open challenges by their challenger's rank (two selects, 30k to 9d, and
// "hide unranked"), kept in this browser (localStorage) and applied here: the server sends every
// challenge. A challenger without a rank is shown unless "hide unranked" is checked.
import { useState } from "preact/hooks";
import { t } from "../i18n.js";

const KEY = "keima.rankFilter";

/** Every rank, weakest first: "30k" … "1k", "1d" … "9d". */
export const RANKS = [
  ...Array.from({ length: 30 }, (_, i) => `${30 - i}k`),
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`),
];

/** The place of a rank in `RANKS` (weakest 0), or -1 for none or one not written so. */
export const rankIndex = (rank) => RANKS.indexOf(rank || "");

const EVERY = { from: RANKS[0], to: RANKS[RANKS.length - 1], hideUnranked: false };

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (kept && rankIndex(kept.from) >= 0 && rankIndex(kept.to) >= 0) {
      return { from: kept.from, to: kept.to, hideUnranked: Boolean(kept.hideUnranked) };
    }
  } catch {
    // a value written by hand, or no storage: every rank
  }
  return EVERY;
}

/** The filter's state, kept in this browser: `[filter, setFilter]`. */
export function useRankFilter() {
  const [filter, setFilter] = useState(stored);
  function set(next) {
    setFilter(next);
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // a browser that keeps nothing still filters this page
    }
  }
  return [filter, set];
}

/** Whether the challenger `p` (a summary's seat) passes `filter`; the bounds in either order. */
export function passes(filter, p) {
  const at = rankIndex(p?.rank);
  if (at < 0) return !filter.hideUnranked;
  const [lo, hi] = [rankIndex(filter.from), rankIndex(filter.to)].sort((a, b) => a - b);
  return at >= lo && at <= hi;
}

/** The two selects and the box, and how many challenges they hide (`hidden`). */
export function RankFilter({ filter, setFilter, hidden }) {
  const pick = (k) => (e) => setFilter({ ...filter, [k]: e.currentTarget.value });
  return (
    <fieldset class="rank-filter" data-testid="rank-filter">
      <legend>{t("rankFilter")}</legend>
      <label>
        {t("rankFrom")}{" "}
        <select value={filter.from} onChange={pick("from")} data-testid="rank-from">
          {RANKS.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </label>{" "}
      <label>
        {t("rankTo")}{" "}
        <select value={filter.to} onChange={pick("to")} data-testid="rank-to">
          {RANKS.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </label>{" "}
      <label>
        <input type="checkbox" checked={filter.hideUnranked} data-testid="hide-unranked"
          onChange={(e) => setFilter({ ...filter, hideUnranked: e.currentTarget.checked })} />{" "}
        {t("hideUnranked")}
      </label>
      {hidden > 0 && <p class="hint" data-testid="rank-hidden">{t("rankFilterHidden", hidden)}</p>}
    </fieldset>
  );
}
