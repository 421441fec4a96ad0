// A club's tools for its admins (docs/clubs.md): the invitation link, the club's details and ladder rules, an
// announcement to the members' bells, and the FFG rating list's lines of the club's code proposed to accounts.
import { useEffect, useState } from "preact/hooks";
import { clubApi } from "../clubApi.js";
import { t, tn } from "../i18n.js";
import { ClubNote, clubHref } from "./Club.jsx";

function Announce({ club, onChange }) {
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  async function send(e) {
    e.preventDefault();
    try {
      await clubApi.announce(club.slug, text);
      setText("");
      setError(null);
      onChange();
    } catch (exc) {
      setError(exc);
    }
  }
  return (
    <form class="club-form" onSubmit={send} data-testid="club-announce">
      <label class="wide">
        {t("clubAnnounce")}
        <textarea rows={3} maxLength={1000} value={text} onInput={(e) => setText(e.currentTarget.value)} data-testid="club-announce-text" />
      </label>
      <button type="submit" class="button" disabled={!text.trim()} data-testid="club-announce-send">{t("clubSend")}</button>
      <ClubNote error={error} />
    </form>
  );
}

function Settings({ club, onChange }) {
  const [f, setF] = useState(() => ({ city: club.city, description: club.description, link: club.link || "",
    code: club.code || "", ...club.ladder_settings }));
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  const field = (key, number = false) => ({
    value: f[key],
    onInput: (e) => setF({ ...f, [key]: number ? Number(e.currentTarget.value) : e.currentTarget.value }),
  });
  async function save(e) {
    e.preventDefault();
    try {
      await clubApi.patch(club.slug, { city: f.city, description: f.description, link: f.link, code: f.code || null,
        ladder: { reach: f.reach, days: f.days, speed: f.speed, size: Number(f.size) } });
      setError(null);
      setSaved(true);
      onChange();
    } catch (exc) {
      setError(exc);
      setSaved(false);
    }
  }
  return (
    <form class="club-form" onSubmit={save} data-testid="club-settings">
      <label>{t("clubCity")}<input maxLength={80} {...field("city")} /></label>
      <label>{t("clubCode")}<input maxLength={4} size={5} {...field("code")} data-testid="club-settings-code" /></label>
      <label class="wide">{t("clubLink")}<input type="url" maxLength={300} {...field("link")} /></label>
      <label class="wide">{t("clubDescription")}<textarea rows={3} maxLength={2000} {...field("description")} /></label>
      <label>{t("clubReach")}<input type="number" min={1} max={20} {...field("reach", true)} /></label>
      <label>{t("clubDays")}<input type="number" min={1} max={30} {...field("days", true)} /></label>
      <label>
        {t("clubSpeed")}
        <select {...field("speed")} data-testid="club-settings-speed">
          {["correspondence", "live"].map((s) => <option key={s} value={s}>{tn("clubSpeeds", s)}</option>)}
        </select>
      </label>
      <label>
        {t("clubSize")}
        <select {...field("size", true)}>
          {[19, 13, 9].map((n) => <option key={n} value={n}>{n}×{n}</option>)}
        </select>
      </label>
      <button type="submit" class="button" data-testid="club-settings-save">{t("clubSave")}</button>
      {saved && <span class="muted" role="status">{t("clubSaved")}</span>}
      <ClubNote error={error} />
    </form>
  );
}

function Imports({ club }) {
  const [text, setText] = useState("");
  const [lines, setLines] = useState(null);
  const [added, setAdded] = useState(null);
  const [accounts, setAccounts] = useState({});
  const [error, setError] = useState(null);
  useEffect(() => {
    clubApi.imports(club.slug).then((d) => setLines(d.lines), setError);
  }, [club.slug]);
  const run = (fn) => async (e) => {
    e?.preventDefault();
    try {
      const d = await fn();
      setLines(d.lines);
      if (typeof d.added === "number" && text) setAdded(d.added);
      setError(null);
    } catch (exc) {
      setError(exc);
    }
  };
  return (
    <div data-testid="club-imports">
      <form class="club-form" onSubmit={run(() => clubApi.importList(club.slug, text))}>
        <label class="wide">
          {t("clubImportLabel", club.code || "?")}
          <textarea rows={4} class="mono" value={text} onInput={(e) => setText(e.currentTarget.value)} data-testid="club-import-text" />
        </label>
        <button type="submit" class="button" disabled={!text.trim()} data-testid="club-import-send">{t("clubImport")}</button>
        {added !== null && <span class="muted" role="status">{t("clubImported", added)}</span>}
      </form>
      <ClubNote error={error} />
      {lines && lines.length > 0 && (
        <table class="club-table" data-testid="club-import-lines">
          <thead>
            <tr><th>{t("clubLicence")}</th><th>{t("clubPlayer")}</th><th>{t("clubRank")}</th><th>{t("clubAccount")}</th></tr>
          </thead>
          <tbody>
            {lines.map((ln) => (
              <tr key={ln.licence}>
                <td>{ln.licence}</td>
                <td>{ln.name}</td>
                <td>{ln.rank || ""}</td>
                <td>
                  {ln.status === "confirmed" ? (
                    <span>{ln.account} ✓</span>
                  ) : (
                    <form class="inline" onSubmit={run(() => clubApi.propose(club.slug, ln.licence, accounts[ln.licence] || ln.account || null))}>
                      <input size={10} maxLength={40} aria-label={t("clubAccount")} value={accounts[ln.licence] ?? ln.account ?? ""}
                        onInput={(e) => setAccounts({ ...accounts, [ln.licence]: e.currentTarget.value })} data-testid={`propose-${ln.licence}`} />{" "}
                      <button type="submit" class="button small">{t("clubPropose")}</button>{" "}
                      <span class="muted">{tn("clubImportStatus", ln.status)}</span>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ClubAdmin({ club, onChange }) {
  const [error, setError] = useState(null);
  const link = `${location.origin}${clubHref(club.slug)}?invite=${encodeURIComponent(club.you.code)}`;
  async function newLink() {
    try {
      await clubApi.patch(club.slug, { new_invite: true });
      onChange();
    } catch (exc) {
      setError(exc);
    }
  }
  return (
    <section class="club-box" aria-labelledby="club-admin-title" data-testid="club-admin">
      <h3 id="club-admin-title">{t("clubAdminTitle")}</h3>
      <h4>{t("clubInvite")}</h4>
      <p class="club-invite">
        <input readOnly value={link} aria-label={t("clubInvite")} data-testid="club-invite-link" onFocus={(e) => e.currentTarget.select()} />{" "}
        <button type="button" class="link" onClick={newLink}>{t("clubNewLink")}</button>
      </p>
      <ClubNote error={error} />
      <h4>{t("clubAnnouncements")}</h4>
      <Announce club={club} onChange={onChange} />
      <h4>{t("clubSettings")}</h4>
      <Settings club={club} onChange={onChange} />
      <h4>{t("clubFfg")}</h4>
      <Imports club={club} />
    </section>
  );
}
