// English and French messages. The language comes from the browser
// (navigator.languages), can be switched in the header, and the choice is
// remembered in localStorage. Every visible string and every screen-reader
// label goes through t() so that both languages stay complete.
import { PLAYER_MESSAGES } from "./i18n_players.js";
import { signal } from "./signal.js";

const en = {
  appTitle: "keima",
  tagline: "Go under the French rules",
  language: "Language",
  newGame: "New game",
  boardSize: "Board size",
  custom: "custom",
  customSize: "Custom size (2 to 25)",
  ruleset: "Rules",
  rulesetNames: {
    french: "French (FFG)",
    egc2011: "EGC 2011 (European)",
    aga: "AGA (American)",
    chinese: "Chinese",
    japanese: "Japanese",
    "new-zealand": "New Zealand",
    "tromp-taylor": "Tromp-Taylor",
  },
  komi: "Komi",
  komiDefault: "default of the rules",
  handicap: "Handicap stones",
  placement: "Handicap placement",
  fixed: "fixed (star points)",
  free: "free",
  clock: "Clock",
  clockNone: "none",
  clockAbsolute: "absolute",
  clockByoyomi: "byo-yomi",
  clockCanadian: "Canadian",
  clockFischer: "Fischer",
  mainTime: "Main time (minutes)",
  periods: "Periods",
  periodTime: "Period time (seconds)",
  stonesPerPeriod: "Stones per period",
  increment: "Increment (seconds)",
  fischerMax: "Maximum time (seconds)",
  noCap: "no maximum",
  opponent: "Opponent",
  oppBot: "the computer",
  oppInvite: "a person (invitation link)",
  oppLocal: "both sides on this screen",
  botLevel: "Computer level",
  yourColor: "Your colour",
  colorBlack: "Black",
  colorWhite: "White",
  colorRandom: "random",
  yourName: "Your name",
  start: "Start the game",
  creating: "Creating the game…",
  black: "Black",
  white: "White",
  blackStone: "black stone",
  whiteStone: "white stone",
  empty: "empty",
  lastMove: "last move",
  deadMark: "marked dead",
  territoryOf: (c) => `${c.toLowerCase()} territory`,
  pointLabel: (name, what) => `${name}, ${what}`,
  board: (n) => `Go board, ${n} by ${n}`,
  boardHelp:
    "Arrow keys move between points, Enter or Space plays, Home and End jump along a line, P passes.",
  toMove: (c) => `${c} to play`,
  yourTurn: "Your turn",
  waitingOpponent: "Waiting for the opponent",
  waitingJoin: "Waiting for the opponent to join",
  inviteLink: "Invitation link: send it to your opponent",
  inviteUsed: "This invitation has already been used: you are watching the game.",
  copy: "Copy",
  copied: "Copied",
  captures: "Captures",
  passStones: "Passes",
  pass: "Pass",
  resign: "Resign",
  confirmResign: "Resign this game?",
  undo: "Ask to undo",
  undoRequested: "Undo requested: waiting for the answer",
  undoAsked: (c) => `${c} asks to take back the last move.`,
  accept: "Accept",
  decline: "Decline",
  cancel: "Cancel",
  colon: ":",
  labelled: (label, value) => `${label}: ${value}`,
  playResumed: "The marking was rejected: play resumes.",
  notSent: (what) =>
    `${what ? `${what} was not sent` : "Not sent"}: the connection to the server is lost (reconnecting…). Try again once connected.`,
  sendUncertain: "The connection dropped while sending: the board will show whether it was played.",
  confirmTap: "Confirm each move with a second tap",
  tapHint: (v) => `${v} selected: tap it again to play there, or tap another point.`,
  selectedMark: "selected, tap again to play",
  quickCountNote: "Filled: points of each side's territory taken up by the stones the opponent holds (captures, dead stones, pass stones).",
  undoDeclined: "The undo request was declined.",
  moveList: "Moves",
  moveNumber: (n) => `Move ${n}`,
  passed: "pass",
  played: (c, v) => `${c} ${v}`,
  playedPass: (c) => `${c} passes`,
  captured: (n) => (n === 1 ? "1 stone captured" : `${n} stones captured`),
  handicapPhase: (n) => `Black places the handicap stones (${n} left)`,
  phasePlay: "Play",
  phaseScoring: "Marking dead stones",
  phaseFinished: "Game over",
  scoringHelp:
    "The computer proposes which stones are dead (crossed). Click a chain to change its status; both players must accept the same marking. Reject to resume play.",
  proposalSame: (n) =>
    n === 0
      ? "The computer's proposal: no dead stone. The marking is its proposal."
      : `The computer's proposal: ${deadStones(n, "en")}. The marking is its proposal.`,
  proposalDiffers: (n) =>
    `The marking has been changed from the computer's proposal (${deadStones(n, "en")}).`,
  acceptMarking: "Accept this marking",
  rejectMarking: "Reject and resume play",
  acceptedBy: (c) => `${c} accepted`,
  notAccepted: (c) => `${c} has not accepted yet`,
  result: "Result",
  resultText: (r) => resultWords(r, "en"),
  finalCount: "Final count",
  markingCount: "Count with this marking",
  method: "Method",
  methodNames: {
    area: "Area (stones + territory)",
    territory: "Territory with pass stones",
    "quick-count": "FFG quick count",
    japanese: "Japanese (territory − prisoners)",
  },
  rulesMethod: "used by these rules",
  fields: {
    stones: "stones",
    territory: "territory",
    captures: "captures",
    dead: "dead stones",
    pass_stones: "pass stones",
    extra_pass_stone: "extra pass stone",
    komi: "komi",
    handicap_bonus: "handicap compensation",
    filled: "filled",
    overflow: "stones left over",
    total: "total",
  },
  downloadSgf: "Download SGF",
  review: "Review",
  reviewStart: "Start",
  reviewPrev: "Previous",
  reviewNext: "Next",
  reviewEnd: "End",
  reviewLive: "Back to the game",
  reviewing: (n, m) => `Reviewing move ${n} of ${m}`,
  connection: "Connection",
  settingsLine: (rules, komi, handicap, size) =>
    `${size}×${size}, ${rules} rules, komi ${num(komi)}${handicap >= 2 ? `, ${handicap} handicap stones` : ""}`,
  connected: "connected",
  reconnecting: "connection lost, reconnecting…",
  spectator: "You are watching this game.",
  youAre: (c) => `You play ${c}`,
  bothSides: "You play both sides",
  refused: "Move refused",
  reasons: {
    occupied: (v) => `${v} is already occupied: a stone can only be played on an empty point.`,
    suicide: (v) =>
      `${v} would be suicide: the stone would have no liberty and capture nothing, which these rules forbid.`,
    ko: (v) =>
      `${v} retakes the ko at once: the ko rule forbids recreating the previous position; play elsewhere first.`,
    superko: (v) =>
      `${v} would repeat an earlier position of the board: the superko rule forbids it.`,
    "off-board": (v) => `${v} is not on the board.`,
    "wrong-phase": () => "This action does not fit the current phase of the game.",
    "wrong-turn": () => "It is not your turn.",
    unknown: (v, msg) => msg || `${v} was refused.`,
  },
  errorTitle: "Error",
  errors: {
    "invalid-request": "The server refused these settings",
    "bad-request": "The server could not read this request",
    "not-your-seat": "Only the player of that colour can do this",
    "bad-invitation": "This invitation is wrong or has already been used",
    "wrong-phase": "This does not fit the state of the game now",
    "too-large": "The request was too large",
    "no-such-game": "This game does not exist",
    network: "The server could not be reached",
    "storage-error": "The server could not save this: nothing changed, try again",
    "corrupt-game": "The server cannot replay this game's record",
    "not-available": "The server cannot do this",
  },
  endReasons: {
    cycle: "the same cycle of positions came back (triple ko or similar): no result under these rules",
    forfeit: "forfeit",
  },
  notFound: "This game does not exist.",
  networkError: "The server could not be reached.",
  home: "Home",
  openGame: "Back to the game",
  resultResign: (w) => `${w} wins by resignation`,
  resultTime: (w) => `${w} wins on time`,
  resultForfeit: (w) => `${w} wins by forfeit`,
  resultPoints: (w, m) => `${w} wins by ${num(m)} ${m === 1 ? "point" : "points"}`,
  resultDraw: "Draw (jigo)",
  resultVoid: "No result",
  announceMove: (c, v) => `${c} ${v}`,
  announceCaptures: (n) => (n === 1 ? ", captures 1 stone" : `, captures ${n} stones`),
  announcePass: (c) => `${c} passes`,
  announceScoring: "Two passes: marking the dead stones.",
  announceResume: "Play resumes.",
  announceUndo: "The last move was taken back.",
  clockLeft: (c) => `${c} clock`,
  periodsLeft: (n, time) => `${n} × ${time}`,
  stonesLeft: (n, time) => `${n} ${n === 1 ? "stone" : "stones"} in ${time}`,
  mainPlus: (main, overtime) => `${main} + ${overtime}`,
  byoyomiShort: "byo-yomi",
  bot: "Computer",
  thinking: "The computer is thinking…",
  warming: "keima is warming up (its first move after installation takes a few seconds)…",
  engineOption: (name) => `${name} (GTP engine)`,
  waitingWorker: "Waiting for a bot worker: none is running on the server right now.",
  levels: { beginner: "beginner (fastest)", intermediate: "intermediate", strong: "strong" },
  you: "you",
  opponentLabel: "opponent",
};

