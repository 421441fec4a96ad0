// How a rated game moved a player's rating: "+12.3" (green) or "−12.1" (red), in the page's
// language's numbers, said in words to a screen reader. Shown on a finished game's page and in
// the lobby's list of the player's finished games.
import { t } from "../i18n.js";
import { num } from "../i18n/lang.js";

export function RatingChange({ points, testid }) {
  const sign = points > 0 ? "+" : points < 0 ? "\u2212" : "\u00b1";
  const text = `${sign}${num(Math.abs(points))}`;
  return (
    <span
      class={`rating-change ${points > 0 ? "up" : points < 0 ? "down" : ""}`}
      data-testid={testid}
      title={t("ratingChange", text)}
      aria-label={t("ratingChange", text)}
    >
      {" "}
      {text}
    </span>
  );
}
