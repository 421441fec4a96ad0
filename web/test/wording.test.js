// The words new users read (the lobby's time control, results, errors, French typography): src/i18n.js helpers
// and the French table, checked in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MESSAGES, clockSettings, ctn, errorWords, resultCode, rt } from "../src/i18n.js";
import { inLanguage } from "./language.js";

const NBSP = "\u00a0";

test("a time control is said with its main time first, in both languages", () => {
  const byoyomi = { type: "byoyomi", main: 1800, periods: 3, period: 10 };
  const cases = [
    ["en", byoyomi, `30${NBSP}min + 3${NBSP}×${NBSP}10${NBSP}s byo-yomi`],
    ["fr", byoyomi, `30${NBSP}min + byo-yomi 3${NBSP}×${NBSP}10${NBSP}s`],
    ["en", { type: "canadian", main: 600, stones: 25, period: 300 }, `10${NBSP}min + 25 stones in 5${NBSP}min (Canadian)`],
    ["en", { type: "fischer", main: 300, increment: 10, max: null }, `5${NBSP}min + 10${NBSP}s a move (Fischer)`],
    ["en", { type: "absolute", main: 3600 }, `1${NBSP}h, no overtime`],
    ["en", { type: "none" }, "no clock"],
    ["fr", null, "sans pendule"],
  ];
  for (const [code, spec, words] of cases) inLanguage(code, () => assert.equal(clockSettings(spec), words));
});

test("a result is written the way each language's players write it", () => {
  const cases = [
    ["en", "B+1.5", "B+1.5"],
    ["en", "W+R", "W+R"],
    ["fr", "B+1.5", "N+1,5"],
    ["fr", "W+7.5", "B+7,5"],
    ["fr", "W+R", ""], // "Blanc gagne par abandon" says it all
    ["fr", "0", ""],
  ];
  for (const [code, re, written] of cases) inLanguage(code, () => assert.equal(resultCode(re), written));
});

test("a refusal names its field and what to do, never 'the server refused these settings'", () => {
  const refusal = (code, message, field = null) => ({ code, message, field });
  const cases = [
    ["en", refusal("invalid-request", "a password has 6 to 200 characters", "password"), "Password: use 6 to 200 characters."],
    ["en", refusal("name-taken", "this name is taken: it looks like the name of the player 'alice'", "name"),
      "Name: this name is taken (or looks like one that is). Choose another one."],
    ["en", refusal("invalid-request", "names beginning with 'Guest' are kept for the server's own names", "name"),
      "Name: names beginning with “Guest” and the computers’ names are kept for the server. Choose another one."],
    ["en", refusal("bad-login", "wrong name or password"), "Name or password: one of them is wrong. Check both and try again."],
    ["en", refusal("bad-login", "wrong password"), "Current password: this is not your password. Type it again."],
    ["en", refusal("invalid-request", "komi: Input should be a valid number", "komi"), "Komi: Input should be a valid number"],
    ["fr", refusal("invalid-request", "a password has 6 to 200 characters", "password"), `Mot de passe${NBSP}: de 6 à 200 caractères.`],
    ["fr", refusal("too-many-requests", "too many logins: try again in 12 s"), `Trop d’essais d’affilée${NBSP}: réessayez dans 12 s.`],
  ];
  for (const [code, exc, words] of cases) {
    inLanguage(code, () => {
      assert.equal(errorWords(exc), words);
      assert.doesNotMatch(errorWords(exc), /refused these settings|^Error|a refusé ces réglages/);
    });
  }
});

test("French counts agree in number: 0 and 1 in the singular", () => {
  inLanguage("fr", () => {
    assert.equal(ctn("steps", "area-dead", { B: 1, W: 1 }), `Les pierres mortes sont retirées du goban${NBSP}: 1 noire, 1 blanche.`);
    assert.equal(ctn("steps", "area-dead", { B: 2, W: 0 }), `Les pierres mortes sont retirées du goban${NBSP}: 2 noires, 0 blanche.`);
    assert.match(ctn("steps", "jp-seki", { B: 1, W: 0 }), /\u00a0: 1 point de Noir et 0 de Blanc restent hors du décompte\.$/);
    assert.doesNotMatch(ctn("steps", "jp-seki", { B: 1, W: 2 }), /\(s\)/);
    assert.equal(rt("learnLink"), "Leçons de règles");
  });
});

test("the French table has no straight apostrophe and no ordinary space before : ; ? ! in its words", () => {
  const texts = [];
  const sample = { B: 1, W: 2, N: 1, room: 3, handicap: 0, n: 1 };
  const collect = (v) => {
    if (typeof v === "string") texts.push(v);
    else if (typeof v === "function") {
      for (const args of [[1, 2], ["Noir", 1], [sample, "B"], [sample, "W"]]) {
        try {
          const out = v(...args);
          if (typeof out === "string") texts.push(out);
        } catch {
          // a message that wants other arguments: its literal parts are read from its source below
        }
      }
    } else if (v && typeof v === "object") Object.values(v).forEach(collect);
  };
  collect(MESSAGES.fr);
  const bad = texts.filter((s) => /'| [:;?!]/.test(s.replace(/« |\/\^.*\//g, "")));
  assert.deepEqual(bad, []);
});
