"""Notifications: what a player is told (the bell in the page, and email), made once from the game events.

A durable outbox subscriber (``SUBSCRIBER``, ``keima.server.games.outbox``) turns game events into notifications, in the
transaction that records its progress, so each event notifies exactly once whatever the processes did:

- ``your-turn``: a move, a pass or handicap stones in a correspondence game: the player to move (not after a move
  that their conditional move answered at once: the turn is the mover's again);
- ``challenge-accepted``: someone took the other seat of a player's challenge or invitation;
- ``undo-request``: the opponent asks to take a move back (correspondence games);
- ``chat``: a message from the opponent (correspondence games);
- ``game-finished``: the game ended, with its result;
- ``clock-low``: a correspondence clock under 24 hours (the scheduler's ``warn`` job, ``warn_handler``);
- ``count-deadline``: a day before a correspondence game's marking stands by default, to each player who has not
  accepted it (the scheduler's ``remind`` job, ``keima.server.notifications.count_reminder``).

Three kinds come from elsewhere, in the transaction of what they tell:

- ``automatch``: automatch made a game for the player (``keima.server.automatch.matchmaker``: ``matched``, written by the
  process whose claim of the pair won, so once);
- ``tournament-round``: a round of a tournament the player's account plays in was paired or started
  (``keima.server.tournaments.store``: ``round_notices``, once per player, tournament, round and action);
- ``club``: an admin of a club the player is a member of posted an announcement
  (``keima.server.clubs.page_store.announce``, once per member and announcement).

Live games notify only ``challenge-accepted`` and ``game-finished``: their players are at the board.

Each notification is kept for the bell (``notifications``), one per game and kind: a new one replaces the older
ones of its game and kind (``merge``; chat messages are counted, ``data["count"]``). It is read by itself when it has
been answered: the player's move reads their ``your-turn`` and ``clock-low`` of that game, the end of a game reads
every turn, clock and undo notification of it, and opening the game's page reads all of the game's (``mark_read``
with ``game``, which the page calls). When the player has a verified address and wants that
kind by email ``now`` and has not had a keima page visible in the last ``ACTIVE_S`` seconds, an email is queued
(``emails``, keyed by its Message-ID, so it is queued once); ``digest`` leaves it for the day's digest
(``queue_digests``), which gathers the notifications still unread. ``keima.server.notifications.mailer`` sends the queue.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server import timesource
from keima.server.accounts import blocked_pair
from keima.server.games import WARN_S, GameService, Handler, Subscriber, cname, zone
from keima.server.live import bell
from keima.server.storage import emails, games, notifications, now_utc, player_settings

log = logging.getLogger("keima.server")

NAME = "notifications"
Kind = Literal["your-turn", "challenge-accepted", "undo-request", "chat", "game-finished", "clock-low", "automatch",
               "tournament-round", "count-deadline", "moderation", "club"]
KINDS: tuple[Kind, ...] = ("your-turn", "challenge-accepted", "undo-request", "chat", "game-finished", "clock-low",
                           "automatch", "tournament-round", "count-deadline", "club")
Pref = Literal["off", "now", "digest"]
#: What a player is sent by email until they choose (docs/correspondence.md).
DEFAULT_PREFS: dict[str, Pref] = {"your-turn": "now", "challenge-accepted": "now", "undo-request": "digest",
                                  "chat": "digest", "game-finished": "digest", "clock-low": "now",
                                  # Said at once: an email goes only to a player with no page open (``ACTIVE_S``),
                                  # who waits for a correspondence game.
                                  "automatch": "now",
                                  # A round's pairing and start time matter days ahead: said at once.
                                  "tournament-round": "now",
                                  # The marking stands by default a day later: said at once.
                                  "count-deadline": "now",
                                  # A club's announcement (issue 46): news, not a move to make; the day's digest.
                                  "club": "digest"}
ACTIVE_S = 300.0  # a page visible this recently: the player is here, no email
DIGEST_HOUR = 18  # the day's digest goes at 18:00 in the player's time zone
#: The event types this subscriber reads (``keima.server.games.events.durable_types``).
EVENT_KINDS = frozenset({"moved", "passed", "handicap", "joined", "undo_requested", "chatted", "finished"})


def prefs_of(stored: dict[str, Any] | None) -> dict[str, Pref]:
    """A player's email choices, the defaults completed by what they chose."""
    out = dict(DEFAULT_PREFS)
    for k, v in (stored or {}).items():
        if k in out and v in ("off", "now", "digest"):
            out[k] = v
    return out


