"""What an email says, in the reader's language (English or French): a subject that says what happened to the
reader ("You won against bernard by 5.5 points", "Your turn against alice: 23 h left"), and the lines of its body
(the last move, the time left). The bell keeps its own shorter lines (``lines.line_of``).

French numbers take a decimal comma, and French typography a no-break space before ``:``.
"""

from __future__ import annotations

from typing import Any

from keima.server.games import duration_words
from keima.server.notifications import lines

NBSP = "\u00a0"

_SUBJECTS: dict[str, dict[str, str]] = {
    "en": {
        "your-turn": "Your turn against {opponent}", "your-turn.left": "Your turn against {opponent}: {left} left",
        "challenge-accepted": "{opponent} accepted your game",
        "challenge-accepted.color": "{opponent} accepted your game: you play {color}",
        "clock-low": "Your clock against {opponent} is running low",
        "clock-low.left": "Your clock against {opponent} is running low: {left} left",
        "automatch.color": "Automatch found your game against {opponent}: you play {color}",
        "won.points": "You won against {opponent} by {n}", "lost.points": "You lost against {opponent} by {n}",
        "won.R": "You won against {opponent} by resignation", "lost.R": "You resigned against {opponent}",
        "won.T": "You won against {opponent} on time", "lost.T": "You lost on time against {opponent}",
        "won.F": "You won against {opponent} by forfeit", "lost.F": "You lost against {opponent} by forfeit",
        "draw": "Draw against {opponent} (jigo)", "void": "Your game against {opponent} ended without a result",
        "point": "{n} point", "points": "{n} points",
        "digest": "Your day on keima: {parts}", "digest.empty": "Your day on keima",
        "B": "Black", "W": "White",
    },
    "fr": {
        "your-turn": "À vous de jouer contre {opponent}",
        "your-turn.left": "À vous de jouer contre {opponent}\u00a0: il reste {left}",
        "challenge-accepted": "{opponent} a accepté votre partie",
        "challenge-accepted.color": "{opponent} a accepté votre partie\u00a0: vous avez les {color}",
        "clock-low": "Votre pendule contre {opponent} s’épuise",
        "clock-low.left": "Votre pendule contre {opponent} s’épuise\u00a0: il reste {left}",
        "automatch.color": "L’appariement automatique a trouvé votre partie contre {opponent}\u00a0: vous avez les "
                           "{color}",
        "won.points": "Vous avez gagné contre {opponent} de {n}", "lost.points": "Vous avez perdu contre {opponent} de {n}",
        "won.R": "Vous avez gagné contre {opponent} par abandon", "lost.R": "Vous avez abandonné contre {opponent}",
        "won.T": "Vous avez gagné au temps contre {opponent}", "lost.T": "Vous avez perdu au temps contre {opponent}",
        "won.F": "Vous avez gagné par forfait contre {opponent}",
        "lost.F": "Vous avez perdu par forfait contre {opponent}",
        "draw": "Partie nulle contre {opponent} (jigo)", "void": "Votre partie contre {opponent} s’est terminée sans "
                                                               "résultat",
        "point": "{n}\u00a0point", "points": "{n}\u00a0points",
        "digest": "Votre journée sur keima\u00a0: {parts}", "digest.empty": "Votre journée sur keima",
        "B": "Noirs", "W": "Blancs",
    },
}

