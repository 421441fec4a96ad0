// What the page says about the game and its connection: whose turn it is (or the result), the
// computer thinking or waiting for a worker, the seat still free, the connection, the
// settings, which side the reader plays; and the answers to the reader's own actions (a refused
// move with its rule, a notice).
import { t, tn } from "../../i18n.js";
import { AcceptButton } from "../Lobby.jsx";
import { bareName, botNoteWords, colorName, isResignNote } from "./names.js";

function turnText(game, you) {
  if (game.result) return t("resultText", game.result);
  if (game.phase === "scoring") return t("phaseScoring");
  if (game.phase === "handicap") return t("handicapPhase", game.handicap_left ?? game.handicap);
  if (you.length === 1 && you.includes(game.to_move)) return `${t("yourTurn")} (${colorName(game.to_move)})`;
  return t("toMove", colorName(game.to_move));
}

export function GameStatus({ game, you, status, workerNotice, botNote }) {
  const local = you.length === 2;
  const botColor = ["B", "W"].find((c) => game.players?.[c]?.kind === "bot");
  const botThinking = botColor && game.phase === "play" && game.to_move === botColor && !game.result;
  const connection =
    status === "open" ? t("connected") : status === "gone" ? t("notFound") : t("reconnecting");
  return (
    <>
      <p class="turn" data-testid="turn">
        {turnText(game, you)}
      </p>
      {botThinking && workerNotice === "no-bot-worker" && (
        <p class="notice" data-testid="no-worker">
          {t("waitingWorker")}
        </p>
      )}
      {botThinking && workerNotice !== "no-bot-worker" && (
        <p class="thinking" data-testid="thinking">
          {game.bot_warming ? t("warming") : t("thinkingName", bareName(game.players[botColor]))}
        </p>
      )}
      {botNote && (!game.result || (game.end_reason === "resign" && isResignNote(botNote))) && (
        <p class="notice" role="status" data-testid="bot-note">
          {botNoteWords(botNote)}
        </p>
      )}
      {game.mode === "open" && game.invite_open && !you.length && !game.result && (
        <p>
          <AcceptButton id={game.id} label={t("acceptChallenge")} />
        </p>
      )}
      {!game.result && ["B", "W"].some((c) => game.players?.[c] && !game.players[c].seated) && (
        <p class="notice" data-testid="waiting">
          {t("waitingJoin")}
        </p>
      )}
      <p class={`status ${status}`} data-testid="connection">
        {t("labelled", t("connection"), connection)}
      </p>
      <p class="settings" data-testid="settings">
        {t(
          "settingsLine",
          tn("rulesetNames", game.rules?.name) ?? game.rules?.name ?? "",
          game.komi,
          game.handicap,
          game.size,
        )}
        {game.rated && <span data-testid="rated"> · {t("ratedLine")}</span>}
      </p>
      <p class="you" data-testid="you">
        {local ? t("bothSides") : you.length ? t("youAre", colorName(you[0])) : t("spectator")}
      </p>
    </>
  );
}

/**
 * A refused move explained with its rule (`refusal`: {reason, vertex, message}), and a notice
 * (a message key with its arguments, translated here so that it follows a language switch, or
 * the server's own words).
 */
export function Feedback({ refusal, notice }) {
  const refusalText = refusal
    ? (tn("reasons", refusal.reason, refusal.vertex, refusal.message) ??
      tn("reasons", "unknown", refusal.vertex, refusal.message))
    : null;
  return (
    <>
      {refusal && (
        <div class="refusal" role="alert" data-testid="refusal" data-reason={refusal.reason} data-vertex={refusal.vertex}>
          <strong>
            {t("refused")}
            {t("colon")}
          </strong>{" "}
          {refusalText}
        </div>
      )}
      {notice && (
        <p class="notice" role="status" data-testid="notice">
          {typeof notice === "string" ? notice : t(notice.key, ...(notice.args || []))}
        </p>
      )}
    </>
  );
}
