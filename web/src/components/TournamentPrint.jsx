// The printable sheets of a round (/t/<id>?sheet=pairings|results&round=n): A4 in portrait, the page's header
// hidden. The pairing sheet lists the tables (names, ranks, colours, handicap) and, for the players, their table
// by name; the result sheet has a box for each table's result and the players' signatures.
import { useEffect } from "preact/hooks";
import { ROOT } from "../api.js";
import { t as tr, tt } from "../i18n.js";
import { datesAndPlace } from "./TournamentLinks.jsx";
import { localTime, playerNameOf } from "./TournamentPairing.jsx";
import "../tournament-print.css";
import { TableHead } from "./TableHead.jsx";

function who(t, key) {
  const p = t.players.find((x) => x.key === key);
  return { name: playerNameOf(t, key), rank: p ? p.rank : "" };
}

function Head({ t, round, title }) {
  const place = datesAndPlace(t.settings);
  return (
    <div class="sheet-head">
      <h1 data-testid="sheet-title">{t.name}</h1>
      <h2>{title}</h2>
      {(place || round.start_at) && (
        <p>
          {place}
          {round.start_at ? `${place ? " · " : ""}${localTime(round.start_at)}` : ""}
        </p>
      )}
    </div>
  );
}

function PairingSheet({ t, round }) {
  const seats = [];
  for (const g of round.games) {
    seats.push({ key: g.white, table: g.table, colour: tt("white"), opp: g.black, hd: g.handicap });
    seats.push({ key: g.black, table: g.table, colour: tt("black"), opp: g.white, hd: g.handicap });
  }
  seats.sort((x, y) => playerNameOf(t, x.key).localeCompare(playerNameOf(t, y.key)));
  return (
    <>
      <Head t={t} round={round} title={tr("tpPairingsOf", round.round)} />
      <table class="sheet-table" data-testid="sheet-pairings-table">
        <TableHead cells={[tt("table"), tt("white"), tt("rank"), tt("black"), tt("rank"), tr("tpHandicap")]} />
        <tbody>
          {round.games.map((g) => {
            const w = who(t, g.white);
            const b = who(t, g.black);
            return (
              <tr key={g.table}>
                <td class="num">{g.table}</td>
                <td>{w.name}</td>
                <td>{w.rank}</td>
                <td>{b.name}</td>
                <td>{b.rank}</td>
                <td class="num">{g.handicap || ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {round.bye && <p class="sheet-bye">{tr("tpByeOf", playerNameOf(t, round.bye))}</p>}
      <h2 class="sheet-break">{tr("tpFindTable")}</h2>
      <table class="sheet-table find" data-testid="sheet-find-table">
        <TableHead cells={[tt("player"), tt("table"), tr("tpColour"), tr("tpOpponent")]} />
        <tbody>
          {seats.map((x) => (
            <tr key={x.key}>
              <td>{playerNameOf(t, x.key)}</td>
              <td class="num">{x.table}</td>
              <td>{x.colour}</td>
              <td>{playerNameOf(t, x.opp)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function ResultSheet({ t, round }) {
  return (
    <>
      <Head t={t} round={round} title={tr("tpResultsOf", round.round)} />
      <p class="sheet-hint">{tr("tpResultHint")}</p>
      <table class="sheet-table results" data-testid="sheet-results-table">
        <TableHead cells={[tt("table"), tt("white"), tt("black"), tr("tpHandicap"), tr("tpResultBox"), tr("tpSignatures")]} />
        <tbody>
          {round.games.map((g) => {
            const w = who(t, g.white);
            const b = who(t, g.black);
            return (
              <tr key={g.table}>
                <td class="num">{g.table}</td>
                <td>
                  {w.name} <span class="rank">{w.rank}</span>
                </td>
                <td>
                  {b.name} <span class="rank">{b.rank}</span>
                </td>
                <td class="num">{g.handicap || ""}</td>
                <td class="box" aria-label={tr("tpResultBox")}></td>
                <td class="sign"></td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {round.bye && <p class="sheet-bye">{tr("tpByeOf", playerNameOf(t, round.bye))}</p>}
    </>
  );
}

/** The sheet `kind` ("pairings" or "results") of round `rn` of the tournament `t`. */
export function TournamentSheet({ t, kind, rn }) {
  useEffect(() => {
    document.body.classList.add("print-sheet");
    return () => document.body.classList.remove("print-sheet");
  }, []);
  const round = t.round_list[rn - 1] || t.round_list[0];
  return (
    <div class="sheet" data-testid={`sheet-${kind}`}>
      <p class="sheet-tools">
        <button onClick={() => window.print()} data-testid="sheet-print">
          {tr("tpPrint")}
        </button>{" "}
        <a href={`${ROOT}t/${encodeURIComponent(t.id)}`}>{tr("tpBack")}</a>
      </p>
      {kind === "results" ? <ResultSheet t={t} round={round} /> : <PairingSheet t={t} round={round} />}
    </div>
  );
}
