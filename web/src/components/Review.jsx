// The review page (/review): open an SGF record (upload, paste, or a game of this
// server via ?game=ID), walk its move tree (buttons, arrow keys, variations), read
// each node's comment, toggle keima's ownership estimate at any node, count the
// final position step by step, download the record. The tree comes from the
// server, every node replayed through the referee (POST /api/review).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api } from "../api.js";
import { gtpToVertex } from "../coords.js";
import { countApi } from "../countApi.js";
import { useSignal, useViewport } from "../hooks.js";
import { lang, num, resultWords, rt, sgfFaultWords, tn } from "../i18n.js";
import { reviewApi } from "../reviewApi.js";
import { useBotReview } from "../botReview.js";
import { Board } from "./Board.jsx";
import { BotReview, PositionAnalysis, analysisMarks, reviewMarks } from "./BotReview.jsx";
import { CountSteps } from "./CountSteps.jsx";
import { ErrorNote } from "./ErrorNote.jsx";
import { ScoreTable } from "./ScoreTable.jsx";

const DIGIT = { 0: 0, 1: 1, 2: 2 };
// The server reads records of at most 1 MiB (keima.record.DEFAULT_MAX_BYTES): a bigger file is refused here.
const MAX_RECORD = 1 << 20;

/** The moves from the start to node id (oldest first), as the estimate endpoint takes them. */
export function movesTo(nodes, id) {
  const out = [];
  for (let n = nodes[id]; n; n = n.parent === null ? null : nodes[n.parent]) {
    if (n.move) out.push({ color: n.color, vertex: n.move });
  }
  return out.reverse();
}

function EstimateToggle({ data, node, onOwnership }) {
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);

  useEffect(() => {
    if (!on) {
      onOwnership(null);
      return undefined;
    }
    let live = true;
    setBusy(true);
    setError(null);
    reviewApi
      .estimate({
        size: data.size,
        rules: data.rules,
        komi: data.komi,
        black: data.start.black,
        white: data.start.white,
        to_move: data.start.to_move,
        moves: movesTo(data.nodes, node.id),
      })
      .then((r) => live && onOwnership(r.ownership))
      .catch((e) => live && (setError(e), onOwnership(null)))
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
    };
  }, [on, node.id, data]);

  return (
    <div class="review-estimate">
      <label>
        <input type="checkbox" checked={on} data-testid="estimate" onChange={(e) => setOn(e.currentTarget.checked)} />{" "}
        {rt("estimate")}
      </label>
      {on && busy && <p data-testid="estimating">{rt("estimating")}</p>}
      {on && !busy && !error && <p class="hint">{rt("estimateNote")}</p>}
      <ErrorNote error={error} />
    </div>
  );
}

