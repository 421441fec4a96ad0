// One side's clock, counted from the server's time of its reading (`clock.at`, docs/web-api.md):
// the running side counts down on the page with the server's arithmetic (time.js runDown) until
// the next message replaces the reading.
import { useServerNow } from "../../hooks.js";
import { t } from "../../i18n.js";
import { clockText, sideAt } from "../../time.js";

export function Clock({ clock, color }) {
  const side = clock?.[color];
  const running = clock?.running === color;
  const now = useServerNow(running);
  if (!side) return null;
  const state = sideAt(clock, color, now);
  const text = clockText(clock.spec, state);
  const expired = side.expired || state.expired;
  return (
    <span
      class={`clock${running ? " running" : ""}${expired ? " expired" : ""}`}
      aria-label={t("labelled", t("clockLeft", color === "B" ? t("black") : t("white")), text)}
      data-testid={`clock-${color}`}
    >
      {text}
    </span>
  );
}
