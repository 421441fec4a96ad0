// The page's messages: one table per language (i18n/en.js, i18n/fr.js), each with the game's and
// forms' messages, the lobby's and the chat's, and two groups of their own: `count` (the count
// step by step, the position tool) and `lessons` (review and lessons). Every visible string and
// every screen-reader label goes through these functions so that both languages stay complete.
import { en } from "./i18n/en.js";
import { fr } from "./i18n/fr.js";
import { lang, num } from "./i18n/lang.js";
import { resultIn } from "./i18n/result.js";

export { LANGUAGES, detectLanguage, lang, num, setLanguage } from "./i18n/lang.js";

export const MESSAGES = { en, fr };

/**
 * Names of messages present in one language and missing in another, at any depth ("count.steps.qc-fill");
 * the build fails unless this is empty.
 */
export function missingMessages() {
  const keysOf = (table, prefix = "") =>
    Object.entries(table).flatMap(([k, v]) =>
      v && typeof v === "object" ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`],
    );
  const all = new Set(Object.values(MESSAGES).flatMap((table) => keysOf(table)));
  const missing = [];
  for (const [code, table] of Object.entries(MESSAGES)) {
    const have = new Set(keysOf(table));
    for (const key of all) if (!have.has(key)) missing.push(`${code}: ${key}`);
  }
  return missing;
}

/** The value of `path` (keys) in the current language's table, else in English's; undefined if neither has it. */
function lookup(path) {
  const find = (table) => path.reduce((v, k) => (v && typeof v === "object" && k in v ? v[k] : undefined), table);
  const value = find(MESSAGES[lang.get()] || en);
  return value === undefined ? find(en) : value;
}

/** A message's text: a string, or the result of calling it with args. */
const said = (value, args) => (typeof value === "function" ? value(...args) : value);

/** The message for key in the current language: a string, or the result of calling it with args (the key if none). */
export function t(key, ...args) {
  const value = lookup([key]);
  return value === undefined ? key : said(value, args);
}

/** A nested message (reasons, fields, methodNames), or null. */
export function tn(group, key, ...args) {
  const value = lookup([group, key]);
  return value === undefined ? null : said(value, args);
}

/** A message of the count step by step and the position tool. */
export function ct(key, ...args) {
  const value = lookup(["count", key]);
  return value === undefined ? key : said(value, args);
}

/** A nested message of the count (sources, steps), or null. */
export function ctn(group, key, ...args) {
  const value = lookup(["count", group, key]);
  return value === undefined ? null : said(value, args);
}

/** A message of the review page and the lessons. */
export function rt(key, ...args) {
  const value = lookup(["lessons", key]);
  return value === undefined ? key : said(value, args);
}

/** A message of the player page. */
export function pt(key, ...args) {
  const value = lookup(["player", key]);
  return value === undefined ? key : said(value, args);
}

/** A nested message of the player page (statusNames, outcome, ...), or null. */
export function ptn(group, key, ...args) {
  const value = lookup(["player", group, key]);
  return value === undefined ? null : said(value, args);
}

/** A message of the tournament pages. */
export function tt(key, ...args) {
  const value = lookup(["tourney", key]);
  return value === undefined ? key : said(value, args);
}

/**
 * What is wrong with a record the review page was given, in the current language, from the refusal's
 * `reason` and `line` (docs/web-api.md, POST /api/review); null for a refusal of another kind.
 */
export function sgfFaultWords(exc) {
  const reason = exc?.code === "too-large" ? "too-long" : exc?.field === "sgf" || exc?.reason === "too-long" ? exc?.reason : null;
  const value = reason ? lookup(["lessons", "sgfFaults", reason]) : undefined;
  return value === undefined ? null : said(value, [exc.line ?? null]);
}

/** A lesson text ({en, fr}) in the current language. */
export function lt(text) {
  return text?.[lang.get()] ?? text?.en ?? "";
}

/** Every step kind the server may send (each has a sentence in both languages: the build checks). */
export const STEP_KINDS = Object.keys(en.count.steps);

/** Readable result from an SGF RE string ("B+5.5", "W+R", "0", "Void") in the language `code`. */
export function resultWords(re, code) {
  return resultIn(re, MESSAGES[code] || en);
}

/**
 * A game's result as players write it, in the current language: "B+1.5" in English, "N+1,5" in
 * French (N for noir, B for blanc); "" where the words already say it all (resignation, time,
 * forfeit, draw, void) in French, whose players have no letters for those.
 */
export function resultCode(re) {
  if (!re) return "";
  if (lang.get() !== "fr") return re;
  const match = /^([BW])\+(.*)$/.exec(re);
  if (!match || Number.isNaN(Number(match[2]))) return "";
  return `${match[1] === "B" ? "N" : "B"}+${num(Number(match[2]))}`;
}

/** A time control in words, main time first ("30 min + 3 × 10 s byo-yomi"); the words for no clock if none. */
export function clockSettings(spec) {
  if (!spec || !spec.type || spec.type === "none") return t("noClock");
  const d = (s) => t("duration", Math.round(Number(s) || 0));
  const main = d(spec.main);
  if (spec.type === "byoyomi") {
    return t("clockByoyomiLine", main, spec.periods, d(spec.period)) + (spec.weekend_pause ? t("weekendPauseNote") : "");
  }
  if (spec.type === "canadian") return t("clockCanadianLine", main, spec.stones, d(spec.period));
  const pause = spec.weekend_pause ? t("weekendPauseNote") : "";
  if (spec.type === "simple") return t("clockSimpleLine", d(spec.per_move)) + pause;
  if (spec.type === "fischer") {
    return t("clockFischerLine", main, d(spec.increment), spec.max ? d(spec.max) : null) + pause;
  }
  return t("clockAbsoluteLine", main) + pause;
}

/**
 * A refused request in one voice, in the current language: the field it is about and what to do
 * ("Password: use 6 to 200 characters."), else the field's name and the server's sentence, else
 * what went wrong (`what`, the form's own words for a refusal naming no field, else the
 * error's) and the server's sentence.
 */
export function errorWords(exc, what = null) {
  const field = exc?.field || null;
  const message = String(exc?.message || "").replace(field ? new RegExp(`^${field}: `) : /^$/, "");
  const kept = /Guest|kept|reserved|bot|engine|computer/i;
  const known =
    // new_name: the name a moderator gives an account (POST /api/moderation/actions), checked as any name.
    (exc?.code === "invalid-request" && (field === "name" || field === "new_name") &&
      tn("fieldErrors", kept.test(message) ? "nameKept" : "nameRules")) ||
    (exc?.code === "invalid-request" && field && ["password", "new", "rank"].includes(field) && tn("fieldErrors", field)) ||
    (exc?.code !== "invalid-request" && tn("fieldErrors", exc?.code, message));
  if (known) return known;
  // The server's sentences are English: a page in another language says its own words for the code (and the
  // field) and leaves the server's out, rather than mix two languages; the server's sentence stands alone only
  // for a code the page does not know.
  const serverLanguage = lang.get() === "en";
  const fieldName = field ? tn("fieldNames", field) : null;
  if (fieldName) return serverLanguage ? t("labelled", fieldName, message) : t("fieldRefused", fieldName);
  const own = (exc?.code === "invalid-request" && what) || tn("errors", exc?.code);
  if (!own) return message || t("errorTitle");
  // The server's sentence is left out where the page's words say it already ("Log in first: ...: log in first").
  const repeats = own.toLowerCase().includes(message.toLowerCase());
  if (!serverLanguage || !message || repeats || ["network", "no-such-game"].includes(exc?.code)) return own;
  return t("labelled", own, message);
}
