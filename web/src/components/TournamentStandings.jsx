// The standings after any round (a round selector; by default the last round with a result, following the page's
// live updates), and the tournament's log of changes in words, in the reader's language and time zone.
import { useEffect, useState } from "preact/hooks";
import { request } from "../api.js";
import { t as tr, tt } from "../i18n.js";
import { localTime, playerNameOf } from "./TournamentPairing.jsx";
import { TableHead, standingColumns } from "./TableHead.jsx";

const base = (id) => `api/tournaments/${encodeURIComponent(id)}`;

/** The standings of `t`: `standings` (the page's, live) unless the reader picks another round. */
export function TournamentStandings({ t, standings }) {
  const [picked, setPicked] = useState(null); // null: the page's standings
  const [other, setOther] = useState(null);
  useEffect(() => {
    if (picked === null) return;
    request("GET", `${base(t.id)}/standings?after_round=${picked}`).then(setOther, () => setOther(null));
  }, [picked, t.version]);
  const shown = picked !== null && other ? other : standings;
  if (!shown || !shown.lines.length) return null;
  const played = standings ? standings.after_round : 0;
  return (
    <section class="tourney-box">
      <h3>{tt("standingsAfter", shown.after_round)}</h3>
      <label class="what standings-pick">
        {tr("tpStandingsAfter")}{" "}
        <select
          value={picked === null ? played : picked}
          onChange={(e) => setPicked(Number(e.currentTarget.value))}
          data-testid="standings-round"
        >
          {Array.from({ length: played + 1 }, (_, n) => (
            <option key={n} value={n}>
              {tr("tpAfterRound", n)}
            </option>
          ))}
        </select>
      </label>
      <div class="scroll" tabIndex={0} role="region" aria-label={tt("standingsAfter", shown.after_round)}>
        <table class="tourney-table" data-testid="standings">
          <TableHead cells={standingColumns(shown.criteria)} />
          <tbody>
            {shown.lines.map((x) => (
              <tr key={x.key}>
                <td class="num">{x.place}</td>
                <td>{playerNameOf(t, x.key)}</td>
                <td>{x.rank}</td>
                {shown.criteria.map((c) => (
                  <td key={c} class="num">
                    {x.values[c]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The log of changes, read when opened (and again when the tournament changes while it is open). */
export function TournamentLog({ t }) {
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState(null);
  useEffect(() => {
    if (!open) return;
    request("GET", `${base(t.id)}/log`).then((d) => setEntries(d.entries), () => setEntries([]));
  }, [open, t.version]);
  const nm = (key) => (key ? playerNameOf(t, key) : "—");
  return (
    <section class="tourney-box">
      <details onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="t-log">
        <summary>
          <h3 class="inline">{tr("tpLog")}</h3>
        </summary>
        {entries === null ? (
          <p>…</p>
        ) : entries.length === 0 ? (
          <p class="empty">{tr("tpLogEmpty")}</p>
        ) : (
          <ol class="t-log" data-testid="t-log-lines">
            {[...entries].reverse().map((e) => (
              <li key={e.seq}>
                <time dateTime={e.at}>{localTime(e.at)}</time> · <strong>{e.by}</strong>{" "}
                {tr("tpLogLine", e.action, e.detail || {}, nm)}
              </li>
            ))}
          </ol>
        )}
      </details>
    </section>
  );
}
