"""One computer seat: how a computer player takes part in a game, whichever front end holds the game.

The GTP engine (``keima gtp``), the web server (``keima serve``), terminal play (``keima play``) and the match
referee (``keima match``) all ask a :class:`Seat` for the computer's decisions; nothing else decides them, and
:func:`apply_answer` carries a decision or a review out on the game the same way for each of them. The seat is plain synchronous code
working on a copy of the game, so a server thread and a worker process can call it alike:

* :meth:`Seat.move` asks the player for a move within a time budget (:meth:`Seat.think_time` turns a clock into
  seconds) and returns a :class:`Decision`: a legal point, a pass, a resignation or a forfeit. A refused or
  missing move from keima's own bot is replaced by the stand-in policy's choice; an illegal move from an
  external GTP engine forfeits its game, as in ``keima match``. In the handicap phase a refused answer is replaced
  by the usual placement (``Game.next_handicap_point``).
* Manners, at every level (here and nowhere else): it resigns a game lost beyond doubt (several consecutive
  hopeless verdicts, never in the opening, never while a capturing race is open; never in a handicap game it
  gives before the board is half full, nor while its deficit is within what the stones gave; the teaching levels
  never before move 150 on 19x19), saying why (``Decision.say``); it passes when every point is settled instead of
  filling its own territory or playing in the opponent's, and answers a pass with a pass when playing on gains
  nothing and no capturing race is open (``keima.rules.borders``). After the opponent's pass the teaching levels
  (beginner, intermediate) play on while a border is open too, and say where. A move
  generator without a judgement of its own (the stand-in policy) answers a pass with a pass when the count of the
  board as it stands already gives it the game.
* :meth:`Seat.review` judges a dead-stone marking in the scoring phase: it accepts what its playouts support;
  otherwise it names each chain it sees differently and why (a :class:`Review` whose ``message`` reads
  "keima thinks D4 is alive ..."), and the front end resumes play so the board settles the dispute.
* :meth:`Seat.answers_undo` says whether the computer grants an undo (it always does).

The computer player is a :class:`ComputerPlayer`: keima's bot (:class:`KeimaPlayer`) or any GTP engine run
through keima's GTP controller (:class:`EnginePlayer`), whose process is restarted if it dies.
"""

from __future__ import annotations

import logging
import math
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from keima.ai.player import LEVEL_CONFIGS
from keima.ai.standin import policy_move
from keima.gtp.controller import EngineDied, EngineError, EngineFailure, EngineTimeout, SubprocessEngine
from keima.record.rulenames import KGS_NAMES
from keima.rules import coords
from keima.rules.board import BLACK, EMPTY, WHITE, color_name, color_word, opponent
from keima.rules.borders import Race, open_borders, open_races
from keima.rules.game import Game
from keima.rules.scoring import open_points, settlement
from keima.rules.shape import play_effect
from keima.timecontrol import TimeBudget

log = logging.getLogger("keima.seat")

Move = int | None | Literal["resign"]

#: A chain the playouts keep for one side in at least this share of the games is settled for the review.
SURE_SHARE = 0.75
#: Win rate under which a verdict counts as hopeless (for a player that reports one).
RESIGN_WINRATE = 0.05
#: The levels that teach (``keima.ai.player.LevelConfig.teaching``): after the opponent's pass they play on while a
#: border is open, and they never resign before move ``TEACHING_RESIGN_MOVE`` on 19x19 (in proportion to the
#: board's area on smaller boards).
TEACHING_LEVELS = tuple(name for name, config in LEVEL_CONFIGS.items() if config.teaching)
TEACHING_RESIGN_MOVE = 150
#: What one handicap stone gives, in points: about twice the komi, as a move is worth (twice
#: ``keima.ai.searcher.HANDICAP_KOMI_PER_STONE``). A seat giving stones does not resign while its deficit is
#: within what they gave.
HANDICAP_STONE_POINTS = 16.0


#: Why a computer player could not answer: no reply in time, a process that died (or never started), a refusal of
#: a move the referee accepted (the two sides follow different rules), or anything else (a ``?`` reply, broken
#: framing, an unreadable or illegal answer).
Failure = Literal["timeout", "crash", "refused", "error"]


class SeatFailure(Exception):
    """The computer player could not answer at all (an engine that keeps dying); the seat forfeits.
    ``kind`` says why (:data:`Failure`)."""

    def __init__(self, message: str, kind: Failure = "error") -> None:
        super().__init__(message)
        self.kind: Failure = kind


