// Tournaments (docs/web-api.md, *Tournaments*): the list and the form that creates one (/t), and
// one tournament's page (/t/<id>): the caller's own table, the players, each round's pairings with
// table numbers and results, the standings, and, for its directors, registration, pairing, result
// entry and the files. The page follows the tournament's socket: a change anywhere (a director, a
// game ending on keima) shows at once, so that a club may put it on a projector.
import { useEffect, useState } from "preact/hooks";
import { ROOT, request } from "../api.js";
import { LiveSocket } from "../socket.js";
import { t as t_, tt } from "../i18n.js";
import { ErrorNote } from "./ErrorNote.jsx";
import { NewTournamentForm, TournamentSettings } from "./TournamentSettings.jsx";
import { SignUp, TournamentPlayers } from "./TournamentPlayers.jsx";
import { PlayerLink } from "./PlayerLink.jsx";
import { PairingControls, RoundTimes, RoundWarnings, SheetLinks } from "./TournamentPairing.jsx";
import { TournamentSheet } from "./TournamentPrint.jsx";
import { TournamentProjector } from "./TournamentProjector.jsx";
import { TournamentLog, TournamentStandings } from "./TournamentStandings.jsx";
import { TournamentLines, datesAndPlace } from "./TournamentLinks.jsx";
import { TableHead, pairingColumns } from "./TableHead.jsx";
import { TournamentRelays } from "./TournamentRelays.jsx";

const tapi = {
  list: () => request("GET", "api/tournaments"),
  get: (id) => request("GET", `api/tournaments/${encodeURIComponent(id)}`),
  standings: (id) => request("GET", `api/tournaments/${encodeURIComponent(id)}/standings`),
  me: (id) => request("GET", `api/tournaments/${encodeURIComponent(id)}/me`),
  call: (id, method, path, body) =>
    request(method, `api/tournaments/${encodeURIComponent(id)}${path ? `/${path}` : ""}`, body),
};

const RESULTS = ["unknown", "black", "white", "draw", "both_lose", "both_win"];

/** The list of tournaments and the form that creates one. */
export function TournamentList({ onOpen }) {
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    tapi.list().then((d) => setList(d.tournaments), setError);
  }, []);

  return (
    <div class="tourney">
      <section class="tourney-box">
        <h2>{tt("listTitle")}</h2>
        <ErrorNote error={error} />
        {list === null ? (
          <p>…</p>
        ) : list.length === 0 ? (
          <p class="empty">{tt("none")}</p>
        ) : (
          <TournamentLines list={list} />
        )}
      </section>
      <section class="tourney-box">
        <h2>{tt("createTitle")}</h2>
        <NewTournamentForm onOpen={onOpen} />
      </section>
    </div>
  );
}

/** The name of the player of `key` ("DUPONT Jean"), or the key itself. */
function nameOf(t, key) {
  const p = t.players.find((x) => x.key === key);
  return p ? `${p.name} ${p.first_name}`.trim() : key;
}

