// What a seated player may do while the game is played: answer the opponent's undo request,
// pass, ask to undo, resign (with a confirmation), and choose tap-to-select on the board.
import { useState } from "preact/hooks";
import { t } from "../../i18n.js";
import { colorName } from "./names.js";

/**
 * How many moves an accepted undo asked by `color` takes back: down to and including that side's
 * last move, as the server does (0: that side has not played, nothing to take back).
 */
export function movesTakenBack(moves, color) {
  for (let i = moves.length - 1; i >= 0; i--) if (moves[i].color === color) return moves.length - i;
  return 0;
}

/** The opponent asks to take a move back: accept or decline (or the note that one's own request waits). */
export function UndoRequest({ game, you, send }) {
  const mine = (c) => you.includes(c);
  const request = game.undo_request;
  if (!request || !you.length) return null;
  if (!mine(request.by)) {
    return (
      <div class="undo-ask" role="alert" data-testid="undo-ask">
        <p>{t("undoAsked", colorName(request.by), movesTakenBack(game.moves || [], request.by))}</p>
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
  const last = game.moves[game.moves.length - 1];
  const asker = local ? last?.color : you[0];
  const takeBack = asker ? movesTakenBack(game.moves, asker) : 0;
  function askUndo() {
    send(local && last ? { type: "undo_request", color: last.color } : { type: "undo_request" });
  }
  // What asking would do, said beside the button (a shared screen takes back the last move at once).
  const undoNote = local ? null : takeBack ? t("undoWouldTake", takeBack) : t("undoNothing");
  return (
    <div class="actions">
      <button type="button" onClick={() => send({ type: "pass" })} disabled={!canPlay || game.phase !== "play"}>
        {t("pass")}
      </button>
      <button
        type="button"
        onClick={askUndo}
        disabled={!takeBack || !!game.undo_request}
        aria-describedby={undoNote ? "undo-note" : undefined}
        data-testid="ask-undo"
      >
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
      {undoNote && !game.undo_request && (
        <small id="undo-note" class="undo-note" data-testid="undo-note">
          {undoNote}
        </small>
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
