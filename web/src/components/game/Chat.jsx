// Chat of one game: the players' chat and the spectators' chat, apart. Messages
// are shown as text (Preact escapes it: a message is never HTML). Players write
// to the players' chat and may hide the spectators'; everyone else writes to the
// spectators' chat.
import { useState } from "preact/hooks";
import { t, tn } from "../../i18n.js";

function time(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function Messages({ id, title, messages }) {
  return (
    <div class="chat-log" data-testid={id}>
      <h4>{title}</h4>
      {messages.length ? (
        <ol aria-live="polite">
          {messages.map((m, i) => (
            <li key={`${m.at}-${i}`}>
              <span class="chat-from">{m.from}</span> <span class="chat-text">{m.text}</span>{" "}
              <small class="chat-at">{time(m.at)}</small>
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
  const [error, setError] = useState(null);
  const [hide, setHide] = useState(false);
  const chat = game.chat || [];
  const players = chat.filter((m) => m.to === "players");
  const spectators = chat.filter((m) => m.to === "spectators");
  const to = seated ? "players" : "spectators";

  async function submit(e) {
    e.preventDefault();
    if (!text.trim()) return;
    setError(null);
    try {
      await send({ type: "chat", text, to });
      setText("");
    } catch (exc) {
      setError(t("labelled", tn("errors", exc.code) || t("errorTitle"), exc.message));
    }
  }

  return (
    <section class="chat" aria-label={t("chatPlayers")} data-testid="chat">
      <Messages id="chat-players" title={t("chatPlayers")} messages={players} />
      {!(seated && hide) && <Messages id="chat-spectators" title={t("chatSpectators")} messages={spectators} />}
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
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
