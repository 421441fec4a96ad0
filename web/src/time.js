// The server's time as this page estimates it, and clocks in words. A page never trusts the
// browser's clock (it may be set wrong by hours): each fresh reading of the server's time
// (docs/web-api.md, `at` and `now`) sets the offset between the two, and every clock on the
// page (the game's, the lobby's) counts from the server's time of its reading, so any page
// opened at any moment shows what the players' pages show.
import { t } from "./i18n.js";

let offset = 0;

/** The browser's clock in epoch seconds (a function so that tests may pass their own). */
export const browserNow = () => Date.now() / 1000;

/**
 * Notes a reading of the server's clock (epoch seconds) taken when the message carrying it
 * arrived: later serverNow() calls count from it. A missing reading changes nothing.
 */
export function noteServerTime(at, local = browserNow()) {
  if (typeof at === "number" && Number.isFinite(at)) offset = at - local;
}

/** Sets the offset itself (server time minus browser time, seconds), as a game's model holds it; null changes nothing. */
export function setServerOffset(seconds) {
  if (typeof seconds === "number" && Number.isFinite(seconds)) offset = seconds;
}

/** The server's clock now, as estimated from the last reading (the browser's clock before any). */
export function serverNow(local = browserNow()) {
  return local + offset;
}

/** A time left: "2 d 5 h" (French "2 j 5 h") from a day on, "5:03:07" and "9:58" below. */
export function formatSeconds(s) {
  const total = Math.max(0, Math.ceil(s));
  if (total >= 86400) return t("daysHours", Math.floor(total / 86400), Math.floor((total % 86400) / 3600));
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
 * server (server/clock.py); the display must not wait for a state that only comes with the next move.
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
  else if (type === "canadian" && now.stones !== null) {
    overtime = t("stonesLeft", now.stones, formatSeconds(now.period));
  } else if (type === "canadian") overtime = formatSeconds(now.period);
  if (overtime === null) return formatSeconds(now.main);
  return now.main > 0 ? t("mainPlus", formatSeconds(now.main), overtime) : overtime;
}

/** Why `color`'s clock stands still at the server's time `now` ("weekend", "vacation"), or null: the reading's
 * pause, until its `resumes_at` for the running side. */
export function pausedAt(clock, color, now) {
  const why = clock?.paused?.[color] || null;
  if (why && clock.running === color && typeof clock.resumes_at === "number" && now >= clock.resumes_at) return null;
  return why;
}

/**
 * One side's clock of a game's clock reading ({spec, running, B, W, at, paused, pauses_at}) at the
 * server's time `now`: the running side counted down from `at`, the other as read. A paused side
 * (its weekend, its vacation: `paused`) does not count down, nor the running side past `pauses_at`,
 * when its pause begins (the server's next reading says how long it lasts).
 */
export function sideAt(clock, color, now) {
  const side = clock[color];
  const paused = pausedAt(clock, color, now);
  const running = clock.running === color && !paused;
  // A pause that has ended (`resumes_at` passed) counts from its end; a pause ahead stops the count.
  const from = clock.paused?.[color] && typeof clock.resumes_at === "number" ? clock.resumes_at : clock.at;
  const until = typeof clock.pauses_at === "number" ? Math.min(now, clock.pauses_at) : now;
  const elapsed = running && typeof from === "number" ? Math.max(0, until - from) : 0;
  return runDown(clock.spec, side, elapsed);
}

/**
 * A side's clock rebuilt from the seconds it has left in all (a lobby summary's `time_left`),
 * under `spec`: main time is used first, then the byo-yomi periods one after the other, so the
 * total says which part is left. A Canadian period's stones are not in the total (null).
 */
export function sideFromTotal(spec, total) {
  const left = Math.max(0, total);
  const side = { main: left, periods: 0, period: 0, stones: null, expired: left <= 0 };
  if (spec?.type === "byoyomi" && spec.period > 0) {
    const overtime = spec.periods * spec.period;
    if (left > overtime) return { ...side, main: left - overtime, periods: spec.periods, period: spec.period };
    const periods = Math.ceil(left / spec.period);
    return { ...side, main: 0, periods, period: left - (periods - 1) * spec.period };
  }
  if (spec?.type === "canadian" && spec.period > 0) {
    if (left > spec.period) return { ...side, main: left - spec.period, period: spec.period, stones: spec.stones };
    return { ...side, main: 0, period: left };
  }
  return side;
}

/**
 * The time a lobby summary's side has at the server's time `now`, in the game page's words; null
 * for a game without a clock. The summary's reading is as of `time_at` (else `readAt`, when the
 * list arrived); only the `running` side counts down (else the side to move of a live game).
 */
export function summaryClockText(g, color, now, readAt) {
  if (!g.time_left || typeof g.time_left[color] !== "number") return null;
  const at = typeof g.time_at === "number" ? g.time_at : readAt;
  const running = g.paused?.[color]
    ? null
    : "running" in g
      ? g.running
      : g.status === "live" && g.phase === "play"
        ? g.to_move
        : null;
  const elapsed = running === color && typeof at === "number" ? Math.max(0, now - at) : 0;
  return clockText(g.clock, sideFromTotal(g.clock, g.time_left[color] - elapsed));
}
