"""The ``keima`` command line.

Each sub-command lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds an ``argparse`` sub-parser whose
``func`` default is called with the parsed namespace and returns an exit code.
Modules are found by name so that a new sub-command needs no edit here.

Exit codes: 0 success, 1 runtime failure (for example an engine crashed), 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from keima.rules.coords import MAX_SIZE, MIN_SIZE

if TYPE_CHECKING:
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # argparse's class takes no type parameter at run time
    Subparsers = argparse._SubParsersAction


class UsageError(Exception):
    """Bad input from the user; ``main`` prints it and exits with code 2."""


def add_command(
    subparsers: Subparsers, name: str, summary: str, description: str, run: Callable[[argparse.Namespace], int]
) -> argparse.ArgumentParser:
    """Add the sub-command ``name`` (``summary`` in ``keima --help``, ``description`` in its own help) whose
    parsed options go to ``run``; returns its parser, for the options."""
    parser = subparsers.add_parser(name, help=summary, description=description)
    parser.set_defaults(func=run)
    return parser


def add_game_options(parser: argparse.ArgumentParser, initial: bool = False) -> None:
    """Add ``--size``, ``--rules`` and ``--komi``, the options of every command that starts games (``initial``:
    the values a controller may change later). Check them with :func:`check_game_options`."""
    first = "initial " if initial else ""
    sizes = f"{MIN_SIZE}..{MAX_SIZE}"
    parser.add_argument("--size", type=int, default=19, help=f"{first}board size, {sizes} (default 19)")
    parser.add_argument("--rules", default="french", help=f"{first}ruleset preset (default french)")
    parser.add_argument("--komi", type=float, default=None, help=f"{first}komi (default: the ruleset's)")


def check_game_options(args: argparse.Namespace) -> None:
    """Raise :class:`UsageError` for a ``--size`` keima does not play on or a ``--komi`` that is not finite
    (``--rules`` is checked where the ruleset is built, which names the presets)."""
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise UsageError(f"--size must be from {MIN_SIZE} to {MAX_SIZE}, not {args.size}")
    if args.komi is not None and not math.isfinite(args.komi):
        raise UsageError(f"--komi must be a finite number, not {args.komi}")


def error_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when the message is empty), for one-line errors."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def number_text(value: float) -> str:
    """Return a count or komi as the command line prints it: ``7.5``, ``45``, ``-3``."""
    return f"{value:g}"


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every sub-command module registered."""
    parser = argparse.ArgumentParser(
        prog="keima",
        description="Go under the French rules: play, score, referee and serve games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``argv``, or this process's own when None); returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # Only a process's own command line may start the process again (``keima serve`` on jemalloc): a program
    # or a test that calls main() with its own arguments keeps its process.
    args.own_process = argv is None
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except UsageError as exc:
        print(f"keima {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
