// The referee's position tool (/position): set up any position (click to place
// black, white, erase, or mark dead chains; or read it from an SGF record),
// give the captures and pass stones, ask keima for the dead stones, and count:
// every method side by side (ScoreTable) and step by step (CountSteps).
import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError, api } from "../api.js";
import { vertexToGtp } from "../coords.js";
import { useSignal, useViewport } from "../hooks.js";
import { ct, lang, t, tn } from "../i18n.js";
import { countApi } from "../countApi.js";
import { Board } from "./Board.jsx";
import { CountSteps } from "./CountSteps.jsx";
import { ErrorNote } from "./ErrorNote.jsx";
import { ScoreTable } from "./ScoreTable.jsx";

const SIZES = [9, 13, 19];
const TOOLS = [
  ["black", "toolBlack"],
  ["white", "toolWhite"],
  ["erase", "toolErase"],
  ["dead", "toolDead"],
];

/** The points of the chain through p (same colour, connected), for marking a whole chain dead. */
function chainOf(board, size, p) {
  const color = board[p];
  const seen = new Set([p]);
  const stack = [p];
  while (stack.length) {
    const q = stack.pop();
    const x = q % size;
    const y = Math.floor(q / size);
    const nbrs = [];
    if (x > 0) nbrs.push(q - 1);
    if (x < size - 1) nbrs.push(q + 1);
    if (y > 0) nbrs.push(q - size);
    if (y < size - 1) nbrs.push(q + size);
    for (const r of nbrs) {
      if (!seen.has(r) && board[r] === color) {
        seen.add(r);
        stack.push(r);
      }
    }
  }
  return seen;
}

function toNumber(text, fallback) {
  const n = Number(text);
  return text === "" || Number.isNaN(n) ? fallback : n;
}

