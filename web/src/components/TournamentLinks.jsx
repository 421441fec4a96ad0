// Dates and links: the tournament list's lines (dates, place, status, players), the tournament's dates and place
// on its page, and the tournament a game belongs to, named on the game's page with a link back.
import { ROOT } from "../api.js";
import { lang, t as tr } from "../i18n.js";

function day(iso) {
  if (!iso) return "";
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(y, m - 1, d).toLocaleDateString(lang.get(), { year: "numeric", month: "short", day: "numeric" });
}

/** "5 Dec 2026" or "5 Dec 2026 – 6 Dec 2026", with the place. */
export function datesAndPlace(x) {
  const dates = x.begin_date && x.end_date && x.end_date !== x.begin_date
    ? `${day(x.begin_date)} – ${day(x.end_date)}` : day(x.begin_date);
  return [dates, x.location].filter(Boolean).join(" · ");
}

function status(x) {
  if (x.status === "round") return tr("tpStatus_round", x.round, x.rounds);
  return tr(`tpStatus_${x.status}`);
}

/** The tournaments of the list, each with its dates, place, status and number of players. */
export function TournamentLines({ list }) {
  return (
    <ul class="tourney-list" data-testid="tournament-list">
      {list.map((x) => (
        <li key={x.id} data-testid={`t-line-${x.id}`}>
          <a href={`${ROOT}t/${encodeURIComponent(x.id)}`}>{x.name}</a>
          <span class="what">
            {" · "}
            {[datesAndPlace(x), status(x), tr("tpPlayersCount", x.players)].filter(Boolean).join(" · ")}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** On a game's page: the tournament, round and table it is played at, linking to the tournament. */
export function GameEvent({ event }) {
  if (!event) return null;
  return (
    <p class="game-event" data-testid="game-event">
      <a href={`${ROOT}t/${encodeURIComponent(event.id)}`}>{event.name}</a>
      {" · "}
      {tr("tpGameEvent", event.round, event.table)}
    </p>
  );
}
