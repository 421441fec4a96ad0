// The page's language: from a stored choice, else the browser's list (navigator.languages),
// switched in the header and remembered in localStorage; and numbers written its way.
import { signal } from "../signal.js";

/** The languages of the page, with their names in themselves. */
export const LANGUAGES = [
  ["en", "English"],
  ["fr", "Français"],
];
const CODES = LANGUAGES.map(([code]) => code);

/** Picks "fr" or "en" from a stored choice, then the browser's list, else English. */
export function detectLanguage() {
  if (typeof navigator === "undefined" || typeof localStorage === "undefined") return "en"; // the build's check
  try {
    const stored = localStorage.getItem("keima.lang");
    if (stored && CODES.includes(stored)) return stored;
  } catch {
    // storage may be disabled (private mode): fall back to the browser
  }
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const p of prefs) {
    const base = String(p).toLowerCase().split("-")[0];
    if (CODES.includes(base)) return base;
  }
  return "en";
}

export const lang = signal(detectLanguage());

export function setLanguage(code) {
  if (!CODES.includes(code)) return;
  try {
    localStorage.setItem("keima.lang", code);
  } catch {
    // not remembered, still switched
  }
  document.documentElement.lang = code;
  lang.set(code);
}

/** A number written the way the current language writes it (41.5 / 41,5; French sets a negative number with the
 * minus sign, U+2212, where the formatter gives a hyphen: −12,5). */
export function num(x) {
  if (typeof x !== "number") return String(x ?? "");
  const text = new Intl.NumberFormat(lang.get(), { maximumFractionDigits: 2 }).format(x);
  return lang.get() === "fr" ? text.replace("-", "\u2212") : text;
}
