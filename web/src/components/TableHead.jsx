// A table's column heads from their words, and the heads the tournament's tables share (the pairings on the page
// and the projector, the standings on both); the sheets and the players' list name their own columns.
import { tt } from "../i18n.js";

/** `<thead>` with one `<th>` for each of `cells` (words or elements), in order. */
export function TableHead({ cells }) {
  return (
    <thead>
      <tr>
        {cells.map((c, i) => (
          <th key={i}>{c}</th>
        ))}
      </tr>
    </thead>
  );
}

/** The columns of a round's pairing on the page and on the projector: table, White, Black, handicap, result. */
export const pairingColumns = () => [tt("table"), tt("white"), tt("black"), tt("handicapShort"), tt("result")];

/** The columns of the standings: place, player, rank, then the tournament's criteria by their short names. */
export const standingColumns = (criteria) => [tt("place"), tt("player"), tt("rank"), ...criteria];