class ComputerPlayer(Protocol):
    """What a seat needs from a computer player."""

    name: str
    #: True when a refused or missing move is replaced by the stand-in policy's (keima's own players); False
    #: for an external engine, whose illegal move forfeits.
    managed: bool
    #: True when the seat decides the player's manners (pass on a settled board, resignation): keima's bot. A
    #: managed player without them still answers a pass with a pass when the count as it stands wins.
    manners: bool

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """Return a board point, None to pass, or ``"resign"`` for ``color`` in ``game`` (not changed)."""
        ...

    def dead_stones(self, game: Game) -> frozenset[int]:
        """Return the stones this player calls dead in ``game``'s position (not changed)."""
        ...

    def winrate(self) -> float | None:
        """The win rate of the last move's search for the side that moved, or None when unknown."""
        ...

    @property
    def default_seconds(self) -> float:
        """Thinking time per move when no clock limits it."""
        ...

    def warm_up(self) -> None:
        """Load what the first move needs (compiled code, the engine process); never raises."""
        ...

    def close(self) -> None:
        """Release what the player holds (an engine process); never raises."""
        ...


@dataclass(frozen=True)
class Decision:
    """What the seat plays: ``action`` "play" (``point``), "pass", "resign" or "forfeit" (``note`` says why, and
    ``failure`` what kind of failure it was). ``note`` also tells when a fallback replaced the player's own answer.
    ``say``: what the person at the board is told, in English words a page reads back ("keima resigns: behind by
    about 25 points with no open fight", "keima plays on: the border is open at E5"), or None."""

    action: Literal["play", "pass", "resign", "forfeit"]
    point: int | None = None
    note: str | None = None
    failure: Failure | None = None
    say: str | None = None


@dataclass(frozen=True)
class Opinion:
    """One chain the seat sees differently from the marking: ``stones``, and ``thinks`` "alive" or "dead";
    ``share`` is the fraction of playouts that agree with it (None when the player gives no figure)."""

    stones: tuple[int, ...]
    thinks: Literal["alive", "dead"]
    share: float | None


@dataclass(frozen=True)
class Review:
    """The seat's answer to a marking: ``accept``, or the chains it disputes and a ``message`` naming them."""

    accept: bool
    disputes: tuple[Opinion, ...] = ()
    message: str | None = None
    dead: frozenset[int] = field(default_factory=frozenset)


# ---------------------------------------------------------------------------------------------- players
class KeimaPlayer:
    """keima's bot (``keima.ai``) at ``level`` (or the given ``player``), with resignation left to the seat.
    ``dead_estimator``: what it calls dead (default: the bot's own estimate)."""

    managed = True
    manners = True

    def __init__(self, level: str | int = "strong", seed: int | None = None, *, player: Any = None,
                 dead_estimator: Any = None) -> None:
        from keima.ai import make_player

        self.player = player if player is not None else make_player(level, seed=seed)
        self.dead_estimator = dead_estimator
        self.level = self.player.level
        self.name = "keima"
        self.seed = seed

    @property
    def default_seconds(self) -> float:
        """The level's own time per move (1 to 3 s; half a second for a ranked level, which does not search)."""
        return float(self.player.config.seconds)

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """Ask the bot (see ``keima.ai.Player.genmove``: while its search compiles in the background, it answers
        at once with its quick move)."""
        self.player.last_result = None
        move: Move = self.player.genmove(game, color, seconds)
        return move

    def dead_stones(self, game: Game) -> frozenset[int]:
        """The bot's estimate, remembered as its claim: if play resumes, it captures those stones."""
        if self.dead_estimator is not None:
            return frozenset(self.dead_estimator(game))
        return frozenset(self.player.propose_dead(game))

    def winrate(self) -> float | None:
        """The last search's win rate, when it saw enough heavy playouts to mean something (the beginner's light,
        uniform playouts judge a finished position no better than a coin: None, the seat judges alone)."""
        result = self.player.last_result
        if result is None or result.playouts < 50 or not self.player.config.heavy:
            return None
        return float(result.winrate)

    def must_capture(self, game: Game, color: int) -> bool:
        """True while opposing stones this bot claimed dead (before play resumed) still stand."""
        return self.player.claim_open(game, color)

    def warm_up(self) -> None:
        """Start compiling the search (numba) in the background (:func:`warm_up`)."""
        warm_up()

    def close(self) -> None:
        """Nothing to release."""


class GeneratorPlayer:
    """Any move generator (``genmove(game, color, seconds)``, e.g. the stand-in policy of ``keima.ai.standin``)
    as a computer player; ``dead_estimator`` marks its dead stones (default: ``keima.ai.estimate_dead``).
    The seat replaces its refused moves and gives it the light manners (a pass answers a pass when the count as it
    stands wins)."""

    managed = True
    manners = False
    default_seconds = 1.0

    def __init__(self, generator: Any, dead_estimator: Any = None, name: str = "keima") -> None:
        self.generator = generator
        self.dead_estimator = dead_estimator
        self.name = name

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """The generator's answer, as it is (the seat checks it)."""
        move: Move = self.generator.genmove(game, color, seconds)
        return move

    def dead_stones(self, game: Game) -> frozenset[int]:
        """The estimator's dead stones."""
        if self.dead_estimator is None:
            from keima.ai import estimate_dead

            return frozenset(estimate_dead(game))
        return frozenset(self.dead_estimator(game))

    def winrate(self) -> float | None:
        """Unknown."""
        return None

    def warm_up(self) -> None:
        """Nothing to load."""

    def close(self) -> None:
        """Nothing to release."""


