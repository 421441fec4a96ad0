// One game: the board and, beside it, the panel of its parts (game/: status, players, actions,
// marking and result, chat, move list). The game comes from the server's messages through the
// reducer (game/reducer.js, via useGame); nothing is decided here. This view keeps what the
// parts share: the position shown (live or an earlier move), the tap selection, the answer to
// the reader's last action and the sentence read to screen readers.
import { useEffect, useMemo, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { useBotReview } from "../botReview.js";
import { anyToVertex, vertexToGtp } from "../coords.js";
import { errorWords, t } from "../i18n.js";
import { useViewport } from "../hooks.js";
import { positionAfter } from "../review.js";
import { toggledMarking } from "../game/chains.js";
import { useGame } from "../game/useGame.js";
import { Board } from "./Board.jsx";
import { BotReview, reviewMarks } from "./BotReview.jsx";
import { ErrorNote } from "./ErrorNote.jsx";
import { ConfirmTapOption, PlayActions, UndoRequest } from "./game/Actions.jsx";
import { ConditionalMoves, usePlanner } from "./game/Conditional.jsx";
import { Chat } from "./game/Chat.jsx";
import { AbandonClaim, GameReport } from "./FairPlay.jsx";
import { Feedback, GameStatus } from "./game/GameStatus.jsx";
import { Invite } from "./game/Invite.jsx";
import { MoveList } from "./game/MoveList.jsx";
import { colorName } from "./game/names.js";
import { Players } from "./game/Players.jsx";
import { GameEvent } from "./TournamentLinks.jsx";
import { Marking, Outcome, RecordLinks } from "./game/Scoring.jsx";

const CONFIRM_KEY = "keima.confirmTap";

/**
 * Whether a pointer activation only selects a point, a second one on it playing: the stored
 * choice, else on for a touch screen (a coarse pointer: a fingertip covers several points of a
 * 19x19 board on a phone) and off for a mouse.
 */
function initialConfirmTap() {
  try {
    const stored = localStorage.getItem(CONFIRM_KEY);
    if (stored === "on" || stored === "off") return stored === "on";
  } catch {
    // storage disabled: the default for this screen
  }
  return !!window.matchMedia?.("(pointer: coarse)").matches;
}

function describeMove(move, size) {
  if (move.point === null || move.point === undefined) return t("announcePass", colorName(move.color));
  const v = move.vertex || vertexToGtp(anyToVertex(move.point, size), size);
  let text = t("announceMove", colorName(move.color), v);
  if (move.captures) text += t("announceCaptures", move.captures);
  return text;
}

/** The sentence announced to screen readers for the change from prev to next (or null). */
function announcement(prev, next) {
  if (!prev) return null;
  const parts = [];
  if (next.moves.length > prev.moves.length) {
    parts.push(describeMove(next.moves[next.moves.length - 1], next.size));
  }
  if (next.moves.length < prev.moves.length) parts.push(t("announceUndo"));
  if (prev.phase !== "scoring" && next.phase === "scoring") parts.push(t("announceScoring"));
  if (prev.phase === "scoring" && next.phase === "play") parts.push(t("announceResume"));
  if (!prev.result && next.result) parts.push(t("resultText", next.result));
  return parts.length ? parts.join(". ") : null;
}

export function GameView({ gameId, inviteCode }) {
  // A message key (translated at render, so it follows a language switch) or the server's own words.
  const [notice, setNotice] = useState(null);
  const [refusal, setRefusal] = useState(null);
  const [reviewAt, setReviewAt] = useState(null);
  const [announce, setAnnounce] = useState("");
  const [confirmTap, setConfirmTap] = useState(initialConfirmTap);
  const [selected, setSelected] = useState(null); // [x, y] chosen by a first tap, or null
  // Against the computer, the chains clicked in the marking phase (points, in order), not sent yet:
  // the computer reviews every marking it is shown, so the player finishes marking and submits it.
  const [marks, setMarks] = useState([]);
  // The computer's dispute note and the number of moves when it was first seen: hidden once play goes on.
  const [noteSeen, setNoteSeen] = useState(null);
  const [vw, vh] = useViewport();

  function onChange(prev, next) {
    const said = announcement(prev, next);
    if (said) setAnnounce(said);
    if (prev && next.moves.length !== prev.moves.length) {
      setRefusal(null);
      setSelected(null);
      setNotice((n) => (n?.key === "playResumed" ? null : n));
    }
    if (prev?.phase !== next.phase || (prev && prev.dead?.join() !== next.dead?.join())) setMarks([]);
    if (prev?.phase === "scoring" && next.phase === "play") {
      // Said aloud by the announcer, and shown: otherwise the board just looks the same again.
      setNotice({ key: "playResumed" });
      setSelected(null);
    }
    if (
      prev?.undo_request &&
      !next.undo_request &&
      (prev.you || []).includes(prev.undo_request.by) &&
      next.moves.length >= prev.moves.length
    ) {
      setNotice({ key: "undoDeclined" });
    }
  }

  const { game, status, workerNotice, error, inviteUsed, send: sendAction } = useGame(gameId, inviteCode, onChange);
  // Conditional moves: while the player plans them, the board shows the planned position and takes their clicks.
  const planner = usePlanner(game, reviewAt === null || reviewAt >= (game?.moves?.length ?? 0));
  // A stored review is looked for once the game is over (a live game has none).
  const bot = useBotReview({ gameId, finished: game?.phase === "finished" });
  useEffect(() => {
    if (inviteUsed) setNotice({ key: "inviteUsed" });
  }, [inviteUsed]);

  useEffect(() => {
    // Counted from the resumption it came with: a new marking phase may bring the same words again.
    const note = game?.bot_note || null;
    if (!note || game.phase === "scoring") setNoteSeen(null);
    else if (noteSeen?.note !== note) setNoteSeen({ note, moves: game.moves.length });
  }, [game?.bot_note, game?.phase]);

  const view = useMemo(() => {
    if (!game) return null;
    const size = game.size;
    const moves = game.moves || [];
    const reviewing = reviewAt !== null && reviewAt < moves.length;
    const n = reviewing ? reviewAt : moves.length;
    const board = reviewing ? positionAfter(size, game.handicap_stones, moves, n) : game.board;
    const last = n > 0 ? moves[n - 1] : null;
    const lastMove = last ? anyToVertex(last.point, size) : null;
    const showScore = !reviewing && (game.phase === "scoring" || game.phase === "finished") && game.score;
    const marking = marks.length ? toggledMarking(game.board, size, game.dead || [], marks) : game.dead || [];
    const dead = !reviewing && (showScore || game.phase === "scoring") ? new Set(marking) : null;
    const territory =
      showScore && game.score.territory
        ? { B: new Set(game.score.territory.B || []), W: new Set(game.score.territory.W || []) }
        : null;
    // The bot's best moves at the position shown, once a finished game has its review.
    const botMarks = game.phase === "finished" ? reviewMarks(bot.review, n, size) : null;
    return { size, moves, reviewing, n, board, lastMove, dead, territory, botMarks };
  }, [game, reviewAt, marks, bot.review]);

  if (error && !game) {
    return (
      <div class="card">
        <ErrorNote error={error} />
        <a href={ROOT}>{t("home")}</a>
      </div>
    );
  }
  if (!game) return <p class="card">…</p>;

  const you = game.you || [];
  const live = !view.reviewing;
  const canPlay = live && (game.phase === "play" || game.phase === "handicap") && you.includes(game.to_move);
  const canMark = live && game.phase === "scoring" && you.length > 0;
  const againstBot = ["B", "W"].some((c) => game.players?.[c]?.kind === "bot") && you.length === 1;
  // Shown while the player answers it; once a move is played after it, play has gone on without it.
  const botNote = game.bot_note && noteSeen && game.moves.length <= noteSeen.moves ? game.bot_note : null;

  /** Sends an action and says what came of it: a refused move with its rule, or why nothing happened. */
  async function send(action, vertex) {
    setNotice(null);
    try {
      await sendAction(action);
      if (action.type === "play") setRefusal(null);
    } catch (exc) {
      if (exc.code === "illegal-move") {
        setRefusal({ reason: exc.reason, vertex, message: exc.message });
      } else if (exc.code === "network" && exc.reason === "in-flight") {
        // The socket dropped with the action sent: the next state says whether it applied.
        setNotice({ key: "sendUncertain" });
      } else if (exc.code === "network") {
        // Nothing reached the server: say so rather than let the click vanish.
        setNotice({ key: "notSent", args: [action.type === "play" ? vertex : null] });
      } else {
        setNotice(errorWords(exc));
      }
    }
  }

  function onActivate(vertex, how) {
    const name = vertexToGtp(vertex, game.size);
    if (game.phase === "scoring") {
      const point = vertex[1] * game.size + vertex[0];
      if (canMark && againstBot) {
        if (game.board[point]) setMarks((m) => [...m, point]);
      } else if (canMark) send({ type: "toggle_dead", point }, name);
      return;
    }
    if (!canPlay) return;
    // Tap to select, tap again to play: a first tap on another point moves the selection.
    // An occupied point goes straight to the server, whose refusal says why at once.
    const empty = game.board[vertex[1] * game.size + vertex[0]] === 0;
    const again = selected && selected[0] === vertex[0] && selected[1] === vertex[1];
    if (confirmTap && how === "pointer" && empty && !again) {
      setSelected(vertex);
      return;
    }
    setSelected(null);
    send({ type: "play", move: name }, name);
  }

  /** Sends the chains clicked against the computer at once, then accepts the marking they make. */
  async function submitMarking() {
    const points = marks;
    setNotice(null);
    try {
      await Promise.all(points.map((point) => sendAction({ type: "toggle_dead", point })));
      await sendAction({ type: "accept" });
      setMarks([]);
    } catch (exc) {
      setNotice(errorWords(exc));
    }
  }

  function toggleConfirmTap(evt) {
    const on = evt.currentTarget.checked;
    setConfirmTap(on);
    setSelected(null);
    try {
      localStorage.setItem(CONFIRM_KEY, on ? "on" : "off");
    } catch {
      // not remembered, still applied
    }
  }

  // Beside the panel on a wide screen; on a narrow one the board takes the width (main's
  // padding, 0.25rem each side, is 4 px) and the panel goes below it.
  const narrow = vw <= 900;
  const boardWidth = vw > 900 ? Math.min(vw - 440, 760) : vw - 8;
  const boardHeight = vw > 900 ? vh - 110 : Math.min(vh, vw);
  const shownSelection = canPlay && confirmTap ? selected : null;
  const plan = planner.on ? planner.board() : null;
  const playing = (game.phase === "play" || game.phase === "handicap") && !game.result;

  return (
    <div class="game" data-phase={game.phase}>
      <div class="board-column">
        <Board
          size={view.size}
          board={plan ? plan.board : view.board}
          lastMove={plan ? null : view.lastMove}
          dead={view.dead}
          territory={view.territory}
          marks={plan ? plan.marks : view.botMarks}
          interactive={!!plan || canPlay || canMark}
          ghost={plan ? plan.ghost : canPlay ? (game.to_move === "B" ? 1 : 2) : 0}
          selected={plan ? null : shownSelection}
          onActivate={plan ? (vertex) => planner.click(vertex, plan.board) : onActivate}
          onPass={!plan && canPlay && game.phase === "play" ? () => send({ type: "pass" }) : null}
          maxWidth={boardWidth}
          maxHeight={boardHeight}
        />
        {plan && (
          <p class="tap-hint" role="status" data-testid="cond-board-hint">
            {planner.path.length % 2 ? t("condYours", planner.path[planner.path.length - 1]) : t("condTheirs")}
          </p>
        )}
        {shownSelection && !plan && (
          <p class="tap-hint" role="status" data-testid="tap-hint">
            {t("tapHint", vertexToGtp(shownSelection, game.size))}
          </p>
        )}
        {/* On a narrow screen the panel is below the board, out of sight: a refused move is explained here. */}
        {narrow && <Feedback refusal={refusal} notice={notice} />}
        {view.reviewing && (
          <p class="reviewing" data-testid="reviewing">
            {t("reviewing", view.n, view.moves.length)}
          </p>
        )}
        {/* On a narrow screen the review's graphs come right under the board, before the panel's count tables:
            a tap on them changes a board in view. */}
        {narrow && game.phase === "finished" && (
          <BotReview state={bot} current={view.n} total={view.moves.length} part="graphs"
            onJump={(n) => setReviewAt(n >= view.moves.length ? null : n)} />
        )}
      </div>

      <aside class="panel">
        <GameStatus game={game} you={you} status={status} workerNotice={workerNotice} botNote={botNote} />
        <GameEvent event={game.event} />
        {live && <AbandonClaim game={game} you={you} />}
        <Players game={game} you={you} />
        <Invite game={game} />
        {!narrow && <Feedback refusal={refusal} notice={notice} />}
        {live && <UndoRequest game={game} you={you} send={send} />}
        {live && playing && you.length > 0 && <PlayActions game={game} you={you} canPlay={canPlay} send={send} />}
        {planner.available && <ConditionalMoves planner={planner} />}
        {you.length > 0 && !game.result && game.phase !== "scoring" && (
          <ConfirmTapOption checked={confirmTap} onChange={toggleConfirmTap} />
        )}
        {live && game.phase === "scoring" && (
          <Marking
            game={game}
            you={you}
            send={send}
            marks={againstBot ? marks : null}
            onSubmit={submitMarking}
            onUndoMarks={() => setMarks([])}
          />
        )}
        <Outcome game={game} live={live} />
        <RecordLinks game={game} />
        <GameReport game={game} />
        {game.phase === "finished" && (
          <BotReview state={bot} current={view.n} total={view.moves.length} part={narrow ? "details" : "all"}
            onJump={(n) => setReviewAt(n >= view.moves.length ? null : n)} />
        )}
        {game.mode !== "local" && game.mode !== "bot" && (
          <Chat game={game} seated={you.length > 0} send={sendAction} />
        )}
        <MoveList moves={view.moves} n={view.n} reviewing={view.reviewing} onReview={setReviewAt} />
      </aside>

      <div class="visually-hidden" aria-live="polite" role="status" data-testid="announcer">
        {announce}
      </div>
    </div>
  );
}
