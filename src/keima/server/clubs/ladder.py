"""A club's ladder as rules on plain values (no storage here: ``keima.server.clubs.store`` applies them under the
club's lock), as OGS's ladders play:

- The members stand in one order, place 1 the top; a member who joins starts at the bottom; one who leaves is
  taken out and those below move up one place.
- A member challenges one of the ``reach`` places just above their own (``can_challenge``); a member has at most
  one challenge in progress, given or received (an open or playing one), so that the order changes one game at a
  time for each player.
- The defender accepts (the ladder game is made) before ``days`` days have passed, or loses the challenge
  (``expired``): a challenge not answered is lost by the one who did not answer.
- The winner of a ladder game takes the higher place (``after_result``): a challenger who wins takes the
  defender's place and everyone from there down to the challenger's old place moves one place down; a defender
  who wins, a draw or a void game changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

#: The club's ladder rules until an admin changes them.
DEFAULT_SETTINGS: dict[str, Any] = {"reach": 3, "days": 7, "speed": "correspondence", "size": 19}
REACH_MAX, DAYS_MIN, DAYS_MAX = 20, 1, 30

Status = Literal["open", "playing", "won", "lost", "expired", "withdrawn"]
#: A challenge still in progress: it holds both its players.
IN_PROGRESS: frozenset[str] = frozenset({"open", "playing"})


class LadderRefusal(Exception):
    """Why a challenge may not be made: ``code`` (the API's refusal code) and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Challenge:
    """A challenge as the rules see it: who challenges whom, its status and when an open one is lost."""

    id: int
    challenger: str
    defender: str
    status: str
    due_at: datetime


def can_challenge(order: list[str], challenger: str, defender: str, reach: int, challenges: list[Challenge]) -> None:
    """Check that ``challenger`` may challenge ``defender`` on the ladder ``order`` (player ids, the top first)
    with ``reach`` places and the club's ``challenges``; raises ``LadderRefusal`` saying why not: either is not on
    the ladder (``not-member``), the defender is not above within reach (``out-of-reach``), or either is in a
    challenge in progress already (``busy``)."""
    if challenger not in order:
        raise LadderRefusal("not-member", "only a member on the ladder challenges")
    if defender not in order:
        raise LadderRefusal("not-found", "the player challenged is not on this club's ladder")
    mine, theirs = order.index(challenger), order.index(defender)
    if not 0 < mine - theirs <= reach:
        raise LadderRefusal("out-of-reach", f"a member challenges one of the {reach} places just above their own")
    for c in challenges:
        if c.status in IN_PROGRESS and {c.challenger, c.defender} & {challenger, defender}:
            who = "you are" if challenger in (c.challenger, c.defender) else "this player is"
            raise LadderRefusal("busy", f"{who} in a ladder challenge already")


def after_result(order: list[str], challenger: str, defender: str, challenger_won: bool) -> list[str]:
    """The ladder after a challenge ends: the challenger who won takes the defender's place when above their own,
    and those from that place down to the challenger's old one move down one; anything else leaves it as it was.
    A player no longer on the ladder (left meanwhile) changes nothing."""
    if not challenger_won or challenger not in order or defender not in order:
        return list(order)
    mine, theirs = order.index(challenger), order.index(defender)
    if theirs > mine:
        return list(order)  # the challenger climbed above meanwhile: nothing to take
    out = list(order)
    out.pop(mine)
    out.insert(theirs, challenger)
    return out


def expired(challenges: list[Challenge], now: datetime) -> list[Challenge]:
    """The open challenges whose time to answer has passed at ``now`` (oldest first): each is lost by its
    defender."""
    return sorted((c for c in challenges if c.status == "open" and c.due_at <= now), key=lambda c: (c.due_at, c.id))


def due(created: datetime, days: int) -> datetime:
    """When a challenge made at ``created`` is lost by a defender who has not accepted: ``days`` later."""
    return created + timedelta(days=days)


def outcome(result: str, challenger_color: str) -> Status:
    """The challenger's outcome from the game's result ("B+R", "W+3.5", "0", "Void"), the challenger playing
    ``challenger_color`` ("B" or "W"): ``won``, or ``lost`` (a draw or a void game: the defender keeps the place)."""
    return "won" if result.startswith(f"{challenger_color}+") else "lost"


def joined(order: list[str], player: str) -> list[str]:
    """The ladder with ``player`` at the bottom (unchanged when on it already)."""
    return list(order) if player in order else [*order, player]


def left(order: list[str], player: str) -> list[str]:
    """The ladder without ``player``: those below move up one place."""
    return [p for p in order if p != player]
