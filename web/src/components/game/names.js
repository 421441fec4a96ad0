// Words shared by the parts of the game page.
import { t } from "../../i18n.js";

/** "Black" or "White" in the page's language. */
export const colorName = (c) => (c === "B" ? t("black") : t("white"));