def computer_for(generator: Any, dead_estimator: Any = None) -> ComputerPlayer:
    """Return the computer player for a move generator: keima's bot (a ``keima.ai.Player``) with the seat's
    manners, anything else as a :class:`GeneratorPlayer`."""
    from keima.ai.player import Player

    if isinstance(generator, Player):
        return KeimaPlayer(player=generator, dead_estimator=dead_estimator)
    return GeneratorPlayer(generator, dead_estimator)


class EnginePlayer:
    """An external GTP engine (``command``, e.g. ``gnugo --mode gtp --level 10``, a string or an argument list) as
    a computer player.

    The engine's board is kept in step with the game by GTP commands: the board size, komi, rules (through
    ``keima-set-rules`` or ``kgs-rules`` when the engine knows one), handicap stones, then ``play`` for each move
    it has not seen (from scratch when the game went back or changed). After a resumption of play it is asked
    ``kgs-genmove_cleanup`` when it knows it. Its dead stones come from ``final_status_list dead``.

    By default (the web server) a process that dies or stops answering is started again (once per request) before
    the seat gives up with :class:`SeatFailure`; :meth:`hold_to` sets a match's terms instead.
    """

    managed = False
    manners = False

    def __init__(self, name: str, command: str | Sequence[str], *, timeout: float = 30.0) -> None:
        self.name = name
        self.command = command
        self.timeout = timeout
        #: A match's fixed limit per reply (:meth:`hold_to`), or None.
        self.per_move: float | None = None
        self._engine: SubprocessEngine | None = None
        self._known: list[tuple[int, int | None]] = []
        self._setup: tuple[int, float, str, tuple[int, ...]] | None = None
        self._lock = threading.Lock()
        self.restarts = 0
        #: Thinking time per move when no clock limits it.
        self.default_seconds = 1.0

    def hold_to(self, limit: float) -> None:
        """Hold the engine to a match's terms: every reply within ``limit`` seconds (``genmove`` included, and
        told to the engine as ``time_settings 0 LIMIT 1``), and no restart: a crash or a silence loses its game."""
        self.per_move = self.timeout = limit

    def _start(self) -> SubprocessEngine:
        if self._engine is None:
            self._engine = SubprocessEngine(self.command, label=self.name)  # EngineDied: "cannot start ..."
            self._known = []
            self._setup = None
        return self._engine

    def _restart(self) -> None:
        if self._engine is not None:
            self._engine.close()
        self._engine = None
        self.restarts += 1

    def _set_up(self, engine: SubprocessEngine, game: Game) -> None:
        t = self.timeout
        engine.send(f"boardsize {game.size}", t)
        engine.send("clear_board", t)
        engine.send(f"komi {game.komi:g}", t)
        rules = str(game.rules.name)
        if engine.known("keima-set-rules", t):
            engine.send(f"keima-set-rules {rules}", t)
        elif rules in KGS_NAMES and engine.known("kgs-rules", t):
            engine.request(f"kgs-rules {KGS_NAMES[rules]}", t)
        if self.per_move is not None:
            # Canadian overtime of one stone a period: the engine's per-move limit (optional for the engine).
            engine.request(f"time_settings 0 {max(1, int(self.per_move))} 1", t)
        if game.handicap_stones and game.placement == "fixed" and engine.known("fixed_handicap", t):
            # The GTP 2 command every engine of the tournament subset knows; its points are the ones keima placed
            # (both follow the specification's table).
            engine.send(f"fixed_handicap {len(game.handicap_stones)}", t)
        elif game.handicap_stones:
            engine.send("set_free_handicap " + " ".join(coords.to_gtp(p, game.size) for p in game.handicap_stones), t)

    def _sync(self, game: Game) -> SubprocessEngine:
        engine = self._start()
        setup = (game.size, float(game.komi), str(game.rules.name), tuple(sorted(game.handicap_stones)))
        moves = [(int(m.color), m.point) for m in game.moves]
        if setup != self._setup or moves[: len(self._known)] != self._known:
            self._set_up(engine, game)
            self._setup, self._known = setup, []
        for color, point in moves[len(self._known):]:
            vertex = "pass" if point is None else coords.to_gtp(point, game.size)
            try:
                engine.send(f"play {color_name(color).lower()} {vertex}", self.timeout)
            except EngineFailure as exc:
                raise SeatFailure(f"refused {color_word(color)}'s legal move {vertex} ({exc.message})",
                                  "refused") from None
            self._known.append((color, point))
        return engine

    def _with_engine(self, game: Game, work: Any) -> Any:
        """Run ``work(engine)`` on an engine in step with ``game``; restart a failed engine once (never under a
        match's terms). Raises :class:`SeatFailure` (a refused move or a failed engine) or ``EngineFailure``."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    return work(self._sync(game))
                except EngineFailure:
                    raise
                except EngineError as exc:
                    last = attempt == 2 or self.per_move is not None
                    log.warning("engine %s failed (%s); %s", self.name, exc, "giving up" if last else "restarting it")
                    if self.per_move is not None:
                        self.close_engine()
                        kind: Failure = "timeout" if isinstance(exc, EngineTimeout) else \
                            "crash" if isinstance(exc, EngineDied) else "error"
                        prefix = {"timeout": "", "crash": "crash: ", "error": "protocol error: "}[kind]
                        raise SeatFailure(f"{prefix}{exc}", kind) from None
                    self._restart()
                    if last:
                        raise SeatFailure(f"{self.name} stopped answering: {exc}", "crash") from None
            raise AssertionError("unreachable")

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """Ask the engine for ``color``'s move; its answer is parsed, not checked (the seat does that).
        Raises :class:`SeatFailure` when the engine cannot answer, ``ValueError`` for an unreadable answer."""
        letter = color_name(color).lower()
        resumed = any(e.kind == "resume" for e in game.events)
        command = "genmove"

        def work(engine: SubprocessEngine) -> Move:
            nonlocal command
            if resumed and engine.known("kgs-genmove_cleanup", self.timeout):
                command = "kgs-genmove_cleanup"
            if self.per_move is None:
                if engine.known("time_left", self.timeout):
                    engine.request(f"time_left {letter} {max(1, int(seconds))} 1", self.timeout)
                wait = self.timeout + 3 * seconds
            else:
                wait = self.per_move
            text = engine.send(f"{command} {letter}", wait).strip()
            if text.lower() == "resign":
                return "resign"
            try:
                point = coords.from_gtp(text, game.size)
            except ValueError:
                raise ValueError(f"unreadable move {text[:40]!r}") from None
            # The engine played its answer on its own board; if the game does not take it, the next request finds
            # the record out of step and starts over.
            self._known.append((color, point))
            return point

        try:
            answer: Move = self._with_engine(game, work)
        except EngineFailure as exc:
            raise SeatFailure(f"{command} failed: {exc.message}") from None
        return answer

    def dead_list(self, game: Game) -> frozenset[int] | None:
        """The stones of ``game`` the engine's ``final_status_list dead`` names; None when it cannot say (a ``?``
        reply or a vertex it cannot name). Raises :class:`SeatFailure` when the engine fails."""
        try:
            text = self._with_engine(game, lambda e: e.send("final_status_list dead", self.timeout))
        except EngineFailure:
            return None
        colors = game.board.colors
        out: set[int] = set()
        for word in str(text).split():
            try:
                p = coords.from_gtp(word, game.size)
            except ValueError:
                return None
            if p is not None and colors[p] != EMPTY:
                out.add(p)
        return frozenset(out)

    def dead_stones(self, game: Game) -> frozenset[int]:
        """The engine's ``final_status_list dead`` (stones only); empty when it cannot say."""
        try:
            return self.dead_list(game) or frozenset()
        except SeatFailure:
            return frozenset()

    def winrate(self) -> float | None:
        """Unknown: GTP does not tell."""
        return None

    def warm_up(self) -> None:
        """Start the process now; never raises."""
        try:
            with self._lock:
                self._start().send("protocol_version", self.timeout)
        except EngineError as exc:
            log.warning("engine %s does not start: %s", self.name, exc)

    def close_engine(self) -> None:
        """Stop the engine's process (a later request starts a new one)."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def close(self) -> None:
        """Stop the engine's process."""
        with self._lock:
            self.close_engine()


