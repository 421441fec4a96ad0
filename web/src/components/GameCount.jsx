// In a game being counted or finished by counting: one button that shows the
// count step by step (fetched from the server for the game's current marking).
import { useEffect, useState } from "preact/hooks";
import { useSignal } from "../hooks.js";
import { ct, lang } from "../i18n.js";
import { countApi } from "../countApi.js";
import { CountSteps } from "./CountSteps.jsx";
import { ErrorNote } from "./ErrorNote.jsx";

export function GameCount({ game }) {
  useSignal(lang);
  const [open, setOpen] = useState(false);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);

  // Fetched when opened, and again when the marking (the game's version) changes.
  useEffect(() => {
    if (!open) return undefined;
    let live = true;
    countApi
      .game(game.id)
      .then((d) => live && (setData(d), setError(null)))
      .catch((e) => live && setError(e));
    return () => {
      live = false;
    };
  }, [open, game.id, game.version]);

  return (
    <div class="game-count">
      <button type="button" aria-expanded={open ? "true" : "false"} data-testid="show-steps"
        onClick={() => setOpen(!open)}>
        {open ? ct("hideSteps") : ct("showSteps")}
      </button>
      {open && error && <ErrorNote error={error} />}
      {open && !data && !error && <p>{ct("loadingSteps")}</p>}
      {open && data && (
        <CountSteps size={game.size} board={game.board} score={data.score} method={data.score.method} />
      )}
    </div>
  );
}
