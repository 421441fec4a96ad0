// The automatch panel of the lobby (docs/web-api.md, Automatch): board sizes, speed and
// handicap, then a waiting line with its time and a Cancel button; when the lobby socket says
// "matched" (or the answer has the game at once) the page goes to the game. An account's wait for a
// correspondence game needs no page: the panel says so, and "my games" shows the wait with its own Cancel
// (`automatchWait`, the server's answer while waiting).
import { useEffect, useState } from "preact/hooks";
import { AutomatchClub } from "./ClubGames.jsx";
import { ROOT, api, request } from "../api.js";
import { useSignal } from "../hooks.js";
import { errorWords, t } from "../i18n.js";
import { afterAction, matched, me } from "../players.js";
import { signal } from "../signal.js";
import { formatSeconds } from "../time.js";

const SIZES = [9, 13, 19];
const SPEEDS = ["blitz", "live", "correspondence"];
const SPEED_WORDS = { blitz: "speedBlitz", live: "speedLive", correspondence: "speedCorrespondence" };
// Where the socket's notice may be lost (a reconnection at that moment), the page asks now and then.
const POLL_MS = 5000;

/** The player's wait as the server last said it ({waiting, speed, sizes, page_needed, waited_s}), null when none. */
export const automatchWait = signal(null);

export const automatchApi = {
  enter: (body) => request("POST", "api/automatch", body),
  status: () => request("GET", "api/automatch"),
  cancel: () => request("DELETE", "api/automatch"),
  speeds: () => request("GET", "api/automatch/speeds"),
};

function goTo(id) {
  location.assign(`${ROOT}g/${encodeURIComponent(id)}`);
}

/** "0:07", "1:23", "2:05:00", "1 d 2 h": how long the player has waited. */
export const waited = formatSeconds;

export function Automatch() {
  const player = useSignal(me);
  const found = useSignal(matched);
  const [sizes, setSizes] = useState([9, 19]);
  const [speed, setSpeed] = useState("live");
  const [handicap, setHandicap] = useState(false);
  const [club, setClub] = useState(null); // a club's members only (docs/clubs.md)
  const [since, setSince] = useState(null);
  const [now, setNow] = useState(Date.now());
  const [error, setError] = useState(null);
  const wait = useSignal(automatchWait);
  const waiting = since !== null;
  // "No wait: a bot of my rank" (GET api/bots: the ranked level nearest to the player), at the chosen speed.
  const [forMe, setForMe] = useState(null);
  useEffect(() => {
    api.bots().then((r) => setForMe(r.for_me), () => {});
  }, [player?.id, player?.rank]);

  // A wait cancelled elsewhere on the page ("my games").
  useEffect(() => {
    if (wait === null && waiting) setSince(null);
  }, [wait]);

  useEffect(() => {
    automatchApi.status().then(
      (r) => {
        if (r.game) goTo(r.game);
        // The wait counts from the request (the server's answer), not from this page's load.
        else if (r.waiting) {
          setSince(Date.now() - (r.waited_s ?? 0) * 1000);
          automatchWait.set(r);
        }
      },
      () => {},
    );
  }, []);
  useEffect(() => {
    if (found) goTo(found);
  }, [found]);
  useEffect(() => {
    if (!waiting) return undefined;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const poll = setInterval(() => {
      automatchApi.status().then(
        (r) => {
          if (r.game) goTo(r.game);
          else if (!r.waiting) {
            setSince(null);
            automatchWait.set(null);
          }
        },
        () => {},
      );
    }, POLL_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [waiting]);

  function toggleSize(n, on) {
    setSizes(on ? SIZES.filter((s) => s === n || sizes.includes(s)) : sizes.filter((s) => s !== n));
  }

  async function start(ev) {
    ev.preventDefault();
    setError(null);
    try {
      const r = afterAction(await automatchApi.enter({ sizes, speed, rules: "french", handicap, ...(club ? { club } : {}) }));
      if (r.game) goTo(r.game);
      else {
        setSince(Date.now());
        setNow(Date.now());
        automatchWait.set(r);
      }
    } catch (exc) {
      setError(errorWords(exc));
    }
  }

  async function playBot() {
    setError(null);
    try {
      const clocks = await automatchApi.speeds();
      const registered = player && !player.guest;
      const r = await api.create({
        size: sizes[0],
        rules: "french",
        opponent: "bot",
        bot_level: forMe,
        color: "random",
        clock: clocks[speed],
        rated: !!registered,
      });
      goTo(r.game.id);
    } catch (exc) {
      setError(errorWords(exc));
    }
  }

  async function cancel() {
    setError(null);
    try {
      await automatchApi.cancel();
    } catch (exc) {
      if (exc?.code !== "not-waiting") setError(errorWords(exc));
    }
    setSince(null);
    automatchWait.set(null);
  }

  return (
    <section class="lobby-list automatch" aria-labelledby="automatch-title" data-testid="automatch">
      <h2 id="automatch-title">{t("automatch")}</h2>
      {waiting ? (
        <div class="automatch-waiting" role="status" data-testid="automatch-waiting">
          <span class="spinner" aria-hidden="true"></span>
          <span>{t("automatchWaiting", waited(Math.max(0, Math.round((now - since) / 1000))))}</span>
          <button type="button" onClick={cancel} data-testid="automatch-cancel">
            {t("automatchCancel")}
          </button>
          {wait?.page_needed === false && (
            <p class="note" data-testid="automatch-corr-note">{t("automatchCorrNote")}</p>
          )}
        </div>
      ) : (
        <form class="automatch-form" onSubmit={start}>
          <p class="note">{t("automatchIntro")}</p>
          <fieldset>
            <legend>{t("automatchSizes")}</legend>
            {SIZES.map((n) => (
              <label key={n}>
                <input
                  type="checkbox"
                  checked={sizes.includes(n)}
                  onChange={(e) => toggleSize(n, e.currentTarget.checked)}
                  data-testid={`automatch-size-${n}`}
                />
                {n}×{n}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>{t("automatchSpeed")}</legend>
            {SPEEDS.map((s) => (
              <label key={s}>
                <input
                  type="radio"
                  name="automatch-speed"
                  checked={speed === s}
                  onChange={() => setSpeed(s)}
                  data-testid={`automatch-speed-${s}`}
                />
                {t(SPEED_WORDS[s])}
              </label>
            ))}
          </fieldset>
          <label class="automatch-handicap">
            <input
              type="checkbox"
              checked={handicap}
              onChange={(e) => setHandicap(e.currentTarget.checked)}
              data-testid="automatch-handicap"
            />
            {t("automatchHandicap")}
          </label>
          <AutomatchClub value={club} onChange={setClub} />
          {(!player || player.guest) && <p class="note">{t("automatchGuest")}</p>}
          <button type="submit" disabled={!sizes.length} data-testid="automatch-start">
            {t("automatchStart")}
          </button>
          {forMe && (
            <p class="automatch-bot">
              <button type="button" disabled={!sizes.length} onClick={playBot} data-testid="automatch-bot">
                {t("automatchBot", forMe)}
              </button>
            </p>
          )}
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
