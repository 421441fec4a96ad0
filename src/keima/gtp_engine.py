"""keima as a GTP version 2 engine (a front end, beside the command line and the web server): a pure dispatcher
from command lines to replies.

:class:`GtpEngine` holds one :class:`keima.Game` and answers commands with :meth:`GtpEngine.handle_line`,
which never raises: a failed command gives ``? message`` (the message names the command), an unexpected
error gives ``? internal error ...``, and in every failure the game is left exactly as it was. No I/O
happens here except the files named by ``loadsgf`` / ``printsgf``; ``keima gtp`` (``keima.cli.gtp``) feeds
it standard input.

Moves are chosen by a :class:`MoveGenerator`, any object with ``genmove(game, color, seconds) -> point | None |
"resign"`` (None = pass): keima's bot from ``keima.ai.make_player`` by default, or the documented stand-in policy of
:mod:`keima.ai.standin` (``keima gtp --policy``), seated at the game by :class:`keima.seat.Seat`, which the front
ends ``keima serve`` and ``keima play`` also use: the time budget, the fallback for an illegal answer or a failure
of the bot (the policy's choice), passing and resignation are decided there, once, and carried out on the game by
:func:`keima.seat.apply_answer`. The GTP text itself (framing) is :mod:`keima.gtp.protocol`'s.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from keima.gtp.protocol import Command, GtpError, GtpSyntaxError, format_reply, parse_line
from keima.record import SgfError, SgfRecord, dump_sgf, load_record
from keima.record.rulenames import KGS_RULES
from keima.rules import coords
from keima.rules.board import BLACK, WHITE, opponent, parse_color
from keima.rules.coords import MAX_SIZE, MIN_SIZE
from keima.rules.game import Game, GameError, IllegalMove
from keima.rules.render import board_diagram
from keima.rules.ruleset import RulesError, get_ruleset
from keima.seat import Decision, Move, Seat, apply_answer, computer_for
from keima.timecontrol import MAX_CLOCK_SECONDS, MAX_CLOCK_STONES, TimeBudget
from keima.version import package_version


class MoveGenerator(Protocol):
    """What the engine needs from a move generator."""

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """Return a board point, None to pass, or ``"resign"``."""
        ...


DeadEstimator = Callable[[Game], frozenset[int]]


def default_player(level: str | int | None = None, seed: int = 0) -> MoveGenerator:
    """Return keima's bot (``keima.ai.make_player(level, seed=seed)``). Raises ``ValueError`` for a level the
    bot does not know."""
    from keima.ai import make_player  # numba loads on the bot's first move, not here

    player: MoveGenerator = make_player(level, seed=seed) if level is not None else make_player(seed=seed)
    return player


def default_dead_estimator() -> DeadEstimator:
    """Return keima's dead-stone estimator (``keima.ai.estimate_dead``)."""
    from keima.ai import estimate_dead

    return estimate_dead


@dataclass
class _Setup:
    """What ``clear_board`` keeps: the board size, the rules and the komi (None = the ruleset's default)."""

    size: int
    rules: str
    komi: float | None


#: The largest time the engine accepts, in seconds (``time_settings``, ``kgs-time_settings``, ``time_left``):
#: a year, beyond any real game; larger numbers would overflow the time budget's arithmetic.
MAX_SECONDS = MAX_CLOCK_SECONDS
#: The most stones per Canadian period or byo-yomi periods the engine accepts.
MAX_STONES = MAX_CLOCK_STONES
#: The largest komi, either way: a margin above any count on the largest board (25x25 = 625 points).
MAX_KOMI = 1000.0
#: The largest move number ``loadsgf`` accepts.
MAX_MOVE_NUMBER = 1_000_000

_INT_RE = re.compile(r"[+-]?\d+", re.ASCII)
_FLOAT_RE = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def _int_arg(command: str, value: str, what: str, low: int, high: int) -> int:
    """``value`` as an integer of ``low..high``; raises GtpSyntaxError naming the command and the bounds."""
    if not _INT_RE.fullmatch(value):
        raise GtpSyntaxError(f"{command}: {what} must be an integer, got {value[:20]!r}")
    digits = value.lstrip("+-").lstrip("0")
    if len(digits) > len(str(max(abs(low), abs(high)))):  # too long to compare, or to convert at all
        raise GtpSyntaxError(f"{command}: {what} must be {low} to {high}, got {value[:20]}...")
    number = int(value)
    if not low <= number <= high:
        raise GtpSyntaxError(f"{command}: {what} must be {low} to {high}, got {number}")
    return number


