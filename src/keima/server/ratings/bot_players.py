"""keima's bot levels and the GTP engines as rated players (docs/ratings.md, *Bots as players*).

A computer opponent is named in a game by its level (``games.bot_level``: ``"beginner"``, or ``"engine:GNU Go"``
for a GTP engine). Rated, each level is a player of its own: its ratings live under ``key(level)`` in the same
tables as people's (``ratings``, ``rating_history``), a key derived from the level alone, so that it is the same
after a restart and on every process of a cluster, and never a person's id (those are URL-safe tokens: no
``:``). Its page and ``GET /api/players/{name}`` find it by the name games show (``keima.server.games.view.bot_name``:
``"keima (strong)"``, ``"GNU Go"``), which no person can take (``keima.server.accounts.text.reserved_reason``; a person's
name has no space nor parenthesis).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima import ai, seat
from keima.ratings import game as rating_game
from keima.ratings.glicko2 import Rating
from keima.server.accounts import name_key
from keima.server.games import bot_name
from keima.server.storage import games

#: Where each level of keima starts, as a declared rank (its middle, deviation 250: ``rating_game.initial``).
#: Why these ranks: docs/ratings.md, *Bots as players*. A ranked level (``keima.ai.RANKED``) is named by the rank
#: it was calibrated at against GNU Go (docs/bot.md, « Levels by rank ») and starts there. A GTP engine, of
#: unknown strength, starts as a newcomer.
STARTING_RANKS: dict[str, str] = {"beginner": "25k", "intermediate": "15k", "strong": "8k",
                                  **{level: level for level in ai.RANKED}}

PREFIX = "bot:"
#: ``ratings.player_id`` holds 32 characters: a longer level is keyed by a digest of it.
_KEY_MAX = 32


def key(level: str) -> str:
    """The player id of the bot level ``level`` in the ratings tables: ``"bot:" + level`` (``"bot:strong"``,
    ``"bot:engine:GNU Go"``), or, when that would pass 32 characters, ``"bot:#"`` and a digest of the level."""
    plain = PREFIX + level
    if len(plain) <= _KEY_MAX:
        return plain
    return PREFIX + "#" + hashlib.sha256(level.encode()).hexdigest()[: _KEY_MAX - len(PREFIX) - 1]


def starting_rank(level: str) -> str | None:
    """The rank the level ``level`` starts from before its first rated game (None: a GTP engine, a newcomer)."""
    return STARTING_RANKS.get(level)


def starting_rating(level: str) -> Rating:
    """The Glicko-2 values of the level ``level`` before its first rated game."""
    return rating_game.initial(starting_rank(level))


def person(level: str) -> dict[str, Any]:
    """The bot's seat as the ratings subscriber reads a game's players: ``{"id", "name", "rank", "bot"}``."""
    return {"id": key(level), "name": bot_name(level), "rank": starting_rank(level), "bot": level}


def levels(engines: Iterable[str]) -> list[str]:
    """Every bot level this server offers: keima's levels, then ``engines`` (names of the GTP engines)."""
    return [*ai.LEVELS, *(seat.ENGINE_PREFIX + e for e in engines)]


def level_named(name: str, engines: Iterable[str]) -> str | None:
    """The level whose name (``bot_name``) is ``name``, case and Unicode form aside, among keima's levels and
    ``engines``; None when no bot has that name."""
    wanted = name_key(name)
    for level in levels(engines):
        if name_key(bot_name(level)) == wanted:
            return level
    return None


def record(engine: Engine, level: str) -> dict[str, int]:
    """``{"won", "lost", "drawn"}`` of the bot level ``level`` over its finished games, rated or not (a void game
    counts for nobody), as a person's record counts. Blocking."""
    g = games.c
    black_won, white_won = g.result.like("B+%"), g.result.like("W+%")
    bot_black, bot_white = g.bot_color == 1, g.bot_color == 2

    def count(cond: sa.ColumnElement[bool], label: str) -> sa.ColumnElement[Any]:
        return sa.func.coalesce(sa.func.sum(sa.case((cond, 1), else_=0)), 0).label(label)

    q = sa.select(count(sa.or_(sa.and_(bot_black, black_won), sa.and_(bot_white, white_won)), "won"),
                  count(sa.or_(sa.and_(bot_black, white_won), sa.and_(bot_white, black_won)), "lost"),
                  count(g.result == "0", "drawn")).where(g.bot_level == level, g.phase == "finished")
    with engine.connect() as conn:
        row = conn.execute(q).one()
    return {"won": int(row.won), "lost": int(row.lost), "drawn": int(row.drawn)}


def nearest(ratings: dict[str, float], rating: float) -> str | None:
    """The level of ``ratings`` (level -> its rating now) whose rating is nearest to ``rating``; on a tie the
    weaker one (a game a little too easy teaches more than one a little too hard). None when ``ratings`` is empty."""
    if not ratings:
        return None
    return min(ratings, key=lambda level: (abs(ratings[level] - rating), ratings[level]))
