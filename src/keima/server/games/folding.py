"""How a stored log becomes a game session: ``replay`` folds a whole log into a fresh session, ``fold`` one entry
(the next version), ``take_notes`` what an entry says besides the game's events and the clock. The entries are those
``keima.server.games.session.GameSession``'s changes return (its docstring gives their keys), so the database alone
rebuilds every game, and a process catches its copy up with what another one stored (``keima.server.games.cache``).
"""

from __future__ import annotations

from typing import Any

from keima.rules.events import Event
from keima.server import timesource
from keima.server.games.seats import parse_cname
from keima.server.games.session import GameSession


def replay(s: GameSession, entries: list[dict[str, Any]]) -> None:
    """Fold a stored log into the fresh session ``s`` (``fold`` for each entry: its game replayed by the referee,
    its clock, undo request and proposal as of the last entry); raises ``GameError`` (or
    ``KeyError``/``TypeError``/``ValueError``) for a log that does not replay."""
    for entry in entries:
        fold(s, entry)
    s.sync_clock(timesource.now())


def fold(s: GameSession, entry: dict[str, Any]) -> None:
    """Apply one stored log entry (the next version) to the session ``s``: the one routine by which a log becomes
    a game, from the start (``replay``) or from a copy another process has moved past (``catch_up``).
    The running clock is left stopped: the caller restarts it (``sync_clock``). Raises ``GameError`` (or
    ``KeyError``/``TypeError``/``ValueError``) for an entry that does not fit; the session is then half
    changed and must be dropped."""
    g = s.game
    n = int(entry.get("undo", 0))
    for _ in range(n):
        g.undo()
    if n:
        del s.event_dicts[len(s.event_dicts) - n :]
    for d in entry.get("events", ()):
        g.apply(Event.from_dict(d))
        s.event_dicts.append(d)
    if "clock" in entry:
        s.clock.restore(entry["clock"])
    if "join" in entry:
        s.invite_hash = None
    for name in entry.get("revoke", ()):
        s.revoke(frozenset({parse_cname(name)}), {})
    take_notes(s, entry)
    s.version += 1


def take_notes(s: GameSession, entry: dict[str, Any]) -> None:
    """Take what a stored log entry says besides the game's events and the clock: the undo request, the
    dead-stone proposal, the computer seat's note on a marking and a chat message (``keima.server.games.chat``)."""
    if "undo_request" in entry:
        u = entry["undo_request"]
        s.undo_request = None if u is None else parse_cname(u)
    if "proposal" in entry:
        p = entry["proposal"]
        s.proposal = None if p is None else frozenset(p)
    if "bot_note" in entry:
        s.bot_note = entry["bot_note"]
    if "scoring" in entry:
        sc = entry["scoring"]
        s.scoring = None if sc is None else (float(sc[0]), float(sc[1]))
    if "chat" in entry:
        s.chat.append(entry["chat"])
    if "rename" in entry:
        r = entry["rename"]
        s.people[parse_cname(r["color"])] = dict(r["person"])
    if "rated" in entry:
        s.rating_change = dict(entry["rated"])