def _float_arg(command: str, value: str, what: str, low: float, high: float) -> float:
    """``value`` as a finite number of ``low..high``; raises GtpSyntaxError naming the command and the bounds."""
    if not _FLOAT_RE.fullmatch(value):
        raise GtpSyntaxError(f"{command}: {what} must be a number, got {value[:20]!r}")
    number = float(value)  # digits only: at worst inf, never an error
    if not low <= number <= high:
        raise GtpSyntaxError(f"{command}: {what} must be {low:g} to {high:g}, got {value[:20]}")
    return number


class GtpEngine:
    """A GTP 2 engine around one :class:`keima.Game`.

    ``player`` chooses moves (default: :func:`default_player`); ``dead_estimator`` marks dead stones for
    ``final_score`` / ``final_status_list`` (default: :func:`default_dead_estimator`); ``seconds`` is the
    thinking time per move when no time settings were given, ``max_seconds`` its upper bound.
    Raises :class:`keima.RulesError` for a bad ``rules``/``komi``/``size`` at construction.
    """

    def __init__(
        self,
        player: MoveGenerator | None = None,
        *,
        size: int = 19,
        rules: str = "french",
        komi: float | None = None,
        seconds: float = 1.0,
        max_seconds: float = 60.0,
        dead_estimator: DeadEstimator | None = None,
        seed: int = 0,
        name: str = "keima",
    ) -> None:
        self.player: MoveGenerator = player if player is not None else default_player(seed=seed)
        self.dead_estimator = dead_estimator if dead_estimator is not None else default_dead_estimator()
        self.seat = Seat(computer_for(self.player, dead_estimator), seed=seed)
        self.seconds = seconds
        self.max_seconds = max_seconds
        self.name = name
        self.setup = _Setup(size, get_ruleset(rules).name, komi)
        self.game = self._fresh_game()
        #: The record ``loadsgf`` read, so that ``printsgf`` writes its game back over the same tree.
        self.record: SgfRecord | None = None
        self.clock = TimeBudget()
        self.commands: dict[str, Callable[[tuple[str, ...]], str]] = {
            "protocol_version": self.cmd_protocol_version,
            "name": self.cmd_name,
            "version": self.cmd_version,
            "known_command": self.cmd_known_command,
            "list_commands": self.cmd_list_commands,
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "kgs-genmove_cleanup": self.cmd_genmove_cleanup,
            "undo": self.cmd_undo,
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "showboard": self.cmd_showboard,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "kgs-time_settings": self.cmd_kgs_time_settings,
            "kgs-rules": self.cmd_kgs_rules,
            "kgs-game_over": self.cmd_kgs_game_over,
            "keima-set-rules": self.cmd_set_rules,
            "keima-get-rules": self.cmd_get_rules,
            "loadsgf": self.cmd_loadsgf,
            "printsgf": self.cmd_printsgf,
        }

    # ----------------------------------------------------------------- dispatch

    def handle_line(self, line: str) -> tuple[str | None, bool]:
        """Answer one input line.

        Returns ``(reply, quit)``: ``reply`` is the complete reply text (ending with the blank line) or None
        for a line GTP ignores (empty or comment only); ``quit`` is True after a successful ``quit``.
        Never raises.
        """
        try:
            command = parse_line(line)
        except Exception as exc:  # parsing is total, but a reply must come back whatever happens
            return format_reply(None, False, f"internal error: {type(exc).__name__}: {exc}"), False
        if command is None:
            return None, False
        return self.handle(command)

    def handle(self, command: Command) -> tuple[str, bool]:
        """Run one parsed command; returns ``(reply, quit)`` like :meth:`handle_line`. Never raises."""
        if not command.name:
            return format_reply(command.id, False, "missing command name after the id"), False
        handler = self.commands.get(command.name)
        if handler is None:
            return format_reply(command.id, False, f"unknown command: {command.name[:60]}"), False
        try:
            text = handler(command.args)
        except GtpError as exc:
            return format_reply(command.id, False, str(exc)), False
        except Exception as exc:  # the engine must keep running; the game was not changed (see module doc)
            return format_reply(command.id, False, f"internal error in {command.name}: {type(exc).__name__}: {exc}"), False
        return format_reply(command.id, True, text), command.name == "quit"

    def run_script(self, text: str) -> str:
        """Answer every line of ``text`` in order and return the concatenated replies (stops at ``quit``)."""
        out: list[str] = []
        for line in text.splitlines():
            reply, quit_ = self.handle_line(line)
            if reply is not None:
                out.append(reply)
            if quit_:
                break
        return "".join(out)

    # ----------------------------------------------------------------- helpers

    def _fresh_game(self, handicap: int = 0, placement: str | None = None) -> Game:
        return Game(size=self.setup.size, rules=self.setup.rules, komi=self.setup.komi,
                    handicap=handicap, placement=placement)

    def _rebuilt(self, command: str, rules: str, komi: float | None) -> Game:
        """The current game replayed under other rules or komi; raises GtpError if it does not replay."""
        g = self.game
        try:
            return Game.replay(list(g.events), size=g.size, rules=rules,
                               komi=komi if komi is not None else (g.komi if self.setup.komi is not None else None),
                               handicap=g.handicap, placement=g.placement)
        except (RulesError, GameError, IllegalMove) as exc:
            raise GtpError(f"{command}: the game so far cannot be replayed with this change: {exc}") from None

    @staticmethod
    def _expect(name: str, args: tuple[str, ...], count: int, usage: str) -> None:
        if len(args) != count:
            plural = "argument" if count == 1 else "arguments"
            raise GtpSyntaxError(f"{name}: expected {count} {plural} ({usage}), got {len(args)}")

    @staticmethod
    def _color(name: str, value: str) -> int:
        try:
            return parse_color(value)
        except ValueError:
            raise GtpSyntaxError(f"{name}: invalid color {value[:20]!r} (black, white, b or w)") from None

    def _vertex(self, name: str, value: str) -> int | None:
        try:
            return coords.from_gtp(value, self.game.size)
        except ValueError:
            raise GtpSyntaxError(f"{name}: invalid coordinate {value[:20]!r} on a {self.game.size}x{self.game.size} board") from None

    def _vertex_text(self, move: int | None) -> str:
        return "pass" if move is None else coords.to_gtp(move, self.game.size)

    def _board_empty(self) -> bool:
        return not self.game.moves and not self.game.handicap_stones

    # ----------------------------------------------------------------- administrative

    def cmd_protocol_version(self, args: tuple[str, ...]) -> str:
        return "2"

    def cmd_name(self, args: tuple[str, ...]) -> str:
        return self.name

    def cmd_version(self, args: tuple[str, ...]) -> str:
        return package_version()

    def cmd_known_command(self, args: tuple[str, ...]) -> str:
        self._expect("known_command", args, 1, "command name")
        return "true" if args[0].lower() in self.commands else "false"

    def cmd_list_commands(self, args: tuple[str, ...]) -> str:
        return "\n".join(sorted(self.commands))

    def cmd_quit(self, args: tuple[str, ...]) -> str:
        return ""

    # ----------------------------------------------------------------- setup

    def cmd_boardsize(self, args: tuple[str, ...]) -> str:
        self._expect("boardsize", args, 1, "size")
        if not _INT_RE.fullmatch(args[0]):
            raise GtpSyntaxError(f"boardsize not an integer: {args[0][:20]!r}")
        size = int(args[0]) if len(args[0].lstrip("+-").lstrip("0")) <= 6 else MAX_SIZE + 1
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError(f"unacceptable size {args[0][:20]} (boardsize takes {MIN_SIZE} to {MAX_SIZE})")
        self.setup.size = size
        self.game = self._fresh_game()
        return ""

    def cmd_clear_board(self, args: tuple[str, ...]) -> str:
        self.game = self._fresh_game()
        return ""

    def cmd_komi(self, args: tuple[str, ...]) -> str:
        self._expect("komi", args, 1, "komi")
        komi = _float_arg("komi", args[0], "komi", -MAX_KOMI, MAX_KOMI)
        game = self._rebuilt("komi", self.setup.rules, komi)
        self.setup.komi = komi
        self.game = game
        return ""

    def cmd_set_rules(self, args: tuple[str, ...]) -> str:
        self._expect("keima-set-rules", args, 1, "ruleset name")
        self._change_rules("keima-set-rules", args[0])
        return ""

    def cmd_kgs_rules(self, args: tuple[str, ...]) -> str:
        self._expect("kgs-rules", args, 1, "chinese, aga, japanese or new_zealand")
        preset = KGS_RULES.get(args[0].lower())
        if preset is None:
            raise GtpSyntaxError(f"kgs-rules: unknown rules {args[0][:30]!r} (chinese, aga, japanese or new_zealand)")
        self._change_rules("kgs-rules", preset)
        return ""

    def _change_rules(self, command: str, name: str) -> None:
        try:
            ruleset = get_ruleset(name)
        except RulesError as exc:
            raise GtpError(f"{command}: {exc}") from None
        game = self._rebuilt(command, ruleset.name, self.setup.komi)
        self.setup.rules = ruleset.name
        self.game = game

    def cmd_get_rules(self, args: tuple[str, ...]) -> str:
        return str(self.game.rules.name)

    # ----------------------------------------------------------------- play

    def cmd_play(self, args: tuple[str, ...]) -> str:
        self._expect("play", args, 2, "color vertex")
        color = self._color("play", args[0])
        move = self._vertex("play", args[1])
        game = self.game
        if game.phase == "scoring":
            # The controller plays on after the two passes: that is a resumption of play (a dispute).
            game = game.copy()
            try:
                game.resume(opponent(color))
            except GameError:
                raise GtpError("illegal move") from None
        try:
            game.play(move, color, allow_out_of_turn=True)
        except IllegalMove:
            raise GtpError("illegal move") from None
        self.game = game
        return ""

    def _think(self, color: int) -> tuple[Game, Decision | None]:
        """Ask the seat for ``color``'s decision; returns the game it applies to and the decision (None when
        there is nothing to decide: a finished game, or a scoring phase play cannot resume from).

        The game returned is ``self.game``, or a resumed copy of it when play had stopped after two passes.
        """
        game = self.game
        if game.phase == "finished":
            return game, None
        if game.phase == "handicap":
            raise GtpError("genmove: the free handicap stones are not placed yet")
        if game.phase == "scoring":
            game = game.copy()
            try:
                game.resume(opponent(color))
            except GameError:
                return self.game, None
        seconds = Seat.think_time(game, color, self.clock, self.seconds, self.max_seconds)
        decision = self.seat.move(game, color, seconds)
        if decision.note:
            print(f"keima: {decision.note}", file=sys.stderr)
        if decision.action == "forfeit":
            # GTP has no forfeit: the engine's own failure reads as a resignation.
            decision = Decision("resign", note=decision.note)
        return game, decision

    @staticmethod
    def _reply(decision: Decision | None, size: int) -> str:
        if decision is None or decision.action == "pass":
            return "pass"
        if decision.action == "play" and decision.point is not None:
            return coords.to_gtp(decision.point, size)
        return "resign"

    def _genmove(self, args: tuple[str, ...], name: str) -> str:
        self._expect(name, args, 1, "color")
        color = self._color(name, args[0])
        game, decision = self._think(color)
        if decision is None or game.phase != "play":
            # A finished game stays over: the engine answers without changing anything.
            return self._reply(decision, game.size)
        if game is not self.game and decision.action == "pass":
            # Passing again right after the end of play: keep the game as it stood (no resumption).
            return "pass"
        apply_answer(game, color, decision, out_of_turn=True)
        self.game = game
        return self._reply(decision, game.size)

    def cmd_genmove(self, args: tuple[str, ...]) -> str:
        return self._genmove(args, "genmove")

    def cmd_genmove_cleanup(self, args: tuple[str, ...]) -> str:
        return self._genmove(args, "kgs-genmove_cleanup")

    def cmd_reg_genmove(self, args: tuple[str, ...]) -> str:
        self._expect("reg_genmove", args, 1, "color")
        color = self._color("reg_genmove", args[0])
        game, decision = self._think(color)
        return self._reply(decision, game.size)

    def cmd_undo(self, args: tuple[str, ...]) -> str:
        if not self.game.moves:
            raise GtpError("cannot undo")
        game = self.game.copy()
        count = len(game.moves)
        try:
            while len(game.moves) >= count:
                game.undo()
        except GameError:
            raise GtpError("cannot undo") from None
        self.game = game
        return ""

    # ----------------------------------------------------------------- handicap

    def _handicap_count(self, name: str, args: tuple[str, ...]) -> int:
        self._expect(name, args, 1, "number of stones")
        if not _INT_RE.fullmatch(args[0]):
            raise GtpSyntaxError(f"{name}: the number of stones must be an integer, got {args[0][:20]!r}")
        count = int(args[0]) if len(args[0].lstrip("+-").lstrip("0")) <= 6 else 10
        if not 2 <= count <= 9:
            raise GtpError(f"invalid number of stones {args[0][:20]} ({name} takes 2 to 9)")
        if not self._board_empty():
            raise GtpError(f"board not empty ({name} needs a cleared board)")
        return count

    def _fixed_points(self, count: int) -> tuple[int, ...]:
        try:
            return coords.fixed_handicap_points(count, self.setup.size)
        except ValueError as exc:
            raise GtpError(f"invalid number of stones: {exc}") from None

    def _handicap_game(self, points: tuple[int, ...], preferred: str) -> Game:
        # Rulesets differ in the placements they allow; the position is the same either way.
        errors = []
        for placement in (preferred, "free" if preferred == "fixed" else "fixed"):
            try:
                game = self._fresh_game(handicap=len(points), placement=placement)
                if game.phase == "handicap":
                    game.place_handicap(list(points))
                if set(game.handicap_stones) == set(points):
                    return game
                errors.append(f"{placement} placement puts the stones elsewhere")
            except (RulesError, GameError, IllegalMove) as exc:
                errors.append(str(exc))
        raise GtpError("; ".join(errors))

    def cmd_fixed_handicap(self, args: tuple[str, ...]) -> str:
        count = self._handicap_count("fixed_handicap", args)
        points = self._fixed_points(count)
        self.game = self._handicap_game(points, "fixed")
        return " ".join(self._vertex_text(p) for p in points)

    def cmd_place_free_handicap(self, args: tuple[str, ...]) -> str:
        count = self._handicap_count("place_free_handicap", args)
        points = self._fixed_points(count)
        self.game = self._handicap_game(points, "free")
        return " ".join(self._vertex_text(p) for p in points)

    def cmd_set_free_handicap(self, args: tuple[str, ...]) -> str:
        if not 2 <= len(args) <= 9:
            raise GtpError(f"bad vertex list: set_free_handicap takes 2 to 9 vertices, got {len(args)}")
        if not self._board_empty():
            raise GtpError("board not empty (set_free_handicap needs a cleared board)")
        points: list[int] = []
        for text in args:
            p = self._vertex("set_free_handicap", text)
            if p is None or p in points:
                raise GtpError(f"bad vertex list: {text!r} is a pass or a repeated vertex")
            points.append(p)
        try:
            self.game = self._handicap_game(tuple(points), "free")
        except GtpError as exc:
            raise GtpError(f"bad vertex list: {exc}") from None
        return ""

    # ----------------------------------------------------------------- scoring

    def _dead(self) -> frozenset[int]:
        if self.game.phase == "finished" and self.game.dead:
            return frozenset(self.game.dead)
        return frozenset(self.dead_estimator(self.game.copy()))

    def cmd_final_score(self, args: tuple[str, ...]) -> str:
        try:
            return str(self.game.score(dead=self._dead()).result)
        except (GameError, RulesError, ValueError) as exc:
            raise GtpError(f"cannot score: {exc}") from None

    def cmd_final_status_list(self, args: tuple[str, ...]) -> str:
        self._expect("final_status_list", args, 1, "alive, dead or seki")
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpSyntaxError(f"final_status_list: unknown status {args[0][:20]!r} (alive, dead or seki)")
        dead = self._dead()
        seki = frozenset(self.game.score(dead=dead).seki)
        lines = []
        for chain in self.game.board.chains():
            stones = sorted(chain.stones)
            first = stones[0]
            state = "dead" if first in dead else "seki" if first in seki else "alive"
            if state == status:
                lines.append(" ".join(self._vertex_text(p) for p in sorted(stones)))
        return "\n".join(lines)

    # ----------------------------------------------------------------- display and records

    def cmd_showboard(self, args: tuple[str, ...]) -> str:
        game = self.game
        notes = [
            f"WHITE (O) has captured {game.prisoners.get(WHITE, 0)} stones",
            f"BLACK (X) has captured {game.prisoners.get(BLACK, 0)} stones",
            f"komi {game.komi:g}, rules {game.rules.name}, {'black' if game.to_move == BLACK else 'white'} to move",
        ]
        return "\n" + board_diagram(game.board, notes=notes)

    def cmd_loadsgf(self, args: tuple[str, ...]) -> str:
        if len(args) not in (1, 2):
            raise GtpSyntaxError(f"loadsgf: expected 1 or 2 arguments (file [move_number]), got {len(args)}")
        limit = _int_arg("loadsgf", args[1], "the move number", 1, MAX_MOVE_NUMBER) if len(args) == 2 else None
        try:
            # A Path: keima.record reads at most DEFAULT_MAX_BYTES of it and honours its own CA[] charset.
            record = load_record(Path(args[0]))
            game = record.game
            if limit is not None:
                while len(game.moves) > limit - 1:
                    game.undo()
        except (SgfError, GameError) as exc:  # reported; the current game is kept
            message = exc.message if isinstance(exc, SgfError) and exc.line is None else str(exc)
            message = message.removeprefix("cannot read the file: ")
            raise GtpError(f"cannot load file {args[0][:200]!r}: {message}") from None
        self.game = game
        self.record = record
        self.setup = _Setup(game.size, str(game.rules.name), float(game.komi))
        return ""

    def cmd_printsgf(self, args: tuple[str, ...]) -> str:
        if len(args) > 1:
            raise GtpSyntaxError(f"printsgf: expected 0 or 1 argument (file), got {len(args)}")
        # The loaded record while its game is still the one in play (moves change it in place; undo and rule
        # changes make a new game, written as a new record).
        record = self.record
        text = dump_sgf(record if record is not None and record.game is self.game else self.game)
        if args:
            try:
                with open(args[0], "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                raise GtpError(f"printsgf: cannot write {args[0]!r}: {exc.strerror or exc}") from None
            return ""
        return text

    # ----------------------------------------------------------------- time

    def cmd_time_settings(self, args: tuple[str, ...]) -> str:
        self._expect("time_settings", args, 3, "main_time byo_yomi_time byo_yomi_stones")
        main = _float_arg("time_settings", args[0], "main time", 0, MAX_SECONDS)
        period = _float_arg("time_settings", args[1], "byo-yomi time", 0, MAX_SECONDS)
        stones = _int_arg("time_settings", args[2], "byo-yomi stones", 0, MAX_STONES)
        self.clock.set_canadian(main, period, stones)
        return ""

    def cmd_kgs_time_settings(self, args: tuple[str, ...]) -> str:
        name = "kgs-time_settings"
        if not args:
            raise GtpSyntaxError(f"{name}: expected a system (none, absolute, byoyomi or canadian)")
        kind = args[0].lower()
        counts = {"none": 1, "absolute": 2, "byoyomi": 4, "canadian": 4}
        if kind not in counts:
            raise GtpSyntaxError(f"{name}: unknown time system {args[0][:20]!r} (none, absolute, byoyomi or canadian)")
        if len(args) != counts[kind]:
            raise GtpSyntaxError(f"{name}: {kind} takes {counts[kind] - 1} values, got {len(args) - 1}")
        main = _float_arg(name, args[1], "main time", 0, MAX_SECONDS) if len(args) > 1 else 0.0
        period = _float_arg(name, args[2], "period time", 0, MAX_SECONDS) if len(args) > 2 else 0.0
        stones = _int_arg(name, args[3], "periods or stones", 0, MAX_STONES) if len(args) > 3 else 0
        self.clock.set_kgs(kind, main, period, stones)  # type: ignore[arg-type]
        return ""

    def cmd_time_left(self, args: tuple[str, ...]) -> str:
        self._expect("time_left", args, 3, "color time stones")
        color = self._color("time_left", args[0])
        # A controller may report a little less than nothing once the time is spent: read as no time left.
        seconds = max(0.0, _float_arg("time_left", args[1], "time", -MAX_SECONDS, MAX_SECONDS))
        stones = _int_arg("time_left", args[2], "stones", 0, MAX_STONES)
        self.clock.left[color] = (seconds, stones)
        return ""

    def cmd_kgs_game_over(self, args: tuple[str, ...]) -> str:
        return ""

