// The bot's review of a finished game or an uploaded record (docs/web-api.md, *Reviews by the bot*):
// starting it, following it while it runs, and what the page draws from it. The arithmetic is here,
// apart from the components, so that node tests can check it.
import { useEffect, useRef, useState } from "preact/hooks";
import { request as call } from "./api.js";
import { gtpToVertex } from "./coords.js";

export const analysisApi = {
  game: (id) => call("POST", `api/games/${encodeURIComponent(id)}/analysis`),
  stored: (id) => call("GET", `api/games/${encodeURIComponent(id)}/analysis`),
  record: (sgf) => call("POST", "api/analysis", { sgf }),
  get: (url) => call("GET", url.replace(/^\//, "")),
  cancel: (url) => call("DELETE", url.replace(/^\//, "")),
  // body: a start position and the moves to a node (as the estimate takes them); the bot's analysis there.
  position: (body) => call("POST", "api/analysis/position", body),
};

/** The classes of a move by the points it lost, in order (the review's summary gives their thresholds). */
export const CLASSES = ["inaccuracy", "mistake", "blunder"];

/** Points lost from which a move counts as a mistake on the graph. */
export const MISTAKE_POINTS = 2;
/** The graph marks at most this many mistakes, the largest. */
export const MISTAKES_SHOWN = 5;
const POLL_MS = 1000;

/** The moves that lost the most points (at least MISTAKE_POINTS), largest first. */
export function mistakes(moves, count = MISTAKES_SHOWN) {
  return moves
    .filter((m) => m.loss != null && m.loss >= MISTAKE_POINTS)
    .sort((a, b) => b.loss - a.loss || a.n - b.n)
    .slice(0, count);
}

/** The two graphs' points: Black's win rate in percent and Black's lead in points, by move number. */
export function graphPoints(moves) {
  return {
    winrate: moves.map((m) => ({ x: m.n, y: Math.round(m.winrate * 1000) / 10 })),
    score: moves.map((m) => ({ x: m.n, y: m.score })),
  };
}

/**
 * What to show at the position after move n: the bot's best moves for the next move (entry n + 1),
 * each with the win rate of the side to play, and the move played there. Null when the review has
 * not reached it.
 */
export function candidatesAt(moves, n) {
  // A node off the main line (n null) has no entry: never another position's candidates.
  if (n === null || n === undefined) return null;
  const next = moves.find((m) => m.n === n + 1);
  if (!next) return null;
  return candidatesOf(next.color, next.best, next.played, next.loss);
}

/**
 * The candidates of `color` (the side to move) as the page shows them: each with a letter, its win rate for
 * the side to move in percent (`mine`) and whether it is `played` (the move played there, if any).
 */
export function candidatesOf(color, list, played = null, loss = null) {
  const ofMover = (w) => (color === "W" ? 1 - w : w);
  const best = list.map((c, i) => ({
    ...c,
    letter: String.fromCharCode(65 + i),
    mine: Math.round(ofMover(c.winrate) * 100),
    played: played !== null && c.move === played,
  }));
  return { color, played, loss, best, playedAmong: best.some((c) => c.played) };
}

/**
 * Seconds left of a running review, from the searches done since the page first saw it running (`seen`:
 * {done, at} with `at` in ms, `now` in ms); before any is done here, the seconds a search usually takes
 * (`search_seconds`: the review's budget is playouts, its `seconds` only a cap).
 */
export function secondsLeft(review, seen, now) {
  if (!review || !["queued", "running"].includes(review.status)) return null;
  const { done, total } = review.progress;
  const left = Math.max(0, total - done);
  if (seen && done > seen.done && now > seen.at) return Math.round(((now - seen.at) / 1000 / (done - seen.done)) * left);
  return Math.round(left * (review.search_seconds ?? review.seconds ?? 1));
}

/**
 * The board marks of candidatesAt(...) on a size x size board: Map(point -> Shudan marker plus the
 * words a screen reader says), each candidate labelled with its win rate, the move played when it is
 * not a candidate with a triangle.
 */
export function candidateMarks(cands, size, words) {
  const marks = new Map();
  if (!cands) return marks;
  const point = (gtp) => {
    if (!gtp || gtp === "pass") return null;
    const v = gtpToVertex(gtp, size);
    return v ? v[1] * size + v[0] : null;
  };
  for (const c of cands.best) {
    const p = point(c.move);
    if (p !== null) marks.set(p, { type: "label", label: String(c.mine), spoken: words.candidate(c) });
  }
  const played = point(cands.played);
  if (played !== null && !cands.playedAmong) marks.set(played, { type: "triangle", spoken: words.played });
  return marks;
}

/**
 * The review of a source ({gameId} or {sgf}) as the page follows it: `review` (the API's object, or
 * null before it is asked for), `start()`, `cancel()`, `error`, `busy`. It polls while the review runs.
 */
export function useBotReview(source) {
  const [review, setReview] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);
  const live = useRef(true);
  // The first progress seen while the review runs, for the time left (secondsLeft).
  const seen = useRef(null);
  const key = source.gameId ?? source.sgf;

  useEffect(() => {
    live.current = true;
    setReview(null);
    seen.current = null;
    setError(null);
    // A game's review asked for before (by anyone) is shown at once, or followed while it runs; none (404),
    // or one cancelled or failed, leaves the button.
    if (source.gameId && source.finished !== false) {
      analysisApi.stored(source.gameId).then(
        (r) => live.current && ["done", "queued", "running"].includes(r.status) && follow(r),
        () => {},
      );
    }
    return () => {
      live.current = false;
      clearTimeout(timer.current);
    };
  }, [key, source.finished]);

  function follow(r) {
    if (!live.current) return;
    if (r.status === "running" && !seen.current) seen.current = { done: r.progress.done, at: performance.now() };
    setReview(r);
    clearTimeout(timer.current);
    if (r.status === "queued" || r.status === "running") {
      timer.current = setTimeout(() => {
        analysisApi.get(r.url).then(follow, (e) => live.current && setError(e));
      }, POLL_MS);
    }
  }

  async function run(work) {
    setBusy(true);
    setError(null);
    try {
      follow(await work());
    } catch (e) {
      if (live.current) setError(e);
    } finally {
      if (live.current) setBusy(false);
    }
  }

  return {
    review,
    error,
    busy,
    left: () => secondsLeft(review, seen.current, performance.now()),
    start: () => run(() => (source.gameId ? analysisApi.game(source.gameId) : analysisApi.record(source.sgf))),
    cancel: () => review && run(() => analysisApi.cancel(review.url)),
  };
}
