// The end of a game: the dead-stone phase (the estimator's proposal, who accepted, accept or
// resume), then the result and the count.
import { api, ROOT } from "../../api.js";
import { useServerNow } from "../../hooks.js";
import { formatSeconds } from "../../time.js";
import { resultCode, rt, t, tn } from "../../i18n.js";
import { GameCount } from "../GameCount.jsx";
import { ScoreTable } from "../ScoreTable.jsx";
import { ReviewTogether } from "../DemoBoards.jsx";
import { colorName } from "./names.js";

const sameSet = (a, b) => a.length === b.length && a.every((p) => b.includes(p));

/**
 * The marking phase: instructions, the proposal, who accepted, and the players' buttons. Against
 * the computer (`marks` not null: the chains clicked, not sent yet), the player marks, then
 * submits the marking with `onSubmit`, as between people; the computer answers only then.
 */
/**
 * A correspondence game's counting deadline (`scoring_deadline`, the server's Unix time): past it the marking on
 * the board stands. Counted down live, with its date in the reader's time zone.
 */
function ScoringDeadline({ at }) {
  const now = useServerNow(true, 1000);
  const when = new Date(at * 1000).toLocaleString(document.documentElement.lang || undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
  return (
    <p class="notice scoring-deadline" data-testid="scoring-deadline">
      {t("scoringDeadline", formatSeconds(Math.max(0, at - now)), when)}
    </p>
  );
}

export function Marking({ game, you, send, marks = null, onSubmit, onUndoMarks }) {
  const local = you.length === 2;
  const accepted = game.accepted || [];
  const help = !you.length ? t("scoringWatch") : marks ? t("scoringHelpBot") : t("scoringHelp");
  return (
    <section class="scoring" data-testid="scoring">
      {/* The instructions are for those who mark; a spectator is told what is going on. */}
      <p data-testid="scoring-help">{help}</p>
      {marks && marks.length > 0 && (
        <p class="notice" role="status" data-testid="marks-pending">
          {t("marksPending", marks.length)}
        </p>
      )}
      {game.proposal && (
        <p data-testid="proposal">
          {sameSet(game.proposal, game.dead || [])
            ? t("proposalSame", game.proposal.length)
            : t("proposalDiffers", game.proposal.length)}
        </p>
      )}
      {game.scoring_deadline && <ScoringDeadline at={game.scoring_deadline} />}
      <ul class="acceptance">
        {["B", "W"].map((c) => (
          <li key={c} data-testid={`accepted-${c}`}>
            {accepted.includes(c) ? t("acceptedBy", colorName(c)) : t("notAccepted", colorName(c))}
          </li>
        ))}
      </ul>
      {you.length > 0 && (
        <div class="actions">
          {marks ? (
            <>
              <button
                type="button"
                class="primary"
                disabled={!marks.length && you.every((c) => accepted.includes(c))}
                onClick={onSubmit}
                data-testid="submit-marking"
              >
                {marks.length ? t("submitMarking") : t("acceptMarking")}
              </button>
              {marks.length > 0 && (
                <button type="button" onClick={onUndoMarks} data-testid="undo-marks">
                  {t("undoMarks")}
                </button>
              )}
            </>
          ) : local ? (
            ["B", "W"].map((c) => (
              <button
                key={c}
                type="button"
                class="primary"
                disabled={accepted.includes(c)}
                onClick={() => send({ type: "accept", color: c })}
              >
                {t("acceptMarking")} ({colorName(c)})
              </button>
            ))
          ) : (
            <button
              type="button"
              class="primary"
              disabled={you.every((c) => accepted.includes(c))}
              onClick={() => send({ type: "accept" })}
            >
              {t("acceptMarking")}
            </button>
          )}
          <button type="button" onClick={() => send({ type: "resume" })}>
            {t("rejectMarking")}
          </button>
        </div>
      )}
    </section>
  );
}

/** The result line, then (live, once counted) the score table and the count step by step. */
export function Outcome({ game, live }) {
  const counted = live && game.score && (game.phase === "scoring" || game.phase === "finished");
  return (
    <>
      {game.result && (
        <p class="result" data-testid="result" data-result={game.result}>
          <strong>
            {t("result")}
            {t("colon")}
          </strong>{" "}
          {t("resultText", game.result)}
          {resultCode(game.result) && ` (${resultCode(game.result)})`}
          {game.end_reason && tn("endReasons", game.end_reason) && ` – ${tn("endReasons", game.end_reason)}`}
        </p>
      )}
      {counted && <ScoreTable score={game.score} final={game.phase === "finished"} />}
      {counted && <GameCount game={game} />}
    </>
  );
}

/** The record's links: the SGF download, and the review once the game is over. */
export function RecordLinks({ game }) {
  return (
    <p>
      <a class="button" href={api.sgfUrl(game.id)} download={`keima-${game.id}.sgf`} data-testid="sgf">
        {t("downloadSgf")}
      </a>
      {game.phase === "finished" && (
        <>
          {" "}
          <a class="button" href={`${ROOT}review?game=${encodeURIComponent(game.id)}`} data-testid="review-game">
            {rt("reviewLink")}
          </a>
          <ReviewTogether gameId={game.id} event={game.event} />
        </>
      )}
    </p>
  );
}
