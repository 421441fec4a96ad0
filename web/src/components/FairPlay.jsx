// Fair play for every player (issue 47, docs/moderation.md): block and report from a player's page, report a chat
// message, the list of blocked players in the account's settings, the note that says why an account is muted,
// suspended or banned, and the claim of a live game whose opponent left every page. Text from other players (names,
// reasons) is shown as text.
import { useEffect, useState } from "preact/hooks";
import { useSignal } from "../hooks.js";
import { errorWords, lang, t, tn } from "../i18n.js";
import { me } from "../players.js";
import { REASONS, modApi } from "../moderationApi.js";

/** An ISO time in the reader's language, to the minute. */
export function when(iso) {
  return iso ? new Date(iso).toLocaleString(lang.get(), { dateStyle: "medium", timeStyle: "short" }) : "";
}

/** A report's form: the reason from the list and a text; `target` is the report's body without them. */
export function ReportForm({ target, onDone, onCancel }) {
  const [reason, setReason] = useState("harassment");
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  async function submit(e) {
    e.preventDefault();
    try {
      await modApi.report({ ...target, reason, text });
      onDone();
    } catch (exc) {
      setError(errorWords(exc));
    }
  }
  return (
    <form class="report-form" onSubmit={submit} data-testid="report-form">
      <label>
        <span>{t("modReason")}</span>
        <select value={reason} onChange={(e) => setReason(e.currentTarget.value)} data-testid="report-reason">
          {REASONS.map((r) => <option key={r} value={r}>{tn("modReasons", r)}</option>)}
        </select>
      </label>
      <label>
        <span>{t("modReportText")}</span>
        <textarea value={text} maxLength={1000} onInput={(e) => setText(e.currentTarget.value)}
          required={reason === "other"} data-testid="report-text" />
      </label>
      <div class="mod-actions">
        <button type="submit" data-testid="report-send">{t("modReportSend")}</button>
        <button type="button" class="link" onClick={onCancel}>{t("cancel")}</button>
      </div>
      {error && <p class="error" role="alert" data-testid="report-error">{error}</p>}
    </form>
  );
}

/** On another player's page: block or unblock them, report them, and their abandoned games once past the line. */
export function PlayerFairPlay({ name }) {
  const player = useSignal(me);
  const [blocked, setBlocked] = useState(null);
  const [reporting, setReporting] = useState(false);
  const [note, setNote] = useState(null);
  const [conduct, setConduct] = useState(null);
  const mine = player?.name && player.name.toLowerCase() === name.toLowerCase();
  useEffect(() => {
    let live = true;
    modApi.conduct(name).then((c) => live && setConduct(c)).catch(() => {});
    if (player?.id && !player.guest && !mine) {
      modApi.blocks().then((r) => live && setBlocked(r.blocks.some((b) => b.name.toLowerCase() === name.toLowerCase())))
        .catch(() => {});
    }
    return () => { live = false; };
  }, [name, player?.id]);
  async function toggle() {
    try {
      if (blocked) await modApi.unblock(name);
      else await modApi.block(name);
      setNote(blocked ? t("modUnblocked", name) : t("modBlocked", name));
      setBlocked(!blocked);
    } catch (exc) {
      setNote(errorWords(exc));
    }
  }
  return (
    <div class="player-fair-play" data-testid="player-fair-play">
      {conduct?.shown && (
        <p class="hint" data-testid="player-abandoned">{t("modAbandonedRatio", conduct.abandoned, conduct.games)}</p>
      )}
      {player?.id && !player.guest && !mine && blocked !== null && (
        <div class="mod-actions">
          <button type="button" onClick={toggle} data-testid="block-toggle">
            {blocked ? t("modUnblock") : t("modBlock")}
          </button>
          <button type="button" class="link" onClick={() => setReporting(!reporting)} data-testid="report-open">
            {t("modReport")}
          </button>
        </div>
      )}
      {reporting && (
        <ReportForm target={{ kind: "player", name }} onCancel={() => setReporting(false)}
          onDone={() => { setReporting(false); setNote(t("modReported")); }} />
      )}
      {note && <p class="note" role="status" data-testid="fair-play-note">{note}</p>}
    </div>
  );
}

