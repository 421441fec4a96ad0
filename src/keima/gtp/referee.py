"""The referee: two GTP engines play each other while keima enforces the rules and counts.

For each game the referee sets both engines up (board size, komi, rules when the engine knows
``keima-set-rules`` or ``kgs-rules``, a per-move time limit through ``time_settings``), then asks the side
to move for ``genmove`` and checks the answer with :meth:`keima.Game.legality` before telling the other
side with ``play``. keima's :class:`~keima.Game` is the only authority:

* an illegal move, an unreadable answer, a ``?`` to ``genmove``, a crash, or a protocol error forfeits
  the game (``game.forfeit``), and a reply slower than the per-move limit loses on time (``game.timeout``);
  the reason goes into the SGF result (RE) and a comment;
* after two passes each engine is asked ``final_status_list dead``. Equal lists are accepted by both
  sides. Different lists are a dispute: play resumes (at most ``max_resumptions`` times), with
  ``kgs-genmove_cleanup`` for engines that know it and ``genmove`` for the others. When disputes remain
  after that, or the ruleset has no resumption, only the stones that both engines call dead are removed;
* the finished game is counted by keima under the chosen ruleset.

When an engine refuses (``?``) a move that keima accepted, the engines follow different rules and the game
cannot go on: it ends with no result (RE ``Void``) and a comment naming the engine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from keima.gtp.controller import (
    EngineDied,
    EngineError,
    EngineFailure,
    EngineLink,
    EngineTimeout,
)
from keima.record import dump_sgf
from keima.record.rulenames import KGS_NAMES
from keima.rules import coords
from keima.rules.board import BLACK, WHITE, color_name, color_word, opponent
from keima.rules.game import Game, GameError


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
    """Plays games between two :class:`~keima.gtp.controller.EngineLink` objects under keima's rules.

    ``move_timeout`` is the limit in seconds for each reply of an engine (``genmove`` included);
    ``max_moves`` ends a game that will not end (default ``4 * size * size``) with no result.
    Raises :class:`keima.RulesError` at construction for a bad size, ruleset or komi.
    """

    def __init__(
        self,
        *,
        size: int = 19,
        rules: str = "french",
        komi: float | None = None,
        move_timeout: float = 30.0,
        max_moves: int | None = None,
        max_resumptions: int = 2,
        log: Callable[[str], None] | None = None,
    ) -> None:
        Game(size=size, rules=rules, komi=komi)  # validates the settings now rather than mid-match
        self.size = size
        self.rules = rules
        self.komi = komi
        self.move_timeout = move_timeout
        self.max_moves = max_moves if max_moves is not None else 4 * size * size
        self.max_resumptions = max_resumptions
        self.log = log or (lambda message: None)

    # ------------------------------------------------------------------ one game

    def play_game(self, black: EngineLink, white: EngineLink, number: int = 1) -> GameReport:
        """Play one game; returns its report. Never raises for engine misbehaviour (that is a result)."""
        game = Game(size=self.size, rules=self.rules, komi=self.komi)
        engines = {BLACK: black, WHITE: white}
        report = GameReport(number, black.label, white.label, game, "")
        for color in (BLACK, WHITE):
            failure = self._setup(engines[color], game)
            if failure is not None:
                self._forfeit(report, color, failure)
                return self._finish(report)
        cleanup = False
        resumptions = 0
        while game.phase != "finished":
            if len(game.moves) >= self.max_moves:
                self._no_result(report, f"no end after {self.max_moves} moves")
                break
            if game.phase == "scoring":
                if self._settle(report, engines, resumptions):
                    break
                resumptions += 1
                cleanup = True
                continue
            color = game.to_move
            if not self._turn(report, engines, color, cleanup):
                break
        return self._finish(report)

    def _setup(self, engine: EngineLink, game: Game) -> str | None:
        """Send the game settings; returns a forfeit reason, or None when the engine accepted them."""
        try:
            engine.send(f"boardsize {game.size}", self.move_timeout)
            engine.send("clear_board", self.move_timeout)
            engine.send(f"komi {game.komi:g}", self.move_timeout)
            rules_name = str(game.rules.name)
            if engine.known("keima-set-rules", self.move_timeout):
                engine.send(f"keima-set-rules {rules_name}", self.move_timeout)
            elif rules_name in KGS_NAMES and engine.known("kgs-rules", self.move_timeout):
                engine.request(f"kgs-rules {KGS_NAMES[rules_name]}", self.move_timeout)
            # Tell the engine its per-move limit (Canadian overtime: one stone per period); optional.
            engine.request(f"time_settings 0 {max(1, int(self.move_timeout))} 1", self.move_timeout)
        except EngineTimeout as exc:
            return f"timeout during setup: {exc}"
        except EngineError as exc:
            return f"setup failed: {exc}"
        return None

    def _turn(self, report: GameReport, engines: dict[int, EngineLink], color: int, cleanup: bool) -> bool:
        """Ask ``color`` for a move and apply it; returns False when the game ended by forfeit or resignation."""
        game = report.game
        engine = engines[color]
        letter = color_name(color).lower()
        command = "genmove"
        if cleanup and engine.known("kgs-genmove_cleanup", self.move_timeout):
            command = "kgs-genmove_cleanup"
        try:
            answer = engine.send(f"{command} {letter}", self.move_timeout).strip()
        except EngineTimeout as exc:
            self._lose_on_time(report, color, str(exc))
            return False
        except EngineDied as exc:
            self._forfeit(report, color, f"crash: {exc}")
            return False
        except EngineFailure as exc:
            self._forfeit(report, color, f"{command} failed: {exc.message}")
            return False
        except EngineError as exc:
            self._forfeit(report, color, f"protocol error: {exc}")
            return False
        if answer.lower() == "resign":
            game.resign(color)
            report.reason = f"{color_word(color)} resigned"
            report.comments.append(f"{color_word(color)} ({engine.label}) resigned at move {len(game.moves) + 1}.")
            return False
        try:
            move = coords.from_gtp(answer, game.size)
        except ValueError:
            self._forfeit(report, color, f"unreadable move {answer[:40]!r}")
            return False
        reason = game.legality(move, color)
        if reason is not None:
            self._forfeit(report, color, f"illegal move {answer.upper()} ({reason})")
            return False
        game.play(move, color)
        other = engines[opponent(color)]
        vertex = "pass" if move is None else coords.to_gtp(move, game.size)
        try:
            other.send(f"play {letter} {vertex}", self.move_timeout)
        except EngineTimeout as exc:
            self._lose_on_time(report, opponent(color), str(exc))
            return False
        except EngineFailure as exc:
            self._no_result(
                report,
                f"{color_word(opponent(color))} ({other.label}) refused {color_word(color)}'s legal move "
                f"{vertex} under {game.rules.name} rules: {exc.message}",
            )
            return False
        except EngineDied as exc:
            self._forfeit(report, opponent(color), f"crash: {exc}")
            return False
        except EngineError as exc:
            self._forfeit(report, opponent(color), f"protocol error: {exc}")
            return False
        return True

    def _dead_list(self, report: GameReport, engine: EngineLink, color: int) -> frozenset[int] | None | str:
        """The stones ``engine`` calls dead; None when it cannot say; a string when it crashed (forfeit reason)."""
        game = report.game
        try:
            text = engine.send("final_status_list dead", self.move_timeout)
        except EngineTimeout as exc:
            return f"timeout: {exc}"
        except EngineDied as exc:
            return f"crash: {exc}"
        except EngineError:
            return None
        points: set[int] = set()
        for word in text.split():
            try:
                p = coords.from_gtp(word, game.size)
            except ValueError:
                return None
            if p is not None and stone_at(game, p):
                points.add(p)
        return frozenset(points)

    def _settle(self, report: GameReport, engines: dict[int, EngineLink], resumptions: int) -> bool:
        """Settle the dead stones after two passes; returns True when the game is finished."""
        game = report.game
        lists: dict[int, frozenset[int] | None] = {}
        for color in (BLACK, WHITE):
            answer = self._dead_list(report, engines[color], color)
            if isinstance(answer, str):
                if answer.startswith("timeout"):
                    self._lose_on_time(report, color, answer)
                else:
                    self._forfeit(report, color, answer)
                return True
            lists[color] = answer
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



def stone_at(game: Game, point: int) -> int:
    """The colour on ``point`` (0 when empty)."""
    from keima.gtp.policy import board_colors

    return board_colors(game)[point]


# ---------------------------------------------------------------------- matches

EngineFactory = Callable[[], EngineLink]


def run_match(
    first: tuple[str, EngineFactory],
    second: tuple[str, EngineFactory],
    referee: Referee,
    games: int,
    sgf_dir: str | None = None,
    on_game: Callable[[GameReport], None] | None = None,
    number_from: int = 1,
) -> list[GameReport]:
    """Play ``games`` games between two engines, alternating colours (``first`` is Black in the odd-numbered
    games), numbered from ``number_from`` (so that a long match can be played in parts, each part a slice of
    the same numbering and colours).

    Each entry is ``(label, factory)``; the factory starts a fresh engine for every game so that a crash
    cannot leak into the next game. An engine that cannot even start forfeits that game. Writes one SGF per
    game into ``sgf_dir`` when given and SGF support (``keima.record``) is installed; calls ``on_game`` with
    each report as soon as its game ends. Returns the reports.
    """
    reports: list[GameReport] = []
    for number in range(number_from, number_from + games):
        pair = (first, second) if number % 2 == 1 else (second, first)
        links: dict[int, EngineLink] = {}
        failed: list[tuple[int, str]] = []
        for color, (label, factory) in zip((BLACK, WHITE), pair, strict=True):
            try:
                link = factory()
                link.label = label
                links[color] = link
            except EngineError as exc:
                failed.append((color, f"crash: cannot start: {exc}"))
        try:
            if failed:
                game = Game(size=referee.size, rules=referee.rules, komi=referee.komi)
                report = GameReport(number, pair[0][0], pair[1][0], game, "")
                referee._forfeit(report, *failed[0])
                report = referee._finish(report)
            else:
                report = referee.play_game(links[BLACK], links[WHITE], number)
        finally:
            for link in links.values():
                link.close()
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