function EndCount({ end }) {
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  async function count() {
    setBusy(true);
    setError(null);
    try {
      const body = { ...end, estimate_dead: end.dead.length === 0 };
      setResult(await countApi.position(body));
    } catch (exc) {
      setError(exc);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="review-count" aria-labelledby="review-count-title">
      <h3 id="review-count-title">{rt("countTitle")}</h3>
      {!result && (
        <button type="button" onClick={count} disabled={busy} data-testid="review-count">
          {rt("countFinal")}
        </button>
      )}
      <ErrorNote error={error} />
      {result && (
        <>
          <ScoreTable score={result.score} final={true} />
          <CountSteps size={end.size} board={end.board} score={result.score} method={result.score.method} />
        </>
      )}
    </section>
  );
}

/** The colour to play after node `id`: the other one than the last move's on its line, else the start's. */
function toPlayAfter(nodes, id, start) {
  for (let n = nodes[id]; n; n = n.parent === null ? null : nodes[n.parent]) {
    if (n.color) return n.color === "B" ? "W" : "B";
  }
  return start.to_move;
}

/** The line through node `id`: its ancestors from the root, then its first children to the end. */
function lineThrough(nodes, id) {
  const line = [];
  for (let n = nodes[id]; n; n = n.parent === null ? null : nodes[n.parent]) line.push(n.id);
  line.reverse();
  for (let n = nodes[id]; n.children.length; n = nodes[n.children[0]]) line.push(n.children[0]);
  return line;
}

/** A player's name from the record, or null where it names nobody ("?" or empty: the page says the colour). */
function playerName(value) {
  const v = (value || "").trim();
  return v && v !== "?" ? v : null;
}

function ReviewTree({ data: loaded, gameId }) {
  // The record, with the variations the reader tried (each answered by the server: the referee's verdict, and
  // the SGF with the variation for download).
  const [data, setData] = useState(loaded);
  const [at, setAt] = useState(0);
  const [tryError, setTryError] = useState(null);
  const [trying, setTrying] = useState(false);
  const [ownership, setOwnership] = useState(null);
  // The candidates of the bot's analysis of the node shown (PositionAnalysis), drawn on the board.
  const [analysed, setAnalysed] = useState(null);
  const [vw, vh] = useViewport();
  const narrow = vw <= 900;
  const root = useRef(null);
  const nodes = data.nodes;
  const node = nodes[at];
  const parent = node.parent === null ? null : nodes[node.parent];
  const mainSet = useMemo(() => new Set(data.main_line), [data]);
  const lastMain = data.main_line[data.main_line.length - 1];

  const board = useMemo(() => [...node.board].map((ch) => DIGIT[ch] ?? 0), [node]);
  // The bot reviews the record as loaded: a variation tried since changes the SGF for download, not the review.
  const bot = useBotReview(gameId ? { gameId } : { sgf: loaded.sgf });
  // The bot reviews the main line: move number n is its node where move n was played (0: the start).
  const mainAt = useMemo(() => {
    const at = new Map();
    for (const id of data.main_line) if (!at.has(nodes[id].number)) at.set(nodes[id].number, id);
    return at;
  }, [data]);
  const moveCount = nodes[lastMain].number;
  const current = mainSet.has(node.id) ? node.number : null;
  const marks = useMemo(
    () =>
      analysed
        ? analysisMarks(analysed, data.size)
        : current === null
          ? null
          : reviewMarks(bot.review, current, data.size),
    [bot.review, current, data.size, analysed],
  );
  // The node's position as POST /api/analysis/position takes it: the record's start and the moves to the node.
  const position = useMemo(
    () => ({
      size: data.size,
      rules: data.rules,
      komi: data.komi,
      black: data.start.black,
      white: data.start.white,
      to_move: data.start.to_move,
      moves: movesTo(nodes, node.id),
    }),
    [data, node.id],
  );
  const botProps = {
    state: bot,
    current,
    total: moveCount,
    onJump: (n) => go(mainAt.get(n)),
  };
  const lastMove = node.move && node.move !== "pass" ? gtpToVertex(node.move, data.size) : null;

  const overlay = useMemo(() => {
    if (!ownership) return { territory: null, dead: null };
    const territory = { B: new Set(), W: new Set() };
    const dead = new Set();
    ownership.forEach((o, p) => {
      if (o >= 0.3) territory.B.add(p);
      else if (o <= -0.3) territory.W.add(p);
      if ((board[p] === 1 && o <= -0.5) || (board[p] === 2 && o >= 0.5)) dead.add(p);
    });
    return { territory, dead };
  }, [ownership, board]);

  function go(id) {
    if (id !== null && id !== undefined && nodes[id]) setAt(id);
  }
  const toEnd = () => {
    let n = node;
    while (n.children.length) n = nodes[n.children[0]];
    go(n.id);
  };
  function sibling(step) {
    if (!parent || parent.children.length < 2) return;
    const i = parent.children.indexOf(node.id);
    go(parent.children[(i + step + parent.children.length) % parent.children.length]);
  }

  async function tryMove(vertex) {
    if (trying) return;
    setTrying(true);
    setTryError(null);
    try {
      const add = { at: node.id, color: toPlayAfter(nodes, node.id, data.start), vertex };
      const next = await reviewApi.record(data.sgf, add);
      setData({ ...next, edited: true });
      setAt(next.added);
    } catch (exc) {
      setTryError(exc);
    } finally {
      setTrying(false);
    }
  }

  function onBoard(vertex) {
    const [x, y] = vertex;
    if (board[y * data.size + x] !== 0) return; // a stone there: nothing to try
    tryMove(`${"ABCDEFGHJKLMNOPQRSTUVWXYZ"[x]}${data.size - y}`);
  }

  // The arrows step through the moves wherever the focus is on the page (a disabled button at either end drops
  // it to the page), but where they have their own work: the board's points (its cursor), and the fields.
  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target?.closest?.('input, textarea, select, [contenteditable="true"], [data-testid="board"], .count-steps')) return;
    const keys = {
      ArrowLeft: () => go(node.parent),
      ArrowRight: () => go(node.children[0]),
      ArrowUp: () => sibling(-1),
      ArrowDown: () => sibling(1),
      Home: () => go(0),
      End: toEnd,
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  }

  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  useEffect(() => {
    // Without scrolling: the page opens at its top, the header in sight.
    root.current?.focus({ preventScroll: true });
    const listen = (e) => onKeyRef.current(e);
    document.addEventListener("keydown", listen);
    return () => document.removeEventListener("keydown", listen);
  }, []);
  // The slider's line: the one last walked to its tip (going back to the start keeps a variation's moves on
  // it), until the reader leaves it for another line.
  const tip = useRef(0);
  const line = useMemo(() => {
    const kept = nodes[tip.current] ? lineThrough(nodes, tip.current) : [];
    if (kept.includes(at)) return kept;
    tip.current = at;
    return lineThrough(nodes, at);
  }, [nodes, at]);
  const place = line.indexOf(at);

  const boardWidth = Math.min(vw - 24, vw > 900 ? vw - 480 : vw);
  const downloadHref = useMemo(
    () =>
      gameId && !data.edited
        ? api.sgfUrl(gameId)
        : URL.createObjectURL(new Blob([data.sgf], { type: "application/x-go-sgf" })),
    [data, gameId],
  );
  const info = data.info || {};

  return (
    <div class="game review" ref={root} tabIndex={-1} data-testid="review">
      <div class="board-column">
        <Board size={data.size} board={board} lastMove={lastMove} territory={overlay.territory} dead={overlay.dead}
          marks={marks} interactive={!trying} ghost={toPlayAfter(nodes, at, data.start) === "B" ? 1 : 2} onActivate={onBoard}
          onPass={() => tryMove("pass")} help={rt("boardHelp")} maxWidth={boardWidth} maxHeight={vh - 120} />
        {/* On a narrow screen the graphs come right under the board: a tap on them changes a board in view. */}
        {narrow && (!gameId || data.result) && <BotReview {...botProps} part="graphs" />}
      </div>
      <div class="panel">
        <p class="turn" data-testid="review-players">{rt("players", playerName(info.PB), playerName(info.PW))}</p>
        <p>
          {rt("settings", data.size, tn("rulesetNames", data.rules) ?? data.rules, num(data.komi))}
          {data.result && (
            <>
              {" · "}
              {rt("resultLabel")} <span data-testid="review-result">{resultWords(data.result, lang.get()) || data.result}</span>
            </>
          )}
        </p>
        {data.warnings.length > 0 && (
          <p class="notice">
            {rt("warnings")} {data.warnings.join("; ")}
          </p>
        )}
        <div class="review-nav" role="group" aria-label={rt("reviewTitle")}>
          <button type="button" onClick={() => go(0)} disabled={at === 0} data-testid="review-start">{rt("toStart")}</button>
          <button type="button" onClick={() => go(node.parent)} disabled={node.parent === null} data-testid="review-prev">
            {rt("prev")}
          </button>
          <button type="button" onClick={() => go(node.children[0])} disabled={!node.children.length} data-testid="review-next">
            {rt("next")}
          </button>
          <button type="button" onClick={toEnd} disabled={!node.children.length} data-testid="review-end">{rt("toEnd")}</button>
        </div>
        <label class="review-slider">
          <span class="visually-hidden">{rt("slider")}</span>
          <input type="range" min={0} max={line.length - 1} value={place} data-testid="review-slider"
            aria-valuetext={rt("sliderValue", nodes[at].number, nodes[line[line.length - 1]].number)}
            onInput={(e) => go(line[Number(e.currentTarget.value)])} />
        </label>
        <p class="hint">{rt("keysHelp")}</p>
        <p>
          <button type="button" class="link" onClick={() => tryMove("pass")} disabled={trying} data-testid="try-pass">
            {rt("tryPass")}
          </button>
        </p>
        <ErrorNote error={tryError} words={(e) => (e?.reason === "illegal-move" ? rt("sgfFaults").tried : null)} />
        <p data-testid="review-position" aria-live="polite">
          <strong>{rt("position", node.number)}</strong>
          {node.move && ` – ${rt("played", node.color, node.move)}`}
          {" · "}
          {mainSet.has(node.id) ? rt("onMainLine") : rt("inVariation")}
        </p>
        {data.edited && at === data.added && <p class="notice" data-testid="tried">{rt("tried")}</p>}
        <p>{rt("captures", node.prisoners.B ?? 0, node.prisoners.W ?? 0)}</p>
        {!mainSet.has(node.id) && (
          <p>
            <button type="button" data-testid="back-to-main" onClick={() => {
              let n = node;
              while (!mainSet.has(n.id)) n = nodes[n.parent];
              go(n.id);
            }}>{rt("backToMain")}</button>
          </p>
        )}
        {node.children.length > 1 && (
          <div class="variations" role="group" aria-label={rt("variations")}>
            <span>{rt("variationsColon")} </span>
            {node.children.map((id, i) => (
              <button type="button" key={id} data-testid={`variation-${i}`} onClick={() => go(id)}>
                {String.fromCharCode(65 + (i % 26))}. {nodes[id].move ? rt("played", nodes[id].color, nodes[id].move) : "…"}
              </button>
            ))}
          </div>
        )}
        <section class="review-comment" aria-labelledby="comment-title">
          <h3 id="comment-title">{rt("commentTitle")}</h3>
          <p data-testid="comment" class={node.comment ? "comment" : "hint"}>{node.comment || rt("noComment")}</p>
        </section>
        {(!gameId || data.result) && (
          <BotReview {...botProps} part={narrow ? "details" : "all"}
            analysis={<PositionAnalysis position={position} nodeKey={`${data.sgf.length}:${node.id}`} onMarks={setAnalysed} />} />
        )}
        <EstimateToggle data={data} node={node} onOwnership={setOwnership} />
        {at === lastMain && data.end && <EndCount key={data.sgf} end={data.end} />}
        <p>
          <a class="button" href={downloadHref} download={gameId ? `keima-${gameId}.sgf` : "review.sgf"} data-testid="review-download">
            {rt("download")}
          </a>
        </p>
      </div>
    </div>
  );
}

