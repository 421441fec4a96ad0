"""An email as a mail program shows it: the subject says what happened to the reader, the body shows each game it
talks about (the board as a PNG picture with the last move marked, the last move in words, the reader's time left)
and links to it, in the reader's language (docs/correspondence.md, *Email*).

The message is ``multipart/alternative``: a ``text/plain`` part, then a ``multipart/related`` part holding the
``text/html`` part and its pictures (``image/png``, each with a ``Content-ID`` the html names as ``cid:``), since
mail programs show neither SVG nor a picture from the web they were not allowed to load. The games are read from
the database when the message is built (``read_game``): a notification stays small, and a digest shows each game as
it is at 18:00. A game that cannot be read (gone, or a log that does not replay) leaves its part without a picture;
the message still goes.

``List-Unsubscribe`` is written as it is, ``<https://...>``: Python's email package folds a long header into RFC 2047
encoded words, where mail programs no longer find the one-click link (RFC 8058, with ``List-Unsubscribe-Post``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import formatdate
from html import escape
from typing import Any
from urllib.parse import quote, urlsplit

from sqlalchemy.engine import Engine

from keima.rules.coords import to_gtp
from keima.server import timesource
from keima.server.games import from_row, reads
from keima.server.notifications import lines, mail_words
from keima.server.notifications.board_png import SIDE, board_png
from keima.server.storage import Store

#: Headers written as they are: never folded, never encoded (their values are ASCII and short).
RAW_HEADERS = frozenset({"list-unsubscribe", "list-unsubscribe-post"})
#: The most games a digest shows a picture of (the others are named and linked).
MAX_PICTURES = 10


class MailPolicy(EmailPolicy):
    """The email package's default policy, but ``RAW_HEADERS`` are written unfolded and unencoded (see the
    module docstring); a value that is not ASCII is left to the default policy."""

    def fold(self, name: str, value: str) -> str:
        """``name: value`` as written in the message (see the class docstring)."""
        if name.lower() in RAW_HEADERS and str(value).isascii():
            return f"{name}: {value}{self.linesep}"
        folded: str = super().fold(name, value)
        return folded

    def fold_binary(self, name: str, value: str) -> bytes:
        """``fold`` as bytes (what smtplib sends)."""
        if name.lower() in RAW_HEADERS and str(value).isascii():
            return f"{name}: {value}{self.linesep}".encode("ascii")
        return super().fold_binary(name, value)


POLICY = MailPolicy()


@dataclass(frozen=True)
class GameFacts:
    """What an email shows of a game: its ``size``, the ``colors`` of its points (row 0 at the top), its last
    move (``last_number`` 0: none yet; ``last_point`` None: a pass; ``last_color`` 1 black, 2 white),
    ``names`` per colour, the ``reader``'s colour (None: not a player of it), the seconds ``left`` on the
    reader's clock when it runs (None otherwise), the ``dead`` stones of a counted game, the colour ``to_move``
    (None: nobody's turn, the game is counted or over) and whether the game is ``over``."""

    size: int
    colors: tuple[int, ...]
    last_number: int
    last_point: int | None
    last_color: int | None
    names: dict[int, str | None]
    reader: int | None
    left: float | None
    dead: frozenset[int]
    to_move: int | None = None
    over: bool = False


def read_game(engine: Engine, game_id: str, player_id: str) -> GameFacts | None:
    """Game ``game_id`` as the email of ``player_id`` shows it now; None when there is no such game or its log
    does not replay. Blocking; raises the database's errors (the message is tried again later)."""
    stored = Store(engine).load(game_id)
    if stored is None:
        return None
    try:
        s = from_row(stored.row, stored.entries, stored.people)
    except (ValueError, KeyError, TypeError):  # GameError is a ValueError
        return None
    g = s.game
    reader = next((c for c, p in s.people.items() if p.get("id") == player_id), None)
    left = None
    c = s.clock.running
    if c is not None and c == reader and s.clock.spec.correspondence:
        # As the game's cache reads it back: the turn started when its last change was stored, not now.
        now = timesource.now()
        since = s.clock.restored_since
        if since is None:
            _seq, last_at = reads.head(engine, game_id)
            since = now if last_at is None else last_at.timestamp()
        s.clock.started_at = min(since, now)
        left = s.clock.time_left(c, now)
    m = g.last_move
    return GameFacts(g.size, tuple(g.board.colors), 0 if m is None else m.number, None if m is None else m.point,
                     None if m is None else m.color, {k: p.get("name") for k, p in s.people.items()}, reader, left,
                     frozenset(g.dead), g.to_move if g.phase in ("play", "handicap") else None,
                     g.phase == "finished")


@dataclass
class _Section:
    """One game's part of the body (or one notification without a game): its headlines and what it shows."""

    game: str | None
    lines: list[str]
    kinds: set[str]
    facts: GameFacts | None = None
    link: tuple[str, str] | None = None  # (the words, the address)
    picture: str | None = None  # its Content-ID


def _details(facts: GameFacts | None, lang: str, kinds: set[str]) -> list[str]:
    """The lines under a game's headlines: which game, the last move, the time left (your turn, clock low: the
    last line then)."""
    if facts is None:
        return []
    out = []
    if facts.reader is not None:
        out.append(mail_words.game_line(lang, facts.size, "B" if facts.reader == 1 else "W", facts.over))
    who = None if facts.last_color is None or facts.last_color == facts.reader else (
        facts.names.get(facts.last_color) or mail_words.body_words(lang)["B" if facts.last_color == 1 else "W"])
    vertex = None if facts.last_point is None else to_gtp(facts.last_point, facts.size)
    out.append(mail_words.move_line(lang, facts.last_number, vertex, who))
    if facts.left is not None and kinds & {"your-turn", "clock-low"}:
        out.append(mail_words.left_line(lang, facts.left))
    return out


class Letter:
    """Builds the emails of one mailer: ``public_url`` (no trailing slash) for the links, ``sender`` the From
    address, ``unsubscribe(player)`` and ``verify(player, address)`` the signed links, ``game(game_id, player)``
    the game as the player's email shows it (``read_game``)."""

    def __init__(self, public_url: str, sender: str, unsubscribe: Callable[[str], str],
                 verify: Callable[[str, str], str], game: Callable[[str, str], GameFacts | None]) -> None:
        self.public_url = public_url
        self.sender = sender
        self.unsubscribe = unsubscribe
        self.verify = verify
        self.game = game

    def message(self, message_id: str, payload: dict[str, Any]) -> EmailMessage:
        """The email of a queued ``payload`` (``{"to", "lang", "player", "items", "digest"?, "verify"?}``).
        Raises for a payload it cannot build (the mailer fails that message alone)."""
        lang = (payload.get("lang") or "en")[:2]
        player = payload["player"]
        unsubscribe = self.unsubscribe(player)
        msg = EmailMessage(policy=POLICY)
        msg["From"] = self.sender
        msg["To"] = payload["to"]
        msg["Date"] = formatdate(timesource.now(), usegmt=True)
        msg["Message-ID"] = f"<{message_id}@{urlsplit(self.public_url).hostname or 'keima'}>"
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        w = lines.words(lang)
        if payload.get("verify"):
            msg["Subject"] = w["verify"]
            link = self.verify(player, payload["to"])
            msg.set_content(f"{w['verify-body']}\n{link}\n\n-- \n{self._unsubscribe_line(lang, unsubscribe)}\n")
            msg["Content-Language"] = lang
            return msg
        sections, items = self._sections(payload["items"], lang, player, bool(payload.get("digest")))
        left = {s.game: s.facts.left for s in sections if s.game and s.facts and s.facts.left is not None}
        if payload.get("digest") or len(items) != 1:
            subject = mail_words.digest_subject(items, lang)
        else:
            subject = mail_words.subject(items[0], lang, left.get(items[0].get("game") or ""))
        msg["Subject"] = lines.header_text(subject)
        msg.set_content(self._text(sections, lang, unsubscribe))
        msg.add_alternative(self._html(subject, sections, lang, unsubscribe), subtype="html")
        pictures = [s for s in sections if s.picture and s.facts]
        if pictures:
            html_part = list(msg.iter_parts())[1]
            assert isinstance(html_part, EmailMessage)  # the alternative just added
            for s in pictures:
                assert s.facts is not None and s.picture is not None
                f = s.facts
                png = board_png(f.colors, f.size, f.last_point, f.dead)
                html_part.add_related(png, "image", "png", cid=f"<{s.picture}>", filename=f"{s.game}.png",
                                      disposition="inline")
        msg["Content-Language"] = lang  # after the content, which replaces the Content- headers
        return msg

    def _sections(self, items: list[dict[str, Any]], lang: str, player: str,
                  stale: bool) -> tuple[list[_Section], list[dict[str, Any]]]:
        """The body's parts: one per game (its notifications' headlines together, in the order they came, each
        once), one per notification without a game; and the items told, each with the reader's colour where the
        game says it and the notification did not (an automatch game's). ``stale``: leave out the turns the
        reader has played since (a digest's)."""
        out: list[_Section] = []
        by_game: dict[str, _Section] = {}
        told: list[dict[str, Any]] = []
        host = urlsplit(self.public_url).hostname or "keima"
        for item in items:
            game = item.get("game")
            kind = str(item.get("kind"))
            section = by_game.get(game) if game else None
            if section is None:
                section = _Section(game, [], set())
                out.append(section)
                if game:
                    by_game[game] = section
                    section.facts = self.game(game, player)
                    section.link = (mail_words.body_words(lang)["open"], f"{self.public_url}/g/{quote(game)}")
                    if section.facts is not None and sum(1 for s in out if s.picture) < MAX_PICTURES:
                        section.picture = f"board{len(out)}.{quote(game)}@{host}"
                elif (item.get("data") or {}).get("club"):
                    section.link = (lines.words(lang)["open-club"],
                                    f"{self.public_url}/c/{quote(str(item['data']['club']))}")
                elif (item.get("data") or {}).get("tournament"):
                    section.link = (lines.words(lang)["open-tournament"],
                                    f"{self.public_url}/t/{quote(str(item['data']['tournament']))}")
            data = dict(item.get("data") or {})
            facts = section.facts
            if data.get("color") not in ("B", "W") and facts is not None and facts.reader is not None:
                data["color"] = "B" if facts.reader == 1 else "W"
            if stale and kind in ("your-turn", "clock-low") and facts is not None and facts.to_move != facts.reader:
                continue  # the reader has played since: the digest would say "your turn" falsely
            told.append({**item, "data": data})
            # In the body, the time left has a line of its own: the headline says what happened.
            line = mail_words.subject({**item, "data": {**data, "left": None}}, lang)
            if line not in section.lines:  # three turns of one game: said once
                section.lines.append(line)
            section.kinds.add(kind)
        for section in out:
            if not section.lines and section.facts is not None:  # only turns already played
                opponent = section.facts.names.get(3 - (section.facts.reader or 1))
                section.lines.append(mail_words.game_headline(lang, opponent or lines.words(lang)["someone"]))
        return out, told

    @staticmethod
    def _unsubscribe_line(lang: str, url: str) -> str:
        sep = "\u00a0: " if lang == "fr" else ": "
        return f"{lines.words(lang)['unsubscribe']}{sep}{url}"

    def _text(self, sections: list[_Section], lang: str, unsubscribe: str) -> str:
        sep = "\u00a0: " if lang == "fr" else ": "
        out: list[str] = []
        for s in sections:
            out.extend(s.lines)
            out.extend(f"  {line}" for line in _details(s.facts, lang, s.kinds))
            if s.link:
                out.append(f"  {s.link[0]}{sep}{s.link[1]}")
            out.append("")
        why = mail_words.body_words(lang)["why"]
        return "\n".join(out) + f"-- \n{why}\n{self._unsubscribe_line(lang, unsubscribe)}\n"

    def _html(self, subject: str, sections: list[_Section], lang: str, unsubscribe: str) -> str:
        b = mail_words.body_words(lang)
        parts = []
        for s in sections:
            head = "".join(f'<p style="margin:0 0 6px;font-size:{17 if i == 0 else 15}px;font-weight:600">'
                           f'{escape(line)}</p>' for i, line in enumerate(s.lines))
            picture = ""
            if s.picture and s.facts:
                alt = escape(b["board"], quote=True)
                picture = (f'<img src="cid:{escape(s.picture, quote=True)}" width="{SIDE}" height="{SIDE}" '
                           f'alt="{alt}" style="display:block;max-width:100%;height:auto;border:0;'
                           'margin:10px 0;border-radius:4px">')
            said = _details(s.facts, lang, s.kinds)
            timed = s.facts is not None and s.facts.left is not None and bool(s.kinds & {"your-turn", "clock-low"})
            details = "".join(f'<p style="margin:4px 0{";font-weight:700" if timed and i == len(said) - 1 else ""}">'
                              f'{escape(line)}</p>' for i, line in enumerate(said))
            link = ""
            if s.link:
                link = (f'<p style="margin:12px 0 0"><a href="{escape(s.link[1], quote=True)}" '
                        'style="display:inline-block;background:#2f5d50;color:#ffffff;padding:9px 16px;'
                        f'border-radius:6px;text-decoration:none;font-weight:600">{escape(s.link[0])}</a></p>')
            parts.append(f'<div style="padding:16px 0;border-bottom:1px solid #e6e0d4">{head}{picture}{details}'
                         f'{link}</div>')
        footer = (f'<p style="margin:16px 0 0;font-size:12px;color:#6b6457">{escape(b["why"])}<br>'
                  f'<a href="{escape(unsubscribe, quote=True)}" style="color:#6b6457">'
                  f'{escape(lines.words(lang)["unsubscribe"])}</a></p>')
        return ("<!doctype html>\n"
                f'<html lang="{lang}"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{escape(subject)}</title></head>\n"
                '<body style="margin:0;padding:12px;background:#f4f1ea;color:#222;'
                'font-family:-apple-system,\'Segoe UI\',Roboto,Helvetica,Arial,sans-serif;font-size:15px">\n'
                '<div style="max-width:440px;margin:0 auto;background:#ffffff;border-radius:8px;padding:0 18px 16px">'
                '\n' + "\n".join(parts) + f"\n{footer}\n</div>\n</body></html>\n")
