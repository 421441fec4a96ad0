"""``keima gtp``: keima as a GTP version 2 engine on standard input and output."""

from __future__ import annotations

import argparse
import sys
from typing import IO

from keima.cli import UsageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``gtp`` sub-command."""
    p = subparsers.add_parser(
        "gtp",
        help="run keima as a GTP engine on stdin/stdout",
        description="Speak GTP version 2 on standard input and output (see docs/gtp.md for every command).",
    )
    p.add_argument("--size", type=int, default=19, help="initial board size, 2..25 (default 19)")
    p.add_argument("--rules", default="french", help="initial ruleset preset (default french)")
    p.add_argument("--komi", type=float, default=None, help="initial komi (default: the ruleset's)")
    p.add_argument("--level", default=None, help="bot level (beginner, intermediate, strong or 1..3)")
    p.add_argument("--policy", action="store_true", help="play the simple stand-in policy instead of the bot")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="thinking time per move when the controller sends no time settings (default 1)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.set_defaults(func=run)


def build_engine(args: argparse.Namespace) -> object:
    """Return the :class:`~keima.gtp.engine.GtpEngine` the options describe; raises UsageError for bad ones."""
    from keima.gtp.engine import MAX_SIZE, MIN_SIZE, GtpEngine, default_player
    from keima.gtp.policy import PolicyPlayer
    from keima.rules.ruleset import RulesError

    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise UsageError(f"--size must be from {MIN_SIZE} to {MAX_SIZE}, not {args.size}")
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


def serve(engine: object, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer GTP lines from ``stdin`` on ``stdout`` until ``quit`` or end of input; returns 0."""
    from keima.gtp.engine import GtpEngine

    assert isinstance(engine, GtpEngine)
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
    return serve(engine, sys.stdin.buffer, sys.stdout.buffer)
