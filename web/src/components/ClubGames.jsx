// The lobby's "my clubs" (docs/clubs.md): the challenges offered to the members of the reader's clubs only, each
// taken by its invitation link, and the form to offer one to a club; automatch's choice of a club's members only;
// and the tournament form's choice of a club whose members alone register. Shown to a registered player in a club only.
import { useEffect, useState } from "preact/hooks";
import { ROOT, request } from "../api.js";
import { clubApi } from "../clubApi.js";
import { useSignal } from "../hooks.js";
import { t, tn } from "../i18n.js";
import { me } from "../players.js";
import { ClubNote } from "./Club.jsx";

function useMyClubs() {
  const player = useSignal(me);
  const [clubs, setClubs] = useState([]);
  useEffect(() => {
    if (player?.id && !player.guest) clubApi.list(true).then((d) => setClubs(d.clubs), () => setClubs([]));
    else setClubs([]);
  }, [player?.id, player?.guest]);
  return clubs;
}

export function ClubGames() {
  const clubs = useMyClubs();
  const [games, setGames] = useState([]);
  const [form, setForm] = useState({ club: "", size: 19, speed: "live" });
  const [error, setError] = useState(null);
  useEffect(() => {
    if (clubs.length === 0) return undefined;
    const load = () => request("GET", "api/me/club-games").then((d) => setGames(d.games), () => {});
    load();
    const timer = setInterval(load, 15000);
    return () => clearInterval(timer);
  }, [clubs.length]);
  if (clubs.length === 0) return null;

  async function offer(e) {
    e.preventDefault();
    try {
      const made = await request("POST", `api/clubs/${encodeURIComponent(form.club || clubs[0].slug)}/games`,
        { size: Number(form.size), speed: form.speed, color: "random" });
      location.assign(`${ROOT}g/${encodeURIComponent(made.id)}`);
    } catch (exc) {
      setError(exc);
    }
  }
  return (
    <section class="lobby-list club-games" aria-labelledby="club-games-title" data-testid="club-games">
      <h2 id="club-games-title">{t("clubLobbyTitle")}</h2>
      {games.length === 0 ? (
        <p class="note">{t("clubLobbyEmpty")}</p>
      ) : (
        <ul>
          {games.map((g) => (
            <li key={g.id}>
              {t("clubLobbyLine", g.by, g.club_name, g.size, tn("clubSpeeds", g.speed))}{" "}
              {g.mine ? (
                <a href={`${ROOT}g/${encodeURIComponent(g.id)}`}>{t("clubLobbyYours")}</a>
              ) : (
                <a class="button" href={`${ROOT}g/${encodeURIComponent(g.id)}?invite=${encodeURIComponent(g.code)}`} data-testid="club-game-take">
                  {t("clubLobbyTake")}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
      <form class="club-offer" onSubmit={offer} data-testid="club-offer">
        <label>
          {t("clubLobbyClub")}{" "}
          <select value={form.club || clubs[0].slug} onChange={(e) => setForm({ ...form, club: e.currentTarget.value })}>
            {clubs.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
          </select>
        </label>{" "}
        <select aria-label={t("clubSize")} value={form.size} onChange={(e) => setForm({ ...form, size: e.currentTarget.value })}>
          {[19, 13, 9].map((n) => <option key={n} value={n}>{n}×{n}</option>)}
        </select>{" "}
        <select aria-label={t("clubSpeed")} value={form.speed} onChange={(e) => setForm({ ...form, speed: e.currentTarget.value })}>
          {["live", "correspondence"].map((s) => <option key={s} value={s}>{tn("clubSpeeds", s)}</option>)}
        </select>{" "}
        <button type="submit" class="button">{t("clubLobbyOffer")}</button>
      </form>
      <ClubNote error={error} />
    </section>
  );
}

/** The tournament form's "members of a club only": the clubs the director administers (and the one set). */
export function ClubRestriction({ value, onChange, id }) {
  const clubs = useMyClubs().filter((c) => c.role === "admin");
  if (clubs.length === 0 && !value) return null;
  const known = clubs.some((c) => c.slug === value);
  return (
    <label for={id}>
      {t("clubTournamentOnly")}
      <select id={id} value={value || ""} onChange={(e) => onChange(e.currentTarget.value || null)} data-testid={id}>
        <option value="">{t("clubTournamentAll")}</option>
        {!known && value && <option value={value}>{value}</option>}
        {clubs.map((c) => <option key={c.slug} value={c.slug}>{t("clubTournamentMembers", c.name)}</option>)}
      </select>
    </label>
  );
}

/** Automatch's "with": anyone, or the members of one of the reader's clubs (nothing for a player in no club). */
export function AutomatchClub({ value, onChange }) {
  const clubs = useMyClubs().filter((c) => c.role !== "requested");
  if (clubs.length === 0) return null;
  return (
    <label class="automatch-club">
      {t("clubAutomatchWith")}{" "}
      <select value={value || ""} onChange={(e) => onChange(e.currentTarget.value || null)} data-testid="automatch-club">
        <option value="">{t("clubAutomatchAnyone")}</option>
        {clubs.map((c) => <option key={c.slug} value={c.slug}>{t("clubTournamentMembers", c.name)}</option>)}
      </select>
    </label>
  );
}
