"""What clients are sent: the ``GameState`` of a session and the messages that carry it, as the models of
``keima.server.games.schemas`` (the same models describe them in ``/openapi.json``).

A state goes to every socket watching a game after every change, so its JSON is made once per change and per
kind of viewer (``you`` differs: Black, White, both, spectators). pydantic serializes the models; two pieces are
kept between changes instead of being serialized again each time:

- each move's JSON (``MoveOut``), made once when the move is played: the move list is the only part of a state
  that grows with the game, and serializing every move again on every change was the bulk of the cost;
- the JSON of everything but ``moves`` and ``you``, made once per version.

``GameState`` lists ``moves`` and ``you`` last, so appending them to the rest gives exactly the text that
``GameState.model_dump_json()`` gives for the whole model (tests/server/games/test_view.py checks this), and envelopes
(``WsState``, ``GameEnvelope``, ``Created``) put the state last or wrap it the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import TypeAdapter

from keima.ratings.game import MIN_MOVES
from keima.rules.board import BLACK, WHITE
from keima.rules.coords import to_gtp
from keima.seat import engine_of
from keima.server.games.answers import (
    ChatOut,
    ClockOut,
    EventOut,
    GameState,
    InviteOut,
    MoveOut,
    PlayerOut,
    SeatOut,
    SideClockOut,
    UndoRequestOut,
)
from keima.server.games.clock import GameClock
from keima.server.games.pauses import next_pause, resumes_at
from keima.server.games.schemas import ClockIn, Color

if TYPE_CHECKING:

    pass

if TYPE_CHECKING:
    from datetime import datetime

    from keima.rules.game import Game, MoveRecord


class SeatsViewed(Protocol):
    """The seats as the view reads them: who holds each colour (a token hash), None when free."""

    @property
    def black(self) -> str | None: ...

    @property
    def white(self) -> str | None: ...

    def get(self, color: int) -> str | None: ...


class ViewedGame(Protocol):
    """What the view reads of a game in memory (``keima.server.games.session.GameSession`` is one). Declared here so
    that the view depends on the session's shape and not on its module, which uses the view."""

    id: str
    created_at: datetime
    mode: str
    game: Game
    clock: GameClock
    bot_color: int | None
    bot_level: str | None
    invite_hash: str | None
    version: int
    undo_request: int | None
    proposal: frozenset[int] | None
    bot_note: str | None
    scoring: tuple[float, float] | None
    view: StateView
    people: dict[int, dict[str, Any]]
    chat: list[dict[str, Any]]
    params: dict[str, Any]
    rating_change: dict[str, float] | None

    @property
    def seats(self) -> SeatsViewed: ...

_SPEC: TypeAdapter[Any] = TypeAdapter(ClockIn)
_COLORS: TypeAdapter[list[Color]] = TypeAdapter(list[Color])
_TAIL = ("clock", "moves", "you")
# How many of a game's last chat messages a state carries (the SGF keeps them all).
CHAT_IN_STATE = 100
_CHAT_KEYS = ("n", "from", "text", "at", "to", "sender")


def bot_name(level: str | None) -> str:
    """The computer player's name as the UI and the SGF show it: keima with its level (``"keima (strong)"``), or
    a GTP engine's own name (``"GNU Go"`` for the level ``"engine:GNU Go"``)."""
    engine = engine_of(level)
    if engine is not None:
        return engine
    return f"keima ({level})" if level else "keima"


def shown_of(person: dict[str, Any] | None) -> tuple[str | None, bool]:
    """The rank a game shows beside a player of its record ``person`` and whether it is provisional: the rank
    shown when they took the seat (``shown_rank``, ``keima.server.ratings.with_shown_rank``), else, in a record kept
    before shown ranks were, the rank they typed."""
    if not person:
        return None, False
    if "shown_rank" in person:
        return person["shown_rank"], bool(person.get("provisional"))
    return person.get("rank"), False


def color_out(color: int) -> Color:
    """``"B"`` for Black (1), ``"W"`` for White (2)."""
    return "B" if color == BLACK else "W"


def colors_out(colors: frozenset[int]) -> list[Color]:
    """The colours of a seat set, Black first."""
    return [color_out(c) for c in sorted(colors)]


def move_out(m: MoveRecord, size: int) -> MoveOut:
    """One entry of ``moves``."""
    return MoveOut(n=m.number, color=color_out(m.color), point=m.point, vertex=to_gtp(m.point, size),
                   captures=m.captures)


