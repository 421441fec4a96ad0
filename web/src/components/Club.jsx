// Clubs (docs/clubs.md): the list of clubs with the form to create one (/c), a club's page (/c/<slug>) with its
// members by rank, their games in progress and results, its announcements, its ladder and, for its admins, the
// tools to run it; and the clubs a player page lists. Every text from users is rendered as text.
import { useEffect, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { clubApi } from "../clubApi.js";
import { useSignal } from "../hooks.js";
import { errorWords, lang, resultWords, t, tn } from "../i18n.js";
import { me } from "../players.js";
import { ClubAdmin } from "./ClubAdmin.jsx";
import { ClubLadder } from "./ClubLadder.jsx";
import { ClubBoards } from "./DemoBoards.jsx";
import "../club.css";

/** A club refusal in the page's words (the club's own codes), else the app's. */
export function clubError(e) {
  return (e && tn("clubSays", e.code)) || errorWords(e);
}

/** A club refusal shown where it happened. */
export function ClubNote({ error }) {
  if (!error) return null;
  return (
    <p class="error" role="alert" data-testid="club-error" data-code={error.code} data-field={error.field || ""}>
      {clubError(error)}
    </p>
  );
}

export const clubHref = (slug) => `${ROOT}c/${encodeURIComponent(slug)}`;
const playerHref = (name) => `${ROOT}p/${encodeURIComponent(name)}`;
const gameHref = (id) => `${ROOT}g/${encodeURIComponent(id)}`;

/** A date in the page's language. */
export function dateOf(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(lang.get() === "fr" ? "fr-FR" : "en-GB", {
    day: "numeric", month: "short", year: "numeric",
  });
}

function ClubLines({ list, testid }) {
  return (
    <ul class="club-list" data-testid={testid}>
      {list.map((c) => (
        <li key={c.slug}>
          <a href={clubHref(c.slug)}>{c.name}</a>
          {c.code && <span class="club-code"> {c.code}</span>}
          {c.city && <span class="muted"> · {c.city}</span>}
          {c.members > 0 && <span class="muted"> · {t("clubMembersCount", c.members)}</span>}
          {c.role === "admin" && <span class="club-badge"> {t("clubAdmin")}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The clubs' list (/c): every club, the caller's own, and the form to create one. */
export function ClubList({ onOpen }) {
  const player = useSignal(me);
  const [all, setAll] = useState(null);
  const [mine, setMine] = useState([]);
  const [error, setError] = useState(null);
  const [form, setForm] = useState({ name: "", code: "", city: "" });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    clubApi.list().then((d) => setAll(d.clubs), setError);
  }, []);
  useEffect(() => {
    if (player?.id && !player.guest) clubApi.list(true).then((d) => setMine(d.clubs), () => setMine([]));
  }, [player?.id]);

  async function create(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const club = await clubApi.create({ name: form.name, code: form.code || null, city: form.city });
      onOpen(club.slug);
    } catch (exc) {
      setError(exc);
    } finally {
      setBusy(false);
    }
  }

  const field = (key) => ({
    value: form[key],
    onInput: (e) => setForm({ ...form, [key]: e.currentTarget.value }),
  });
  return (
    <div class="club">
      {mine.length > 0 && (
        <section class="club-box">
          <h2>{t("clubMine")}</h2>
          <ClubLines list={mine} testid="my-clubs" />
        </section>
      )}
      <section class="club-box">
        <h2>{t("clubListTitle")}</h2>
        {all === null ? <p>…</p> : all.length === 0 ? <p class="muted">{t("clubNone")}</p> : <ClubLines list={all} testid="club-list" />}
      </section>
      <section class="club-box">
        <h2>{t("clubCreateTitle")}</h2>
        {!player?.id || player.guest ? (
          <p class="muted">{t("clubCreateRegister")}</p>
        ) : (
          <form class="club-form" onSubmit={create} data-testid="club-create">
            <label>
              {t("clubName")}
              <input required maxLength={60} {...field("name")} data-testid="club-name" />
            </label>
            <label>
              {t("clubCode")}
              <input maxLength={4} size={5} {...field("code")} data-testid="club-code" placeholder="38Gr" />
            </label>
            <label>
              {t("clubCity")}
              <input maxLength={80} {...field("city")} data-testid="club-city" />
            </label>
            <button type="submit" class="button primary" disabled={busy} data-testid="club-create-submit">
              {t("clubCreate")}
            </button>
          </form>
        )}
        <ClubNote error={error} />
      </section>
    </div>
  );
}

function rankOf(m) {
  return m.rank ? `${m.rank}${m.provisional ? "?" : ""}` : "–";
}

function Members({ club, onChange, onError }) {
  const admin = club.you.role === "admin";
  const act = (fn) => () => fn().then(onChange, onError);
  return (
    <section class="club-box" aria-labelledby="club-members-title">
      <h3 id="club-members-title">{t("clubMembersTitle", club.members.length)}</h3>
      <table class="club-table" data-testid="club-members">
        <thead>
          <tr>
            <th>{t("clubPlayer")}</th>
            <th>{t("clubRank")}</th>
            <th>{t("clubLicence")}</th>
            {admin && <th><span class="visually-hidden">{t("clubActions")}</span></th>}
          </tr>
        </thead>
        <tbody>
          {club.members.map((m) => (
            <tr key={m.name}>
              <td>
                <a href={playerHref(m.name)}>{m.name}</a>
                {m.role === "admin" && <span class="club-badge"> {t("clubAdmin")}</span>}
              </td>
              <td title={m.earned ? t("clubRankEarned") : ""}>{rankOf(m)}</td>
              <td>{m.licence || ""}</td>
              {admin && (
                <td class="club-actions">
                  {m.name !== me.get()?.name && (
                    <>
                      <button type="button" class="link" onClick={act(() => clubApi.setRole(club.slug, m.name, m.role === "admin" ? "member" : "admin"))}>
                        {m.role === "admin" ? t("clubUnadmin") : t("clubMakeAdmin")}
                      </button>{" "}
                      <button type="button" class="link" onClick={act(() => clubApi.drop(club.slug, m.name))}>
                        {t("clubRemove")}
                      </button>
                    </>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {admin && club.requests.length > 0 && (
        <>
          <h4>{t("clubRequests")}</h4>
          <ul class="club-list" data-testid="club-requests">
            {club.requests.map((m) => (
              <li key={m.name}>
                {m.name} ({rankOf(m)}){" "}
                <button type="button" class="button" onClick={act(() => clubApi.setRole(club.slug, m.name, "member"))} data-testid={`accept-${m.name}`}>
                  {t("clubAccept")}
                </button>{" "}
                <button type="button" class="link" onClick={act(() => clubApi.drop(club.slug, m.name))}>
                  {t("clubRefuse")}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function GameList({ title, games, testid }) {
  return (
    <section class="club-box">
      <h3>{title}</h3>
      {games.length === 0 ? (
        <p class="muted">{t("clubNoGames")}</p>
      ) : (
        <ul class="club-list" data-testid={testid}>
          {games.map((g) => (
            <li key={g.id}>
              <a href={gameHref(g.id)}>
                {g.black || "?"} – {g.white || "?"}
              </a>
              <span class="muted">
                {" "}· {g.size}×{g.size}
                {g.result ? ` · ${resultWords(g.result, lang.get())}` : ""} · {dateOf(g.at)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Where the reader stands in the club: join (by the link's code or by request), the request waiting, the FFG
 *  line proposed to them, leave. */
function YouBar({ club, invite, onChange, onError }) {
  const player = useSignal(me);
  const you = club.you;
  const act = (fn) => () => fn().then(onChange, onError);
  if (!player?.id || player.guest) return <p class="muted" data-testid="club-you">{t("clubJoinRegister")}</p>;
  return (
    <div class="club-you" data-testid="club-you">
      {you.role === null && (
        <button type="button" class="button primary" onClick={act(() => clubApi.join(club.slug, invite))} data-testid="club-join">
          {invite ? t("clubJoin") : t("clubAsk")}
        </button>
      )}
      {you.role === "requested" && <p class="muted">{t("clubRequested")}</p>}
      {you.proposal && (
        <p class="club-proposal" data-testid="club-proposal">
          {t("clubProposal", you.proposal.name, you.proposal.licence, you.proposal.rank || "")}{" "}
          <button type="button" class="button" onClick={act(() => clubApi.answer(club.slug, you.proposal.licence, true))} data-testid="proposal-yes">
            {t("clubProposalYes")}
          </button>{" "}
          <button type="button" class="link" onClick={act(() => clubApi.answer(club.slug, you.proposal.licence, false))}>
            {t("clubProposalNo")}
          </button>
        </p>
      )}
      {(you.role === "member" || you.role === "admin") && (
        <p>
          {you.role === "admin" ? t("clubYouAdmin") : t("clubYouMember")}{" "}
          <button type="button" class="link" onClick={act(() => clubApi.drop(club.slug, player.name))} data-testid="club-leave">
            {t("clubLeave")}
          </button>
        </p>
      )}
    </div>
  );
}

/** A club's page (/c/<slug>); `invite`: the invitation code of the link that opened it. */
export function ClubPage({ slug, invite }) {
  const player = useSignal(me);
  const [club, setClub] = useState(null);
  const [error, setError] = useState(null);
  const [version, setVersion] = useState(0);

  async function reload() {
    try {
      setClub(await clubApi.get(slug));
      setVersion((v) => v + 1);
      setError(null);
    } catch (exc) {
      setError(exc);
    }
  }
  useEffect(() => {
    reload();
  }, [slug, player?.id]);

  if (!club) return error ? <div class="club"><ClubNote error={error} /></div> : <p class="card">…</p>;
  return (
    <div class="club" data-testid="club-page">
      <section class="club-box club-head">
        <h2 data-testid="club-title">
          {club.name} {club.code && <span class="club-code">{club.code}</span>}
        </h2>
        {club.city && <p class="muted">{club.city}</p>}
        {club.description && <p class="club-description">{club.description}</p>}
        {club.link && (
          <p>
            <a href={club.link} rel="nofollow noopener noreferrer" target="_blank">{club.link}</a>
          </p>
        )}
        <YouBar club={club} invite={invite} onChange={reload} onError={setError} />
        <ClubNote error={error} />
      </section>
      {club.announcements.length > 0 && (
        <section class="club-box">
          <h3>{t("clubAnnouncements")}</h3>
          <ul class="club-announcements" data-testid="club-announcements">
            {club.announcements.map((a) => (
              <li key={a.id}>
                <p class="club-description">{a.text}</p>
                <small class="muted">{a.by} · {dateOf(a.at)}</small>
              </li>
            ))}
          </ul>
        </section>
      )}
      <ClubLadder club={club} version={version} onChange={reload} />
      {club.you.role && <ClubBoards club={club} />}
      {club.tournaments.length > 0 && (
        <section class="club-box">
          <h3>{t("clubTournaments")}</h3>
          <ul class="club-list" data-testid="club-tournaments">
            {club.tournaments.map((x) => (
              <li key={x.id}>
                <a href={`${ROOT}t/${encodeURIComponent(x.id)}`}>{x.name}</a>
                <span class="muted"> · {dateOf(x.at)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Members club={club} onChange={reload} onError={setError} />
      <GameList title={t("clubLive")} games={club.live} testid="club-live" />
      <GameList title={t("clubRecent")} games={club.recent} testid="club-recent" />
      {club.you.role === "admin" && <ClubAdmin club={club} onChange={reload} />}
    </div>
  );
}

/** The clubs a player page lists (nothing when the player is in none). */
export function PlayerClubs({ name }) {
  const [clubs, setClubs] = useState([]);
  useEffect(() => {
    clubApi.playerClubs(name).then((d) => setClubs(d.clubs), () => setClubs([]));
  }, [name]);
  if (clubs.length === 0) return null;
  return (
    <section class="lobby-list" data-testid="player-clubs">
      <h3>{t("clubPlayerClubs")}</h3>
      <ClubLines list={clubs} testid="player-club-list" />
    </section>
  );
}
