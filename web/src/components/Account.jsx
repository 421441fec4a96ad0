// The header's account box: the player's name and rank, the bell, and a menu of the account's
// actions (the forms to edit them, the settings, the password, log out, the sound). A guest is made by the first action that needs a player.
import { useEffect, useRef, useState } from "preact/hooks";
import { usePlacedUnder, useSignal } from "../hooks.js";
import { errorWords, t } from "../i18n.js";
import { me, playersApi, refreshMe, setSound, sound, soundIsOn } from "../players.js";
import { NameLink, Rank } from "./PlayerLink.jsx";
import { Away } from "./Away.jsx";
import { BlockList } from "./FairPlay.jsx";
import { Bell } from "./Bell.jsx";

const errorText = errorWords;

/**
 * The account's actions behind one button (a menu under it, kept on the screen): the header keeps one short line
 * on a phone. A click on an item, outside, or Escape closes it.
 */
function AccountMenu({ children }) {
  const [open, setOpen] = useState(false);
  const button = useRef(null);
  const list = useRef(null);
  usePlacedUnder(open, button, list, "right");
  useEffect(() => {
    if (!open) return undefined;
    const away = (e) => {
      if (!list.current?.contains(e.target) && !button.current?.contains(e.target)) setOpen(false);
    };
    const key = (e) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener("pointerdown", away, true);
    document.addEventListener("keydown", key);
    return () => {
      document.removeEventListener("pointerdown", away, true);
      document.removeEventListener("keydown", key);
    };
  }, [open]);
  return (
    <span class="account-menu-box">
      <button
        type="button"
        class="link account-menu"
        aria-haspopup="menu"
        aria-label={t("accountMenu")}
        aria-expanded={open ? "true" : "false"}
        onClick={() => setOpen(!open)}
        ref={button}
        data-testid="account-menu"
      >
        {/* The word on a wide screen, a figure on a phone (the label says it to a screen reader). */}
        <span class="account-menu-word">{t("accountMenu")}</span>
        <svg class="account-menu-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path fill="currentColor" d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-9 2.2-9 5v3h18v-3c0-2.8-4.6-5-9-5z" />
        </svg>{" "}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div class="account-menu-list" role="menu" ref={list} onClick={() => setOpen(false)}
          data-testid="account-menu-list">
          {children}
        </div>
      )}
    </span>
  );
}