def clock_out(clock: GameClock, now: float, spec: Any = None) -> ClockOut | None:
    """The ``clock`` of a state as of ``now`` (None for a game without clock); ``spec``: the spec's model
    when the caller keeps it (it never changes during a game)."""
    if not clock.enabled:
        return None
    kind = clock.spec.type
    sides = clock.sides_at(now)

    def side(color: int) -> SideClockOut:
        s = sides[color]
        return SideClockOut(
            main=round(s.main, 3),
            periods=s.periods if kind == "byoyomi" else None,
            period=round(s.period, 3) if kind in ("byoyomi", "canadian") else None,
            stones=s.stones if kind == "canadian" else None,
            expired=s.expired,
        )

    running = None if clock.running is None else color_out(clock.running)
    if spec is None:
        spec = _SPEC.validate_python(clock.spec.as_dict())
    # A side shows its pause when its clock would run now (its turn) or when it is away: a player on vacation
    # is away in every game, their turn or not.
    paused: dict[Color, Any] = {}
    for c in (BLACK, WHITE):
        why = clock.paused(c, now)
        paused[color_out(c)] = why if why == "vacation" or clock.running == c else None
    pauses_at = back_at = None
    if clock.running is not None:
        pause = clock.pause_of(clock.running)
        if paused[color_out(clock.running)] is None:
            pauses_at = next_pause(pause, now)
        else:
            back_at = resumes_at(pause, now)
    return ClockOut(spec=spec, running=running, at=wall_time(now), B=side(BLACK), W=side(WHITE), paused=paused,
                    pauses_at=pauses_at, resumes_at=back_at)


def wall_time(now: float) -> float:
    """The server's Unix time (seconds, ms precision) of the instant ``now`` (``keima.server.timesource``)."""
    return round(now, 3)


