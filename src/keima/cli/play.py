"""``keima play``: a full game in the terminal, against another person at the same keyboard or keima's bot.

Commands are read from standard input one line at a time, so a game can be scripted (tests do that):
a vertex such as ``D4``, ``pass``, ``undo``, ``resign``, ``quit``, ``help``; in the dead-stone phase ``dead D4``
(toggles the whole chain), ``estimate`` (keima's proposal), ``accept``, ``resume``, ``undo``. Colour is used
only when standard output is a terminal (or with ``--color``). The record is saved as SGF when the game ends,
when the player quits, and when the input ends.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from keima.cli import Subparsers, UsageError, add_command, add_game_options, check_game_options, number_text
from keima.rules.board import BLACK, EMPTY, WHITE, color_word, opponent
from keima.rules.coords import CoordinateError, from_gtp, to_gtp
from keima.rules.game import Game, GameError, IllegalMove
from keima.rules.render import board_diagram
from keima.rules.ruleset import RulesError

if TYPE_CHECKING:
    from keima.seat import Seat

HELP_PLAY = "commands: a vertex (D4), pass, undo, resign, quit, help"
HELP_SCORING = "dead-stone phase: dead D4 (toggle a chain), estimate, accept, resume, undo, quit, help"

# ANSI styles: a wooden board, black and white stones, the last move underlined.
_BOARD_BG = "\x1b[43m"
_STYLE = {
    "X": "\x1b[30;1m",
    "O": "\x1b[97;1m",
    "x": "\x1b[30;2m",
    "o": "\x1b[37;2m",
    "b": "\x1b[30m",
    "w": "\x1b[97m",
    "+": "\x1b[30m",
    ".": "\x1b[30m",
}
_RESET = "\x1b[0m"


def register(subparsers: Subparsers) -> None:
    """Add the ``play`` sub-command."""
    p = add_command(
        subparsers,
        "play",
        "play a game in the terminal (against a person or keima's bot)",
        "Play a full game in the terminal: moves as GTP vertices (D4), pass, undo, resign; after two passes "
        "mark dead stones (dead D4), accept or resume; the final count is shown under every method and "
        "the game is saved as SGF. Moves are read line by line from standard input.",
        run,
    )
    add_game_options(p)
    p.add_argument("--handicap", type=int, default=0, help="handicap stones, 0..9 (default 0)")
    p.add_argument("--placement", choices=("fixed", "free"), default=None, help="handicap placement")
    p.add_argument("--vs", choices=("human", "bot"), default="human", help="opponent (default human)")
    p.add_argument("--human", default="black", help="with --vs bot, the colour you play (default black)")
    p.add_argument("--level", default="intermediate",
                   help="bot level: beginner, intermediate, strong, or a ranked level: 25k, 20k, 15k, 12k")
    p.add_argument("--seconds", type=float, default=2.0, help="bot thinking time per move (default 2)")
    p.add_argument(
        "--sgf", default=None, metavar="PATH", help="where to save the record (default keima-DATE.sgf)"
    )
    p.add_argument("--black-name", default=None, help="Black's name in the record")
    p.add_argument("--white-name", default=None, help="White's name in the record")
    color = p.add_mutually_exclusive_group()
    color.add_argument(
        "--color", action="store_true", default=None, help="colour the board even without a TTY"
    )
    color.add_argument("--no-color", action="store_false", dest="color", help="never colour the board")
    p.add_argument(
        "--no-estimate", action="store_true", help="start the dead-stone phase with nothing marked"
    )


def terminal_board(game: Game, color: bool = False, show_score: bool = False) -> str:
    """Return the board as ``keima.rules.render.board_diagram`` draws it, the last move in brackets; in the
    dead-stone phase (``show_score``) dead stones as ``x``/``o`` and territory as ``b``/``w``; ``color``: with
    ANSI colours (a wooden board, black and white stones)."""
    marks: dict[int, str] = {}
    if show_score:
        for color_, mark in ((BLACK, "b"), (WHITE, "w")):
            marks.update(dict.fromkeys(game.score().territory.get(color_, frozenset()), mark))
        for p in game.dead:
            stone = game.board.get(p)
            if stone != EMPTY:
                marks[p] = "x" if stone == BLACK else "o"
    last = game.last_move.point if game.last_move is not None else None
    if not color:
        return board_diagram(game.board, marks=marks, last=last)
    return board_diagram(
        game.board,
        marks=marks,
        last=last,
        paint_cell=lambda text: _STYLE.get(text, "") + _BOARD_BG + text + _RESET + _BOARD_BG,
        paint_row=lambda body: _BOARD_BG + body + _RESET,
    )


def score_table(game: Game) -> str:
    """Return the count of the current position under every method, the ruleset's own first."""
    score = game.score()
    lines = [f"Count under the {game.rules.name} rules ({score.method} counting): {score.result}"]
    for name, m in score.methods.items():
        b, w = m.breakdown[BLACK], m.breakdown[WHITE]
        lines.append(
            f"  {name:<12} {m.result:>8}   Black {number_text(m.black)} (stones {b.stones}, territory {b.territory}, "
            f"prisoners {b.captures + b.dead + b.pass_stones + b.extra_pass_stone})   "
            f"White {number_text(m.white)} (stones {w.stones}, territory {w.territory}, "
            f"prisoners {w.captures + w.dead + w.pass_stones + w.extra_pass_stone}, komi {number_text(w.komi)}"
            + (f", handicap bonus {w.handicap_bonus}" if w.handicap_bonus else "")
            + ")"
        )
    return "\n".join(lines)


