import { errorWords } from "../i18n.js";

/**
 * An API error in words, in the UI's language and one voice for the whole page: the field it is
 * about and what to do, else what went wrong and the server's own sentence (errorWords).
 */
export function ErrorNote({ error, what = null, words = null }) {
  if (!error) return null;
  // words: a page's own reading of its refusals (the review's record faults), errorWords where it has none.
  return (
    <p class="error" role="alert" data-testid="error" data-code={error.code} data-field={error.field || ""}>
      {words?.(error) ?? errorWords(error, what)}
    </p>
  );
}
