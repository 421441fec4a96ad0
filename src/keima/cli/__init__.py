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
import pkgutil
import sys
from collections.abc import Sequence


class UsageError(Exception):
    """Bad input from the user; ``main`` prints it and exits with code 2."""


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
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
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