def _other(color: str) -> str:
    return "W" if color == "B" else "B"


def _targets(event: dict[str, Any]) -> list[tuple[str, Kind, dict[str, Any]]]:
    """(player id, kind, data) of each notification an outbox event makes; ``data`` names the ``opponent`` and the
    reader's ``color`` ("B" or "W")."""
    people: dict[str, Any] = event["people"]
    data = event["data"]
    kind = event["kind"]

    def pid(color: str) -> str | None:
        p = people.get(color) or {}
        return p.get("id")

    def name(color: str) -> str | None:
        p = people.get(color) or {}
        return p.get("name")

    out: list[tuple[str, Kind, dict[str, Any]]] = []

    def add(color: str, k: Kind, **extra: Any) -> None:
        who = pid(color)
        if who:
            # ``color``: the reader's, so that an email can say "you won" and "you play Black".
            out.append((who, k, {"opponent": name(_other(color)), "color": color, **extra}))

    if kind in ("moved", "passed", "handicap"):
        mover = (data.get("move") or {}).get("color") or ("B" if kind == "handicap" else None)
        # The pass that ends the play starts the count: it is nobody's turn to move. A move answered at once by
        # the other's conditional move (stored with it, ``answered``) leaves the turn with its mover: the answer's
        # own event tells them.
        if mover and data.get("phase", "play") in ("play", "handicap") and not data.get("answered"):
            add(_other(mover), "your-turn")
    elif kind == "joined":
        add(_other(data["color"]), "challenge-accepted")
    elif kind == "undo_requested":
        add(_other(data["by"]), "undo-request")
    elif kind == "chatted":
        m = data.get("message") or {}
        if m.get("to") == "players":  # to the players: the one who did not write it (``from`` is a name)
            for color in ("B", "W"):
                if name(color) is not None and name(color) != m.get("from"):
                    out.append((pid(color) or "", "chat", {"opponent": m.get("from"), "color": color,
                                                          "text": str(m.get("text", ""))[:200]}))
            out = [o for o in out if o[0]]
    elif kind == "finished":
        for color in ("B", "W"):
            add(color, "game-finished", result=data.get("result"), reason=data.get("reason"))
    return out


def active(row: Any, now: datetime) -> bool:
    """True when the player had a keima page visible in the last ``ACTIVE_S`` seconds."""
    seen = None if row is None else row.seen_at
    if seen is None:
        return False
    seen = seen if seen.tzinfo is not None else seen.replace(tzinfo=UTC)
    return bool((now - seen).total_seconds() < ACTIVE_S)


def add_notification(conn: Connection, player_id: str, kind: Kind, game_id: str | None, data: dict[str, Any],
                     key: str) -> None:
    """Keep a notification for ``player_id`` and queue its email if the player wants it now and is away.
    ``key``: what makes it unique (the event), the email's Message-ID."""
    now = timesource.now_utc()
    row = conn.execute(sa.select(player_settings).where(player_settings.c.player_id == player_id)).first()
    # What a moderator did to one's account, or with one's report, is always said (no choice to turn it off).
    pref = prefs_of(None if row is None else row.notify).get(kind, "now")
    mailable = row is not None and bool(row.email) and bool(row.email_verified)
    data = merge(conn, player_id, kind, game_id, data)
    conn.execute(notifications.insert().values(player_id=player_id, kind=kind, game_id=game_id, data=data, at=now,
                                               read=False, mailed=not (mailable and pref == "digest")))
    bell.stored(conn, player_id)
    if row is not None and mailable and pref == "now" and not active(row, now):
        payload = {"to": row.email, "lang": row.lang or "en", "player": player_id,
                   "items": [{"kind": kind, "game": game_id, "data": data}]}
        queue_email(conn, f"{key}.{player_id}", player_id, payload, now)


