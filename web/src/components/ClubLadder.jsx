// A club's ladder (docs/clubs.md, The ladder): the members in order, a "challenge" button on the places within the
// club's reach above the reader's own, the challenges in progress (the defender accepts, the challenger
// withdraws, a game in progress is linked) and the last ones ended.
import { useEffect, useState } from "preact/hooks";
import { ROOT } from "../api.js";
import { clubApi } from "../clubApi.js";
import { useSignal } from "../hooks.js";
import { t, tn } from "../i18n.js";
import { me } from "../players.js";
import { ClubNote, dateOf } from "./Club.jsx";

export function ClubLadder({ club, version, onChange }) {
  const player = useSignal(me);
  const [lad, setLad] = useState(null);
  const [error, setError] = useState(null);

  async function reload() {
    try {
      setLad(await clubApi.ladder(club.slug));
    } catch (exc) {
      setError(exc);
    }
  }
  useEffect(() => {
    reload();
  }, [club.slug, version]);

  const act = (fn) => async () => {
    setError(null);
    try {
      setLad(await fn());
      onChange?.();
    } catch (exc) {
      setError(exc);
    }
  };
  if (!lad) return null;
  const myName = player?.name;
  const mine = lad.ladder.find((r) => r.name === myName)?.place ?? null;
  const member = club.you.role === "member" || club.you.role === "admin";
  const busy = new Set(lad.challenges.filter((c) => c.status === "open" || c.status === "playing").flatMap((c) => [c.challenger, c.defender]));
  const live = lad.challenges.filter((c) => c.status === "open" || c.status === "playing");
  const ended = lad.challenges.filter((c) => c.status !== "open" && c.status !== "playing").slice(0, 5);
  const s = lad.settings;
  return (
    <section class="club-box" aria-labelledby="club-ladder-title" data-testid="club-ladder">
      <h3 id="club-ladder-title">{t("clubLadder")}</h3>
      <p class="muted">{t("clubLadderRules", s.reach, s.days, tn("clubSpeeds", s.speed), s.size)}</p>
      <ol class="club-ladder">
        {lad.ladder.map((r) => {
          const reachable = member && mine !== null && r.place < mine && mine - r.place <= s.reach && !busy.has(myName) && !busy.has(r.name);
          return (
            <li key={r.name} class={r.name === myName ? "me" : ""}>
              <span class="place">{r.place}</span> {r.name}
              {r.rank && <span class="muted"> {r.rank}</span>}
              {reachable && (
                <>
                  {" "}
                  <button type="button" class="button small" onClick={act(() => clubApi.challenge(club.slug, r.name))} data-testid={`challenge-${r.name}`}>
                    {t("clubChallenge")}
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ol>
      <ClubNote error={error} />
      <h4>{t("clubChallenges")}</h4>
      {live.length === 0 ? (
        <p class="muted">{t("clubNoChallenges")}</p>
      ) : (
        <ul class="club-list" data-testid="club-challenges">
          {live.map((c) => (
            <li key={c.id} data-status={c.status}>
              {t("clubChallengeLine", c.challenger, c.defender)}{" "}
              {c.status === "open" ? (
                <span class="muted">{t("clubAnswerBy", dateOf(c.due_at))}</span>
              ) : (
                <a href={`${ROOT}g/${encodeURIComponent(c.game)}`} data-testid="ladder-game">{t("clubWatchGame")}</a>
              )}
              {c.status === "open" && c.defender === myName && (
                <>
                  {" "}
                  <button type="button" class="button primary small" onClick={act(() => clubApi.accept(club.slug, c.id))} data-testid="challenge-accept">
                    {t("clubAcceptChallenge")}
                  </button>
                </>
              )}
              {c.status === "open" && c.challenger === myName && (
                <>
                  {" "}
                  <button type="button" class="link" onClick={act(() => clubApi.withdraw(club.slug, c.id))}>
                    {t("clubWithdraw")}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {ended.length > 0 && (
        <ul class="club-list muted" data-testid="club-ended">
          {ended.map((c) => (
            <li key={c.id} data-status={c.status}>
              {t("clubChallengeLine", c.challenger, c.defender)} · {tn("clubOutcomes", c.status)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
