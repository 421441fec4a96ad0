// One side's clock. The server's values are as of the state's arrival; the
// running side is counted down locally until the next state replaces it.
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n.js";

export function formatSeconds(s) {
  const total = Math.max(0, Math.ceil(s));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

export function Clock({ clock, color, receivedAt }) {
  const side = clock?.[color];
  const running = clock?.running === color;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running, receivedAt]);
  if (!side) return null;
  let main = side.main ?? 0;
  let period = side.period ?? null;
  if (running) {
    let elapsed = Math.max(0, (now - receivedAt) / 1000);
    const used = Math.min(main, elapsed);
    main -= used;
    elapsed -= used;
    if (period !== null && elapsed > 0) period = Math.max(0, period - elapsed);
  }
  const type = clock.spec?.type;
  let text = formatSeconds(main);
  if (main <= 0 && (type === "byoyomi" || type === "canadian")) {
    if (type === "byoyomi") text = `${t("periodsLeft", side.periods)}${formatSeconds(period ?? 0)}`;
    else text = `${t("stonesLeft", side.stones)} ${formatSeconds(period ?? 0)}`;
  }
  return (
    <span
      class={`clock${running ? " running" : ""}${side.expired ? " expired" : ""}`}
      aria-label={`${t("clockLeft", color === "B" ? t("black") : t("white"))}: ${text}`}
      data-testid={`clock-${color}`}
    >
      {text}
    </span>
  );
}
