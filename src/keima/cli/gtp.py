"""``keima gtp``: keima as a GTP version 2 engine on standard input and output."""

from __future__ import annotations

import argparse
import sys
from typing import IO, TYPE_CHECKING

from keima.cli import Subparsers, UsageError, add_command, add_game_options, check_game_options

if TYPE_CHECKING:
    from keima.gtp_engine import GtpEngine


def register(subparsers: Subparsers) -> None:
    """Add the ``gtp`` sub-command."""
    p = add_command(
        subparsers,
        "gtp",
        "run keima as a GTP engine on stdin/stdout",
        "Speak GTP version 2 on standard input and output (see docs/gtp.md for every command).",
        run,
    )
    add_game_options(p, initial=True)
    p.add_argument("--level", default=None,
                   help="bot level (beginner, intermediate, strong or 1..3; 25k, 20k, 15k, 12k: the ranked levels)")
    p.add_argument("--policy", action="store_true", help="play the simple stand-in policy instead of the bot")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="thinking time per move when the controller sends no time settings (default 1)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def build_engine(args: argparse.Namespace) -> GtpEngine:
    """Return the :class:`~keima.gtp_engine.GtpEngine` the options describe; raises UsageError for bad ones."""
    from keima.ai.standin import PolicyPlayer
    from keima.gtp_engine import GtpEngine, default_player
    from keima.rules.ruleset import RulesError

    check_game_options(args)
    if not args.seconds > 0:
        raise UsageError(f"--seconds must be positive, not {args.seconds}")
    try:
        player = PolicyPlayer(args.seed) if args.policy else default_player(args.level, args.seed)
    except ValueError as exc:
        raise UsageError(f"--level: {exc}") from None
    try:
        return GtpEngine(player, size=args.size, rules=args.rules, komi=args.komi, seconds=args.seconds,
                         seed=args.seed)
    except RulesError as exc:
        raise UsageError(str(exc)) from None


def serve(engine: GtpEngine, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer GTP lines from ``stdin`` on ``stdout`` until ``quit`` or end of input; returns 0."""
    for raw in iter(stdin.readline, b""):
        # Undecodable bytes must not stop the engine: they become U+FFFD and fail as unknown input.
        reply, quit_ = engine.handle_line(raw.decode("utf-8", errors="replace"))
        if reply is not None:
            try:
                stdout.write(reply.encode("utf-8"))
                stdout.flush()
            except BrokenPipeError:
                return 0
        if quit_:
            break
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the engine on the process's standard streams."""
    engine = build_engine(args)
    if not args.policy:
        from keima.seat import warm_up

        # Compile the bot in the background: a genmove that comes before it is done gets the quick move
        # (keima.ai.quick), or waits for it only while it loads from numba's cache (a second or so).
        warm_up()
    return serve(engine, sys.stdin.buffer, sys.stdout.buffer)
