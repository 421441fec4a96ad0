"""The match referee: two computer players play each other while keima enforces the rules and counts.

Each side sits at a :class:`keima.seat.Seat`: an external GTP engine as the seat's
:class:`~keima.seat.EnginePlayer` (held to the match's terms: every reply within ``move_timeout`` seconds, told to
the engine with ``time_settings``, and no restart), keima's own bot or stand-in policy in-process. The seat keeps
an engine's board in step with the game (size, komi, rules through ``keima-set-rules`` or ``kgs-rules`` when the
engine knows one, the moves) and checks every answer with :meth:`keima.Game.legality`; the referee speaks no GTP
itself. keima's :class:`~keima.Game` is the only authority:

* an illegal move, an unreadable answer, a ``?`` to ``genmove``, a crash, or a protocol error forfeits the game
  (``game.forfeit``), and a reply slower than the per-move limit loses on time (``game.timeout``); the reason goes
  into the SGF result (RE) and a comment;
* after two passes each side is asked for its dead stones (an engine's ``final_status_list dead``). Equal lists
  are accepted by both sides. Different lists are a dispute: play resumes (at most ``max_resumptions`` times),
  with ``kgs-genmove_cleanup`` for engines that know it and ``genmove`` for the others. When disputes remain
  after that, or the ruleset has no resumption, only the stones that both sides call dead are removed;
* the finished game is counted by keima under the chosen ruleset.

When an engine refuses (``?``) a move that keima accepted, the two sides follow different rules and the game
cannot go on: it ends with no result (RE ``Void``) and a comment naming the engine.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from keima.record import dump_sgf
from keima.rules import coords
from keima.rules.board import BLACK, WHITE, color_word, opponent
from keima.rules.game import Game, GameError
from keima.rules.ruleset import RulesError
from keima.seat import ComputerPlayer, EnginePlayer, Failure, Seat, SeatFailure, apply_answer


@dataclass
class GameReport:
    """The outcome of one refereed game."""

    number: int
    black: str
    white: str
    game: Game
    result: str
    """The SGF RE value, e.g. ``B+5.5``, ``W+R``, ``B+T``, ``W+F``, ``Void``."""
    reason: str = ""
    """Why the game ended when it was not by counting (forfeit, time, resignation...)."""
    comments: list[str] = field(default_factory=list)
    sgf_path: str | None = None
    crashed: bool = False
    """An engine crashed or could not start."""

    @property
    def moves(self) -> int:
        """Moves played, passes included."""
        return len(self.game.moves)


class Referee:
    """Plays games between two computer players (:class:`keima.seat.ComputerPlayer`) under keima's rules.

    ``move_timeout`` is the limit in seconds for each reply of an engine (``genmove`` included; an in-process
    player that takes longer loses on time all the same); ``seconds`` is what an in-process player may think per
    move (default: its own default), never more than ``move_timeout``; ``max_moves`` ends a game that will not end
    (default ``4 * size * size``) with no result. ``handicap`` (2 to 9) puts that many Black stones on the GTP
    fixed handicap points before White's first move, with the ruleset's handicap komi unless ``komi`` is given.
    Raises :class:`keima.RulesError` at construction for a bad size, ruleset, komi or handicap (one the ruleset
    places freely, or too many stones for the board).
    """

    def __init__(
        self,
        *,
        size: int = 19,
        rules: str = "french",
        komi: float | None = None,
        move_timeout: float = 30.0,
        seconds: float | None = None,
        max_moves: int | None = None,
        max_resumptions: int = 2,
        handicap: int = 0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.handicap = handicap
        self._new_game(size, rules, komi)  # validates the settings now rather than mid-match
        self.size = size
        self.rules = rules
        self.komi = komi
        self.move_timeout = move_timeout
        self.seconds = seconds
        self.max_moves = max_moves if max_moves is not None else 4 * size * size
        self.max_resumptions = max_resumptions
        self.log = log or (lambda message: None)

    # ------------------------------------------------------------------ one game

    def _new_game(self, size: int, rules: str, komi: float | None) -> Game:
        if self.handicap == 1:
            # One "stone" is no stone: Black simply plays first with the handicap komi, and GTP's fixed_handicap
            # starts at two, so a match asks for 2 to 9.
            raise RulesError("a handicap match needs 2 to 9 stones, not 1")
        placement = "fixed" if self.handicap >= 2 else None
        return Game(size=size, rules=rules, komi=komi, handicap=self.handicap, placement=placement)

    def play_game(self, black: ComputerPlayer, white: ComputerPlayer, number: int = 1) -> GameReport:
        """Play one game; returns its report. Never raises for a player's misbehaviour (that is a result)."""
        game = self._new_game(self.size, self.rules, self.komi)
        seats = {BLACK: Seat(black), WHITE: Seat(white)}
        for player in (black, white):
            if isinstance(player, EnginePlayer):
                player.hold_to(self.move_timeout)
            player.warm_up()  # compiling the bot or starting a process is not a move's time
        report = GameReport(number, black.name, white.name, game, "")
        resumptions = 0
        while game.phase != "finished":
            if len(game.moves) >= self.max_moves:
                self._no_result(report, f"no end after {self.max_moves} moves")
                break
            if game.phase == "scoring":
                if self._settle(report, seats, resumptions):
                    break
                resumptions += 1
                continue
            if not self._turn(report, seats[game.to_move], game.to_move):
                break
        return self._finish(report)

    def _turn(self, report: GameReport, seat: Seat, color: int) -> bool:
        """Ask ``color`` for a move and apply it; returns False when the game ended (forfeit, time, resignation,
        or a refusal that voids it)."""
        game = report.game
        seconds = min(self.seconds if self.seconds is not None else seat.default_seconds, self.move_timeout)
        start = time.monotonic()
        decision = seat.move(game, color, seconds)
        elapsed = time.monotonic() - start
        if decision.action == "forfeit":
            self._failed(report, seat, color, decision.failure or "error", decision.note or "")
            return False
        if elapsed > self.move_timeout and not isinstance(seat.player, EnginePlayer):
            self._lose_on_time(report, color, f"{seat.name} took {elapsed:.1f} s, limit {self.move_timeout:g} s")
            return False
        apply_answer(game, color, decision)
        if decision.action == "resign":
            report.reason = f"{color_word(color)} resigned"
            report.comments.append(f"{color_word(color)} ({seat.name}) resigned at move {len(game.moves) + 1}.")
            if decision.say:
                report.comments.append(decision.say)  # why, as the game's page says it
            return False
        return True

    def _dead_list(self, report: GameReport, seat: Seat, color: int) -> frozenset[int] | None | bool:
        """The stones ``seat``'s player calls dead; None when it cannot say; False when the game ended (the
        player failed: forfeit or time)."""
        player = seat.player
        if not isinstance(player, EnginePlayer):
            return seat.propose_dead(report.game)
        try:
            return player.dead_list(report.game)
        except SeatFailure as exc:
            self._failed(report, seat, color, exc.kind, str(exc))
            return False

    def _settle(self, report: GameReport, seats: dict[int, Seat], resumptions: int) -> bool:
        """Settle the dead stones after two passes; returns True when the game is finished."""
        game = report.game
        lists: dict[int, frozenset[int] | None] = {}
        for color in (BLACK, WHITE):
            answer = self._dead_list(report, seats[color], color)
            if answer is False:
                return True
            lists[color] = answer if isinstance(answer, frozenset) else None
        known = [v for v in lists.values() if v is not None]
        if not known:
            dead: frozenset[int] = frozenset()
            report.comments.append("Neither engine lists dead stones: every stone counts as alive.")
        elif len(known) == 1 or known[0] == known[1]:
            dead = known[0]
        else:
            b_list, w_list = known[0], known[1]
            if resumptions < self.max_resumptions:
                try:
                    game.resume(opponent(game.to_move))
                    report.comments.append(
                        f"Dead stones disputed (Black: {self._vertices(game, b_list)}; "
                        f"White: {self._vertices(game, w_list)}): play resumes."
                    )
                    self.log(f"game {report.number}: dead stones disputed, play resumes")
                    return False
                except GameError as exc:
                    report.comments.append(f"Dead stones disputed; no resumption under these rules ({exc}).")
            dead = b_list & w_list
            report.comments.append(
                f"Dead stones still disputed: only those both engines call dead are removed "
                f"({self._vertices(game, dead)})."
            )
        game.set_dead(dead, BLACK)
        game.accept(BLACK)
        game.accept(WHITE)
        return True

    @staticmethod
    def _vertices(game: Game, points: frozenset[int]) -> str:
        return " ".join(coords.to_gtp(p, game.size) for p in sorted(points)) or "none"

    # ------------------------------------------------------------------ endings

    def _failed(self, report: GameReport, seat: Seat, color: int, kind: Failure, note: str) -> None:
        """End the game for a player that failed: on time, with no result (it refused a legal move: the two sides
        follow different rules), or by forfeit."""
        if kind == "timeout":
            self._lose_on_time(report, color, note)
        elif kind == "refused":
            self._no_result(report, f"{color_word(color)} ({seat.name}) {note} under {report.game.rules.name} rules")
        else:
            self._forfeit(report, color, note)

    def _forfeit(self, report: GameReport, color: int, reason: str) -> None:
        engine = report.black if color == BLACK else report.white
        report.crashed = report.crashed or reason.startswith("crash")
        report.game.forfeit(color, reason)
        report.reason = f"{color_word(color)} forfeits: {reason}"
        report.comments.append(f"{color_word(color)} ({engine}) forfeits at move {len(report.game.moves) + 1}: {reason}")
        self.log(f"game {report.number}: {report.reason}")

    def _lose_on_time(self, report: GameReport, color: int, reason: str) -> None:
        engine = report.black if color == BLACK else report.white
        report.game.timeout(color)
        report.reason = f"{color_word(color)} lost on time: {reason}"
        report.comments.append(f"{color_word(color)} ({engine}) lost on time at move {len(report.game.moves) + 1}: {reason}")
        self.log(f"game {report.number}: {report.reason}")

    def _no_result(self, report: GameReport, reason: str) -> None:
        report.game.declare_no_result()
        report.reason = f"no result: {reason}"
        report.comments.append(f"No result: {reason}")
        self.log(f"game {report.number}: {report.reason}")

    def _finish(self, report: GameReport) -> GameReport:
        report.result = str(report.game.result)
        return report