def merge(conn: Connection, player_id: str, kind: Kind, game_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
    """Drop the player's older notifications of ``kind`` about game ``game_id`` (the new one says what they said,
    newer: one line per game and kind in the bell); returns ``data`` to store: for a ``chat``, ``count`` the number
    of messages not read yet and ``text`` all of theirs, oldest first. Notifications without a game are kept as
    they are."""
    if game_id is None:
        return data
    n = notifications.c
    older = conn.execute(sa.select(n.id, n.read, n.data).where(n.player_id == player_id, n.kind == kind,
                                                                n.game_id == game_id)).all()
    unread = [o for o in older if not o.read]
    if kind == "chat" and unread:
        data = {**data, "count": 1 + sum(int((o.data or {}).get("count", 1)) for o in unread)}
        # The messages not read yet stay readable in the one line, the newest last (a digest shows them again
        # while they are unread: the line says what is unread).
        text = " \u00b7 ".join([*(str((o.data or {}).get("text", "")) for o in sorted(unread, key=lambda o: o.id)),
                                str(data.get("text", ""))])
        data["text"] = text if len(text) <= 400 else "\u2026" + text[-399:]
    if older:
        conn.execute(notifications.delete().where(n.id.in_([o.id for o in older])))
    return data


def read_in(conn: Connection, player_id: str, game_id: str, kinds: tuple[Kind, ...] | None = None) -> int:
    """Mark the player's notifications about ``game_id`` (of ``kinds``; None: all) read, in ``conn``'s transaction;
    their pages hear of it. Returns how many changed."""
    n = notifications.c
    return _mark(conn, player_id, n.game_id == game_id, *(() if kinds is None else (n.kind.in_(kinds),)))


def _mark(conn: Connection, player_id: str, *where: Any) -> int:
    # Mark the player's unread notifications matching ``where`` read; their pages hear of it (the bell's count).
    n = notifications.c
    changed = int(conn.execute(notifications.update().where(n.player_id == player_id, n.read.is_(False), *where)
                               .values(read=True)).rowcount)
    if changed:
        bell.stored(conn, player_id)
    return changed


#: What a move answers (its player's bell clears of them), and what the end of the game answers.
ANSWERED_BY_MOVE: tuple[Kind, ...] = ("your-turn", "clock-low")
ANSWERED_BY_END: tuple[Kind, ...] = ("your-turn", "clock-low", "undo-request", "count-deadline")


def queue_email(conn: Connection, message_id: str, player_id: str, payload: dict[str, Any], now: datetime) -> bool:
    """Queue one email (``payload``: ``{"to", "lang", "player", "items"}``) under ``message_id``; a message already
    queued under it is left alone (returns False)."""
    exists = conn.execute(sa.select(emails.c.message_id).where(emails.c.message_id == message_id)).first()
    if exists is not None:
        return False
    conn.execute(emails.insert().values(message_id=message_id, player_id=player_id, message=json.dumps(payload),
                                        due_at=now, tries=0, created_at=now))
    return True


def _apply(conn: Connection, event: dict[str, Any]) -> None:
    people: dict[str, Any] = event["people"]
    if event["kind"] in ("moved", "passed", "handicap"):
        mover = (event["data"].get("move") or {}).get("color")
        who = (people.get(mover) or {}).get("id") if mover else None
        if who:
            read_in(conn, who, event["game_id"], ANSWERED_BY_MOVE)
    elif event["kind"] == "finished":
        for p in people.values():
            if (p or {}).get("id"):
                read_in(conn, p["id"], event["game_id"], ANSWERED_BY_END)
    for player_id, kind, data in _targets(event):
        if kind in FROM_THE_OTHER and any(blocked_pair(conn, player_id, p["id"]) for p in people.values()
                                          if (p or {}).get("id") and p["id"] != player_id):
            continue  # nothing of the doing of a player a block stands between (docs/moderation.md)
        add_notification(conn, player_id, kind, event["game_id"], data, f"{kind}.{event['game_id']}.{event['version']}")


SUBSCRIBER = Subscriber(NAME, EVENT_KINDS, _apply)
#: The kinds told of what the other player did (a block keeps them away).
FROM_THE_OTHER: tuple[Kind, ...] = ("challenge-accepted", "undo-request", "chat")


def queue_digests(engine: Engine) -> int:
    """Queue the day's digest of each player whose digest hour has come (18:00 in their time zone): one email with
    their unread notifications left for it, which count as mailed then. A day's digest is queued once (its
    Message-ID holds the player and the day): what comes after it is left for the next day's. Returns how many were
    queued. Blocking."""
    now = timesource.now_utc()
    queued = 0
    with engine.begin() as conn:
        pending = conn.execute(
            sa.select(notifications.c.player_id).where(notifications.c.mailed.is_(False),
                                                       notifications.c.read.is_(False)).distinct()
        ).scalars().all()
        for player_id in pending:
            row = conn.execute(sa.select(player_settings).where(player_settings.c.player_id == player_id)).first()
            if row is None or not (row.email and row.email_verified):
                continue
            local = now.astimezone(zone(row.time_zone))
            if local.hour < DIGEST_HOUR:
                continue
            items = conn.execute(
                sa.select(notifications).where(notifications.c.player_id == player_id,
                                               notifications.c.mailed.is_(False), notifications.c.read.is_(False))
                .order_by(notifications.c.id)
            ).all()
            payload = {"to": row.email, "lang": row.lang or "en", "player": player_id, "digest": True,
                       "items": [{"kind": n.kind, "game": n.game_id, "data": n.data} for n in items]}
            if not queue_email(conn, f"digest.{local.date().isoformat()}.{player_id}", player_id, payload, now):
                # Today's digest went already: what came after it waits for tomorrow's (it was marked mailed and
                # never sent).
                continue
            queued += 1
            conn.execute(notifications.update().where(notifications.c.id.in_([n.id for n in items]))
                         .values(mailed=True))
    return queued


def warn(engine: Engine, game_id: str, version: int, player_id: str | None, color: str, left: float,
         opponent: str | None = None) -> None:
    """The ``clock-low`` notification of ``player_id`` (``color``, ``left`` seconds, against ``opponent``) for the
    turn that made ``version`` of the game: once a day at most in a game. Blocking."""
    if not player_id:
        return
    with engine.begin() as conn:
        key = f"clock-low.{game_id}.{version}"
        seen = conn.execute(sa.select(notifications.c.id).where(
            notifications.c.player_id == player_id, notifications.c.kind == "clock-low",
            notifications.c.game_id == game_id, notifications.c.at >= timesource.now_utc() - timedelta(days=1),
        )).first()
        if seen is not None:
            return
        add_notification(conn, player_id, "clock-low", game_id,
                         {"left": left, "color": color, "opponent": opponent}, key)


def matched(conn: Connection, game_id: str, players: dict[str, str]) -> None:
    """The ``automatch`` notification of each of ``players`` (player id -> name) for their new game ``game_id``,
    in ``conn``'s transaction (the caller makes each match once)."""
    for pid, _name in players.items():
        opponent = next((n for p, n in players.items() if p != pid), None)
        add_notification(conn, pid, "automatch", game_id, {"opponent": opponent}, f"automatch.{game_id}")


RoundAction = Literal["paired", "started"]


def round_notices(conn: Connection, tournament_id: str, name: str, rn: int, action: RoundAction,
                  player_ids: list[str], start_at: str | None = None) -> int:
    """The ``tournament-round`` notification of each of ``player_ids`` (the accounts in round ``rn`` of tournament
    ``tournament_id``, called ``name``): the round was paired or started (``start_at``: when its games begin, ISO
    time), in ``conn``'s transaction. A player told of this round and action already is not told again (a round
    paired again after it was unpaired). Returns how many were made."""
    made = 0
    for pid in dict.fromkeys(player_ids):
        earlier = conn.execute(sa.select(notifications.c.data).where(
            notifications.c.player_id == pid, notifications.c.kind == "tournament-round")).scalars().all()
        if any(d.get("tournament") == tournament_id and d.get("round") == rn and d.get("action") == action
               for d in earlier):
            continue
        data = {"tournament": tournament_id, "name": name, "round": rn, "action": action, "start_at": start_at}
        add_notification(conn, pid, "tournament-round", None, data,
                         f"tournament-round.{tournament_id}.{rn}.{action}")
        made += 1
    return made


# ---------------------------------------------------------------------------------------------------- reading
def unread_count(engine: Engine, player_id: str) -> int:
    """How many of the player's notifications are unread. Blocking."""
    n = notifications.c
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(notifications)
                                .where(n.player_id == player_id, n.read.is_(False))).scalar_one())



