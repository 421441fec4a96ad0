"""Game events: what one stored change of a game did, as a typed record.

Every change of a game goes through the game service (``keima.server.games.service``) and is stored as one log entry
(``keima.server.games.session`` describes entries). ``event_of`` reads that entry, with the game as it was before and as it
is after, and says what happened in one typed event: a move, a pass, an undo, a chat message, the end of the game...
The entry is the stored form of the event; the event is what the rest of the server listens to:

- the WebSocket sends it to every watcher inside a delta (``keima.server.games.view.delta_json``);
- the lobby and each player's "my games" update from it (``keima.server.lobby.lobby``);
- the subscribers that need it exactly once (the players' game records now; ratings, tournaments and
  notifications later) read it from the outbox written in the same transaction as the change
  (``keima.server.games.outbox``).

The types (``EventType``) and their data are listed in docs/web-api.md (*Deltas*).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from keima.server.games.view import move_out

EventType = Literal[
    "created", "joined", "renamed", "withdrawn", "moved", "passed", "handicap", "undone", "undo_requested",
    "undo_answered", "marked", "proposed", "accepted", "resumed", "chatted", "finished", "rated", "changed",
]

#: The event types that are written to the outbox for the durable subscribers (``keima.server.games.outbox``).
DURABLE: frozenset[str] = frozenset({"finished"})
#: Written too for the notifications (``keima.server.notifications.notify``): in a correspondence game all of these, in a live
#: game only a seat taken (its players are at the board for the rest).
NOTIFIED: frozenset[str] = frozenset({"moved", "passed", "handicap", "joined", "undo_requested", "chatted"})
NOTIFIED_LIVE: frozenset[str] = frozenset({"joined"})


def durable(kind: str, correspondence: bool) -> bool:
    """True when an event of type ``kind`` goes to the outbox (in a correspondence game or not)."""
    return kind in DURABLE or kind in (NOTIFIED if correspondence else NOTIFIED_LIVE)


@dataclass(frozen=True)
class GameEvent:
    """One event of game ``game`` at version ``version`` (the log entry's sequence number): its ``type`` and
    its ``data`` (JSON values), e.g. ``moved`` with ``{"move": {...}}``."""

    game: str
    version: int
    type: EventType
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The event as it goes over the wire: ``{"type": ..., **data}``."""
        return {"type": self.type, **self.data}


@dataclass(frozen=True)
class Before:
    """What ``event_of`` needs of a game as it was before a change."""

    moves: int
    phase: str
    undo_request: str | None


def _color(c: int | None) -> str | None:
    return None if c is None else ("B" if c == 1 else "W")


def event_of(game: str, version: int, entry: dict[str, Any], before: Before, after: Any) -> list[GameEvent]:
    """The events of the log entry ``entry`` that made version ``version`` of game ``game``, from the game as it
    was (``before``) and as it is now (``after``: a ``GameSession``). The first is the change itself; a change that
    ended the game is followed by ``finished`` (``{"result", "reason", "rated", "moves"}``, ``moves``: the
    stones each colour played, ``{"B": n, "W": n}``). Never raises for a well-formed entry."""
    g = after.game
    out: list[GameEvent] = []

    def add(kind: EventType, **data: Any) -> None:
        out.append(GameEvent(game, version, kind, data))

    referee = entry.get("events") or []
    kinds = [e.get("kind") for e in referee]
    if "created" in entry:
        add("created")
    elif "withdrawn" in entry:
        add("withdrawn")
    elif "join" in entry:
        add("joined", color=entry["join"])
    elif "rename" in entry:
        add("renamed", color=entry["rename"]["color"])
    elif "rated" in entry:
        add("rated", rating_change=dict(entry["rated"]))
    elif "chat" in entry:
        m = entry["chat"]
        add("chatted", message={**{k: m.get(k) for k in ("n", "from", "text", "at", "to", "sender")},
                                "account": m.get("player") is not None})
    elif entry.get("undo"):
        taken = before.moves - len(g.moves)
        if before.undo_request is not None and entry.get("undo_request", before.undo_request) is None:
            add("undone", moves=taken, answer=True)
        else:
            add("undone", moves=taken)
    elif "move" in kinds:
        m = g.moves[-1]
        add("passed" if m.point is None else "moved", move=move_out(m, g.size).model_dump())
    elif "handicap" in kinds:
        add("handicap", points=[p for e in referee if e.get("kind") == "handicap" for p in e.get("points", ())])
    elif "toggle" in kinds:
        e = referee[kinds.index("toggle")]
        add("marked", point=e.get("point"), by=_color(e.get("color")))
    elif "accept" in kinds:
        add("accepted", by=[_color(e.get("color")) for e in referee if e.get("kind") == "accept"])
    elif "resume" in kinds:
        e = referee[kinds.index("resume")]
        add("resumed", by=_color(e.get("color")))
    elif "undo_request" in entry and entry["undo_request"] is not None:
        add("undo_requested", by=entry["undo_request"])
    elif "undo_request" in entry and before.undo_request is not None:
        add("undo_answered", accepted=False)
    elif entry.get("proposal") is not None or "mark" in kinds:
        add("proposed")
    elif not any(k in ("resign", "timeout", "forfeit", "no-result") for k in kinds):
        add("changed")
    if g.phase == "finished" and before.phase != "finished":
        # What the ratings need (keima.server.ratings.subscriber): whether the game was rated, and the stones each
        # side played (a game where one side played fewer than five is an abandoned start, unrated).
        played = {"B": 0, "W": 0}
        for m in g.moves:
            if m.point is not None:
                played[_color(m.color) or "B"] += 1
        add("finished", result=g.result, reason=g.end_reason, rated=bool(after.params.get("rated")), moves=played)
    return out
