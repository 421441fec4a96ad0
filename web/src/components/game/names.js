// Words shared by the parts of the game page and the lobby.
import { t, tn } from "../../i18n.js";

/** "Black" or "White" in the page's language. */
export const colorName = (c) => (c === "B" ? t("black") : t("white"));

// The seat's words when it resigns: "keima resigns: behind by about 25 points with no open fight".
const RESIGNS = /^(.+?) resigns: behind by about (\d+) points with no open fight$/;

/** Whether the computer's note says why it resigned (shown with the result, unlike the others). */
export const isResignNote = (note) => RESIGNS.test(note || "");

/**
 * The computer's notes in the page's language: why it resigns ("keima resigns: behind by about 25
 * points with no open fight"), where it plays on after a pass ("keima plays on: the border is open
 * at E5; a capturing race is open at D4"), its dispute of a marking ("keima thinks D4 is alive (it
 * lives in 82% of its playouts): play resumes to settle it on the board"). The server words them
 * in English; their parts are read back and said again with the page's words, and a note of
 * another shape is shown as it came.
 */
export function botNoteWords(note) {
  const resigns = RESIGNS.exec(note || "");
  if (resigns) return t("botResigns", resigns[1], Number(resigns[2]));
  const on = /^(.+?) plays on: (.+)$/.exec(note || "");
  if (on) {
    const said = on[2].split("; ").map((part) => {
      const border = /^the border is open at (.+)$/.exec(part);
      if (border) return t("botBorderOpen", border[1]);
      const race = /^a capturing race is open at (.+)$/.exec(part);
      return race ? t("botRaceOpen", race[1]) : null;
    });
    return said.some((p) => p === null) ? note : t("botPlaysOn", on[1], said);
  }
  const whole = /^(.+?) thinks (.+): play resumes to settle it on the board$/.exec(note || "");
  if (!whole) return note;
  const parts = whole[2].split("; ").map((part) =>
    /^(\S+) is (alive|dead)(?: \(it (?:lives|dies) in (\d+)% of its playouts\))?$/.exec(part),
  );
  if (parts.some((p) => !p)) return note;
  return t("botNote", whole[1], parts.map(([, where, thinks, share]) => t("botThinks", where, thinks, share ? Number(share) : null)));
}

/**
 * A player's rank as every name shows it beside: "3k", "3k?" while provisional (the server's
 * `rank` and `provisional`: earned from rated games, or typed before the first one); "" for none.
 */
export const rankShort = (p) => (p?.rank ? `${p.rank}${p.provisional ? "?" : ""}` : "");

/** The rank in words, said to a screen reader and shown on hover: "3 kyu", "3 kyu, provisional". */
export const rankTitle = (p) => (p?.rank ? t("rankShownWords", t("rankWords", p.rank), Boolean(p.provisional)) : "");

/** The name alone of a seat's player: keima with its level in the page's language ("keima (strong)",
 * "keima (fort)"), a GTP engine by its name ("GNU Go"), a person by name; `fallback` for none. */
export function bareName(p, fallback = "?") {
  if (!p) return fallback;
  if (p.kind === "bot") {
    const level = p.level || /^keima \((.+)\)$/.exec(p.name || "")?.[1];
    const words = level ? tn("levelNames", level) : null;
    return words ? t("keimaAt", words) : p.name || t("bot");
  }
  return p.name || fallback;
}

/**
 * The name of a seat's player ({kind, level, name, rank, provisional}) as the page shows it in
 * text: the name (`bareName`) then the rank ("alice 3k?", "keima (strong) 25k?"); `fallback` for a
 * seat without a name.
 */
export function playerName(p, fallback = "?") {
  const name = bareName(p, fallback);
  const rank = rankShort(p);
  return rank ? `${name} ${rank}` : name;
}
