"""The state machine of one game: setup, turns, passes, the end of play, dead stones, undo; ``Game`` is the
referee's one public entry point.

Every change is an ``Event`` in ``Game.events``; ``Game.replay`` rebuilds a game exactly from them (the server
stores events, and ``undo`` of a setup rebuilds that way). The move history, the legality of board plays and
repetition (ko and every superko) live in ``history``; board plays and passes are undone in constant time from
the history's records and a snapshot of the small state kept here.

Phases: ``"handicap"`` (free placement pending), ``"play"``, ``"scoring"`` (dead-stone agreement), ``"finished"``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Self, TypedDict, Unpack, cast

from keima.rules.board import BLACK, EMPTY, WHITE, Board, color_name, color_word, opponent, parse_color
from keima.rules.coords import (
    CoordinateError,
    check_size,
    fixed_handicap_points,
    from_gtp,
    handicap_order,
    to_gtp,
    vertex_table,
)
from keima.rules.errors import REASONS, GameError, IllegalMove
from keima.rules.events import Event, MoveRecord
from keima.rules.history import HOT_FIELDS, History
from keima.rules.ruleset import RulesError, Ruleset, get_ruleset
from keima.rules.scoring import Score, score_position

__all__ = ["REASONS", "Event", "Game", "GameError", "IllegalMove", "Move", "MoveRecord", "Settings"]

Move = str | int | None


class _State(NamedTuple):
    """The part of a game's state that events other than board plays change (snapshotted for undo). What every
    board play changes is the history's ``hot`` tuple."""

    phase: str
    pass_count: tuple[int, int]
    dead: frozenset[int]
    accepted: frozenset[int]
    result: str | None
    end_reason: str | None
    resumed: bool
    last_passer: int | None
    handicap_left: int


class Settings(TypedDict, total=False):
    """The settings of a game, as keywords of ``Game(...)`` and ``Game.replay`` (see ``Game`` for each)."""

    size: int
    rules: str | Ruleset
    komi: float | None
    handicap: int
    placement: str | None