const fr = {
  appTitle: "keima",
  tagline: "Le go selon les règles françaises",
  language: "Langue",
  newGame: "Nouvelle partie",
  boardSize: "Taille du goban",
  custom: "autre",
  customSize: "Autre taille (2 à 25)",
  ruleset: "Règles",
  rulesetNames: {
    french: "françaises (FFG)",
    egc2011: "EGC 2011 (européennes)",
    aga: "AGA (américaines)",
    chinese: "chinoises",
    japanese: "japonaises",
    "new-zealand": "néo-zélandaises",
    "tromp-taylor": "Tromp-Taylor",
  },
  komi: "Komi",
  komiDefault: "celui des règles",
  handicap: "Pierres de handicap",
  placement: "Placement du handicap",
  fixed: "fixe (hoshi)",
  free: "libre",
  clock: "Pendule",
  clockNone: "aucune",
  clockAbsolute: "temps absolu",
  clockByoyomi: "byo-yomi",
  clockCanadian: "canadien",
  clockFischer: "Fischer",
  mainTime: "Temps principal (minutes)",
  periods: "Périodes",
  periodTime: "Durée d'une période (secondes)",
  stonesPerPeriod: "Pierres par période",
  increment: "Incrément (secondes)",
  fischerMax: "Temps maximal (secondes)",
  noCap: "pas de maximum",
  opponent: "Adversaire",
  oppBot: "l'ordinateur",
  oppInvite: "une personne (lien d'invitation)",
  oppLocal: "les deux camps sur cet écran",
  botLevel: "Niveau de l'ordinateur",
  yourColor: "Votre couleur",
  colorBlack: "Noir",
  colorWhite: "Blanc",
  colorRandom: "au hasard",
  yourName: "Votre nom",
  start: "Commencer la partie",
  creating: "Création de la partie…",
  black: "Noir",
  white: "Blanc",
  blackStone: "pierre noire",
  whiteStone: "pierre blanche",
  empty: "libre",
  lastMove: "dernier coup",
  deadMark: "marquée morte",
  territoryOf: (c) => `territoire ${c === "Noir" ? "noir" : "blanc"}`,
  pointLabel: (name, what) => `${name}, ${what}`,
  board: (n) => `Goban de ${n} sur ${n}`,
  boardHelp:
    "Les flèches déplacent entre les intersections, Entrée ou Espace joue, Début et Fin vont au bout de la ligne, P passe.",
  toMove: (c) => `${c} joue`,
  yourTurn: "À vous de jouer",
  waitingOpponent: "L'adversaire réfléchit",
  waitingJoin: "En attente de l'adversaire",
  inviteLink: "Lien d'invitation\u00a0: envoyez-le à votre adversaire",
  inviteUsed: "Cette invitation a déjà servi\u00a0: vous regardez la partie.",
  copy: "Copier",
  copied: "Copié",
  captures: "Prisonniers",
  passStones: "Passes",
  pass: "Passer",
  resign: "Abandonner",
  confirmResign: "Abandonner cette partie\u202f?",
  undo: "Demander à reprendre",
  undoRequested: "Reprise demandée\u00a0: en attente de la réponse",
  undoAsked: (c) => `${c} demande à reprendre le dernier coup.`,
  accept: "Accepter",
  decline: "Refuser",
  cancel: "Annuler",
  colon: "\u00a0:",
  labelled: (label, value) => `${label}\u00a0: ${value}`,
  playResumed: "Le marquage a été refusé\u00a0: la partie reprend.",
  notSent: (what) =>
    `${what ? `${what} n'a pas été envoyé` : "Rien n'a été envoyé"}\u00a0: la connexion au serveur est perdue (reconnexion…). Réessayez une fois reconnecté.`,
  sendUncertain: "La connexion a été coupée pendant l'envoi\u00a0: le goban montrera si le coup a été joué.",
  confirmTap: "Confirmer chaque coup par un second appui",
  tapHint: (v) => `${v} sélectionnée\u00a0: touchez-la de nouveau pour y jouer, ou touchez une autre intersection.`,
  selectedMark: "sélectionnée, touchez de nouveau pour jouer",
  quickCountNote:
    "Rempli\u00a0: intersections du territoire de chacun occupées par les pierres que détient l'adversaire (prisonniers, pierres mortes, pierres de passe).",
  undoDeclined: "La demande de reprise a été refusée.",
  moveList: "Coups",
  moveNumber: (n) => `Coup ${n}`,
  passed: "passe",
  played: (c, v) => `${c} ${v}`,
  playedPass: (c) => `${c} passe`,
  captured: (n) => (n === 1 ? "1 pierre capturée" : `${n} pierres capturées`),
  handicapPhase: (n) => `Noir pose les pierres de handicap (encore ${n})`,
  phasePlay: "Partie en cours",
  phaseScoring: "Marquage des pierres mortes",
  phaseFinished: "Partie terminée",
  scoringHelp:
    "L'ordinateur propose les pierres mortes (barrées). Cliquez sur une chaîne pour changer son statut\u202f; les deux joueurs doivent accepter le même marquage. Refuser reprend la partie.",
  proposalSame: (n) =>
    n === 0
      ? "Proposition de l'ordinateur\u00a0: aucune pierre morte. Le marquage est cette proposition."
      : `Proposition de l'ordinateur\u00a0: ${deadStones(n, "fr")}. Le marquage est cette proposition.`,
  proposalDiffers: (n) =>
    `Le marquage a été modifié par rapport à la proposition de l'ordinateur (${deadStones(n, "fr")}).`,
  acceptMarking: "Accepter ce marquage",
  rejectMarking: "Refuser et reprendre la partie",
  acceptedBy: (c) => `${c} a accepté`,
  notAccepted: (c) => `${c} n'a pas encore accepté`,
  result: "Résultat",
  resultText: (r) => resultWords(r, "fr"),
  finalCount: "Décompte final",
  markingCount: "Décompte avec ce marquage",
  method: "Méthode",
  methodNames: {
    area: "Méthode des aires (pierres + territoire)",
    territory: "Territoire avec pierres de passe",
    "quick-count": "Décompte rapide FFG",
    japanese: "Japonaise (territoire − prisonniers)",
  },
  rulesMethod: "celle de ces règles",
  fields: {
    stones: "pierres",
    territory: "territoire",
    captures: "prisonniers",
    dead: "pierres mortes",
    pass_stones: "pierres de passe",
    extra_pass_stone: "pierre de passe finale",
    komi: "komi",
    handicap_bonus: "compensation du handicap",
    filled: "rempli",
    overflow: "pierres en surplus",
    total: "total",
  },
  downloadSgf: "Télécharger le SGF",
  review: "Revoir",
  reviewStart: "Début",
  reviewPrev: "Précédent",
  reviewNext: "Suivant",
  reviewEnd: "Fin",
  reviewLive: "Retour à la partie",
  reviewing: (n, m) => `Coup ${n} sur ${m}`,
  connection: "Connexion",
  settingsLine: (rules, komi, handicap, size) =>
    `${size}×${size}, règles ${rules}, komi ${num(komi)}${handicap >= 2 ? `, ${handicap} pierres de handicap` : ""}`,
  connected: "connecté",
  reconnecting: "connexion perdue, reconnexion…",
  spectator: "Vous regardez cette partie.",
  youAre: (c) => `Vous jouez ${c}`,
  bothSides: "Vous jouez les deux camps",
  refused: "Coup refusé",
  reasons: {
    occupied: (v) => `${v} est déjà occupée\u00a0: on ne joue que sur une intersection libre.`,
    suicide: (v) =>
      `${v} serait un suicide\u00a0: la pierre n'aurait aucune liberté et ne capturerait rien, ce que ces règles interdisent.`,
    ko: (v) =>
      `${v} reprend le ko tout de suite\u00a0: la règle du ko interdit de recréer la position précédente\u202f; jouez ailleurs d'abord.`,
    superko: (v) =>
      `${v} redonnerait au goban un état qu'il a déjà eu\u00a0: la règle du superko l'interdit.`,
    "off-board": (v) => `${v} n'est pas sur le goban.`,
    "wrong-phase": () => "Cette action ne correspond pas à la phase de la partie.",
    "wrong-turn": () => "Ce n'est pas votre tour.",
    unknown: (v, msg) => msg || `${v} a été refusé.`,
  },
  errorTitle: "Erreur",
  errors: {
    "invalid-request": "Le serveur a refusé ces réglages",
    "bad-request": "Le serveur n'a pas pu lire cette demande",
    "not-your-seat": "Seul le joueur de cette couleur peut faire cela",
    "bad-invitation": "Cette invitation est fausse ou a déjà servi",
    "wrong-phase": "Cela ne correspond pas à l'état actuel de la partie",
    "too-large": "La demande était trop grande",
    "no-such-game": "Cette partie n'existe pas",
    network: "Le serveur est injoignable",
    "storage-error": "Le serveur n'a pas pu l'enregistrer\u00a0: rien n'a changé, réessayez",
    "corrupt-game": "Le serveur ne peut pas rejouer l'enregistrement de cette partie",
    "not-available": "Le serveur ne peut pas faire cela",
  },
  endReasons: {
    cycle: "le même cycle de positions est revenu (triple ko ou autre)\u00a0: sans résultat selon ces règles",
    forfeit: "forfait",
  },
  notFound: "Cette partie n'existe pas.",
  networkError: "Le serveur est injoignable.",
  home: "Accueil",
  openGame: "Retour à la partie",
  resultResign: (w) => `${w} gagne par abandon`,
  resultTime: (w) => `${w} gagne au temps`,
  resultForfeit: (w) => `${w} gagne par forfait`,
  resultPoints: (w, m) => `${w} gagne de ${num(m)} ${m < 2 ? "point" : "points"}`,
  resultDraw: "Partie nulle (jigo)",
  resultVoid: "Sans résultat",
  announceMove: (c, v) => `${c} ${v}`,
  announceCaptures: (n) => (n === 1 ? ", capture 1 pierre" : `, capture ${n} pierres`),
  announcePass: (c) => `${c} passe`,
  announceScoring: "Deux passes\u00a0: marquage des pierres mortes.",
  announceResume: "La partie reprend.",
  announceUndo: "Le dernier coup a été repris.",
  clockLeft: (c) => `Pendule de ${c}`,
  periodsLeft: (n, time) => `${n} × ${time}`,
  stonesLeft: (n, time) => `${n} ${n < 2 ? "pierre" : "pierres"} en ${time}`,
  mainPlus: (main, overtime) => `${main} + ${overtime}`,
  byoyomiShort: "byo-yomi",
  bot: "Ordinateur",
  thinking: "L'ordinateur réfléchit…",
  warming: "keima se prépare (son premier coup après l'installation prend quelques secondes)…",
  engineOption: (name) => `${name} (moteur GTP)`,
  waitingWorker: "En attente d'un processus de calcul de l'ordinateur\u00a0: aucun ne tourne sur le serveur pour l'instant.",
  levels: { beginner: "débutant (le plus rapide)", intermediate: "intermédiaire", strong: "fort" },
  you: "vous",
  opponentLabel: "adversaire",
};

