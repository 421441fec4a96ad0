"""The history of one game: every event in order, how to take each one back, and the positions the game went
through. Ko and every superko are decided here, and only here.

Repetition is checked against the whole history, never a window: a multiset of hashes records, as the ruleset's
ko rule needs, every board (positional superko), every board with the player to move (situational), or every
board with the player who created it by placing a stone (natural-situational); Japanese cycle detection counts
situations as well. The simple-ko point is kept under every ruleset, so that an immediate single-stone recapture
is reported as "ko" whichever rule forbids it.

A board play is judged by playing it and taking it back if it is illegal (occupied, suicide, repetition): that
one function, ``History.play``, serves both playing a move and asking whether it is legal. It is the hot path of
replaying records (bench/replay.py), so what outlives a play is kept to plain tuples of ints, which the garbage
collector stops tracking, besides the board's undo record.
"""

from __future__ import annotations

from typing import Final, Literal, overload

from keima.rules.board import BLACK, Board, Undo
from keima.rules.errors import occupied, repetition, suicide
from keima.rules.events import Event, MoveRecord
from keima.rules.ruleset import Ruleset

# What every board play changes, as a plain tuple of ints (the garbage collector stops tracking it):
# (to_move, consecutive_passes, prisoners (black's, white's), ko_point, moves_since_resume).
Hot = tuple[int, int, tuple[int, int], int | None, int]
HOT_FIELDS = ("to_move", "consecutive_passes", "prisoners", "ko_point", "moves_since_resume")

# How to take back event i: ``states[i]`` and ``hots[i]``, the game's state before it, and ``plays[i]``, the
# board's record of a play, None for any other event, or REBUILD for one taken back by replaying the events before
# it (setup and handicap stones). Three parallel lists rather than a tuple per event: no object is made for it on
# the hot path. The history keys a move added need no room: they follow from the board hash after it and the
# mover's colour.
REBUILD: Final = "rebuild"


# Situational and natural-situational histories key positions by XOR-ing the board hash with a constant per
# colour (the player to move, or the player who created the board): one int key instead of a tuple.
SIDE_KEY = (0, 0x5DEECE66D1F2A3B7, 0x9E3779B97F4A7C15)
CREATOR_KEY = (0, 0xD1B54A32D192ED03, 0x8CB92BA72F3D8DD7)

# For each superko rule, the key of the board a play by each colour creates, as the XOR constant indexed by that
# colour: the board alone (positional), with the opponent to move (situational), with its creator (natural).
_PLAY_KEYS = {
    "positional": (0, 0, 0),
    "situational": (0, SIDE_KEY[2], SIDE_KEY[1]),
    "natural-situational": CREATOR_KEY,
}

# Hot-path construction of a ``MoveRecord`` without its Python-level __new__ (a C call instead of a Python
# frame). Arguments must list every field in order.
_new = tuple.__new__


def as_event(entry: MoveRecord | Event) -> Event:
    """Return the ``Event`` of one log entry."""
    if isinstance(entry, Event):
        return entry
    return Event("move", entry.color, entry.point)


def _add(counts: dict[int, int], key: int) -> None:
    counts[key] = counts.get(key, 0) + 1


def _decrement(counts: dict[int, int], key: int) -> None:
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]


