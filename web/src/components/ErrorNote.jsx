import { t } from "../i18n.js";

/** An API error in words; field errors name the field the server pointed at. */
export function ErrorNote({ error }) {
  if (!error) return null;
  let text = error.message || String(error);
  if (error.code === "network") text = t("networkError");
  if (error.code === "no-such-game") text = t("notFound");
  return (
    <p class="error" role="alert">
      <strong>{t("errorTitle")}:</strong> {text}
      {error.field ? ` (${error.field})` : ""}
    </p>
  );
}
