// The moves played, with the controls that step back through them (the board then shows the
// position after the chosen move; "live" returns to the game). Only the list scrolls, not the
// page, so the board stays where it is.
import { useEffect, useRef } from "preact/hooks";
import { t } from "../../i18n.js";
import { colorName } from "./names.js";

/**
 * `moves` the moves played; `n` the number shown on the board; `reviewing` whether that is an
 * earlier position; `onReview(k)` shows the position after move k (null: the game as it is).
 */
export function MoveList({ moves, n, reviewing, onReview }) {
  const listRef = useRef(null);

  // The list follows the game: the newest entry when live, the reviewed one otherwise.
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (!reviewing) {
      list.scrollTop = list.scrollHeight;
      return;
    }
    const current = list.querySelector('[aria-current="step"]')?.closest("li");
    if (!current) {
      list.scrollTop = 0;
      return;
    }
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }, [moves.length, n, reviewing]);

  return (
    <section class="moves" aria-labelledby="moves-title">
      <h3 id="moves-title">{t("moveList")}</h3>
      <div class="review-nav" role="group" aria-label={t("review")}>
        <button type="button" onClick={() => onReview(0)} disabled={!moves.length} data-testid="review-start">
          « <span class="visually-hidden">{t("reviewStart")}</span>
        </button>
        <button
          type="button"
          onClick={() => onReview(Math.max(0, n - 1))}
          disabled={n === 0}
          aria-label={t("reviewPrev")}
          data-testid="review-prev"
        >
          ◀
        </button>
        <button
          type="button"
          onClick={() => onReview(n + 1 >= moves.length ? null : n + 1)}
          disabled={!reviewing}
          aria-label={t("reviewNext")}
          data-testid="review-next"
        >
          ▶
        </button>
        <button type="button" onClick={() => onReview(null)} disabled={!reviewing} data-testid="review-live">
          » <span class="visually-hidden">{t("reviewEnd")}</span>
        </button>
      </div>
      <ol class="move-list" data-testid="move-list" ref={listRef}>
        {moves.map((m, i) => (
          <li key={m.n ?? i + 1}>
            <button
              type="button"
              class={i + 1 === n ? "current" : ""}
              aria-current={i + 1 === n ? "step" : undefined}
              onClick={() => onReview(i + 1 === moves.length ? null : i + 1)}
            >
              <span class="move-n">{i + 1}</span> {colorName(m.color)}{" "}
              {m.point === null || m.point === undefined ? t("passed") : m.vertex}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
