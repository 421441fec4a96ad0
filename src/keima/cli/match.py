"""``keima match``: two GTP engines play each other, keima refereeing and counting."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from typing import TYPE_CHECKING

from keima.cli import Subparsers, UsageError, add_command, add_game_options, check_game_options

if TYPE_CHECKING:
    from keima.match import GameReport, PlayerFactory


def register(subparsers: Subparsers) -> None:
    """Add the ``match`` sub-command."""
    p = add_command(
        subparsers,
        "match",
        "referee games between two GTP engines",
        "Play GTP engines against each other under a keima ruleset: keima checks every move, forfeits an "
        "engine that plays illegally, crashes or runs out of time, settles dead stones with the engines' "
        "final_status_list, and counts. Colours alternate from game to game. ENGINE is a command line "
        "(run without a shell) or 'keima', 'keima:LEVEL' or 'keima:policy' for keima's own engine in-process.",
        run,
    )
    p.add_argument("--black", required=True, metavar="ENGINE", help="engine playing Black in game 1")
    p.add_argument("--white", required=True, metavar="ENGINE", help="engine playing White in game 1")
    add_game_options(p)
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--sgf", metavar="DIR", default=None, help="write one SGF file per game into DIR")
    p.add_argument("--move-time", type=float, default=30.0,
                   help="seconds allowed for each engine reply, genmove included (default 30)")
    p.add_argument("--keima-seconds", type=float, default=1.0,
                   help="thinking time per move for keima's in-process engine (default 1)")
    p.add_argument("--max-moves", type=int, default=None,
                   help="moves after which a game ends with no result (default 4 x size x size)")
    p.add_argument("--seed", type=int, default=0, help="random seed for keima's engine (default 0)")
    p.add_argument("--handicap", type=int, default=0, metavar="N",
                   help="N handicap stones (2 to 9) for Black on the fixed points, as GTP fixed_handicap, with the "
                        "ruleset's handicap komi unless --komi is given; colours then stay as given in every game")


def _factory(option: str, spec: str, args: argparse.Namespace, index: int) -> tuple[str, PlayerFactory]:
    """Return (label, factory) for one ENGINE option; raises UsageError for one that cannot work."""
    from keima.ai import level_name
    from keima.ai.standin import PolicyPlayer
    from keima.seat import ComputerPlayer, EnginePlayer, GeneratorPlayer, KeimaPlayer

    text = spec.strip()
    if text == "keima" or text.startswith("keima:"):
        level = text.partition(":")[2] or "strong"
        if level != "policy":
            try:
                level_name(level)
            except ValueError as exc:
                raise UsageError(f"{option}: {exc}") from None
        counter = {"game": 0}

        def make_keima() -> ComputerPlayer:
            counter["game"] += 1
            seed = args.seed + 1000 * index + counter["game"]
            if level == "policy":
                return GeneratorPlayer(PolicyPlayer(seed), name=text)
            return KeimaPlayer(level, seed)

        return text, make_keima
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"{option}: cannot read the command {spec!r}: {exc}") from None
    if not argv:
        raise UsageError(f"{option}: empty engine command")
    program = argv[0]
    if shutil.which(program) is None and not (os.path.sep in program and os.access(program, os.X_OK)):
        raise UsageError(f"{option}: cannot find the program {program!r} (give a path, or put it on PATH)")

    label = os.path.basename(program)

    def make_engine() -> ComputerPlayer:
        return EnginePlayer(label, argv)

    return label, make_engine


def run(args: argparse.Namespace) -> int:
    """Play the match; prints the results table. Returns 1 when an engine crashed, else 0."""
    from keima.match import Referee, results_table, run_match
    from keima.rules.ruleset import RulesError

    check_game_options(args)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if not args.move_time > 0:
        raise UsageError(f"--move-time must be positive, not {args.move_time}")
    if not args.keima_seconds > 0:
        raise UsageError(f"--keima-seconds must be positive, not {args.keima_seconds}")
    if args.handicap and not 2 <= args.handicap <= 9:
        raise UsageError(f"--handicap must be from 2 to 9 stones, not {args.handicap}")
    if args.max_moves is not None and args.max_moves < 2:
        raise UsageError(f"--max-moves must be at least 2, not {args.max_moves}")
    try:
        referee = Referee(size=args.size, rules=args.rules, komi=args.komi, move_timeout=args.move_time,
                          seconds=args.keima_seconds, max_moves=args.max_moves, handicap=args.handicap,
                          log=lambda message: print(message, file=sys.stderr))
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    first = _factory("--black", args.black, args, 1)
    second = _factory("--white", args.white, args, 2)
    if first[0] == second[0]:
        first, second = (f"{first[0]}#1", first[1]), (f"{second[0]}#2", second[1])
    if args.sgf is not None:
        try:
            os.makedirs(args.sgf, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--sgf: cannot create {args.sgf!r}: {exc.strerror or exc}") from None

    def progress(report: GameReport) -> None:
        note = f" - {report.reason}" if report.reason else ""
        print(f"game {report.number}: {report.black} (B) vs {report.white} (W): {report.result}{note}",
              file=sys.stderr)

    reports = run_match(first, second, referee, args.games, args.sgf, on_game=progress, alternate=not args.handicap)
    print(results_table(reports))
    return 1 if any(r.crashed for r in reports) else 0
