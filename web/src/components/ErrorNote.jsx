import { t, tn } from "../i18n.js";

/**
 * An API error in words: what went wrong in the UI's language, then the server's
 * own sentence (which names the value and the rule) and the field it pointed at.
 */
export function ErrorNote({ error }) {
  if (!error) return null;
  const summary = tn("errors", error.code);
  const own = error.code === "network" || error.code === "no-such-game";
  const detail = own ? "" : error.message || String(error);
  return (
    <p class="error" role="alert" data-testid="error" data-code={error.code} data-field={error.field || ""}>
      <strong>{summary || t("errorTitle")}</strong>
      {detail && `${t("colon")} ${detail}`}
      {error.field && !detail.startsWith(`${error.field}:`) ? ` (${error.field})` : ""}
    </p>
  );
}
