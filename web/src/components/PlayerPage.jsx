// A player's page (/p/<name>): rank and rating, the rating after each rated game as a chart, the games
// (filtered and paged by the server: docs/web-api.md, "Players' games and opponents") and the score
// against each opponent.
import { useEffect, useState } from "preact/hooks";
import { PlayerClubs } from "./Club.jsx";
import { ROOT, api } from "../api.js";
import { useSignal } from "../hooks.js";
import { errorWords, lang, num, pt, ptn, resultCode, t, tn } from "../i18n.js";
import { LineChart } from "./LineChart.jsx";
import { RatingChange } from "./RatingChange.jsx";
import { FinishedLinks, Versus } from "./Lobby.jsx";
import { bareName, playerName, rankShort } from "./game/names.js";
import { playerUrl } from "./PlayerLink.jsx";
import { PlayerFairPlay } from "./FairPlay.jsx";

const PAGE = 10;
const SIZES = [9, 13, 19];
const gameUrl = (id) => `${ROOT}g/${encodeURIComponent(id)}`;

/** "5k", or "5k?" while the rank is provisional (as beside every name: `rankShort`). */
export const rankShown = rankShort;

function dateText(iso) {
  return new Date(iso).toLocaleDateString(lang.get(), { year: "numeric", month: "short", day: "numeric" });
}

/** Won, lost or drawn, from the side of the player who held the seats `mine` (null: not finished, or both
 * seats: a same-screen game). */
function outcomeOf(g, mine) {
  if (!g.result || mine.length !== 1) return null;
  if (g.result === "0") return "drawn";
  const winner = /^([BW])\+/.exec(g.result)?.[1];
  if (!winner) return null;
  return winner === mine[0] ? "won" : "lost";
}

function Summary({ player }) {
  const r = player.rating;
  return (
    <dl class="player-summary" data-testid="player-summary">
      <div>
        <dt>{pt("rank")}</dt>
        <dd data-testid="player-rank">
          {player.rank ? (
            <>
              <strong>{rankShown(player)}</strong> <span class="hint">({t("rankWords", player.rank)})</span>
              {player.provisional && <div class="hint">{pt("provisional")}</div>}
            </>
          ) : (
            <span class="hint">{t("noRankYet")}</span>
          )}
        </dd>
      </div>
      <div>
        <dt>{pt("rating")}</dt>
        <dd data-testid="player-rating">{pt("ratingValue", num(Math.round(r.rating)), num(Math.round(r.deviation)))}</dd>
      </div>
      <div>
        <dt>{pt("gamesTitle")}</dt>
        <dd data-testid="player-record">{pt("record", player.games.won, player.games.lost)}</dd>
      </div>
    </dl>
  );
}

function RatingChart({ name, ratings }) {
  const [picked, setPicked] = useState(null);
  if (!ratings.length) return <p class="empty">{pt("chartEmpty")}</p>;
  const points = ratings.map((r, i) => ({ x: i + 1, y: r.rating, lo: r.rating - r.deviation, hi: r.rating + r.deviation }));
  const value = (r) => pt("ratingValue", num(Math.round(r.rating)), num(Math.round(r.deviation)));
  const chosen = picked == null ? null : ratings[picked - 1];
  return (
    <>
      <LineChart
        series={[{ label: pt("series"), points }]}
        xLabel={pt("chartX")}
        yLabel={pt("chartY")}
        xIntegers
        yFormat={(v) => num(Math.round(v))}
        currentX={picked}
        onPick={setPicked}
        describe={(x) => pt("pickedSpoken", x, dateText(ratings[x - 1].at), value(ratings[x - 1]))}
        ariaLabel={pt("chartLabel", name, ratings.length)}
        height={240}
      />
      <p class="hint">{pt("chartHint")}</p>
      {chosen && (
        <p data-testid="chart-picked" aria-live="polite">
          {pt("picked", picked, dateText(chosen.at), value(chosen))}{" "}
          <a href={gameUrl(chosen.game)}>{pt("game")}</a>{" "}
          <a href={`${ROOT}review?game=${encodeURIComponent(chosen.game)}`}>{t("review")}</a>
        </p>
      )}
    </>
  );
}

