// The two sides of a game: who plays them, their captures, pass stones and clocks.
import { t } from "../../i18n.js";
import { RatingChange } from "../RatingChange.jsx";
import { Clock } from "./Clock.jsx";
import { colorName } from "./names.js";
import { PlayerLink } from "../PlayerLink.jsx";

export function Players({ game, you }) {
  const local = you.length === 2;
  return (
    <table class="players">
      <thead>
        <tr>
          <th scope="col"></th>
          <th scope="col">{t("captures")}</th>
          <th scope="col">{t("passStones")}</th>
          {game.clock && <th scope="col">{t("clock")}</th>}
        </tr>
      </thead>
      <tbody>
        {["B", "W"].map((c) => (
          <tr key={c} class={game.to_move === c && !game.result ? "to-move" : ""}>
            <th scope="row">
              <span class={`stone-icon ${c}`} aria-hidden="true"></span>
              {colorName(c)}
              {(game.players?.[c]?.kind === "bot" || game.players?.[c]?.name) && (
                <span class="player-name" data-testid={`name-${c}`}>
                  {" "}
                  <PlayerLink p={game.players[c]} />
                </span>
              )}
              {you.includes(c) && !local && ` (${t("you")})`}
              {typeof game.rating_change?.[c] === "number" && <RatingChange points={game.rating_change[c]} testid={`rating-change-${c}`} />}
            </th>
            <td data-testid={`captures-${c}`}>{game.prisoners?.[c] ?? 0}</td>
            <td data-testid={`passes-${c}`}>{game.pass_count?.[c] ?? 0}</td>
            {game.clock && (
              <td>
                <Clock clock={game.clock} color={c} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

