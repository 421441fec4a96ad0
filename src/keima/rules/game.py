"""The state machine of one game: setup, turns, legality, passes, the end of play, dead stones, undo.

Every change is an ``Event`` in ``Game.events``; ``Game.replay`` rebuilds a game exactly from them (the server
stores events, and ``undo`` of a setup rebuilds that way). Board plays and passes are undone in constant time from
their ``Undo`` record and a snapshot of the small state.

Repetition is checked against the whole history, never a window: a multiset of hashes records, as the ruleset's
ko rule needs, every board (positional superko), every board with the player to move (situational), or every
board with the player who created it by placing a stone (natural-situational). The simple-ko point is kept for
every ruleset, so that an immediate single-stone recapture is reported as "ko" whichever rule forbids it.

Replaying records is the hot path (bench/replay.py): a board play is checked by playing it and taking it back if
illegal, and it leaves behind only objects the garbage collector can forget (plain tuples of ints) besides the
board's undo record.

Phases: ``"handicap"`` (free placement pending), ``"play"``, ``"scoring"`` (dead-stone agreement), ``"finished"``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Self

from keima.rules.board import (
    BLACK,
    EMPTY,
    WHITE,
    Analysis,
    Board,
    Undo,
    color_name,
    color_word,
    opponent,
    parse_color,
)
from keima.rules.coords import CoordinateError, check_size, fixed_handicap_points, from_gtp, to_gtp
from keima.rules.ruleset import RulesError, Ruleset, get_ruleset
from keima.rules.scoring import Score, score_position

Move = str | int | None

REASONS = ("occupied", "suicide", "ko", "superko", "off-board", "wrong-phase", "wrong-turn")


class GameError(ValueError):
    """An action that does not fit the game's state; ``reason`` is a short machine-readable code."""

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason


class IllegalMove(GameError):
    """A move the rules forbid. ``reason`` is one of ``REASONS``; ``str(e)`` is a sentence naming the rule."""

    def __init__(self, reason: str, message: str, move: int | None = None, color: int | None = None) -> None:
        super().__init__(message, reason)
        self.move = move
        self.color = color