# ---------------------------------------------------------------------- matches

PlayerFactory = Callable[[], ComputerPlayer]


def run_match(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    referee: Referee,
    games: int,
    sgf_dir: str | None = None,
    on_game: Callable[[GameReport], None] | None = None,
    number_from: int = 1,
    alternate: bool = True,
) -> list[GameReport]:
    """Play ``games`` games between two players, alternating colours (``first`` is Black in the odd-numbered
    games; in every game when ``alternate`` is false, as in a handicap match), numbered from ``number_from`` (so that a long match can be played in parts, each part a slice of
    the same numbering and colours).

    Each entry is ``(label, factory)``; the factory makes a fresh player for every game (an engine starts a fresh
    process) so that a crash cannot leak into the next game; the label names it in the reports. An engine that
    cannot start forfeits that game at its first turn. Writes one SGF per game into ``sgf_dir`` when given; calls
    ``on_game`` with each report as soon as its game ends. Returns the reports.
    """
    reports: list[GameReport] = []
    for number in range(number_from, number_from + games):
        pair = (first, second) if number % 2 == 1 or not alternate else (second, first)
        players: dict[int, ComputerPlayer] = {}
        try:
            for color, (label, factory) in zip((BLACK, WHITE), pair, strict=True):
                player = factory()
                player.name = label
                players[color] = player
            report = referee.play_game(players[BLACK], players[WHITE], number)
        finally:
            for player in players.values():
                player.close()
        if sgf_dir is not None:
            report.sgf_path = write_sgf(report, sgf_dir)
        reports.append(report)
        if on_game is not None:
            on_game(report)
    return reports


