"""Players' ratings from their rated games: a durable subscriber of the "finished" game events.

Each finished game that counts (``counts``) is one Glicko-2 period for both players (``keima.ratings.game``), from
their ratings before it, in the outbox's order: ``deliver`` applies the events in sequence order, each with its
progress in one transaction, so that a rating follows a player's games in the order they finished, whichever
process finished them, and a redelivered event changes nothing.

A game counts when no moderator annulled its rating effect (``annulled_games``), it was created rated (``"rated": true``, by a registered player against another or against
the bot or a GTP engine: the routes refuse others), both seats hold a player, it ended with a winner or a jigo
(not "Void", not withdrawn), and both sides played at least ``MIN_MOVES`` stones. A player's first rated game
starts from the rank they declared that day (the game's record of its players), else from 1500. A bot's seat is
the rated player of its level (``keima.server.ratings.bot_players``: its key, its starting rank).

Each rated game's rating changes (the points each player gained or lost) are written with the ratings
(``rating_changes``), together with a scheduler job (``RATED``) that records them in the game itself through the
game service (``keima.server.games.scheduler.rated_handler``): the game's state, its lobby line and its open pages learn
of them by the game's own ``rated`` event, in every process, and a process killed in between leaves the job to
another.

``recompute`` rates every stored game again from the start, through the same delivery.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine

from keima.ratings import game as rating_game
from keima.ratings.glicko2 import Rating
from keima.ratings.handicap import rank_difference
from keima.rules.ruleset import RulesError, get_ruleset
from keima.server.games import GameService, Handler, Subscriber
from keima.server.ratings import bot_players
from keima.server.storage import (
    annulled_games,
    event_progress,
    game_outbox,
    games,
    now_utc,
    rating_changes,
    rating_history,
    ratings,
    set_job,
    tournament_games,
)
from keima.server.storage import queues as store_events

NAME = "ratings"
KINDS = frozenset({"finished"})
#: The scheduler's job that records a game's rating changes in the game (``keima.server.games.scheduler``).
RATED = "rated"


def counts(event: dict[str, Any]) -> float | None:
    """Black's score (1, 0.5, 0) in the finished game of ``event`` (``keima.server.storage.queues.Apply``'s
    argument) when it is rated, else None."""
    data = event["data"]
    if not data.get("rated"):
        return None
    moves = data.get("moves") or {}
    if min(int(moves.get("B", 0)), int(moves.get("W", 0))) < rating_game.MIN_MOVES:
        return None
    b, w = (event["people"].get(c) or {} for c in ("B", "W"))
    if not b.get("id") or not w.get("id") or b["id"] == w["id"]:
        return None
    return rating_game.score_of(data.get("result"))


def _current(conn: Connection, person: dict[str, Any]) -> Rating:
    row = conn.execute(sa.select(ratings).where(ratings.c.player_id == person["id"])).first()
    if row is None:
        return rating_game.initial(person.get("rank"))
    return Rating(row.rating, row.deviation, row.volatility)


def _store(conn: Connection, player_id: str, r: Rating, event: dict[str, Any], at: datetime) -> None:
    values = {"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility}
    done = conn.execute(ratings.update().where(ratings.c.player_id == player_id)
                        .values(games=ratings.c.games + 1, **values))
    if not done.rowcount:
        conn.execute(ratings.insert().values(player_id=player_id, games=1, **values))
    conn.execute(rating_history.insert().values(player_id=player_id, seq=event["seq"], game_id=event["game_id"],
                                                at=at, rating=r.rating, deviation=r.deviation))


def _apply(conn: Connection, event: dict[str, Any]) -> None:
    fixed = fixed_result(conn, event["game_id"])
    if fixed is not None:
        # A tournament director fixed this game's result: the ratings count theirs (recompute applies it).
        event = {**event, "data": {**event["data"], "result": fixed}}
    if not event["data"].get("rated"):
        return
    if conn.execute(sa.select(annulled_games.c.game_id).where(annulled_games.c.game_id == event["game_id"])).first():
        return  # a moderator annulled its rating effect (keima.server.moderation; recompute leaves it out)
    row = conn.execute(
        sa.select(games.c.params, games.c.bot_color, games.c.bot_level, game_outbox.c.created_at)
        .select_from(game_outbox.join(games, games.c.id == game_outbox.c.game_id))
        .where(game_outbox.c.seq == event["seq"])
    ).first()
    if row is None:
        return
    if row.bot_level is not None and row.bot_color in (1, 2):
        # The games record people only: the bot's seat is its level's player.
        bot = "B" if row.bot_color == 1 else "W"
        event = {**event, "people": {**event["people"], bot: bot_players.person(row.bot_level)}}
    score = counts(event)
    if score is None:
        return
    p = row.params
    try:
        shift = rank_difference(int(p["handicap"]), int(p["size"]), float(p["komi"]), get_ruleset(p["rules"]))
    except (KeyError, TypeError, ValueError, RulesError):
        return  # a game whose settings no longer read is not rated rather than rated wrongly
    at = row.created_at if row.created_at.tzinfo is not None else row.created_at.replace(tzinfo=UTC)
    b, w = event["people"]["B"], event["people"]["W"]
    old_b, old_w = _current(conn, b), _current(conn, w)
    new_b, new_w = rating_game.rate(old_b, old_w, score, shift)
    _store(conn, b["id"], new_b, event, at)
    _store(conn, w["id"], new_w, event, at)
    gid = event["game_id"]
    conn.execute(rating_changes.delete().where(rating_changes.c.game_id == gid))
    conn.execute(rating_changes.insert().values(game_id=gid, black=new_b.rating - old_b.rating,
                                                white=new_w.rating - old_w.rating))
    set_job(conn, RATED, gid, now_utc())


SUBSCRIBER = Subscriber(NAME, KINDS, _apply)


def recompute(engine: Engine) -> int:
    """Rate every stored finished game again, in outbox order: the ratings and their history are emptied and the
    subscriber's progress set back to the start in one transaction, then delivered up to date (by this call, or by
    a server's delivery that runs meanwhile: each event is still applied once). Returns the number of rated
    games. Blocking; meanwhile readers may see ratings part way."""
    with engine.begin() as conn:
        # The progress row first: it waits for a delivery in flight to commit and holds the next one off, so the
        # deletes (each statement a fresh snapshot) see every row a delivery wrote.
        reset = event_progress.update().where(event_progress.c.subscriber == NAME).values(last_seq=0)
        if not conn.execute(reset).rowcount:
            insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
            conn.execute(insert(event_progress).values(subscriber=NAME, last_seq=0).on_conflict_do_nothing())
            conn.execute(reset)
        conn.execute(rating_history.delete())
        conn.execute(ratings.delete())
        conn.execute(rating_changes.delete())
    while store_events.deliver(engine, NAME, KINDS, _apply):
        pass
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(rating_history)).scalar() or 0) // 2


def rating_of(engine: Engine, player_id: str) -> tuple[Rating, int] | None:
    """A player's rating and their number of rated games (None: no rated game yet). Blocking."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(ratings).where(ratings.c.player_id == player_id)).first()
    return None if row is None else (Rating(row.rating, row.deviation, row.volatility), row.games)


