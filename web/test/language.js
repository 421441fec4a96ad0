// The tests' one way to read the page in another language: `fn` runs with the page's language set to `code`, then
// the language it had comes back (a failing test must not leave the next one in French).
import { lang } from "../src/i18n.js";

export function inLanguage(code, fn) {
  const saved = lang.get();
  lang.set(code);
  try {
    return fn();
  } finally {
    lang.set(saved);
  }
}
