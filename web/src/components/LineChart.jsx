// A line chart in plain SVG: the player page's rating over time, the game review's win rate.
//
// Props (all but `series` optional):
//   series     [{label, points: [{x, y, lo?, hi?}], className}]: one line each, drawn in order; points
//              sorted by x. `lo`/`hi` on the points draw a shaded band around the line (a rating's
//              deviation, an estimate's spread). `className` colours the line (chart.css: .series-1..3).
//   yDomain    [lo, hi] fixed (a win rate: [0, 100]); null or absent: from the data, widened to round values.
//   xDomain    [lo, hi] fixed; absent: from the data.
//   xLabel, yLabel   the axes' titles (words of the page's language).
//   xFormat, yFormat (v) => string for tick labels and the spoken value (default: the number).
//   xIntegers  true when x values are whole (move or game numbers): no tick at 2.5.
//   markers    [{x, label, className?}]: a mark on the x axis with a title (a mistake at move 37).
//   currentX   x of a vertical cursor (the move shown on the board, the game picked); null: none.
//   onPick     (x) => void: makes the chart pickable: a click or tap picks the nearest x with data,
//              ←/→ step through the x values, Home/End go to the ends. Without it the chart is an image.
//   describe   (x) => string: the spoken value of the picked x (aria-valuetext); default "x: y, ...".
//   ariaLabel  what the chart shows, for screen readers (required in practice).
//   height     the drawing's height in pixels (default 220); the width follows the container.
//
// The drawing is measured in CSS pixels (a ResizeObserver reads the container's width) so that text keeps
// its size from a 390 px phone to a desktop; the viewBox lets the SVG scale before the first measure. Colours
// and strokes come from classes (chart.css), never inline styles: the page's Content-Security-Policy forbids
// them. Why not a charting library: docs/web-ui.md, "Charts".
import { useEffect, useRef, useState } from "preact/hooks";
import { extent, linePath, nearest, niceDomain, scale, stepKey, ticks, xsOf } from "../chart.js";

const MARGIN = { top: 10, right: 14, bottom: 40, left: 52 };
const DOTS_UP_TO = 60; // beyond this many points a line carries no dots (they would merge into a bar)