_UNKNOWN = -1  # not in the vertex table: parsed the slow way, which words the error


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
        self._history = History(self.board, self.rules)
        self._vertices = vertex_table(size)
        self._npoints = self.board.npoints
        self._cycle_watch = self.rules.cycle_no_result
        self.handicap_stones: tuple[int, ...] = ()
        stones = handicap if handicap >= 2 else 0
        if stones:
            allowed = self.rules.handicap_placement
            if placement is None:
                placement = "free" if allowed == "free" else "fixed"
            if placement not in ("fixed", "free"):
                raise RulesError(f"handicap placement must be 'fixed' or 'free', not {placement!r}")
            if allowed != "either" and placement != allowed:
                raise RulesError(
                    f"the {self.rules.name} rules place handicap stones {allowed}, not {placement}"
                )
            if stones > self.board.npoints - 1:
                raise RulesError(f"{stones} handicap stones do not fit on a {size}x{size} board")
        elif placement not in (None, "fixed", "free"):
            raise RulesError(f"handicap placement must be 'fixed' or 'free', not {placement!r}")
        self.placement = placement if stones else None
        self._put(
            _State(
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
        )
        if stones and placement == "fixed":
            try:
                pts = fixed_handicap_points(stones, size)
            except CoordinateError as exc:
                raise RulesError(f"{exc}; use free placement") from None
            self._put_handicap(pts)
        else:
            self._history.record_start()

    # ------------------------------------------------------------------ state properties
    @property
    def phase(self) -> str:
        """``"handicap"``, ``"play"``, ``"scoring"`` or ``"finished"``."""
        return self._state.phase

    @property
    def to_move(self) -> int:
        """The colour whose turn it is (``BLACK`` or ``WHITE``)."""
        return self._history.hot[0]

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
        b, w = self._history.hot[2]
        return {BLACK: b, WHITE: w}

    @property
    def pass_count(self) -> dict[int, int]:
        """Passes each colour made (each hands a pass stone to the opponent where pass stones are used)."""
        b, w = self._state.pass_count
        return {BLACK: b, WHITE: w}

    @property
    def consecutive_passes(self) -> int:
        """Passes in a row at the end of the move list."""
        return self._history.hot[1]

    @property
    def ko_point(self) -> int | None:
        """The point of a single-stone ko that the player to move may not retake at once, if any."""
        return self._history.hot[3]

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
        return self._history.events()

    @property
    def moves(self) -> list[MoveRecord]:
        """Every move (stones and passes) in order, handicap and setup excluded (a list not to be changed)."""
        return self._history.moves()

    @property
    def move_number(self) -> int:
        """Number of moves (stones and passes) played, handicap and setup excluded."""
        return self._history.nmoves

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
        if any(k in changes for k in HOT_FIELDS):
            history = self._history
            to_move, passes, prisoners, ko, since = history.hot
            history.hot = (
                changes.pop("to_move", to_move),
                changes.pop("consecutive_passes", passes),
                changes.pop("prisoners", prisoners),
                changes.pop("ko_point", ko),
                changes.pop("moves_since_resume", since),
            )
        if changes:
            self._put(self._state._replace(**changes))

    def _put(self, state: _State) -> None:
        """Make ``state`` the game's state; ``_plain`` is it where a board play by the player to move needs no
        more than the history's test (the play phase, no cycle to watch), else None: one identity test on the
        hot path instead of reading the phase."""
        self._state = state
        self._plain = state if state.phase == "play" and not self._cycle_watch else None

    def _push(self, event: Event, rebuild: bool = False) -> None:
        """Record ``event`` (not a move) with what restores the whole current state."""
        self._history.push(event, self._state, rebuild)

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
            p = self._vertices.get(move, _UNKNOWN)
            if p != _UNKNOWN:
                return p
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
            to_move = self._history.hot[0]
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
            raise IllegalMove(
                "wrong-turn", f"Black is placing {st.handicap_left} more handicap stone(s)", p, color
            )
        if p is None:
            raise IllegalMove("wrong-phase", "handicap stones must be placed before anyone passes", p, color)
        if self.board.colors[p] != EMPTY:
            raise IllegalMove(
                "occupied",
                f"{to_gtp(p, self.size)} is occupied: handicap stones go on empty points",
                p,
                color,
            )

    def _check(self, p: int | None, color: int, allow_out_of_turn: bool) -> None:
        """Raise ``IllegalMove`` if ``color`` may not play ``p`` now. Never changes the game: a board play is
        judged by the history's one test of legality, played and taken back."""
        self._check_turn(p, color, allow_out_of_turn)
        if p is not None and self._state.phase != "handicap":
            self._history.play(p, color, None, commit=False)

    def legality(
        self, move: Move, color: int | str | None = None, *, allow_out_of_turn: bool = False
    ) -> str | None:
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
        out: list[int] = []
        if self._state.phase != "play":
            if self._state.phase == "handicap" and c == BLACK:
                out = [p for p, k in enumerate(self.board.colors) if k == EMPTY]
            return out
        # The phase allows every colour to play now: each empty point goes through the one legality test alone.
        test = self._history.play
        for p, k in enumerate(self.board.colors):
            if k != EMPTY:
                continue
            try:
                test(p, c, None, commit=False)
            except IllegalMove:
                continue
            out.append(p)
        return out

    # ------------------------------------------------------------------ moves
    def play(
        self, move: Move, color: int | str | None = None, *, allow_out_of_turn: bool = False
    ) -> MoveRecord:
        """Play ``move`` (a GTP vertex such as ``"D4"``, ``"pass"``, an int point, or None for a pass) for
        ``color`` (default: the player to move) and return its record. In the ``handicap`` phase a board point
        places one handicap stone (and returns a record numbered 0).

        Raises ``IllegalMove`` (the game is then unchanged).
        """
        st = self._state
        history = self._history
        p: int | None
        if type(move) is int:  # noqa: E721 (a bool is not a point)
            p = move if 0 <= move < self._npoints else self._point(move)
        elif type(move) is str:  # noqa: E721
            # The vertex table answers the usual spellings ("D4", "d4", "pass") in one look-up.
            p = self._vertices.get(move, _UNKNOWN)
            if p == _UNKNOWN:
                p = self._point(move)
        else:
            p = self._point(move)
        to_move = history.hot[0]
        if (
            p is not None
            and (color is None or (type(color) is int and color == to_move))  # noqa: E721
            and st is self._plain
        ):
            # The common case of a replay or a game: a board point by the player to move.
            return history.play(p, to_move, st)
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
        record = history.play(p, c, st)
        if self._cycle_watch and history.situation_count() >= 3:
            self._set(phase="finished", result="Void", end_reason="cycle")
        return record

    def pass_move(self, color: int | str | None = None, *, allow_out_of_turn: bool = False) -> MoveRecord:
        """Pass for ``color``; raises ``IllegalMove`` outside the play phase."""
        return self.play(None, color, allow_out_of_turn=allow_out_of_turn)

    def _pass(self, c: int) -> MoveRecord:
        st = self._state
        mr = self._history.pass_(c, st)
        passes = list(st.pass_count)
        passes[c - 1] += 1
        _, n, _, _, since = self._history.hot
        self._set(pass_count=(passes[0], passes[1]), last_passer=c)
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
    def _put_handicap(self, points: Sequence[int]) -> None:
        self.board.set_stones((p, BLACK) for p in points)
        self.handicap_stones = tuple(points)
        self._set(to_move=WHITE, phase="play", handicap_left=0)
        self._history.record_start()

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
                raise GameError(
                    f"{to_gtp(p, self.size)} appears twice among the handicap stones", "bad-handicap"
                )
            seen.add(p)
        for p in clean:
            if self.board.colors[p] != EMPTY:
                raise GameError(f"{to_gtp(p, self.size)} is occupied", "bad-handicap")
        self._place_handicap_stones(clean)

    def next_handicap_point(self) -> int | None:
        """Return where Black's next free handicap stone usually goes: the first empty point of
        ``coords.handicap_order`` for this handicap, else the first empty point; None outside the handicap phase
        (or on a full board). Never changes the game."""
        if self._state.phase != "handicap":
            return None
        colors = self.board.colors
        for p in handicap_order(max(2, self.handicap), self.size):
            if colors[p] == EMPTY:
                return p
        return next((p for p, k in enumerate(colors) if k == EMPTY), None)

    def _place_handicap_stones(self, points: list[int]) -> None:
        st = self._state
        self._push(Event("handicap", BLACK, points=tuple(points)), rebuild=True)
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
            raise GameError(
                f"setup stones can only be added during play, not in the {self.phase} phase", "wrong-phase"
            )
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
        self._push(
            Event(
                "setup",
                None if to_move is None else new_to_move,
                black=tuple(groups[0][1]),
                white=tuple(groups[1][1]),
                empty=tuple(groups[2][1]),
            ),
            rebuild=True,
        )
        self.board.set_stones((p, col) for col, pts in groups for p in pts)
        self._set(to_move=new_to_move, ko_point=None, consecutive_passes=0)
        self._history.record_start()

    # ------------------------------------------------------------------ endings
    def _end(self, kind: str, color: int, result: str, reason: str, text: str = "") -> None:
        if self.phase == "finished":
            raise GameError(f"the game is already over ({self.result})", "wrong-phase")
        self._push(Event(kind, color, text=text))
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
        self._push(Event("no-result", text=reason))
        self._set(phase="finished", result="Void", end_reason="no-result")

    # ------------------------------------------------------------------ dead-stone phase
    def _need_scoring(self, action: str) -> None:
        if self.phase != "scoring":
            raise GameError(
                f"cannot {action}: the game is not in the dead-stone phase ({self.phase})", "wrong-phase"
            )

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
        self._push(Event("toggle", c, min(chain)))
        self._set(dead=dead, accepted=frozenset())
        return dead

    def set_dead(self, points: Iterable[Move], color: int | str | None = None) -> frozenset[int]:
        """Replace the marking by the chains at ``points``; withdraws both acceptances. Returns the marking."""
        self._need_scoring("mark dead stones")
        dead: frozenset[int] = frozenset()
        for m in points:
            dead |= self._chain_points(m)
        c = None if color is None else self._color(color)
        self._push(Event("mark", c, points=tuple(sorted(dead))))
        self._set(dead=dead, accepted=frozenset())
        return dead

    def accept(self, color: int | str) -> None:
        """``color`` accepts the current marking; once both have, the game is finished and scored."""
        self._need_scoring("accept")
        c = self._color(color)
        self._push(Event("accept", c))
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
        self._push(Event("resume", c))
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
        last = self._history.last_mover()
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

    # ------------------------------------------------------------------ undo, copy, replay
    def undo(self) -> Event:
        """Take back the last event exactly (move, pass, handicap or setup, marking, acceptance, resumption,
        resignation...). Returns the event taken back; raises ``GameError`` if there is none."""
        history = self._history
        if not history.log:
            raise GameError("there is nothing to undo", "nothing-to-undo")
        if history.rebuilds_last():
            events = self.events
            fresh = self.replay(events[:-1], **self._settings())
            removed = events[-1]
            self.board = fresh.board
            self._history = fresh._history
            self.handicap_stones = fresh.handicap_stones
            self._put(fresh._state)
            return removed
        ev, state = history.pop()
        self._put(cast(_State, state))
        return ev

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
    def replay(cls, events: Iterable[Event | dict[str, Any]], **settings: Unpack[Settings]) -> Self:
        """Return a new game of this class built from ``events`` (``Event`` objects or their dicts), with the
        settings of ``Game(...)`` given by keyword (``size``, ``rules``, ``komi``, ``handicap``, ``placement``;
        the same defaults). Raises ``RulesError`` for settings ``Game`` refuses, ``GameError``/``IllegalMove``
        naming the first event that does not apply (with its index)."""
        game = cls(**settings)
        for i, ev in enumerate(events):
            event = ev if isinstance(ev, Event) else Event.from_dict(ev)
            try:
                game.apply(event)
            except IllegalMove as exc:
                raise IllegalMove(
                    exc.reason, f"event {i} ({event.kind}): {exc}", exc.move, exc.color
                ) from None
            except GameError as exc:
                raise GameError(f"event {i} ({event.kind}): {exc}", exc.reason) from None
        return game

    def copy(self) -> Self:
        """Return an independent copy with the same history (so undo works on it too)."""
        return self.replay(self.events, **self._settings())

    def _settings(self) -> Settings:
        """Return the settings this game was created with, as keywords for ``Game(...)`` or ``replay``."""
        return Settings(
            size=self.size, rules=self.rules, komi=self.komi, handicap=self.handicap, placement=self.placement
        )

    def check_consistency(self) -> None:
        """Raise ``AssertionError`` unless the board and the recorded history agree with a recomputation."""
        self.board.check_consistency()
        assert self._history.board is self.board, "the history follows another board"
        # While free handicap stones are being placed there is no position yet: it is recorded, as the starting
        # position, once the last one is down.
        self._history.check_consistency(self._state.phase == "play", self._state.phase != "handicap")

    def __repr__(self) -> str:
        return (
            f"Game(size={self.size}, rules={self.rules.name!r}, komi={self.komi}, handicap={self.handicap}, "
            f"phase={self.phase!r}, moves={self._history.nmoves})"
        )
