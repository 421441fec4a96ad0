// A player's name as a link to their page (/p/<name>): in the lobby, on the game page, in the chat.
import { ROOT } from "../api.js";
import { t } from "../i18n.js";
import { playerName } from "./game/names.js";

// The names the server gives: guests ("Guest-4821", "Invité-4821") and deleted accounts ("deleted-482113"),
// which nobody may take (keima.server.text.RESERVED_PREFIXES): they have no page to link to.
const SERVER_NAMES = /^(guest|invité|invite|deleted)-/i;

/** The URL of the page of the player named `name`. */
export const playerUrl = (name) => `${ROOT}p/${encodeURIComponent(name)}`;

/** Whether `name` names an account that has a page (not a guest's nor a deleted account's generated name). */
export const hasPage = (name) => Boolean(name) && !SERVER_NAMES.test(name);

/** A bare name (a chat message's sender), linked when it has a page. */
export function NameLink({ name, class: cls }) {
  if (!hasPage(name)) return <span class={cls}>{name}</span>;
  return (
    <a class={`player-link ${cls || ""}`} href={playerUrl(name)}>
      {name}
    </a>
  );
}

/**
 * A seat's player ({kind, level, name, rank}) as `playerName` words it, the name linked to its page
 * for a person with an account and for a bot (each level of keima and each GTP engine is a rated
 * player: its page is under the name the server gives it, "keima (strong)", whatever the page's
 * language words it); a guest, a deleted account, a free seat: the words alone.
 */
export function PlayerLink({ p, fallback = "?" }) {
  if (p && p.kind === "bot" && p.name) {
    return (
      <a class="player-link" href={playerUrl(p.name)}>
        {playerName(p, fallback)}
      </a>
    );
  }
  if (!p || p.kind === "bot" || !hasPage(p.name)) return <>{playerName(p, fallback)}</>;
  return (
    <>
      <a class="player-link" href={playerUrl(p.name)}>
        {p.name}
      </a>
      {p.rank ? ` (${t("rankWords", p.rank)})` : ""}
    </>
  );
}
