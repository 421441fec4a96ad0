// One game: the board, whose turn, captures and passes, clocks, the actions
// (pass, resign, undo request and answer), refused moves explained with their
// rule, the dead-stone phase, the final count, SGF download and the move list.
// Everything shown comes from the server's GameState; nothing is decided here.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, GameSocket, ROOT } from "../api.js";
import { anyToVertex, vertexToGtp } from "../coords.js";
import { t, tn } from "../i18n.js";
import { useViewport } from "../hooks.js";
import { positionAfter } from "../review.js";
import { rt } from "../reviewText.js";
import { Board } from "./Board.jsx";
import { Clock } from "./Clock.jsx";
import { ErrorNote } from "./ErrorNote.jsx";
import { ScoreTable } from "./ScoreTable.jsx";
import { Chat } from "./Chat.jsx";
import { AcceptButton } from "./Lobby.jsx";
import { afterAction } from "../players.js";
import { GameCount } from "./GameCount.jsx";

const sameSet = (a, b) => a.length === b.length && a.every((p) => b.includes(p));

const colorName = (c) => (c === "B" ? t("black") : t("white"));

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
  const [game, setGame] = useState(null);
  const [receivedAt, setReceivedAt] = useState(Date.now());
  const [status, setStatus] = useState("connecting");
  const [workerNotice, setWorkerNotice] = useState(null);
  const [error, setError] = useState(null);
  // A message key (translated at render, so it follows a language switch) or the server's own words.
  const [notice, setNotice] = useState(null);
  const [refusal, setRefusal] = useState(null);
  const [reviewAt, setReviewAt] = useState(null);
  const [announce, setAnnounce] = useState("");
  const [confirmResign, setConfirmResign] = useState(false);
  const [copied, setCopied] = useState(false);
  const [confirmTap, setConfirmTap] = useState(initialConfirmTap);
  const [selected, setSelected] = useState(null); // [x, y] chosen by a first tap, or null
  const gameRef = useRef(null);
  const listRef = useRef(null);
  const socketRef = useRef(null);
  const [vw, vh] = useViewport();

  function onState(next) {
    const prev = gameRef.current;
    if (prev && next.version < prev.version) return; // an older state arriving late
    gameRef.current = next;
    setGame(next);
    setReceivedAt(Date.now());
    const said = announcement(prev, next);
    if (said) setAnnounce(said);
    if (prev && next.moves.length !== prev.moves.length) {
      setRefusal(null);
      setSelected(null);
      setNotice((n) => (n?.key === "playResumed" ? null : n));
    }
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

  useEffect(() => {
    let cancelled = false;
    async function start() {
      if (inviteCode) {
        try {
          const joined = afterAction(await api.join(gameId, inviteCode));
          if (!cancelled && joined?.game) onState(joined.game);
        } catch (exc) {
          if (exc.code !== "bad-invitation") setError(exc);
          else setNotice({ key: "inviteUsed" });
        }
        // The code is spent: keep it out of the address bar (and of reloads).
        history.replaceState(null, "", `${ROOT}g/${encodeURIComponent(gameId)}`);
      }
      try {
        const state = await api.get(gameId);
        if (!cancelled) onState(state);
      } catch (exc) {
        if (!cancelled) setError(exc);
        return;
      }
      if (cancelled) return;
      socketRef.current = new GameSocket(gameId, {
        onState,
        onStatus: (s) => setStatus(s),
        onNotice: (n) => setWorkerNotice(n),
      });
      // Exposed for the end-to-end tests, which drop the socket to check reconnection.
      window.keimaSocket = socketRef.current;
    }
    start();
    return () => {
      cancelled = true;
      socketRef.current?.close();
    };
  }, [gameId, inviteCode]);

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
    const dead = !reviewing && (showScore || game.phase === "scoring") ? new Set(game.dead || []) : null;
    const territory = showScore && game.score.territory
      ? { B: new Set(game.score.territory.B || []), W: new Set(game.score.territory.W || []) }
      : null;
    return { size, moves, reviewing, n, board, lastMove, dead, territory };
  }, [game, reviewAt]);

  // The move list follows the game: the newest entry when live, the reviewed one otherwise.
  // Only the list scrolls (not the page), so the board stays where it is.
  const moveCount = view?.moves.length ?? 0;
  useEffect(() => {
    const list = listRef.current;
    if (!list || !view) return;
    if (!view.reviewing) {
      list.scrollTop = list.scrollHeight;
      return;
    }
    const current = list.querySelector('[aria-current="step"]')?.closest("li");
    if (!current) {
      list.scrollTop = 0;
      return;
    }
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }, [moveCount, view?.n, view?.reviewing]);

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
  const local = you.length === 2;
  const mine = (c) => you.includes(c);
  const live = !view.reviewing;
  const canPlay = live && (game.phase === "play" || game.phase === "handicap") && mine(game.to_move);
  const canMark = live && game.phase === "scoring" && you.length > 0;
  const botColor = ["B", "W"].find((c) => game.players?.[c]?.kind === "bot");
  const botThinking = botColor && game.phase === "play" && game.to_move === botColor && !game.result;

  async function send(action, vertex) {
    setNotice(null);
    try {
      const socket = socketRef.current;
      if (socket) await socket.send(action);
      else {
        // The socket opens right after the first state; an action before that goes over HTTP.
        const answer = await api.action(gameId, action);
        if (answer?.game) onState(answer.game);
      }
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
        setNotice(t("labelled", tn("errors", exc.code) || t("errorTitle"), exc.message));
      }
    }
  }

  // On a shared screen the request is for the last move played, whichever side
  // played it; the server takes it back at once (the other side is the same
  // person, as it is for the bot, which always agrees).
  function askUndo() {
    const last = game.moves[game.moves.length - 1];
    send(local && last ? { type: "undo_request", color: last.color } : { type: "undo_request" });
  }

  function answerUndo(accept) {
    send({ type: "undo_answer", accept });
  }

  function onActivate(vertex, how) {
    const name = vertexToGtp(vertex, game.size);
    if (game.phase === "scoring") {
      if (canMark) send({ type: "toggle_dead", point: vertex[1] * game.size + vertex[0] }, name);
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

  const refusalText = refusal
    ? (tn("reasons", refusal.reason, refusal.vertex, refusal.message) ??
      tn("reasons", "unknown", refusal.vertex, refusal.message))
    : null;

  // Beside the panel on a wide screen; on a narrow one the board takes the width (main's
  // padding, 0.25rem each side, is 4 px) and the panel goes below it.
  const boardWidth = vw > 900 ? Math.min(vw - 440, 760) : vw - 8;
  const boardHeight = vw > 900 ? vh - 110 : Math.min(vh, vw);
  const shownSelection = canPlay && confirmTap ? selected : null;

  const storedInvite = (() => {
    try {
      return localStorage.getItem(`keima.invite.${game.id}`);
    } catch {
      return null;
    }
  })();
  const inviteUrl = storedInvite ? `${location.origin}${ROOT}${storedInvite.replace(/^\//, "")}` : null;

  let turnText;
  if (game.result) turnText = t("resultText", game.result);
  else if (game.phase === "scoring") turnText = t("phaseScoring");
  else if (game.phase === "handicap") turnText = t("handicapPhase", game.handicap_left ?? game.handicap);
  else if (local) turnText = t("toMove", colorName(game.to_move));
  else if (mine(game.to_move)) turnText = `${t("yourTurn")} (${colorName(game.to_move)})`;
  else turnText = t("toMove", colorName(game.to_move));

  return (
    <div class="game" data-phase={game.phase}>
      <div class="board-column">
        <Board
          size={view.size}
          board={view.board}
          lastMove={view.lastMove}
          dead={view.dead}
          territory={view.territory}
          interactive={canPlay || canMark}
          ghost={canPlay ? (game.to_move === "B" ? 1 : 2) : 0}
          selected={shownSelection}
          onActivate={onActivate}
          onPass={canPlay && game.phase === "play" ? () => send({ type: "pass" }) : null}
          maxWidth={boardWidth}
          maxHeight={boardHeight}
        />
        {shownSelection && (
          <p class="tap-hint" role="status" data-testid="tap-hint">
            {t("tapHint", vertexToGtp(shownSelection, game.size))}
          </p>
        )}
        {view.reviewing && (
          <p class="reviewing" data-testid="reviewing">
            {t("reviewing", view.n, view.moves.length)}
          </p>
        )}
      </div>

      <aside class="panel">
        <p class="turn" data-testid="turn">
          {turnText}
        </p>
        {botThinking && workerNotice === "no-bot-worker" && (
          <p class="notice" data-testid="no-worker">{t("waitingWorker")}</p>
        )}
        {botThinking && workerNotice !== "no-bot-worker" && <p class="thinking">{t(game.bot_warming ? "warming" : "thinking")}</p>}
        {game.bot_note && !game.result && (
          <p class="notice" role="status" data-testid="bot-note">
            {game.bot_note}
          </p>
        )}
        {game.mode === "open" && game.invite_open && !you.length && !game.result && (
          <p>
            <AcceptButton id={game.id} label={t("acceptChallenge")} />
          </p>
        )}
        {!game.result && ["B", "W"].some((c) => game.players?.[c] && !game.players[c].seated) && (
          <p class="notice" data-testid="waiting">
            {t("waitingJoin")}
          </p>
        )}
        <p class={`status ${status}`} data-testid="connection">
          {t(
            "labelled",
            t("connection"),
            status === "open" ? t("connected") : status === "gone" ? t("notFound") : t("reconnecting"),
          )}
        </p>
        <p class="settings" data-testid="settings">
          {t(
            "settingsLine",
            tn("rulesetNames", game.rules?.name) ?? game.rules?.name ?? "",
            game.komi,
            game.handicap,
            game.size,
          )}
        </p>
        <p class="you" data-testid="you">
          {local ? t("bothSides") : you.length ? t("youAre", colorName(you[0])) : t("spectator")}
        </p>

        <table class="players">
          <thead>
            <tr>
              <th scope="col"></th>
              <th scope="col">{t("captures")}</th>
              <th scope="col">{t("passStones")}</th>
              {game.clock && <th scope="col">{t("clock")}</th>}
            </tr>
          </thead>
          <tbody>
            {["B", "W"].map((c) => (
              <tr key={c} class={game.to_move === c && !game.result ? "to-move" : ""}>
                <th scope="row">
                  <span class={`stone-icon ${c}`} aria-hidden="true"></span>
                  {colorName(c)}
                  {game.players?.[c]?.kind === "bot" && ` (${t("bot")})`}
                  {game.players?.[c]?.kind === "human" && game.players[c].name && (
                    <span class="player-name" data-testid={`name-${c}`}>
                      {" "}
                      {game.players[c].name}
                      {game.players[c].rank && ` (${t("rankWords", game.players[c].rank)})`}
                    </span>
                  )}
                  {mine(c) && !local && ` (${t("you")})`}
                </th>
                <td data-testid={`captures-${c}`}>{game.prisoners?.[c] ?? 0}</td>
                <td data-testid={`passes-${c}`}>{game.pass_count?.[c] ?? 0}</td>
                {game.clock && (
                  <td>
                    <Clock clock={game.clock} color={c} receivedAt={receivedAt} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>

        {inviteUrl && game.invite_open && (
          <div class="invite" data-testid="invite">
            <label for="invite-url">{t("inviteLink")}</label>
            <div class="row">
              <input id="invite-url" readOnly value={inviteUrl} onFocus={(e) => e.currentTarget.select()} />
              <button
                type="button"
                onClick={() => {
                  navigator.clipboard?.writeText(inviteUrl).then(() => setCopied(true), () => {});
                }}
              >
                {copied ? t("copied") : t("copy")}
              </button>
            </div>
          </div>
        )}

        {refusal && (
          <div
            class="refusal"
            role="alert"
            data-testid="refusal"
            data-reason={refusal.reason}
            data-vertex={refusal.vertex}
          >
            <strong>
              {t("refused")}
              {t("colon")}
            </strong>{" "}
            {refusalText}
          </div>
        )}
        {notice && (
          <p class="notice" role="status" data-testid="notice">
            {typeof notice === "string" ? notice : t(notice.key, ...(notice.args || []))}
          </p>
        )}

        {live && game.undo_request && !mine(game.undo_request.by) && you.length > 0 && (
          <div class="undo-ask" role="alert" data-testid="undo-ask">
            <p>{t("undoAsked", colorName(game.undo_request.by))}</p>
            <button type="button" onClick={() => answerUndo(true)}>
              {t("accept")}
            </button>
            <button type="button" onClick={() => answerUndo(false)}>
              {t("decline")}
            </button>
          </div>
        )}
        {live && game.undo_request && mine(game.undo_request.by) && !local && (
          <p class="notice" data-testid="undo-pending">
            {t("undoRequested")}
          </p>
        )}

        {live && (game.phase === "play" || game.phase === "handicap") && you.length > 0 && !game.result && (
          <div class="actions">
            <button type="button" onClick={() => send({ type: "pass" })} disabled={!canPlay || game.phase !== "play"}>
              {t("pass")}
            </button>
            <button
              type="button"
              onClick={askUndo}
              disabled={!game.moves.length || !!game.undo_request}
            >
              {t("undo")}
            </button>
            {!confirmResign ? (
              <button type="button" class="danger" onClick={() => setConfirmResign(true)}>
                {t("resign")}
              </button>
            ) : (
              <span class="confirm">
                {t("confirmResign")}{" "}
                <button
                  type="button"
                  class="danger"
                  onClick={() => {
                    setConfirmResign(false);
                    send({ type: "resign" });
                  }}
                >
                  {t("resign")}
                </button>
                <button type="button" onClick={() => setConfirmResign(false)}>
                  {t("cancel")}
                </button>
              </span>
            )}
          </div>
        )}

        {you.length > 0 && !game.result && (
          <label class="option">
            <input type="checkbox" checked={confirmTap} onChange={toggleConfirmTap} data-testid="confirm-tap" />{" "}
            {t("confirmTap")}
          </label>
        )}

        {live && game.phase === "scoring" && (
          <section class="scoring" data-testid="scoring">
            <p>{t("scoringHelp")}</p>
            {game.proposal && (
              <p data-testid="proposal">
                {sameSet(game.proposal, game.dead || [])
                  ? t("proposalSame", game.proposal.length)
                  : t("proposalDiffers", game.proposal.length)}
              </p>
            )}
            <ul class="acceptance">
              {["B", "W"].map((c) => (
                <li key={c} data-testid={`accepted-${c}`}>
                  {(game.accepted || []).includes(c) ? t("acceptedBy", colorName(c)) : t("notAccepted", colorName(c))}
                </li>
              ))}
            </ul>
            {you.length > 0 && (
              <div class="actions">
                {local ? (
                  ["B", "W"].map((c) => (
                    <button
                      key={c}
                      type="button"
                      class="primary"
                      disabled={(game.accepted || []).includes(c)}
                      onClick={() => send({ type: "accept", color: c })}
                    >
                      {t("acceptMarking")} ({colorName(c)})
                    </button>
                  ))
                ) : (
                  <button
                    type="button"
                    class="primary"
                    disabled={you.every((c) => (game.accepted || []).includes(c))}
                    onClick={() => send({ type: "accept" })}
                  >
                    {t("acceptMarking")}
                  </button>
                )}
                <button type="button" onClick={() => send({ type: "resume" })}>
                  {t("rejectMarking")}
                </button>
              </div>
            )}
          </section>
        )}

        {game.result && (
          <p class="result" data-testid="result" data-result={game.result}>
            <strong>
              {t("result")}
              {t("colon")}
            </strong>{" "}
            {t("resultText", game.result)} ({game.result})
            {game.end_reason && tn("endReasons", game.end_reason) && ` – ${tn("endReasons", game.end_reason)}`}
          </p>
        )}
        {live && game.score && (game.phase === "scoring" || game.phase === "finished") && (
          <ScoreTable score={game.score} final={game.phase === "finished"} />
        )}
        {live && game.score && (game.phase === "scoring" || game.phase === "finished") && <GameCount game={game} />}

        <p>
          <a class="button" href={api.sgfUrl(game.id)} download={`keima-${game.id}.sgf`} data-testid="sgf">
            {t("downloadSgf")}
          </a>
          {game.phase === "finished" && <> <a class="button" href={`${ROOT}review?game=${encodeURIComponent(game.id)}`} data-testid="review-game">{rt("reviewLink")}</a></>}
        </p>

        {game.mode !== "local" && game.mode !== "bot" && (
          <Chat
            game={game}
            seated={you.length > 0}
            send={(action) => api.action(gameId, action).then(afterAction)}
          />
        )}

        <section class="moves" aria-labelledby="moves-title">
          <h3 id="moves-title">{t("moveList")}</h3>
          <div class="review-nav" role="group" aria-label={t("review")}>
            <button
              type="button"
              onClick={() => setReviewAt(0)}
              disabled={!view.moves.length}
              data-testid="review-start"
            >
              « <span class="visually-hidden">{t("reviewStart")}</span>
            </button>
            <button
              type="button"
              onClick={() => setReviewAt(Math.max(0, view.n - 1))}
              disabled={view.n === 0}
              aria-label={t("reviewPrev")}
              data-testid="review-prev"
            >
              ◀
            </button>
            <button
              type="button"
              onClick={() => setReviewAt(view.n + 1 >= view.moves.length ? null : view.n + 1)}
              disabled={!view.reviewing}
              aria-label={t("reviewNext")}
              data-testid="review-next"
            >
              ▶
            </button>
            <button type="button" onClick={() => setReviewAt(null)} disabled={!view.reviewing} data-testid="review-live">
              » <span class="visually-hidden">{t("reviewEnd")}</span>
            </button>
          </div>
          <ol class="move-list" data-testid="move-list" ref={listRef}>
            {view.moves.map((m, i) => (
              <li key={m.n ?? i + 1}>
                <button
                  type="button"
                  class={i + 1 === view.n ? "current" : ""}
                  aria-current={i + 1 === view.n ? "step" : undefined}
                  onClick={() => setReviewAt(i + 1 === view.moves.length ? null : i + 1)}
                >
                  <span class="move-n">{i + 1}</span> {colorName(m.color)}{" "}
                  {m.point === null || m.point === undefined ? t("passed") : m.vertex}
                </button>
              </li>
            ))}
          </ol>
        </section>
      </aside>

      <div class="visually-hidden" aria-live="polite" role="status" data-testid="announcer">
        {announce}
      </div>
    </div>
  );
}