export function PositionTool() {
  useSignal(lang);
  const [info, setInfo] = useState(null);
  const [size, setSize] = useState(9);
  const [board, setBoard] = useState(() => new Array(81).fill(0));
  const [dead, setDead] = useState(() => new Set());
  const [tool, setTool] = useState("black");
  const [rules, setRules] = useState("french");
  const [komi, setKomi] = useState("");
  const [handicap, setHandicap] = useState("0");
  const [prisoners, setPrisoners] = useState({ B: "0", W: "0" });
  const [passStones, setPassStones] = useState({ B: "0", W: "0" });
  const [lastMover, setLastMover] = useState("");
  const [sgf, setSgf] = useState("");
  const [sgfMove, setSgfMove] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState(null);
  const [result, setResult] = useState(null); // {score, board, size} of the last count
  const [busy, setBusy] = useState(false);
  const [vw] = useViewport(); // a phone's board fits its screen

  useEffect(() => {
    api.info().then(setInfo).catch(() => setInfo(null));
  }, []);

  function resize(n) {
    setSize(n);
    setBoard(new Array(n * n).fill(0));
    setDead(new Set());
    setResult(null);
  }

  function onActivate([x, y]) {
    const p = y * size + x;
    if (tool === "dead") {
      if (!board[p]) return;
      const chain = chainOf(board, size, p);
      const next = new Set(dead);
      const marking = !dead.has(p);
      for (const q of chain) (marking ? next.add(q) : next.delete(q));
      setDead(next);
      return;
    }
    const value = tool === "black" ? 1 : tool === "white" ? 2 : 0;
    const next = board.slice();
    next[p] = board[p] === value && value !== 0 ? 0 : value;
    setBoard(next);
    if (next[p] !== board[p] && dead.size) {
      const d = new Set(dead);
      d.delete(p);
      setDead(d);
    }
  }

  function body(estimate) {
    const out = {
      size,
      rules,
      handicap: toNumber(handicap, 0),
      board,
      dead: estimate ? [] : [...dead].filter((p) => board[p]).map((p) => vertexToGtp([p % size, Math.floor(p / size)], size)),
      prisoners: { B: toNumber(prisoners.B, 0), W: toNumber(prisoners.W, 0) },
      pass_stones: { B: toNumber(passStones.B, 0), W: toNumber(passStones.W, 0) },
      last_mover: lastMover || null,
      estimate_dead: estimate,
    };
    if (komi !== "") out.komi = toNumber(komi, 0);
    return out;
  }

  async function count(estimate) {
    setBusy(true);
    setError(null);
    setNote("");
    try {
      const data = await countApi.position(body(estimate));
      if (estimate) setDead(new Set(data.score.dead));
      setResult({ score: data.score, board: board.slice(), size, serial: (result?.serial || 0) + 1 });
      setNote(ct("counted"));
    } catch (exc) {
      setError(exc);
      setResult(null);
    } finally {
      setBusy(false);
    }
  }

  // A referee called to a tournament's table opens its game here (/position?game=<id>): the game's record is
  // read and its current position set up, as if pasted.
  useEffect(() => {
    const game = new URLSearchParams(location.search).get("game");
    if (!game) return;
    fetch(api.sgfUrl(game), { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : Promise.reject(new ApiError(r.status, null))))
      .then((text) => {
        setSgf(text);
        return countApi.sgf(text, null);
      })
      .then(showPosition)
      .catch(setError);
  }, []);

  async function loadSgf(evt) {
    evt.preventDefault();
    setError(null);
    setNote("");
    try {
      showPosition(await countApi.sgf(sgf, sgfMove === "" ? null : toNumber(sgfMove, null)));
    } catch (exc) {
      setError(exc);
    }
  }

  function showPosition(pos) {
    setSize(pos.size);
    setBoard(pos.board);
    setRules(pos.rules);
    setKomi(String(pos.komi));
    setHandicap(String(pos.handicap));
    setPrisoners({ B: String(pos.prisoners.B), W: String(pos.prisoners.W) });
    setPassStones({ B: String(pos.pass_stones.B), W: String(pos.pass_stones.W) });
    setLastMover(pos.last_mover || "");
    setDead(new Set());
    setResult(null);
    setNote(ct("sgfLoaded", pos.move, pos.moves));
  }

  // After a count, the board shows each side's territory, as long as it shows the position counted (an edit
  // makes the count stale, and its shading goes).
  const shownTerritory = useMemo(() => {
    if (!result || result.size !== size || result.board.some((v, i) => v !== board[i])) return null;
    const terr = result.score.territory || {};
    return { B: new Set(terr.B || []), W: new Set(terr.W || []) };
  }, [result, board, size]);
  const rulesets = Object.keys(info?.rulesets || { french: {} });
  const colorName = { B: t("black"), W: t("white") };

  return (
    <section class="position-tool" aria-labelledby="position-title" data-testid="position-tool">
      <h2 id="position-title">{ct("positionTitle")}</h2>
      <p>{ct("positionIntro")}</p>
      <div class="position-layout">
        <div>
          <fieldset class="tools">
            <legend>{ct("tool")}</legend>
            {TOOLS.map(([value, key]) => (
              <label key={value}>
                <input type="radio" name="tool" value={value} checked={tool === value}
                  onChange={() => setTool(value)} />
                {ct(key)}
              </label>
            ))}
          </fieldset>
          <Board
            size={size}
            board={board}
            dead={dead}
            territory={shownTerritory}
            interactive={true}
            ghost={tool === "black" ? 1 : tool === "white" ? 2 : 0}
            onActivate={onActivate}
            maxWidth={Math.min(520, vw - 24)}
            maxHeight={520}
          />
        </div>
        <form class="position-settings" onSubmit={(e) => (e.preventDefault(), count(false))}>
          <fieldset>
            <legend>{t("boardSize")}</legend>
            {SIZES.map((n) => (
              <label key={n}>
                <input type="radio" name="psize" value={n} checked={size === n} onChange={() => resize(n)} />
                {n}×{n}
              </label>
            ))}
          </fieldset>
          <label>
            {t("ruleset")}
            <select name="rules" value={rules} onChange={(e) => setRules(e.currentTarget.value)}>
              {rulesets.map((name) => (
                <option key={name} value={name}>
                  {tn("rulesetNames", name) ?? name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("komi")}
            <input name="komi" type="number" step="0.5" value={komi} placeholder={t("komiDefault")}
              onInput={(e) => setKomi(e.currentTarget.value)} />
          </label>
          <label>
            {t("handicap")}
            <input name="handicap" type="number" min="0" max="9" value={handicap}
              onInput={(e) => setHandicap(e.currentTarget.value)} />
          </label>
          {["B", "W"].map((c) => (
            <label key={`cap-${c}`}>
              {ct("capturesOf", colorName[c])}
              <input name={`prisoners-${c}`} type="number" min="0" value={prisoners[c]}
                onInput={(e) => setPrisoners({ ...prisoners, [c]: e.currentTarget.value })} />
            </label>
          ))}
          {["B", "W"].map((c) => (
            <label key={`pass-${c}`}>
              {ct("passStonesOf", colorName[c])}
              <input name={`pass-${c}`} type="number" min="0" value={passStones[c]}
                onInput={(e) => setPassStones({ ...passStones, [c]: e.currentTarget.value })} />
            </label>
          ))}
          <label>
            {ct("lastMover")}
            <select name="last_mover" value={lastMover} onChange={(e) => setLastMover(e.currentTarget.value)}>
              <option value="">{ct("lastNobody")}</option>
              <option value="B">{t("black")}</option>
              <option value="W">{t("white")}</option>
            </select>
          </label>
          <div class="position-actions">
            <button type="button" onClick={() => count(true)} disabled={busy} data-testid="estimate">
              {ct("estimateDead")}
            </button>
            <button type="submit" disabled={busy} data-testid="count">
              {ct("count")}
            </button>
            <button type="button" onClick={() => resize(size)}>
              {ct("clearBoard")}
            </button>
          </div>
          {note && <p role="status" data-testid="position-note">{note}</p>}
          {error && <ErrorNote error={error} />}
        </form>
      </div>
      <form class="sgf-load" onSubmit={loadSgf}>
        <fieldset>
          <legend>{ct("sgfTitle")}</legend>
          <label>
            {ct("sgfText")}
            <textarea name="sgf" rows="3" value={sgf} onInput={(e) => setSgf(e.currentTarget.value)} />
          </label>
          <label>
            {ct("sgfMove")}
            <input name="sgf-move" type="number" min="0" value={sgfMove}
              onInput={(e) => setSgfMove(e.currentTarget.value)} />
          </label>
          <button type="submit">{ct("sgfLoad")}</button>
        </fieldset>
      </form>
      {result && (
        <div class="position-result">
          <ScoreTable score={result.score} final={true} />
          <CountSteps key={result.serial} size={result.size} board={result.board} score={result.score} method="quick-count" />
        </div>
      )}
    </section>
  );
}
