// The home page: who is waiting for a game (open challenges), my games, games in
// progress to watch, recently finished games, and the new-game form. The lists
// come from the lobby socket (players.js) and change without a reload.
import { Fragment } from "preact";
import { ClubGames } from "./ClubGames.jsx";
import { useEffect, useState } from "preact/hooks";
import { ROOT, api } from "../api.js";
import { useServerNow, useSignal } from "../hooks.js";
import { clockSettings, errorWords, resultCode, t, tn } from "../i18n.js";
import { lobby, me, playersApi, waitsForMe } from "../players.js";
import { summaryClockText } from "../time.js";
import { Automatch, automatchApi, automatchWait, waited } from "./Automatch.jsx";
import { RatingChange } from "./RatingChange.jsx";
import { NewGame } from "./NewGame.jsx";
import { colorName } from "./game/names.js";
import { PlayerLink } from "./PlayerLink.jsx";
import { RankFilter, passes, useRankFilter } from "./RankFilter.jsx";
import { DemoBoards } from "./DemoBoards.jsx";
import { modApi } from "../moderationApi.js";

const gameUrl = (id) => `${ROOT}g/${encodeURIComponent(id)}`;
const reviewUrl = (id) => `${ROOT}review?game=${encodeURIComponent(id)}`;

/** "Black vs White" of a game summary, each name linked to the player's page. */
export function Versus({ g }) {
  return (
    <span class="who">
      <Who p={g.players.B} /> {t("vs")} <Who p={g.players.W} />
    </span>
  );
}

function Who({ p }) {
  return <PlayerLink p={p} fallback={t("freeSeat")} />;
}

/** The links of a finished game: its review and its SGF record. */
export function FinishedLinks({ g }) {
  return (
    <span class="links">
      <a href={reviewUrl(g.id)}>{t("review")}</a>{" "}
      <a href={api.sgfUrl(g.id)} download={`keima-${g.id}.sgf`}>
        {t("download")}
      </a>
    </span>
  );
}

function settings(g) {
  const rules = tn("rulesetNames", g.rules) ?? g.rules;
  return t("settingsLine", rules, g.komi, g.handicap, g.size);
}

/** The time control with its main time ("30 min + 3 × 10 s byo-yomi"), in the page's language. */
function clockText(g) {
  return g.clock ? clockSettings(g.clock) : t("noClock");
}

/** A finished game's result: in words, then as players write it ("B+1.5", "N+1,5") where they do. */
function resultLine(re) {
  if (!re) return "";
  const code = resultCode(re);
  return code ? `${t("resultText", re)} (${code})` : t("resultText", re);
}

/**
 * Both sides' time left in a game of the list, in the game page's words, the running side
 * counting down from the server's time of the reading (nothing for a game without a clock).
 */
function SummaryClocks({ g, readAt }) {
  const ticking = ["B", "W"].some((c) => g.time_left && g.time_left[c] > 0) && g.status === "live";
  const now = useServerNow(ticking, 500);
  if (!g.time_left) return null;
  return (
    <span class="lobby-clocks">
      {["B", "W"].map((c) => {
        const text = summaryClockText(g, c, now, readAt);
        if (text === null) return null;
        const name = c === "B" ? t("black") : t("white");
        return (
          <Fragment key={c}>
            {" "}
            <span class="lobby-clock" data-testid={`lobby-clock-${c}`} aria-label={t("labelled", t("clockLeft", name), text)}>
              <span class={`stone-icon ${c}`} aria-hidden="true"></span>
              {text}
              {/* A correspondence clock standing still says why (as the game page does). */}
              {g.paused?.[c] && ` (${t(g.paused[c] === "weekend" ? "pausedWeekend" : "pausedVacation")})`}
            </span>
          </Fragment>
        );
      })}
    </span>
  );
}

