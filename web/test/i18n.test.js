// The language tables (src/i18n/en.js, fr.js) and their look-ups (src/i18n.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { MESSAGES, STEP_KINDS, ct, ctn, lang, missingMessages, num, resultWords, rt, t, tn } from "../src/i18n.js";

test("both languages have the same messages, at every depth", () => {
  assert.deepEqual(missingMessages(), []);
  assert.ok(STEP_KINDS.length >= 25);
});

test("the completeness check names a message missing from one language with its group", () => {
  const saved = MESSAGES.fr.count.sources.ffg;
  delete MESSAGES.fr.count.sources.ffg;
  try {
    assert.deepEqual(missingMessages(), ["fr: count.sources.ffg"]);
  } finally {
    MESSAGES.fr.count.sources.ffg = saved;
  }
});

test("each look-up reads its group in the current language", () => {
  const cases = [
    ["en", () => t("resultText", "B+R"), "Black wins by resignation"],
    ["fr", () => t("chatSend"), "Envoyer"],
    ["fr", () => tn("levels", "strong"), "fort"],
    ["en", () => ct("next"), "Next step"],
    ["fr", () => ct("next"), "Étape suivante"],
    ["en", () => rt("reviewLink"), MESSAGES.en.lessons.reviewLink],
    ["fr", () => ctn("sources", "ffg"), MESSAGES.fr.count.sources.ffg],
  ];
  try {
    for (const [code, call, expected] of cases) {
      lang.set(code);
      assert.equal(call(), expected, code);
    }
  } finally {
    lang.set("en");
  }
  assert.equal(t("no-such-message"), "no-such-message");
  assert.equal(tn("levels", "no-such-level"), null);
  assert.equal(resultWords("W+R", "fr"), "Blanc gagne par abandon");
});

test("numbers are written as each language writes them, French negatives with a real minus sign", () => {
  const cases = [
    ["en", 41.5, "41.5"],
    ["en", -12.5, "-12.5"],
    ["fr", 41.5, "41,5"],
    ["fr", -12.5, "\u221212,5"],
    ["fr", 0, "0"],
    ["fr", -1234, "\u22121\u202f234"],
  ];
  try {
    for (const [code, x, want] of cases) {
      lang.set(code);
      assert.equal(num(x), want, `${code} ${x}`);
    }
  } finally {
    lang.set("en");
  }
});
