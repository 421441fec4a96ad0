"""``keima worker``: run bot moves and dead-stone estimates for a cluster of ``keima serve --redis`` processes."""

from __future__ import annotations

import argparse
import os
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``worker`` sub-command."""
    p = subparsers.add_parser(
        "worker",
        help="run bot moves and estimates for a cluster of web processes (docs/deploy.md)",
        description="Take bot moves and dead-stone estimates from the Redis job queue of a keima cluster and "
        "store their results in its database (docs/deploy.md).",
    )
    p.add_argument("--db", default=os.environ.get("KEIMA_DB"), metavar="URL",
                   help="the cluster's database URL (PostgreSQL; env KEIMA_DB)")
    p.add_argument("--redis", default=os.environ.get("KEIMA_REDIS"), metavar="URL",
                   help="the cluster's Redis, redis://HOST:PORT/N (env KEIMA_REDIS)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="searches at a time in this process (default 1: one core)")
    p.add_argument("--nice", type=int, default=int(os.environ.get("KEIMA_WORKER_NICE", "10")), metavar="N",
                   help="lower this process's CPU priority by N (0-19, default 10; env KEIMA_WORKER_NICE): on a "
                   "host shared with web processes, searches then yield to the people waiting for an answer")
    p.add_argument("--smtp", default=os.environ.get("KEIMA_SMTP_URL"), metavar="URL",
                   help="also send the notifications' emails from this worker, through this SMTP server (as keima "
                   "serve --smtp: smtp://user:password@host:587?from=ADDRESS or smtps://...; env KEIMA_SMTP_URL)")
    p.add_argument("--public-url", default=os.environ.get("KEIMA_PUBLIC_URL"), metavar="URL",
                   help="the server's address as players reach it, for the emails' links (env KEIMA_PUBLIC_URL)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the worker until SIGINT/SIGTERM. Returns the exit code."""
    import asyncio
    import logging
    import time

    from redis.exceptions import RedisError

    from keima.cli import UsageError, error_line
    from keima.cli.serve import normalise_url
    from keima.server import timesource

    try:
        timesource.install_from_environment()  # the web processes' clock (docs/server.md, *Tests*)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not args.db:
        raise UsageError("--db URL is required (the database of the web processes)")
    if not args.redis:
        raise UsageError("--redis URL is required (the Redis of the web processes)")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if not 0 <= args.nice <= 19:
        raise UsageError(f"--nice must be 0 to 19, not {args.nice}")
    if args.smtp:
        from keima.server.notifications.mailer import Smtp

        try:
            Smtp.parse(args.smtp)
        except ValueError as exc:
            raise UsageError(f"--smtp: {exc}") from None
    if args.nice:
        # Before any thread starts: Linux keeps a priority per thread, and new threads inherit the caller's.
        os.nice(args.nice)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    url = normalise_url(args.db)
    from keima.server.storage.store import prepare_database
    from keima.server.worker import make_worker

    try:
        prepare_database(url)
        make_worker(url, args.redis, jobs=args.jobs, warm=False)  # checks the Redis URL
    except Exception as exc:
        print(f"keima worker: cannot start: {error_line(exc)}", file=sys.stderr)
        return 1
    mail = "" if not args.smtp else "; sending the notifications' emails"
    print(f"keima worker: taking jobs from {args.redis} ({args.jobs} at a time{mail}); Ctrl-C stops", flush=True)
    warm = True
    while True:
        # arq's worker stops when its Redis connection fails: start a new one (the queued jobs are in Redis, or
        # queued again by the web processes' sweep when Redis lost them).
        asyncio.set_event_loop(asyncio.new_event_loop())
        worker = make_worker(url, args.redis, jobs=args.jobs, warm=warm, smtp_url=args.smtp,
                             public_url=args.public_url)
        warm = False  # the search is compiled in this process now
        try:
            worker.run()
            return 0  # stopped by SIGINT/SIGTERM
        except (OSError, RedisError) as exc:
            print(f"keima worker: lost Redis ({type(exc).__name__}); reconnecting", file=sys.stderr, flush=True)
            time.sleep(1.0)