def history_of(engine: Engine, player_id: str) -> list[dict[str, Any]]:
    """A player's rating after each rated game, oldest first: ``{"game", "at", "rating", "deviation"}``. Blocking."""
    h = rating_history.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(h.game_id, h.at, h.rating, h.deviation)
                            .where(h.player_id == player_id).order_by(h.seq)).all()
    return [{"game": r.game_id, "at": r.at if r.at.tzinfo is not None else r.at.replace(tzinfo=UTC),
             "rating": r.rating, "deviation": r.deviation} for r in rows]


def change_of(engine: Engine, game_id: str) -> dict[str, float] | None:
    """How the rated game ``game_id`` moved each player's rating, in points rounded to a tenth (``{"B", "W"}``);
    None for a game not rated (yet). Blocking."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(rating_changes).where(rating_changes.c.game_id == game_id)).first()
    return None if row is None else {"B": round(row.black, 1), "W": round(row.white, 1)}


def has_rated_game(engine: Engine, player_id: str) -> bool:
    """Whether ``player_id`` has played a rated game (their rank is then earned, no longer declared). Blocking."""
    return rating_of(engine, player_id) is not None


def rated_handler(service: GameService) -> Handler:
    """The scheduler's ``rated`` job (``keima.server.ratings.subscriber.RATED``): record in the game how its rating
    moved each player (a game told it already, or not rated, changes nothing)."""

    async def run(game_id: str) -> datetime | None:
        change = await asyncio.get_running_loop().run_in_executor(None, change_of, service.store.engine, game_id)
        if change is not None:
            await service.change(game_id, lambda s: s.rate(change), fresh=True)
        return None

    return run


def fixed_result(conn: Connection, game_id: str) -> str | None:
    """The result a director fixed for tournament game ``game_id`` (None: none, or not a tournament game)."""
    g = tournament_games.c
    fixed: str | None = conn.execute(sa.select(g.fixed_result).where(g.game_id == game_id)).scalar()
    return fixed
