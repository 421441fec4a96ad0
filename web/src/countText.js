// English and French text of the count step by step and of the position tool.
// One sentence per step kind (the kinds of keima.rules.count_steps): it says, in
// keima's own words, what the public rule text does at that step; the numbers
// come from the step's values. The rule reference under it names the text.
import { lang, num } from "./i18n.js";

const plural = (n, one, many) => (Math.abs(n) === 1 ? one : many);

const en = {
  showSteps: "Show the count step by step",
  hideSteps: "Hide the count step by step",
  stepsTitle: "The count, step by step",
  method: "Method",
  stepOf: (i, n) => `Step ${i} of ${n}`,
  previous: "Previous step",
  next: "Next step",
  keysHelp: "Left and right arrow keys: previous and next step; Home and End: first and last step.",
  runningTotal: "Running total",
  inHand: "Stones in hand",
  source: "Source:",
  loadingSteps: "Counting…",
  sources: {
    ffg: "FFG rules",
    "ffg-quick-count": "FFG rules and quick-count page",
    egc2011: "EGC 2011 explanations",
    aga: "AGA rules",
    "japanese-1989": "Japanese rules (1989)",
    "tromp-taylor": "Tromp-Taylor rules",
    chinese: "Chinese rules",
  },
  article: (a) => a,
  steps: {
    "qc-prisoners": (v) =>
      `Each player keeps the stones he captured during the game: Black holds ${num(v.B)}, White holds ${num(v.W)}.`,
    "qc-pass-stones": (v) =>
      `Each pass handed one stone to the opponent: Black receives ${num(v.B)}, White ${num(v.W)}.`,
    "qc-black-last": (v) =>
      v.B
        ? "Black played the last move: White hands one more stone, so that White is the one who passes last."
        : "White played or passed last: no extra stone.",
    "qc-dead": (v) =>
      `The dead stones come off the board and join the prisoners of the player who surrounds them: Black +${num(v.B)}, White +${num(v.W)}.`,
    "qc-fill": (v, c) =>
      c === "B"
        ? `Black puts ${num(v.B)} of the white stones he holds into White's territory (${num(v.room)} points), one per empty point.`
        : `White puts ${num(v.W)} of the black stones he holds into Black's territory (${num(v.room)} points), one per empty point.`,
    "qc-count": (v) =>
      `Only the empty points left in each territory are counted: Black ${num(v.B)}, White ${num(v.W)}.`,
    "qc-overflow": (v) =>
      `Stones that found no room in the other's territory count one point each for the player who holds them: Black +${num(v.B)}, White +${num(v.W)}.`,
    "qc-komi": (v) =>
      v.handicap >= 2
        ? `White adds the compensation of a handicap game: ${num(v.W)}.`
        : `White adds komi: ${num(v.W)}.`,
    "area-dead": (v) =>
      `The dead stones are taken off the board: ${num(v.B)} black, ${num(v.W)} white.`,
    "area-stones": (v) =>
      `Each stone left on the board is one point for its colour: Black ${num(v.B)}, White ${num(v.W)}.`,
    "area-territory": (v) =>
      `Each empty point surrounded by one colour only is one point for that colour: Black ${num(v.B)}, White ${num(v.W)}.`,
    "area-neutral": (v) =>
      `${num(v.N)} empty ${plural(v.N, "point touches", "points touch")} both colours (dame): nobody counts ${plural(v.N, "it", "them")}.`,
    "area-komi": (v) =>
      v.handicap >= 1 ? `White adds the komi of a handicap game: ${num(v.W)}.` : `White adds komi: ${num(v.W)}.`,
    "area-handicap": (v) =>
      `With ${num(v.handicap)} handicap stones, White receives ${num(v.W)} ${plural(v.W, "point", "points")} (${v.n ? "one per stone" : "one per stone after the first"}).`,
    "tps-dead": (v) =>
      `The dead stones are taken off the board and count as prisoners: Black +${num(v.B)}, White +${num(v.W)}.`,
    "tps-territory": (v) =>
      `Territory, the empty points each colour surrounds: Black ${num(v.B)}, White ${num(v.W)}.`,
    "tps-captures": (v) => `Stones captured during the game: Black +${num(v.B)}, White +${num(v.W)}.`,
    "tps-pass-stones": (v) =>
      `Pass stones, one handed over at each pass: Black +${num(v.B)}, White +${num(v.W)}.`,
    "tps-white-last": (v) =>
      v.B
        ? "Black moved last: White hands one more pass stone, as White must pass last (+1 for Black)."
        : "White passed last: no extra pass stone.",
    "tps-komi": (v) => `White adds komi: ${num(v.W)}.`,
    "jp-dead": (v) =>
      `The dead stones are taken off the board and become prisoners: Black +${num(v.B)}, White +${num(v.W)}.`,
    "jp-territory": (v) =>
      `Territory, the empty points each colour surrounds, eyes of chains in seki excepted: Black ${num(v.B)}, White ${num(v.W)}.`,
    "jp-seki": (v) =>
      `Eyes of chains in seki are nobody's territory: ${num(v.B)} of Black's and ${num(v.W)} of White's ${plural(v.B + v.W, "point is", "points are")} not counted.`,
    "jp-captures": (v) =>
      `Prisoners count for their captor (as if they filled the other's territory): Black +${num(v.B)}, White +${num(v.W)}.`,
    "jp-komi": (v) => `White adds komi: ${num(v.W)}.`,
  },
  // The position tool.
  positionTitle: "Count a position",
  positionIntro:
    "Set up a position from a game on a table, or read it from an SGF record, then see every count side by side and step by step.",
  positionLink: "Count a position",
  tool: "Tool",
  toolBlack: "black stone",
  toolWhite: "white stone",
  toolErase: "erase",
  toolDead: "mark dead",
  clearBoard: "Clear the board",
  capturesOf: (c) => `Stones captured by ${c}`,
  passStonesOf: (c) => `Pass stones held by ${c}`,
  lastMover: "Last move by",
  lastNobody: "not known",
  estimateDead: "Ask keima for the dead stones",
  count: "Count",
  sgfTitle: "From an SGF record",
  sgfText: "SGF record",
  sgfMove: "Position after move (empty: the end)",
  sgfLoad: "Load the position",
  sgfLoaded: (m, n) => `Position after move ${m} of ${n}.`,
  counted: "Counted.",
  refused: (msg) => `The server refused the position: ${msg}`,
};