class Event(NamedTuple):
    """One change of a game, JSON-safe through ``to_dict``/``from_dict``.

    kinds: ``move`` (point None = pass), ``handicap`` (points), ``setup`` (black/white/empty, color = player to
    move or None), ``resign``, ``timeout``, ``forfeit`` and ``no-result`` (text = reason), ``toggle`` (point),
    ``mark`` (points), ``accept``, ``resume``.
    """

    kind: str
    color: int | None = None
    point: int | None = None
    points: tuple[int, ...] = ()
    black: tuple[int, ...] = ()
    white: tuple[int, ...] = ()
    empty: tuple[int, ...] = ()
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict holding the non-default fields."""
        out: dict[str, Any] = {"kind": self.kind}
        defaults = self._field_defaults
        for name in self._fields[1:]:
            value = getattr(self, name)
            if value != defaults[name]:
                out[name] = list(value) if isinstance(value, tuple) else value
        if self.kind == "move" and self.point is None:
            out["point"] = None
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Rebuild an event from ``to_dict`` output; raise ``GameError`` if it is malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise GameError(f"malformed event {data!r}: needs a 'kind' string")
        unknown = set(data) - set(cls._fields)
        if unknown:
            raise GameError(f"malformed event: unknown field(s) {', '.join(sorted(unknown))}")
        kw: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("points", "black", "white", "empty"):
                if not isinstance(value, list | tuple) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value
                ):
                    raise GameError(f"malformed event: {key} must be a list of points")
                kw[key] = tuple(value)
            elif key in ("color", "point"):
                if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                    raise GameError(f"malformed event: {key} must be an integer or null")
                kw[key] = value
            elif key == "text":
                if not isinstance(value, str):
                    raise GameError("malformed event: text must be a string")
                kw[key] = value
            else:
                kw[key] = value
        return cls(**kw)


class MoveRecord(NamedTuple):
    """A move made in play: ``point`` None is a pass. ``captures`` counts opposing stones taken,
    ``suicided`` own stones removed by a multi-stone suicide."""

    number: int
    color: int
    point: int | None
    captures: int = 0
    suicided: int = 0

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.point is None


class _State(NamedTuple):
    """The part of a game's state that events other than board plays change (snapshotted for undo). What every
    board play changes lives in ``Game._hot``, a plain tuple of ints: ``(to_move, consecutive_passes,
    prisoners, ko_point, moves_since_resume)``, which the garbage collector stops tracking, so a long history
    costs it nothing."""

    phase: str
    pass_count: tuple[int, int]
    dead: frozenset[int]
    accepted: frozenset[int]
    result: str | None
    end_reason: str | None
    resumed: bool
    last_passer: int | None
    handicap_left: int


_Hot = tuple[int, int, tuple[int, int], int | None, int]
_HOT_FIELDS = ("to_move", "consecutive_passes", "prisoners", "ko_point", "moves_since_resume")


class _Entry(NamedTuple):
    """How to take back one event: the state before it, and the board record and history keys it added."""

    state: _State
    hot: _Hot
    board_undo: Undo | None = None
    position: int | None = None
    situation: int | None = None
    creation: int | None = None
    rebuild: bool = False


# Situational and natural-situational histories key positions by XOR-ing the board hash with a constant per
# colour (the player to move, or the player who created the board): one int key instead of a tuple.
_SIDE_KEY = (0, 0x5DEECE66D1F2A3B7, 0x9E3779B97F4A7C15)
_CREATOR_KEY = (0, 0xD1B54A32D192ED03, 0x8CB92BA72F3D8DD7)
# Hot-path construction of the named tuples above without their Python-level __new__ (a C call instead of a
# Python frame per object: a large share of the cost of a move). Arguments must list every field in order.
_new = tuple.__new__

_KO_SIMPLE, _KO_POSITIONAL, _KO_SITUATIONAL, _KO_NATURAL = range(4)
_KO_MODES = {
    "simple": _KO_SIMPLE,
    "positional": _KO_POSITIONAL,
    "situational": _KO_SITUATIONAL,
    "natural-situational": _KO_NATURAL,
}


_KO_WORDS = {
    "positional": "positional superko: no play may recreate an earlier board position",
    "situational": "situational superko: no play may recreate an earlier board position with the same player "
    "to move",
    "natural-situational": "natural situational superko (French rules): a player may not, by placing a stone, "
    "give the board a state it already had from one of his own stones",
}


_LogMove = tuple[int, int | None, int, int]  # (color, point, captures, suicided): a move in Game._log


def _as_event(entry: _LogMove | Event) -> Event:
    if isinstance(entry, Event):
        return entry
    return Event("move", entry[0], entry[1])


def _decrement(counts: dict[int, int], key: int) -> None:
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]


class Game:
    """One game of Go under a ruleset. See docs/api.md for the contract.

    Raises ``RulesError`` for settings that cannot be played (board size, handicap that does not fit, a placement
    the ruleset does not allow, a komi that is not a number).
    """

    def __init__(
        self,
        size: int = 19,
        rules: str | Ruleset = "french",
        komi: float | None = None,
        handicap: int = 0,
        placement: str | None = None,
    ) -> None:
        try:
            check_size(size)
        except CoordinateError as exc:
            raise RulesError(str(exc)) from None
        self.rules: Ruleset = get_ruleset(rules)
        if isinstance(handicap, bool) or not isinstance(handicap, int) or not 0 <= handicap <= 9:
            raise RulesError(f"handicap must be an integer from 0 to 9, not {handicap!r}")
        if komi is None:
            if handicap >= 1 and self.rules.handicap_komi is not None:
                komi = self.rules.handicap_komi
            else:
                komi = self.rules.default_komi
        if isinstance(komi, bool) or not isinstance(komi, int | float) or not math.isfinite(komi):
            raise RulesError(f"komi must be a finite number, not {komi!r}")
        self.size = size
        self.komi = float(komi)
        self.handicap = handicap
        self.board = Board(size)
        # The log holds one entry per event: for a move a plain tuple of ints (color, point, captures, suicided),
        # which the garbage collector stops tracking, an Event for anything else. ``events`` and ``moves`` are
        # built from it on demand and cached, so the hot path creates no object that outlives it for them.
        self._log: list[_LogMove | Event] = []
        self._events: list[Event] = []
        self._moves: list[MoveRecord] = []
        self._moves_seen = 0  # log entries already turned into self._moves
        self._nmoves = 0
        self._undo: list[_Entry] = []
        # Whole-history multisets (hash -> occurrences), each kept only where the ko rule (or Japanese cycle
        # detection) needs it: boards (positional), boards with the player to move (situational), boards with
        # the player who created them by a board play (natural-situational).
        self._positions: dict[int, int] = {}
        self._situations: dict[int, int] = {}
        self._created: dict[int, int] = {}
        self._track_positions = self.rules.ko == "positional"
        self._track_situations = self.rules.ko == "situational" or self.rules.cycle_no_result
        self._ko_mode = _KO_MODES[self.rules.ko]
        self._track_created = self.rules.ko == "natural-situational"
        self.handicap_stones: tuple[int, ...] = ()
        stones = handicap if handicap >= 2 else 0
        if stones:
            allowed = self.rules.handicap_placement
            if placement is None:
                placement = "free" if allowed == "free" else "fixed"
            if placement not in ("fixed", "free"):
                raise RulesError(f"handicap placement must be 'fixed' or 'free', not {placement!r}")
            if allowed != "either" and placement != allowed:
                raise RulesError(f"the {self.rules.name} rules place handicap stones {allowed}, not {placement}")
            if stones > self.board.npoints - 1:
                raise RulesError(f"{stones} handicap stones do not fit on a {size}x{size} board")
        elif placement not in (None, "fixed", "free"):
            raise RulesError(f"handicap placement must be 'fixed' or 'free', not {placement!r}")
        self.placement = placement if stones else None
        self._hot: _Hot = (BLACK, 0, (0, 0), None, 0)
        self._state = _State(
            phase="handicap" if stones and placement == "free" else "play",
            pass_count=(0, 0),
            dead=frozenset(),
            accepted=frozenset(),
            result=None,
            end_reason=None,
            resumed=False,
            last_passer=None,
            handicap_left=stones if placement == "free" else 0,
        )
        if stones and placement == "fixed":
            try:
                pts = fixed_handicap_points(stones, size)
            except CoordinateError as exc:
                raise RulesError(f"{exc}; use free placement") from None
            self._put_handicap(pts)
        else:
            self._record_start()

    # ------------------------------------------------------------------ state properties
    @property
    def phase(self) -> str:
        """``"handicap"``, ``"play"``, ``"scoring"`` or ``"finished"``."""
        return self._state.phase

    @property
    def to_move(self) -> int:
        """The colour whose turn it is (``BLACK`` or ``WHITE``)."""
        return self._hot[0]

    @property
    def result(self) -> str | None:
        """The SGF RE string once the game is finished (``"B+5.5"``, ``"W+R"``, ``"Void"``...), else None."""
        return self._state.result

    @property
    def end_reason(self) -> str | None:
        """Why the game finished: ``score``, ``resign``, ``timeout``, ``forfeit``, ``cycle``, ``no-result``."""
        return self._state.end_reason

    @property
    def prisoners(self) -> dict[int, int]:
        """Stones each colour captured during play (own stones lost by suicide count for the opponent)."""
        b, w = self._hot[2]
        return {BLACK: b, WHITE: w}

    @property
    def pass_count(self) -> dict[int, int]:
        """Passes each colour made (each hands a pass stone to the opponent where pass stones are used)."""
        b, w = self._state.pass_count
        return {BLACK: b, WHITE: w}

    @property
    def consecutive_passes(self) -> int:
        """Passes in a row at the end of the move list."""
        return self._hot[1]

    @property
    def ko_point(self) -> int | None:
        """The point of a single-stone ko that the player to move may not retake at once, if any."""
        return self._hot[3]

    @property
    def dead(self) -> frozenset[int]:
        """Stones marked dead (scoring phase; kept once the game is finished by agreement)."""
        return self._state.dead

    @property
    def accepted(self) -> frozenset[int]:
        """Colours that accepted the current dead-stone marking."""
        return self._state.accepted

    @property
    def events(self) -> list[Event]:
        """Every event so far, in order (a list the caller must not change)."""
        cache = self._events
        log = self._log
        if len(cache) != len(log):
            cache.extend(_as_event(e) for e in log[len(cache) :])
        return cache

    @property
    def moves(self) -> list[MoveRecord]:
        """Every move (stones and passes) in order, handicap and setup excluded (a list not to be changed)."""
        cache = self._moves
        log = self._log
        seen = self._moves_seen
        if seen < len(log):
            n = len(cache)
            for e in log[seen:]:
                if not isinstance(e, Event):
                    n += 1
                    cache.append(MoveRecord(n, e[0], e[1], e[2], e[3]))
            self._moves_seen = len(log)
        return cache

    @property
    def move_number(self) -> int:
        """Number of moves (stones and passes) played, handicap and setup excluded."""
        return self._nmoves

    @property
    def last_move(self) -> MoveRecord | None:
        """The last move played, or None."""
        moves = self.moves
        return moves[-1] if moves else None

    @property
    def handicap_left(self) -> int:
        """Handicap stones still to place in the ``handicap`` phase."""
        return self._state.handicap_left

    def _set(self, **changes: Any) -> None:
        if any(k in changes for k in _HOT_FIELDS):
            to_move, passes, prisoners, ko, since = self._hot
            self._hot = (
                changes.pop("to_move", to_move),
                changes.pop("consecutive_passes", passes),
                changes.pop("prisoners", prisoners),
                changes.pop("ko_point", ko),
                changes.pop("moves_since_resume", since),
            )
        if changes:
            self._state = self._state._replace(**changes)

    def _entry(self, rebuild: bool = False) -> _Entry:
        """An undo entry that restores the whole current state (for events other than moves)."""
        return _Entry(self._state, self._hot, rebuild=rebuild)

    # ------------------------------------------------------------------ parsing
    def _point(self, move: Move) -> int | None:
        if move is None:
            return None
        if isinstance(move, bool):
            raise IllegalMove("off-board", f"{move!r} is not a move")
        if isinstance(move, int):
            if not 0 <= move < self.board.npoints:
                raise IllegalMove("off-board", f"point {move} is off the {self.size}x{self.size} board")
            return move
        if isinstance(move, str):
            try:
                return from_gtp(move, self.size)
            except CoordinateError as exc:
                raise IllegalMove("off-board", str(exc)) from None
        raise IllegalMove("off-board", f"{move!r} is not a move (expected a vertex like 'D4' or 'pass')")

    def _color(self, color: int | str | None) -> int:
        if color is None:
            return self.to_move
        try:
            return parse_color(color)
        except ValueError as exc:
            raise GameError(str(exc), "bad-color") from None

    # ------------------------------------------------------------------ legality
    def _check_turn(self, p: int | None, color: int, allow_out_of_turn: bool) -> None:
        """Raise ``IllegalMove`` if the phase or the turn forbids ``color`` to move now (board not consulted)."""
        st = self._state
        if st.phase == "play":
            to_move = self._hot[0]
            if color != to_move and not allow_out_of_turn:
                raise IllegalMove(
                    "wrong-turn", f"it is {color_word(to_move)}'s turn, not {color_word(color)}'s", p, color
                )
            return
        if st.phase == "finished":
            raise IllegalMove("wrong-phase", f"the game is over ({st.result}): no more moves", p, color)
        if st.phase == "scoring":
            raise IllegalMove(
                "wrong-phase",
                "the game is in the dead-stone phase: accept the marking, or resume play to dispute it",
                p,
                color,
            )
        # Handicap phase: Black places stones on empty points.
        if color != BLACK:
            raise IllegalMove("wrong-turn", f"Black is placing {st.handicap_left} more handicap stone(s)", p, color)
        if p is None:
            raise IllegalMove("wrong-phase", "handicap stones must be placed before anyone passes", p, color)
        if self.board.colors[p] != EMPTY:
            raise IllegalMove(
                "occupied", f"{to_gtp(p, self.size)} is occupied: handicap stones go on empty points", p, color
            )

    def _occupied(self, p: int, color: int) -> IllegalMove:
        return IllegalMove(
            "occupied",
            f"{to_gtp(p, self.size)} is occupied: a stone may only be placed on an empty point",
            p,
            color,
        )

    def _suicide(self, p: int, color: int, single: bool) -> IllegalMove:
        gtp = to_gtp(p, self.size)
        if single:
            return IllegalMove(
                "suicide",
                f"{gtp} would be suicide: a single stone without liberties that captures nothing is forbidden "
                "under every ruleset (it would recreate the position)",
                p,
                color,
            )
        return IllegalMove(
            "suicide",
            f"{gtp} would be suicide: under the {self.rules.name} rules a play may not leave its own chain "
            "without liberties unless it captures",
            p,
            color,
        )

    def _repetition(self, p: int, color: int, h: int) -> IllegalMove | None:
        """Return the error if the board ``h`` that ``color`` creates at ``p`` repeats what the ko rule forbids."""
        to_move, _, _, ko_point, _ = self._hot
        rule = self.rules.ko
        if rule == "simple":
            repeated = p == ko_point and color == to_move
        elif rule == "positional":
            repeated = h in self._positions
        elif rule == "situational":
            repeated = (h ^ _SIDE_KEY[3 - color]) in self._situations
        else:
            repeated = (h ^ _CREATOR_KEY[color]) in self._created
        if not repeated:
            return None
        gtp = to_gtp(p, self.size)
        if p == ko_point and color == to_move:
            return IllegalMove(
                "ko",
                f"{gtp} retakes the ko at once: recapturing the single stone that just captured would repeat "
                "the previous position; play elsewhere first (ko rule)",
                p,
                color,
            )
        return IllegalMove("superko", f"{gtp} is forbidden by {_KO_WORDS[rule]} ({self.rules.name} rules)", p, color)

    def _check(self, p: int | None, color: int, allow_out_of_turn: bool) -> Analysis | None:
        """Raise ``IllegalMove`` if ``color`` may not play ``p`` now; return the board analysis of a play.
        Never changes the game."""
        self._check_turn(p, color, allow_out_of_turn)
        if p is None or self._state.phase == "handicap":
            return None
        board = self.board
        if board.colors[p] != EMPTY:
            raise self._occupied(p, color)
        an = board.analyse(p, color)
        if an.suicide and (an.suicide_size == 1 or not self.rules.multi_stone_suicide):
            raise self._suicide(p, color, an.suicide_size == 1)
        err = self._repetition(p, color, an.hash_after)
        if err is not None:
            raise err
        return an

    def legality(self, move: Move, color: int | str | None = None, *, allow_out_of_turn: bool = False) -> str | None:
        """Return None if ``move`` is legal for ``color`` (default: the player to move), else the reason code
        ``play`` would raise. Never raises for a bad move and never changes the game."""
        try:
            c = self._color(color)
            self._check(self._point(move), c, allow_out_of_turn)
        except GameError as exc:
            return exc.reason
        return None

    def legal_moves(self, color: int | str | None = None) -> list[int]:
        """Return every board point ``color`` may play now (a pass is also legal whenever play is)."""
        c = self._color(color)
        out = []
        for p in range(self.board.npoints):
            if self.board.colors[p] != EMPTY:
                continue
            try:
                self._check(p, c, True)
            except GameError:
                continue
            out.append(p)
        return out

    # ------------------------------------------------------------------ moves
    def play(self, move: Move, color: int | str | None = None, *, allow_out_of_turn: bool = False) -> MoveRecord:
        """Play ``move`` (a GTP vertex such as ``"D4"``, ``"pass"``, an int point, or None for a pass) for
        ``color`` (default: the player to move) and return its record. In the ``handicap`` phase a board point
        places one handicap stone (and returns a record numbered 0).

        Raises ``IllegalMove`` (the game is then unchanged).
        """
        st = self._state
        to_move = self._hot[0]
        if (
            type(move) is int  # noqa: E721
            and st.phase == "play"
            and (color is None or (type(color) is int and color == to_move))  # noqa: E721
            and 0 <= move < self.board.npoints
        ):
            # The common case of a replay or a game: a board point by the player to move.
            return self._board_play(move, to_move)
        p = self._point(move)
        if color is None:
            c = to_move
        elif type(color) is int and color in (BLACK, WHITE):  # noqa: E721
            c = color
        else:
            c = self._color(color)
        if st.phase != "play" or (c != to_move and not allow_out_of_turn):
            self._check_turn(p, c, allow_out_of_turn)
            if st.phase == "handicap":
                assert p is not None
                self._place_handicap_stones([p])
                return MoveRecord(0, BLACK, p)
        if p is None:
            return self._pass(c)
        return self._board_play(p, c)

    def pass_move(self, color: int | str | None = None, *, allow_out_of_turn: bool = False) -> MoveRecord:
        """Pass for ``color``; raises ``IllegalMove`` outside the play phase."""
        return self.play(None, color, allow_out_of_turn=allow_out_of_turn)

    def _board_play(self, p: int, c: int) -> MoveRecord:
        # Play first, then check suicide and repetition on the real result, and take it back if illegal:
        # one pass over the neighbours instead of an analysis followed by the play. This is the hot path of
        # every replay, so the history keys are computed inline rather than through _repetition.
        board = self.board
        try:
            rec = board.play(p, c)
        except ValueError:
            raise self._occupied(p, c) from None
        h = board.hash
        hot = self._hot
        if rec.suicide:
            single = len(rec.base.stones) == 1
            if single or not self.rules.multi_stone_suicide:
                board.undo(rec)
                raise self._suicide(p, c, single)
        ko_rule = self._ko_mode
        pos = sit = nat = None
        if ko_rule == _KO_NATURAL:
            nat = h ^ _CREATOR_KEY[c]
            repeated = nat in self._created
        elif ko_rule == _KO_POSITIONAL:
            repeated = h in self._positions
        elif ko_rule == _KO_SITUATIONAL:
            sit = h ^ _SIDE_KEY[3 - c]
            repeated = sit in self._situations
        else:
            repeated = p == hot[3] and c == hot[0]
        if repeated:
            board.undo(rec)
            err = self._repetition(p, c, h)
            assert err is not None
            raise err
        opp = 3 - c
        # A key the ko rule has just checked is new: it is set to 1 without a lookup.
        if self._track_positions:
            pos = h
            self._positions[h] = 1
        if sit is not None:
            self._situations[sit] = 1
        elif self._track_situations:
            sit = h ^ _SIDE_KEY[opp]
            self._situations[sit] = self._situations.get(sit, 0) + 1
        if nat is not None:
            self._created[nat] = 1
        self._undo.append(_new(_Entry, (self._state, hot, rec, pos, sit, nat, False)))
        caps = rec.captured_count
        lost = len(rec.base.stones) if rec.suicide else 0
        if caps or lost:
            b, w = hot[2]
            pris = (b + caps, w + lost) if c == BLACK else (b + lost, w + caps)
        else:
            pris = hot[2]
        ko = None
        if caps == 1 and len(rec.base.stones) == 1 and len(rec.base.libs) == 1:
            ko = rec.captured[0].stones[0]
        n = self._nmoves + 1
        self._nmoves = n
        self._hot = (opp, 0, pris, ko, hot[4] + 1)
        if sit is not None and self.rules.cycle_no_result and self._situations[sit] >= 3:
            self._set(phase="finished", result="Void", end_reason="cycle")
        self._log.append((c, p, caps, lost))
        return _new(MoveRecord, (n, c, p, caps, lost))

    def _pass(self, c: int) -> MoveRecord:
        st = self._state
        h = self.board.hash
        opp = opponent(c)
        pos = sit = None
        if self._track_positions:
            pos = h
            self._positions[h] = self._positions.get(h, 0) + 1
        if self._track_situations:
            sit = h ^ _SIDE_KEY[opp]
            self._situations[sit] = self._situations.get(sit, 0) + 1
        hot = self._hot
        self._undo.append(_Entry(st, hot, None, pos, sit))
        passes = list(st.pass_count)
        passes[c - 1] += 1
        n = hot[1] + 1
        since = hot[4] + 1
        self._nmoves += 1
        mr = MoveRecord(self._nmoves, c, None)
        self._log.append((c, None, 0, 0))
        self._set(
            to_move=opp,
            consecutive_passes=n,
            pass_count=(passes[0], passes[1]),
            ko_point=None,
            moves_since_resume=since,
            last_passer=c,
        )
        if n >= 2:
            if st.resumed and since == 2:
                # AGA/FFG: two passes opening a resumption end the game with every stone alive.
                self._finish_by_score(frozenset())
            elif self.rules.dead_stones == "none":
                self._finish_by_score(frozenset())
            else:
                self._set(phase="scoring", dead=frozenset(), accepted=frozenset())
        return mr

    def _finish_by_score(self, dead: frozenset[int]) -> None:
        result = self.score(dead).result
        self._set(phase="finished", dead=dead, result=result, end_reason="score")

    # ------------------------------------------------------------------ handicap and setup
    def _record_start(self) -> None:
        """Record the current board as a starting position (empty board, after handicap or setup stones).

        For natural-situational superko a starting position counts as created by the opponent of the player to
        move, as if that player had just placed a stone: the immediate recapture of a ko set up on the board is
        then forbidden, as the FFG ko diagrams show, and handicap stones count as Black's creation."""
        h = self.board.hash
        if self._track_positions:
            self._positions[h] = self._positions.get(h, 0) + 1
        if self._track_situations:
            k = h ^ _SIDE_KEY[self.to_move]
            self._situations[k] = self._situations.get(k, 0) + 1
        if self._track_created:
            k = h ^ _CREATOR_KEY[3 - self.to_move]
            self._created[k] = self._created.get(k, 0) + 1

    def _put_handicap(self, points: Sequence[int]) -> None:
        self.board.set_stones((p, BLACK) for p in points)
        self.handicap_stones = tuple(points)
        self._set(to_move=WHITE, phase="play", handicap_left=0)
        self._record_start()

    def place_handicap(self, points: Iterable[Move]) -> None:
        """Place all remaining free handicap stones at once (GTP ``set_free_handicap``).

        Raises ``GameError`` outside the handicap phase, for a wrong number of stones, duplicates or occupied points.
        """
        st = self._state
        if st.phase != "handicap":
            raise GameError("there are no handicap stones to place now", "wrong-phase")
        pts = [self._point(m) for m in points]
        if any(p is None for p in pts):
            raise GameError("a handicap stone cannot be a pass", "bad-handicap")
        clean = [p for p in pts if p is not None]
        if len(clean) != st.handicap_left:
            raise GameError(f"expected {st.handicap_left} handicap stones, got {len(clean)}", "bad-handicap")
        seen: set[int] = set()
        for p in clean:
            if p in seen:
                raise GameError(f"{to_gtp(p, self.size)} appears twice among the handicap stones", "bad-handicap")
            seen.add(p)
        for p in clean:
            if self.board.colors[p] != EMPTY:
                raise GameError(f"{to_gtp(p, self.size)} is occupied", "bad-handicap")
        self._place_handicap_stones(clean)

    def _place_handicap_stones(self, points: list[int]) -> None:
        st = self._state
        self._undo.append(self._entry(rebuild=True))
        self._log.append(Event("handicap", BLACK, points=tuple(points)))
        placed = self.handicap_stones + tuple(points)
        left = st.handicap_left - len(points)
        if left == 0:
            self._put_handicap(placed)
        else:
            self.board.set_stones((p, BLACK) for p in points)
            self.handicap_stones = placed
            self._set(handicap_left=left)

    def setup(
        self,
        black: Iterable[Move] = (),
        white: Iterable[Move] = (),
        empty: Iterable[Move] = (),
        to_move: int | str | None = None,
    ) -> None:
        """Add or remove stones without rule actions (SGF AB/AW/AE), and optionally set the player to move (PL).

        Raises ``GameError`` outside the play phase, for points off the board or listed twice, or when the
        result would leave a chain without liberties (an impossible position); the game is then unchanged.
        """
        if self.phase != "play":
            raise GameError(f"setup stones can only be added during play, not in the {self.phase} phase", "wrong-phase")
        groups: list[tuple[int, list[int]]] = []
        seen: set[int] = set()
        for col, items in ((BLACK, black), (WHITE, white), (EMPTY, empty)):
            pts: list[int] = []
            for m in items:
                p = self._point(m)
                if p is None:
                    raise GameError("a setup point cannot be a pass", "bad-setup")
                if p in seen:
                    raise GameError(f"{to_gtp(p, self.size)} is listed twice in the setup", "bad-setup")
                seen.add(p)
                pts.append(p)
            groups.append((col, pts))
        new_to_move = self.to_move if to_move is None else self._color(to_move)
        trial = self.board.copy()
        trial.set_stones((p, col) for col, pts in groups for p in pts)
        for ch in trial.chains():
            if not ch.libs:
                raise GameError(
                    f"impossible setup: the chain at {to_gtp(ch.stones[0], self.size)} would have no liberty",
                    "bad-setup",
                )
        self._undo.append(self._entry(rebuild=True))
        self._log.append(
            Event(
                "setup",
                None if to_move is None else new_to_move,
                black=tuple(groups[0][1]),
                white=tuple(groups[1][1]),
                empty=tuple(groups[2][1]),
            )
        )
        self.board.set_stones((p, col) for col, pts in groups for p in pts)
        self._set(to_move=new_to_move, ko_point=None, consecutive_passes=0)
        self._record_start()

    # ------------------------------------------------------------------ endings
    def _end(self, kind: str, color: int, result: str, reason: str, text: str = "") -> None:
        if self.phase == "finished":
            raise GameError(f"the game is already over ({self.result})", "wrong-phase")
        self._undo.append(self._entry())
        self._log.append(Event(kind, color, text=text))
        self._set(phase="finished", result=result, end_reason=reason)

    def resign(self, color: int | str | None = None) -> None:
        """``color`` (default: the player to move) resigns; the opponent wins (``"W+R"``/``"B+R"``)."""
        c = self._color(color)
        self._end("resign", c, f"{color_name(opponent(c))}+R", "resign")

    def timeout(self, color: int | str) -> None:
        """``color`` ran out of time; the opponent wins (``"W+T"``/``"B+T"``)."""
        c = self._color(color)
        self._end("timeout", c, f"{color_name(opponent(c))}+T", "timeout")

    def forfeit(self, color: int | str, reason: str = "") -> None:
        """``color`` forfeits (illegal move by an engine, crash...); the opponent wins (``"W+F"``/``"B+F"``)."""
        c = self._color(color)
        self._end("forfeit", c, f"{color_name(opponent(c))}+F", "forfeit", reason)

    def declare_no_result(self, reason: str = "") -> None:
        """End the game without result (``"Void"``)."""
        if self.phase == "finished":
            raise GameError(f"the game is already over ({self.result})", "wrong-phase")
        self._undo.append(self._entry())
        self._log.append(Event("no-result", text=reason))
        self._set(phase="finished", result="Void", end_reason="no-result")

    # ------------------------------------------------------------------ dead-stone phase
    def _need_scoring(self, action: str) -> None:
        if self.phase != "scoring":
            raise GameError(f"cannot {action}: the game is not in the dead-stone phase ({self.phase})", "wrong-phase")

    def _chain_points(self, move: Move) -> frozenset[int]:
        p = self._point(move)
        if p is None or self.board.colors[p] == EMPTY:
            where = "a pass" if p is None else to_gtp(p, self.size)
            raise GameError(f"there is no stone at {where} to mark", "no-stone")
        return frozenset(self.board.chain(p).stones)

    def toggle_dead(self, move: Move, color: int | str | None = None) -> frozenset[int]:
        """Toggle the whole chain at ``move`` between dead and alive; withdraws both acceptances.
        Returns the new marking. Raises ``GameError`` outside the scoring phase or on an empty point."""
        self._need_scoring("mark dead stones")
        chain = self._chain_points(move)
        c = None if color is None else self._color(color)
        dead = self.dead - chain if chain <= self.dead else self.dead | chain
        self._undo.append(self._entry())
        self._log.append(Event("toggle", c, min(chain)))
        self._set(dead=dead, accepted=frozenset())
        return dead

    def set_dead(self, points: Iterable[Move], color: int | str | None = None) -> frozenset[int]:
        """Replace the marking by the chains at ``points``; withdraws both acceptances. Returns the marking."""
        self._need_scoring("mark dead stones")
        dead: frozenset[int] = frozenset()
        for m in points:
            dead |= self._chain_points(m)
        c = None if color is None else self._color(color)
        self._undo.append(self._entry())
        self._log.append(Event("mark", c, points=tuple(sorted(dead))))
        self._set(dead=dead, accepted=frozenset())
        return dead

    def accept(self, color: int | str) -> None:
        """``color`` accepts the current marking; once both have, the game is finished and scored."""
        self._need_scoring("accept")
        c = self._color(color)
        self._undo.append(self._entry())
        self._log.append(Event("accept", c))
        accepted = self.accepted | {c}
        self._set(accepted=accepted)
        if accepted == {BLACK, WHITE}:
            self._finish_by_score(self.dead)

    def resume(self, color: int | str) -> None:
        """``color`` disputes the marking: play resumes (pass stones keep being given). Who moves first follows
        the ruleset (``resume_first``). Raises ``GameError`` outside the scoring phase."""
        self._need_scoring("resume play")
        c = self._color(color)
        st = self._state
        if self.rules.resume_first == "last-passer-opponent" and st.last_passer is not None:
            first = opponent(st.last_passer)
        else:
            first = opponent(c)
        self._undo.append(self._entry())
        self._log.append(Event("resume", c))
        self._set(
            phase="play",
            to_move=first,
            dead=frozenset(),
            accepted=frozenset(),
            consecutive_passes=0,
            resumed=True,
            moves_since_resume=0,
        )

    # ------------------------------------------------------------------ counting
    def score(self, dead: Iterable[Move] | None = None) -> Score:
        """Count the current position under every method. ``dead``: points of dead stones (default: the current
        marking). Raises ``GameError`` if a listed dead point holds no stone."""
        if dead is None:
            dead_set = self.dead
        else:
            pts: set[int] = set()
            for m in dead:
                p = self._point(m)
                if p is None or self.board.colors[p] == EMPTY:
                    raise GameError(f"no stone at {to_gtp(p, self.size)} to count as dead", "no-stone")
                pts.add(p)
            dead_set = frozenset(pts)
        last = self._last_mover()
        return score_position(
            self.board,
            self.rules,
            komi=self.komi,
            handicap_stones=len(self.handicap_stones),
            dead=dead_set,
            prisoners=self.prisoners,
            pass_count=self.pass_count,
            last_mover=last,
        )

    def _last_mover(self) -> int | None:
        for e in reversed(self._log):
            if not isinstance(e, Event):
                return e[0]
        return None

    # ------------------------------------------------------------------ undo, copy, replay
    def undo(self) -> Event:
        """Take back the last event exactly (move, pass, handicap or setup, marking, acceptance, resumption,
        resignation...). Returns the event taken back; raises ``GameError`` if there is none."""
        if not self._log:
            raise GameError("there is nothing to undo", "nothing-to-undo")
        entry = self._undo[-1]
        if entry.rebuild:
            events = self.events[:-1]
            fresh = self.replay(
                events,
                size=self.size,
                rules=self.rules,
                komi=self.komi,
                handicap=self.handicap,
                placement=self.placement,
            )
            removed = self.events[-1]
            self._adopt(fresh)
            return removed
        self._undo.pop()
        ev = _as_event(self._log.pop())
        del self._events[len(self._log) :]
        if ev.kind == "move":
            self._nmoves -= 1
            if self._moves_seen > len(self._log):
                self._moves_seen = len(self._log)
                self._moves.pop()
            if entry.board_undo is not None:
                self.board.undo(entry.board_undo)
            if entry.position is not None:
                _decrement(self._positions, entry.position)
            if entry.situation is not None:
                _decrement(self._situations, entry.situation)
            if entry.creation is not None:
                _decrement(self._created, entry.creation)
        self._state = entry.state
        self._hot = entry.hot
        return ev

    def _adopt(self, other: Game) -> None:
        self.board = other.board
        self._log = other._log
        self._events = other._events
        self._moves = other._moves
        self._moves_seen = other._moves_seen
        self._nmoves = other._nmoves
        self._undo = other._undo
        self._positions = other._positions
        self._situations = other._situations
        self._created = other._created
        self.handicap_stones = other.handicap_stones
        self._state = other._state
        self._hot = other._hot

    def apply(self, event: Event) -> None:
        """Apply one recorded event (as produced by this class); raises ``GameError``/``IllegalMove`` if it does
        not fit the current state (the game is then unchanged)."""
        k = event.kind
        if k == "move":
            if event.color is None:
                raise GameError("a move event needs a colour", "bad-event")
            self.play(event.point, event.color, allow_out_of_turn=True)
        elif k == "handicap":
            if self.phase != "handicap":
                raise GameError("no handicap stones to place now", "wrong-phase")
            if len(event.points) > self.handicap_left or not event.points:
                raise GameError("wrong number of handicap stones in the event", "bad-event")
            for p in event.points:
                self._check(self._point(p), BLACK, True)
            if len(set(event.points)) != len(event.points):
                raise GameError("duplicate handicap stones in the event", "bad-event")
            self._place_handicap_stones(list(event.points))
        elif k == "setup":
            self.setup(event.black, event.white, event.empty, event.color)
        elif k in ("resign", "timeout", "forfeit"):
            if event.color is None:
                raise GameError(f"a {k} event needs a colour", "bad-event")
            if k == "resign":
                self.resign(event.color)
            elif k == "timeout":
                self.timeout(event.color)
            else:
                self.forfeit(event.color, event.text)
        elif k == "no-result":
            self.declare_no_result(event.text)
        elif k == "toggle":
            self.toggle_dead(event.point, event.color)
        elif k == "mark":
            if self.phase == "scoring":
                self.set_dead(event.points, event.color)
            else:
                self._need_scoring("mark dead stones")
        elif k == "accept":
            if event.color is None:
                raise GameError("an accept event needs a colour", "bad-event")
            self.accept(event.color)
        elif k == "resume":
            if event.color is None:
                raise GameError("a resume event needs a colour", "bad-event")
            self.resume(event.color)
        else:
            raise GameError(f"unknown event kind {k!r}", "bad-event")

    @classmethod
    def replay(
        cls,
        events: Iterable[Event | dict[str, Any]],
        *,
        size: int = 19,
        rules: str | Ruleset = "french",
        komi: float | None = None,
        handicap: int = 0,
        placement: str | None = None,
    ) -> Self:
        """Return a new game of this class built from ``events`` (``Event`` objects or their dicts).
        Raises ``GameError``/``IllegalMove`` naming the first event that does not apply (with its index)."""
        game = cls(size=size, rules=rules, komi=komi, handicap=handicap, placement=placement)
        for i, ev in enumerate(events):
            event = ev if isinstance(ev, Event) else Event.from_dict(ev)
            try:
                game.apply(event)
            except IllegalMove as exc:
                raise IllegalMove(exc.reason, f"event {i} ({event.kind}): {exc}", exc.move, exc.color) from None
            except GameError as exc:
                raise GameError(f"event {i} ({event.kind}): {exc}", exc.reason) from None
        return game

    def copy(self) -> Self:
        """Return an independent copy with the same history (so undo works on it too)."""
        return self.replay(
            self.events,
            size=self.size,
            rules=self.rules,
            komi=self.komi,
            handicap=self.handicap,
            placement=self.placement,
        )

    def check_consistency(self) -> None:
        """Raise ``AssertionError`` unless the board and the recorded history agree with a recomputation."""
        self.board.check_consistency()
        h = self.board.hash
        st = self._state
        if self._track_positions:
            assert self._positions.get(h, 0) > 0, "current position missing from the history"
        if self._track_situations and st.phase == "play":
            assert self._situations.get(h ^ _SIDE_KEY[self.to_move], 0) > 0, "current situation missing"
        assert len(self._undo) == len(self._log), "undo stack out of step with the events"

    def __repr__(self) -> str:
        return (
            f"Game(size={self.size}, rules={self.rules.name!r}, komi={self.komi}, handicap={self.handicap}, "
            f"phase={self.phase!r}, moves={self._nmoves})"
        )
