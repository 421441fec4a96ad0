// The bot's review beside a board (the review page, a finished game): a button that asks for it (or
// finds the stored one), its progress with a cancel button, then two graphs move by move (Black's
// win rate, Black's expected lead) that jump to the move picked, the largest mistakes marked with
// what they lost, and the bot's best moves at the position shown (drawn on the board by the caller
// with candidateMarks).
import "../chart.css";
import { num, rt } from "../i18n.js";
import { candidateMarks, candidatesAt, graphPoints, mistakes } from "../botReview.js";
import { ErrorNote } from "./ErrorNote.jsx";
import { LineChart } from "./LineChart.jsx";

const pts = (x) => num(Math.round(x * 10) / 10);
const pct = (w) => `${num(Math.round(w * 1000) / 10)}\u00a0%`;

function Candidates({ cands }) {
  if (!cands) return null;
  return (
    <div class="bot-candidates" data-testid="bot-candidates">
      <p>{rt("botBestFor", cands.color)}</p>
      <ol>
        {cands.best.map((c) => (
          <li key={c.move} class={c.played ? "played" : ""} data-testid="bot-candidate">
            <strong>{c.move}</strong> {rt("botCandidate", c.mine, c.visits)}
            {c.played && <span class="tag"> {rt("botPlayedHere")}</span>}
            <span class="pv"> {c.pv.slice(1).join(" ")}</span>
          </li>
        ))}
      </ol>
      {!cands.playedAmong && cands.played && (
        <p data-testid="bot-played-elsewhere">{rt("botPlayedElsewhere", cands.played, pts(cands.loss ?? 0))}</p>
      )}
    </div>
  );
}

/**
 * Props: state (useBotReview's object), current (the move number shown), total (moves in the game),
 * onJump(n) (show the position after move n).
 */
export function BotReview({ state, current, total, onJump }) {
  const { review, error, busy, start, cancel } = state;
  const moves = review?.moves || [];
  const active = review && (review.status === "queued" || review.status === "running");
  const worst = mistakes(moves);
  const points = graphPoints(moves);
  const picked = (x) => onJump(Math.max(0, Math.min(total, x)));
  const markers = worst.map((m) => ({ x: m.n, label: rt("botMistake", m.n, m.played, pts(m.loss)) }));
  const at = (n) => moves.find((m) => m.n === n);

  return (
    <section class="bot-review" aria-labelledby="bot-review-title" data-testid="bot-review">
      <h3 id="bot-review-title">{rt("botTitle")}</h3>
      {(!review || review.status === "cancelled" || review.status === "failed") && (
        <p>
          <button type="button" onClick={start} disabled={busy} data-testid="bot-start">{rt("botStart")}</button>{" "}
          <span class="hint">{rt("botStartHint")}</span>
        </p>
      )}
      {review?.status === "cancelled" && <p class="notice">{rt("botCancelled")}</p>}
      {review?.status === "failed" && <p class="notice">{rt("botFailed", review.error || "")}</p>}
      {active && (
        <p data-testid="bot-progress" aria-live="polite">
          <progress max={review.progress.total} value={review.progress.done} aria-label={rt("botTitle")} />{" "}
          {rt(review.status === "queued" ? "botQueued" : "botRunning", review.progress.done, review.progress.total)}{" "}
          <button type="button" onClick={cancel} disabled={busy} data-testid="bot-cancel">{rt("botCancel")}</button>
        </p>
      )}
      <ErrorNote error={error} />
      {moves.length > 0 && (
        <>
          <LineChart
            series={[{ label: rt("botWinrate"), points: points.winrate, className: "series-1" }]}
            yDomain={[0, 100]}
            xDomain={[0, Math.max(1, total)]}
            xIntegers={true}
            xLabel={rt("botMove")}
            yLabel={rt("botWinrateAxis")}
            yFormat={(v) => `${num(v)}`}
            markers={markers}
            currentX={current}
            onPick={picked}
            describe={(x) => (at(x) ? rt("botSpoken", x, pct(at(x).winrate), pts(at(x).score)) : String(x))}
            ariaLabel={rt("botWinrateChart")}
            height={200}
          />
          <LineChart
            series={[{ label: rt("botScore"), points: points.score, className: "series-2" }]}
            xDomain={[0, Math.max(1, total)]}
            xIntegers={true}
            xLabel={rt("botMove")}
            yLabel={rt("botScoreAxis")}
            yFormat={(v) => num(v)}
            markers={markers}
            currentX={current}
            onPick={picked}
            describe={(x) => (at(x) ? rt("botSpoken", x, pct(at(x).winrate), pts(at(x).score)) : String(x))}
            ariaLabel={rt("botScoreChart")}
            height={150}
          />
          {at(current) && (
            <p data-testid="bot-now">
              {rt("botNow", current, pct(at(current).winrate), pts(at(current).score))}
            </p>
          )}
          {worst.length > 0 && (
            <div class="bot-mistakes">
              <p>{rt("botMistakes")}</p>
              <ul>
                {worst.map((m) => (
                  <li key={m.n}>
                    <button type="button" class="link" data-testid="bot-mistake" onClick={() => onJump(m.n - 1)}>
                      {rt("botMistake", m.n, m.played, pts(m.loss))}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <Candidates cands={candidatesAt(moves, current)} />
        </>
      )}
    </section>
  );
}

/** The board marks of the bot's candidates at the position after move n (botReview.candidateMarks). */
export function reviewMarks(review, n, size) {
  const words = {
    candidate: (c) => rt("botCandidateSpoken", c.letter, c.move, c.mine),
    played: rt("botPlayedSpoken"),
  };
  return candidateMarks(review ? candidatesAt(review.moves || [], n) : null, size, words);
}