const fr = {
  showSteps: "Voir le décompte pas à pas",
  hideSteps: "Masquer le décompte pas à pas",
  stepsTitle: "Le décompte, pas à pas",
  method: "Méthode",
  stepOf: (i, n) => `Étape ${i} sur ${n}`,
  previous: "Étape précédente",
  next: "Étape suivante",
  keysHelp: "Flèches gauche et droite : étape précédente et suivante ; Début et Fin : première et dernière étape.",
  runningTotal: "Total en cours",
  inHand: "Pierres en main",
  source: "Source :",
  loadingSteps: "Décompte…",
  sources: {
    ffg: "Règle française (FFG)",
    "ffg-quick-count": "Règle française et page du décompte rapide (FFG)",
    egc2011: "Explications EGC 2011",
    aga: "Règles AGA",
    "japanese-1989": "Règles japonaises (1989)",
    "tromp-taylor": "Règles de Tromp-Taylor",
    chinese: "Règles chinoises",
  },
  article: (a) =>
    a.replace(/^example/, "exemple").replace(/examples/, "exemples").replace(/diagrams/, "diagrammes").replace(/^rule/, "règle"),
  steps: {
    "qc-prisoners": (v) =>
      `Chaque joueur garde les pierres qu'il a capturées pendant la partie : Noir en a ${num(v.B)}, Blanc ${num(v.W)}.`,
    "qc-pass-stones": (v) =>
      `Chaque passe a donné une pierre à l'adversaire : Noir en reçoit ${num(v.B)}, Blanc ${num(v.W)}.`,
    "qc-black-last": (v) =>
      v.B
        ? "Noir a joué le dernier coup : Blanc donne une pierre de plus, pour que Blanc soit celui qui passe en dernier."
        : "Blanc a joué ou passé en dernier : pas de pierre en plus.",
    "qc-dead": (v) =>
      `Les pierres mortes sont retirées du goban et rejoignent les prisonniers de celui qui les entoure : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "qc-fill": (v, c) =>
      c === "B"
        ? `Noir place ${num(v.B)} des pierres blanches qu'il détient dans le territoire de Blanc (${num(v.room)} points), une par point vide.`
        : `Blanc place ${num(v.W)} des pierres noires qu'il détient dans le territoire de Noir (${num(v.room)} points), une par point vide.`,
    "qc-count": (v) =>
      `On ne compte que les points vides restés dans chaque territoire : Noir ${num(v.B)}, Blanc ${num(v.W)}.`,
    "qc-overflow": (v) =>
      `Les pierres qui n'ont pas trouvé de place dans le territoire adverse comptent un point chacune pour celui qui les détient : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "qc-komi": (v) =>
      v.handicap >= 2
        ? `Blanc ajoute la compensation d'une partie à handicap : ${num(v.W)}.`
        : `Blanc ajoute le komi : ${num(v.W)}.`,
    "area-dead": (v) => `Les pierres mortes sont retirées du goban : ${num(v.B)} noires, ${num(v.W)} blanches.`,
    "area-stones": (v) =>
      `Chaque pierre restée sur le goban compte un point pour sa couleur : Noir ${num(v.B)}, Blanc ${num(v.W)}.`,
    "area-territory": (v) =>
      `Chaque point vide entouré d'une seule couleur compte un point pour elle : Noir ${num(v.B)}, Blanc ${num(v.W)}.`,
    "area-neutral": (v) =>
      `${num(v.N)} ${plural(v.N, "point vide touche", "points vides touchent")} les deux couleurs (dame) : ${plural(v.N, "il ne compte", "ils ne comptent")} pour personne.`,
    "area-komi": (v) =>
      v.handicap >= 1
        ? `Blanc ajoute le komi d'une partie à handicap : ${num(v.W)}.`
        : `Blanc ajoute le komi : ${num(v.W)}.`,
    "area-handicap": (v) =>
      `Avec ${num(v.handicap)} pierres de handicap, Blanc reçoit ${num(v.W)} ${plural(v.W, "point", "points")} (${v.n ? "un par pierre" : "un par pierre après la première"}).`,
    "tps-dead": (v) =>
      `Les pierres mortes sont retirées du goban et comptent comme prisonniers : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "tps-territory": (v) =>
      `Le territoire, les points vides que chaque couleur entoure : Noir ${num(v.B)}, Blanc ${num(v.W)}.`,
    "tps-captures": (v) => `Les pierres capturées pendant la partie : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "tps-pass-stones": (v) =>
      `Les pierres de passe, une donnée à chaque passe : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "tps-white-last": (v) =>
      v.B
        ? "Noir a joué en dernier : Blanc donne une pierre de passe de plus, car Blanc doit passer en dernier (+1 pour Noir)."
        : "Blanc a passé en dernier : pas de pierre de passe en plus.",
    "tps-komi": (v) => `Blanc ajoute le komi : ${num(v.W)}.`,
    "jp-dead": (v) =>
      `Les pierres mortes sont retirées du goban et deviennent des prisonniers : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "jp-territory": (v) =>
      `Le territoire, les points vides que chaque couleur entoure, sauf les yeux des chaînes en seki : Noir ${num(v.B)}, Blanc ${num(v.W)}.`,
    "jp-seki": (v) =>
      `Les yeux des chaînes en seki ne sont le territoire de personne : ${num(v.B)} point(s) de Noir et ${num(v.W)} de Blanc ne sont pas comptés.`,
    "jp-captures": (v) =>
      `Les prisonniers comptent pour celui qui les a pris (comme s'ils remplissaient le territoire adverse) : Noir +${num(v.B)}, Blanc +${num(v.W)}.`,
    "jp-komi": (v) => `Blanc ajoute le komi : ${num(v.W)}.`,
  },
  positionTitle: "Compter une position",
  positionIntro:
    "Placez une position d'une partie jouée sur une table, ou lisez-la dans un fichier SGF, puis voyez tous les décomptes côte à côte et pas à pas.",
  positionLink: "Compter une position",
  tool: "Outil",
  toolBlack: "pierre noire",
  toolWhite: "pierre blanche",
  toolErase: "effacer",
  toolDead: "marquer mort",
  clearBoard: "Vider le goban",
  capturesOf: (c) => `Pierres capturées par ${c}`,
  passStonesOf: (c) => `Pierres de passe détenues par ${c}`,
  lastMover: "Dernier coup joué par",
  lastNobody: "inconnu",
  estimateDead: "Demander à keima les pierres mortes",
  count: "Compter",
  sgfTitle: "Depuis un fichier SGF",
  sgfText: "Partie SGF",
  sgfMove: "Position après le coup (vide : la fin)",
  sgfLoad: "Charger la position",
  sgfLoaded: (m, n) => `Position après le coup ${m} sur ${n}.`,
  counted: "Compté.",
  refused: (msg) => `Le serveur a refusé la position : ${msg}`,
};