function useWidth(ref, initial) {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return undefined;
    const measure = () => {
      const w = Math.round(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return width;
}

export function LineChart({
  series,
  yDomain = null,
  xDomain = null,
  xLabel,
  yLabel,
  xFormat = String,
  yFormat = String,
  xIntegers = false,
  markers = [],
  currentX = null,
  onPick,
  describe,
  ariaLabel,
  height = 220,
}) {
  const box = useRef(null);
  const svg = useRef(null);
  const width = useWidth(box, 600);
  const xs = xsOf(series);
  const ys = series.flatMap((s) => s.points.flatMap((p) => [p.y, p.lo, p.hi]));
  const [x0, x1] = xDomain || extent(xs, xIntegers ? 1 : 0);
  const [y0, y1] = yDomain || niceDomain(...extent(ys));
  const plotW = Math.max(40, width - MARGIN.left - MARGIN.right);
  const plotH = Math.max(40, height - MARGIN.top - MARGIN.bottom);
  const sx = scale([x0, x1], [MARGIN.left, MARGIN.left + plotW]);
  const sy = scale([y0, y1], [MARGIN.top + plotH, MARGIN.top]);
  const xTicks = ticks(x0, x1, Math.max(2, Math.floor(plotW / 80)), xIntegers);
  const yTicks = ticks(y0, y1, Math.max(2, Math.floor(plotH / 40)));
  const bottom = MARGIN.top + plotH;

  const valueAt = (x) =>
    series
      .map((s) => [s.label, s.points.find((p) => p.x === x)])
      .filter(([, p]) => p)
      .map(([label, p]) => `${label}: ${yFormat(p.y)}`)
      .join(", ");
  const spoken = (x) => (describe ? describe(x) : `${xFormat(x)}: ${valueAt(x)}`);

  function pickAt(clientX) {
    const rect = svg.current.getBoundingClientRect();
    const drawn = ((clientX - rect.left) / rect.width) * width;
    const x = nearest(xs, x0 + ((drawn - MARGIN.left) / plotW) * (x1 - x0));
    if (x != null) onPick(x);
  }

  function onKey(e) {
    const x = stepKey(xs, currentX, e.key);
    if (x == null) return;
    e.preventDefault();
    onPick(x);
  }

  const pickable = typeof onPick === "function" && xs.length > 0;
  const roles = pickable
    ? {
        role: "slider",
        tabindex: 0, // lowercase: on an SVG element the attribute name is case-sensitive (tabIndex is not focusable)
        "aria-valuemin": xs[0],
        "aria-valuemax": xs[xs.length - 1],
        "aria-valuenow": currentX ?? xs[xs.length - 1],
        "aria-valuetext": spoken(currentX ?? xs[xs.length - 1]),
        onKeyDown: onKey,
        onClick: (e) => pickAt(e.clientX),
      }
    : { role: "img" };

  return (
    <div class={`line-chart${pickable ? " pickable" : ""}`} ref={box}>
      <svg
        ref={svg}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="none"
        aria-label={ariaLabel}
        data-testid="line-chart"
        {...roles}
      >
        <g class="grid" aria-hidden="true">
          {yTicks.map((v) => (
            <line key={`y${v}`} x1={MARGIN.left} x2={MARGIN.left + plotW} y1={sy(v)} y2={sy(v)} />
          ))}
        </g>
        <g class="axis" aria-hidden="true">
          <line x1={MARGIN.left} x2={MARGIN.left + plotW} y1={bottom} y2={bottom} />
          <line x1={MARGIN.left} x2={MARGIN.left} y1={MARGIN.top} y2={bottom} />
          {xTicks.map((v) => (
            <g key={`xt${v}`} class="tick x-tick">
              <line x1={sx(v)} x2={sx(v)} y1={bottom} y2={bottom + 4} />
              <text x={sx(v)} y={bottom + 16} text-anchor="middle">
                {xFormat(v)}
              </text>
            </g>
          ))}
          {yTicks.map((v) => (
            <g key={`yt${v}`} class="tick y-tick">
              <line x1={MARGIN.left - 4} x2={MARGIN.left} y1={sy(v)} y2={sy(v)} />
              <text x={MARGIN.left - 7} y={sy(v) + 4} text-anchor="end">
                {yFormat(v)}
              </text>
            </g>
          ))}
          {xLabel && (
            <text class="axis-label" x={MARGIN.left + plotW / 2} y={height - 4} text-anchor="middle">
              {xLabel}
            </text>
          )}
          {yLabel && (
            <text class="axis-label" transform={`translate(12 ${MARGIN.top + plotH / 2}) rotate(-90)`} text-anchor="middle">
              {yLabel}
            </text>
          )}
        </g>
        {series.map((s, i) => {
          const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
          const band = pts.filter((p) => Number.isFinite(p.lo) && Number.isFinite(p.hi));
          const cls = s.className || `series-${i + 1}`;
          return (
            <g key={s.label} class={`series ${cls}`} aria-hidden="true" data-series={s.label}>
              {band.length > 1 && (
                <path
                  class="band"
                  d={`${linePath(band.map((p) => [sx(p.x), sy(Math.min(p.hi, y1))]))} ${linePath(
                    band.slice().reverse().map((p) => [sx(p.x), sy(Math.max(p.lo, y0))]),
                  ).replace(/^M/, "L")} Z`}
                />
              )}
              <path class="line" d={linePath(pts.map((p) => [sx(p.x), sy(p.y)]))} />
              {pts.length <= DOTS_UP_TO &&
                pts.map((p) => <circle key={p.x} class="dot" cx={sx(p.x)} cy={sy(p.y)} r={p.x === currentX ? 5 : 3} />)}
            </g>
          );
        })}
        {markers.map((m) => (
          <g key={`m${m.x}`} class={`marker ${m.className || ""}`} data-testid="chart-marker">
            <title>{m.label}</title>
            <line x1={sx(m.x)} x2={sx(m.x)} y1={MARGIN.top} y2={bottom} />
            <path d={`M${sx(m.x) - 5} ${bottom} L${sx(m.x) + 5} ${bottom} L${sx(m.x)} ${bottom - 8} Z`} />
          </g>
        ))}
        {currentX != null && Number.isFinite(currentX) && (
          <line class="cursor" aria-hidden="true" data-testid="chart-cursor" x1={sx(currentX)} x2={sx(currentX)}
            y1={MARGIN.top} y2={bottom} />
        )}
      </svg>
    </div>
  );
}
