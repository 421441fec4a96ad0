// A tournament's settings (docs/web-api.md, *Tournaments*; docs/tournaments.md, *Settings*): the form that
// creates one, with the defaults of the chosen board and system, and the directors' settings box on its
// page, which sends only what changed. Once a round is paired the board, system, bar and floor are fixed
// (the server says 409 and why); the page shows them fixed.
import { useEffect, useState } from "preact/hooks";
import { ClubRestriction } from "./ClubGames.jsx";
import { request } from "../api.js";
import { tn, tt } from "../i18n.js";
import { ErrorNote } from "./ErrorNote.jsx";
import "../tournament-edit.css";

/** A message of the settings and players' boxes (the key itself when missing). */
export function et(key, ...args) {
  return tn("tourneyEdit", key, ...args) ?? key;
}

/** The handicap ceiling a McMahon tournament starts with per board (the server's settings.CEILING_BY_SIZE). */
const CEILING = { 9: 2, 13: 4, 19: 9 };
const DEFAULT_CRITERIA = { mcmahon: ["MMS", "SOSM", "SOSOSM"], swiss: ["NBW", "SOSW", "SOSOSW"] };
/** The placement criteria OpenGotha offers (the names its files write). */
export const CRITERIA = ["MMS", "SOSM", "SOSM-1", "SOSM-2", "SODOSM", "SOSOSM", "CUSSM", "NBW", "SOSW", "SOSW-1",
  "SOSW-2", "SODOSW", "SOSOSW", "CUSSW", "CPS", "EXT", "EXR", "SDC", "DC", "Rank", "Rating"];
const OVERTIMES = ["byoyomi", "canadian", "fischer", "sudden_death"];
/** The settings that are ranks (lower case as the server answers them). */
const RANKS = ["mm_bar", "mm_floor", "no_handicap_above"];

/** The label of each field the server may name in a refusal. */
function labels() {
  return {
    name: tt("name"), rounds: tt("rounds"), system: tt("system"), size: tt("size"), komi: et("komi"),
    short_name: et("shortName"), begin_date: et("beginDate"), end_date: et("endDate"), location: et("location"),
    mm_bar: et("mmBar"), mm_floor: et("mmFloor"), handicap_ceiling: et("ceiling"),
    handicap_correction: et("correction"), no_handicap_above: et("noHandicapAbove"), main_time: et("mainTime"),
    byoyomi_seconds: et("byoyomiSeconds"), canadian_stones: et("canadianStones"),
    canadian_seconds: et("canadianSeconds"), fischer_seconds: et("fischerSeconds"), criteria: et("criteria"),
    forfeit_minutes: et("forfeitMinutes"), rank: tt("rank"), rating: et("rating"), country: et("country"),
    club: tt("club"), first_name: tt("firstName"), ffg_licence: et("licence"), egf_pin: et("pin"),
    account: et("account"),
  };
}

/**
 * A refusal of the settings or players' changes in the page's words (ErrorNote's `words`): the field's
 * label and why; null where errorWords says it well already.
 */
export function editWords(error) {
  const field = (error?.field || "").split(".")[0];
  const label = labels()[field];
  if (error?.code === "wrong-phase") {
    if (error.reason === "withdrawn") return et("noRoundLeft");
    if (field === "rounds") return et("roundsLocked");
    if (label && error.reason === "paired") return et("locked", label);
    if (label && error.reason === "started") return et("started", label);
    return null;
  }
  if (error?.code !== "invalid-request" || !label) return null;
  if (["rank", ...RANKS].includes(field)) return et("badRank", label);
  if (field === "criteria" && /before any other score/.test(error.message || "")) return et("criteriaOrder");
  const message = String(error.message || "").replace(new RegExp(`^${field}[^:]*: `), "");
  return message ? et("labelled", label, message) : et("fieldRefused", label);
}

/** The values a new tournament starts with on `size` and `system`. */
function defaults(size, system) {
  return {
    name: "", short_name: "", begin_date: "", end_date: "", location: "", rounds: 5, system, size, komi: 7.5,
    mm_bar: "4d", mm_floor: "20k", handicap_ceiling: system === "mcmahon" ? CEILING[size] ?? 9 : 0,
    handicap_correction: 1, handicap_based_on: "mms", no_handicap_above: "1d", main_time: 60,
    overtime: "byoyomi", byoyomi_seconds: 30, canadian_stones: 15, canadian_seconds: 300, fischer_seconds: 10,
    criteria: DEFAULT_CRITERIA[system], online: false, rated: false, registration_open: true, forfeit_minutes: 15,
  };
}

