// The moderators' page (/moderation; docs/moderation.md): the queue of reports, each with its game, the chat message
// reported and the player's history, and the actions on it; the signals worth a look; the audit log. Anyone who is
// not a moderator gets the server's 403 in words. Every name, reason and message is shown as text.
import { useEffect, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { errorWords, t, tn } from "../i18n.js";
import { modApi } from "../moderationApi.js";
import { NameLink } from "./PlayerLink.jsx";
import { when } from "./FairPlay.jsx";

const ACTIONS = ["warn", "mute", "suspend", "ban", "rename", "lift", "annul", "dismiss"];
const gameLink = (id) => <a href={`${ROOT}g/${encodeURIComponent(id)}`}>{id}</a>;

/** The action form of a report, or (no report: `report` null) of a player named in the form. */
function ActionForm({ report, onDone }) {
  const [name, setName] = useState("");
  const [action, setAction] = useState(!report || report.player ? "warn" : "dismiss");
  const [reason, setReason] = useState("");
  const [hours, setHours] = useState("24");
  const [newName, setNewName] = useState("");
  const [error, setError] = useState(null);
  async function submit(e) {
    e.preventDefault();
    const body = report ? { action, reason, report: report.id } : { action, reason };
    if (!["annul", "dismiss"].includes(action)) body.name = report ? report.player : name;
    if (["mute", "suspend"].includes(action)) body.hours = Number(hours);
    if (action === "rename") body.new_name = newName;
    if (action === "annul") body.game = report.game;
    try {
      await modApi.act(body);
      setReason("");
      onDone();
    } catch (exc) {
      setError(errorWords(exc));
    }
  }
  return (
    <form onSubmit={submit} data-testid={report ? `mod-form-${report.id}` : "mod-form-player"}>
      {!report && (
        <label>
          <span>{t("modPlayer")}</span>
          <input type="text" value={name} maxLength={40} onInput={(e) => setName(e.currentTarget.value)} required
            data-testid="mod-name" />
        </label>
      )}
      <label>
        <span>{t("modAction")}</span>
        <select value={action} onChange={(e) => setAction(e.currentTarget.value)} data-testid="mod-action">
          {ACTIONS.filter((a) => (report
            ? (report.player || ["annul", "dismiss"].includes(a)) && (report.game || a !== "annul")
            : !["annul", "dismiss"].includes(a)))
            .map((a) => <option key={a} value={a}>{tn("modActions", a)}</option>)}
        </select>
      </label>
      {["mute", "suspend"].includes(action) && (
        <label>
          <span>{t("modHours")}</span>
          <input type="number" min="1" max="8760" value={hours} onInput={(e) => setHours(e.currentTarget.value)}
            required data-testid="mod-hours" />
        </label>
      )}
      {action === "rename" && (
        <label>
          <span>{t("modNewName")}</span>
          <input type="text" value={newName} maxLength={20} onInput={(e) => setNewName(e.currentTarget.value)} required />
        </label>
      )}
      <label>
        <span>{t("modWhy")}</span>
        <input type="text" value={reason} maxLength={500} onInput={(e) => setReason(e.currentTarget.value)} required
          data-testid="mod-why" />
      </label>
      <button type="submit" data-testid="mod-submit">{t("modApply")}</button>
      {error && <p class="error" role="alert" data-testid="mod-error">{error}</p>}
    </form>
  );
}

function LogLines({ lines, compact = false }) {
  if (compact) {
    return (
      <ul class="mod-history">
        {lines.map((l) => (
          <li key={l.id}>{when(l.at)} · {tn("modActions", l.action)} · {l.moderator}: {l.reason}</li>
        ))}
      </ul>
    );
  }
  return (
    <table class="mod-log" data-testid="mod-log">
      <thead>
        <tr><th>{t("modWhen")}</th><th>{t("modModerator")}</th><th>{t("modPlayer")}</th><th>{t("modAction")}</th>
          <th>{t("modWhyShort")}</th></tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.id}>
            <td>{when(l.at)}</td>
            <td>{l.moderator}</td>
            <td>{l.player ?? (l.game ? gameLink(l.game) : "—")}</td>
            <td>{tn("modActions", l.action)}{l.until ? ` (${t("modUntil", when(l.until))})` : ""}</td>
            <td>{l.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ModerationPage() {
  const [queue, setQueue] = useState(null);
  const [signals, setSignals] = useState([]);
  const [log, setLog] = useState([]);
  const [error, setError] = useState(null);
  function load() {
    modApi.queue().then((r) => setQueue(r.reports)).catch((exc) => setError(errorWords(exc)));
    modApi.signals().then((r) => setSignals(r.signals)).catch(() => {});
    modApi.log().then((r) => setLog(r.log)).catch(() => {});
  }
  useEffect(load, []);
  if (error) return <p class="error card" role="alert" data-testid="moderation-error">{error}</p>;
  if (!queue) return <p class="note">{t("modLoading")}</p>;
  return (
    <div class="moderation-page" data-testid="moderation-page">
      <h2>{t("modTitle")}</h2>
      <section aria-labelledby="mod-queue-title" data-testid="mod-queue">
        <h3 id="mod-queue-title">{t("modQueue", queue.length)}</h3>
        {queue.length === 0 && <p class="note">{t("modQueueEmpty")}</p>}
        {queue.map((r) => (
          <article class="mod-report" key={r.id} data-testid={`mod-report-${r.id}`}>
            <p>
              <strong>{tn("modReasons", r.reason)}</strong> · {tn("modKinds", r.kind)} · {when(r.at)}
            </p>
            <p>
              {t("modReportedBy")} {r.reporter ?? "—"} · {t("modPlayer")}{" "}
              {r.player ? <NameLink name={r.player} /> : "—"}
              {r.player ? ` (${t("modReportsCount", r.reports)})` : ""}
              {r.game && <> · {t("modGame")} {gameLink(r.game)}</>}
            </p>
            {r.quote && <blockquote data-testid="mod-quote">{r.quote}</blockquote>}
            {r.text && <p class="mod-text">{r.text}</p>}
            {r.history.length > 0 && <LogLines lines={r.history} compact />}
            <ActionForm report={r} onDone={load} />
          </article>
        ))}
      </section>
      <section aria-labelledby="mod-player-title" class="mod-report">
        <h3 id="mod-player-title">{t("modActOnPlayer")}</h3>
        <ActionForm report={null} onDone={load} />
      </section>
      <section aria-labelledby="mod-signals-title" data-testid="mod-signals">
        <h3 id="mod-signals-title">{t("modSignals")}</h3>
        <p class="hint">{t("modSignalsHint")}</p>
        {signals.length === 0 ? <p class="note">{t("modNoSignals")}</p> : (
          <ul>
            {signals.map((s) => (
              <li key={`${s.kind}-${s.player}`}>
                <NameLink name={s.player} /> · {tn("modSignalKinds", s.kind)} · {t("modSignalCount", s.count)}
                {s.drop ? ` · −${Math.round(s.drop)}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="mod-log-title">
        <h3 id="mod-log-title">{t("modLog")}</h3>
        <LogLines lines={log} />
      </section>
    </div>
  );
}
