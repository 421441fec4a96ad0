// Entry point: header with the language switch, then the page for the path
// (mount root: the new-game form; <root>/g/<id>: that game).
import "@sabaki/shudan/css/goban.css";
import "./styles.css";
import "./lobby.css";
import "./chart.css";
import "./player.css";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ROOT } from "./api.js";
import { useSignal } from "./hooks.js";
import { ct, lang, LANGUAGES, rt, setLanguage, t, tt } from "./i18n.js";
import { Account } from "./components/Account.jsx";
import { GameView } from "./components/GameView.jsx";
import { Lobby } from "./components/Lobby.jsx";
import { PositionTool } from "./components/PositionTool.jsx";
import { Learn } from "./components/Learn.jsx";
import { Review } from "./components/Review.jsx";
import { PlayerPage } from "./components/PlayerPage.jsx";
import { TournamentList, TournamentPage } from "./components/Tournament.jsx";
import { MyMoves } from "./components/MyMoves.jsx";
import "./moderation.css";
import { StandingNote, useStanding } from "./components/FairPlay.jsx";
import { ModerationPage } from "./components/Moderation.jsx";
import { ClubList, ClubPage } from "./components/Club.jsx";
import { DemoBoard } from "./components/DemoBoard.jsx";
import "./tournament.css";
import { afterAction, myTurns, onScreen } from "./players.js";
import { bareName } from "./components/game/names.js";

/** Up to this many games waiting for a move are named in the header; more are counted only. */
const SHOWN_TURNS = 3;

function currentRoute() {
  const rest = location.pathname.startsWith(ROOT) ? location.pathname.slice(ROOT.length) : "";
  if (/^position\/?$/.test(rest)) return { page: "position" };
  if (/^moderation\/?$/.test(rest)) return { page: "moderation" };
  if (/^(review|learn|moves)\/?$/.test(rest)) return { page: rest.replace("/", "") };
  const player = /^p\/([^/]+)\/?$/.exec(rest);
  if (player) return { page: "player", name: decodeURIComponent(player[1]) };
  if (/^t\/?$/.test(rest)) return { page: "tournaments" };
  if (/^c\/?$/.test(rest)) return { page: "clubs" };
  const cmatch = /^c\/([^/]+)\/?$/.exec(rest);
  if (cmatch) return { page: "club", id: decodeURIComponent(cmatch[1]), invite: new URLSearchParams(location.search).get("invite") };
  const tmatch = /^t\/([^/]+)\/?$/.exec(rest);
  if (tmatch) return { page: "tournament", id: decodeURIComponent(tmatch[1]) };
  const demo = /^d\/([^/]+)\/?$/.exec(rest);
  if (demo) return { page: "demo", id: decodeURIComponent(demo[1]) };
  const match = /^g\/([^/]+)\/?$/.exec(rest);
  if (match) {
    const invite = new URLSearchParams(location.search).get("invite");
    return { page: "game", id: decodeURIComponent(match[1]), invite };
  }
  return { page: "home" };
}