/** The values of a tournament as its page has them (the editor's starting point). */
function current(t) {
  return { name: t.name, rounds: t.rounds, system: t.system, size: t.size, komi: Number(t.komi), ...t.settings };
}

/** The fields of both forms; `v` the values, `set(patch)`, `locked` the fields a paired round fixes. */
function SettingsFields({ v, set, locked = [], prefix }) {
  const id = (k) => `${prefix}-${k}`;
  const text = (k, props = {}) => (
    <input id={id(k)} value={v[k]} onInput={(e) => set({ [k]: e.currentTarget.value })} disabled={locked.includes(k)}
           data-testid={id(k)} {...props} />
  );
  const number = (k, min, max, props = {}) =>
    text(k, { type: "number", min, max, onInput: (e) => set({ [k]: e.currentTarget.value }), ...props });
  const select = (k, options) => (
    <select id={id(k)} value={v[k]} onChange={(e) => set({ [k]: e.currentTarget.value })}
            disabled={locked.includes(k)} data-testid={id(k)}>
      {options.map(([value, words]) => <option key={value} value={value}>{words}</option>)}
    </select>
  );
  const check = (k, words) => (
    <label class="check">
      <input type="checkbox" checked={v[k]} onChange={(e) => set({ [k]: e.currentTarget.checked })}
             data-testid={id(k)} /> {words}
    </label>
  );
  const field = (k, words, input, cls = "") => (
    <label class={cls} for={id(k)}>
      {words}
      {input}
    </label>
  );
  const criteria = [...v.criteria, ...Array(Math.max(0, 6 - v.criteria.length)).fill("")].slice(0, 6);
  const setCriterion = (i, name) => {
    const next = criteria.map((c, j) => (j === i ? name : c)).filter(Boolean);
    set({ criteria: next });
  };
  return (
    <>
      <fieldset class="tourney-fields">
        <legend>{et("groupTournament")}</legend>
        {field("name", tt("name"), text("name", { required: true, maxLength: 100 }), "wide")}
        {field("short_name", et("shortName"), text("short_name", { maxLength: 20, size: 12 }))}
        {field("begin_date", et("beginDate"), text("begin_date", { type: "date" }))}
        {field("end_date", et("endDate"), text("end_date", { type: "date" }))}
        {field("location", et("location"), text("location", { maxLength: 100 }))}
      </fieldset>
      <fieldset class="tourney-fields">
        <legend>{et("groupGames")}</legend>
        {field("rounds", tt("rounds"), number("rounds", 1, 20))}
        {field("system", tt("system"), select("system", [["mcmahon", "McMahon"], ["swiss", tt("swiss")]]))}
        {field("size", tt("size"), select("size", [19, 13, 9].map((n) => [n, `${n}×${n}`])))}
        {field("komi", et("komi"), number("komi", -100, 100, { step: 0.5 }))}
        {v.system === "mcmahon" && field("mm_bar", et("mmBar"), text("mm_bar", { size: 4, maxLength: 4, placeholder: "4d" }))}
        {v.system === "mcmahon" && field("mm_floor", et("mmFloor"), text("mm_floor", { size: 4, maxLength: 4, placeholder: "20k" }))}
      </fieldset>
      <fieldset class="tourney-fields">
        <legend>{et("groupHandicap")}</legend>
        {field("handicap_ceiling", et("ceiling"), number("handicap_ceiling", 0, 9))}
        {field("handicap_correction", et("correction"), number("handicap_correction", 0, 3))}
        {field("handicap_based_on", et("basedOn"),
               select("handicap_based_on", [["mms", et("basedMms")], ["rank", et("basedRank")]]))}
        {field("no_handicap_above", et("noHandicapAbove"),
               text("no_handicap_above", { size: 4, maxLength: 4, placeholder: "1d" }))}
      </fieldset>
      <fieldset class="tourney-fields">
        <legend>{et("groupTime")}</legend>
        {field("main_time", et("mainTime"), number("main_time", 0, 600))}
        {field("overtime", et("overtime"), select("overtime", OVERTIMES.map((o) => [o, tn("tourneyEdit", "overtimeNames")?.[o] ?? o])))}
        {v.overtime === "byoyomi" && field("byoyomi_seconds", et("byoyomiSeconds"), number("byoyomi_seconds", 1, 3600))}
        {v.overtime === "canadian" && field("canadian_stones", et("canadianStones"), number("canadian_stones", 1, 100))}
        {v.overtime === "canadian" && field("canadian_seconds", et("canadianSeconds"), number("canadian_seconds", 1, 3600))}
        {v.overtime === "fischer" && field("fischer_seconds", et("fischerSeconds"), number("fischer_seconds", 1, 3600))}
      </fieldset>
      <fieldset class="tourney-fields">
        <legend>{et("criteria")}</legend>
        {criteria.map((c, i) => (
          <label key={i} for={id(`criterion-${i + 1}`)}>
            {et("criterionN", i + 1)}
            <select id={id(`criterion-${i + 1}`)} value={c} onChange={(e) => setCriterion(i, e.currentTarget.value)}
                    data-testid={id(`criterion-${i + 1}`)}>
              <option value="">—</option>
              {CRITERIA.map((name) => <option key={name} value={name}>{name}</option>)}
            </select>
          </label>
        ))}
      </fieldset>
      <fieldset class="tourney-fields">
        <legend>{et("groupPlay")}</legend>
        {check("online", tt("online"))}
        {check("rated", tt("rated"))}
        {check("registration_open", tt("registrationOpen"))}
        {v.online && field("forfeit_minutes", et("forfeitMinutes"), number("forfeit_minutes", 1, 240))}
        <ClubRestriction value={v.club ?? null} onChange={(club) => set({ club })} id={id("club")} />
      </fieldset>
    </>
  );
}

