"""What a notification says in one line, in the reader's language: the words the bell, the emails' subjects and
their bodies share (``line_of``, ``words``), a game's result in words, and a text made fit for a mail header."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from keima.server import timesource
from keima.server.games import duration_words

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "your-turn": "Your move against {opponent}", "challenge-accepted": "{opponent} accepted your game",
        "undo-request": "{opponent} asks to take back a move", "chat": "{opponent} wrote: {text}",
        "game-finished": "Game over against {opponent}: {result}",
        "clock-low": "Your clock against {opponent} is running low: {left} left",
        "automatch": "Automatch found your game against {opponent}",
        "count-deadline": "The count against {opponent}: the marking on the board stands in {left} unless you answer",
        "count-deadline.past": "The count against {opponent}: its deadline has passed",
        "count-deadline.accepted": "{opponent} accepted the marking of your count: it stands in {left} unless you "
                                   "answer",
        "tournament-round.paired": "{name}: round {round} is paired",
        "tournament-round.started": "{name}: round {round} has started",
        "tournament-round.starts": "{name}: round {round} starts on {when} (UTC)",
        "club": "{name}: {text}", "open-club": "Open the club",
        "digest": "keima: your day", "open": "Open the game", "open-tournament": "Open the tournament",
        "unsubscribe": "Stop these emails",
        "someone": "your opponent", "verify": "Confirm your email address for keima",
        "verify-body": "Open this link to receive keima's notifications at this address:",
        # -- moderation (issue 47) --
        "moderation.warn": "A moderator warned you: {text}",
        "moderation.mute": "A moderator muted you in every chat until {when} (UTC): {text}",
        "moderation.suspend": "A moderator suspended your account until {when} (UTC): {text}",
        "moderation.ban": "A moderator banned your account: {text}",
        "moderation.rename": "A moderator renamed your account {name}: {text}",
        "moderation.lift": "A moderator lifted the mute and suspension of your account: {text}",
        "moderation.annul": "A moderator annulled the rating effect of a game of yours: {text}",
        "moderation.handled": "A moderator handled your report about {name}: {text}",
    },
    "fr": {
        "your-turn": "À vous de jouer contre {opponent}", "challenge-accepted": "{opponent} a accepté votre partie",
        "undo-request": "{opponent} demande à reprendre un coup", "chat": "{opponent} a écrit\u00a0: {text}",
        "game-finished": "Partie terminée contre {opponent}\u00a0: {result}",
        "clock-low": "Votre pendule contre {opponent} s’épuise\u00a0: il reste {left}",
        "automatch": "L’appariement automatique a trouvé votre partie contre {opponent}",
        "count-deadline": "Le décompte contre {opponent} : le marquage du plateau sera retenu dans {left} sans "
                          "réponse de votre part",
        "count-deadline.past": "Le décompte contre {opponent}\u00a0: son délai est passé",
        "count-deadline.accepted": "{opponent} a accepté le marquage de votre décompte\u00a0: il sera retenu dans "
                                   "{left} sans réponse de votre part",
        "tournament-round.paired": "{name}\u00a0: la ronde {round} est appariée",
        "tournament-round.started": "{name}\u00a0: la ronde {round} a commencé",
        "tournament-round.starts": "{name}\u00a0: la ronde {round} commence le {when} (UTC)",
        "club": "{name}\u00a0: {text}", "open-club": "Ouvrir le club",
        "digest": "keima\u00a0: votre journée", "open": "Ouvrir la partie", "open-tournament": "Ouvrir le tournoi",
        "unsubscribe": "Ne plus recevoir ces courriels",
        "someone": "votre adversaire", "verify": "Confirmez votre adresse pour keima",
        "verify-body": "Ouvrez ce lien pour recevoir les notifications de keima à cette adresse\u00a0:",
        # -- moderation (issue 47) --
        "moderation.warn": "Un modérateur vous a averti\u00a0: {text}",
        "moderation.mute": "Un modérateur vous a rendu muet dans toutes les discussions jusqu’au {when} (UTC)\u00a0: "
                           "{text}",
        "moderation.suspend": "Un modérateur a suspendu votre compte jusqu’au {when} (UTC)\u00a0: {text}",
        "moderation.ban": "Un modérateur a banni votre compte\u00a0: {text}",
        "moderation.rename": "Un modérateur a renommé votre compte {name}\u00a0: {text}",
        "moderation.lift": "Un modérateur a levé le silence et la suspension de votre compte\u00a0: {text}",
        "moderation.annul": "Un modérateur a annulé l’effet sur le classement d’une de vos parties\u00a0: {text}",
        "moderation.handled": "Un modérateur a traité votre signalement de {name}\u00a0: {text}",
    },
}


#: A game's result in words (the page's own, web/src/i18n): winner, then how; "{w}" the winner, "{n}" the points.
_RESULTS: dict[str, dict[str, str]] = {
    "en": {"B": "Black", "W": "White", "R": "{w} wins by resignation", "T": "{w} wins on time",
           "F": "{w} wins by forfeit", "1": "{w} wins by {n} point", "n": "{w} wins by {n} points",
           "draw": "Draw (jigo)", "void": "No result"},
    "fr": {"B": "Noir", "W": "Blanc", "R": "{w} gagne par abandon", "T": "{w} gagne au temps",
           "F": "{w} gagne par forfait", "1": "{w} gagne de {n}\u00a0point", "n": "{w} gagne de {n}\u00a0points",
           "draw": "Partie nulle (jigo)", "void": "Sans résultat"},
}


def result_words(result: str, lang: str) -> str:
    """An SGF result ("B+R", "W+3.5", "0", "Void") in words in ``lang`` ("Noir gagne par abandon"); a result it
    cannot read is returned as it is."""
    w = _RESULTS.get((lang or "en")[:2], _RESULTS["en"])
    if result in ("0", "Draw", "Jigo"):
        return w["draw"]
    if result in ("Void", "?"):
        return w["void"]
    winner, plus, how = result.partition("+")
    if not plus or winner not in ("B", "W"):
        return result
    key = {"Resign": "R", "Time": "T", "Forfeit": "F"}.get(how, how)
    if key in ("R", "T", "F"):
        return w[key].format(w=w[winner])
    try:
        points = float(how)
    except ValueError:
        return result
    french = (lang or "en")[:2] == "fr"
    n = f"{points:g}".replace(".", ",") if french else f"{points:g}"
    one = points < 2 if french else points == 1  # "1,5 point" but "1.5 points"
    return w["1" if one else "n"].format(w=w[winner], n=n)


def words(lang: str) -> dict[str, str]:
    """The texts in ``lang`` (English for a language keima does not speak)."""
    return _WORDS.get((lang or "en")[:2], _WORDS["en"])


def line_of(item: dict[str, Any], lang: str) -> str:
    """One notification in words (``{"kind", "game", "data"}``), in ``lang``: the bell and the emails use it."""
    w = words(lang)
    data = item.get("data") or {}
    left = data.get("left")
    key = item["kind"]
    when = ""
    if key == "count-deadline":  # the time left until the marking stands, as of the reading; then said in the past
        deadline = _instant(data.get("deadline"))
        left = None if deadline is None else (deadline - timesource.now_utc()).total_seconds()
        if left is not None and left <= 0:
            key = "count-deadline.past"
        elif data.get("accepted"):  # the opponent's side is done: only the reader's answer is awaited
            key = "count-deadline.accepted"
    if key == "tournament-round":  # one text per action; a start still to come says when
        key = f"{key}.{data.get('action', 'paired')}"
        start = _instant(data.get("start_at"))
        if key.endswith(".started") and start is not None and start > timesource.now_utc():
            key, when = f"{key[:-2]}s", start.strftime("%Y-%m-%d %H:%M")
    if key == "moderation":  # one text per action (keima.server.moderation)
        key = f"moderation.{data.get('action', 'warn')}"
        until = _instant(data.get("until"))
        when = "" if until is None else until.strftime("%Y-%m-%d %H:%M")
    return w[key].format(opponent=data.get("opponent") or w["someone"], text=data.get("text", ""),
                         result=result_words(data.get("result") or "", lang), left=duration_words(left) if left else "",
                         name=data.get("name") or "", round=data.get("round") or "", when=when)


def _instant(text: Any) -> datetime | None:
    """An ISO time in UTC (None: none, or not one)."""
    try:
        at = datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None
    return None if at is None else (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)


def header_text(text: str, limit: int = 200) -> str:
    """``text`` fit for a mail header: line breaks and control characters (a chat message's, a tournament name's)
    made spaces, runs of spaces made one, cut to ``limit`` characters."""
    one = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    # Plain spaces only: the French no-break space before a colon is the text's own.
    one = re.sub(r" {2,}", " ", one).strip(" ")
    return one if len(one) <= limit else one[: limit - 1] + "\u2026"
