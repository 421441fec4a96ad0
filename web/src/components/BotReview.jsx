// The bot's review beside a board (the review page, a finished game): a button that asks for it (or
// finds the stored one), its progress with the time left and a cancel button, then two graphs move by
// move (Black's win rate, Black's expected lead) that jump to the move picked, the largest mistakes
// marked, each player's accuracy and every move of a class (inaccuracy, mistake, blunder), and the
// bot's best moves at the position shown with the points each loses (drawn on the board by the caller
// with candidateMarks). Off the review's main line (a variation, a move tried) the page asks the bot
// for that node's position (PositionAnalysis).
//
// `part`: "graphs" (the title, the button or progress, the graphs), "details" (the rest), or all. On a
// narrow screen the page puts the graphs right under the board, so that the board a tap on a graph
// changes stays in view, and the details in the panel below.
import "../chart.css";
import { useEffect, useState } from "preact/hooks";
import { num, rt, t, tn } from "../i18n.js";
import { analysisApi, candidateMarks, candidatesAt, candidatesOf, graphPoints, mistakes } from "../botReview.js";
import { ErrorNote } from "./ErrorNote.jsx";
import { LineChart } from "./LineChart.jsx";

const pts = (x) => num(Math.round(x * 10) / 10);
const pct = (w) => `${num(Math.round(w * 1000) / 10)}\u00a0%`;

