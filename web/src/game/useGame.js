// One game on the page: its first state (after joining with an invitation code, if any), then
// its live socket, every message going through the reducer. The caller gets the game, the
// connection's status and a send(action) that goes over the socket, or over HTTP while the
// socket is not open; onChange(prev, next) is called after each change of the game.
import { afterAction } from "../players.js";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ROOT } from "../api.js";
import { LiveSocket } from "../socket.js";
import { browserNow, setServerOffset } from "../time.js";
import { EMPTY, reduce } from "./reducer.js";

export function useGame(gameId, inviteCode, onChange) {
  const [model, setModel] = useState(EMPTY);
  const [status, setStatus] = useState("connecting");
  const [workerNotice, setWorkerNotice] = useState(null);
  const [error, setError] = useState(null);
  // A code spent on a game already taken: said by the page, not an error.
  const [inviteUsed, setInviteUsed] = useState(false);
  const modelRef = useRef(EMPTY);
  const socketRef = useRef(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  /** Applies one message of the server (a state or a delta) and answers it when the reducer says so. */
  function deliver(msg) {
    if (msg?.type === "notice") {
      setWorkerNotice(msg.notice);
      return;
    }
    const prev = modelRef.current;
    const { model: next, reply, changed: didChange } = reduce(prev, msg, browserNow());
    if (reply) socketRef.current?.sendRaw(reply);
    if (!didChange) {
      modelRef.current = next;
      return;
    }
    modelRef.current = next;
    setServerOffset(next.offset);
    setModel(next);
    changed.current?.(prev.game, next.game);
  }

  useEffect(() => {
    let cancelled = false;
    modelRef.current = EMPTY;
    async function start() {
      if (inviteCode) {
        try {
          const joined = afterAction(await api.join(gameId, inviteCode));
          if (!cancelled && joined?.game) deliver({ type: "state", game: joined.game });
        } catch (exc) {
          if (exc.code !== "bad-invitation") setError(exc);
          else setInviteUsed(true);
        }
        // The code is spent: keep it out of the address bar (and of reloads).
        history.replaceState(null, "", `${ROOT}g/${encodeURIComponent(gameId)}`);
      }
      try {
        const state = await api.get(gameId);
        if (!cancelled) deliver({ type: "state", game: state });
      } catch (exc) {
        if (!cancelled) setError(exc);
        return;
      }
      if (cancelled) return;
      socketRef.current = new LiveSocket(`api/games/${encodeURIComponent(gameId)}/ws`, {
        onMessage: deliver,
        onStatus: setStatus,
      });
      // Exposed for the end-to-end tests, which drop the socket to check reconnection.
      window.keimaSocket = socketRef.current;
    }
    start();
    return () => {
      cancelled = true;
      socketRef.current?.close();
      socketRef.current = null;
    };
  }, [gameId, inviteCode]);

  /** Sends an action; resolves once the server took it (its changes arrive as messages). */
  function send(action) {
    const byHttp = () =>
      api.action(gameId, action).then((answer) => {
        if (answer?.game) deliver({ type: "state", game: answer.game });
      });
    const socket = socketRef.current;
    // A chat message goes over HTTP: it makes the guest player of a page that has none yet (a socket opened
    // without one cannot chat). Before the socket opens (right after the first state) any action does.
    if (action.type === "chat") return byHttp().then(afterAction);
    return socket ? socket.request({ type: "action", action }, byHttp) : byHttp();
  }

  return { game: model.game, status, workerNotice, error, inviteUsed, send };
}