Object.assign(en, PLAYER_MESSAGES.en);
Object.assign(fr, PLAYER_MESSAGES.fr);
export const MESSAGES = { en, fr };
export const LANGUAGES = [
  ["en", "English"],
  ["fr", "Français"],
];

/**
 * Names of messages present in one language and missing in another (nested groups
 * as "group.key"); the build fails unless this is empty.
 */
export function missingMessages() {
  const keysOf = (table) =>
    Object.entries(table).flatMap(([k, v]) =>
      v && typeof v === "object" ? Object.keys(v).map((sub) => `${k}.${sub}`) : [k],
    );
  const all = new Set(Object.values(MESSAGES).flatMap(keysOf));
  const missing = [];
  for (const [code, table] of Object.entries(MESSAGES)) {
    const have = new Set(keysOf(table));
    for (const key of all) if (!have.has(key)) missing.push(`${code}: ${key}`);
  }
  return missing;
}

/** Picks "fr" or "en" from a stored choice, then the browser's list, else English. */
export function detectLanguage() {
  if (typeof navigator === "undefined") return "en"; // imported by the build's completeness check
  try {
    const stored = localStorage.getItem("keima.lang");
    if (stored && stored in MESSAGES) return stored;
  } catch {
    // storage may be disabled (private mode): fall back to the browser
  }
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const p of prefs) {
    const base = String(p).toLowerCase().split("-")[0];
    if (base in MESSAGES) return base;
  }
  return "en";
}