function Filters({ filters, setFilters, opponents }) {
  const set = (key) => (e) => setFilters({ ...filters, [key]: e.currentTarget.value, before: "" });
  // People with an account and bot levels: the server finds a person's games against either by name.
  const named = opponents.filter((o) => o.kind === "player" || o.kind === "bot");
  return (
    <form class="player-filters" onSubmit={(e) => e.preventDefault()} data-testid="player-filters">
      <label>
        {pt("status")}{" "}
        <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value,
          result: e.currentTarget.value === "live" ? "" : filters.result, before: "" })} data-testid="filter-status">
          {["finished", "live"].map((s) => (
            <option key={s} value={s}>{ptn("statusNames", s)}</option>
          ))}
        </select>
      </label>
      <label>
        {pt("size")}{" "}
        <select value={filters.size} onChange={set("size")} data-testid="filter-size">
          <option value="">{pt("anything")}</option>
          {SIZES.map((s) => (
            <option key={s} value={s}>{`${s}×${s}`}</option>
          ))}
        </select>
      </label>
      <label>
        {pt("result")}{" "}
        <select value={filters.result} onChange={set("result")} disabled={filters.status === "live"} data-testid="filter-result">
          <option value="">{pt("anything")}</option>
          {["won", "lost"].map((r) => (
            <option key={r} value={r}>{ptn("resultNames", r)}</option>
          ))}
        </select>
      </label>
      <label>
        {pt("opponent")}{" "}
        <select value={filters.opponent} onChange={set("opponent")} data-testid="filter-opponent">
          <option value="">{pt("anyone")}</option>
          {named.map((o) => (
            <option key={o.name} value={o.name}>{playerName(o)}</option>
          ))}
        </select>
      </label>
    </form>
  );
}

/** How a game ended as players write it: "B+R", "W+3.5" ("N+3,5" in French); in French, whose
 * players have no letters for resignation, time or forfeit, the winner's letter and the word
 * ("N+abandon"), so that the history says why in both languages. */
function reasonCode(re) {
  const code = resultCode(re);
  if (code) return code;
  const match = /^([BW])\+([RTF])$/.exec(re || "");
  const word = match && tn("reasonWords", match[2]);
  if (!word) return "";
  return `${match[1] === "B" ? "N" : "B"}+${word}`; // French only: English keeps the letters (resultCode)
}

function GameRow({ g, seats }) {
  const mine = seats || [];
  const outcome = outcomeOf(g, mine);
  const code = g.result ? reasonCode(g.result) : null;
  // The player's own rating change in this game (one seat: a same-screen game moves nobody's).
  const change = mine.length === 1 ? g.rating_change?.[mine[0]] : undefined;
  return (
    <li data-game={g.id}>
      <Versus g={g} />
      <span class="what">
        {/* A finished game is dated by its end: a correspondence game lasts weeks. */}
        {g.ended_at ? t("endedOn", dateText(g.ended_at)) : dateText(g.created_at)} · {g.size}×{g.size}
        {g.status === "finished" ? (
          <>
            {" · "}
            {outcome && <strong class={`outcome ${outcome}`}>{ptn("outcome", outcome)}</strong>}
            {code && ` (${code})`}
            {g.rated && (
              <>
                {" · "}
                <span class="rated-mark" data-testid={`rated-${g.id}`}>{t("ratedGame")}</span>
              </>
            )}
            {typeof change === "number" && <RatingChange points={change} testid={`history-change-${g.id}`} />}
          </>
        ) : (
          ` · ${t("moveNo", g.moves)}`
        )}
      </span>
      <span class="links">
        <a href={gameUrl(g.id)} data-testid={`game-link-${g.id}`}>{g.status === "finished" ? pt("game") : t("watch")}</a>
        {g.status === "finished" && (
          <>
            {" "}
            <FinishedLinks g={g} />
          </>
        )}
      </span>
    </li>
  );
}

