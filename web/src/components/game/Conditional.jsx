// Conditional moves (docs/correspondence.md): while the opponent is to move in a correspondence game, the
// player writes sequences, one a line, their move then the answer ("C3 G7 E5 F6": if C3, G7; then if E5,
// F6); lines with a common start share it. The stored tree is shown as nested "if ... → ..." lines.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../../api.js";
import { linesOf, treeOf } from "../../conditional.js";
import { errorWords, t } from "../../i18n.js";

function Branches({ tree }) {
  return (
    <ul>
      {tree.map((n) => (
        <li key={n.if}>
          {t("conditionalIf", n.if, n.play)}
          {n.then?.length ? <Branches tree={n.then} /> : null}
        </li>
      ))}
    </ul>
  );
}

export function ConditionalMoves({ game }) {
  const [stored, setStored] = useState(null);
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  // What the player typed and has not saved: the stored tree, read when the page opens and after each change of
  // the game, never replaces it (a read that came back after the first keystrokes emptied the box).
  const editing = useRef(false);
  const id = game.id;
  useEffect(() => {
    api
      .conditional(id)
      .then((data) => {
        setStored(data);
        if (!editing.current) setText(linesOf(data.tree).join("\n"));
      })
      .catch(() => setStored(null));
  }, [id, game.version]);

  async function save(e) {
    e.preventDefault();
    setError(null);
    let tree;
    try {
      tree = treeOf(text);
    } catch (exc) {
      setError(t("conditionalOdd", exc.message));
      return;
    }
    try {
      setStored(await api.setConditional(id, { version: game.version, tree }));
      editing.current = false;
    } catch (exc) {
      setError(errorWords(exc));
    }
  }

  async function drop() {
    setError(null);
    await api.dropConditional(id).catch(() => {});
    setStored({ version: game.version, tree: [] });
    editing.current = false;
    setText("");
  }

  return (
    <form class="conditional" onSubmit={save} data-testid="conditional">
      <label>
        <span>{t("conditionalTitle")}</span>
        <textarea
          name="conditional"
          rows={3}
          value={text}
          placeholder="C3 G7 E5 F6"
          onInput={(e) => {
            editing.current = true;
            setText(e.currentTarget.value);
          }}
          data-testid="conditional-text"
        />
      </label>
      <small>{t("conditionalHelp")}</small>
      {stored?.tree?.length ? (
        <div class="conditional-tree" data-testid="conditional-tree">
          <Branches tree={stored.tree} />
        </div>
      ) : null}
      <div class="row">
        <button type="submit" data-testid="conditional-save">
          {t("save")}
        </button>
        {stored?.tree?.length ? (
          <button type="button" class="link" onClick={drop}>
            {t("conditionalDrop")}
          </button>
        ) : null}
      </div>
      {error && (
        <p class="error" role="alert" data-testid="conditional-error">
          {error}
        </p>
      )}
    </form>
  );
}
