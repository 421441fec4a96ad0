"""One game held by the server: the referee's ``Game``, its clock, seats, undo request and estimator proposal.

A session changes only through its methods that return a log entry (``apply``: a player's or the bot's intent;
``flag``, ``forfeit``, ``set_proposal``, ``join``, ``post_chat``, ``rename``, ``rate``, ``revoke``), called by the game
service (``keima.server.games.service``), which stores the entry before anyone is told. An entry is a delta:
``{"undo": n, "events": [Event dicts], "clock": snapshot, "undo_request": "B" | None, "proposal": [points] | None,
"join": "W", "chat": {...}, "rename": {...}, "revoke": ["B"], "bot_note": ..., "rated": {"B": 12.3, "W": -12.1}}``: take back ``n`` game events,
then apply ``events``; the other keys replace the session's value when present. ``keima.server.games.folding`` applies
stored entries to a session (a whole log, or the entries another process stored), so the database alone rebuilds
every game. Every refusal raises ``Refused`` and leaves the session exactly as it was.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from keima.rules.board import BLACK, WHITE, color_word, opponent
from keima.rules.game import Game, GameError
from keima.server import timesource
from keima.server.errors import Refused, game_error
from keima.server.games.clock import GameClock
from keima.server.games.events import Before
from keima.server.games.seats import REVOKED, Seats, cname, parse_cname
from keima.server.games.view import StateView

PLAY_PHASES = ("handicap", "play")
#: The scoring phase of a correspondence game ends this long after its last change (a stone marked, an acceptance)
#: and never later than ``SCORING_MAX_S`` after it began; then the marking on the board stands (``end_scoring``).
SCORING_ANSWER_S = 3 * 86400.0
SCORING_MAX_S = 7 * 86400.0


@dataclass
class GameSession:
    """A game in memory (a cache of its stored log; see the module docstring)."""

    id: str
    created_at: datetime
    params: dict[str, Any]
    mode: str
    game: Game
    clock: GameClock
    seats: Seats
    bot_color: int | None = None
    bot_level: str | None = None
    invite_hash: str | None = None
    invite_color: int | None = None
    version: int = 0
    undo_request: int | None = None
    proposal: frozenset[int] | None = None
    #: What the computer seat last said about the marking ("keima thinks D4 is alive ..."), shown until it
    #: accepts a marking; stored in the log entry of the resumption (``bot_note``), so that a reload and every
    #: process of a cluster show it too.
    bot_note: str | None = None
    #: A correspondence game's scoring phase: (when it began, when it ends unless someone acts); stored in the log
    #: entries (``scoring``) that change it.
    scoring: tuple[float, float] | None = None
    event_dicts: list[dict[str, Any]] = field(default_factory=list)
    broken: bool = False
    notice: Refused | None = None
    stored_row: dict[str, Any] | None = None
    # The players holding the seats (colour -> {"id", "name", "rank"}; keima.server.accounts.service) and the chat
    # messages in order (log entries ``{"chat": {...}}``, keima.server.games.chat).
    people: dict[int, dict[str, Any]] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    #: How the ratings moved after this rated game (``{"B": 12.3, "W": -12.1}``; log entry ``{"rated": {...}}``);
    #: ``{}`` once a moderator annulled its rating effect (keima.server.moderation): the game is shown unrated.
    rating_change: dict[str, float] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    view: StateView = field(default_factory=StateView, repr=False)

    # -------------------------------------------------------------------------------------------- building
    @classmethod
    def new_game(cls, params: dict[str, Any]) -> Game:
        """Create the referee's game for ``params`` (size, rules, komi, handicap, placement);
        raises ``RulesError`` for settings that cannot be played."""
        return Game(
            size=params["size"],
            rules=params["rules"],
            komi=params["komi"],
            handicap=params["handicap"],
            placement=params["placement"],
        )

    # -------------------------------------------------------------------------------------------- clock
    def clock_should_run(self) -> int | None:
        """The colour whose clock must run now, or None."""
        g = self.game
        if not self.clock.enabled or g.phase not in PLAY_PHASES or g.result is not None:
            return None
        if self.invite_hash is not None:
            return None  # the clocks start once the invited player has taken the seat
        return g.to_move

    def sync_clock(self, now: float) -> None:
        """Run the clock of the player to move during play; stop it otherwise (uncharged for a move)."""
        want = self.clock_should_run()
        if self.clock.running == want:
            return
        if self.clock.running is not None:
            self.clock.stop(now, moved=False)
        if want is not None:
            self.clock.start(want, now)

    # -------------------------------------------------------------------------------------------- intents
    def resolve_color(self, action: dict[str, Any], seats: frozenset[int], default: int) -> int:
        """Return the colour an action acts for: the given one (which the caller must hold), the caller's only
        seat, or ``default`` for a caller holding both. Raises ``Refused`` 403 for a caller without the seat."""
        given = action.get("color")
        if given is not None:
            c = parse_cname(given)
            if c not in seats:
                raise Refused("not-your-seat", f"you do not hold the {color_word(c)} seat")
            return c
        if not seats:
            raise Refused("not-your-seat", "spectators cannot act in a game: join or create one first")
        if len(seats) == 1:
            return next(iter(seats))
        return default

    def apply(self, action: dict[str, Any], seats: frozenset[int], now: float) -> dict[str, Any]:
        """Apply one intent (a validated action dict, docs/web-api.md) for a caller holding ``seats``.

        Returns the log entry recording the change. Raises ``Refused`` (the session is then unchanged). When the
        intent could not be applied but something else happened (a move after the flag fell: the time loss),
        ``notice`` holds the error to report once the entry is stored.
        """
        g = self.game
        self.notice = None
        kind = action["type"]
        if g.phase == "finished":
            raise Refused("wrong-phase", f"the game is over ({g.result})", reason="wrong-phase")
        base = len(g.events)
        undo_before = self.undo_request
        entry: dict[str, Any] = {}
        removed = 0
        if kind in ("play", "pass", "place_handicap"):
            c = self.resolve_color(action, seats, g.to_move)
            if c != g.to_move:
                raise Refused(
                    "illegal-move",
                    f"it is {color_word(g.to_move)}'s turn, not {color_word(c)}'s",
                    reason="wrong-turn",
                )
            self._move(kind, action, c, now)
            self.undo_request = None
            if self.bot_note is not None and c != self.bot_color:
                # The person has played on after the computer seat's dispute: it is settled on the board now.
                self.bot_note = None
                entry["bot_note"] = None
        elif kind == "resign":
            c = self.resolve_color(action, seats, g.to_move)
            self._guard(lambda: g.resign(c))
            self.undo_request = None
        elif kind == "undo_request":
            c = self.resolve_color(action, seats, opponent(g.to_move))
            removed = self._undo_request(c, seats)
        elif kind == "undo_answer":
            if self.undo_request is None:
                raise Refused("wrong-phase", "there is no undo request to answer", reason="no-undo-request")
            c = self.resolve_color(action, seats, opponent(self.undo_request))
            if c == self.undo_request:
                raise Refused("wrong-phase", "the opponent of the requester answers an undo request",
                               reason="no-undo-request")
            if action.get("accept"):
                removed = self._take_back(self.undo_request)
            self.undo_request = None
        elif kind == "toggle_dead":
            c = self.resolve_color(action, seats, g.to_move)
            self._guard(lambda: g.toggle_dead(action["point"], c))
        elif kind == "accept":
            c = self.resolve_color(action, seats, g.to_move)
            colors = [c] if action.get("color") is not None or len(seats) == 1 else sorted(seats - g.accepted)
            if not colors:
                raise Refused("wrong-phase", "this marking is already accepted", reason="already-accepted")
            self._guard(lambda: self._accept_all(colors))
        elif kind == "resume":
            c = self.resolve_color(action, seats, g.to_move)
            self._guard(lambda: g.resume(c))
            self.proposal = None
            entry["proposal"] = None
        else:  # the schema admits no other type; kept so a new type cannot slip through silently
            raise Refused("bad-request", f"unknown action type {kind!r}", field="type")
        return self._finish(entry, base, removed, undo_before, now)

    def flag(self, now: float) -> dict[str, Any] | None:
        """Check the running clock at ``now``; when it ran out, record the time loss and return the entry."""
        c = self.clock.running
        if c is None or self.clock.time_left(c, now) > 0:
            return None
        base = len(self.game.events)
        self.clock.stop(now, moved=False)
        self.clock.sides[c].expired = True
        self.game.timeout(c)
        return self._finish({}, base, 0, self.undo_request, now)

    def end_scoring(self, now: float) -> dict[str, Any] | None:
        """Past the scoring deadline of a correspondence game (``scoring``), the marking on the board stands: each
        player who has not accepted it is taken to, and the game is scored. Returns the log entry, or None when
        the deadline has not passed (or the game is not being scored)."""
        g = self.game
        if g.phase != "scoring" or self.scoring is None or now < self.scoring[1]:
            return None
        base = len(g.events)
        self._guard(lambda: self._accept_all([c for c in (BLACK, WHITE) if c not in g.accepted]))
        return self._finish({}, base, 0, self.undo_request, now)

    def set_pauses(self, color: int, tz: str | None, away: tuple[float, float] | None,
                   now: float) -> dict[str, Any] | None:
        """Give ``color``'s clock its player's time zone and vacation (start, end) in a correspondence game under
        way; returns the log entry, or None when nothing changes (or the game has no such clock)."""
        side = self.clock.sides.get(color)
        if side is None or not self.clock.spec.correspondence or self.game.phase == "finished":
            return None
        if (side.tz, side.away) == (tz, away):
            return None
        side.tz, side.away = tz, away
        return self._finish({}, len(self.game.events), 0, self.undo_request, now)

    def forfeit(self, color: int, reason: str, now: float) -> dict[str, Any]:
        """``color`` (a computer seat: an engine's illegal move or crash) forfeits; returns the log entry.
        Raises ``Refused`` 409 when the game is already over."""
        g = self.game
        if g.phase == "finished":
            raise Refused("wrong-phase", f"the game is over ({g.result})", reason="wrong-phase")
        base = len(g.events)
        if self.clock.running is not None:
            self.clock.stop(now, moved=False)
        g.forfeit(color, reason)
        return self._finish({}, base, 0, self.undo_request, now)

    def void(self, reason: str, now: float) -> dict[str, Any]:
        """End the game without a result (``Void``: not rated), e.g. a live game its player left early
        (keima.server.moderation); returns the log entry. Raises ``Refused`` 409 when the game is already over."""
        g = self.game
        if g.phase == "finished":
            raise Refused("wrong-phase", f"the game is over ({g.result})", reason="wrong-phase")
        base = len(g.events)
        if self.clock.running is not None:
            self.clock.stop(now, moved=False)
        self._guard(lambda: g.declare_no_result(reason))
        return self._finish({}, base, 0, self.undo_request, now)

    def set_proposal(self, dead: frozenset[int]) -> dict[str, Any]:
        """Record the estimator's dead stones; they become the marking unless a player already marked some."""
        base = len(self.game.events)
        g = self.game
        # Only stones can be dead: an estimator's stray point must not cost the players their proposal.
        dead = frozenset(p for p in dead if 0 <= p < len(g.board.colors) and g.board.colors[p] != 0)
        if g.phase == "scoring" and not g.dead and dead:
            g.set_dead(dead)
        self.proposal = dead
        return self._finish({"proposal": sorted(dead)}, base, 0, self.undo_request, timesource.now())

    def join(self, color: int, thash: str, now: float) -> dict[str, Any]:
        """Give seat ``color`` to the token with hash ``thash`` (the invitation is then used up; the clock of
        the player to move starts). Returns the log entry."""
        if color == BLACK:
            self.seats.black = thash
        else:
            self.seats.white = thash
        self.invite_hash = None
        return self._finish({"join": cname(color)}, len(self.game.events), 0, self.undo_request, now)

    def post_chat(self, message: dict[str, Any]) -> dict[str, Any]:
        """Add a chat message (``keima.server.games.chat`` checks who may write what); returns the log entry."""
        self.chat.append(message)
        self.version += 1
        return {"chat": message}

    def rename(self, color: int, person: dict[str, Any]) -> dict[str, Any] | None:
        """Show the player of ``color`` as ``person`` (their new name or rank) while the game has not started
        (an open challenge or invitation: a game that has started keeps the names of the day); returns the log
        entry, or None when there is nothing to change."""
        if self.invite_hash is None or self.people.get(color) == person:
            return None
        self.people[color] = dict(person)
        self.version += 1
        return {"rename": {"color": cname(color), "person": dict(person)}}

    def rate(self, change: dict[str, float]) -> dict[str, Any] | None:
        """Record how the ratings moved after this finished, rated game (``{"B": points, "W": points}``,
        ``keima.server.ratings.subscriber``); returns the log entry, or None when it is recorded already."""
        if self.rating_change == change:
            return None
        self.rating_change = dict(change)
        self.version += 1
        return {"rated": dict(change)}

    def revoke(self, colors: frozenset[int], entry: dict[str, Any] | None = None) -> dict[str, Any]:
        """Take the seats ``colors`` from the token that holds them (a deleted account's): nobody can act in them
        again. Adds to ``entry`` (a change being made) or returns a log entry of its own."""
        for c in colors:
            if c == BLACK:
                self.seats.black = REVOKED
            else:
                self.seats.white = REVOKED
        names = sorted(cname(c) for c in colors)
        if entry is not None:
            entry["revoke"] = names
            return entry
        self.version += 1
        return {"revoke": names}

    def before(self) -> Before:
        """What the game service keeps of the game before a change, to say what the change did."""
        return Before(moves=len(self.game.moves), phase=self.game.phase,
                      undo_request=None if self.undo_request is None else cname(self.undo_request))

    def _guard(self, fn: Any) -> None:
        try:
            fn()
        except GameError as exc:
            raise game_error(exc) from None

    def _accept_all(self, colors: list[int]) -> None:
        done = 0
        try:
            for c in colors:
                self.game.accept(c)
                done += 1
        except GameError:
            for _ in range(done):
                self.game.undo()
            raise

    def _move(self, kind: str, action: dict[str, Any], c: int, now: float) -> None:
        g = self.game
        clock = self.clock
        saved = (clock.running, clock.started_at, clock.snapshot())
        if clock.running == c and clock.stop(now, moved=True):
            # The move came after the flag fell (the timer had not fired yet): the time loss stands, and the
            # caller is told once it is stored.
            g.timeout(c)
            self.notice = Refused("wrong-phase", f"{color_word(c)} ran out of time", reason="time-out")
            return
        try:
            if kind == "pass":
                g.pass_move(c)
            elif kind == "play":
                g.play(action["move"], c)
            else:
                g.place_handicap(action["points"])
        except GameError as exc:
            clock.restore(saved[2])
            clock.running, clock.started_at = saved[0], saved[1]
            raise game_error(exc) from None

    def _undo_request(self, c: int, seats: frozenset[int]) -> int:
        g = self.game
        if g.phase != "play" or g.result is not None:
            raise Refused("wrong-phase", "an undo can be asked only during play", reason="wrong-phase")
        if not any(m.color == c for m in g.moves):
            raise Refused("wrong-phase", f"{color_word(c)} has no move to take back",
                           reason="nothing-to-undo")
        if self.undo_request is not None:
            raise Refused("wrong-phase", "an undo request is already waiting for an answer",
                           reason="undo-pending")
        other = opponent(c)
        if other in seats or other == self.bot_color:
            # The opponent is the same person (one screen) or the bot, which always agrees.
            return self._take_back(c)
        self.undo_request = c
        return 0

    def _take_back(self, c: int) -> int:
        """Undo events until ``c``'s last move is gone; returns how many were undone."""
        g = self.game
        idx = max((i for i, m in enumerate(g.moves) if m.color == c), default=None)
        if idx is None:
            raise Refused("wrong-phase", f"{color_word(c)} has no move to take back",
                           reason="nothing-to-undo")
        n = 0
        while len(g.moves) > idx:
            g.undo()
            n += 1
        return n

    def _finish(self, entry: dict[str, Any], base: int, removed: int, undo_before: int | None,
                now: float) -> dict[str, Any]:
        g = self.game
        start = base - removed
        new = [e.to_dict() for e in g.events[start:]]
        del self.event_dicts[start:]
        self.event_dicts.extend(new)
        if removed:
            entry["undo"] = removed
        if new:
            entry["events"] = new
        if g.phase != "scoring" and self.proposal is not None:
            self.proposal = None
            entry["proposal"] = None
        self._scoring_deadline(entry, bool(new or removed), now)
        self.sync_clock(now)
        if self.clock.enabled:
            entry["clock"] = self.clock.snapshot()
        if self.undo_request != undo_before or "undo_request" in entry:
            entry["undo_request"] = None if self.undo_request is None else cname(self.undo_request)
        self.version += 1
        return entry

    def _scoring_deadline(self, entry: dict[str, Any], acted: bool, now: float) -> None:
        # Correspondence games only: a live game's players are there to finish their count.
        if not self.clock.spec.correspondence:
            return
        if self.game.phase == "scoring":
            if acted or self.scoring is None:
                since = now if self.scoring is None else self.scoring[0]
                self.scoring = (since, min(now + SCORING_ANSWER_S, since + SCORING_MAX_S))
                entry["scoring"] = list(self.scoring)
        elif self.scoring is not None:
            self.scoring = None
            entry["scoring"] = None

    # -------------------------------------------------------------------------------------------- state
    def state_json(self, now: float, seats: frozenset[int] = frozenset()) -> str:
        """The ``GameState`` JSON for a viewer holding ``seats`` (made once per change, see ``keima.server.games.view``)."""
        return self.view.state_json(self, now, seats)