# ---------------------------------------------------------------------------------------------- the seat
def _point_name(game: Game, p: int) -> str:
    return coords.to_gtp(p, game.size)


class Seat:
    """A computer player's seat at one game (it keeps what it learns from move to move: resignation streaks).

    ``patience``: how many consecutive hopeless verdicts before it resigns (default: 3, and 5 for keima's
    beginner level, which plays on longer)."""

    def __init__(self, player: ComputerPlayer, *, patience: int | None = None, seed: int = 0) -> None:
        self.player = player
        level = getattr(player, "level", None)
        #: keima's level ("beginner", "intermediate", "strong"), or None for another player.
        self.level: str | None = level if isinstance(level, str) else None
        self.patience = patience if patience is not None else (5 if level == "beginner" else 3)
        self._rng = random.Random(seed)
        self._hopeless: list[int] = []  # move numbers of consecutive hopeless verdicts

    @property
    def name(self) -> str:
        """The player's name ("keima", or the engine's)."""
        return self.player.name

    @property
    def default_seconds(self) -> float:
        """The player's thinking time per move when no clock limits it."""
        return self.player.default_seconds

    # ------------------------------------------------------------------------------------ time
    @staticmethod
    def think_time(game: Game, color: int, clock: TimeBudget | None, default: float, cap: float = 60.0) -> float:
        """Return the seconds ``color`` may think on its next move of ``game``: ``default`` (at most ``cap``)
        without a clock, else a share of what ``clock`` says is left (``TimeBudget.budget``)."""
        if clock is None:
            return max(0.0, min(default, cap))
        empty = sum(1 for c in game.board.colors if c == EMPTY)
        return clock.budget(color, empty, default, cap)

    # ------------------------------------------------------------------------------------ moves
    def move(self, game: Game, color: int, seconds: float) -> Decision:
        """Decide ``color``'s next action in ``game`` (a copy is searched; ``game`` is not changed).

        A "play" decision is always legal for the referee. Outside the play and handicap phases: a pass.
        Never raises: an engine that cannot answer gives a "forfeit" decision."""
        if game.phase not in ("play", "handicap"):
            return Decision("pass")
        if not math.isfinite(seconds) or seconds < 0:
            seconds = 1.0
        try:
            raw: object = self.player.genmove(game.copy(), color, seconds)
        except SeatFailure as exc:
            return Decision("forfeit", note=str(exc), failure=exc.kind)
        except ValueError as exc:
            if not self.player.managed:
                return Decision("forfeit", note=str(exc), failure="error")
            raw = "failed"
        except Exception as exc:  # keima's bot failing must not cost the game: the stand-in policy answers
            log.exception("the bot failed; the stand-in policy answers")
            raw = f"failed ({type(exc).__name__})"
        if game.phase == "handicap":
            return self._handicap(game, color, raw)
        if raw == "resign":
            return Decision("resign")
        out_of_turn = color != game.to_move
        if raw is not None and (not isinstance(raw, int) or isinstance(raw, bool)
                                or game.legality(raw, color, allow_out_of_turn=out_of_turn) is not None):
            shown = raw if not isinstance(raw, int) else _point_name(game, raw)
            if not self.player.managed:
                reason = game.legality(raw, color, allow_out_of_turn=out_of_turn) if isinstance(raw, int) \
                    else "not a move"
                return Decision("forfeit", note=f"illegal move {shown} ({reason})", failure="error")
            fallback = policy_move(game, color, self._rng)
            return Decision("play" if fallback is not None else "pass", fallback,
                            note=f"the bot's answer {shown} was refused; the stand-in policy played instead")
        if raw is None:
            return self._manners(game, color, None) if self.player.manners else Decision("pass")
        if self.player.manners:
            return self._manners(game, color, int(raw))
        if self.player.managed and game.consecutive_passes >= 1 and _count_margin(game, color, frozenset()) > 0:
            return Decision("pass", note="the count as it stands wins: a pass answers the pass")
        return Decision("play", int(raw))

    @staticmethod
    def _handicap(game: Game, color: int, raw: object) -> Decision:
        """The player's handicap stone when the referee accepts it, else the usual placement."""
        if isinstance(raw, int) and not isinstance(raw, bool) and game.legality(raw, color) is None:
            return Decision("play", raw)
        p = game.next_handicap_point()
        return Decision("pass") if p is None else Decision("play", p)

    def _manners(self, game: Game, color: int, move: int | None) -> Decision:
        """Resign a game lost beyond doubt; pass instead of a move that gains nothing."""
        n = game.size
        if self._hopeless and game.move_number <= self._hopeless[-1]:
            self._hopeless.clear()  # moves were taken back, or another game
        # Never in the opening (move 30 on 19x19, in proportion on smaller boards); a set-up position counts
        # its stones as moves.
        progress = max(game.move_number, sum(1 for c in game.board.colors if c != EMPTY))
        opening = progress < max(6, round(30 * n * n / 361))
        winrate = self.player.winrate()
        # Heavy playouts from both sides (30 ms on 9x9, 0.4 s on 19x19): only where a verdict may follow, in a
        # one-sided game, after a pass, late in the game, on a board settled as it stands, or for a player that
        # reports no win rate.
        wanted = (winrate is None or not 0.15 <= winrate <= 0.85 or game.consecutive_passes >= 1
                  or move is None or progress >= n * n // 2 or not open_points(game.board))
        own = _ownership(game) if wanted and not opening else None
        if own is not None:
            margin = _margin(game, own, color)
            # Both judges must agree: the player's own search (when it reports a win rate) and the expected
            # margin of heavy playouts (alone, it misjudges open positions; measured against GNU Go, resigning
            # on the margin alone threw away games the search still thought playable).
            if winrate is not None:
                lost = winrate < RESIGN_WINRATE and margin < -max(3.0, 0.04 * n * n)
            else:
                lost = margin < -0.15 * n * n
            if lost and self._may_resign(game, color, margin):
                self._hopeless.append(game.move_number)
                if len(self._hopeless) >= self.patience:
                    return Decision("resign", note=f"lost beyond doubt (expected margin {margin:+.1f})",
                                    say=f"{self.name} resigns: behind by about {round(-margin)} points with no "
                                        "open fight")
            else:
                self._hopeless.clear()
        if game.consecutive_passes >= 1:
            held = self._play_on(game, color, move, own)
            if held is not None:
                return held
        if move is None or own is None:
            return Decision("pass") if move is None else Decision("play", move)
        dead = _dead(game, own)
        if self._settled(game, color, dead, own):
            # Passing gives nothing away. The first pass waits for a count that wins (and a search, where there is
            # one, that does not see the game lost); after the opponent's pass, or for the beginner, whose light
            # playouts give no win rate, a move gains nothing either way.
            wins = _count_margin(game, color, dead) > 0 and (winrate is None or winrate >= 0.5)
            if wins or winrate is None or game.consecutive_passes >= 1:
                return Decision("pass", note="every point is settled: a move gains nothing")
        if game.consecutive_passes >= 1 and self._may_end(game, color, dead) and _count_margin(game, color, dead) > 0:
            return Decision("pass", note="the count with the dead stones off wins: a pass answers the pass")
        return Decision("play", move)

    def _may_resign(self, game: Game, color: int, margin: float) -> bool:
        """Whether a hopeless verdict (expected ``margin`` for ``color``) may count towards resigning now: not in a
        handicap game the seat gives before the board is half full, nor while the deficit is within what the
        stones gave (``HANDICAP_STONE_POINTS`` each); not before move ``TEACHING_RESIGN_MOVE`` (19x19, in
        proportion on smaller boards; a set-up position counts its stones as moves) at a teaching level; never
        while a capturing race is open (a fight that may still turn the count)."""
        n = game.size
        stones = sum(1 for c in game.board.colors if c != EMPTY)
        if (self.level in TEACHING_LEVELS
                and max(game.move_number, stones) < round(TEACHING_RESIGN_MOVE * n * n / 361)):
            return False
        gives = color == WHITE and game.handicap >= 2
        if gives and (2 * stones < n * n or -margin <= HANDICAP_STONE_POINTS * game.handicap):
            return False
        return not open_races(game.board)

    def _play_on(self, game: Game, color: int, move: int | None, own: list[float] | None) -> Decision | None:
        """After the opponent's pass: the move to play instead of passing, or None when a pass may answer.

        Every level plays its move on while a capturing race is open (``rules.borders.open_races``: the count
        may read it settled, wrongly); a teaching level (``TEACHING_LEVELS``) also while a border is open
        (``rules.borders.open_borders``, the dead stones of the playouts ``own`` off), and picks a point there
        itself when its search would pass: passing early is a beginner's mistake, and the lesson is to see the
        board finished. The decision says where (``Decision.say``)."""
        teaching = self.level in TEACHING_LEVELS
        if move is None and not teaching:
            return None  # its search passes: the strong level may pass as the rules allow
        races = open_races(game.board)
        borders: list[frozenset[int]] = []
        if teaching:
            borders = open_borders(game.board, _dead(game, own) if own is not None else frozenset())
        if not races and not borders:
            return None
        point = move
        spots = set().union(*borders, *(r.moves for r in races))
        if teaching and (move is None or move not in spots):
            point = _open_move(game, color, borders, races)
            if point is None:
                point = move
        if point is None:
            return None
        return Decision("play", point, note="a border or a capturing race is open: play goes on after the pass",
                        say=_open_words(self.name, game, borders, races))

    def _may_end(self, game: Game, color: int, dead: frozenset[int]) -> bool:
        """True when ending play now leaves nothing undone: the player is not capturing stones it claimed dead
        before play resumed, and the ruleset does not count the opponent's ``dead`` stones as they stand
        (Tromp-Taylor counts every stone on the board: they must be captured first)."""
        must = getattr(self.player, "must_capture", None)
        if must is not None and must(game, color):
            return False
        if getattr(game.rules, "dead_stones", "agreement") == "none":
            colors = game.board.colors
            opp = opponent(color)
            if any(colors[p] == opp for p in dead):
                return False
        return True

    def _settled(self, game: Game, color: int, dead: frozenset[int], own: list[float]) -> bool:
        """True when passing gives nothing away: with the ``dead`` stones off, every empty point is one side's
        territory or a seki point (``rules.scoring.settlement``), and each territory point belongs to one side in
        at least 80% of the playouts unless its region is closed (too small for an invader to live in: a wide
        open area bordered by one colour is no territory yet); the opponent's last move needs no answer (it is not
        a stone inside our area, outside a closed region, that the pass would let it play on from: a fresh invasion
        with room to live; one in a closed region is hopeless, and answering it only fills our own territory); none
        of our living chains is in atari; and play may end (:meth:`_may_end`)."""
        board = game.board
        found = settlement(board, dead)
        if not found.settled:
            return False
        if any(c == EMPTY and p not in found.closed and p not in found.seki and abs(own[p]) < 0.8
               for p, c in enumerate(board.colors)):
            return False
        last = game.moves[-1] if game.moves else None
        if (last is not None and last.color != color and last.point is not None and last.point in dead
                and last.point not in found.closed):
            return False
        if any(ch.color == color and len(ch.libs) <= 1 and ch.stones[0] not in dead for ch in board.chains()):
            return False
        return self._may_end(game, color, dead)

    # ------------------------------------------------------------------------------------ scoring
    def review(self, game: Game) -> Review:
        """Judge the marking of ``game`` (in the scoring phase): accept it when the player's own dead stones
        agree with it, or when every chain where they differ is uncertain in the playouts; otherwise dispute
        the chains the player is sure about, with a message naming them ("keima thinks D4 is alive ...")."""
        marked = frozenset(game.dead)
        mine = self.player.dead_stones(game)
        if mine == marked:
            return Review(True, dead=mine)
        own = _ownership(game) if self.player.manners else None
        opinions: list[Opinion] = []
        for chain in game.board.chains():
            stones = tuple(sorted(chain.stones))
            first = stones[0]
            if (first in mine) == (first in marked):
                continue
            thinks: Literal["alive", "dead"] = "dead" if first in mine else "alive"
            share = None
            if own is not None:
                sign = 1.0 if chain.color == BLACK else -1.0
                alive_share = (1.0 + sign * sum(own[s] for s in stones) / len(stones)) / 2.0
                share = alive_share if thinks == "alive" else 1.0 - alive_share
                if share < SURE_SHARE:
                    continue  # the playouts do not contradict the marking here
            opinions.append(Opinion(stones, thinks, share))
        if not opinions:
            return Review(True, dead=mine)
        parts = []
        for o in opinions:
            where = _point_name(game, o.stones[0])
            why = f" (it {'lives' if o.thinks == 'alive' else 'dies'} in {round(100 * o.share)}% of its playouts)" \
                if o.share is not None else ""
            parts.append(f"{where} is {o.thinks}{why}")
        message = f"{self.name} thinks " + "; ".join(parts) + ": play resumes to settle it on the board"
        return Review(False, tuple(opinions), message, mine)

    def propose_dead(self, game: Game) -> frozenset[int]:
        """The stones the player calls dead in ``game``'s position."""
        return self.player.dead_stones(game)

    # ------------------------------------------------------------------------------------ undo
    @staticmethod
    def answers_undo(game: Game, color: int) -> bool:
        """Whether the computer grants its opponent's undo request: always (a computer bears no grudge)."""
        return True

    def close(self) -> None:
        """Release the player."""
        self.player.close()


# ---------------------------------------------------------------------------------------------- answers
class Table(Protocol):
    """What a seat's answer is carried out on: a :class:`~keima.rules.game.Game` itself, or a front end's holder
    of one (the web server's game session). Each method raises when the game refuses the change."""

    def play(self, move: int | None, color: int, *, allow_out_of_turn: bool = False) -> object:
        """Play ``move`` (None: a pass) for ``color``."""
        ...

    def resign(self, color: int) -> object:
        """``color`` resigns."""
        ...

    def forfeit(self, color: int, reason: str) -> object:
        """``color`` forfeits, for ``reason``."""
        ...

    def accept(self, color: int) -> object:
        """``color`` accepts the dead-stone marking."""
        ...

    def resume(self, color: int) -> object:
        """``color`` disputes the marking: play resumes."""
        ...


def apply_answer(table: Table, color: int, answer: Decision | Review, *, out_of_turn: bool = False) -> None:
    """Carry out the seat's ``answer`` for ``color`` on ``table``: a decision's move or pass (``out_of_turn``: as
    GTP's ``genmove`` may ask, for the side not to move), resignation or forfeit (its note is the reason); a review's
    acceptance of the marking, or the resumption of play that settles a dispute on the board. Raises what the table
    raises (``GameError``, ``IllegalMove``, or the front end's own error); a seat's moves are legal, so that is a
    game that changed meanwhile."""
    if isinstance(answer, Review):
        if answer.accept:
            table.accept(color)
        else:
            table.resume(color)
    elif answer.action == "forfeit":
        table.forfeit(color, answer.note or "")
    elif answer.action == "resign":
        table.resign(color)
    else:
        table.play(answer.point if answer.action == "play" else None, color, allow_out_of_turn=out_of_turn)


# ---------------------------------------------------------------------------------------------- helpers
def _open_move(game: Game, color: int, borders: list[frozenset[int]], races: list[Race]) -> int | None:
    """A legal point for ``color`` that takes part in an open capturing race (a capture first, then an atari,
    then the most liberties kept) or, with no such point, closes an open border (a point touching both colours
    first, then one touching its own, then the most liberties kept); never an own eye or a self-atari. None when
    there is none."""
    board = game.board
    colors = board.colors

    def good(p: int) -> bool:
        if colors[p] != EMPTY or game.legality(p, color) is not None:
            return False
        effect = play_effect(board, p, color)
        return not effect.own_eye and (effect.captured > 0 or effect.liberties >= 2)

    race_points = sorted(p for p in set().union(*(r.moves for r in races)) if good(p))
    if race_points:
        def race_key(p: int) -> tuple[int, int, int, int]:
            e = play_effect(board, p, color)
            return (e.captured, e.ataris, e.liberties, -p)

        return max(race_points, key=race_key)
    border_points = sorted(p for p in set().union(*borders) if good(p))
    if not border_points:
        return None

    def border_key(p: int) -> tuple[bool, bool, int, int]:
        near = {colors[q] for q in board.nbrs[p]}
        return (opponent(color) in near and color in near, color in near, play_effect(board, p, color).liberties, -p)

    return max(border_points, key=border_key)


def _open_words(name: str, game: Game, borders: list[frozenset[int]], races: list[Race]) -> str:
    """What the page is told when the seat plays on after a pass: "keima plays on: the border is open at E5, C3;
    a capturing race is open at D4" (at most three points each)."""
    parts = []
    if borders:
        parts.append("the border is open at " + ", ".join(_point_name(game, _middle(game, b)) for b in borders[:3]))
    if races:
        named = list(dict.fromkeys(_point_name(game, r.point) for r in races))  # one group in several races: once
        parts.append("a capturing race is open at " + ", ".join(named[:3]))
    return f"{name} plays on: " + "; ".join(parts)


def _middle(game: Game, region: frozenset[int]) -> int:
    """The point that names an open border: of its points touching at most one colour, the nearest to the
    region's middle."""
    board = game.board
    n = game.size
    loose = [p for p in region if len({board.colors[q] for q in board.nbrs[p]} - {EMPTY}) < 2] or list(region)
    cx = sum(p % n for p in region) / len(region)
    cy = sum(p // n for p in region) / len(region)
    return min(sorted(loose), key=lambda p: (p % n - cx) ** 2 + (p // n - cy) ** 2)


def _ownership(game: Game) -> list[float]:
    from keima.ai import estimate_ownership

    return estimate_ownership(game)


def _dead(game: Game, own: list[float]) -> frozenset[int]:
    """The stones the marking would remove, read from the playouts' ownership ``own`` (``keima.ai.estimate``)."""
    import numpy as np

    from keima.ai.estimate import dead_from_ownership

    return dead_from_ownership(game, np.asarray(own))


def _count_margin(game: Game, color: int, dead: frozenset[int]) -> float:
    """The count's margin for ``color`` with ``dead`` off the board (none where the ruleset counts every stone as
    it stands); 0 when it cannot be counted now."""
    try:
        margin = float(game.score(dead=() if getattr(game.rules, "dead_stones", "agreement") == "none"
                                  else dead).margin)
    except Exception:  # a count that cannot be made now: nothing to gain by passing
        return 0.0
    return margin if color == BLACK else -margin


def _margin(game: Game, own: list[float], color: int) -> float:
    """Expected area margin for ``color`` from mean ownership, komi (and handicap bonus) included."""
    from keima.ai.searcher import effective_komi

    black = sum(own) - effective_komi(game)
    return black if color == BLACK else -black


#: The prefix that names a GTP engine where a keima level would stand (``"engine:GNU Go"``).
ENGINE_PREFIX = "engine:"


def engine_of(opponent_name: str | None) -> str | None:
    """The engine's name when ``opponent_name`` names a GTP engine (``"engine:NAME"``), else None."""
    if opponent_name is not None and opponent_name.startswith(ENGINE_PREFIX):
        return opponent_name[len(ENGINE_PREFIX):]
    return None


def make_seat(opponent_name: str, engines: dict[str, str] | None = None, *, seed: int | None = None,
              timeout: float = 30.0) -> Seat:
    """Return a seat for ``opponent_name``: ``"engine:NAME"`` for the GTP engine named ``NAME`` in ``engines``
    (name -> command line), otherwise a keima level (``keima.ai.LEVELS`` or 1..3).

    Raises ``ValueError`` for an unknown level or engine."""
    name = engine_of(opponent_name)
    if name is not None:
        if not engines or name not in engines:
            raise ValueError(f"no engine named {name!r} at this table")
        return Seat(EnginePlayer(name, engines[name], timeout=timeout))
    return Seat(KeimaPlayer(opponent_name, seed=seed), seed=seed or 0)


def warm_up() -> None:
    """Start compiling keima's search (numba, cached on disk after the first time) in the background, once per
    process (``keima.ai.warmup``); returns at once, never raises. Until it is done, keima's bot answers with its
    quick moves (``keima.ai.quick``) instead of waiting."""
    from keima.ai.warmup import DEFAULT

    DEFAULT.start()


def is_warm() -> bool:
    """True once keima's search is compiled in this process."""
    from keima.ai.warmup import DEFAULT

    return DEFAULT.ready()
