// The goban: Shudan draws it; this wrapper makes every point a labelled,
// focusable control ("D4, black stone") with a roving tab stop, so the board
// can be played from the keyboard and read by screen readers.
import { Goban } from "@sabaki/shudan";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { LETTERS, vertexToGtp } from "../coords.js";
import { t } from "../i18n.js";

const SIGN = { 0: 0, 1: 1, 2: -1 };

// Width of the drawn board in vertex sizes beyond its points: the coordinates on both
// sides, Shudan's padding (.25em each side) and its border (.15em each side).
const FRAME = 2 + 0.5 + 0.3;

/** The vertex size (px) that fits a size x size board with coordinates in maxWidth x maxHeight. */
export function fitVertexSize(size, maxWidth, maxHeight) {
  const fit = Math.floor(Math.min(maxWidth, maxHeight) / (size + FRAME));
  return Math.max(8, Math.min(48, fit));
}

/**
 * Whether [x, y] is a star point of the size x size board, as drawn by Shudan except that
 * boards under 13x13 keep the four corner points and tengen only (9x9: C3, G3, C7, G7, E5),
 * the usual convention; 13x13 and larger keep Shudan's nine.
 */
export function isStarPoint(x, y, size) {
  if (size <= 6) return false;
  const near = size >= 13 ? 3 : 2;
  const far = size - near - 1;
  const mid = (size - 1) / 2;
  const onLine = (v) => v === near || v === far;
  if (onLine(x) && onLine(y)) return true;
  if (size % 2 === 0 || size === 7) return false;
  if (x === mid && y === mid) return true;
  if (size < 13) return false;
  return (x === mid && onLine(y)) || (y === mid && onLine(x));
}

/**
 * Props: size, board (flat array, 0 empty, 1 black, 2 white), lastMove ([x, y] or null),
 * dead (Set of points), territory ({B: Set, W: Set} or null), neutral (Set of empty points that count for
 * nobody, marked with a square: dame, eyes of a seki under Japanese counting), onActivate(vertex, how) with
 * how "pointer" (click or tap) or "key", interactive (bool), ghost (1 black, 2 white, 0 none:
 * the stone previewed under the pointer), selected ([x, y] or null: the point chosen by a
 * first tap, shown with its stone until confirmed), onPass, help (the keyboard help, where the page's
 * board does something else than play a game's move), maxWidth, maxHeight, marks (Map of point ->
 * a Shudan marker such as {type: "label", label} or {type: "triangle"}, with `spoken`, the words a
 * screen reader adds: the bot's candidate moves of a review), heat (Shudan's heat map: rows of {strength, text}
 * or null; the answers to a demo board's question).
 */