export const COUNT_MESSAGES = { en, fr };

/** The count message for key in the current language (a string, or the function's result for args). */
export function ct(key, ...args) {
  const table = COUNT_MESSAGES[lang.get()] || en;
  const value = key in table ? table[key] : en[key];
  if (value === undefined) return key;
  return typeof value === "function" ? value(...args) : value;
}

/** A nested count message (sources, steps). */
export function ctn(group, key, ...args) {
  const table = (COUNT_MESSAGES[lang.get()] || en)[group] || {};
  const value = key in table ? table[key] : en[group]?.[key];
  if (value === undefined) return null;
  return typeof value === "function" ? value(...args) : value;
}

/** The keys present in one language and missing in another ("fr: steps.qc-fill"), for the build's check. */
export function missingCountMessages() {
  const keysOf = (table) =>
    Object.entries(table).flatMap(([k, v]) =>
      v && typeof v === "object" ? Object.keys(v).map((sub) => `${k}.${sub}`) : [k],
    );
  const all = new Set(Object.values(COUNT_MESSAGES).flatMap(keysOf));
  const missing = [];
  for (const [code, table] of Object.entries(COUNT_MESSAGES)) {
    const have = new Set(keysOf(table));
    for (const key of all) if (!have.has(key)) missing.push(`${code}: ${key}`);
  }
  return missing;
}

/** Every step kind the server may send (the build checks each has a sentence in both languages). */
export const STEP_KINDS = Object.keys(en.steps);
