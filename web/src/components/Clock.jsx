// One side's clock. The server's values are as of the state's arrival; the
// running side is counted down locally until the next state replaces it, with
// the same arithmetic as the server's clock (server/clock.py): main time first,
// then byo-yomi periods one after the other, or the Canadian period.
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

/**
 * One side's clock `elapsed` seconds after the server's snapshot `side`, under `spec`
 * ({type, period, ...}): returns {main, periods, period, stones, expired}. A byo-yomi
 * period that runs out uses one period and the count goes on in the next, as on the
 * server; the display must not wait for a state that only comes with the next move.
 */
export function runDown(spec, side, elapsed) {
  const out = {
    main: side.main ?? 0,
    periods: side.periods ?? 0,
    period: side.period ?? 0,
    stones: side.stones ?? 0,
    expired: !!side.expired,
  };
  if (out.expired || !(elapsed > 0)) return out;
  const used = Math.min(out.main, elapsed);
  out.main -= used;
  let over = elapsed - used;
  if (over <= 0) return out;
  if (spec?.type === "byoyomi" && spec.period > 0) {
    if (over < out.period) {
      out.period -= over;
      return out;
    }
    over -= out.period;
    const whole = Math.floor(over / spec.period);
    out.periods -= 1 + whole;
    if (out.periods <= 0) {
      Object.assign(out, { periods: 0, period: 0, expired: true });
    } else {
      out.period = spec.period - (over - whole * spec.period);
    }
  } else if (spec?.type === "canadian") {
    out.period = Math.max(0, out.period - over);
    if (out.period <= 0) out.expired = true;
  } else {
    out.expired = true;
  }
  return out;
}

/** The clock in words: "9:58", "9:58 + 3 × 0:30", "2 × 0:17", "9:58 + 25 stones in 5:00". */
export function clockText(spec, now) {
  const type = spec?.type;
  if (now.expired) return formatSeconds(0);
  let overtime = null;
  if (type === "byoyomi") overtime = t("periodsLeft", now.periods, formatSeconds(now.period));
  else if (type === "canadian") overtime = t("stonesLeft", now.stones, formatSeconds(now.period));
  if (overtime === null) return formatSeconds(now.main);
  return now.main > 0 ? t("mainPlus", formatSeconds(now.main), overtime) : overtime;
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
  const elapsed = running ? Math.max(0, (now - receivedAt) / 1000) : 0;
  const state = runDown(clock.spec, side, elapsed);
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