def jsonable(value: Any) -> Any:
    """Convert the referee's scoring dicts to JSON values: colour keys 1/2 to "B"/"W", sets to sorted lists."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            key = color_out(k) if k in (BLACK, WHITE) and isinstance(k, int) and not isinstance(k, bool) else str(k)
            out[key] = jsonable(v)
        return out
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def game_state(s: ViewedGame, now: float, you: frozenset[int] = frozenset()) -> GameState:
    """Return the whole ``GameState`` of ``s`` as of ``now`` for a viewer holding the seats ``you``."""
    return _head(s, now, [move_out(m, s.game.size) for m in s.game.moves], colors_out(you))


def _head(s: ViewedGame, now: float, moves: list[MoveOut], you: list[Color]) -> GameState:
    g = s.game
    score = None
    if g.phase == "scoring" or (g.phase == "finished" and g.end_reason == "score"):
        score = jsonable(g.score().as_dict())
    view = s.view
    # model_construct: every value comes from the referee and the session, typed; validating the board and
    # the lists again on every change would only cost time (tests validate real answers against the models).
    return GameState.model_construct(
        id=s.id,
        version=s.version,
        created_at=s.created_at.isoformat(),
        mode=s.mode,
        size=g.size,
        rules=view.rules(s),
        komi=g.komi,
        handicap=g.handicap,
        placement=g.placement,
        handicap_stones=list(g.handicap_stones),
        handicap_left=g.handicap_left,
        phase=g.phase,
        to_move=color_out(g.to_move),
        result=g.result,
        end_reason=g.end_reason,
        board=list(g.board.colors),
        prisoners={color_out(c): n for c, n in g.prisoners.items()},
        pass_count={color_out(c): n for c, n in g.pass_count.items()},
        consecutive_passes=g.consecutive_passes,
        dead=sorted(g.dead),
        accepted=colors_out(frozenset(g.accepted)),
        proposal=None if s.proposal is None else sorted(s.proposal),
        score=score,
        players=view.players(s),
        invite_open=s.invite_hash is not None,
        undo_request=None if s.undo_request is None else UndoRequestOut(by=color_out(s.undo_request)),
        bot_note=s.bot_note,
        rated=counts_as_rated(s),
        rating_change=s.rating_change or None,  # {}: annulled, no change to show
        event=_event(s.params.get("event")),
        scoring_deadline=None if s.scoring is None else round(s.scoring[1], 3),
        chat=[ChatOut.model_construct(**{k: m.get(k) for k in _CHAT_KEYS}, account=m.get("player") is not None)
              for m in s.chat[-CHAT_IN_STATE:]],
        clock=clock_out(s.clock, now, view.clock_spec(s)),
        moves=moves,
        you=you,
    )


def _event(event: Any) -> EventOut | None:
    # A tournament game's params name its tournament, round and table (keima.server.tournaments.rounds).
    if not isinstance(event, dict):
        return None
    return EventOut.model_construct(**{k: event.get(k) for k in ("id", "name", "round", "table")})


@dataclass
class StateView:
    """The serialized state of one session, kept between changes (see the module docstring)."""

    version: int = -1
    head: str = ""
    moves_json: str = ""
    texts: dict[frozenset[int], str] = field(default_factory=dict)
    # The base of the next delta: the fields, board and clock of the version last sent (``mark``). The board is
    # kept as bytes (one colour a point), which the garbage collector does not track: as a list, the thousand
    # games' new copies (361 items each, one per move) were most of the references each young pass followed
    # under load (bench/server_load.py: the collector's time in the loaded minute fell from 2.0 to 1.3 s).
    fields: dict[str, Any] | None = None
    board: bytes = b""
    clock_sides: dict[str, Any] | None = None
    _rules: dict[str, Any] | None = None
    _spec: Any = None
    _players: tuple[tuple[Any, ...], dict[Color, PlayerOut]] | None = None
    _move_src: list[Any] = field(default_factory=list)
    _move_json: list[str] = field(default_factory=list)

    def rules(self, s: ViewedGame) -> dict[str, Any]:
        """The ruleset's dict, made once per game (it showed in the server's profile)."""
        if self._rules is None:
            self._rules = s.game.rules.as_dict()
        return self._rules

    def clock_spec(self, s: ViewedGame) -> Any:
        """The clock spec's model, made once per game."""
        if self._spec is None and s.clock.enabled:
            self._spec = _SPEC.validate_python(s.clock.spec.as_dict())
        return self._spec

    def players(self, s: ViewedGame) -> dict[Color, PlayerOut]:
        """``players``, made again only when a seat is taken or a player's name changes."""
        people = s.people
        key = (s.seats.black is not None, s.seats.white is not None,
               tuple((c, p.get("name"), shown_of(p)) for c, p in sorted(people.items())))
        if self._players is None or self._players[0] != key:
            self._players = (key, {
                color_out(c): PlayerOut(
                    kind="bot" if c == s.bot_color else "human",
                    level=s.bot_level if c == s.bot_color else None,
                    seated=c == s.bot_color or s.seats.get(c) is not None,
                    name=bot_name(s.bot_level) if c == s.bot_color else people.get(c, {}).get("name"),
                    rank=None if c == s.bot_color else shown_of(people.get(c))[0],
                    provisional=c != s.bot_color and shown_of(people.get(c))[1],
                )
                for c in (BLACK, WHITE)
            })
        return self._players[1]

    def state_json(self, s: ViewedGame, now: float, seats: frozenset[int]) -> str:
        """Return the ``GameState`` JSON of ``s`` for a viewer holding ``seats``: all but the clock made once per
        version and kind of viewer; the clock read as of ``now``."""
        if self.version != s.version:
            self.head = _head(s, now, [], []).model_dump_json(exclude=set(_TAIL))[:-1]
            self.moves_json = ",".join(self._moves(s))
            self.version = s.version
            self.texts = {}
        tail = self.texts.get(seats)
        if tail is None:
            tail = f',"moves":[{self.moves_json}],"you":{_COLORS.dump_json(colors_out(seats)).decode()}}}'
            self.texts[seats] = tail
        clock = clock_out(s.clock, now, self.clock_spec(s))
        clock_json = "null" if clock is None else clock.model_dump_json()
        return f'{self.head},"clock":{clock_json}{tail}'

    def mark(self, s: ViewedGame, now: float) -> None:
        """Take the game as it is now as the base of the next delta (after a load, or a delta sent)."""
        self.fields = _fields(s, now)
        self.board = bytes(s.game.board.colors)
        self.clock_sides = _clock_sides(s, now)

    def delta(self, s: ViewedGame, events: list[dict[str, Any]], now: float) -> str:
        """Return the ``delta`` message from the base (``mark``) to ``s`` as it is now, for the change of version
        ``s.version`` whose first event is ``events[0]``, and make ``s`` the new base. Fields that did not
        change are left out (docs/web-api.md, *Deltas*)."""
        if self.fields is None:
            raise RuntimeError("delta() before mark(): the view has no base")
        out: dict[str, Any] = {"type": "delta", "from": s.version - 1, "to": s.version, "event": events[0]}
        board = s.game.board.colors
        old = self.board
        placed = [[p, "B" if c == BLACK else "W"] for p, c in enumerate(board) if c and c != old[p]]
        removed = [p for p, c in enumerate(board) if not c and old[p]]
        if placed:
            out["placed"] = placed
        if removed:
            out["removed"] = removed
        fields = _fields(s, now)
        for k, v in fields.items():
            if self.fields.get(k) != v:
                out[k] = v
        sides = _clock_sides(s, now)
        if sides is not None and (sides != self.clock_sides or s.clock.running is not None):
            reading = clock_out(s.clock, now, self.clock_spec(s))
            assert reading is not None
            clock: dict[str, Any] = {"at": reading.at, "running": reading.running}
            if s.clock.spec.correspondence or s.clock.spec.weekend_pause:  # only a correspondence clock pauses: the others' deltas stay small
                clock["paused"], clock["pauses_at"] = reading.paused, reading.pauses_at
                clock["resumes_at"] = reading.resumes_at
            for c in ("B", "W"):
                if self.clock_sides is None or sides[c] != self.clock_sides[c]:
                    clock[c] = getattr(reading, c).model_dump(exclude_none=True)
            out["clock"] = clock
        self.fields, self.board, self.clock_sides = fields, bytes(board), sides
        return json.dumps(out, separators=(",", ":"))

    def _moves(self, s: ViewedGame) -> list[str]:
        # Moves are kept while they are the very same records as the game's (an undo drops the rest). The
        # history only grows or is cut at its end, so when the last kept record is still in place, all are.
        moves = s.game.moves
        src, out = self._move_src, self._move_json
        keep = len(src)
        if keep > len(moves) or (keep and src[-1] is not moves[keep - 1]):
            keep = 0
            limit = min(len(src), len(moves))
            while keep < limit and src[keep] is moves[keep]:
                keep += 1
        del src[keep:]
        del out[keep:]
        size = s.game.size
        for m in moves[keep:]:
            src.append(m)
            out.append(move_out(m, size).model_dump_json())
        return out


