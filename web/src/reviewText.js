// English and French text of the review page (/review) and the rules lessons (/learn).
import { lang } from "./i18n.js";

const en = {
  reviewLink: "Review",
  learnLink: "Rules lessons",
  reviewTitle: "Review a game",
  openTitle: "Open a record",
  uploadLabel: "SGF file",
  pasteLabel: "Or paste the SGF text",
  openPasted: "Open the pasted record",
  gameLabel: "Or a game of this server (its id)",
  openGame: "Open the game",
  loading: "Reading the record…",
  players: (b, w) => `${b} (Black) – ${w} (White)`,
  unknownPlayer: "?",
  resultLabel: "Result:",
  settings: (size, rules, komi) => `${size}×${size}, ${rules} rules, komi ${komi}`,
  toStart: "Start",
  prev: "Previous",
  next: "Next",
  toEnd: "End",
  keysHelp: "Arrow keys: left and right step through the moves, up and down choose among the variations; Home and End jump to the start and the end.",
  position: (n) => (n === 0 ? "Start of the game" : `Move ${n}`),
  played: (color, move) => `${color === "B" ? "Black" : "White"} ${move === "pass" ? "passes" : move}`,
  captures: (b, w) => `Prisoners: Black ${b}, White ${w}`,
  inVariation: "In a variation",
  onMainLine: "On the main line",
  backToMain: "Back to the main line",
  variations: "Variations from here",
  variationsColon: "Variations from here:",
  noComment: "No comment on this move.",
  commentTitle: "Comment",
  estimate: "Show the estimate (ownership by keima's playouts)",
  estimating: "Estimating…",
  estimateNote: "Shaded points: the side expected to own them; crossed stones are expected to die. An estimate, not a ruling.",
  countTitle: "The count at the end",
  countButton: "Count",
  countFinal: "Count the final position",
  download: "Download the SGF",
  warnings: "Read with these guesses:",
  learnTitle: "Rules lessons",
  learnIntro: "Small boards where you play: the referee of this server answers each move, and says why it refuses one.",
  lessonList: "Lessons",
  stepOf: (i, n) => `Step ${i} of ${n}`,
  toPlay: (c) => (c === "B" ? "Black to play" : "White to play"),
  pass: "Pass",
  restart: "Start again",
  nextLesson: "Next lesson",
  wrongMove: (v) => `${v} is legal, but it is not the move this step asks for. Try again.`,
  expectedRefusal: "Legal: the referee accepts it. This step asks for the move it refuses.",
  refusedBecause: "The referee refuses:",
  refereeSaid: "Referee's sentence:",
  completed: "Lesson completed.",
  source: "Rule text:",
  countLink: "The count step by step, on any position: the position tool",
};

const fr = {
  reviewLink: "Revoir",
  learnLink: "Leçons de règle",
  reviewTitle: "Revoir une partie",
  openTitle: "Ouvrir un enregistrement",
  uploadLabel: "Fichier SGF",
  pasteLabel: "Ou collez le texte SGF",
  openPasted: "Ouvrir le texte collé",
  gameLabel: "Ou une partie de ce serveur (son identifiant)",
  openGame: "Ouvrir la partie",
  loading: "Lecture de l'enregistrement…",
  players: (b, w) => `${b} (Noir) – ${w} (Blanc)`,
  unknownPlayer: "?",
  resultLabel: "Résultat\u00a0:",
  settings: (size, rules, komi) => `${size}×${size}, règle ${rules}, komi ${komi}`,
  toStart: "Début",
  prev: "Précédent",
  next: "Suivant",
  toEnd: "Fin",
  keysHelp: "Flèches gauche et droite\u00a0: coup précédent et suivant\u202f; haut et bas\u00a0: choix de la variante\u202f; Origine et Fin\u00a0: début et fin.",
  position: (n) => (n === 0 ? "Début de la partie" : `Coup ${n}`),
  played: (color, move) => `${color === "B" ? "Noir" : "Blanc"} ${move === "pass" ? "passe" : move}`,
  captures: (b, w) => `Prisonniers\u00a0: Noir ${b}, Blanc ${w}`,
  inVariation: "Dans une variante",
  onMainLine: "Sur la ligne principale",
  backToMain: "Revenir à la ligne principale",
  variations: "Variantes à partir d'ici",
  variationsColon: "Variantes à partir d'ici\u00a0:",
  noComment: "Pas de commentaire sur ce coup.",
  commentTitle: "Commentaire",
  estimate: "Montrer l'estimation (propriété selon les parties aléatoires de keima)",
  estimating: "Estimation…",
  estimateNote: "Intersections teintées\u00a0: le camp qui devrait les posséder\u202f; pierres barrées\u00a0: pierres qui devraient mourir. Une estimation, pas un arbitrage.",
  countTitle: "Le décompte final",
  countButton: "Compter",
  countFinal: "Compter la position finale",
  download: "Télécharger le SGF",
  warnings: "Lu avec ces hypothèses\u00a0:",
  learnTitle: "Leçons de règle",
  learnIntro: "De petits gobans où vous jouez\u00a0: l'arbitre de ce serveur répond à chaque coup, et dit pourquoi il en refuse un.",
  lessonList: "Leçons",
  stepOf: (i, n) => `Étape ${i} sur ${n}`,
  toPlay: (c) => (c === "B" ? "Noir joue" : "Blanc joue"),
  pass: "Passer",
  restart: "Recommencer",
  nextLesson: "Leçon suivante",
  wrongMove: (v) => `${v} est légal, mais ce n'est pas le coup demandé à cette étape. Essayez encore.`,
  expectedRefusal: "Légal\u00a0: l'arbitre l'accepte. Cette étape demande le coup qu'il refuse.",
  refusedBecause: "L'arbitre refuse\u00a0:",
  refereeSaid: "Phrase de l'arbitre\u00a0:",
  completed: "Leçon terminée.",
  source: "Texte de la règle\u00a0:",
  countLink: "Le décompte pas à pas, sur n'importe quelle position\u00a0: l'outil de position",
};

export const REVIEW_MESSAGES = { en, fr };

/** The review/lesson message for key in the current language (a string, or the function called with args). */
export function rt(key, ...args) {
  const table = REVIEW_MESSAGES[lang.get()] || en;
  const value = key in table ? table[key] : en[key];
  if (value === undefined) return key;
  return typeof value === "function" ? value(...args) : value;
}

/** A lesson text ({en, fr}) in the current language. */
export function lt(text) {
  return text?.[lang.get()] ?? text?.en ?? "";
}

/** Keys present in one language and not the other (the build fails on any). */
export function missingReviewMessages() {
  const all = new Set(Object.values(REVIEW_MESSAGES).flatMap((table) => Object.keys(table)));
  const missing = [];
  for (const [code, table] of Object.entries(REVIEW_MESSAGES)) {
    for (const key of all) if (!(key in table)) missing.push(`${code}: ${key}`);
  }
  return missing;
}
