// Demo boards outside their page (docs/teaching.md): the lobby's list of live public boards with the form that
// opens a new one (empty or from an SGF record), a club's boards on its page, and the "review together" button of a
// finished game.
import { useEffect, useState } from "preact/hooks";
import { ROOT, request } from "../api.js";
import { boardsApi } from "../demoBoard.js";
import { useSignal } from "../hooks.js";
import { lang, t } from "../i18n.js";
import { ErrorNote } from "./ErrorNote.jsx";

const REFRESH_MS = 15000;

/** The live boards of `club` (null: the public ones), read again every REFRESH_MS while shown. */
function useLiveBoards(club = null) {
  const [boards, setBoards] = useState([]);
  useEffect(() => {
    let live = true;
    const read = () => boardsApi.list(club).then((r) => live && setBoards(r.boards)).catch(() => {});
    read();
    const timer = setInterval(read, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [club]);
  return boards;
}

function BoardLines({ boards }) {
  return (
    <ul>
      {boards.map((b) => (
        <li key={b.id} data-board={b.id}>
          <a href={`${ROOT}d/${encodeURIComponent(b.id)}`}>{b.title}</a>{" "}
          <span class="what">{b.size}×{b.size} · {b.owner.name} · {t("dbWatchers", b.watchers)}</span>
        </li>
      ))}
    </ul>
  );
}

function open(id) {
  location.assign(`${ROOT}d/${encodeURIComponent(id)}`);
}

/** The lobby's section: live public boards, and a new board. */
export function DemoBoards() {
  useSignal(lang);
  const boards = useLiveBoards();
  const [form, setForm] = useState({ title: "", size: "19", visibility: "public", sgf: "" });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  async function create(evt) {
    evt.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { title: form.title, size: Number(form.size), visibility: form.visibility };
      if (form.sgf.trim()) body.sgf = form.sgf;
      open((await boardsApi.create(body)).id);
    } catch (exc) {
      setError(exc);
      setBusy(false);
    }
  }

  const set = (key) => (e) => setForm({ ...form, [key]: e.currentTarget.value });
  return (
    <section class="lobby-list demo-list" aria-labelledby="demo-boards-title" data-testid="demo-boards">
      <h2 id="demo-boards-title">{t("dbLobbyTitle")}</h2>
      {boards.length ? <BoardLines boards={boards} /> : <p class="empty">{t("dbLobbyEmpty")}</p>}
      <details>
        <summary data-testid="db-new">{t("dbNew")}</summary>
        <form class="demo-new" onSubmit={create}>
          <label>{t("dbTitle")}<input value={form.title} maxLength={80} onInput={set("title")} data-testid="db-new-title" /></label>
          <label>{t("dbSize")}
            <select value={form.size} onChange={set("size")} data-testid="db-new-size">
              {["9", "13", "19"].map((s) => <option key={s} value={s}>{s}×{s}</option>)}
            </select>
          </label>
          <label>{t("dbVisibility")}
            <select value={form.visibility} onChange={set("visibility")}>
              <option value="public">{t("dbPublic")}</option>
              <option value="link">{t("dbLinkOnly")}</option>
            </select>
          </label>
          <label class="wide">{t("dbFromSgf")}<textarea rows="2" value={form.sgf} onInput={set("sgf")} data-testid="db-new-sgf" /></label>
          <button type="submit" disabled={busy} data-testid="db-create">{t("dbCreate")}</button>
          <ErrorNote error={error} />
        </form>
      </details>
    </section>
  );
}

/** A club's page, for its members: the club's live boards and a button that opens one only they see. */
export function ClubBoards({ club }) {
  useSignal(lang);
  const boards = useLiveBoards(club.slug);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function create() {
    setBusy(true);
    setError(null);
    try {
      const size = club.ladder_settings?.size || 19;
      open((await boardsApi.create({ title: "", size, visibility: "club", club: club.slug })).id);
    } catch (exc) {
      setError(exc);
      setBusy(false);
    }
  }
  return (
    <section class="club-box demo-list" aria-labelledby="club-boards-title" data-testid="club-boards">
      <h3 id="club-boards-title">{t("dbClubTitle")}</h3>
      {boards.length ? <BoardLines boards={boards} /> : <p class="empty">{t("dbClubEmpty")}</p>}
      <p>
        <button type="button" class="button" onClick={create} disabled={busy} data-testid="club-board-new">
          {t("dbClubNew")}
        </button>{" "}
        <small class="muted">{t("dbClubHint")}</small>
      </p>
      <ErrorNote error={error} />
    </section>
  );
}

/**
 * "Review together": a demo board from this finished game's record, its players in control with the caller; a
 * tournament's game (`event`: {id, round, table}) asks its tournament, which invites its directors too.
 */
export function ReviewTogether({ gameId, event = null }) {
  useSignal(lang);
  const [error, setError] = useState(null);
  async function go() {
    setError(null);
    try {
      if (event) {
        const path = `api/tournaments/${encodeURIComponent(event.id)}/rounds/${event.round}/tables/${event.table}/review`;
        open((await request("POST", path)).board);
        return;
      }
      open((await boardsApi.create({ game: gameId })).id);
    } catch (exc) {
      setError(exc);
    }
  }
  return (
    <>
      {" "}
      <button type="button" onClick={go} data-testid="review-together">{t("dbReviewTogether")}</button>
      <ErrorNote error={error} />
    </>
  );
}

/** "Copy to a board of my own": a new board of the caller from this board's record (a commentator reviewing a
 * relay, a student going on alone), the tree, marks and comments kept. */
export function CopyBoard({ id, title }) {
  useSignal(lang);
  const [error, setError] = useState(null);
  async function go() {
    setError(null);
    try {
      const answer = await fetch(`${ROOT}${boardsApi.sgfPath(id)}`, { credentials: "same-origin" });
      const sgf = await answer.text();
      open((await boardsApi.create({ sgf, title, visibility: "link" })).id);
    } catch (exc) {
      setError(exc);
    }
  }
  return (
    <>
      <button type="button" onClick={go} data-testid="db-copy">{t("dbCopy")}</button>
      <ErrorNote error={error} />
    </>
  );
}