function App() {
  const code = useSignal(lang);
  const [route, setRoute] = useState(currentRoute());
  const turns = useSignal(myTurns);
  const [navOpen, setNavOpen] = useState(false);
  const standing = useStanding();

  useEffect(() => {
    onScreen.set(route.page === "game" ? route.id : null);
    setNavOpen(false);
  }, [route]);

  useEffect(() => {
    document.documentElement.lang = code;
    const base =
      route.page === "game"
        ? `${t("appTitle")} · ${route.id}`
        : route.page === "player"
          ? `${t("appTitle")} · ${route.name}`
          : `${t("appTitle")} · ${t("tagline")}`;
    // Another game waits for the player's move: the tab says so.
    document.title = turns.length ? `${t("turnTitle", turns.length)} ${base}` : base;
  }, [code, route, turns]);

  useEffect(() => {
    const onPop = () => setRoute(currentRoute());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  function onCreated(created) {
    afterAction(created);
    const id = created.game.id;
    if (created.invite?.url) {
      try {
        localStorage.setItem(`keima.invite.${id}`, created.invite.url);
      } catch {
        // storage disabled: the link is not shown again after a reload
      }
    }
    history.pushState(null, "", `${ROOT}g/${encodeURIComponent(id)}`);
    setRoute(currentRoute());
  }

  return (
    <div class="app">
      <header>
        <h1>
          <a href={ROOT}>{t("appTitle")}</a> <small>{t("tagline")}</small>
        </h1>
        <nav>
          <Account where={`${route.page}/${route.id ?? route.name ?? ""}`} />
          {/* The games waiting for a move: a count leading to their list by time left, and the first few by name. */}
          {turns.length > 0 && (
            <span class="turn-note" data-testid="turn-note">
              <a href={`${ROOT}moves`} class="turn-count" data-testid="moves-link">
                {t("movesCount", turns.length)}
              </a>{" "}
              {turns.length <= SHOWN_TURNS &&
                turns.map((g) => {
                  const other = g.you.includes("B") ? g.players.W : g.players.B;
                  return (
                    <a key={g.id} class="turn-game" href={`${ROOT}g/${encodeURIComponent(g.id)}`}>
                      {t("vs")} {bareName(other)}{" "}
                    </a>
                  );
                })}
            </span>
          )}
          {/* The links and the language menu stay on one line together (the menu never wraps alone). */}
          {/* On a phone the page links fold behind one button (the header keeps two short lines). */}
          <div class={`nav-links${navOpen ? " open" : ""}`}>
          <button
            type="button"
            class="button nav-toggle"
            aria-expanded={navOpen ? "true" : "false"}
            onClick={() => setNavOpen(!navOpen)}
            data-testid="nav-toggle"
          >
            {t("pagesMenu")} <span aria-hidden="true">{navOpen ? "▴" : "▾"}</span>
          </button>
          {route.page !== "home" && (
            <a href={ROOT} class="button">
              {t("newGame")}
            </a>
          )}
          {route.page !== "position" && (
            <a href={`${ROOT}position`} class="button" data-testid="position-link">
              {ct("positionLink")}
            </a>
          )}
          {route.page !== "review" && <a href={`${ROOT}review`} class="button" data-testid="review-link">{rt("reviewLink")}</a>}
          {route.page !== "learn" && <a href={`${ROOT}learn`} class="button" data-testid="learn-link">{rt("learnLink")}</a>}
          {standing?.moderator && route.page !== "moderation" && (
            <a href={`${ROOT}moderation`} class="button" data-testid="moderation-link">{t("modLink")}</a>
          )}
          {route.page !== "tournaments" && (
            <a href={`${ROOT}t`} class="button" data-testid="tournaments-link">
              {tt("navLink")}
            </a>
          )}
          {route.page !== "clubs" && (
            <a href={`${ROOT}c`} class="button" data-testid="clubs-link">
              {t("clubNavLink")}
            </a>
          )}
          <label class="lang">
            <span class="visually-hidden">{t("language")}</span>
            <select
              value={code}
              onChange={(e) => setLanguage(e.currentTarget.value)}
              aria-label={t("language")}
              data-testid="language"
            >
              {LANGUAGES.map(([c, name]) => (
                <option key={c} value={c}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          </div>
        </nav>
      </header>
      <main>
        <StandingNote standing={standing} />
        {route.page === "moderation" ? (
          <ModerationPage />
        ) : route.page === "tournaments" ? (
          <TournamentList
            onOpen={(id) => {
              history.pushState(null, "", `${ROOT}t/${encodeURIComponent(id)}`);
              setRoute(currentRoute());
            }}
          />
        ) : route.page === "clubs" ? (
          <ClubList
            onOpen={(slug) => {
              history.pushState(null, "", `${ROOT}c/${encodeURIComponent(slug)}`);
              setRoute(currentRoute());
            }}
          />
        ) : route.page === "club" ? (
          <ClubPage slug={route.id} invite={route.invite} />
        ) : route.page === "tournament" ? (
          <TournamentPage id={route.id} />
        ) : route.page === "review" ? (
          <Review />
        ) : route.page === "moves" ? (
          <MyMoves />
        ) : route.page === "learn" ? (
          <Learn />
        ) : route.page === "position" ? (
          <PositionTool />
        ) : route.page === "player" ? (
          <PlayerPage name={route.name} />
        ) : route.page === "demo" ? (
          <DemoBoard id={route.id} />
        ) : route.page === "game" ? (
          <GameView gameId={route.id} inviteCode={route.invite} />
        ) : (
          <Lobby onCreated={onCreated} />
        )}
      </main>
    </div>
  );
}

render(<App />, document.getElementById("app"));
