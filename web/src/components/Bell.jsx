// The bell: the player's notifications (docs/web-api.md, Notifications) with the unread count. The
// lobby socket (every page opens it in its header) says when a new one is stored: the count shows at
// once and the list is read again; every minute it is read anyway, for a socket that was away.
// Opening it lists them, and "mark all read" clears the count. While the page is visible it tells
// the server every minute that the player is here (no email for 5 minutes). The browser's own
// notifications (the Notification API) are off until the player turns them on, which asks the
// browser's permission on that click; then a new one shows while the tab is in the background. Opening it
// reads them again. The server keeps one line per game and kind (the newest); each says when it came and which
// game (board, colour, move, time left). A game's lines are read by themselves while its page is on screen. The
// list is placed under the button within the screen (the account bar may be at the screen's left edge).
import { useEffect, useRef, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { usePlacedUnder } from "../hooks.js";
import { t } from "../i18n.js";
import { bellRang, onScreen, playersApi } from "../players.js";
import { formatSeconds, serverNow } from "../time.js";

const EVERY_MS = 60_000;
const BROWSER_KEY = "keima-browser-notifications";

function browserAlertsOn() {
  try {
    return typeof Notification !== "undefined" && Notification.permission === "granted" &&
      localStorage.getItem(BROWSER_KEY) === "on";
  } catch {
    return false;
  }
}

export function Bell({ player }) {
  const [items, setItems] = useState([]);
  const [open, setOpen] = useState(false);
  const [alerts, setAlerts] = useState(browserAlertsOn());
  const [told, setTold] = useState(null); // the socket's count, until the list read after it comes
  const known = useRef(null); // the ids already listed: only a new one shows in the browser
  const unread = told ?? items.filter((n) => !n.read).length;
  const button = useRef(null);
  const list = useRef(null);
  const stopped = useRef(false);
  // Bumped by "mark all read": a list asked for before it would bring the unread count back.
  const marked = useRef(0);
  const load = () => {
    const at = marked.current;
    return playersApi
      .notifications()
      .then((data) => {
        if (stopped.current || at !== marked.current) return;
        setTold(null);
        const listed = readHere(data.notifications || []);
        setItems(listed);
        show(listed);
      })
      .catch(() => {});
  };

  usePlacedUnder(open, button, list, "left", [items.length]);

  // The game on screen answers its lines: they are read (on the server too, so that every page's count drops).
  function readHere(list) {
    const here = onScreen.get();
    if (!here || !list.some((n) => n.game === here && !n.read)) return list;
    playersApi.readNotifications({ game: here }).catch(() => {});
    return list.map((n) => (n.game === here ? { ...n, read: true } : n));
  }

  function show(list) {
    const before = known.current;
    known.current = new Set(list.map((n) => n.id));
    if (!before || !browserAlertsOn() || document.visibilityState !== "hidden") return;
    for (const n of list) {
      if (!n.read && !before.has(n.id)) new Notification("keima", { body: n.text, tag: `keima-${n.id}` });
    }
  }

  async function toggleAlerts() {
    if (typeof Notification === "undefined") return;
    if (alerts) {
      localStorage.setItem(BROWSER_KEY, "off");
      setAlerts(false);
      return;
    }
    const answer = await Notification.requestPermission();
    localStorage.setItem(BROWSER_KEY, answer === "granted" ? "on" : "off");
    setAlerts(answer === "granted");
  }

  useEffect(() => {
    if (!player?.id) return undefined;
    stopped.current = false;
    const here = () => {
      if (document.visibilityState === "visible") playersApi.seen().catch(() => {});
    };
    load();
    here();
    const timer = setInterval(() => {
      load();
      here();
    }, EVERY_MS);
    document.addEventListener("visibilitychange", here);
    const offRang = bellRang.subscribe((rang) => {
      if (!rang) return;
      setTold(rang.unread);
      load();
    });
    // A game opened in the page: its lines are read, and the count drops at once.
    const offScreen = onScreen.subscribe(() => {
      setItems((list) => {
        const after = readHere(list);
        if (after !== list) setTold(null);
        return after;
      });
    });
    return () => {
      stopped.current = true;
      offRang();
      offScreen();
      clearInterval(timer);
      document.removeEventListener("visibilitychange", here);
    };
  }, [player?.id]);

  if (!player?.id) return null;

  async function readAll() {
    marked.current += 1;
    await playersApi.readNotifications({ all: true }).catch(() => {});
    setTold(null);
    setItems(items.map((n) => ({ ...n, read: true })));
  }

  return (
    <span class="bell-box">
      <button
        type="button"
        class={`link bell${unread ? " unread" : ""}`}
        aria-label={t("bellLabel", unread)}
        aria-expanded={open ? "true" : "false"}
        onClick={() => {
          if (!open) load();
          setOpen(!open);
        }}
        ref={button}
        data-testid="bell"
      >
        {/* The word on a wide screen, a bell on a phone (the button's label says it to a screen reader). */}
        <span class="bell-word">{t("notifications")}</span>
        <svg class="bell-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
        </svg>
        {unread ? <span class="count">{unread}</span> : null}
      </button>
      {open && (
        <div class="bell-list" ref={list} role="region" aria-label={t("notifications")} data-testid="bell-list">
          {items.length === 0 ? (
            <p class="note">{t("noNotifications")}</p>
          ) : (
            <ul>
              {items.map((n) => (
                <li key={n.id} class={n.read ? "read" : "unread"} data-testid={`bell-item-${n.kind}`}>
                  {n.game ? (
                    <a href={`${ROOT}g/${encodeURIComponent(n.game)}`}>{n.text}</a>
                  ) : n.club ? (
                    <a href={`${ROOT}c/${encodeURIComponent(n.club)}`}>{n.text}</a>
                  ) : n.tournament ? (
                    <a href={`${ROOT}t/${encodeURIComponent(n.tournament)}`}>{n.text}</a>
                  ) : (
                    n.text
                  )}
                  <small class="bell-meta">
                    {n.size ? `${t("bellGame", n.size, n.color)} · ` : ""}
                    {typeof n.moves === "number" ? `${t("moveNo", n.moves)} · ` : ""}
                    {typeof n.left === "number" ? `${t("movesLeft", formatSeconds(n.left))} · ` : ""}
                    {n.count > 1 ? `${t("chatCount", n.count)} · ` : ""}
                    <time dateTime={new Date(n.at * 1000).toISOString()} title={new Date(n.at * 1000).toLocaleString()}>
                      {t("ago", Math.max(0, Math.round(serverNow() - n.at)))}
                    </time>
                  </small>
                </li>
              ))}
            </ul>
          )}
          {unread > 0 && (
            <button type="button" class="link" onClick={readAll} data-testid="read-all">
              {t("markAllRead")}
            </button>
          )}
          {typeof Notification !== "undefined" && (
            <button
              type="button"
              class="link"
              aria-pressed={alerts ? "true" : "false"}
              onClick={toggleAlerts}
              data-testid="browser-alerts"
            >
              {alerts ? t("browserAlertsOn") : t("browserAlertsOff")}
            </button>
          )}
        </div>
      )}
    </span>
  );
}