export function Review() {
  useSignal(lang);
  const [data, setData] = useState(null);
  const [gameId, setGameId] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState("");
  const [idText, setIdText] = useState("");

  async function open(loader, id) {
    setBusy(true);
    setError(null);
    try {
      const d = await loader();
      setData(d);
      setGameId(id);
    } catch (exc) {
      setError(exc);
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    const id = new URLSearchParams(location.search).get("game");
    if (id) {
      setIdText(id);
      open(() => reviewApi.game(id), id);
    }
  }, []);

  async function onFile(e) {
    const file = e.currentTarget.files?.[0];
    if (!file) return;
    if (file.size > MAX_RECORD) {
      setError({ code: "invalid-request", field: "sgf", reason: "too-long" });
      return;
    }
    const content = await file.text();
    open(() => reviewApi.record(content), null);
  }

  return (
    <section class="review-page" aria-labelledby="review-title">
      <h2 id="review-title">{rt("reviewTitle")}</h2>
      <details class="review-open" open={!data}>
        <summary>{rt("openTitle")}</summary>
        <p>
          <label>
            {rt("uploadLabel")}{" "}
            <input type="file" accept=".sgf,application/x-go-sgf,text/plain" data-testid="sgf-file" onChange={onFile} />
          </label>
        </p>
        <form onSubmit={(e) => (e.preventDefault(), open(() => reviewApi.record(text), null))}>
          <label>
            {rt("pasteLabel")}
            <textarea rows="3" value={text} data-testid="sgf-text" onInput={(e) => setText(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={!text.trim() || busy} data-testid="open-pasted">{rt("openPasted")}</button>
        </form>
        <form onSubmit={(e) => (e.preventDefault(), open(() => reviewApi.game(idText.trim()), idText.trim()))}>
          <label>
            {rt("gameLabel")}{" "}
            <input value={idText} data-testid="game-id" onInput={(e) => setIdText(e.currentTarget.value)} />
          </label>{" "}
          <button type="submit" disabled={!idText.trim() || busy}>{rt("openGame")}</button>
        </form>
      </details>
      {busy && <p>{rt("loading")}</p>}
      <ErrorNote error={error} words={sgfFaultWords} />
      {data && <ReviewTree key={`${gameId}:${data.sgf}`} data={data} gameId={gameId} />}
    </section>
  );
}
