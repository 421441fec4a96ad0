"""``keima check``: replay and count a whole SGF archive on every local core (or on a cluster's workers)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from keima.cli import Subparsers, UsageError, add_command


def register(subparsers: Subparsers) -> None:
    """Add the ``check`` sub-command."""
    p = add_command(
        subparsers,
        "check",
        "replay and count a whole SGF archive on all cores",
        "Replay every record of FILES and folders (searched for *.sgf) through the referee and count its final "
        "position; print, for each file, the result in the record, keima's count and the illegal move if any, "
        "then a summary. Runs on every local core (--jobs), or on a cluster's workers (--redis).",
        run,
    )
    p.add_argument("paths", nargs="+", metavar="FILE|DIR", help="SGF files, or folders searched recursively")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="processes (default: every core)")
    p.add_argument("--rules", default=None, metavar="NAME", help="replay and count under these rules")
    p.add_argument("--json", action="store_true", help="one JSON object per file, then the summary, as JSON lines")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="run on the workers of a keima cluster (keima worker) instead of local processes")


def find_files(paths: Iterable[str]) -> list[Path]:
    """The SGF files named, and those under the folders named (sorted). Raises UsageError for a missing path."""
    out: list[Path] = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() == ".sgf"))
        elif p.is_file():
            out.append(p)
        else:
            raise UsageError(f"no such file or folder: {name}")
    return out


def _check_path(args: tuple[str, str | None]) -> dict[str, Any]:
    from keima.archive import check_record

    return check_record(args[0], Path(args[0]), args[1])


def _local(files: list[Path], rules: str | None, jobs: int) -> Iterator[dict[str, Any]]:
    items = [(str(f), rules) for f in files]
    if jobs == 1:
        yield from map(_check_path, items)
        return
    # The first record of the archive is checked here before forking: the estimator's compiled code is then
    # loaded once and inherited by every process instead of loaded by each.
    first = _check_path(items[0])
    yield first
    items = items[1:]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_check_path, items, chunksize=max(1, min(32, len(items) // (jobs * 8) or 1)))


def _remote(files: list[Path], rules: str | None, url: str) -> Iterator[dict[str, Any]]:
    import asyncio

    from keima.server.live.jobs import QUEUE, redis_settings

    async def main() -> list[dict[str, Any]]:
        from arq import create_pool

        pool = await create_pool(redis_settings(url), default_queue_name=QUEUE)
        try:
            jobs = [await pool.enqueue_job("keima_check", str(f), f.read_bytes(), rules) for f in files]
            return [await job.result(timeout=600, poll_delay=0.05) for job in jobs if job is not None]
        finally:
            await pool.aclose()

    yield from asyncio.run(main())


def _row(r: dict[str, Any], width: int) -> str:
    return (f"{r['file'][-width:]:<{width}}  {r['recorded'] or '-':<10} {r['count'] or '-':<10} "
            f"{r['status']:<10} {r['illegal'] or ''}")


def run(args: argparse.Namespace) -> int:
    """Check the archive; returns 0 when every record replays, 1 when some does not; UsageError for bad
    arguments."""
    files = find_files(args.paths)
    if not files:
        raise UsageError("no SGF file found")
    jobs = args.jobs or os.cpu_count() or 1
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    if args.rules is not None:
        from keima.rules.ruleset import RulesError, get_ruleset

        try:
            get_ruleset(args.rules)
        except RulesError as exc:
            raise UsageError(f"--rules: {exc}") from None
    tty = sys.stderr.isatty() and not args.json
    width = min(60, max(len(str(f)) for f in files))
    t0 = time.perf_counter()
    results = _remote(files, args.rules, args.redis) if args.redis else _local(files, args.rules, jobs)
    counts: dict[str, int] = {"ok": 0, "differs": 0, "illegal": 0, "unreadable": 0}
    if not args.json:
        print(f"{'file':<{width}}  {'record':<10} {'keima':<10} {'status':<10} illegal move / reason")
    for i, r in enumerate(results, 1):
        counts[r["status"]] = counts.get(r["status"], 0) + 1
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
        else:
            print(_row(r, width))
        if tty:
            done = int(30 * i / len(files))
            print(f"\r[{'#' * done}{'.' * (30 - done)}] {i}/{len(files)}", end="", file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    took = time.perf_counter() - t0
    summary = {"files": len(files), **counts, "seconds": round(took, 3),
               "files_per_s": round(len(files) / took, 1) if took else None,
               "jobs": "redis" if args.redis else jobs}
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"{len(files)} files: {counts['ok']} agree, {counts['differs']} differ, {counts['illegal']} with an "
              f"illegal move, {counts['unreadable']} unreadable; {took:.2f} s ({summary['files_per_s']} files/s, "
              f"{summary['jobs']} {'processes' if not args.redis else ''})".rstrip())
    return 0 if counts["illegal"] == 0 and counts["unreadable"] == 0 else 1
