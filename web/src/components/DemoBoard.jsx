// The demo board page (/d/<id>, docs/teaching.md): the shared board live from its socket. Those in control
// play, set stones up, mark, comment, move through the tree and ask questions; the others follow the presenter
// or browse alone and come back with one click, answer questions on their own copy, and chat. Any node is
// counted step by step with the count of the /position tool (CountSteps). Every change is the server's: this
// page sends ops and draws the deltas it receives.
import "../demo.css";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { countApi } from "../countApi.js";
import { boardsApi, draftBody, heatOf, marksOf, positionAt, applyOp, pointOf } from "../demoBoard.js";
import { vertexToGtp } from "../coords.js";
import { useSignal, useViewport } from "../hooks.js";
import { lang, t } from "../i18n.js";
import { LiveSocket } from "../socket.js";
import { Board } from "./Board.jsx";
import { CountSteps } from "./CountSteps.jsx";
import { ErrorNote } from "./ErrorNote.jsx";
import { ScoreTable } from "./ScoreTable.jsx";
import { RelayResult } from "./TournamentRelays.jsx";
import { CopyBoard } from "./DemoBoards.jsx";

const TOOLS = ["play", "black", "white", "erase", "triangle", "square", "circle", "cross", "letter", "number"];
const MARKS = new Set(["triangle", "square", "circle", "cross", "letter", "number"]);

/** The id of the last node down the first children from `id`. */
function lineEnd(nodes, id) {
  let at = id;
  while (nodes[at]?.children?.length) at = nodes[at].children[0];
  return at;
}