export function Board(props) {
  const { size, board, lastMove, dead, territory, neutral, onActivate, interactive, ghost, selected, maxWidth, maxHeight, marks } =
    props;
  const vertexSize = fitVertexSize(size, maxWidth, maxHeight);
  const container = useRef(null);
  const [hover, setHover] = useState(null);
  const focus = useRef(null); // [x, y] of the roving tab stop

  const maps = useMemo(() => {
    const signMap = [];
    const markerMap = [];
    const paintMap = [];
    for (let y = 0; y < size; y++) {
      const signs = [];
      const markers = [];
      const paints = [];
      for (let x = 0; x < size; x++) {
        const p = y * size + x;
        signs.push(SIGN[board[p]] ?? 0);
        let marker = null;
        if (dead?.has(p)) marker = { type: "cross" };
        else if (neutral?.has(p) && !board[p]) marker = { type: "square" };
        else if (lastMove && lastMove[0] === x && lastMove[1] === y) marker = { type: "circle" };
        else if (marks?.has(p)) marker = { type: marks.get(p).type, label: marks.get(p).label };
        markers.push(marker);
        let paint = 0;
        if (territory?.B?.has(p)) paint = 1;
        else if (territory?.W?.has(p)) paint = -1;
        paints.push(paint);
      }
      signMap.push(signs);
      markerMap.push(markers);
      paintMap.push(paints);
    }
    return { signMap, markerMap, paintMap };
  }, [size, board, lastMove, dead, territory, neutral, marks]);

  // The stone the player would place, shown faintly under the pointer on an empty point,
  // and plainly on the point selected by a first tap.
  const ghostStoneMap = useMemo(() => {
    if (!interactive || !ghost) return null;
    const map = Array.from({ length: size }, () => new Array(size).fill(null));
    const empty = (v) => v && v[0] < size && v[1] < size && board[v[1] * size + v[0]] === 0;
    if (empty(hover)) map[hover[1]][hover[0]] = { sign: SIGN[ghost], faint: true };
    if (empty(selected)) map[selected[1]][selected[0]] = { sign: SIGN[ghost] };
    return map;
  }, [interactive, ghost, hover, selected, size, board]);

  const isSelected = (x, y) => !!selected && selected[0] === x && selected[1] === y;

  const dimmed = useMemo(() => {
    if (!dead) return [];
    return [...dead].map((p) => [p % size, Math.floor(p / size)]);
  }, [dead, size]);

  function describe(x, y) {
    const p = y * size + x;
    const parts = [];
    const c = board[p];
    parts.push(c === 1 ? t("blackStone") : c === 2 ? t("whiteStone") : t("empty"));
    if (dead?.has(p)) parts.push(t("deadMark"));
    if (lastMove && lastMove[0] === x && lastMove[1] === y) parts.push(t("lastMove"));
    if (isSelected(x, y)) parts.push(t("selectedMark"));
    if (marks?.has(p) && marks.get(p).spoken) parts.push(marks.get(p).spoken);
    if (c === 0 && territory?.B?.has(p)) parts.push(t("territoryOf", t("black")));
    if (c === 0 && territory?.W?.has(p)) parts.push(t("territoryOf", t("white")));
    if (c === 0 && neutral?.has(p)) parts.push(t("nobodysPoint"));
    return t("pointLabel", vertexToGtp([x, y], size), parts.join(", "));
  }

  // Shudan renders plain divs; label them after every render (Preact keeps
  // attributes it does not manage, and the vertices are keyed so they persist).
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    if (!focus.current || focus.current[0] >= size || focus.current[1] >= size) {
      const mid = Math.floor(size / 2);
      focus.current = lastMove || [mid, mid];
    }
    for (const el of root.querySelectorAll(".shudan-vertex")) {
      const x = Number(el.dataset.x);
      const y = Number(el.dataset.y);
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", describe(x, y));
      el.setAttribute("aria-disabled", interactive ? "false" : "true");
      el.setAttribute("data-vertex", vertexToGtp([x, y], size));
      const isStop = focus.current[0] === x && focus.current[1] === y;
      el.setAttribute("tabindex", isStop ? "0" : "-1");
    }
    // Star points: Shudan draws nine on every odd board from 9x9; hide those the
    // convention leaves out. Its circles carry no vertex, which their centre gives.
    for (const circle of root.querySelectorAll(".shudan-hoshi")) {
      const x = Math.floor((Number(circle.getAttribute("cx")) - 0.5) / vertexSize);
      const y = Math.floor((Number(circle.getAttribute("cy")) - 0.5) / vertexSize);
      circle.setAttribute("data-star", vertexToGtp([x, y], size));
      circle.style.display = isStarPoint(x, y, size) ? "" : "none";
    }
  });

  function moveFocus(x, y) {
    const nx = Math.max(0, Math.min(size - 1, x));
    const ny = Math.max(0, Math.min(size - 1, y));
    focus.current = [nx, ny];
    const root = container.current;
    for (const el of root.querySelectorAll('.shudan-vertex[tabindex="0"]')) el.setAttribute("tabindex", "-1");
    const target = root.querySelector(`.shudan-vertex[data-x="${nx}"][data-y="${ny}"]`);
    if (target) {
      target.setAttribute("tabindex", "0");
      target.focus();
    }
  }

  function onKeyDown(evt) {
    const el = evt.target.closest?.(".shudan-vertex");
    if (!el) return;
    const x = Number(el.dataset.x);
    const y = Number(el.dataset.y);
    const moves = {
      ArrowLeft: [x - 1, y],
      ArrowRight: [x + 1, y],
      ArrowUp: [x, y - 1],
      ArrowDown: [x, y + 1],
      Home: [0, y],
      End: [size - 1, y],
      PageUp: [x, 0],
      PageDown: [x, size - 1],
    };
    if (evt.key in moves) {
      evt.preventDefault();
      moveFocus(...moves[evt.key]);
    } else if (evt.key === "Enter" || evt.key === " ") {
      evt.preventDefault();
      focus.current = [x, y];
      if (interactive) onActivate?.([x, y], "key");
    } else if ((evt.key === "p" || evt.key === "P") && props.onPass) {
      evt.preventDefault();
      props.onPass();
    }
  }

  function onClick(_evt, vertex) {
    focus.current = vertex;
    if (interactive) onActivate?.(vertex, "pointer");
  }

  return (
    <div
      class={`board-wrap${interactive ? " interactive" : ""}`}
      ref={container}
      role="group"
      aria-label={t("board", size)}
      aria-describedby="board-help"
      onKeyDown={onKeyDown}
      data-testid="board"
    >
      <p id="board-help" class="visually-hidden">
        {props.help ?? t("boardHelp")}
      </p>
      <Goban
        vertexSize={vertexSize}
        showCoordinates={true}
        coordX={(i) => LETTERS[i]}
        coordY={(i) => String(size - i)}
        signMap={maps.signMap}
        markerMap={maps.markerMap}
        paintMap={maps.paintMap}
        heatMap={props.heat}
        dimmedVertices={dimmed}
        ghostStoneMap={ghostStoneMap}
        selectedVertices={selected ? [selected] : []}
        onVertexClick={onClick}
        onVertexMouseEnter={(_evt, vertex) => setHover(vertex)}
        onVertexMouseLeave={() => setHover(null)}
      />
    </div>
  );
}