function Games({ name, opponents }) {
  const [filters, setFilters] = useState({ status: "finished", size: "", result: "", opponent: "", before: "" });
  const [pages, setPages] = useState([]); // the `before` of each page read before this one
  const [games, setGames] = useState(null);
  const [seats, setSeats] = useState({});
  const [error, setError] = useState(null);
  useEffect(() => {
    let gone = false;
    setError(null);
    api.playerGames(name, { ...filters, limit: PAGE + 1 }).then(
      (r) => {
        if (gone) return;
        setGames(r.games);
        setSeats(r.seats || {});
      },
      (exc) => !gone && setError(errorWords(exc)),
    );
    return () => {
      gone = true;
    };
  }, [name, filters.status, filters.size, filters.result, filters.opponent, filters.before]);

  function change(next) {
    setPages([]);
    setFilters(next);
  }
  // One game more than a page is asked for: it tells whether an older page exists.
  const shown = games ? games.slice(0, PAGE) : [];
  const more = games && games.length > PAGE;
  return (
    <section class="player-games lobby-list" aria-labelledby="player-games-title" data-testid="player-games">
      <h3 id="player-games-title">{pt("gamesTitle")}</h3>
      <Filters filters={filters} setFilters={change} opponents={opponents} />
      {error && <p class="error" role="alert">{error}</p>}
      {games && (shown.length ? <ul>{shown.map((g) => <GameRow key={g.id} g={g} seats={seats[g.id]} />)}</ul>
        : <p class="empty">{pt("noGames")}</p>)}
      <div class="pager">
        {pages.length > 0 && (
          <button type="button" data-testid="newer" onClick={() => {
            setFilters({ ...filters, before: pages[pages.length - 1] });
            setPages(pages.slice(0, -1));
          }}>
            {pt("newer")}
          </button>
        )}
        {pages.length > 0 && <span class="hint">{pt("page", pages.length + 1)}</span>}
        {more && (
          <button type="button" data-testid="older" onClick={() => {
            setPages([...pages, filters.before]);
            setFilters({ ...filters, before: shown[shown.length - 1].id });
          }}>
            {pt("older")}
          </button>
        )}
      </div>
    </section>
  );
}

function Opponents({ opponents }) {
  return (
    <section class="player-opponents lobby-list" aria-labelledby="player-opponents-title" data-testid="player-opponents">
      <h3 id="player-opponents-title">{pt("opponentsTitle")}</h3>
      {opponents.length ? (
        <table class="players">
          <thead>
            <tr>
              <th scope="col">{pt("opponent")}</th>
              <th scope="col">{pt("won")}</th>
              <th scope="col">{pt("lost")}</th>
              <th scope="col">{pt("drawn")}</th>
            </tr>
          </thead>
          <tbody>
            {opponents.map((o) => (
              <tr key={`${o.kind}:${o.name}`}>
                <th scope="row">
                  {o.kind === "player" || o.kind === "bot" ? (
                    <a class="player-link" href={playerUrl(o.name)}>
                      {playerName({ kind: o.kind, name: o.name })}
                    </a>
                  ) : (
                    o.name
                  )}
                  {o.kind === "guest" && <span class="hint"> ({pt("guestTag")})</span>}
                  {o.kind === "deleted" && <span class="hint"> ({pt("deletedTag")})</span>}
                </th>
                <td>{o.won}</td>
                <td>{o.lost}</td>
                <td>{o.drawn}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="empty">{pt("opponentsEmpty")}</p>
      )}
    </section>
  );
}

export function PlayerPage({ name }) {
  useSignal(lang);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let gone = false;
    setData(null);
    setError(null);
    Promise.all([api.player(name), api.ratings(name), api.opponents(name)]).then(
      ([player, ratings, opp]) => !gone && setData({ player, ratings: ratings.ratings, opponents: opp.opponents }),
      (exc) => !gone && setError(exc.status === 404 ? pt("notFound", name) : errorWords(exc)),
    );
    return () => {
      gone = true;
    };
  }, [name]);

  if (error) return <p class="error card" role="alert" data-testid="player-error">{error}</p>;
  if (!data) return <p class="card">{pt("loading")}</p>;
  return (
    <div class="player-page" data-testid="player-page">
      <h2 class="player-title">{data.player.kind === "bot" ? bareName(data.player) : data.player.name}</h2>
      {data.player.kind === "bot" && <p class="hint" data-testid="player-bot">{pt("botNote")}</p>}
      {data.player.kind !== "bot" && <PlayerFairPlay name={data.player.name} />}
      <Summary player={data.player} />
      <section class="player-chart lobby-list" aria-labelledby="player-chart-title">
        <h3 id="player-chart-title">{pt("chartTitle")}</h3>
        <RatingChart name={data.player.name} ratings={data.ratings} />
      </section>
      <Games name={data.player.name} opponents={data.opponents} />
      <Opponents opponents={data.opponents} />
      {data.player.kind !== "bot" && <PlayerClubs name={data.player.name} />}
    </div>
  );
}
