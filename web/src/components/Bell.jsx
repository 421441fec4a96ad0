// The bell: the player's notifications (docs/web-api.md, Notifications) with the unread count, read
// again every minute; opening it lists them, and "mark all read" clears the count. While the page is
// visible it tells the server every minute that the player is here (no email for 5 minutes).
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n.js";
import { playersApi } from "../players.js";

const EVERY_MS = 60_000;

export function Bell({ player }) {
  const [items, setItems] = useState([]);
  const [open, setOpen] = useState(false);
  const unread = items.filter((n) => !n.read).length;

  useEffect(() => {
    if (!player?.id) return undefined;
    let stopped = false;
    const load = () =>
      playersApi
        .notifications()
        .then((data) => !stopped && setItems(data.notifications || []))
        .catch(() => {});
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
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", here);
    };
  }, [player?.id]);

  if (!player?.id) return null;

  async function readAll() {
    await playersApi.readNotifications({ all: true }).catch(() => {});
    setItems(items.map((n) => ({ ...n, read: true })));
  }

  return (
    <span class="bell-box">
      <button
        type="button"
        class={`link bell${unread ? " unread" : ""}`}
        aria-label={t("bellLabel", unread)}
        aria-expanded={open ? "true" : "false"}
        onClick={() => setOpen(!open)}
        data-testid="bell"
      >
        {t("notifications")}
        {unread ? <span class="count">{unread}</span> : null}
      </button>
      {open && (
        <div class="bell-list" role="region" aria-label={t("notifications")} data-testid="bell-list">
          {items.length === 0 ? (
            <p class="note">{t("noNotifications")}</p>
          ) : (
            <ul>
              {items.map((n) => (
                <li key={n.id} class={n.read ? "read" : "unread"}>
                  {n.game ? <a href={`/g/${n.game}`}>{n.text}</a> : n.text}
                </li>
              ))}
            </ul>
          )}
          {unread > 0 && (
            <button type="button" class="link" onClick={readAll} data-testid="read-all">
              {t("markAllRead")}
            </button>
          )}
        </div>
      )}
    </span>
  );
}
