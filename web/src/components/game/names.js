// Words shared by the parts of the game page and the lobby.
import { t, tn } from "../../i18n.js";

/** "Black" or "White" in the page's language. */
export const colorName = (c) => (c === "B" ? t("black") : t("white"));

/**
 * The computer's dispute note in the page's language. The server words it in English ("keima thinks
 * D4 is alive (it lives in 82% of its playouts): play resumes to settle it on the board"); its
 * parts are read back and said again with the page's words, and a note of another shape is shown
 * as it came.
 */
export function botNoteWords(note) {
  const whole = /^(.+?) thinks (.+): play resumes to settle it on the board$/.exec(note || "");
  if (!whole) return note;
  const parts = whole[2].split("; ").map((part) =>
    /^(\S+) is (alive|dead)(?: \(it (?:lives|dies) in (\d+)% of its playouts\))?$/.exec(part),
  );
  if (parts.some((p) => !p)) return note;
  return t("botNote", whole[1], parts.map(([, where, thinks, share]) => t("botThinks", where, thinks, share ? Number(share) : null)));
}

/**
 * The name of a seat's player ({kind, level, name, rank}) as the page shows it: keima with its
 * level in the page's language ("keima (strong)", "keima (fort)"), a GTP engine by its name
 * ("GNU Go"), a person by name and rank; `fallback` for a seat without a name.
 */
export function playerName(p, fallback = "?") {
  if (!p) return fallback;
  if (p.kind === "bot") {
    const level = p.level || /^keima \((.+)\)$/.exec(p.name || "")?.[1];
    const words = level ? tn("levelNames", level) : null;
    return words ? t("keimaAt", words) : p.name || t("bot");
  }
  const name = p.name || fallback;
  return p.rank ? `${name} (${t("rankWords", p.rank)})` : name;
}
