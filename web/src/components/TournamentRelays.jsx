// Relays of tables played at the table (docs/teaching.md): on a tournament's page, the relayed boards live (the
// latest round's top tables drawn, every relay linked), and for its directors the form that gives a table to a
// recorder; on the relay's board, the recorder's result sent to the table.
import "../demo.css";
import { useEffect, useMemo, useState } from "preact/hooks";
import { ROOT, request } from "../api.js";
import { applyOp, positionAt } from "../demoBoard.js";
import { useSignal } from "../hooks.js";
import { lang, t } from "../i18n.js";
import { LiveSocket } from "../socket.js";
import { Board } from "./Board.jsx";
import { ErrorNote } from "./ErrorNote.jsx";
import { ReviewTogether } from "./DemoBoards.jsx";

const DRAWN = 2; // the top tables of the latest round drawn on the page; the others are links
const enc = encodeURIComponent;

/** A relayed board drawn live from its socket (read only). */
function LiveRelay({ id }) {
  const [board, setBoard] = useState(null);
  useEffect(() => {
    const s = new LiveSocket(`api/boards/${enc(id)}/ws`, {
      onMessage: (msg) => {
        if (msg.type === "state") setBoard(msg.board);
        else if (msg.type === "delta") {
          setBoard((b) => {
            if (b && msg.from === b.version) return { ...applyOp(b, msg.op), version: msg.to };
            s.sendRaw({ type: "resync" });
            return b;
          });
        }
      },
    });
    return () => s.close();
  }, [id]);
  const pos = useMemo(() => (board ? positionAt(board.tree, board.cursor) : null), [board]);
  if (!board) return null;
  return <Board size={board.tree.size} board={pos.colors} lastMove={pos.last} interactive={false} maxWidth={300} maxHeight={300} />;
}

/** The tournament page's section; `act(method, path, body)` is the page's change (true once stored). */
export function TournamentRelays({ tour, round, director, act }) {
  useSignal(lang);
  const [relays, setRelays] = useState([]);
  const [table, setTable] = useState("");
  const [recorder, setRecorder] = useState("");
  useEffect(() => {
    request("GET", `api/tournaments/${enc(tour.id)}/relays`).then((r) => setRelays(r.relays), () => {});
  }, [tour]);
  const tables = (round?.games || []).filter((g) => !g.game);
  if (!relays.length && !(director && tables.length)) return null;
  const latest = relays.length ? relays[0].round : 0;
  return (
    <section class="tourney-box" data-testid="relays">
      <h3>{t("relTitle")}</h3>
      {relays.length ? (
        <ul class="relays">
          {relays.map((r, i) => (
            <li key={r.board} data-board={r.board}>
              <a href={`${ROOT}d/${enc(r.board)}`}>{t("relLine", r.round, r.table, r.black, r.white)}</a>{" "}
              <span class="what">{t("relBy", r.recorder, r.watchers)}</span>
              {director && <ReviewTogether gameId={null} event={{ id: tour.id, round: r.round, table: r.table }} />}
              {r.round === latest && i < DRAWN && <LiveRelay id={r.board} />}
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">{t("relNone")}</p>
      )}
      {director && tables.length > 0 && (
        <form class="relay-form" onSubmit={(e) => {
          e.preventDefault();
          act("PUT", `rounds/${round.round}/tables/${table || tables[0].table}/relay`, { recorder }).then((ok) => ok && setRecorder(""));
        }}>
          <label>{t("relTable")}
            <select value={table || tables[0].table} onChange={(e) => setTable(e.currentTarget.value)} data-testid="relay-table">
              {tables.map((g) => <option key={g.table} value={g.table}>{g.table}</option>)}
            </select>
          </label>
          <label>{t("relRecorder")}
            <input value={recorder} required maxLength={40} onInput={(e) => setRecorder(e.currentTarget.value)} data-testid="relay-recorder" />
          </label>
          <button type="submit" data-testid="relay-give">{t("relGive")}</button>
        </form>
      )}
    </section>
  );
}

/** On a relay's board, for those in control: the table's result, sent to the tournament. */
export function RelayResult({ relay }) {
  useSignal(lang);
  const [result, setResult] = useState("black");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState(null);
  async function send(evt) {
    evt.preventDefault();
    setError(null);
    try {
      await request("PUT", `api/tournaments/${enc(relay.tournament)}/rounds/${relay.round}/tables/${relay.table}/relay/result`, { result });
      setSent(true);
    } catch (exc) {
      setError(exc);
    }
  }
  return (
    <form class="relay-result" onSubmit={send} data-testid="relay-result">
      <label>{t("relResult", relay.round, relay.table)}
        <select value={result} onChange={(e) => setResult(e.currentTarget.value)}>
          {["black", "white", "draw"].map((r) => <option key={r} value={r}>{t(`relWins_${r}`)}</option>)}
        </select>
      </label>
      <button type="submit" disabled={sent} data-testid="relay-send">{t("relSend")}</button>
      {sent && <span role="status">{t("relSent")}</span>}
      <ErrorNote error={error} />
    </form>
  );
}