/** The header's account box; `where` names the page shown: an open form closes when it changes. */
export function Account({ where = "" } = {}) {
  const player = useSignal(me);
  const soundNow = useSignal(sound);
  const [mode, setMode] = useState(null); // null | "edit" | "register" | "login" | "password" | "delete"
  const [done, setDone] = useState(null);
  const [error, setError] = useState(null);
  const [fields, setFields] = useState({ name: "", rank: "", password: "", next: "" });

  useEffect(() => {
    refreshMe().catch(() => {});
  }, []);

  // A form left open (the correspondence settings, say) would fill a phone's screen above the next page's board.
  useEffect(() => setMode(null), [where]);

  const set = (k) => (e) => setFields({ ...fields, [k]: e.currentTarget.value });

  function openForm(next) {
    setError(null);
    setDone(null);
    setFields({ name: next === "edit" ? player?.name || "" : "", rank: player?.rank || "", password: "", next: "" });
    setMode(mode === next ? null : next);
  }

  async function submit(e) {
    e.preventDefault();
    setError(null);
    try {
      if (mode === "edit") {
        // A page without a player yet may set only a rank: its guest gets the generated name. An earned
        // rank is not sent: it follows the player's rated games (the server refuses another).
        const name = fields.name || player?.name;
        const rank = player?.rank_earned ? {} : { rank: fields.rank };
        me.set(await playersApi.patchMe(name ? { name, ...rank } : rank));
      }
      else if (mode === "register") me.set(await playersApi.register(fields.name, fields.password));
      else if (mode === "login") {
        await playersApi.login(fields.name, fields.password);
        await refreshMe();
      } else if (mode === "password") {
        await playersApi.changePassword(fields.password, fields.next);
        setDone(t("passwordChanged"));
      } else if (mode === "delete") {
        await playersApi.deleteAccount();
        await refreshMe();
      }
      setMode(null);
    } catch (exc) {
      setError(errorText(exc));
    }
  }

  async function logout() {
    setError(null);
    try {
      await playersApi.logout();
      await refreshMe();
      setMode(null);
    } catch (exc) {
      setError(errorText(exc));
    }
  }

  if (!player) return null;
  const soundOn = soundIsOn(soundNow);
  return (
    <div class="account" data-testid="account">
      <span class="me" data-testid="me-name">
        {/* A registered player's name opens their page; a guest has none. */}
        {player.name && !player.guest ? <NameLink name={player.name} /> : (player.name ?? t("noPlayerName"))}
        <small><Rank p={player} /></small>
      </span>
      {/* A guest's way in comes first: on a phone the line scrolls sideways, and what follows may be out of view. */}
      {player.guest && (
        <>
          <button type="button" class="link" onClick={() => openForm("register")} data-testid="open-register">
            {t("registerLink")}
          </button>
          <button type="button" class="link" onClick={() => openForm("login")} data-testid="open-login">
            {t("loginLink")}
          </button>
        </>
      )}
      <Bell player={player} />
      <AccountMenu>
        <button type="button" role="menuitem" class="link" onClick={() => openForm("edit")} data-testid="edit-profile">
          {t("editProfile")}
        </button>
        {player.id && (
          <button type="button" role="menuitem" class="link" onClick={() => openForm("away")} data-testid="open-away">
            {t("awaySettings")}
          </button>
        )}
        {!player.guest && (
          <>
            <button type="button" role="menuitem" class="link" onClick={() => openForm("blocks")}
              data-testid="open-blocks">
              {t("modBlockedPlayers")}
            </button>
            <button type="button" role="menuitem" class="link" onClick={() => openForm("password")}
              data-testid="open-password">
              {t("changePassword")}
            </button>
            <button type="button" role="menuitem" class="link" onClick={() => openForm("delete")}
              data-testid="open-delete">
              {t("deleteAccount")}
            </button>
          </>
        )}
        <button
          type="button"
          role="menuitemcheckbox"
          class="link"
          aria-checked={soundOn ? "true" : "false"}
          onClick={() => setSound(soundOn ? "off" : "on")}
          data-testid="sound"
        >
          {soundOn ? t("soundOn") : t("soundOff")}
        </button>
        {!player.guest && (
          <button type="button" role="menuitem" class="link" onClick={logout} data-testid="logout">
            {t("logout")}
          </button>
        )}
      </AccountMenu>
      {mode === "away" && <Away player={player} onClose={() => setMode(null)} />}
      {mode === "blocks" && <BlockList onClose={() => setMode(null)} />}
      {mode && mode !== "away" && mode !== "blocks" && (
        <form class="account-form" onSubmit={submit} data-testid={`form-${mode}`}>
          {mode === "register" && <p class="note">{t("guestNote")}</p>}
          {mode === "delete" && <p class="note">{t("deleteNote")}</p>}
          {mode !== "password" && mode !== "delete" && (
            <label>
              <span>{t("nameLabel")}</span>
              <input name="name" value={fields.name} onInput={set("name")} required={mode !== "edit"} maxLength={20} autocomplete="username" />
            </label>
          )}
          {mode === "edit" && !player?.rank_earned && (
            <label>
              <span>{t("rankLabel")}</span>
              <input name="rank" value={fields.rank} onInput={set("rank")} maxLength={8} />
            </label>
          )}
          {mode === "edit" && player?.rank_earned && (
            <p class="note" data-testid="rank-earned">
              {t("rankEarnedNote")}
              <br />
              <strong><Rank p={player} /></strong>
            </p>
          )}
          {mode !== "edit" && mode !== "delete" && (
            <label>
              <span>{mode === "password" ? t("oldPassword") : t("passwordLabel")}</span>
              <input
                name="password"
                type="password"
                value={fields.password}
                onInput={set("password")}
                required
                autocomplete={mode === "login" ? "current-password" : "new-password"}
              />
            </label>
          )}
          {mode === "password" && (
            <label>
              <span>{t("newPassword")}</span>
              <input
                name="new-password"
                type="password"
                value={fields.next}
                onInput={set("next")}
                required
                autocomplete="new-password"
              />
            </label>
          )}
          <button type="submit" data-testid="account-submit">
            {{ edit: t("save"), register: t("register"), login: t("login"), password: t("save") }[mode] ||
              t("deleteAccount")}
          </button>
          <button type="button" class="link" onClick={() => setMode(null)}>
            {t("cancel")}
          </button>
          {error && (
            <p class="error" role="alert" data-testid="account-error">
              {error}
            </p>
          )}
        </form>
      )}
      {done && !mode && (
        <p class="note" role="status" data-testid="account-done">
          {done}
        </p>
      )}
    </div>
  );
}