def listing(engine: Engine, player_id: str, unread: bool | None, limit: int = 100) -> list[dict[str, Any]]:
    """The player's notifications, newest first: ``{"id", "kind", "game", "data", "at", "read", "size", "color",
    "line"}`` (``size`` the game's board, ``color`` the player's in it, ``"B"``/``"W"``, ``line`` its stored lobby
    line; None without a game). Blocking."""
    n = notifications.c
    q = (sa.select(notifications, games.c.params, games.c.people, games.c.summary)
         .select_from(notifications.outerjoin(games, games.c.id == n.game_id)).where(n.player_id == player_id))
    if unread is not None:
        q = q.where(n.read.is_(not unread))
    with engine.connect() as conn:
        rows = conn.execute(q.order_by(n.id.desc()).limit(limit)).all()
    out = []
    for r in rows:
        seats = [c for c, p in (r.people or {}).items() if (p or {}).get("id") == player_id]
        out.append({"id": r.id, "kind": r.kind, "game": r.game_id, "data": r.data,
                    "at": (r.at if r.at.tzinfo else r.at.replace(tzinfo=UTC)).timestamp(), "read": r.read,
                    "size": (r.params or {}).get("size"), "color": seats[0] if len(seats) == 1 else None,
                    "line": r.summary})
    return out


