"""The rank shown beside a player's name (docs/ratings.md, *Shown ranks*; docs/web-api.md, ``rank`` and
``provisional``).

``shown_rank`` is the rule, the same everywhere: from the player's rating once they have played a rated game (the
rank earned, ``"3k"``, ``provisional`` while its deviation is 160 or more: pages write it ``"3k?"``), the rank they
typed before their first rated game, else none. A typed rank is provisional too: it is where their rating starts,
with a deviation of 250 (``keima.ratings.game.initial``), as the player's page has always shown it ("5k?").

Where it is read, and what it costs:

- lists of games (the lobby's, "my games", a player's history, automatch's game): the rank *now*, as OGS shows it
  in lists, read by ``shown_ranks`` in one query per list (``keima.server.lobby.Lobby.summaries``), no cache to
  keep right; the lobby's lists are made once per change notice, and a game's rating arrives with its ``rated``
  event, which is one;
- a game's own state (``GET /api/games/{id}``, its socket): the rank each player had when they took their seat,
  kept in the game's record of its players (``with_shown_rank``, through ``keima.server.games.Hub.seat_person``), so
  that a finished game's page shows the ranks it was played at;
- ``GET /api/me`` and a player's page: the rank now (``rank_of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from keima.ratings import game as rating_game
from keima.ratings import ranks
from keima.ratings.glicko2 import Rating
from keima.server.ratings.store import ratings_of

#: The keys a game's record of a player (``GameSession.people``) keeps the shown rank under; ``rank`` stays the
#: typed one, which a first rated game starts from (``keima.server.ratings.subscriber``).
SHOWN_KEY, PROVISIONAL_KEY = "shown_rank", "provisional"


@dataclass(frozen=True)
class ShownRank:
    """A player's rank as shown: ``rank`` (``"3k"``, ``"2d"``, None for none), ``provisional`` (pages add a
    ``?``), ``earned`` (from rated games; False: typed by the player, or none)."""

    rank: str | None
    provisional: bool = False
    earned: bool = False


def shown_rank(rating: Rating | None, typed: str | None) -> ShownRank:
    """The rank shown for a player whose current rating is ``rating`` (None: no rated game yet) and who typed
    ``typed`` (None or ``""``: no rank typed): earned from the rating when there is one, else the typed rank
    (provisional: the rating it stands for has the deviation of a newcomer), else none."""
    if rating is not None:
        return ShownRank(ranks.rank_label(rating.rating), ranks.is_provisional(rating.deviation), True)
    if not typed:
        return ShownRank(None)
    return ShownRank(typed, ranks.is_provisional(rating_game.DECLARED_DEVIATION))


def shown_ranks(engine: Engine, typed: Mapping[str, str | None]) -> dict[str, ShownRank]:
    """``shown_rank`` of each player of ``typed`` (player id -> the rank they typed), their ratings read in one
    query. Blocking."""
    rated = ratings_of(engine, typed)
    return {pid: shown_rank(rated.get(pid), t) for pid, t in typed.items()}


def rank_of(engine: Engine, player_id: str, typed: str | None) -> ShownRank:
    """``shown_rank`` of one player. Blocking."""
    return shown_ranks(engine, {player_id: typed})[player_id]


def with_shown_rank(engine: Engine, person: dict[str, Any]) -> dict[str, Any]:
    """A game's record of a player (``{"id", "name", "rank"}``) with their shown rank of now added
    (``shown_rank``, ``provisional``): what a game keeps when the player takes a seat. Blocking."""
    shown = rank_of(engine, str(person["id"]), person.get("rank"))
    return {**person, SHOWN_KEY: shown.rank, PROVISIONAL_KEY: shown.provisional}
