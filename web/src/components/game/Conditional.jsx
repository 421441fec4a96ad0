// Conditional moves (docs/correspondence.md), built on the board as OGS builds them: while the opponent is
// to move in a correspondence game, the player turns on planning, clicks the move they expect from the
// opponent, then their answer, then the next expected move...; going back (the Back button, or a node of the
// tree) and clicking another move of the opponent makes a branch. The tree is shown as a nested list (the
// selected node highlighted, each branch with its delete button) and saved through the same API as the typed
// lines, which stay as an alternative. A refusal is shown next to the line it is about, in the reader's words
// (the referee's reason: occupied, suicide, ko, off the board, two answers to one move).
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../../api.js";
import { addMove, chainsOf, copyTree, linesOf, nodeAt, placeOf, removeAt, unanswered } from "../../conditional.js";
import { gtpToVertex, vertexToGtp } from "../../coords.js";
import { errorWords, t, tn } from "../../i18n.js";
import { positionAfter } from "../../review.js";
import { perMoveSeconds } from "../NewGame.jsx";

const same = (a, b) => a.length === b.length && a.every((m, i) => String(m).toUpperCase() === String(b[i]).toUpperCase());

/** Whether the player of this page may leave conditional moves in `game` now (the opponent is to move). */
export function plannable(game, live = true) {
  const you = game?.you || [];
  return (
    !!game && live && game.phase === "play" && you.length === 1 && !you.includes(game.to_move) && !!game.clock &&
    perMoveSeconds(game.clock.spec) >= 3600
  );
}

/** The words of a refusal of the server (`exc`) about the move `vertex` whose line is `path`: the referee's reason. */
function refusalWords(exc, vertex, path) {
  if (exc.reason === "two-answers") return t("condTwoAnswers", path[path.length - 2] || vertex);
  return (exc.reason && tn("reasons", exc.reason, vertex, exc.message)) || exc.message;
}

/** The node of the tree a note about the line `path` is shown beside: the one of the opponent's move in it. */
const anchorOf = (path) => (path.length % 2 ? path : path.slice(0, -1));

/**
 * The planner's state, kept by the game page (the board shows the planned position while planning):
 * {on, toggle, stored, draft, path, note, board(game), click(vertex), ...}.
 */
export function usePlanner(game, live) {
  const available = plannable(game, live);
  const [on, setOn] = useState(false);
  const [stored, setStored] = useState(null);
  const [draft, setDraft] = useState([]);
  const [path, setPath] = useState([]);
  const [note, setNote] = useState(null);
  // A draft the player changed and has not saved: a stored tree read after each change of the game never
  // replaces it (a read that came back after the first clicks emptied the tree).
  const dirty = useRef(false);
  // Reads and saves answer in any order: only the answer to the one asked last is kept (a save's answer that came
  // after the read following the opponent's move put back the branches the answer had dropped).
  const asked = useRef(0);
  const id = game?.id;
  useEffect(() => {
    if (!available) {
      setOn(false);
      return;
    }
    const mine = ++asked.current;
    api
      .conditional(id)
      .then((data) => {
        if (mine !== asked.current) return;
        setStored(data);
        if (!dirty.current) {
          setDraft(copyTree(data.tree));
          setPath([]);
        }
      })
      .catch(() => setStored(null));
  }, [id, game?.version, available]);

  function edit(tree, nextPath) {
    dirty.current = true;
    setDraft(tree);
    setPath(nextPath);
    setNote(null);
  }

  /** The position at the selected node: the board, the planned moves numbered, the colour of the next click. */
  function board() {
    const size = game.size;
    const mine = game.to_move === "B" ? "W" : "B";
    const planned = path.map((v, i) => {
      const [x, y] = gtpToVertex(v, size) || [-1, -1];
      return { point: x < 0 ? null : y * size + x, color: i % 2 ? mine : game.to_move };
    });
    const moves = [...(game.moves || []), ...planned];
    const marks = new Map();
    planned.forEach((m, i) => {
      if (m.point !== null) marks.set(m.point, { type: "label", label: String(i + 1), spoken: t("condSpoken", i + 1) });
    });
    const next = path.length % 2 ? mine : game.to_move;
    return { board: positionAfter(size, game.handicap_stones, moves, moves.length), marks, ghost: next === "B" ? 1 : 2 };
  }

  function click(vertex, current) {
    const name = vertexToGtp(vertex, game.size);
    if (current[vertex[1] * game.size + vertex[0]]) {
      setNote({ path: [...path, name], say: () => tn("reasons", "occupied", name) });
      return;
    }
    const r = addMove(draft, path, name);
    if (r.error) {
      const theirs = path[path.length - 1];
      setNote({ path, say: () => t("condHasAnswer", theirs, r.answer) });
      return;
    }
    edit(r.tree, r.path);
  }

  async function save(tree = draft, typed = false) {
    setNote(null);
    const missing = unanswered(tree);
    if (missing) {
      setNote({ path: missing, say: () => t("condUnanswered") });
      return false;
    }
    const mine = ++asked.current;
    try {
      const data = await api.setConditional(id, { version: game.version, tree });
      if (mine !== asked.current) return true; // the game moved on meanwhile: the read asked since says it all
      setStored(data);
      dirty.current = false;
      setDraft(copyTree(data.tree));
      setPath((p) => (nodeAt(data.tree, p) ? p : []));
      setNote({ saved: true });
      return true;
    } catch (exc) {
      const place = exc.code === "invalid-request" ? placeOf(tree, exc.field) : null;
      if (place) {
        const say = () => refusalWords(exc, place.vertex, place.path);
        setNote(typed ? { line: place.index + 1, say } : { path: place.path, say });
      } else setNote({ say: () => errorWords(exc) });
      return false;
    }
  }

  async function drop() {
    setNote(null);
    await api.dropConditional(id).catch(() => {});
    setStored({ version: game.version, tree: [] });
    dirty.current = false;
    setDraft([]);
    setPath([]);
  }

  return {
    available, on: on && available, stored, draft, path, note, board, click, save, drop,
    toggle: () => setOn((o) => !o),
    select: (p) => setPath(p),
    back: () => setPath((p) => p.slice(0, -1)),
    remove: (p) => {
      // The selection inside the deleted branch goes up to where the branch began.
      edit(removeAt(draft, p), same(path.slice(0, p.length), p) ? p.slice(0, -1) : path);
    },
    typed: (tree) => save(tree, true),
    clear: () => setNote(null),
  };
}