#: A digest's parts, per kind: (one, several); "{n}" the count (games for ``your-turn``).
_PARTS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {"your-turn": ("your turn in {n} game", "your turn in {n} games"),
           "challenge-accepted": ("{n} game accepted", "{n} games accepted"),
           "undo-request": ("{n} undo request", "{n} undo requests"), "chat": ("{n} message", "{n} messages"),
           "game-finished": ("{n} game over", "{n} games over"),
           "clock-low": ("{n} clock running low", "{n} clocks running low"),
           "automatch": ("{n} automatch game", "{n} automatch games"),
           "tournament-round": ("{n} tournament round", "{n} tournament rounds"),
           "club": ("{n} club announcement", "{n} club announcements")},
    "fr": {"your-turn": ("à vous de jouer dans {n} partie", "à vous de jouer dans {n} parties"),
           "challenge-accepted": ("{n} partie acceptée", "{n} parties acceptées"),
           "undo-request": ("{n} demande de reprise", "{n} demandes de reprise"),
           "chat": ("{n} message", "{n} messages"),
           "game-finished": ("{n} partie terminée", "{n} parties terminées"),
           "clock-low": ("{n} pendule qui s’épuise", "{n} pendules qui s’épuisent"),
           "automatch": ("{n} partie d’appariement automatique", "{n} parties d’appariement automatique"),
           "tournament-round": ("{n} ronde de tournoi", "{n} rondes de tournoi"),
           "club": ("{n} annonce de club", "{n} annonces de club")},
}

_BODY: dict[str, dict[str, str]] = {
    "en": {"moved": "{who} played {vertex} (move {n})", "passed": "{who} passed (move {n})",
           "moved.you": "You played {vertex} (move {n})", "passed.you": "You passed (move {n})",
           "no-move": "No move played yet", "left": "Your clock: {left} left",
           "game": "{size}×{size} game, you play {color}", "game.over": "{size}×{size} game, you played {color}",
           "headline": "Your game against {opponent}", "board": "The board", "open": "Open the game",
           "why": "You get these emails because you gave keima this address.",
           "B": "Black", "W": "White"},
    "fr": {"moved": "{who} a joué {vertex} (coup {n})", "passed": "{who} a passé (coup {n})",
           "moved.you": "Vous avez joué {vertex} (coup {n})", "passed.you": "Vous avez passé (coup {n})",
           "no-move": "Aucun coup joué pour l’instant", "left": "Votre pendule\u00a0: il reste {left}",
           "game": "Partie en {size}×{size}, vous avez les {color}",
           "game.over": "Partie en {size}×{size}, vous aviez les {color}",
           "headline": "Votre partie contre {opponent}", "board": "Le goban",
           "open": "Ouvrir la partie", "why": "Vous recevez ces courriels parce que vous avez donné cette adresse à "
                                              "keima.",
           "B": "Noirs", "W": "Blancs"},
}

_UNITS_FR = {"d": "j"}


def _lang(lang: str | None) -> str:
    return "fr" if (lang or "en")[:2] == "fr" else "en"


def number(x: float, lang: str) -> str:
    """``x`` as a reader of ``lang`` writes it: ``5.5``, ``5,5`` in French; no ``.0``."""
    text = f"{x:g}"
    return text.replace(".", ",") if _lang(lang) == "fr" else text


def duration(seconds: float, lang: str) -> str:
    """A time left as the lobby words it (``"2 d 5 h"``, ``"23 h"``), in ``lang`` (``"2 j 5 h"`` in French)."""
    text = duration_words(seconds)
    if _lang(lang) != "fr":
        return text
    return " ".join(_UNITS_FR.get(t, t) for t in text.split(" "))


def _result(data: dict[str, Any], lang: str) -> str | None:
    """A finished game's subject from the reader's side (None: their colour or the result is not known)."""
    s = _SUBJECTS[_lang(lang)]
    result, me = str(data.get("result") or ""), data.get("color")
    opponent = data.get("opponent") or lines.words(lang)["someone"]
    if result in ("0", "Draw", "Jigo"):
        return s["draw"].format(opponent=opponent)
    if result in ("Void", "?"):
        return s["void"].format(opponent=opponent)
    winner, plus, how = result.partition("+")
    if not plus or winner not in ("B", "W") or me not in ("B", "W"):
        return None
    side = "won" if winner == me else "lost"
    how = {"Resign": "R", "Time": "T", "Forfeit": "F"}.get(how, how)
    if how in ("R", "T", "F"):
        return s[f"{side}.{how}"].format(opponent=opponent)
    try:
        points = float(how)
    except ValueError:
        return None
    # "1,5 point" in French (singular under 2), "1.5 points" in English.
    one = points < 2 if _lang(lang) == "fr" else points == 1
    n = s["point" if one else "points"].format(n=number(points, lang))
    return s[f"{side}.points"].format(opponent=opponent, n=n)