function Candidates({ cands, title }) {
  if (!cands) return null;
  return (
    <div class="bot-candidates" data-testid="bot-candidates">
      <p>{title ?? rt("botBestFor", cands.color)}</p>
      <ol>
        {cands.best.map((c) => (
          <li key={c.move} class={c.played ? "played" : ""} data-testid="bot-candidate">
            <strong>{c.move}</strong> {rt("botCandidate", c.mine, c.visits)}
            {c.loss != null && c.letter !== "A" && <span data-testid="bot-candidate-loss">{t("revCandLoss", pts(c.loss))}</span>}
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

/** Each player's accuracy and every move of a class, as the review's summary gives them. */
function PlayerLists({ summary, onJump }) {
  if (!summary) return null;
  const th = summary.thresholds;
  return (
    <div class="bot-players" data-testid="bot-players">
      <p class="hint">{t("revThresholds", pts(th.inaccuracy), pts(th.mistake), pts(th.blunder))}</p>
      {["B", "W"].map((color) => {
        const mine = summary[color];
        if (!mine || !mine.moves) return null;
        return (
          <section key={color} class="bot-player" data-testid={`bot-player-${color}`}>
            <h4>{t("revAccuracy", color, pts(mine.accuracy ?? 0), pts(mine.mean_loss ?? 0))}</h4>
            <p>{t("revCounts", mine.counts.inaccuracy, mine.counts.mistake, mine.counts.blunder)}</p>
            {mine.list.length === 0 ? (
              <p class="hint">{t("revNoClassed", pts(th.inaccuracy))}</p>
            ) : (
              <ul>
                {mine.list.map((m) => (
                  <li key={m.n} class={`bot-class-${m.class}`}>
                    <button type="button" class="link" data-testid="bot-classed" onClick={() => onJump(m.n - 1)}>
                      {t("revListMove", m.n, m.played, pts(m.loss), tn("revClassNames", m.class) ?? m.class)}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

/**
 * The bot's analysis of a node off the review's main line: a button, then the candidates of the side to
 * move there. `position`: the body of POST /api/analysis/position (null: nothing to analyse); `onMarks`
 * gets the candidates to draw on the board (or null).
 */
export function PositionAnalysis({ position, nodeKey, onMarks }) {
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);

  useEffect(() => {
    setResult(null);
    setError(null);
    onMarks(null);
  }, [nodeKey]);

  async function analyse() {
    setBusy(true);
    setError(null);
    try {
      const r = await analysisApi.position(position);
      const cands = candidatesOf(r.to_move, r.best);
      setResult({ ...r, cands });
      onMarks(cands);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  if (!position) return null;
  return (
    <section class="bot-position" data-testid="bot-position">
      {!result && (
        <p>
          <button type="button" onClick={analyse} disabled={busy} data-testid="bot-analyse">{t("revAnalyse")}</button>{" "}
          {busy ? <span role="status">{t("revAnalysing")}</span> : <span class="hint">{t("revAnalyseHint")}</span>}
        </p>
      )}
      <ErrorNote error={error} />
      {result && (
        <>
          <p data-testid="bot-position-eval">{t("revPositionEval", pct(result.winrate), pts(result.score))}</p>
          <Candidates cands={result.cands} title={t("revAnalysisOf", result.to_move)} />
        </>
      )}
    </section>
  );
}

function minutes(seconds) {
  return seconds >= 90 ? t("revMinutesLeft", Math.round(seconds / 60)) : t("revSecondsLeft", Math.max(1, seconds));
}

/**
 * Props: state (useBotReview's object), current (the move number shown; null off the main line), total
 * (moves in the game), onJump(n) (show the position after move n), part (see above), analysis (a
 * PositionAnalysis, shown where the review has no candidates: a node off the main line, the last position,
 * a position the review has not reached).
 */
export function BotReview({ state, current, total, onJump, part = "all", analysis = null }) {
  const { review, error, busy, start, cancel } = state;
  const moves = review?.moves || [];
  const active = review && (review.status === "queued" || review.status === "running");
  const worst = mistakes(moves);
  const points = graphPoints(moves);
  const picked = (x) => onJump(Math.max(0, Math.min(total, x)));
  const markers = worst.map((m) => ({ x: m.n, label: rt("botMistake", m.n, m.played, pts(m.loss)) }));
  const at = (n) => moves.find((m) => m.n === n);
  const graphs = part !== "details";
  const details = part !== "graphs";
  const left = active ? state.left?.() : null;

  return (
    <section class={`bot-review bot-review-${part}`} aria-labelledby={graphs ? "bot-review-title" : undefined}
      data-testid={part === "details" ? "bot-review-details" : "bot-review"}>
      {graphs && <h3 id="bot-review-title">{rt("botTitle")}</h3>}
      {graphs && (!review || review.status === "cancelled" || review.status === "failed") && (
        <p>
          <button type="button" onClick={start} disabled={busy} data-testid="bot-start">{rt("botStart")}</button>{" "}
          <span class="hint">{rt("botStartHint")}</span>
        </p>
      )}
      {graphs && review?.status === "cancelled" && <p class="notice">{rt("botCancelled")}</p>}
      {graphs && review?.status === "failed" && <p class="notice">{rt("botFailed", review.error || "")}</p>}
      {graphs && active && (
        <p data-testid="bot-progress" aria-live="polite">
          <progress max={review.progress.total} value={review.progress.done} aria-label={rt("botTitle")} />{" "}
          {rt(review.status === "queued" ? "botQueued" : "botRunning", review.progress.done, review.progress.total)}{" "}
          {left !== null && left !== undefined && <span data-testid="bot-left">{minutes(left)}</span>}{" "}
          <button type="button" onClick={cancel} disabled={busy} data-testid="bot-cancel">{rt("botCancel")}</button>
        </p>
      )}
      {graphs && <ErrorNote error={error} />}
      {graphs && moves.length > 0 && (
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
            height={part === "graphs" ? 140 : 200}
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
            height={part === "graphs" ? 110 : 150}
          />
          {current !== null && at(current) && (
            <p data-testid="bot-now">
              {rt("botNow", current, pct(at(current).winrate), pts(at(current).score))}
            </p>
          )}
        </>
      )}
      {details && (candidatesAt(moves, current) ? <Candidates cands={candidatesAt(moves, current)} /> : analysis)}
      {details && worst.length > 0 && (
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
      {details && moves.length > 0 && <PlayerLists summary={review.summary} onJump={onJump} />}
    </section>
  );
}

/** The board marks of the bot's candidates at the position after move n (botReview.candidateMarks). */
export function reviewMarks(review, n, size) {
  return candidateMarks(review ? candidatesAt(review.moves || [], n) : null, size, markWords());
}

/** The board marks of a PositionAnalysis's candidates. */
export function analysisMarks(cands, size) {
  return candidateMarks(cands, size, markWords());
}

function markWords() {
  return {
    candidate: (c) => rt("botCandidateSpoken", c.letter, c.move, c.mine),
    played: rt("botPlayedSpoken"),
  };
}