def sgf_text(report: GameReport) -> str:
    """The SGF of ``report``'s game with the player names and the referee's comments (root ``C``)."""
    info = {"PB": report.black, "PW": report.white}
    if report.comments:
        info["C"] = "\n".join(report.comments)
    return dump_sgf(report.game, info)


def write_sgf(report: GameReport, directory: str) -> str:
    """Write ``report``'s game to ``directory/game-NNN.sgf``; returns the path."""
    text = sgf_text(report)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"game-{report.number:03d}.sgf")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def results_table(reports: list[GameReport]) -> str:
    """A plain-text table of the games and a line of wins per engine."""
    rows = [("#", "Black", "White", "Result", "Moves", "Note")]
    wins: dict[str, float] = {}
    for r in reports:
        rows.append((str(r.number), r.black, r.white, r.result, str(r.moves), r.reason))
        for label in (r.black, r.white):
            wins.setdefault(label, 0.0)
        if r.result.startswith("B+"):
            wins[r.black] += 1
        elif r.result.startswith("W+"):
            wins[r.white] += 1
        elif r.result in ("0", "Draw"):
            wins[r.black] += 0.5
            wins[r.white] += 0.5
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    lines.append("")
    lines.append("Wins: " + ", ".join(f"{label} {score:g}" for label, score in wins.items()))
    return "\n".join(lines)