@dataclass
class TerminalGame:
    """One game driven by lines of text. ``color``: paint the board with ANSI colours; ``bot``: the computer's
    seat (``keima.seat.Seat``) and its colour, or None; ``seconds``: its thinking time; ``estimate``: the dead-stone estimator, or
    None; ``echo``: repeat each input line (a script's commands then show in the transcript)."""

    game: Game
    out: IO[str]
    color: bool
    bot: tuple[Seat, int] | None
    seconds: float
    estimate: Callable[[Game], frozenset[int]] | None
    quit: bool = False
    echo: bool = False

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.say(terminal_board(self.game, self.color, show_score=self.game.phase == "scoring"))
        g = self.game
        self.say(
            f"Move {g.move_number}   prisoners: Black {g.prisoners[BLACK]}, White {g.prisoners[WHITE]}"
            f"   komi {number_text(g.komi)}   {g.rules.name} rules"
        )

    def human_turn(self) -> bool:
        """True when the next input line is for a person (not the bot)."""
        g = self.game
        if self.bot is None:
            return True
        if g.phase in ("play", "handicap"):
            return g.to_move != self.bot[1]
        return True

    def prompt(self) -> str:
        g = self.game
        if g.phase == "handicap":
            return f"Black places handicap stone ({g.handicap_left} left): "
        if g.phase == "scoring":
            return f"[dead stones] {self.scoring_turn_word()}: "
        return f"{color_word(g.to_move)} to play: "

    def scoring_turn(self) -> int:
        """The colour whose acceptance is awaited (Black first), skipping the bot."""
        g = self.game
        for c in (BLACK, WHITE):
            if c not in g.accepted and (self.bot is None or c != self.bot[1]):
                return c
        return BLACK

    def scoring_turn_word(self) -> str:
        return color_word(self.scoring_turn())

    # ------------------------------------------------------------------ transitions
    def after_change(self) -> None:
        g = self.game
        if g.phase == "scoring" and not g.dead and not g.accepted and self.estimate is not None:
            proposal = self.estimate(g)
            if proposal:
                g.set_dead(sorted(proposal))
                self.say("keima's estimate of the dead stones is marked; change it with 'dead D4'.")
        self.show()
        if g.phase == "scoring":
            self.say(
                "Play has stopped: mark the dead stones, then both players accept (or resume to dispute)."
            )
            self.say(score_table(g))
            self.bot_scoring()

    def bot_scoring(self) -> None:
        if self.bot is None or self.game.phase != "scoring":
            return
        seat, bot_color = self.bot
        g = self.game
        if bot_color in g.accepted:
            return
        from keima.seat import apply_answer

        review = seat.review(g)
        apply_answer(g, bot_color, review)
        if review.accept:
            self.say(f"keima ({color_word(bot_color)}) accepts this marking.")
            if g.phase == "finished":
                return
        else:
            self.say(f"{review.message or 'keima disagrees with this marking'}.")
            self.say(f"keima ({color_word(bot_color)}) resumes play, {color_word(g.to_move)} to play.")
            self.show()

    def bot_move(self) -> None:
        assert self.bot is not None
        seat, bot_color = self.bot
        g = self.game
        from keima.seat import apply_answer

        decision = seat.move(g, bot_color, self.seconds)
        apply_answer(g, bot_color, decision)  # the seat's moves are legal for the referee
        if decision.action == "resign":
            self.say(f"keima ({color_word(bot_color)}) resigns.")
            return
        if decision.action == "forfeit":
            self.say(f"keima ({color_word(bot_color)}) forfeits: {decision.note}.")
            return
        record = g.moves[-1]
        where = "passes" if record.is_pass else f"plays {to_gtp(record.point, g.size)}"
        self.say(f"keima ({color_word(bot_color)}) {where}.")
        self.report_captures(record.captures, bot_color)
        self.after_change()

    def report_captures(self, count: int, color: int) -> None:
        if count:
            self.say(f"{color_word(color)} captures {count} stone{'s' if count > 1 else ''}.")

    # ------------------------------------------------------------------ commands
    def command(self, line: str) -> None:
        """Carry out one line of input."""
        words = line.strip().split()
        if not words:
            return
        cmd = words[0].lower()
        g = self.game
        if cmd in ("help", "?"):
            self.say(HELP_SCORING if g.phase == "scoring" else HELP_PLAY)
            return
        if cmd in ("quit", "exit"):
            self.quit = True
            return
        if cmd == "undo":
            self.undo()
            return
        if g.phase == "scoring":
            self.scoring_command(cmd, words[1:])
            return
        if cmd == "resign":
            loser = g.to_move if self.bot is None else opponent(self.bot[1])
            g.resign(loser)
            self.say(f"{color_word(loser)} resigns.")
            return
        if cmd in ("dead", "accept", "resume", "estimate"):
            self.say(f"'{cmd}' is for the dead-stone phase, after two passes. {HELP_PLAY}")
            return
        try:
            point = from_gtp(words[0], g.size)
        except CoordinateError as exc:
            self.say(f"Not understood: {exc}. {HELP_PLAY}")
            return
        color = g.to_move
        try:
            record = g.play(point, color)
        except IllegalMove as exc:
            self.say(f"Refused ({exc.reason}): {exc}")
            return
        if g.phase != "handicap" and record.number:
            self.report_captures(record.captures, color)
        self.after_change()

    def scoring_command(self, cmd: str, rest: list[str]) -> None:
        g = self.game
        turn = self.scoring_turn()
        if cmd == "dead":
            if not rest:
                self.say("Usage: dead D4 (toggles the whole chain at D4)")
                return
            for vertex in rest:
                try:
                    point = from_gtp(vertex, g.size)
                    if point is None:
                        raise CoordinateError("a pass is not a stone")
                    g.toggle_dead(point, turn)
                except (CoordinateError, GameError) as exc:
                    self.say(f"Refused: {exc}")
                    return
            self.show()
            self.say(score_table(g))
            self.bot_scoring()
        elif cmd == "estimate":
            if self.estimate is None:
                self.say("No dead-stone estimator in this keima.")
                return
            g.set_dead(sorted(self.estimate(g)), turn)
            self.show()
            self.say(score_table(g))
            self.bot_scoring()
        elif cmd == "accept":
            g.accept(turn)
            self.say(f"{color_word(turn)} accepts.")
            if g.phase != "finished":
                self.bot_scoring()
        elif cmd == "resume":
            g.resume(turn)
            self.say(
                f"{color_word(turn)} disputes the marking: play resumes, {color_word(g.to_move)} to play."
            )
            self.show()
        elif cmd in ("pass", "resign") or cmd[:1].isalpha():
            self.say(f"The game is in the dead-stone phase. {HELP_SCORING}")
        else:
            self.say(f"Not understood. {HELP_SCORING}")

    def undo(self) -> None:
        g = self.game
        try:
            ev = g.undo()
            # Against the bot (which grants undo requests), take back its reply too: the person's turn again.
            if (self.bot is not None and ev.kind == "move" and ev.color == self.bot[1] and g.events
                    and self.bot[0].answers_undo(g, self.bot[1])):
                g.undo()
        except GameError as exc:
            self.say(f"Refused: {exc}")
            return
        self.say("Taken back.")
        self.show()

    def loop(self, lines: IO[str]) -> None:
        """Run until the game is finished, the player quits or the input ends."""
        self.show()
        self.say(HELP_PLAY)
        while self.game.phase != "finished" and not self.quit:
            if not self.human_turn():
                self.bot_move()
                continue
            print(self.prompt(), end="", file=self.out, flush=True)
            line = lines.readline()
            if not line:
                self.say("")
                self.say("Input ended.")
                return
            if self.echo:
                self.say(line.rstrip("\n"))  # a script's commands appear in the transcript as typed
            self.command(line)


