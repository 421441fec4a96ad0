// The count, step by step: for the chosen method, a board that changes at each
// step (dead stones lifted, prisoners placed, points counted), the running
// totals, one sentence saying what the rule text does at that step, and the
// rule it comes from. Previous/next buttons and the arrow keys walk the steps.
// The steps come from the server (score.steps, keima.rules.count_steps); the
// last step's totals are the method's totals.
import "../count.css";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { useSignal } from "../hooks.js";
import { ct, ctn, lang, num, t, tn } from "../i18n.js";
import { Board } from "./Board.jsx";

const ORDER = ["quick-count", "area", "territory", "japanese"];
const COLOR = { B: 1, W: 2 };

/** The board and marks after steps 0..index of one method. */
export function replaySteps(board, steps, index) {
  const colors = board.slice();
  const counted = { B: new Set(), W: new Set(), N: new Set() };
  for (let i = 0; i <= index && i < steps.length; i++) {
    const s = steps[i];
    for (const p of s.removed) colors[p] = 0;
    for (const [p, c] of s.placed) colors[p] = COLOR[c];
    for (const [p, owner] of s.counted) counted[owner].add(p);
  }
  const current = steps[index] || { removed: [], placed: [], counted: [] };
  return { colors, counted, lifted: new Set(current.removed) };
}

/**
 * Props: size, board (flat array before the count: 0 empty, 1 black, 2 white),
 * score (a score object with steps), method (the method shown first), maxWidth.
 */
export function CountSteps({ size, board, score, method, maxWidth, autoFocus = false }) {
  useSignal(lang);
  const methods = ORDER.filter((m) => score?.steps?.[m]);
  const [shown, setShown] = useState(methods.includes(method) ? method : methods[0]);
  const [wanted, setIndex] = useState(0);
  const root = useRef(null);
  const steps = score?.steps?.[shown] || [];
  // A recount (the marking changed) keeps the reader's place where it still exists; a parent that shows
  // another position gives this component a new key, which starts again at the first step.
  const index = Math.max(0, Math.min(wanted, steps.length - 1));

  const view = useMemo(() => replaySteps(board, steps, index), [board, steps, index]);
  // Where the page tells the reader to step with the arrows (a lesson), they work at once: the stepper takes
  // the focus when it appears (the button that asked for the count is gone by then). In the commit itself, not
  // after the paint: an arrow pressed as the stepper showed went to the page (a loaded CI machine saw it).
  useLayoutEffect(() => {
    if (autoFocus) root.current?.focus();
  }, [autoFocus]);
  if (!methods.length) return null;
  const step = steps[index];
  const last = steps.length - 1;

  function go(i) {
    setIndex(Math.max(0, Math.min(last, i)));
  }

  function onKeyDown(evt) {
    if (evt.target.closest?.(".shudan-vertex") || evt.target.closest?.("select, input, textarea")) return;
    const keys = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    if (evt.key in keys) {
      evt.preventDefault();
      go(keys[evt.key]);
    }
  }

  const territory = { B: view.counted.B, W: view.counted.W };
  const sentence = step ? ctn("steps", step.kind, step.values, step.color) || step.kind : "";
  const rule = step?.rule;
  const held = step && (step.held.B || step.held.W || shown === "quick-count");

  return (
    <section
      class="count-steps"
      aria-labelledby="count-steps-title"
      data-testid="count-steps"
      data-method={shown}
      data-step={index}
      data-kind={step?.kind}
      tabindex="0"
      ref={root}
      onKeyDown={onKeyDown}
    >
      <h3 id="count-steps-title">{ct("stepsTitle")}</h3>
      <p class="visually-hidden" id="count-steps-keys">
        {ct("keysHelp")}
      </p>
      <div class="count-methods" role="group" aria-label={ct("method")}>
        {methods.map((m) => (
          <button
            key={m}
            type="button"
            aria-pressed={m === shown ? "true" : "false"}
            data-method={m}
            onClick={() => {
              setShown(m);
              setIndex(0);
            }}
          >
            {tn("methodNames", m) || m}
          </button>
        ))}
      </div>
      <div class="count-body">
        <Board
          size={size}
          board={view.colors}
          dead={view.lifted}
          territory={territory}
          neutral={view.counted.N}
          interactive={false}
          maxWidth={maxWidth || 420}
          maxHeight={maxWidth || 420}
        />
        <div class="count-side">
          <div class="count-nav">
            <button type="button" onClick={() => go(index - 1)} disabled={index === 0} data-testid="step-prev">
              ◀ {ct("previous")}
            </button>
            <span data-testid="step-counter" aria-live="polite">
              {ct("stepOf", index + 1, steps.length)}
            </span>
            <button type="button" onClick={() => go(index + 1)} disabled={index === last} data-testid="step-next">
              {ct("next")} ▶
            </button>
          </div>
          <p class="count-sentence" data-testid="step-sentence" aria-live="polite">
            {sentence}
          </p>
          {rule && (
            <p class="count-rule" data-testid="step-rule">
              {ct("source")} {ctn("sources", rule.source) || rule.source}, {ct("article", rule.article)}
            </p>
          )}
          <table class="count-totals" data-testid="step-totals">
            <thead>
              <tr>
                <td></td>
                <th scope="col">{t("black")}</th>
                <th scope="col">{t("white")}</th>
              </tr>
            </thead>
            <tbody>
              <tr class="total">
                <th scope="row">{ct("runningTotal")}</th>
                <td data-testid="total-B">{num(step?.totals.B ?? 0)}</td>
                <td data-testid="total-W">{num(step?.totals.W ?? 0)}</td>
              </tr>
              {held && (
                <tr>
                  <th scope="row">{ct("inHand")}</th>
                  <td data-testid="held-B">{num(step.held.B)}</td>
                  <td data-testid="held-W">{num(step.held.W)}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
