// Chat of one game: the players' chat and the spectators' chat, apart. Messages
// are shown as text (Preact escapes it: a message is never HTML). Players write
// to the players' chat and may hide the spectators'; everyone else writes to the
// spectators' chat. A player mutes a sender for themselves: the server keeps the
// list with their account and leaves that sender's messages out of what it sends
// them; the page hides them at once too.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { useSignal } from "../../hooks.js";
import { errorWords, lang, t } from "../../i18n.js";
import { NameLink } from "../PlayerLink.jsx";
import { me, playersApi } from "../../players.js";
import { serverNow } from "../../time.js";
import { ReportForm } from "../FairPlay.jsx";

/**
 * The time of a message in the page's language ("10:05" in French, "10:05 AM" in English), with its day when it is
 * not today's ("Wed 2 Dec, 10:05"): a correspondence game's chat spans weeks.
 */
export function chatTime(at, code = lang.get(), today = new Date(serverNow() * 1000)) {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  const sameDay = d.toDateString() === today.toDateString();
  return sameDay
    ? d.toLocaleTimeString(code, { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleString(code, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** Seconds a refused burst must wait, read from the server's "try again in N s" (1 when it does not say). */
function waitOf(exc) {
  const m = /(\d+(?:\.\d+)?)\s*s\b/.exec(exc.message || "");
  return m ? Math.max(1, Math.ceil(Number(m[1]))) : 1;
}

function Messages({ id, title, messages, onMute, onReport, mine, seated = {} }) {
  const listRef = useRef(null);
  // Whether the reader is at the newest message: only then does a new one scroll the list
  // (someone reading back up is not pulled down).
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && atEnd.current) list.scrollTop = list.scrollHeight;
  }, [messages.length]);
  function onScroll(evt) {
    const list = evt.currentTarget;
    atEnd.current = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
  }
  return (
    <div class="chat-log" data-testid={id}>
      <h4>{title}</h4>
      {messages.length ? (
        <ol aria-live="polite" ref={listRef} onScroll={onScroll} tabIndex={0} aria-label={title}>
          {messages.map((m, i) => (
            <li key={`${m.at}-${i}`}>
              {m.account ? <NameLink class="chat-from" name={m.from} p={seated[m.from]} /> : <span class="chat-from">{m.from}</span>} <span class="chat-text">{m.text}</span>{" "}
              <small class="chat-at">{chatTime(m.at)}</small>
              {onMute && m.sender && !mine?.has(m.sender) && (
                <button type="button" class="link chat-mute" data-testid="mute" aria-label={t("muteSender", m.from)}
                  onClick={() => onMute(m)}>
                  {t("mute")}
                </button>
              )}
              {onReport && m.sender && m.account && !mine?.has(m.sender) && (
                <button type="button" class="link chat-mute" data-testid="report-chat"
                  aria-label={t("modReportChatLabel", m.from)} onClick={() => onReport(m)}>
                  {t("modReportChat")}
                </button>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p class="empty">{t("chatEmpty")}</p>
      )}
    </div>
  );
}

/** The chat panel; ``send(action)`` sends a chat action and resolves once it is stored. */
export function Chat({ game, seated, send }) {
  const [text, setText] = useState("");
  // {key, args} (translated at render) or the server's own words; with `until` (ms) when it holds only a while.
  const [error, setError] = useState(null);
  const [hide, setHide] = useState(false);
  const [reporting, setReporting] = useState(null);
  const [reported, setReported] = useState(false);
  const player = useSignal(me);
  // sender handle -> the name it was muted under; null until read (a page without a player mutes nothing).
  const [muted, setMuted] = useState(null);
  // Read at once (the header may still be reading the player) and again when the player changes; a page
  // without a player gets 401 and mutes nothing.
  useEffect(() => {
    let live = true;
    playersApi
      .mutes()
      .then((r) => live && setMuted(new Map(r.mutes.map((m) => [m.sender, m.name]))))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [player?.id]);
  const mine = new Set((game.chat || []).filter((m) => player?.name && m.from === player.name).map((m) => m.sender));
  const chat = (game.chat || []).filter((m) => !muted?.has(m.sender));
  const players = chat.filter((m) => m.to === "players");
  const spectators = chat.filter((m) => m.to === "spectators");
  const to = seated ? "players" : "spectators";
  // A message carries its sender's name only: a player of the game gets the rank the game shows beside them.
  const ranked = Object.fromEntries(
    Object.values(game.players || {}).filter((p) => p?.kind === "human" && p.name).map((p) => [p.name, p]),
  );

  // A "too many messages" error no longer holds once its wait has passed: it goes then.
  useEffect(() => {
    if (!error?.until) return undefined;
    const timer = setTimeout(() => setError((e) => (e === error ? null : e)), Math.max(0, error.until - Date.now()));
    return () => clearTimeout(timer);
  }, [error]);

  // Messages go one after the other, in the order written; the first the server refuses comes
  // back into the box with all those written after it, in front of anything typed since.
  const queue = useRef([]);
  const sending = useRef(false);
  async function pump() {
    if (sending.current) return;
    sending.current = true;
    while (queue.current.length) {
      const message = queue.current[0];
      try {
        await send({ type: "chat", ...message });
        queue.current.shift();
        setError(null);
      } catch (exc) {
        const back = queue.current.splice(0).map((m) => m.text);
        setText((now) => [...back, now].filter((part) => part.trim()).join(" "));
        if (exc.code === "too-many-requests") {
          const wait = waitOf(exc);
          setError({ key: "chatTooFast", args: [wait], until: Date.now() + wait * 1000 });
        } else if (exc.code === "network" && exc.reason === "in-flight") {
          setError({ key: "chatUncertain" });
        } else if (exc.code === "network") {
          setError({ key: "chatNotSent" });
        } else {
          const why = errorWords(exc);
          setError({ text: `${t("chatNotSent")} ${why}` });
        }
      }
    }
    sending.current = false;
  }

  async function mute(m) {
    try {
      await playersApi.mute(m.sender, m.from);
      setMuted((now) => new Map(now || []).set(m.sender, m.from));
    } catch (exc) {
      setError({ text: errorWords(exc) });
    }
  }

  async function unmute(sender) {
    try {
      await playersApi.unmute(sender);
      // The server left that sender's messages out of what it sent: ask the game's socket for the whole state
      // again, which now holds them.
      window.keimaSocket?.sendRaw({ type: "resync", from: game.version });
      setMuted((now) => {
        const next = new Map(now || []);
        next.delete(sender);
        return next;
      });
    } catch (exc) {
      setError({ text: errorWords(exc) });
    }
  }

  // Only a player can mute (the list is theirs), and never themselves.
  const onMute = player?.id || muted ? mute : null;
  // A registered player reports a message (issue 47): the form opens under the chat.
  const onReport = player?.id && !player.guest ? (m) => { setReporting(m); setReported(false); } : null;

  function submit(e) {
    e.preventDefault();
    if (!text.trim()) return;
    // The box is free for the next message at once.
    queue.current.push({ text, to });
    setText("");
    pump();
  }

  return (
    <section class="chat" aria-label={t("chatPlayers")} data-testid="chat">
      <Messages id="chat-players" title={t("chatPlayers")} messages={players} onMute={onMute} onReport={onReport} mine={mine} seated={ranked} />
      {!(seated && hide) && (
        <Messages id="chat-spectators" title={t("chatSpectators")} messages={spectators} onMute={onMute} onReport={onReport} mine={mine} seated={ranked} />
      )}
      {reporting && (
        <ReportForm target={{ kind: "chat", game: game.id, sender: reporting.sender, at: reporting.at }}
          onCancel={() => setReporting(null)} onDone={() => { setReporting(null); setReported(true); }} />
      )}
      {reported && <p class="note" role="status" data-testid="chat-reported">{t("modReported")}</p>}
      {muted?.size > 0 && (
        <p class="chat-muted" data-testid="muted">
          {t("mutedList")}{" "}
          {[...muted].map(([sender, name]) => (
            <button key={sender} type="button" class="link" data-testid="unmute" aria-label={t("unmuteSender", name)}
              onClick={() => unmute(sender)}>
              {t("unmute", name)}
            </button>
          ))}
        </p>
      )}
      {seated && (
        <label class="check">
          <input type="checkbox" checked={hide} onChange={(e) => setHide(e.currentTarget.checked)} />{" "}
          {t("hideSpectators")}
        </label>
      )}
      <form class="chat-form" onSubmit={submit}>
        <label class="visually-hidden" for="chat-text">
          {t("chatSay")}
        </label>
        <input
          id="chat-text"
          name="chat"
          value={text}
          maxLength={500}
          placeholder={seated ? t("chatPlayers") : t("chatSpectators")}
          onInput={(e) => setText(e.currentTarget.value)}
          data-testid="chat-input"
        />
        <button type="submit" data-testid="chat-send">
          {t("chatSend")}
        </button>
      </form>
      {error && (
        <p class="error" role="alert" data-testid="chat-error">
          {error.text ?? t(error.key, ...(error.args || []))}
        </p>
      )}
    </section>
  );
}