/** One tournament's page (see the module's comment). */
export function TournamentPage({ id }) {
  const [t, setT] = useState(null);
  const [standings, setStandings] = useState(null);
  const [mine, setMine] = useState(null);
  const [error, setError] = useState(null);
  const [shown, setShown] = useState(null); // the round whose pairings are shown
  // The projector's view (?projector): large print, no header nor tools, the pairings and standings only.
  const [projector, setProjector] = useState(() => new URLSearchParams(location.search).has("projector"));

  useEffect(() => {
    document.body.classList.toggle("projector", projector);
    return () => document.body.classList.remove("projector");
  }, [projector]);

  async function reload() {
    try {
      const [tt2, st, me] = await Promise.all([tapi.get(id), tapi.standings(id), tapi.me(id)]);
      setT(tt2);
      setStandings(st);
      setMine(me);
    } catch (exc) {
      setError(exc);
    }
  }

  useEffect(() => {
    reload();
    const sock = new LiveSocket(`api/tournaments/${encodeURIComponent(id)}/ws`, {
      onMessage: (msg) => {
        if (msg.type === "tournament") reload();
      },
    });
    return () => sock.close();
  }, [id]);

  if (!t) return error ? <ErrorNote error={error} /> : <p class="card">…</p>;
  const director = t.you.role !== null;
  const paired = t.round_list.filter((r) => r.games.length || r.bye);
  const current = shown ?? (paired.length ? paired[paired.length - 1].round : 1);
  const round = t.round_list[current - 1];
  const sheet = new URLSearchParams(location.search).get("sheet");
  if (sheet === "pairings" || sheet === "results") {
    return <TournamentSheet t={t} kind={sheet} rn={Number(new URLSearchParams(location.search).get("round")) || current} />;
  }
  if (projector) return <TournamentProjector t={t} standings={standings} onLeave={() => setProjector(false)} />;

  // A director's or player's change; true once it is stored (the page reads the tournament again).
  async function act(method, path, body) {
    setError(null);
    try {
      await tapi.call(id, method, path, body);
    } catch (exc) {
      setError(exc);
      return false;
    }
    await reload();
    return true;
  }

  return (
    <div class="tourney" data-testid="tournament-page">
      <section class="tourney-box tourney-head">
        <h2 data-testid="t-title">{t.name}</h2>
        <p class="what">
          {t.system === "mcmahon" ? "McMahon" : tt("swiss")} · {tt("roundsCount", t.rounds)} · {`${t.size}×${t.size}`}
          {t.settings.online ? ` · ${tt("online")}` : ""}
          {t.settings.rated ? ` · ${tt("rated")}` : ""}
        </p>
        {datesAndPlace(t.settings) && <p class="what" data-testid="t-dates">{datesAndPlace(t.settings)}</p>}
        <button class="link" onClick={() => setProjector(!projector)} data-testid="t-projector">
          {projector ? tt("projectorOff") : tt("projectorOn")}
        </button>
        <SignUp t={t} reload={reload} />
        {t.you.proposed && !t.you.player && (
          <p class="proposal" data-testid="t-proposal">
            {tt("proposedToYou", playerName(t, t.you.proposed))}{" "}
            <button onClick={() => act("POST", `players/${encodeURIComponent(t.you.proposed)}/confirm`)}
                    data-testid="t-confirm">
              {tt("confirmPlayer")}
            </button>
          </p>
        )}
        <ErrorNote error={error} />
      </section>
      {mine?.player && !projector && <MyTable t={t} mine={mine} act={act} />}
      <section class="tourney-box">
        <h3>{tt("pairings")}</h3>
        <div class="round-tabs" role="tablist">
          {t.round_list.map((r) => (
            <button
              key={r.round}
              role="tab"
              aria-selected={r.round === current}
              class={r.round === current ? "tab on" : "tab"}
              onClick={() => setShown(r.round)}
              data-testid={`round-tab-${r.round}`}
            >
              {tt("roundN", r.round)}
            </button>
          ))}
        </div>
        <RoundTimes round={round} />
        {director && !projector && <PairingControls t={t} round={round} act={act} />}
        <RoundWarnings t={t} round={round} />
        <Pairings t={t} round={round} director={director && !projector} act={act} />
        <SheetLinks t={t} round={round} />
      </section>
      {!projector && <TournamentRelays tour={t} round={round} director={director} act={act} />}
      <TournamentStandings t={t} standings={standings} />
      {!projector && <TournamentPlayers t={t} director={director} reload={reload} />}
      {director && !projector && <TournamentSettings t={t} reload={reload} />}
      {director && !projector && <DirectorTools t={t} act={act} />}
      {!projector && <TournamentLog t={t} />}
    </div>
  );
}

function MyTable({ t, mine, act }) {
  const open = mine.rounds.filter((r) => !r.bye && r.result === "unknown");
  const now = open.length ? open[open.length - 1] : mine.rounds[mine.rounds.length - 1];
  // In an online round, checking in tells the server the player came (not absent at the forfeit limit).
  const round = now ? t.round_list[now.round - 1] : null;
  const canCheckIn = now?.game && now.result === "unknown" && round.started && !round.present.includes(mine.player);
  return (
    <section class="tourney-box my-table" data-testid="my-table">
      <h3>{tt("myTable")}</h3>
      {!now ? (
        <p>{tt("notPaired")}</p>
      ) : now.bye ? (
        <p>{tt("byeRound", now.round)}</p>
      ) : (
        <p>
          {tt("roundN", now.round)} · {tt("tableN", now.table)} · {now.color === "B" ? tt("black") : tt("white")}{" "}
          {tt("against")} <strong>{nameOf(t, now.opponent.key)}</strong> ({now.opponent.rank})
          {now.handicap ? ` · ${tt("handicapN", now.handicap)}` : ""}
          {now.game && (
            <>
              {" · "}
              <a href={`${ROOT}g/${encodeURIComponent(now.game)}`} data-testid="my-game">
                {tt("myGame")}
              </a>
            </>
          )}
          {round && <RoundTimes round={round} />}
          {canCheckIn && (
            <>
              {" "}
              <button onClick={() => act("POST", `rounds/${now.round}/checkin`)} data-testid="check-in">
                {tt("checkIn")}
              </button>
            </>
          )}
        </p>
      )}
    </section>
  );
}