/** The body of a request from the form's values: numbers as numbers, empty texts left out. */
function body(v, keys) {
  const out = {};
  for (const k of keys) {
    let x = v[k];
    if (["rounds", "size", "handicap_ceiling", "handicap_correction", "main_time", "byoyomi_seconds",
         "canadian_stones", "canadian_seconds", "fischer_seconds", "forfeit_minutes"].includes(k)) x = Number(x);
    if (k === "komi") x = Number(x);
    if (typeof x === "string" && !x.trim() && k !== "location") continue;
    out[k] = x;
  }
  return out;
}

/** The form that creates a tournament (the caller directs it): every setting, the board's defaults. */
export function NewTournamentForm({ onOpen }) {
  const [v, setV] = useState(() => defaults(19, "mcmahon"));
  const [touched, setTouched] = useState(new Set());
  const [error, setError] = useState(null);
  const set = (patch) => {
    setTouched(new Set([...touched, ...Object.keys(patch)]));
    const next = { ...v, ...patch };
    // The board's and the system's defaults: the ceiling unless the director set it by hand, the criteria
    // whenever the system changes.
    const d = defaults(Number(next.size), next.system);
    if (("size" in patch || "system" in patch) && !touched.has("handicap_ceiling")) next.handicap_ceiling = d.handicap_ceiling;
    if ("system" in patch) next.criteria = d.criteria;
    setV(next);
  };

  async function submit(e) {
    e.preventDefault();
    setError(null);
    try {
      const made = await request("POST", "api/tournaments", body(v, Object.keys(v)));
      onOpen(made.id);
    } catch (exc) {
      setError(exc);
    }
  }

  return (
    <form class="tourney-form tourney-settings" onSubmit={submit} data-testid="tournament-form">
      <SettingsFields v={v} set={set} prefix="t" />
      <button type="submit" data-testid="t-create">{tt("create")}</button>
      <ErrorNote error={error} words={editWords} />
    </form>
  );
}

/** The directors' settings box on a tournament's page. */
export function TournamentSettings({ t, reload }) {
  const [v, setV] = useState(() => current(t));
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  // A change by another director (the socket) shows here unless this director is editing.
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setV(current(t));
  }, [t.version]);
  const set = (patch) => {
    setEditing(true);
    setSaved(false);
    setV((old) => ({ ...old, ...patch }));
  };
  const locked = t.settings.locked || [];

  async function save(e) {
    e.preventDefault();
    setError(null);
    const was = current(t);
    const same = (a, b) => (Array.isArray(a) ? JSON.stringify(a) === JSON.stringify(b) : String(a) === String(b));
    const changed = Object.keys(v).filter((k) => k !== "locked" && !same(v[k], was[k]));
    try {
      await request("PATCH", `api/tournaments/${encodeURIComponent(t.id)}`, body(v, changed));
      setEditing(false);
      setSaved(true);
      await reload();
    } catch (exc) {
      setError(exc);
    }
  }

  return (
    <section class="tourney-box" data-testid="t-settings">
      <details>
        <summary data-testid="t-settings-open">{et("settingsTitle")}</summary>
        {locked.length > 0 && <p class="what" data-testid="t-locked">{et("lockedNote")}</p>}
        <form class="tourney-form tourney-settings" onSubmit={save}>
          <SettingsFields v={v} set={set} locked={locked} prefix="s" />
          <button type="submit" data-testid="t-settings-save">{et("save")}</button>
          {saved && <span class="what" role="status" data-testid="t-settings-saved">{et("saved")}</span>}
          <ErrorNote error={error} words={editWords} />
        </form>
      </details>
    </section>
  );
}