export function DemoBoard({ id }) {
  useSignal(lang);
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  const [gone, setGone] = useState(false);
  const [follow, setFollow] = useState(true);
  const [local, setLocal] = useState(0);
  const [tool, setTool] = useState("play");
  const [answers, setAnswers] = useState(null); // {counts, names} for those in control
  const [people, setPeople] = useState([]);
  const [count, setCount] = useState(null);
  const [note, setNote] = useState(null); // the comment being written, or null
  const [say, setSay] = useState("");
  const [draft, setDraftLine] = useState(null); // a watcher's own line: {parent, moves, colors, toMove, last}
  const [proposed, setProposed] = useState(false);
  const sock = useRef(null);
  const latest = useRef(null); // the board as last drawn, for ops sent between two renders
  const [vw, vh] = useViewport();

  useEffect(() => {
    const s = new LiveSocket(`api/boards/${encodeURIComponent(id)}/ws`, {
      onMessage: (msg) => {
        if (msg.type === "state") setBoard(msg.board);
        else if (msg.type === "delta") {
          setBoard((b) => {
            if (!b || msg.from !== b.version) {
              s.sendRaw({ type: "resync" });
              return b;
            }
            return { ...applyOp(b, msg.op), version: msg.to };
          });
          if (msg.op.type === "question") setAnswers(null);
        } else if (msg.type === "answers") setAnswers(msg);
        else if (msg.type === "people") setPeople(msg.people);
        else if (msg.type === "proposal") {
          setBoard((b) => b && { ...b, proposals: [...(b.proposals || []).filter((p) => p.by !== msg.by), msg] });
        }
        else if (msg.type === "gone") setGone(true);
      },
      onStatus: (st) => (st === "gone" || st === "forbidden") && setGone(st),
    });
    sock.current = s;
    return () => s.close();
  }, [id]);

  latest.current = board;
  const tree = board?.tree;
  const control = !!board?.you?.control;
  const alone = board && !control && !follow && tree.nodes[local] && !tree.nodes[local].deleted;
  const shown = board ? (alone ? local : board.cursor) : 0;
  const pos = useMemo(() => (tree ? positionAt(tree, shown) : null), [tree, shown]);
  const marks = useMemo(() => {
    if (!tree) return null;
    const m = marksOf(tree, shown);
    const mine = board.question && !control ? pointOf(board.you?.answer, tree.size) : null;
    if (mine != null) m.set(mine, { type: "label", label: "✓", spoken: t("dbYourAnswer", board.you.answer) });
    return m;
  }, [tree, shown, board?.question, board?.you?.answer, control]);
  useEffect(() => setCount(null), [shown]);
  useEffect(() => {
    setDraftLine(null);
    setProposed(false);
  }, [shown, follow]);
  useEffect(() => setNote(null), [shown, control]);

  if (gone) {
    return (
      <p class="error" role="alert" data-testid="db-gone">
        {t(gone === "forbidden" ? "dbClubOnly" : "dbGone")}
      </p>
    );
  }
  if (!board) return <p>{t("dbLoading")}</p>;
  const node = tree.nodes[shown];
  const size = tree.size;
  const asking = board.question != null;
  const heat = control && asking ? heatOf(answers?.counts, size) : board.revealed ? heatOf(board.revealed, size) : null;

  // An op is written against the version this page has; one written while the page's last op was still on
  // its way (a quick second click) meets a newer version: it goes again once the page has caught up.
  async function send(op) {
    setError(null);
    for (let attempt = 0; ; attempt++) {
      const version = latest.current.version;
      try {
        await sock.current.request({ type: "op", version, op }, () => boardsApi.op(id, version, op));
        return;
      } catch (exc) {
        if (exc.code !== "stale-version" || attempt >= 4) {
          setError(exc);
          return;
        }
        await new Promise((done) => setTimeout(done, 150));
      }
    }
  }

  function go(target) {
    if (target == null) return;
    if (control) send({ type: "select", node: target });
    else {
      setFollow(false);
      setLocal(target);
    }
  }

  async function onActivate(vertex) {
    const where = vertexToGtp(vertex, size);
    if (!control && !follow && !asking) {
      // Browsing alone: the watcher's own line, each move judged by the referee (never by this page).
      const moves = draft?.moves || [];
      const color = draft ? draft.toMove : pos.toMove;
      setError(null);
      try {
        const r = await boardsApi.tryMove(draftBody(tree, pos, moves, { color, vertex: where }));
        if (!r.legal) {
          setError({ code: "illegal-move", reason: r.reason, message: r.message });
          return;
        }
        setDraftLine({ parent: shown, moves: [...moves, { color, vertex: where }], colors: r.board,
          toMove: r.to_move, last: vertex });
        setProposed(false);
      } catch (exc) {
        setError(exc);
      }
      return;
    }
    if (!control) {
      if (!asking) return;
      setError(null);
      try {
        await sock.current.request({ type: "answer", point: where }, () => boardsApi.answer(id, where));
        setBoard((b) => ({ ...b, you: { ...b.you, answer: where } }));
      } catch (exc) {
        setError(exc);
      }
      return;
    }
    if (tool === "play") send({ type: "node", parent: shown, move: { color: pos.toMove, vertex: where } });
    else if (MARKS.has(tool)) {
      const had = (node.marks || []).find((m) => m.point === where);
      send({ type: "mark", node: shown, point: where, kind: had?.kind === tool ? "none" : tool });
    } else {
      const key = tool === "erase" ? "empty" : tool;
      send({ type: "node", parent: shown, setup: { [key]: [where] } });
    }
  }

  async function countNode() {
    setError(null);
    try {
      const data = await countApi.position({ size, rules: tree.rules, komi: tree.komi, handicap: 0, board: pos.colors,
        prisoners: pos.prisoners, pass_stones: { B: 0, W: 0 }, last_mover: null, dead: [], estimate_dead: true });
      setCount({ score: data.score, board: pos.colors.slice(), node: shown });
    } catch (exc) {
      setError(exc);
    }
  }

  async function chat(evt) {
    evt.preventDefault();
    const text = say.trim();
    if (!text) return;
    try {
      await sock.current.request({ type: "chat", text }, () => boardsApi.chat(id, text));
      setSay("");
    } catch (exc) {
      setError(exc);
    }
  }

  const children = node.children || [];
  const narrow = vw < 700;
  return (
    <section class="demo" data-testid="demo-board" aria-labelledby="db-title">
      <header class="demo-head">
        <h1 id="db-title" data-testid="db-title">{board.title}</h1>
        <p class="demo-who">
          {t("dbOwner", board.owner.name)}
          {board.controllers.length > 0 && ` · ${t("dbInControl", board.controllers.map((c) => c.name).join(", "))}`}
          {` · ${control ? t("dbYouControl") : t("dbYouWatch")}`}
        </p>
      </header>
      <div class="demo-main">
        <div class="demo-board">
          <Board size={size} board={draft ? draft.colors : pos.colors} lastMove={draft ? draft.last : pos.last}
            marks={draft ? null : marks} heat={heat} interactive={control || asking || !follow} ghost={control && tool === "play" ? (pos.toMove === "B" ? 1 : 2) : 0}
            onActivate={onActivate} maxWidth={narrow ? vw - 24 : Math.min(640, vw * 0.55)}
            maxHeight={narrow ? vw : vh - 140} help={t("dbBoardHelp")} />
          <p class="demo-status" data-testid="db-status">
            {t("dbMoveNumber", pos.number)} · {t("dbToMove", pos.toMove === "B" ? t("black") : t("white"))}
            {` · ${t("dbPrisoners", pos.prisoners.B, pos.prisoners.W)}`}
          </p>
        </div>
        <div class="demo-side">
          <nav class="demo-nav" aria-label={t("dbNavigation")}>
            <button type="button" onClick={() => go(0)} disabled={shown === 0} data-testid="db-first">{t("dbFirst")}</button>
            <button type="button" onClick={() => go(node.parent)} disabled={node.parent == null} data-testid="db-prev">{t("dbPrev")}</button>
            <button type="button" onClick={() => go(children[0])} disabled={!children.length} data-testid="db-next">{t("dbNext")}</button>
            <button type="button" onClick={() => go(lineEnd(tree.nodes, shown))} disabled={!children.length} data-testid="db-last">{t("dbLast")}</button>
            {control && shown !== 0 && (
              <button type="button" onClick={() => send({ type: "delete", node: shown })} data-testid="db-delete">{t("dbDelete")}</button>
            )}
          </nav>
          {children.length > 1 && (
            <p class="demo-vars" data-testid="db-variations">
              {t("dbVariations")}{" "}
              {children.map((c, i) => (
                <button type="button" class="link" key={c} onClick={() => go(c)} data-node={c}>
                  {tree.nodes[c].move ? `${String.fromCharCode(65 + i)}: ${tree.nodes[c].move.vertex}` : `${String.fromCharCode(65 + i)}: ${t("dbSetup")}`}
                </button>
              ))}
            </p>
          )}
          {!control && !follow && (
            <button type="button" class="demo-back" onClick={() => setFollow(true)} data-testid="db-back">{t("dbBack")}</button>
          )}
          {!control && !follow && !asking && (
            <div class="demo-draft" data-testid="db-draft">
              {draft ? (
                <>
                  <p>{t("dbDraft", draft.moves.map((m) => m.vertex).join(" "))}</p>
                  <button type="button" disabled={proposed} data-testid="db-propose" onClick={async () => {
                    try {
                      await sock.current.request({ type: "propose", parent: draft.parent, moves: draft.moves },
                        () => boardsApi.propose(id, draft.parent, draft.moves));
                      setProposed(true);
                    } catch (exc) {
                      setError(exc);
                    }
                  }}>{t("dbPropose")}</button>{" "}
                  <button type="button" onClick={() => setDraftLine(null)}>{t("dbClear")}</button>
                  {proposed && <span role="status"> {t("dbProposed")}</span>}
                </>
              ) : (
                <p class="empty">{t("dbDraftHint")}</p>
              )}
            </div>
          )}
          {control && (board.proposals || []).length > 0 && (
            <div class="demo-proposals" data-testid="db-proposals">
              <h2>{t("dbProposals")}</h2>
              <ul>
                {board.proposals.map((p) => (
                  <li key={p.id}>
                    {t("dbProposalLine", p.name, p.moves.map((m) => m.vertex).join(" "))}{" "}
                    <button type="button" onClick={() => send({ type: "variation", proposal: p.id })} data-proposal={p.id}>{t("dbAddLine")}</button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {control && (
            <fieldset class="demo-tools" data-testid="db-tools">
              <legend>{t("dbTools")}</legend>
              {TOOLS.map((k) => (
                <label key={k} class={tool === k ? "on" : ""}>
                  <input type="radio" name="db-tool" value={k} checked={tool === k} onChange={() => setTool(k)} />
                  {t(`dbTool_${k}`)}
                </label>
              ))}
            </fieldset>
          )}
          {asking && !control && <p class="demo-question" role="status" data-testid="db-question">{board.you?.answer ? t("dbAnswered", board.you.answer) : t("dbQuestion")}</p>}
          {control && (
            <div class="demo-ask">
              {!asking ? (
                <button type="button" onClick={() => send({ type: "question", node: shown })} data-testid="db-ask">{t("dbAsk")}</button>
              ) : (
                <>
                  <p role="status" data-testid="db-answers">{t("dbAnswersIn", Object.values(answers?.counts || {}).reduce((a, b) => a + b, 0))}</p>
                  <ul class="demo-names">
                    {Object.entries(answers?.names || {}).map(([v, names]) => <li key={v}>{v}: {names.join(", ")}</li>)}
                  </ul>
                  <button type="button" onClick={() => send({ type: "answers" })} data-testid="db-reveal">{t("dbReveal")}</button>
                </>
              )}
            </div>
          )}
          <div class="demo-comment">
            <h2>{t("dbComment")}</h2>
            {control && note != null ? (
              <form onSubmit={(e) => { e.preventDefault(); send({ type: "comment", node: shown, text: note }).then(() => setNote(null)); }}>
                <textarea rows="3" value={note} onInput={(e) => setNote(e.currentTarget.value)} aria-label={t("dbComment")} data-testid="db-comment-text" />
                <button type="submit" data-testid="db-comment-save">{t("dbSave")}</button>
              </form>
            ) : (
              <>
                <p class="demo-text" data-testid="db-comment">{node.comment || t("dbNoComment")}</p>
                {control && <button type="button" class="link" onClick={() => setNote(node.comment || "")} data-testid="db-comment-edit">{t("dbEdit")}</button>}
              </>
            )}
          </div>
          {board.you?.owner && (
            <div class="demo-control" data-testid="db-control">
              <h2>{t("dbControl")}</h2>
              {people.filter((p) => p.id !== board.you.id).map((p) => (
                <button type="button" key={p.id} onClick={() => send({ type: "control", to: p.id })} data-person={p.name}>{t("dbGive", p.name)}</button>
              ))}
              {board.controllers.length > 0 && (
                <button type="button" onClick={() => send({ type: "control", to: null })} data-testid="db-take">{t("dbTake")}</button>
              )}
              {!people.some((p) => p.id !== board.you.id) && <p class="empty">{t("dbNobody")}</p>}
            </div>
          )}
          {board.relay && control && <RelayResult relay={board.relay} />}
          <p class="demo-links">
            <button type="button" onClick={countNode} data-testid="db-count">{t("dbCount")}</button>{" "}
            <a class="button" href={`${ROOT}${boardsApi.sgfPath(id)}`} download={`board-${id}.sgf`} data-testid="db-sgf">{t("dbSaveSgf")}</a>{" "}
            <CopyBoard id={id} title={board.title} />
          </p>
          <ErrorNote error={error} words={(e) => (e.code === "stale-version" ? t("dbStale") : null)} />
          <div class="demo-chat">
            <h2>{t("dbChat")}</h2>
            <ol class="demo-messages" data-testid="db-chat">
              {(board.chat || []).map((m, i) => <li key={i}><strong>{m.name}</strong>{t("colon")} {m.text}</li>)}
            </ol>
            <form onSubmit={chat}>
              <input value={say} maxLength={500} onInput={(e) => setSay(e.currentTarget.value)} aria-label={t("dbChatSay")} data-testid="db-chat-text" />
              <button type="submit">{t("dbSend")}</button>
            </form>
          </div>
        </div>
      </div>
      {count && count.node === shown && (
        <div class="demo-count" data-testid="db-count-result">
          <ScoreTable score={count.score} final={true} />
          <CountSteps key={shown} size={size} board={count.board} score={count.score} method="quick-count" />
        </div>
      )}
    </section>
  );
}
