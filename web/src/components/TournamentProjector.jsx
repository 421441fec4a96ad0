// The projector's view (/t/<id>?projector): the round's pairings and the standings in large type, one screenful
// at a time, turning pages by themselves every few seconds (?every=N seconds, 8 by default) so that a room reads
// every line without anyone scrolling. A page holds as many rows as fit the screen's height (rows are sized in
// viewport units: the same count at 1280x720 and 1920x1080), in two columns on a wide screen.
import { useEffect, useState } from "preact/hooks";
import { t as tr, tt } from "../i18n.js";
import { playerNameOf } from "./TournamentPairing.jsx";
import "../tournament-projector.css";
import { TableHead, pairingColumns, standingColumns } from "./TableHead.jsx";

/** Rows of a column: (100vh - title - footer - column head) / row height, all in vh (see the CSS). */
const ROWS = 16;

function every() {
  const n = Number(new URLSearchParams(location.search).get("every"));
  return n >= 1 && n <= 120 ? n : 8;
}

function chunks(list, size) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out.length ? out : [[]];
}

/** The screens to show in turn: the pairings of the last paired round, then the standings. */
function screens(t, standings, perPage) {
  const out = [];
  const paired = t.round_list.filter((r) => r.games.length || r.bye);
  const round = paired.length ? paired[paired.length - 1] : null;
  if (round) {
    const rows = round.games.map((g) => ({ kind: "game", g }));
    if (round.bye) rows.push({ kind: "bye", key: round.bye });
    const pages = chunks(rows, perPage);
    pages.forEach((rows, i) => out.push({ kind: "pairings", round: round.round, rows, page: i + 1, pages: pages.length }));
  }
  if (standings && standings.lines.length) {
    const pages = chunks(standings.lines, perPage);
    pages.forEach((rows, i) => out.push({ kind: "standings", rows, page: i + 1, pages: pages.length }));
  }
  return out;
}

function columns() {
  return window.innerWidth / window.innerHeight >= 1.5 && window.innerWidth >= 1100 ? 2 : 1;
}

/** Names longer than this take two lines of smaller type (a table's name column holds about this many letters
 * in large type on a 16:9 screen in two columns). */
const LONG_NAME = 18;

/** A player's name in a projected table, read whole: a long one on two lines of smaller type, not cut. */
function NameCell({ name }) {
  return (
    <td class={name.length > LONG_NAME ? "name long" : "name"} title={name}>
      <span>{name}</span>
    </td>
  );
}

function PairingRows({ t, rows }) {
  return (
    <table class="proj-table">
      <TableHead cells={pairingColumns()} />
      <tbody>
        {rows.map((x) =>
          x.kind === "bye" ? (
            <tr key="bye">
              <td class="num">–</td>
              <td colSpan={4}>{tr("tpByeOf", playerNameOf(t, x.key))}</td>
            </tr>
          ) : (
            <tr key={x.g.table} data-testid={`table-${x.g.table}`}>
              <td class="num">{x.g.table}</td>
              <NameCell name={playerNameOf(t, x.g.white)} />
              <NameCell name={playerNameOf(t, x.g.black)} />
              <td class="num">{x.g.handicap || ""}</td>
              <td>{x.g.result === "unknown" ? "" : tt(`res_${x.g.result}`)}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function StandingRows({ t, criteria, rows }) {
  return (
    <table class="proj-table">
      <TableHead cells={standingColumns(criteria)} />
      <tbody>
        {rows.map((x) => (
          <tr key={x.key} data-testid={`proj-line-${x.key}`}>
            <td class="num">{x.place}</td>
            <NameCell name={playerNameOf(t, x.key)} />
            <td>{x.rank}</td>
            {criteria.map((c) => (
              <td key={c} class="num">
                {x.values[c]}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The projector's view of tournament `t` with its `standings`; `onLeave` goes back to the page. */
export function TournamentProjector({ t, standings, onLeave }) {
  const [cols, setCols] = useState(columns);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const resize = () => setCols(columns());
    window.addEventListener("resize", resize);
    const timer = setInterval(() => setIndex((i) => i + 1), every() * 1000);
    return () => {
      window.removeEventListener("resize", resize);
      clearInterval(timer);
    };
  }, []);
  const list = screens(t, standings, ROWS * cols);
  const screen = list.length ? list[index % list.length] : null;
  const title = !screen
    ? ""
    : screen.kind === "pairings"
      ? tr("tpPairingsOf", screen.round)
      : tt("standingsAfter", standings.after_round);
  const halves = screen ? chunks(screen.rows, ROWS) : [];
  return (
    <div class="projector-view" data-testid="projector">
      <div class="proj-head">
        <h2 data-testid="t-title">{t.name}</h2>
        <h3 data-testid="proj-title">{title}</h3>
        <button class="link" onClick={onLeave} data-testid="t-projector">
          {tt("projectorOff")}
        </button>
      </div>
      {screen && (
        <div class={`proj-columns cols-${cols}`} data-testid={`proj-${screen.kind}`}>
          {halves.map((rows, i) =>
            screen.kind === "pairings" ? (
              <PairingRows key={i} t={t} rows={rows} />
            ) : (
              <StandingRows key={i} t={t} criteria={standings.criteria} rows={rows} />
            ),
          )}
        </div>
      )}
      {screen && screen.pages > 1 && (
        <p class="proj-page" data-testid="proj-page">
          {tr("tpPage", screen.page, screen.pages)}
        </p>
      )}
    </div>
  );
}
