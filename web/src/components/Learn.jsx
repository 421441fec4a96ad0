// The rules lessons (/learn), in French and English: small boards where the
// learner plays each step; every move goes to the server's referee
// (POST /api/positions/play), so a refusal shown here is the referee's own,
// with its reason in the page's language and its sentence as the referee wrote it.
import { useEffect, useMemo, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { gtpToVertex, vertexToGtp } from "../coords.js";
import { useSignal } from "../hooks.js";
import { lang, lt, rt, tn } from "../i18n.js";
import { LESSONS } from "../lessons.js";
import { reviewApi } from "../reviewApi.js";
import { countApi } from "../countApi.js";
import { Board } from "./Board.jsx";
import { CountSteps } from "./CountSteps.jsx";
import { ErrorNote } from "./ErrorNote.jsx";

/** The board (flat array) of a lesson's setup, before any move. */
function setupBoard(lesson) {
  const board = new Array(lesson.size * lesson.size).fill(0);
  for (const [list, color] of [[lesson.black, 1], [lesson.white, 2]]) {
    for (const v of list) {
      const [x, y] = gtpToVertex(v, lesson.size);
      board[y * lesson.size + x] = color;
    }
  }
  return board;
}

/** The points of the chain at `point` (flat index) on `board`. */
function chainAt(board, size, point) {
  const color = board[point];
  const seen = new Set([point]);
  const todo = [point];
  while (todo.length) {
    const p = todo.pop();
    const x = p % size;
    const near = [x > 0 && p - 1, x < size - 1 && p + 1, p - size, p + size];
    for (const q of near) {
      if (q !== false && q >= 0 && q < size * size && board[q] === color && !seen.has(q)) {
        seen.add(q);
        todo.push(q);
      }
    }
  }
  return seen;
}

function LessonBoard({ lesson, onDone }) {
  const [step, setStep] = useState(0);
  const [moves, setMoves] = useState([]);
  const [board, setBoard] = useState(() => setupBoard(lesson));
  const [lastMove, setLastMove] = useState(null);
  const [feedback, setFeedback] = useState(null); // {kind: "refused" | "wrong" | "done", ...}
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [count, setCount] = useState(null); // the count of a counting lesson, once asked for
  const [dead, setDead] = useState(() => new Set()); // the points marked dead, in a lesson's marking
  const stepsDone = step >= lesson.steps.length;
  // A lesson's marking (mark: {dead, prompt, done}) follows its moves, as the marking follows two passes.
  const goalDead = useMemo(() => {
    const out = new Set();
    for (const v of lesson.mark?.dead || []) {
      const [x, y] = gtpToVertex(v, lesson.size);
      for (const p of chainAt(board, lesson.size, y * lesson.size + x)) out.add(p);
    }
    return out;
  }, [lesson, board]);
  const marking = stepsDone && !!lesson.mark;
  const marked = !lesson.mark || (dead.size === goalDead.size && [...goalDead].every((p) => dead.has(p)));
  const finished = stepsDone && marked && (!lesson.count || !!count);
  const current = lesson.steps[Math.min(step, lesson.steps.length - 1)];

  async function askCount() {
    setBusy(true);
    setError(null);
    try {
      const deadStones = [...dead].map((p) => vertexToGtp([p % lesson.size, Math.floor(p / lesson.size)], lesson.size));
      setCount(await countApi.position({ size: lesson.size, board, dead: deadStones, ...lesson.count }));
    } catch (exc) {
      setError(exc);
    } finally {
      setBusy(false);
    }
  }

  function base(extra) {
    return { size: lesson.size, black: lesson.black, white: lesson.white, to_move: lesson.to_move, moves, ...extra };
  }

  function toggleDead(vertex) {
    if (count) return; // counted: the marking is settled
    const [x, y] = vertex;
    const point = y * lesson.size + x;
    if (!board[point]) return;
    const chain = chainAt(board, lesson.size, point);
    const next = new Set(dead);
    const on = !next.has(point);
    for (const p of chain) (on ? next.add(p) : next.delete(p));
    setDead(next);
  }

  async function attempt(vertex) {
    if (stepsDone || busy) return;
    setBusy(true);
    setError(null);
    try {
      const verdict = await reviewApi.play(base({ attempt: { color: current.color, vertex } }));
      const wanted = current.goal.includes(vertex);
      if (!verdict.legal) {
        const ok = current.expect === "refused" && verdict.reason === current.reason;
        setFeedback({ kind: "refused", reason: verdict.reason, message: verdict.message, vertex, ok, done: ok ? current.done : null });
        if (ok) setStep(step + 1);
        return;
      }
      if (current.expect === "refused" || !wanted) {
        setFeedback({ kind: "wrong", vertex, refusal: current.expect === "refused" });
        return;
      }
      let next = [...moves, { color: current.color, vertex }];
      let after = verdict.board;
      let last = vertex === "pass" ? null : gtpToVertex(vertex, lesson.size);
      if (current.reply) {
        const r = await reviewApi.play(base({ moves: next, attempt: current.reply }));
        next = [...next, current.reply];
        after = r.board;
        last = current.reply.vertex === "pass" ? null : gtpToVertex(current.reply.vertex, lesson.size);
      }
      setMoves(next);
      setBoard(after);
      setLastMove(last);
      setFeedback({ kind: "done", done: current.done, captured: verdict.captured });
      setStep(step + 1);
    } catch (exc) {
      setError(exc);
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (finished) onDone(lesson.id);
  }, [finished]);

  return (
    <div class="game lesson" data-testid="lesson" data-lesson={lesson.id} data-step={step}>
      <div class="board-column">
        <Board size={lesson.size} board={board} lastMove={lastMove} dead={marking ? dead : null}
          interactive={(!stepsDone || (marking && !count)) && !busy}
          ghost={stepsDone ? 0 : current.color === "B" ? 1 : 2}
          onActivate={(v) => (marking ? toggleDead(v) : attempt(vertexToGtp(v, lesson.size)))}
          maxWidth={Math.min(420, window.innerWidth - 24)} maxHeight={420} />
      </div>
      <div class="panel">
        <p>{lt(lesson.intro)}</p>
        <p class="hint">
          {rt("source")} {lt(lesson.source)}
        </p>
        {!stepsDone && (
          <>
            <p>
              <strong>{rt("stepOf", step + 1, lesson.steps.length)}</strong> · {rt("toPlay", current.color)}
            </p>
            <p data-testid="lesson-prompt">{lt(current.prompt)}</p>
            <p>
              <button type="button" onClick={() => attempt("pass")} disabled={busy} data-testid="lesson-pass">{rt("pass")}</button>
            </p>
          </>
        )}
        {feedback?.kind === "refused" && (
          <div class={feedback.ok ? "notice" : "refusal"} role="status" data-testid="lesson-refusal" data-reason={feedback.reason}>
            <p>
              <strong>{rt("refusedBecause")}</strong>{" "}
              {tn("reasons", feedback.reason, feedback.vertex, feedback.message) ?? feedback.message}
            </p>
            <p class="hint">
              {rt("refereeSaid")} « {feedback.message} »
            </p>
            {feedback.done && <p>{lt(feedback.done)}</p>}
          </div>
        )}
        {feedback?.kind === "wrong" && (
          <p class="refusal" role="status" data-testid="lesson-wrong">
            {feedback.refusal ? rt("expectedRefusal") : rt("wrongMove", feedback.vertex)}
          </p>
        )}
        {feedback?.kind === "done" && (
          <p class="notice" role="status" data-testid="lesson-feedback">{lt(feedback.done)}</p>
        )}
        {marking && !marked && (
          <p data-testid="lesson-mark">
            <strong>{rt("markStep")}</strong> {lt(lesson.mark.prompt)}
          </p>
        )}
        {marking && marked && (
          <p class="notice" role="status" data-testid="lesson-marked">{lt(lesson.mark.done)}</p>
        )}
        {stepsDone && marked && lesson.count && !count && (
          <p>
            {lt(lesson.count_prompt)}{" "}
            <button type="button" onClick={askCount} disabled={busy} data-testid="lesson-count">{rt("countButton")}</button>
          </p>
        )}
        {count && <CountSteps size={lesson.size} board={board} score={count.score} method="quick-count" autoFocus />}
        {finished && <p class="notice" data-testid="lesson-complete"><strong>{rt("completed")}</strong></p>}
        <ErrorNote error={error} />
      </div>
    </div>
  );
}

export function Learn() {
  useSignal(lang);
  const initial = new URLSearchParams(location.search).get("lesson");
  const [chosen, setChosen] = useState(LESSONS.some((l) => l.id === initial) ? initial : LESSONS[0].id);
  const [serial, setSerial] = useState(0);
  const [completed, setCompleted] = useState(() => new Set());
  const index = LESSONS.findIndex((l) => l.id === chosen);
  const lesson = LESSONS[index];
  const onDone = useMemo(() => (id) => setCompleted((s) => new Set([...s, id])), []);

  function choose(id) {
    setChosen(id);
    setSerial(serial + 1);
    history.replaceState(null, "", `${ROOT}learn?lesson=${encodeURIComponent(id)}`);
  }

  return (
    <section class="learn-page" aria-labelledby="learn-title">
      <h2 id="learn-title">{rt("learnTitle")}</h2>
      <p>{rt("learnIntro")}</p>
      <nav class="lesson-list" aria-label={rt("lessonList")}>
        {LESSONS.map((l, i) => (
          <button type="button" key={l.id} data-testid={`lesson-${l.id}`} aria-current={l.id === chosen ? "true" : undefined}
            class={l.id === chosen ? "primary" : ""} onClick={() => choose(l.id)}>
            {i + 1}. {lt(l.title)}{completed.has(l.id) ? " ✓" : ""}
          </button>
        ))}
      </nav>
      <h3>{lt(lesson.title)}</h3>
      <LessonBoard key={`${chosen}:${serial}`} lesson={lesson} onDone={onDone} />
      <p>
        <button type="button" onClick={() => setSerial(serial + 1)} data-testid="lesson-restart">{rt("restart")}</button>{" "}
        {index + 1 < LESSONS.length && (
          <button type="button" onClick={() => choose(LESSONS[index + 1].id)} data-testid="lesson-next">{rt("nextLesson")}</button>
        )}
      </p>
      <p>
        <a href={`${ROOT}position`}>{rt("countLink")}</a>
      </p>
    </section>
  );
}
