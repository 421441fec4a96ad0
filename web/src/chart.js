// The arithmetic of a line chart (components/LineChart.jsx), kept apart from Preact so that node's test
// runner checks it: domains, "nice" tick values, scales from data to drawing units, the nearest point.

/**
 * The smallest and largest of `values` as [lo, hi], widened when they are equal (a single point still
 * gets an axis): by `pad` on each side, or by 1 when pad is 0. Returns [0, 1] for no values.
 */
export function extent(values, pad = 0) {
  const finite = values.filter((v) => Number.isFinite(v));
  if (!finite.length) return [0, 1];
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (lo === hi) {
    const d = pad || Math.abs(lo) * 0.05 || 1;
    lo -= d;
    hi += d;
  }
  return [lo, hi];
}

/** A "nice" step (1, 2 or 5 times a power of ten) that cuts `span` into about `count` parts. */
export function niceStep(span, count) {
  if (!(span > 0) || !(count > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  const factor = unit < 1.5 ? 1 : unit < 3.5 ? 2 : unit < 7.5 ? 5 : 10;
  return factor * power;
}

/**
 * About `count` round tick values within [lo, hi] (ends included when they fall on a step). With
 * `integers`, steps are whole numbers (move numbers, game numbers: no tick at 2.5).
 */
export function ticks(lo, hi, count = 5, integers = false) {
  let step = niceStep(hi - lo, Math.max(1, count));
  if (integers) step = Math.max(1, Math.round(step));
  const first = Math.ceil(lo / step - 1e-9) * step;
  const out = [];
  for (let v = first; v <= hi + step * 1e-9 && out.length < 100; v += step) {
    // Rounded to the step's decimals: 0.1 + 0.2 must be printed as 0.3.
    out.push(Number(v.toFixed(Math.max(0, -Math.floor(Math.log10(step))))));
  }
  return out;
}

/** [lo, hi] widened outwards to the nearest multiples of a nice step (an automatic y axis). */
export function niceDomain(lo, hi, count = 5) {
  const step = niceStep(hi - lo, count);
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/** A linear map from the domain [d0, d1] to the range [r0, r1] (a degenerate domain maps to the middle). */
export function scale([d0, d1], [r0, r1]) {
  if (d1 === d0) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** The sorted distinct x values of every series' points. */
export function xsOf(series) {
  const xs = new Set();
  for (const s of series) for (const p of s.points) if (Number.isFinite(p.x)) xs.add(p.x);
  return [...xs].sort((a, b) => a - b);
}

/** The value of `xs` (sorted) nearest `x`; null for no values. */
export function nearest(xs, x) {
  if (!xs.length) return null;
  let best = xs[0];
  for (const v of xs) if (Math.abs(v - x) < Math.abs(best - x)) best = v;
  return best;
}

/**
 * The x value a key moves to from `current` among `xs` (sorted): ArrowLeft/ArrowRight one value, Home/End
 * the ends; null for any other key. With no current value, the arrows start from the last (the newest).
 */
export function stepKey(xs, current, key) {
  if (!xs.length) return null;
  const i = current == null ? -1 : xs.indexOf(nearest(xs, current));
  switch (key) {
    case "ArrowLeft":
      return xs[i < 0 ? xs.length - 1 : Math.max(0, i - 1)];
    case "ArrowRight":
      return xs[i < 0 ? xs.length - 1 : Math.min(xs.length - 1, i + 1)];
    case "Home":
      return xs[0];
    case "End":
      return xs[xs.length - 1];
    default:
      return null;
  }
}

/** An SVG path ("M x y L x y ...") through `points` already in drawing units. */
export function linePath(points) {
  return points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join(" ");
}