def subject(item: dict[str, Any], lang: str, left: float | None = None) -> str:
    """What happened to the reader, in ``lang``, for one notification (``{"kind", "game", "data"}``): the
    subject of its email and the headline of its part of a digest. ``left``: the seconds left on the reader's
    clock (``your-turn``: said when given; ``clock-low``: the notification's own when not given)."""
    s = _SUBJECTS[_lang(lang)]
    data = item.get("data") or {}
    kind = item.get("kind")
    opponent = data.get("opponent") or lines.words(lang)["someone"]
    color = s.get(str(data.get("color")))
    if kind == "your-turn":
        return (s["your-turn"] if left is None else s["your-turn.left"]).format(
            opponent=opponent, left=duration(left or 0, lang))
    if kind == "clock-low":
        left = data.get("left") if left is None else left
        return (s["clock-low"] if left is None else s["clock-low.left"]).format(
            opponent=opponent, left=duration(float(left or 0), lang))
    if kind in ("challenge-accepted", "automatch") and color:
        return s[f"{kind}.color"].format(opponent=opponent, color=color)
    if kind == "game-finished":
        said = _result(data, lang)
        if said is not None:
            return said
    return lines.line_of(item, lang)


def _weight(item: dict[str, Any]) -> int:
    """How many things one notification stands for: the messages of a chat line, else 1."""
    try:
        return max(1, int((item.get("data") or {}).get("count", 1))) if item.get("kind") == "chat" else 1
    except (TypeError, ValueError):
        return 1


def digest_subject(items: list[dict[str, Any]], lang: str) -> str:
    """The subject of a digest of ``items``: what came, kind by kind ("Your day on keima: your turn in 2 games, 3
    messages"), a digest of one item too (its own subject would read as an instant email). A chat line counts the
    messages it stands for (``data["count"]``)."""
    s, parts = _SUBJECTS[_lang(lang)], _PARTS[_lang(lang)]
    counts: dict[str, int] = {}
    turns: set[str] = set()
    for item in items:
        kind = str(item.get("kind"))
        if kind == "your-turn":
            turns.add(str(item.get("game")))
            counts[kind] = len(turns)
        elif kind in parts:
            counts[kind] = counts.get(kind, 0) + _weight(item)
    said = [parts[k][0 if n == 1 else 1].format(n=n) for k, n in counts.items()]
    return s["digest"].format(parts=", ".join(said)) if said else s["digest.empty"]


def body_words(lang: str) -> dict[str, str]:
    """The fixed texts of an email's body in ``lang``: ``open``, ``why``, ``board``..."""
    return _BODY[_lang(lang)]


def move_line(lang: str, number_: int, vertex: str | None, who: str | None) -> str:
    """The last move in words: ``"alice played D4 (move 12)"``, a pass (``vertex`` None), or the reader's own
    (``who`` None); ``number_`` 0: no move yet."""
    b = _BODY[_lang(lang)]
    if number_ <= 0:
        return b["no-move"]
    key = ("passed" if vertex is None else "moved") + (".you" if who is None else "")
    return b[key].format(who=who, vertex=vertex, n=number_)


def left_line(lang: str, seconds: float) -> str:
    """The reader's time left: ``"Your clock: 23 h left"``."""
    return _BODY[_lang(lang)]["left"].format(left=duration(seconds, lang))


def game_line(lang: str, size: int, color: str, over: bool = False) -> str:
    """Which game: ``"9×9 game, you play Black"`` (``color`` ``"B"`` or ``"W"``; ``over``: "you played")."""
    b = _BODY[_lang(lang)]
    return b["game.over" if over else "game"].format(size=size, color=b[color])


def game_headline(lang: str, opponent: str) -> str:
    """A game's headline when nothing new is left to say of it: ``"Your game against alice"``."""
    return _BODY[_lang(lang)]["headline"].format(opponent=opponent)
