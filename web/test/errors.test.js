// A server refusal in the page's language (src/i18n.js errorWords): the server writes English sentences; a page
// in French says its own words for the refusal's code and never mixes in the server's sentence; the server's
// sentence stands alone only for a code the page does not know.
import { test } from "node:test";
import assert from "node:assert/strict";
import { errorWords } from "../src/i18n.js";
import { inLanguage } from "./language.js";

const refusal = (code, message, extra = {}) => ({ code, message, field: null, reason: null, ...extra });

test("a French page says its own words for a code, without the server's English sentence", () => {
  const cases = [
    [refusal("no-opponent", "nobody has taken the other seat yet"), "Personne n’a encore pris l’autre place"],
    [refusal("wrong-phase", "White has no move to take back"), "Cela ne correspond pas à l’état actuel de la partie"],
    [refusal("not-creator", "only the creator can withdraw a game"), "Seul le joueur qui a créé cette partie"],
    [refusal("challenge-taken", "someone accepted this challenge first"), "Quelqu’un d’autre a déjà accepté ce défi"],
    [refusal("invalid-request", "komi: Input should be a multiple of 0.5", { field: "komi" }), "Komi\u00a0: cette valeur n’est pas acceptée."],
  ];
  for (const [exc, words] of cases) {
    const text = inLanguage("fr", () => errorWords(exc));
    assert.ok(text.includes(words), `${exc.code}: ${text}`);
    assert.ok(!text.includes(exc.message.replace(/^komi: /, "")), `${exc.code} mixes in English: ${text}`);
  }
});

test("an English page keeps the server's sentence after its own words", () => {
  const text = inLanguage("en", () => errorWords(refusal("wrong-phase", "White has no move to take back")));
  assert.equal(text, "This does not fit the state of the game now: White has no move to take back");
});

test("a code the page does not know shows the server's sentence alone", () => {
  for (const code of ["en", "fr"]) {
    const text = inLanguage(code, () => errorWords(refusal("some-new-code", "the server's own words")));
    assert.equal(text, "the server's own words");
  }
});

test("a moderator's refused new name reads as a refused name, in either language", () => {
  const exc = refusal("invalid-request", "new_name: a name has only letters, digits, '_' and '-' (not '<')",
    { field: "new_name" });
  const fr = inLanguage("fr", () => errorWords(exc));
  const en = inLanguage("en", () => errorWords(exc));
  assert.equal(fr, inLanguage("fr", () => errorWords({ ...exc, field: "name", message: "a name has only letters" })));
  assert.equal(en, inLanguage("en", () => errorWords({ ...exc, field: "name", message: "a name has only letters" })));
});