function Branches({ nodes, prefix, planner }) {
  const { path, note } = planner;
  return (
    <ul>
      {nodes.map((n) => {
        const here = n.play ? [...prefix, n.if, n.play] : [...prefix, n.if];
        const selected = same(here, path) || same([...prefix, n.if], path);
        const refused = note?.path && same(anchorOf(note.path), [...prefix, n.if]);
        return (
          <li key={n.if} data-testid="cond-node" data-line={here.join(" ")}>
            <span class="cond-row">
              <button type="button" class={`cond-node${selected ? " selected" : ""}`} aria-current={selected ? "true" : undefined}
                onClick={() => planner.select(here)}>
                {t("conditionalIf", n.if, n.play || "?")}
              </button>
              <button type="button" class="link cond-delete" aria-label={t("condDelete", here.join(" "))}
                title={t("condDelete", here.join(" "))} onClick={() => planner.remove([...prefix, n.if])}
                data-testid="cond-delete">
                ×
              </button>
            </span>
            {refused && (
              <p class="error" role="alert" data-testid="cond-refusal">
                {t("condLine", note.path.join(" "), note.say())}
              </p>
            )}
            {n.then?.length ? <Branches nodes={n.then} prefix={here} planner={planner} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

export function ConditionalMoves({ planner }) {
  const [text, setText] = useState(null);
  const [odd, setOdd] = useState(null);
  const { draft, path, note, stored, on } = planner;
  const shown = text ?? linesOf(stored?.tree || []).join("\n");
  // A note about a line of the tree is shown beside it; one about a move not in the tree (a click on a stone)
  // below the tree, with its line.
  const beside = note?.path && nodeAt(draft, anchorOf(note.path));

  async function saveTyped(e) {
    e.preventDefault();
    setOdd(null);
    let chains;
    try {
      chains = chainsOf(shown);
    } catch (exc) {
      planner.clear();
      setOdd(t("conditionalOdd", exc.message));
      return;
    }
    if (await planner.typed(chains.tree)) setText(null);
  }

  return (
    <section class="conditional" data-testid="conditional" aria-labelledby="cond-title">
      <h3 id="cond-title">{t("conditionalTitle")}</h3>
      <small>{t("condHelp")}</small>
      <div class="row cond-actions">
        <button type="button" onClick={planner.toggle} aria-pressed={on ? "true" : "false"} data-testid="cond-plan">
          {on ? t("condPlanDone") : t("condPlan")}
        </button>
        {on && (
          <button type="button" onClick={planner.back} disabled={!path.length} data-testid="cond-back">
            {t("condBack")}
          </button>
        )}
      </div>
      <div class="conditional-tree" data-testid="conditional-tree">
        <button type="button" class={`cond-node cond-root${path.length ? "" : " selected"}`}
          aria-current={path.length ? undefined : "true"} onClick={() => planner.select([])} data-testid="cond-root">
          {t("condStart")}
        </button>
        {draft.length ? <Branches nodes={draft} prefix={[]} planner={planner} /> : <p class="muted">{t("condEmpty")}</p>}
      </div>
      {note && !note.saved && !note.line && !beside && (
        <p class="error" role="alert" data-testid="cond-refusal">
          {note.path ? t("condLine", note.path.join(" "), note.say()) : note.say()}
        </p>
      )}
      <div class="row">
        <button type="button" onClick={() => planner.save()} data-testid="conditional-save">
          {t("save")}
        </button>
        {stored?.tree?.length ? (
          <button type="button" class="link" onClick={planner.drop} data-testid="cond-drop">
            {t("conditionalDrop")}
          </button>
        ) : null}
        {note?.saved && (
          <span class="muted" role="status" data-testid="cond-saved">
            {t("condSaved")}
          </span>
        )}
      </div>
      <details class="cond-typed">
        <summary>{t("condTyped")}</summary>
        <form onSubmit={saveTyped}>
          <label>
            <span>{t("conditionalHelp")}</span>
            <textarea name="conditional" rows={3} value={shown} placeholder="C3 G7 E5 F6"
              onInput={(e) => setText(e.currentTarget.value)} data-testid="conditional-text" />
          </label>
          <button type="submit" data-testid="conditional-save-text">
            {t("save")}
          </button>
          {(odd || note?.line) && (
            <p class="error" role="alert" data-testid="conditional-error">
              {odd || t("condTextLine", note.line, note.say())}
            </p>
          )}
        </form>
      </details>
    </section>
  );
}
