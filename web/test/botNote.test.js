// The computer seat's notes (issue 44): why it resigns, where it plays on after a pass, its dispute of a
// marking, said in the page's language; and "point" after 1 in the review's lead.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rt } from "../src/i18n.js";
import { botNoteWords, isResignNote } from "../src/components/game/names.js";
import { inLanguage } from "./language.js";

const NBSP = "\u00a0";
const RESIGN = "keima resigns: behind by about 25 points with no open fight";
const BORDER = "keima plays on: the border is open at E5, C3";
const BOTH = "keima plays on: the border is open at E5; a capturing race is open at B9";

test("the resignation says why, in both languages", () => {
  assert.equal(botNoteWords(RESIGN), "keima resigns: behind by about 25 points with no open fight.");
  inLanguage("fr", () =>
    assert.equal(botNoteWords(RESIGN), `keima abandonne${NBSP}: en retard d’environ 25 points, sans combat ouvert.`),
  );
  assert.ok(isResignNote(RESIGN));
  assert.ok(!isResignNote(BORDER));
});

test("playing on after a pass names the open border and the race", () => {
  assert.equal(botNoteWords(BORDER), "keima plays on after the pass: the border is still open at E5, C3.");
  assert.equal(
    botNoteWords(BOTH),
    "keima plays on after the pass: the border is still open at E5; a capturing race is still open at B9.",
  );
  inLanguage("fr", () =>
    assert.equal(
      botNoteWords(BOTH),
      `keima continue après la passe${NBSP}: la frontière est encore ouverte en E5\u202f; une course aux libertés est encore ouverte en B9.`,
    ),
  );
});

test("a note of another shape is shown as it came", () => {
  assert.equal(botNoteWords("keima plays on: something new"), "keima plays on: something new");
  assert.match(botNoteWords("keima thinks D4 is alive: play resumes to settle it on the board"), /keima thinks/);
});

test("the review's lead says 1 point, not 1 points", () => {
  assert.match(rt("botNow", 3, "52 %", "1"), /lead 1 point\.$/);
  assert.match(rt("botNow", 3, "52 %", "2.5"), /lead 2.5 points\.$/);
  assert.match(rt("botSpoken", 3, "52 %", "\u22121"), /lead \u22121 point$/);
  inLanguage("fr", () => {
    assert.match(rt("botNow", 3, "52 %", "1,5"), /Noir 1,5 point\.$/);
    assert.match(rt("botNow", 3, "52 %", "3"), /Noir 3 points\.$/);
  });
});
