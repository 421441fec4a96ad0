// A tournament's players (docs/web-api.md, *Tournaments*): the list, and for its directors each player's
// editor (names, rank, club, licence, the keima account proposed to play for them), "withdraw from the
// remaining rounds" in one click, and removal of a player never paired; and the sign-up of an account,
// which asks for the first name, club, country and licence (optional). The sign-up is offered to a logged-in
// account that neither plays nor directs; an anonymous visitor is told to log in.
import { useState } from "preact/hooks";
import { request } from "../api.js";
import { useSignal } from "../hooks.js";
import { tt } from "../i18n.js";
import { me } from "../players.js";
import { ErrorNote } from "./ErrorNote.jsx";
import { PlayerLink } from "./PlayerLink.jsx";
import { editWords, et } from "./TournamentSettings.jsx";
import { TableHead } from "./TableHead.jsx";

const call = (t, method, path, body) =>
  request(method, `api/tournaments/${encodeURIComponent(t.id)}/${path}`, body);

const fullName = (p) => `${p.name} ${p.first_name}`.trim();

/** The rounds that pair the player `key` (a game or the bye). */
function pairedIn(t, key) {
  return t.round_list.filter((r) => r.bye === key || r.games.some((g) => g.white === key || g.black === key))
    .map((r) => r.round);
}

/** The round from which the player `p` is absent to the end, when they were paired before it (withdrawn). */
function withdrawnFrom(t, p) {
  const paired = pairedIn(t, p.key);
  if (!paired.length || !p.absent.length) return null;
  const from = Math.max(...paired) + 1;
  const rest = t.round_list.map((r) => r.round).filter((r) => r >= from);
  return rest.length && rest.every((r) => p.absent.includes(r)) ? from : null;
}

