// A player's name as a link to their page (/p/<name>): in the lobby, on the game page, in the chat.
import { ROOT } from "../api.js";
import { bareName, rankShort, rankTitle } from "./game/names.js";

// The names the server gives: guests ("Guest-4821", "Invité-4821") and deleted accounts ("deleted-482113"),
// which nobody may take (keima.server.text.RESERVED_PREFIXES): they have no page to link to.
const SERVER_NAMES = /^(guest|invité|invite|deleted)-/i;

/** The URL of the page of the player named `name`. */
export const playerUrl = (name) => `${ROOT}p/${encodeURIComponent(name)}`;

/** Whether `name` names an account that has a page (not a guest's nor a deleted account's generated name). */
export const hasPage = (name) => Boolean(name) && !SERVER_NAMES.test(name);

/**
 * The rank beside a name, the same everywhere: " 3k", " 3k?" while provisional, its words on hover
 * and for a screen reader ("3 kyu, provisional"); nothing for a player without a rank.
 */
export function Rank({ p }) {
  const short = rankShort(p);
  if (!short) return null;
  return (
    <>
      {" "}
      <span class="rank" title={rankTitle(p)} data-testid="rank">
        <span aria-hidden="true">{short}</span>
        <span class="visually-hidden">{rankTitle(p)}</span>
      </span>
    </>
  );
}

/** A bare name (a chat message's sender), linked when it has a page; `p`: the seat's player it
 * names, whose rank is shown beside it (none for a spectator). */
export function NameLink({ name, class: cls, p }) {
  const rank = p ? <Rank p={p} /> : null;
  if (!hasPage(name)) return <span class={cls}>{name}{rank}</span>;
  return (
    <>
      <a class={`player-link ${cls || ""}`} href={playerUrl(name)}>
        {name}
      </a>
      {rank}
    </>
  );
}

/**
 * A seat's player ({kind, level, name, rank, provisional}) as "alice 3k?": the name (`bareName`)
 * linked to its page for a person with an account and for a bot (each level of keima and each GTP
 * engine is a rated player: its page is under the name the server gives it, "keima (strong)",
 * whatever the page's language words it), then its rank (`Rank`); a guest, a deleted account: the
 * name and rank unlinked; a free seat: `fallback`.
 */
export function PlayerLink({ p, fallback = "?" }) {
  if (!p || (p.kind !== "bot" && !p.name)) return <>{bareName(p, fallback)}</>;
  const linked = p.kind === "bot" ? Boolean(p.name) : hasPage(p.name);
  return (
    <span class="player">
      {linked ? (
        <a class="player-link" href={playerUrl(p.name)}>
          {bareName(p, fallback)}
        </a>
      ) : (
        bareName(p, fallback)
      )}
      <Rank p={p} />
    </span>
  );
}
