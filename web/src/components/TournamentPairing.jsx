// A round's pairing as its directors change it before it starts (docs/web-api.md, *Tournaments*): pair it (the
// others, once two players are paired by hand or the bye chosen), choose the bye, pair two players by hand, swap,
// pair again (asking first when that drops hand changes), start; the warnings the server finds, each naming the
// players; the round's start time and forfeit limit, shown to everyone; links to the printable sheets.
import { useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { lang, t as tr, tt } from "../i18n.js";

/** "DUPONT Jean", or the key itself for a player not (or no longer) registered. */
export function playerNameOf(t, key) {
  const p = t.players.find((x) => x.key === key);
  return p ? `${p.name} ${p.first_name}`.trim() : key;
}

/** A date and time in the reader's language and time zone. */
export function localTime(iso) {
  return new Date(iso).toLocaleString(lang.get(), { dateStyle: "medium", timeStyle: "short" });
}

/** The keys of the players who play round `rn` (registered, not absent from it). */
function playing(t, rn) {
  return t.players.filter((p) => !p.absent.includes(rn)).map((p) => p.key);
}

/** A warning in words, with the players named. */
export function warningWords(t, w) {
  const [a, b] = w.players.map((k) => playerNameOf(t, k));
  if (w.kind === "rematch") return tr("tpWarn_rematch", a, b, w.value);
  if (w.kind === "colour") return tr("tpWarn_colour", a, w.value);
  if (w.kind === "handicap") return tr("tpWarn_handicap", a, b, w.value, w.table);
  return tr("tpWarn_missing", a, b, w.round, w.table);
}

/** When the round starts and, online, when a player who has not shown up loses by forfeit. */
export function RoundTimes({ round }) {
  if (!round.start_at) return null;
  return (
    <p class="what round-times" data-testid={`round-times-${round.round}`}>
      {tr("tpStartsAt", localTime(round.start_at))}
      {round.forfeit_at && ` ${tr("tpForfeitAt", localTime(round.forfeit_at))}`}
    </p>
  );
}

/** The warnings of a round not started yet (everyone sees them: nothing in them is private). */
export function RoundWarnings({ t, round }) {
  if (round.started || !round.warnings?.length) return null;
  return (
    <div class="round-warnings" role="note" data-testid="round-warnings">
      <strong>{tr("tpWarnings")}</strong>
      <ul>
        {round.warnings.map((w, i) => (
          <li key={i} data-testid={`warning-${w.kind}`}>
            {warningWords(t, w)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Links to the round's printable sheets. */
export function SheetLinks({ t, round }) {
  if (!round.games.length) return null;
  const href = (kind) => `${ROOT}t/${encodeURIComponent(t.id)}?sheet=${kind}&round=${round.round}`;
  return (
    <p class="files sheet-links">
      <a href={href("pairings")} target="_blank" rel="noopener" data-testid="sheet-pairings">
        {tr("tpSheetPairings")}
      </a>{" "}
      <a href={href("results")} target="_blank" rel="noopener" data-testid="sheet-results">
        {tr("tpSheetResults")}
      </a>
    </p>
  );
}

function PlayerSelect({ t, keys, value, onChange, testid, required = true, empty = "" }) {
  return (
    <select value={value} onChange={(e) => onChange(e.currentTarget.value)} required={required} data-testid={testid}>
      <option value="">{empty}</option>
      {keys.map((k) => (
        <option key={k} value={k}>
          {playerNameOf(t, k)}
        </option>
      ))}
    </select>
  );
}

/** A director's controls of a round (see the module's comment). */
export function PairingControls({ t, round, act }) {
  const base = `rounds/${round.round}`;
  const keys = playing(t, round.round);
  const seated = new Set([...round.games.flatMap((g) => [g.white, g.black]), ...(round.bye ? [round.bye] : [])]);
  const waiting = keys.filter((k) => !seated.has(k));
  const enginePaired = round.games.some((g) => !round.hand_tables.includes(g.table)) ||
    (round.bye && round.bye !== round.hand_bye);
  const [a, setA] = useState("");
  const [b, setB] = useState("");
  const [sa, setSa] = useState("");
  const [sb, setSb] = useState("");

  if (round.started) return <p class="what">{tt("started")}</p>;

  function pairAgain() {
    const what = [];
    if (round.hand_tables.length) what.push(tr("tpHandTables", round.hand_tables));
    if (round.hand_bye) what.push(tr("tpHandBye", playerNameOf(t, round.hand_bye)));
    // Pairing again drops what was done by hand: the director says so first.
    if (what.length && !window.confirm(tr("tpPairAgainConfirm", what.join(", ")))) return;
    act("POST", `${base}/pairing`, { again: true });
  }

  return (
    <div class="round-controls pairing-controls">
      {(!enginePaired || waiting.length > 0) && (
        <button onClick={() => act("POST", `${base}/pairing`, {})} data-testid="t-pair">
          {round.games.length || round.bye ? tr("tpPairRest") : tt("pair")}
        </button>
      )}
      {enginePaired && (
        <button onClick={pairAgain} data-testid="t-repair">
          {tt("pairAgain")}
        </button>
      )}
      {round.games.length > 0 && waiting.length === 0 && (
        <button onClick={() => act("POST", `${base}/start`, {})} data-testid="t-start">
          {tt("start")}
        </button>
      )}
      {keys.length % 2 === 1 && (
        <form class="tourney-form" onSubmit={(e) => e.preventDefault()}>
          <label>
            {tr("tpByeLabel")}
            <PlayerSelect
              t={t}
              keys={keys}
              value={round.bye || ""}
              required={false}
              empty={tr("tpByeEngine")}
              onChange={(k) => act("PUT", `${base}/bye`, { player: k || null })}
              testid="bye-choose"
            />
          </label>
        </form>
      )}
      <form
        class="tourney-form"
        onSubmit={(e) => {
          e.preventDefault();
          act("POST", `${base}/match`, { a, b }).then((ok) => ok && (setA(""), setB("")));
        }}
      >
        <label>
          {tr("tpMatchA")}
          <PlayerSelect t={t} keys={keys} value={a} onChange={setA} testid="match-a" />
        </label>
        <label>
          {tr("tpMatchB")}
          <PlayerSelect t={t} keys={keys} value={b} onChange={setB} testid="match-b" />
        </label>
        <button type="submit" data-testid="match">{tr("tpMatch")}</button>
      </form>
      {seated.size > 0 && (
        <form
          class="tourney-form swap"
          onSubmit={(e) => {
            e.preventDefault();
            act("POST", `${base}/swap`, { a: sa, b: sb });
          }}
        >
          <label>
            {tt("swapA")}
            <PlayerSelect t={t} keys={[...seated]} value={sa} onChange={setSa} testid="swap-a" />
          </label>
          <label>
            {tt("swapB")}
            <PlayerSelect t={t} keys={[...seated]} value={sb} onChange={setSb} testid="swap-b" />
          </label>
          <button type="submit" data-testid="swap">{tt("swap")}</button>
        </form>
      )}
    </div>
  );
}
