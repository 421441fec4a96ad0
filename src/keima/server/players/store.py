"""A player's games and opponents as their page reads them (``GET /api/players/{name}/games`` and
``/opponents``).

Games are found by the player's id (``game_players``), never by name: a finished game keeps the names of the day
(``games.people`` and the stored lobby line), so a player who renamed still finds every game, and a name now
borne by someone else finds none of the old owner's.

Blocking functions of a SQLAlchemy engine: call them from a thread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.server.storage import game_players, games, players

Status = Literal["finished", "live"]
Outcome = Literal["won", "lost"]

BLACK, WHITE = 1, 2


class NoSuchGame(LookupError):
    """The ``before`` of a page names no game."""


def player_id_named(engine: Engine, key: str) -> str | None:
    """The id of the player (not deleted) whose name has the folded form ``key``
    (``keima.server.accounts.service.name_key``), or None."""
    with engine.connect() as conn:
        found = conn.execute(sa.select(players.c.id).where(players.c.name_key == key,
                                                           players.c.deleted_at.is_(None))).scalar_one_or_none()
    return None if found is None else str(found)


def _ended(status: Status, updated: datetime) -> datetime | None:
    # A finished game's ``updated_at`` is its end (keima.server.storage.store keeps it from then on).
    if status != "finished":
        return None
    return updated if updated.tzinfo is not None else updated.replace(tzinfo=UTC)


def _order(status: Status) -> sa.ColumnElement[Any]:
    # A finished game's last change is its end (and never moves again); a live game's changes with each move,
    # so live games are ordered by their start, which does not.
    return games.c.updated_at if status == "finished" else games.c.created_at


def _holds(player_id: str | sa.ColumnElement[Any], color: int | None = None) -> sa.ColumnElement[bool]:
    gp = game_players.alias()
    cond = [gp.c.game_id == games.c.id, gp.c.player_id == player_id]
    if color is not None:
        cond.append(gp.c.color == color)
    return sa.exists().where(*cond)


def game_lines(engine: Engine, player_id: str, status: Status, *, size: int | None = None,
               outcome: Outcome | None = None, opponent_id: str | None = None, opponent_level: str | None = None,
               limit: int = 20, before: str | None = None) -> list[tuple[str, dict[str, Any] | None,
                                                                      dict[str, Any] | None, datetime | None]]:
    """The games of ``player_id``, newest first, at most ``limit``: ``(id, stored lobby line or None, people, when
    it ended)``; newest is by the end for finished games (``ended``: ``games.updated_at``, which stops at the end),
    by the start for games in progress (``ended`` None).

    ``status``: ``finished``, or ``live`` (in progress with both seats taken: no open challenge nor invitation);
    ``size`` the board size; ``outcome`` won or lost (finished games); ``opponent_id`` a player who held the other
    seat, ``opponent_level`` a bot level that did (``games.bot_level``); ``before`` the id of the last game of the
    previous page (the page goes on after it: keyset paging, so
    that a game finishing meanwhile neither repeats nor hides a line). Raises ``NoSuchGame`` for a ``before`` that
    names no game."""
    order = _order(status)
    # Read from the player's seats (their index), not from every game: a page costs the player's games, not the
    # server's. A game where they hold both seats (same-screen) is read once, from its Black seat.
    me = game_players.alias("me")
    joined = me.join(games, games.c.id == me.c.game_id)
    if opponent_id is not None:
        # A join, not an EXISTS: the planner may then start from whichever of the two players has fewer games.
        other = game_players.alias("other")
        joined = joined.join(other, sa.and_(other.c.game_id == games.c.id, other.c.player_id == opponent_id,
                                            other.c.color != me.c.color))
    q = (sa.select(games.c.id, games.c.summary, games.c.people, games.c.updated_at)
         .select_from(joined)
         .where(me.c.player_id == player_id, sa.or_(me.c.color == BLACK, ~_holds(player_id, BLACK))))
    if status == "finished":
        q = q.where(games.c.phase == "finished")
    else:
        q = q.where(games.c.phase != "finished", games.c.invite_hash.is_(None))
    if opponent_level is not None:
        q = q.where(games.c.bot_level == opponent_level, games.c.bot_color.is_not(None))
    if size is not None:
        q = q.where(games.c.params["size"].as_integer() == size)
    if outcome is not None:
        # Won: the player holds the winner's seat and not the loser's (a same-screen game is neither).
        mine, theirs = ("B+%", "W+%") if outcome == "won" else ("W+%", "B+%")
        q = q.where(sa.or_(sa.and_(me.c.color == BLACK, games.c.result.like(mine)),
                           sa.and_(me.c.color == WHITE, games.c.result.like(theirs))),
                    sa.not_(sa.and_(_holds(player_id, BLACK), _holds(player_id, WHITE))))
    with engine.connect() as conn:
        if before is not None:
            key = conn.execute(sa.select(order).where(games.c.id == before)).first()
            if key is None:
                raise NoSuchGame(before)
            at: datetime = key[0]
            q = q.where(sa.or_(order < at, sa.and_(order == at, games.c.id < before)))
        q = q.order_by(order.desc(), games.c.id.desc()).limit(limit)
        return [(r.id, r.summary, r.people, _ended(status, r.updated_at)) for r in conn.execute(q)]


def _tally(won: sa.ColumnElement[bool], lost: sa.ColumnElement[bool]) -> list[sa.ColumnElement[Any]]:
    def count(cond: sa.ColumnElement[bool], label: str) -> sa.ColumnElement[Any]:
        return sa.func.sum(sa.case((cond, 1), else_=0)).label(label)

    return [count(won, "won"), count(lost, "lost"), count(games.c.result == "0", "drawn")]


def opponents(engine: Engine, player_id: str) -> list[dict[str, Any]]:
    """Every opponent of ``player_id`` in finished games with a winner or a jigo (void ones left out), in no
    particular order: ``{"name", "kind", "won", "lost", "drawn"}`` from the player's side. ``kind``: ``player`` (a
    registered account, under its name of today), ``guest``, ``deleted`` (an account deleted since, under the
    name its games now show) or ``bot`` (each level of keima and each GTP engine: ``level``, its ``bot_level``, instead of ``name``)."""
    me, other = game_players.alias("me"), game_players.alias("other")
    b_won, w_won = games.c.result.like("B+%"), games.c.result.like("W+%")
    won = sa.or_(sa.and_(me.c.color == BLACK, b_won), sa.and_(me.c.color == WHITE, w_won))
    lost = sa.or_(sa.and_(me.c.color == BLACK, w_won), sa.and_(me.c.color == WHITE, b_won))
    counted = sa.and_(games.c.phase == "finished", sa.or_(b_won, w_won, games.c.result == "0"))
    humans = (
        sa.select(other.c.player_id, players.c.name, players.c.password_hash.is_(None).label("guest"),
                  players.c.deleted_at.is_not(None).label("deleted"), *_tally(won, lost))
        .select_from(games.join(me, me.c.game_id == games.c.id)
                     .join(other, sa.and_(other.c.game_id == games.c.id, other.c.player_id != player_id))
                     .join(players, players.c.id == other.c.player_id))
        .where(me.c.player_id == player_id, counted)
        .group_by(other.c.player_id, players.c.name, players.c.password_hash, players.c.deleted_at)
    )
    bots = (
        sa.select(games.c.bot_level, *_tally(won, lost))
        .select_from(games.join(me, me.c.game_id == games.c.id))
        .where(me.c.player_id == player_id, games.c.bot_color.is_not(None), counted)
        .group_by(games.c.bot_level)
    )
    out: list[dict[str, Any]] = []
    with engine.connect() as conn:
        for r in conn.execute(humans):
            kind = "deleted" if r.deleted else "guest" if r.guest else "player"
            out.append({"name": r.name, "kind": kind, "won": int(r.won), "lost": int(r.lost),
                        "drawn": int(r.drawn)})
        for r in conn.execute(bots):
            out.append({"level": r.bot_level, "kind": "bot", "won": int(r.won), "lost": int(r.lost),
                        "drawn": int(r.drawn)})
    return out


def bot_game_lines(engine: Engine, level: str, status: Status, *, size: int | None = None,
                   outcome: Outcome | None = None, opponent_id: str | None = None, limit: int = 20,
                   before: str | None = None) -> list[tuple[str, dict[str, Any] | None, dict[str, Any] | None, int,
                                                            datetime | None]]:
    """``game_lines`` for the bot level ``level`` (``games.bot_level``): ``(id, stored lobby line or None, people,
    the bot's colour, when it ended)``, newest first, with the same filters (``opponent_id``: the person who
    played it) and paging. Raises ``NoSuchGame`` for a ``before`` that names no game."""
    order = _order(status)
    q = (sa.select(games.c.id, games.c.summary, games.c.people, games.c.bot_color, games.c.updated_at)
         .where(games.c.bot_level == level, games.c.bot_color.is_not(None)))
    if status == "finished":
        q = q.where(games.c.phase == "finished")
    else:
        q = q.where(games.c.phase != "finished")
    if size is not None:
        q = q.where(games.c.params["size"].as_integer() == size)
    if outcome is not None:
        mine, theirs = ("B+%", "W+%") if outcome == "won" else ("W+%", "B+%")
        q = q.where(sa.or_(sa.and_(games.c.bot_color == BLACK, games.c.result.like(mine)),
                           sa.and_(games.c.bot_color == WHITE, games.c.result.like(theirs))))
    if opponent_id is not None:
        q = q.where(_holds(opponent_id))
    with engine.connect() as conn:
        if before is not None:
            key = conn.execute(sa.select(order).where(games.c.id == before)).first()
            if key is None:
                raise NoSuchGame(before)
            at: datetime = key[0]
            q = q.where(sa.or_(order < at, sa.and_(order == at, games.c.id < before)))
        q = q.order_by(order.desc(), games.c.id.desc()).limit(limit)
        return [(r.id, r.summary, r.people, int(r.bot_color), _ended(status, r.updated_at)) for r in conn.execute(q)]


def bot_opponents(engine: Engine, level: str) -> list[dict[str, Any]]:
    """``opponents`` for the bot level ``level``: every person it played in finished games with a winner or a
    jigo, ``{"name", "kind", "won", "lost", "drawn"}`` from the bot's side. Blocking."""
    other = game_players.alias("other")
    b_won, w_won = games.c.result.like("B+%"), games.c.result.like("W+%")
    won = sa.or_(sa.and_(games.c.bot_color == BLACK, b_won), sa.and_(games.c.bot_color == WHITE, w_won))
    lost = sa.or_(sa.and_(games.c.bot_color == BLACK, w_won), sa.and_(games.c.bot_color == WHITE, b_won))
    q = (
        sa.select(other.c.player_id, players.c.name, players.c.password_hash.is_(None).label("guest"),
                  players.c.deleted_at.is_not(None).label("deleted"), *_tally(won, lost))
        .select_from(games.join(other, other.c.game_id == games.c.id)
                     .join(players, players.c.id == other.c.player_id))
        .where(games.c.bot_level == level, games.c.phase == "finished",
               sa.or_(b_won, w_won, games.c.result == "0"))
        .group_by(other.c.player_id, players.c.name, players.c.password_hash, players.c.deleted_at)
    )
    with engine.connect() as conn:
        return [{"name": r.name, "kind": "deleted" if r.deleted else "guest" if r.guest else "player",
                 "won": int(r.won), "lost": int(r.lost), "drawn": int(r.drawn)} for r in conn.execute(q)]
