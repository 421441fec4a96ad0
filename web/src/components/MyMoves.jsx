// The games waiting for the player's move (the header's "Your move: n" leads here), the least time left first:
// the server sends "my games" in that order (docs/web-api.md, GET /api/me/games), its clocks read as of now.
import { ROOT } from "../api.js";
import { useServerNow, useSignal } from "../hooks.js";
import { t } from "../i18n.js";
import { lobby, me, waitsForMe } from "../players.js";
import { summaryClockText } from "../time.js";
import { playerName } from "./game/names.js";

export function MyMoves() {
  const lists = useSignal(lobby);
  const player = useSignal(me);
  const now = useServerNow(true, 1000);
  const games = (lists?.mine || []).filter(waitsForMe);
  return (
    <section class="lobby-list my-moves" aria-labelledby="my-moves-title" data-testid="my-moves">
      <h2 id="my-moves-title">{t("movesTitle")}</h2>
      {!player?.id || !lists ? null : games.length === 0 ? (
        <p class="note" data-testid="my-moves-empty">{t("movesEmpty")}</p>
      ) : (
        <>
          <p class="note">{t("movesIntro")}</p>
          <ol>
            {games.map((g) => {
              const mine = g.you[0];
              const other = g.players[mine === "B" ? "W" : "B"];
              const left = summaryClockText(g, mine, now, lists.readAt);
              return (
                <li key={g.id} data-game={g.id}>
                  <a href={`${ROOT}g/${encodeURIComponent(g.id)}`} class="button" data-testid={`move-in-${g.id}`}>
                    {t("vs")} {playerName(other, t("freeSeat"))}
                  </a>{" "}
                  <span class="what">
                    {t("bellGame", g.size, mine)} · {t("moveNo", g.moves)} ·{" "}
                    <span data-testid={`moves-left-${g.id}`}>
                      {left === null ? t("movesNoClock") : t("movesLeft", left)}
                      {g.paused?.[mine] ? ` (${t("movesPaused")})` : ""}
                    </span>
                  </span>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