/** The account's list of blocked players, each with its way back. */
export function BlockList({ onClose }) {
  const [blocks, setBlocks] = useState(null);
  const [error, setError] = useState(null);
  function load() {
    modApi.blocks().then((r) => setBlocks(r.blocks)).catch((exc) => setError(errorWords(exc)));
  }
  useEffect(load, []);
  async function unblock(name) {
    try {
      await modApi.unblock(name);
      load();
    } catch (exc) {
      setError(errorWords(exc));
    }
  }
  return (
    <div class="account-form block-list" data-testid="block-list">
      <h3>{t("modBlockList")}</h3>
      <p class="hint">{t("modBlockHint")}</p>
      {blocks && blocks.length === 0 && <p class="note">{t("modNoBlocks")}</p>}
      {blocks && blocks.length > 0 && (
        <ul>
          {blocks.map((b) => (
            <li key={b.name}>
              <span>{b.name} <small>{when(b.at)}</small></span>
              <button type="button" class="link" onClick={() => unblock(b.name)} data-testid="unblock">
                {t("modUnblock")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      <button type="button" class="link" onClick={onClose}>{t("modClose")}</button>
    </div>
  );
}

/** Read once a page and again when the player changes: what a moderator holds against the caller. */
export function useStanding() {
  const player = useSignal(me);
  const [standing, setStanding] = useState(null);
  useEffect(() => {
    let live = true;
    if (!player?.id || player.guest) setStanding(null);
    else modApi.standing().then((s) => live && setStanding(s)).catch(() => live && setStanding(null));
    return () => { live = false; };
  }, [player?.id]);
  return standing;
}

/** Why the caller may not play or chat, with the moderator's reason and until when. */
export function StandingNote({ standing }) {
  if (!standing) return null;
  const lines = [];
  if (standing.banned) lines.push(t("modBannedNote"));
  else if (standing.suspended_until) lines.push(t("modSuspendedNote", when(standing.suspended_until)));
  if (!standing.banned && standing.muted_until) lines.push(t("modMutedNote", when(standing.muted_until)));
  if (!lines.length) return null;
  return (
    <div class="standing-note" role="alert" data-testid="standing-note">
      {lines.map((l) => <p key={l}>{l}</p>)}
      <p>{t("modReasonGiven")} <q data-testid="standing-reason">{standing.reason}</q></p>
    </div>
  );
}

/** In a live game: the opponent has left every page; past the game's limit the player may claim the win, or annul the
 * game before move 10. Asked every few seconds while the game is in play. */
export function AbandonClaim({ game, you }) {
  const [state, setState] = useState(null);
  const [error, setError] = useState(null);
  const active = you.length === 1 && game.phase === "play" && !game.result && game.mode !== "local" &&
    game.mode !== "bot";
  useEffect(() => {
    if (!active) return undefined;
    let live = true;
    const ask = () => modApi.abandoned(game.id).then((s) => live && setState(s)).catch(() => live && setState(null));
    ask();
    const timer = setInterval(ask, 5000);
    return () => { live = false; clearInterval(timer); };
  }, [game.id, active]);
  if (!active || !state || state.claim_after_s === null || state.away_s <= 0) return null;
  const left = Math.max(0, Math.ceil(state.claim_after_s - state.away_s));
  async function claim(outcome) {
    try {
      await modApi.claim(game.id, outcome);
    } catch (exc) {
      setError(errorWords(exc));
    }
  }
  return (
    <div class="abandon-claim" role="status" data-testid="abandon-claim">
      <p>{state.can_claim ? t("modOpponentGone") : t("modOpponentAway", left)}</p>
      {state.can_claim && (
        <div class="mod-actions">
          <button type="button" onClick={() => claim("win")} data-testid="claim-win">{t("modClaimWin")}</button>
          {state.may_annul && (
            <button type="button" onClick={() => claim("annul")} data-testid="claim-annul">{t("modClaimAnnul")}</button>
          )}
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}

/** Under a game with another person: report the game (stalling, escaping, cheating...), for a registered player. */
export function GameReport({ game }) {
  const player = useSignal(me);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  if (!player?.id || player.guest || game.mode === "local" || game.mode === "bot") return null;
  return (
    <div class="game-report" data-testid="game-report">
      {!open && !done && (
        <button type="button" class="link" onClick={() => setOpen(true)} data-testid="report-game">
          {t("modReportGame")}
        </button>
      )}
      {open && (
        <ReportForm target={{ kind: "game", game: game.id }} onCancel={() => setOpen(false)}
          onDone={() => { setOpen(false); setDone(true); }} />
      )}
      {done && <p class="note" role="status">{t("modReported")}</p>}
    </div>
  );
}