# The GameState fields a delta carries when they change (the board goes as placed/removed stones; moves and chat
# as the event; the clock apart; the rest never changes during a game).
_DELTA_EXCLUDE = {"id", "version", "created_at", "mode", "size", "rules", "komi", "handicap", "placement", "board",
                  "chat", "clock", "moves", "you"}


def _fields(s: ViewedGame, now: float) -> dict[str, Any]:
    state = _head(s, now, [], [])
    out: dict[str, Any] = state.model_dump(mode="json", exclude=_DELTA_EXCLUDE)
    return out


def _clock_sides(s: ViewedGame, now: float) -> dict[str, Any] | None:
    # What a delta compares to tell whether the clock changed: the stored sides (not the running reading), and
    # which side runs (the pass that ends the play stops a clock whose side did not change: a Fischer clock at its
    # cap, where the increment makes up for the time used).
    if not s.clock.enabled:
        return None
    out: dict[str, Any] = {color_out(c): (side.main, side.periods, side.period, side.stones, side.expired, side.tz,
                                          side.away) for c, side in s.clock.sides.items()}
    out["running"] = s.clock.running
    return out


def with_you(state: str, seats: frozenset[int]) -> str:
    """The spectators' state JSON ``state`` (ending in ``"you":[]}``) for a viewer holding ``seats``."""
    tail = ',"you":[]}'
    if not state.endswith(tail):
        return state
    return f'{state[: -len(tail)]},"you":{_COLORS.dump_json(colors_out(seats)).decode()}}}'


# -- envelopes: a state JSON put in its message; each equals the model's own serialization -------------------
def ws_state_json(state: str, protocol: int | None = None) -> str:
    """A ``WsState`` message carrying the state JSON ``state`` (``protocol``: in the first message of a socket)."""
    if protocol is not None:
        return f'{{"type":"state","protocol":{protocol},"game":{state}}}'
    return f'{{"type":"state","game":{state}}}'


def envelope_json(state: str) -> str:
    """A ``GameEnvelope`` carrying the state JSON ``state``."""
    return f'{{"game":{state}}}'


def created_json(state: str, seat: SeatOut, invite: InviteOut | None) -> str:
    """A ``Created`` answer: the state JSON ``state``, the caller's seat and the invitation (or None)."""
    inv = "null" if invite is None else invite.model_dump_json()
    return f'{{"game":{state},"seat":{seat.model_dump_json()},"invite":{inv}}}'


def counts_as_rated(s: ViewedGame) -> bool:
    """Whether the game is shown as rated: offered rated, and not a finished abandoned start (a side played fewer
    than ``MIN_MOVES`` stones: the ratings leave it out, docs/ratings.md), which the pages called "rated" while
    no rating moved; nor a game whose rating effect a moderator annulled."""
    if not s.params.get("rated") or s.rating_change == {}:  # {}: a moderator annulled its rating effect
        return False
    if s.game.phase != "finished":
        return True
    played = {BLACK: 0, WHITE: 0}
    for m in s.game.moves:
        if m.point is not None:
            played[m.color] = played.get(m.color, 0) + 1
    return min(played.values()) >= MIN_MOVES
