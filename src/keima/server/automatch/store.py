"""The automatch queue in the database (table ``automatch``): every process of a cluster sees the same queue.

An entry is *waiting* while its ``game_id`` is null and *matched* once a process has claimed it for a game. The
claim (``claim``) takes both entries of a pair in one transaction with one conditional update each (``game_id IS
NULL``), in the order of their player ids: on PostgreSQL the second of two racing transactions waits for the
first's row lock, reads the row again and finds it taken; on SQLite the first update takes the database's write
lock. A pair either is claimed whole or the transaction is rolled back, so no entry is ever matched twice.

Write operations are ``Store.write`` ops (functions of a connection); reads take the engine and block (call them
from a thread).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server.accounts import blocked_pair
from keima.server.automatch.pairs import Entry
from keima.server.storage import automatch

Op = Callable[[Connection], Any]


class Taken(Exception):
    """An entry of the pair was no longer waiting: the claim's transaction is rolled back."""


def _entry(row: Any) -> Entry:
    return Entry(player_id=row.player_id, name=row.name, registered=bool(row.registered), rating=float(row.rating),
                 sizes=tuple(int(s) for s in row.sizes), speed=row.speed, rules=row.rules,
                 handicap=bool(row.handicap), since=float(row.since), club=row.club)


def add(entry: Entry) -> Op:
    """An op that puts ``entry`` in the queue, dropping the player's matched entry if any. Raises
    ``sqlalchemy.exc.IntegrityError`` when the player is waiting already."""

    def op(conn: Connection) -> None:
        conn.execute(automatch.delete().where(automatch.c.player_id == entry.player_id,
                                              automatch.c.game_id.is_not(None)))
        conn.execute(automatch.insert().values(
            player_id=entry.player_id, name=entry.name, registered=entry.registered, rating=entry.rating,
            sizes=list(entry.sizes), speed=entry.speed, rules=entry.rules, handicap=entry.handicap,
            since=entry.since, game_id=None, matched_at=None, club=entry.club))

    return op


def cancel(player_id: str) -> Op:
    """An op that ends the player's waiting entry; it returns whether there was one (a matched entry stays)."""

    def op(conn: Connection) -> bool:
        done = conn.execute(automatch.delete().where(automatch.c.player_id == player_id,
                                                     automatch.c.game_id.is_(None)))
        return bool(done.rowcount)

    return op


def claim(player_ids: tuple[str, str], game_id: str, now: float) -> Op:
    """An op that marks both entries matched with ``game_id`` when both are still waiting; raises ``Taken``
    (rolling the transaction back) when either is not, or when a block stands between the two players (read in
    the claim's own transaction: one made since the sweep's reading counts, whichever process made it)."""

    def op(conn: Connection) -> None:
        if blocked_pair(conn, *player_ids):
            raise Taken(player_ids[0])
        for pid in sorted(player_ids):  # one order for every process: two claims never wait for each other
            done = conn.execute(automatch.update()
                                .where(automatch.c.player_id == pid, automatch.c.game_id.is_(None))
                                .values(game_id=game_id, matched_at=now))
            if done.rowcount != 1:
                raise Taken(pid)

    return op


def release(game_id: str) -> Op:
    """An op that puts the entries matched with ``game_id`` back in the queue (the game could not be made)."""

    def op(conn: Connection) -> None:
        conn.execute(automatch.update().where(automatch.c.game_id == game_id).values(game_id=None, matched_at=None))

    return op


def forget(player_id: str, game_id: str) -> Op:
    """An op that drops the player's entry matched with ``game_id`` (they have been told)."""

    def op(conn: Connection) -> None:
        conn.execute(automatch.delete().where(automatch.c.player_id == player_id, automatch.c.game_id == game_id))

    return op


def forget_matched(before: float) -> Op:
    """An op that drops the matched entries older than ``before`` (their players were told long ago)."""

    def op(conn: Connection) -> None:
        conn.execute(automatch.delete().where(automatch.c.game_id.is_not(None), automatch.c.matched_at < before))

    return op


def expire(speed: str, before: float) -> Op:
    """An op that ends the waiting entries for ``speed`` made before ``before``; it returns how many ended."""

    def op(conn: Connection) -> int:
        done = conn.execute(automatch.delete().where(automatch.c.game_id.is_(None), automatch.c.speed == speed,
                                                     automatch.c.since < before))
        return int(done.rowcount)

    return op


def waiting(engine: Engine) -> list[Entry]:
    """The waiting entries, oldest first."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(automatch).where(automatch.c.game_id.is_(None))
                            .order_by(automatch.c.since, automatch.c.player_id)).all()
    return [_entry(r) for r in rows]


def status(engine: Engine, player_id: str) -> tuple[Entry, str | None, float | None] | None:
    """The player's entry, the game it was matched with (None: waiting) and when; None without an entry."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(automatch).where(automatch.c.player_id == player_id)).first()
    return None if row is None else (_entry(row), row.game_id, row.matched_at)