function Pairings({ t, round, director, act }) {
  if (!round.games.length && !round.bye) return <p class="empty">{tt("notPairedYet")}</p>;
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={tt("pairings")}>
      <table class="tourney-table" data-testid="pairings">
        <TableHead cells={pairingColumns()} />
        <tbody>
          {round.games.map((g) => (
            <tr key={g.table} data-testid={`table-${g.table}`}>
              <td class="num">{g.table}</td>
              <td>{nameOf(t, g.white)}</td>
              <td>{nameOf(t, g.black)}</td>
              <td class="num">{g.handicap || ""}</td>
              <td>
                {director || (t.you.player && !g.game && g.result === "unknown" &&
                              [g.white, g.black].includes(t.you.player)) ? (
                  <ResultEntry round={round.round} g={g} act={act} />
                ) : (
                  <span>
                    {tt(`res_${g.result}`)}
                    {g.by_forfeit ? ` (${tt("forfeit")})` : ""}
                  </span>
                )}
                {g.game && (
                  <a class="game-link" href={`${ROOT}g/${encodeURIComponent(g.game)}`}>
                    {tt("watch")}
                  </a>
                )}
                {g.game && director && (
                  <a class="game-link" href={`${ROOT}position?game=${encodeURIComponent(g.game)}`}
                     data-testid={`referee-${g.table}`}>
                    {tt("referee")}
                  </a>
                )}
              </td>
            </tr>
          ))}
          {round.bye && (
            <tr>
              <td class="num">–</td>
              <td colSpan={4}>
                {t_("tpByeOf", nameOf(t, round.bye))}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function ResultEntry({ round, g, act }) {
  const [forfeit, setForfeit] = useState(g.by_forfeit);
  useEffect(() => setForfeit(g.by_forfeit), [g.by_forfeit]);
  const send = (result, byForfeit) =>
    act("PUT", `rounds/${round}/tables/${g.table}/result`, { result, by_forfeit: byForfeit });
  return (
    <span class="result-entry">
      <select
        aria-label={tt("resultOf", g.table)}
        value={g.result}
        onChange={(e) => send(e.currentTarget.value, forfeit)}
        data-testid={`result-${g.table}`}
      >
        {RESULTS.map((r) => (
          <option key={r} value={r}>
            {tt(`res_${r}`)}
          </option>
        ))}
      </select>
      <label class="check">
        <input
          type="checkbox"
          checked={forfeit}
          onChange={(e) => {
            setForfeit(e.currentTarget.checked);
            if (g.result !== "unknown") send(g.result, e.currentTarget.checked);
          }}
          data-testid={`forfeit-${g.table}`}
        />{" "}
        {tt("forfeit")}
      </label>
    </span>
  );
}

/** A registered player's name and first name, by their key (the key itself when unknown). */
function playerName(t, key) {
  const p = t.players.find((x) => x.key === key);
  return p ? `${p.name} ${p.first_name}`.trim() : key;
}

function DirectorTools({ t, act }) {
  const [typed, setTyped] = useState({ name: "", first_name: "", rank: "", club: "" });
  const [lines, setLines] = useState("");
  const [added, setAdded] = useState(null);
  const [absent, setAbsent] = useState({ key: "", round: "1" });
  const [source, setSource] = useState("ffg_line");
  const [codir, setCodir] = useState("");
  const field = (k) => (e) => setTyped({ ...typed, [k]: e.currentTarget.value });
  const file = (fmt) => `${ROOT}api/tournaments/${encodeURIComponent(t.id)}/export/${fmt}`;

  return (
    <section class="tourney-box director" data-testid="director-tools">
      <h3>{tt("directorTitle")}</h3>
      <form
        class="tourney-form"
        onSubmit={(e) => {
          e.preventDefault();
          act("POST", "players", { ...typed }).then((ok) => ok && setTyped({ name: "", first_name: "", rank: "", club: "" }));
        }}
      >
        <h4>{tt("registerTyped")}</h4>
        <label>
          {tt("lastName")}
          <input value={typed.name} onInput={field("name")} required data-testid="p-name" />
        </label>
        <label>
          {tt("firstName")}
          <input value={typed.first_name} onInput={field("first_name")} data-testid="p-first" />
        </label>
        <label>
          {tt("rank")}
          <input value={typed.rank} onInput={field("rank")} required placeholder="5k" size={4} data-testid="p-rank" />
        </label>
        <label>
          {tt("club")}
          <input value={typed.club} onInput={field("club")} maxLength={8} size={6} />
        </label>
        <button type="submit" data-testid="p-add">
          {tt("register")}
        </button>
      </form>
      <form
        class="tourney-form"
        onSubmit={async (e) => {
          e.preventDefault();
          // One player per line, in order; the lines refused stay in the box.
          const left = [];
          let done = 0;
          for (const one of lines.split("\n").filter((x) => x.trim())) {
            if (await act("POST", "players", { [source]: one })) done += 1;
            else left.push(one);
          }
          setLines(left.join("\n"));
          setAdded(done);
        }}
      >
        <h4>{tt("registerLine")}</h4>
        <label>
          {tt("list")}
          <select value={source} onChange={(e) => setSource(e.currentTarget.value)}>
            <option value="ffg_line">FFG</option>
            <option value="egd_line">EGD</option>
          </select>
        </label>
        <label class="wide">
          {tt("lines")}
          <textarea rows={3} value={lines} onInput={(e) => setLines(e.currentTarget.value)} required
                    data-testid="p-lines" />
        </label>
        <button type="submit" data-testid="p-add-lines">{tt("register")}</button>
        {added !== null && <span class="what" role="status">{tt("registeredN", added)}</span>}
      </form>
      <form
        class="tourney-form"
        onSubmit={(e) => {
          e.preventDefault();
          act("PUT", `players/${encodeURIComponent(absent.key)}/absent`, {
            round: Number(absent.round),
            absent: e.submitter?.value !== "present",
          });
        }}
      >
        <h4>{tt("absence")}</h4>
        <label>
          {tt("player")}
          <select value={absent.key} onChange={(e) => setAbsent({ ...absent, key: e.currentTarget.value })} required
                  data-testid="absent-player">
            <option value="" />
            {t.players.map((p) => (
              <option key={p.key} value={p.key}>{`${p.name} ${p.first_name}`.trim()}</option>
            ))}
          </select>
        </label>
        <label>
          {tt("round")}
          <select value={absent.round} onChange={(e) => setAbsent({ ...absent, round: e.currentTarget.value })}
                  data-testid="absent-round">
            {t.round_list.map((r) => (
              <option key={r.round} value={r.round}>{r.round}</option>
            ))}
          </select>
        </label>
        <button type="submit" value="absent" data-testid="absent">{tt("markAbsent")}</button>
        <button type="submit" value="present">{tt("markPresent")}</button>
      </form>
      <div class="tourney-form">
        <label class="check">
          <input
            type="checkbox"
            checked={t.settings.registration_open}
            onChange={(e) => act("PATCH", "", { registration_open: e.currentTarget.checked })}
          />{" "}
          {tt("registrationOpen")}
        </label>
      </div>
      <form
        class="tourney-form"
        onSubmit={(e) => {
          e.preventDefault();
          act("POST", "directors", { name: codir }).then((ok) => ok && setCodir(""));
        }}
      >
        <label>
          {tt("coDirector")}
          <input value={codir} onInput={(e) => setCodir(e.currentTarget.value)} required />
        </label>
        <button type="submit">{tt("add")}</button>
        <span class="what">{t.directors.map((d) => d.name).join(", ")}</span>
      </form>
      <p class="files">
        {tt("files")}{" "}
        <a href={file("tou")} data-testid="export-tou">
          FFG (.tou)
        </a>{" "}
        <a href={file("h9")} data-testid="export-h9">
          EGD (.h9)
        </a>{" "}
        <a href={file("xml")}>OpenGotha (.xml)</a>
      </p>
    </section>
  );
}