export const lang = signal(detectLanguage());

export function setLanguage(code) {
  if (!(code in MESSAGES)) return;
  try {
    localStorage.setItem("keima.lang", code);
  } catch {
    // not remembered, still switched
  }
  document.documentElement.lang = code;
  lang.set(code);
}

/** The message for key in the current language: a string, or the result of calling it with args. */
export function t(key, ...args) {
  const table = MESSAGES[lang.get()] || en;
  const value = key in table ? table[key] : en[key];
  if (value === undefined) return key;
  return typeof value === "function" ? value(...args) : value;
}

/** A number written the way the current language writes it (41.5 / 41,5). */
export function num(x) {
  if (typeof x !== "number") return String(x ?? "");
  return new Intl.NumberFormat(lang.get(), { maximumFractionDigits: 2 }).format(x);
}

/** A nested message (reasons, fields, methodNames). */
export function tn(group, key, ...args) {
  const table = (MESSAGES[lang.get()] || en)[group] || {};
  const value = key in table ? table[key] : en[group]?.[key];
  if (value === undefined) return null;
  return typeof value === "function" ? value(...args) : value;
}

/** "no dead stone", "1 dead stone", "3 dead stones" (French: "aucune pierre morte"...). */
function deadStones(n, code) {
  if (code === "fr") return n === 0 ? "aucune pierre morte" : `${n} ${n === 1 ? "pierre morte" : "pierres mortes"}`;
  return n === 0 ? "no dead stone" : `${n} dead ${n === 1 ? "stone" : "stones"}`;
}

/** Readable result from an SGF RE string ("B+5.5", "W+R", "0", "Void"). */
export function resultWords(re, code) {
  const m = MESSAGES[code] || en;
  if (!re) return "";
  if (re === "0" || re === "Draw" || re === "Jigo") return m.resultDraw;
  if (re === "Void" || re === "?") return m.resultVoid;
  const match = /^([BW])\+(.*)$/.exec(re);
  if (!match) return re;
  const winner = match[1] === "B" ? m.black : m.white;
  const how = match[2];
  if (how === "R" || how === "Resign") return m.resultResign(winner);
  if (how === "T" || how === "Time") return m.resultTime(winner);
  if (how === "F" || how === "Forfeit") return m.resultForfeit(winner);
  const n = Number(how);
  if (!Number.isNaN(n)) return m.resultPoints(winner, n);
  return re;
}