/** The players' list; its directors edit, withdraw and remove players from it. */
export function TournamentPlayers({ t, director, reload }) {
  const [open, setOpen] = useState(null); // the key of the player being edited
  const [error, setError] = useState(null);

  async function act(method, path, body) {
    setError(null);
    try {
      await call(t, method, path, body);
    } catch (exc) {
      setError(exc);
      return false;
    }
    await reload();
    return true;
  }

  const columns = director ? 6 : 5;
  return (
    <section class="tourney-box">
      <h3>{tt("playersN", t.players.length)}</h3>
      <ErrorNote error={error} words={editWords} />
      <div class="scroll" tabIndex={0} role="region" aria-label={tt("playersN", t.players.length)}>
        <table class="tourney-table" data-testid="players">
          <TableHead
            cells={[tt("player"), tt("rank"), tt("club"), tt("account"), tt("absentIn"), ...(director ? [et("actions")] : [])]}
          />
          <tbody>
            {t.players.map((p) => {
              const paired = pairedIn(t, p.key).length > 0;
              const gone = withdrawnFrom(t, p);
              const left = t.round_list.some((r) => !r.started && !p.absent.includes(r.round) && !pairedIn(t, p.key).includes(r.round));
              return [
                <tr key={p.key} data-testid={`player-${p.key}`}>
                  <td>{fullName(p)}</td>
                  <td>{p.rank}</td>
                  <td>{[p.club, p.country].filter(Boolean).join(" ")}</td>
                  <td data-testid={`account-${p.key}`}>
                    {/* The account's name as everywhere, with the rank it earned on keima (pairing keeps the declared one). */}
                    {p.account ? (
                      <PlayerLink p={{ kind: "human", name: p.account, rank: p.account_rank, provisional: p.account_provisional }} />
                    ) : p.proposed_account ? tt("proposedAccount", p.proposed_account) : ""}
                  </td>
                  <td data-testid={`absent-${p.key}`}>{gone ? et("withdrawn", gone) : p.absent.join(", ")}</td>
                  {director && (
                    <td>
                      <span class="player-actions">
                        <button type="button" aria-expanded={open === p.key} aria-label={et("editOf", fullName(p))}
                                onClick={() => setOpen(open === p.key ? null : p.key)} data-testid={`edit-${p.key}`}>
                          {et("edit")}
                        </button>
                        {paired && left && (
                          <button type="button" aria-label={et("withdrawOf", fullName(p))} title={et("withdrawOf", fullName(p))}
                                  onClick={() => act("POST", `players/${encodeURIComponent(p.key)}/withdraw`)}
                                  data-testid={`withdraw-${p.key}`}>
                            {/* On a phone the short word, the button's label saying it all. */}
                            <span class="wide-only">{et("withdraw")}</span>
                            <span class="narrow-only">{et("withdrawShort")}</span>
                          </button>
                        )}
                        {!paired && (
                          <button type="button" aria-label={et("removeOf", fullName(p))}
                                  onClick={() => act("DELETE", `players/${encodeURIComponent(p.key)}`)}
                                  data-testid={`remove-${p.key}`}>
                            {et("remove")}
                          </button>
                        )}
                      </span>
                    </td>
                  )}
                </tr>,
                director && open === p.key && (
                  <tr key={`${p.key}-edit`} class="player-editor">
                    <td colSpan={columns}>
                      <PlayerEditor t={t} p={p} close={() => setOpen(null)} reload={reload} />
                    </td>
                  </tr>
                ),
              ];
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const FIELDS = ["name", "first_name", "rank", "rating", "club", "country", "ffg_licence", "egf_pin", "account"];

/** One player's editor: sends only what changed (a new name gives a new key: the editor closes). */
function PlayerEditor({ t, p, close, reload }) {
  const start = { ...p, rank: p.rank.toLowerCase(), account: p.account ?? p.proposed_account ?? "" };
  const [v, setV] = useState(start);
  const [error, setError] = useState(null);
  const input = (k, words, props = {}) => (
    <label>
      {words}
      <input value={v[k]} onInput={(e) => setV({ ...v, [k]: e.currentTarget.value })}
             data-testid={`pe-${k}`} {...props} />
    </label>
  );

  async function save(e) {
    e.preventDefault();
    setError(null);
    const patch = {};
    for (const k of FIELDS) {
      if (String(v[k]) === String(start[k])) continue;
      patch[k] = k === "rating" ? Number(v[k]) : k === "account" ? (v[k].trim() || null) : v[k];
    }
    try {
      if (Object.keys(patch).length) await call(t, "PATCH", `players/${encodeURIComponent(p.key)}`, patch);
      close();
      await reload();
    } catch (exc) {
      setError(exc);
    }
  }

  return (
    <form class="tourney-form" onSubmit={save} data-testid="player-editor">
      <h4>{et("editTitle", fullName(p))}</h4>
      {input("name", tt("lastName"), { required: true, maxLength: 100 })}
      {input("first_name", tt("firstName"), { maxLength: 100 })}
      {input("rank", tt("rank"), { required: true, size: 4, maxLength: 4, placeholder: et("rankHint") })}
      {input("rating", et("rating"), { type: "number", min: -900, max: 3200 })}
      {input("club", tt("club"), { maxLength: 8, size: 6 })}
      {input("country", et("country"), { maxLength: 2, size: 3 })}
      {input("ffg_licence", et("licence"), { maxLength: 12, size: 8 })}
      {input("egf_pin", et("pin"), { maxLength: 12, size: 9 })}
      {input("account", et("account"), { maxLength: 100 })}
      <p class="note">{et("accountHelp")}</p>
      <button type="submit" data-testid="pe-save">{et("save1")}</button>
      <button type="button" onClick={close}>{et("cancel")}</button>
      <ErrorNote error={error} words={editWords} />
    </form>
  );
}

/**
 * The sign-up while registration is open: a logged-in account that neither plays nor directs gives its first
 * name, club, country and licence; an anonymous visitor (or a guest) is told to log in; a director registers
 * players with the director's form, their own account included.
 */
export function SignUp({ t, reload }) {
  const player = useSignal(me);
  const [open, setOpen] = useState(false);
  const [v, setV] = useState({ first_name: "", club: "", country: "", ffg_licence: "" });
  const [error, setError] = useState(null);
  if (!t.settings.registration_open || t.you.player || t.you.proposed || t.you.role) return null;
  if (!player?.id || player.guest) {
    return <p class="note" data-testid="t-login-to-signup">{et("loginToSignUp")}</p>;
  }
  const input = (k, words, props = {}) => (
    <label>
      {words}
      <input value={v[k]} onInput={(e) => setV({ ...v, [k]: e.currentTarget.value })} data-testid={`su-${k}`}
             {...props} />
    </label>
  );

  async function send(e) {
    e.preventDefault();
    setError(null);
    try {
      await call(t, "POST", "signup", v);
      setOpen(false);
      await reload();
    } catch (exc) {
      setError(exc);
    }
  }

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} data-testid="t-signup">
        {tt("signUp")}
      </button>
    );
  }
  return (
    <form class="tourney-form signup-form" onSubmit={send} data-testid="t-signup-form">
      <h4>{et("signUpTitle")}</h4>
      {input("first_name", tt("firstName"), { maxLength: 100 })}
      {input("club", tt("club"), { maxLength: 8, size: 6 })}
      {input("country", et("country"), { maxLength: 2, size: 3 })}
      {input("ffg_licence", et("licenceOptional"), { maxLength: 12, size: 8 })}
      <button type="submit" data-testid="t-signup-send">{et("signUpSend")}</button>
      <button type="button" onClick={() => setOpen(false)}>{et("cancel")}</button>
      <ErrorNote error={error} words={editWords} />
    </form>
  );
}
