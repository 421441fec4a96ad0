// The account's correspondence and notification settings (docs/correspondence.md): the time zone that
// places the player's weekends (the browser's proposed), the vacation switch with the days held, the
// email address and, per kind of notification, off / at once / in the day's digest.
import { useEffect, useState } from "preact/hooks";
import { errorWords, t, tn } from "../i18n.js";
import { me, playersApi } from "../players.js";

const KINDS = [
  "your-turn",
  "challenge-accepted",
  "undo-request",
  "chat",
  "game-finished",
  "clock-low",
  "automatch",
  "tournament-round",
  "count-deadline",
  "club",
];
const PREFS = ["off", "now", "digest"];

/** The IANA time zone of this device ("Europe/Paris"), or null where the browser does not say. */
export function deviceZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

export function Away({ player, onClose }) {
  const zone = deviceZone();
  const [fields, setFields] = useState({
    time_zone: player.time_zone || zone || "",
    email: player.email || "",
    lang: player.lang || (document.documentElement.lang === "fr" ? "fr" : "en"),
    notify: { ...(player.notify || {}) },
  });
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  // The link that confirms the address, asked for again: {text, ok} said beside the button.
  const [resent, setResent] = useState(null);
  const [resending, setResending] = useState(false);
  // The answers of registering and logging in carry no settings: read them once the panel opens. Until that
  // answer is in, the vacation switch waits: its days held are unknown, and an answer read after a click
  // would put back the state from before it.
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    playersApi
      .me()
      .then((p) => {
        me.set(p);
        setFields((f) => ({
          ...f,
          time_zone: p.time_zone || f.time_zone,
          email: p.email || f.email,
          lang: p.lang || f.lang,
          notify: { ...(p.notify || {}), ...f.notify },
        }));
      })
      .catch(() => {})
      .finally(() => setLoaded(true));
  }, []);
  const vacation = player.vacation || { on: false, days_left: 0 };
  const days = Math.floor(vacation.days_left * 10) / 10;

  async function save(e) {
    e.preventDefault();
    setError(null);
    try {
      const body = { time_zone: fields.time_zone, lang: fields.lang, notify: fields.notify };
      if (!player.guest) body.email = fields.email;
      me.set(await playersApi.patchMe(body));
      setDone(t("settingsSaved"));
    } catch (exc) {
      setError(errorWords(exc));
    }
  }

  async function resend() {
    setResent(null);
    setResending(true);
    try {
      await playersApi.resendVerification();
      setResent({ text: t("emailResent", player.email), ok: true });
    } catch (exc) {
      if (exc?.code === "email-verified") me.set(await playersApi.me().catch(() => player));
      setResent({ text: exc?.code === "too-many-requests" ? t("emailResendLimit") : errorWords(exc), ok: false });
    } finally {
      setResending(false);
    }
  }

  async function toggleVacation() {
    setError(null);
    try {
      me.set(await (vacation.on ? playersApi.endVacation() : playersApi.startVacation()));
    } catch (exc) {
      setError(errorWords(exc));
    }
  }

  return (
    <form class="account-form away" onSubmit={save} data-testid="form-away">
      <button
        type="button"
        class={vacation.on ? "vacation on" : "vacation"}
        aria-pressed={vacation.on ? "true" : "false"}
        onClick={toggleVacation}
        disabled={!loaded}
        data-testid="vacation"
      >
        {vacation.on ? t("vacationOn", days) : t("vacationOff", days)}
      </button>
      <label>
        <span>{t("timeZone")}</span>
        <input
          name="time-zone"
          value={fields.time_zone}
          onInput={(e) => setFields({ ...fields, time_zone: e.currentTarget.value })}
          maxLength={64}
          data-testid="time-zone"
        />
        {zone && <small>{t("timeZoneHint", zone)}</small>}
      </label>
      {!player.guest && (
        <label>
          <span>{t("emailLabel")}</span>
          <input
            name="email"
            type="email"
            value={fields.email}
            onInput={(e) => setFields({ ...fields, email: e.currentTarget.value })}
            maxLength={254}
            autocomplete="email"
          />
          {player.email && player.email_bounced && (
            <small class="warn" role="alert" data-testid="email-bounced">
              {t("emailBounced")}
            </small>
          )}
          {player.email && !player.email_verified && !player.email_bounced && <small>{t("emailUnverified")}</small>}
        </label>
      )}
      {!player.guest && player.email && !player.email_verified && !player.email_bounced && (
        <p class="email-resend">
          <button type="button" class="link" onClick={resend} disabled={resending} data-testid="email-resend">
            {t("emailResend")}
          </button>
          {resent && (
            <small class={resent.ok ? "note" : "warn"} role={resent.ok ? "status" : "alert"} data-testid="email-resent">
              {resent.text}
            </small>
          )}
        </p>
      )}
      <label>
        <span>{t("emailLang")}</span>
        <select name="lang" value={fields.lang} onChange={(e) => setFields({ ...fields, lang: e.currentTarget.value })}>
          <option value="en">English</option>
          <option value="fr">Français</option>
        </select>
      </label>
      <fieldset class="notify-prefs">
        <legend>{t("notifications")}</legend>
        {KINDS.map((kind) => (
          <label key={kind}>
            <span>{tn("notifyKinds", kind)}</span>
            <select
              name={`notify-${kind}`}
              value={fields.notify[kind] || "off"}
              onChange={(e) => setFields({ ...fields, notify: { ...fields.notify, [kind]: e.currentTarget.value } })}
            >
              {PREFS.map((p) => (
                <option key={p} value={p}>
                  {tn("notifyPrefs", p)}
                </option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      <button type="submit" data-testid="away-submit">
        {t("save")}
      </button>
      <button type="button" class="link" onClick={onClose}>
        {t("cancel")}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p class="note" role="status">
          {done}
        </p>
      )}
    </form>
  );
}
