// What a seated player may do while the game is played: answer the opponent's undo request,
// pass, ask to undo, resign (with a confirmation), and choose tap-to-select on the board.
import { useState } from "preact/hooks";
import { t } from "../../i18n.js";
import { colorName } from "./names.js";

/** The opponent asks to take a move back: accept or decline (or the note that one's own request waits). */
export function UndoRequest({ game, you, send }) {
  const mine = (c) => you.includes(c);
  const request = game.undo_request;
  if (!request || !you.length) return null;
  if (!mine(request.by)) {
    return (
      <div class="undo-ask" role="alert" data-testid="undo-ask">
        <p>{t("undoAsked", colorName(request.by))}</p>
        <button type="button" onClick={() => send({ type: "undo_answer", accept: true })}>
          {t("accept")}
        </button>
        <button type="button" onClick={() => send({ type: "undo_answer", accept: false })}>
          {t("decline")}
        </button>
      </div>
    );
  }
  if (you.length === 2) return null;
  return (
    <p class="notice" data-testid="undo-pending">
      {t("undoRequested")}
    </p>
  );
}

/** Pass, ask to undo and resign, for a seated player of a game in play. */
export function PlayActions({ game, you, canPlay, send }) {
  const [confirmResign, setConfirmResign] = useState(false);
  const local = you.length === 2;
  // On a shared screen the request is for the last move played, whichever side played it; the
  // server takes it back at once (the other side is the same person, as it is for the bot).
  function askUndo() {
    const last = game.moves[game.moves.length - 1];
    send(local && last ? { type: "undo_request", color: last.color } : { type: "undo_request" });
  }
  return (
    <div class="actions">
      <button type="button" onClick={() => send({ type: "pass" })} disabled={!canPlay || game.phase !== "play"}>
        {t("pass")}
      </button>
      <button type="button" onClick={askUndo} disabled={!game.moves.length || !!game.undo_request}>
        {t("undo")}
      </button>
      {!confirmResign ? (
        <button type="button" class="danger" onClick={() => setConfirmResign(true)}>
          {t("resign")}
        </button>
      ) : (
        <span class="confirm">
          {t("confirmResign")}{" "}
          <button
            type="button"
            class="danger"
            onClick={() => {
              setConfirmResign(false);
              send({ type: "resign" });
            }}
          >
            {t("resign")}
          </button>
          <button type="button" onClick={() => setConfirmResign(false)}>
            {t("cancel")}
          </button>
        </span>
      )}
    </div>
  );
}

/** The tap-to-select option (a first tap selects, a second plays). */
export function ConfirmTapOption({ checked, onChange }) {
  return (
    <label class="option">
      <input type="checkbox" checked={checked} onChange={onChange} data-testid="confirm-tap" /> {t("confirmTap")}
    </label>
  );
}
