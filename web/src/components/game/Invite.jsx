// The invitation link of a game its creator is waiting on (kept in this browser when the game
// was made), with a button that copies it.
import { useState } from "preact/hooks";
import { ROOT } from "../../api.js";
import { t } from "../../i18n.js";

function storedInvite(id) {
  try {
    return localStorage.getItem(`keima.invite.${id}`);
  } catch {
    return null;
  }
}

export function Invite({ game }) {
  const [copied, setCopied] = useState(false);
  const stored = storedInvite(game.id);
  if (!stored || !game.invite_open) return null;
  const url = `${location.origin}${ROOT}${stored.replace(/^\//, "")}`;
  return (
    <div class="invite" data-testid="invite">
      <label for="invite-url">{t("inviteLink")}</label>
      <div class="row">
        <input id="invite-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={() => {
            navigator.clipboard?.writeText(url).then(() => setCopied(true), () => {});
          }}
        >
          {copied ? t("copied") : t("copy")}
        </button>
      </div>
    </div>
  );
}