class History:
    """The events of one game on ``board`` under ``rules``, the positions they went through, and the undo stack.

    The log holds one entry per event: for a move its ``MoveRecord`` (a tuple of ints, which the garbage
    collector stops tracking), an ``Event`` for anything else; ``events`` and ``moves`` are built from it on
    demand and cached.
    """

    __slots__ = (
        "board",
        "size",
        "rules",
        "hot",
        "log",
        "states",
        "hots",
        "plays",
        "nmoves",
        "positions",
        "situations",
        "created",
        "_seen",
        "_play_key",
        "_track_positions",
        "_track_situations",
        "_extra_situations",
        "_track_created",
        "_multi_suicide",
        "_start_keys",
        "_events",
        "_moves",
        "_moves_seen",
    )

    def __init__(self, board: Board, rules: Ruleset) -> None:
        self.board = board
        self.size = board.size
        self.rules = rules
        self.hot: Hot = (BLACK, 0, (0, 0), None, 0)
        self.log: list[MoveRecord | Event] = []
        self.states: list[object] = []
        self.hots: list[Hot] = []
        self.plays: list[Undo | str | None] = []
        self.nmoves = 0
        # Whole-history multisets (hash -> occurrences), each kept only where the ko rule (or Japanese cycle
        # detection) needs it.
        self.positions: dict[int, int] = {}
        self.situations: dict[int, int] = {}
        self.created: dict[int, int] = {}
        self._track_positions = rules.ko == "positional"
        self._track_situations = rules.ko == "situational" or rules.cycle_no_result
        self._track_created = rules.ko == "natural-situational"
        # The multiset the superko rule looks a play up in (None under simple ko), and the key of that play.
        self._seen: dict[int, int] | None = {
            "positional": self.positions,
            "situational": self.situations,
            "natural-situational": self.created,
        }.get(rules.ko)
        self._play_key = _PLAY_KEYS.get(rules.ko, (0, 0, 0))
        # Situations counted for Japanese cycle detection beside another ko rule.
        self._extra_situations = self._track_situations and rules.ko != "situational"
        self._multi_suicide = rules.multi_stone_suicide
        # The superko keys of the starting positions, so that a refusal can say the board repeated is one of them.
        self._start_keys: set[int] = set()
        self._events: list[Event] = []
        self._moves: list[MoveRecord] = []
        self._moves_seen = 0  # log entries already turned into self._moves

    # ------------------------------------------------------------------ reading
    def events(self) -> list[Event]:
        """Every event so far, in order (a cached list the caller must not change)."""
        cache = self._events
        log = self.log
        if len(cache) != len(log):
            cache.extend(as_event(e) for e in log[len(cache) :])
        return cache

    def moves(self) -> list[MoveRecord]:
        """Every move (stones and passes) in order (a cached list the caller must not change)."""
        cache = self._moves
        log = self.log
        seen = self._moves_seen
        if seen < len(log):
            cache.extend(e for e in log[seen:] if not isinstance(e, Event))
            self._moves_seen = len(log)
        return cache

    def last_mover(self) -> int | None:
        """The colour of the last move (stone or pass), or None."""
        for e in reversed(self.log):
            if not isinstance(e, Event):
                return e.color
        return None

    def situation_count(self) -> int:
        """How often the current board with the current player to move occurred (0 unless situations are kept)."""
        return self.situations.get(self.board.hash ^ SIDE_KEY[self.hot[0]], 0)

    # ------------------------------------------------------------------ recording
    def record_start(self) -> None:
        """Record the current board as a starting position (empty board, after handicap or setup stones).

        For natural-situational superko a starting position counts as created by the opponent of the player to
        move, as if that player had just placed a stone: the immediate recapture of a ko set up on the board is
        then forbidden, as the FFG ko diagrams show, and handicap stones count as Black's creation."""
        h = self.board.hash
        to_move = self.hot[0]
        if self._track_positions:
            _add(self.positions, h)
            self._start_keys.add(h)
        if self._track_situations:
            _add(self.situations, h ^ SIDE_KEY[to_move])
            self._start_keys.add(h ^ SIDE_KEY[to_move])
        if self._track_created:
            _add(self.created, h ^ CREATOR_KEY[3 - to_move])
            self._start_keys.add(h ^ CREATOR_KEY[3 - to_move])

    def push(self, event: Event, state: object, rebuild: bool = False) -> None:
        """Record an event other than a move; ``state`` is what ``pop`` hands back. With ``rebuild``, taking it
        back means replaying the events before it (setup and handicap stones)."""
        self.states.append(state)
        self.hots.append(self.hot)
        self.plays.append(REBUILD if rebuild else None)
        self.log.append(event)

    @overload
    def play(self, p: int, c: int, state: object, commit: Literal[True] = True) -> MoveRecord: ...

    @overload
    def play(self, p: int, c: int, state: object, commit: Literal[False]) -> None: ...

    def play(self, p: int, c: int, state: object, commit: bool = True) -> MoveRecord | None:
        """Judge ``c`` placing a stone at the board point ``p``, whoever is to move, and raise ``IllegalMove``
        (occupied, suicide, ko, superko) if the rules forbid it; the board and history are then unchanged.

        With ``commit`` the play stays: it is recorded (``state``: what ``pop`` hands back) and its
        ``MoveRecord`` returned. Without, it is taken back and None returned: the legality test."""
        # Play first, then check suicide and repetition on the real result, and take it back if illegal: one
        # pass over the neighbours instead of an analysis followed by the play.
        board = self.board
        try:
            rec = board.play(p, c)
        except ValueError:
            raise occupied(p, c, self.size) from None
        h = board.hash
        hot = self.hot
        base = rec.base
        lost = 0
        if rec.suicide:
            lost = len(base.stones)
            if lost == 1 or not self._multi_suicide:
                board.undo(rec)
                raise suicide(p, c, self.size, lost == 1, self.rules.name)
        seen = self._seen
        if seen is None:
            if p == hot[3] and c == hot[0]:
                board.undo(rec)
                raise repetition(p, c, self.size, True, self.rules.ko, self.rules.name)
            if not commit:
                board.undo(rec)
                return None
        else:
            key = h ^ self._play_key[c]
            if key in seen:
                board.undo(rec)
                raise repetition(p, c, self.size, p == hot[3] and c == hot[0], self.rules.ko, self.rules.name,
                                 key in self._start_keys)
            if not commit:
                board.undo(rec)
                return None
            seen[key] = 1  # the rule has just found the key absent: no look-up
        opp = 3 - c
        if self._extra_situations:
            _add(self.situations, h ^ SIDE_KEY[opp])
        self.states.append(state)
        self.hots.append(hot)
        self.plays.append(rec)
        caps = rec.captured_count
        if caps or lost:
            b, w = hot[2]
            pris = (b + caps, w + lost) if c == BLACK else (b + lost, w + caps)
        else:
            pris = hot[2]
        # A single stone that captured a single stone and has that point as its only liberty: a ko to retake.
        ko = (
            rec.captured[0].stones[0] if caps == 1 and len(base.stones) == 1 and len(base.libs) == 1 else None
        )
        n = self.nmoves + 1
        self.nmoves = n
        self.hot = (opp, 0, pris, ko, hot[4] + 1)
        record: MoveRecord = _new(MoveRecord, (n, c, p, caps, lost))
        self.log.append(record)
        return record

    def pass_(self, c: int, state: object) -> MoveRecord:
        """Record a pass by ``c`` (``state``: what ``pop`` hands back) and return its record."""
        h = self.board.hash
        opp = 3 - c
        if self._track_positions:
            _add(self.positions, h)
        if self._track_situations:
            _add(self.situations, h ^ SIDE_KEY[opp])
        hot = self.hot
        self.states.append(state)
        self.hots.append(hot)
        self.plays.append(None)
        self.nmoves += 1
        record = MoveRecord(self.nmoves, c, None)
        self.log.append(record)
        self.hot = (opp, hot[1] + 1, hot[2], None, hot[4] + 1)
        return record

    def pop(self) -> tuple[Event, object]:
        """Take back the last event, which must not be a rebuild one (see ``push``): the board, the history
        keys and the hot state. Return the event and the ``state`` recorded with it."""
        play = self.plays.pop()
        log = self.log
        done = log.pop()
        ev = as_event(done)
        del self._events[len(log) :]
        if ev.kind == "move":
            self.nmoves -= 1
            if self._moves_seen > len(log):
                self._moves_seen = len(log)
                self._moves.pop()
            # The keys the move added, from the board it left (the hash before taking it back) and its colour.
            assert isinstance(done, MoveRecord)  # the log holds a move as its record
            h = self.board.hash
            c = done.color
            opp = 3 - c
            if play is None:  # a pass
                if self._track_positions:
                    _decrement(self.positions, h)
                if self._track_situations:
                    _decrement(self.situations, h ^ SIDE_KEY[opp])
            else:
                if self._seen is not None:
                    _decrement(self._seen, h ^ self._play_key[c])
                if self._extra_situations:
                    _decrement(self.situations, h ^ SIDE_KEY[opp])
                assert isinstance(play, Undo)
                self.board.undo(play)
        self.hot = self.hots.pop()
        return ev, self.states.pop()

    def rebuilds_last(self) -> bool:
        """True if the last event is taken back by replaying the events before it (see ``push``)."""
        return self.plays[-1] is REBUILD

    def check_consistency(self, playing: bool, started: bool = True) -> None:
        """Raise ``AssertionError`` unless the current position is recorded where the ko rule needs it
        (``playing``: the game is in its play phase; ``started``: its starting position is made, which a board
        with some of its free handicap stones placed is not yet) and the undo stack matches the log."""
        h = self.board.hash
        if self._track_positions and started:
            assert self.positions.get(h, 0) > 0, "current position missing from the history"
        if self._track_situations and playing:
            assert self.situation_count() > 0, "current situation missing"
        n = len(self.log)
        assert len(self.states) == len(self.hots) == len(self.plays) == n, "undo stack out of step with the events"