def _make_bot(args: argparse.Namespace) -> tuple[Seat, int] | None:
    if args.vs != "bot":
        return None
    from keima.seat import make_seat, warm_up

    human = args.human.strip().lower()
    if human not in ("b", "black", "w", "white"):
        raise UsageError(f"--human must be black or white, not {args.human!r}")
    try:
        seat = make_seat(args.level)
    except ValueError as exc:
        raise UsageError(f"--level: {exc}") from None
    # Compile the bot in the background while the person thinks; its first answers do not wait for it.
    warm_up()
    return seat, WHITE if human[0] == "b" else BLACK


def _estimator() -> Callable[[Game], frozenset[int]]:
    from keima.ai import estimate_dead

    def run(game: Game) -> frozenset[int]:
        return frozenset(estimate_dead(game))

    return run


def run(args: argparse.Namespace) -> int:
    """Play one game on the terminal; returns 0 (the record is saved), or raises UsageError for bad options."""
    from keima.record import dump_sgf

    check_game_options(args)
    if args.seconds < 0 or not math.isfinite(args.seconds):
        raise UsageError("--seconds must be zero or more")
    try:
        game = Game(
            size=args.size, rules=args.rules, komi=args.komi, handicap=args.handicap, placement=args.placement
        )
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    bot = _make_bot(args)
    color = sys.stdout.isatty() if args.color is None else bool(args.color)
    estimate = None if args.no_estimate else _estimator()
    if bot is not None and estimate is None:
        estimate = _estimator()
    path = Path(args.sgf) if args.sgf else Path(f"keima-{_dt.datetime.now():%Y%m%d-%H%M%S}.sgf")
    if path.exists() and path.is_dir():
        raise UsageError(f"--sgf: {path} is a directory")
    session = TerminalGame(game, sys.stdout, color, bot, args.seconds, estimate)
    if bot is not None:
        session.say(f"You play {color_word(opponent(bot[1]))} against keima ({args.level}).")
    session.echo = not sys.stdin.isatty()
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(
            errors="replace"
        )  # undecodable input becomes a command that is not understood, not a crash
    interrupted = False
    try:
        session.loop(sys.stdin)
    except KeyboardInterrupt:
        # Ctrl-C ends the session, not the record: the game so far is still saved below.
        interrupted = True
        session.say("\nInterrupted.")
    if game.phase == "finished":
        session.say(f"Game over: {game.result}")
        if game.end_reason == "score":
            session.show()
            session.say(score_table(game))
    names = {
        BLACK: args.black_name or ("keima" if bot is not None and bot[1] == BLACK else "Black"),
        WHITE: args.white_name or ("keima" if bot is not None and bot[1] == WHITE else "White"),
    }
    info = {"PB": names[BLACK], "PW": names[WHITE], "DT": _dt.date.today().isoformat()}
    try:
        path.write_text(dump_sgf(game, info=info), encoding="utf-8")
    except OSError as exc:
        print(dump_sgf(game, info=info))
        raise UsageError(
            f"cannot save the record to {path}: {exc.strerror or exc} (printed above instead)"
        ) from None
    session.say(f"Saved {path}")
    return 130 if interrupted else 0
