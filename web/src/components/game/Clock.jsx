// One side's clock, counted from the server's time of its reading (`clock.at`, docs/web-api.md):
// the running side counts down on the page with the server's arithmetic (time.js runDown) until
// the next message replaces the reading.
import { useServerNow } from "../../hooks.js";
import { t } from "../../i18n.js";
import { clockText, pausedAt, sideAt } from "../../time.js";

export function Clock({ clock, color }) {
  const side = clock?.[color];
  // A clock paused for its player's weekend or vacation stands still on every page (docs/web-api.md, `paused`).
  // It ticks while paused too when the pause has an end, so that the clock starts again on its own then.
  const now = useServerNow(clock?.running === color);
  const paused = pausedAt(clock, color, now);
  const running = clock?.running === color && !paused;
  if (!side) return null;
  const state = sideAt(clock, color, now);
  const text = clockText(clock.spec, state);
  const expired = side.expired || state.expired;
  const label = paused ? t("labelled", text, t(paused === "weekend" ? "pausedWeekend" : "pausedVacation")) : text;
  return (
    <span
      class={`clock${running ? " running" : ""}${expired ? " expired" : ""}${paused ? " paused" : ""}`}
      aria-label={t("labelled", t("clockLeft", color === "B" ? t("black") : t("white")), label)}
      data-testid={`clock-${color}`}
    >
      {text}
      {paused && (
        <small class="pause" data-testid={`paused-${color}`}>
          {" "}
          ({t(paused === "weekend" ? "pausedWeekend" : "pausedVacation")})
        </small>
      )}
    </span>
  );
}