/** "My games"' line of an account's wait for a correspondence automatch game, with its Cancel. */
function CorrespondenceWait() {
  const wait = useSignal(automatchWait);
  // Counted on this device's clock from the server's answer (the server's own clock may be set apart from it).
  const [now, setNow] = useState(Date.now());
  const [at, setAt] = useState(Date.now());
  useEffect(() => setAt(Date.now()), [wait]);
  useEffect(() => {
    if (!wait) return undefined;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [wait]);
  if (!wait || wait.page_needed !== false) return null;
  const since = Math.max(0, Math.round((wait.waited_s ?? 0) + (now - at) / 1000));
  return (
    <p class="corr-wait" data-testid="corr-wait">
      {t("automatchCorrWaiting", (wait.sizes || []).map((n) => `${n}×${n}`).join(", "), waited(since))}{" "}
      <button
        type="button"
        onClick={() => automatchApi.cancel().catch(() => {}).then(() => automatchWait.set(null))}
        data-testid="corr-wait-cancel"
      >
        {t("automatchCancel")}
      </button>
    </p>
  );
}

function Section({ id, title, empty, games, row, children }) {
  return (
    <section class="lobby-list" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      {games.length ? <ul>{games.map(row)}</ul> : <p class="empty">{empty}</p>}
    </section>
  );
}

/** The button that takes the free seat of an open challenge, then opens the game. */
export function AcceptButton({ id, label }) {
  const [error, setError] = useState(null);
  async function accept() {
    setError(null);
    try {
      await playersApi.joinOpen(id);
      location.assign(gameUrl(id));
    } catch (exc) {
      setError(errorWords(exc));
    }
  }
  return (
    <>
      <button type="button" onClick={accept} data-testid={`accept-${id}`}>
        {label || t("accept")}
      </button>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

export function Lobby({ onCreated }) {
  const lists = useSignal(lobby);
  const player = useSignal(me);
  const open = lists?.open || [];
  const mine = lists?.mine || [];
  const live = lists?.live || [];
  const finished = lists?.finished || [];
  const myId = player?.id;
  const readAt = lists?.readAt;
  const [myFinished, setMyFinished] = useState([]);

  // The player's finished games: read again when the player changes or one of their games ends.
  const finishedKey = `${myId}:${finished.map((g) => g.id).join(",")}`;
  useEffect(() => {
    if (!myId) return;
    playersApi.myGames("finished").then(
      (r) => setMyFinished(r.games || []),
      () => setMyFinished([]),
    );
  }, [finishedKey]);
  const isMine = (g) => mine.some((m) => m.id === g.id);
  // The players this one blocked: their challenges are not offered (joining one is refused anyway).
  const [blocked, setBlocked] = useState(() => new Set());
  useEffect(() => {
    if (!myId || player?.guest) return setBlocked(new Set());
    modApi.blocks().then((r) => setBlocked(new Set(r.blocks.map((b) => b.name))), () => setBlocked(new Set()));
  }, [myId]);
  // Open challenges by their challenger's rank (the player's own always shown).
  const [rankFilter, setRankFilter] = useRankFilter();
  const challenger = (g) => g.players[g.players.B ? "B" : "W"];
  const offered = open.filter((g) => isMine(g) || !blocked.has(challenger(g)?.name));
  const shownOpen = offered.filter((g) => isMine(g) || passes(rankFilter, challenger(g)));

  return (
    <div class="lobby">
      <div class="lobby-lists">
        <Automatch />
        <ClubGames />
        <Section
          id="lobby-open"
          title={t("lobbyOpen")}
          empty={t("lobbyOpenEmpty")}
          games={shownOpen}
          row={(g) => {
            const side = g.players.B ? "B" : "W";
            return (
              <li key={g.id} data-game={g.id}>
                <span class="who">
                  <Who p={g.players[side]} />{" "}
                  <span class="creator-color" data-testid={`creator-color-${g.id}`}>
                    <span class={`stone-icon ${side}`} aria-hidden="true"></span>
                    {t("createdAs", colorName(side))}
                  </span>
                </span>
                <span class="what">
                  {settings(g)}, {clockText(g)}
                  {g.rated && (
                    <>
                      {" · "}
                      <strong class="rated-mark" data-testid={`rated-${g.id}`}>{t("ratedGame")}</strong>
                    </>
                  )}
                </span>
                {isMine(g) ? (
                  <a href={gameUrl(g.id)}>{t("resume")}</a>
                ) : (
                  <AcceptButton id={g.id} />
                )}
              </li>
            );
          }}
        >
          {offered.length > 0 && (
            <RankFilter filter={rankFilter} setFilter={setRankFilter} hidden={offered.length - shownOpen.length} />
          )}
        </Section>
        {player && (
          <Section
            id="lobby-mine"
            title={t("myGames")}
            empty={t("myGamesEmpty")}
            games={mine}
            row={(g) => {
              const mineTurn = waitsForMe(g) || (g.you.length === 2 && g.status === "live" && g.phase === "play");
              const other = g.you.includes("B") ? g.players.W : g.players.B;
              return (
                <li key={g.id} data-game={g.id} class={mineTurn ? "my-turn" : ""}>
                  <span class="who">
                    {t("vs")} {g.you.length === 2 ? player.name : <Who p={other} />}
                  </span>
                  <span class="what">
                    {t("moveNo", g.moves)} ·{" "}
                    {g.phase === "scoring" ? t("countingShort") : mineTurn ? t("yourTurnShort") : t("theirTurn")}
                    {g.time_left && " ·"}
                    <SummaryClocks g={g} readAt={readAt} />
                  </span>
                  <a href={gameUrl(g.id)} class="button" data-testid={`open-${g.id}`}>
                    {t("resume")}
                  </a>
                </li>
              );
            }}
          >
            <CorrespondenceWait />
          </Section>
        )}
        {player && myFinished.length > 0 && (
          <Section
            id="lobby-my-finished"
            title={t("myFinished")}
            empty=""
            games={myFinished.slice(0, 10)}
            row={(g) => (
              <li key={g.id} data-game={g.id}>
                <Versus g={g} />
                <span class="what">
                  {resultLine(g.result)}
                  {g.rated && ` · ${t("ratedGame")}`}
                  {g.you.length === 1 && typeof g.rating_change?.[g.you[0]] === "number" && (
                    <RatingChange points={g.rating_change[g.you[0]]} testid={`my-rating-change-${g.id}`} />
                  )}
                </span>
                <FinishedLinks g={g} />
              </li>
            )}
          />
        )}
        <Section
          id="lobby-live"
          title={t("lobbyLive")}
          empty={t("lobbyLiveEmpty")}
          games={live}
          row={(g) => (
            <li key={g.id} data-game={g.id}>
              <Versus g={g} />
              <span class="what">
                {g.size}×{g.size} · {t("moveNo", g.moves)} · {t("spectatorsN", g.spectators)}
                {g.time_left && " ·"}
                <SummaryClocks g={g} readAt={readAt} />
              </span>
              <a href={gameUrl(g.id)} data-testid={`watch-${g.id}`}>
                {t("watch")}
              </a>
            </li>
          )}
        />
        <Section
          id="lobby-finished"
          title={t("lobbyFinished")}
          empty={t("lobbyFinishedEmpty")}
          games={finished}
          row={(g) => (
            <li key={g.id} data-game={g.id}>
              <Versus g={g} />
              <span class="what">
                {g.size}×{g.size} · {resultLine(g.result)}
                {g.rated && ` · ${t("ratedGame")}`}
              </span>
              <FinishedLinks g={g} />
            </li>
          )}
        />
        <DemoBoards />
      </div>
      <section class="lobby-new" aria-label={t("createGame")}>
        <NewGame onCreated={onCreated} />
      </section>
    </div>
  );
}