def mark_read(engine: Engine, player_id: str, ids: list[int] | None, game: str | None = None) -> int:
    """Mark the player's notifications ``ids`` (None: all; or all of ``game``, when given) read; returns how many
    changed; the player's other pages hear of it. Blocking."""
    with engine.begin() as conn:
        if game is not None:
            return read_in(conn, player_id, game)
        return _mark(conn, player_id, *(() if ids is None else (notifications.c.id.in_(ids),)))


def warn_handler(service: GameService) -> Handler:
    """The scheduler's ``warn`` job: tell the player whose correspondence clock runs low (``keima.server.notifications.notify``,
    ``clock-low``); returns when to look again when it is not low yet (a clock read again after a pause)."""

    async def run(game_id: str) -> datetime | None:
        s = await service.cache.get(game_id, fresh=True)
        c = s.clock.running
        if c is None or not s.clock.spec.correspondence:
            return None
        now = timesource.now()
        left = s.clock.time_left(c, now)
        threshold = min(WARN_S, s.clock.spec.per_move_s / 2)
        if left > threshold + 1:
            return datetime.fromtimestamp(s.clock.runs_out_at(c, now) - threshold, tz=now_utc().tzinfo)
        person, other = s.people.get(c) or {}, s.people.get(3 - c) or {}
        await asyncio.get_running_loop().run_in_executor(
            None, warn, service.store.engine, game_id, s.version, person.get("id"), cname(c), round(left),
            other.get("name"))
        return None

    return run
