"""``keima serve``: run the web server (browser UI + JSON/WebSocket API) on uvicorn."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import webbrowser
from typing import Any

from keima.cli import allocator


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` sub-command."""
    p = subparsers.add_parser(
        "serve",
        help="run the web server: play in the browser",
        description="Serve the browser UI and the JSON + WebSocket API (docs/web-api.md, /openapi.json).",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 picks a free one)")
    p.add_argument(
        "--db",
        default=os.environ.get("KEIMA_DB"),
        metavar="URL",
        help="SQLAlchemy database URL (default: env KEIMA_DB, else SQLite in the user's data folder; "
        "PostgreSQL: postgresql+psycopg://user:password@host/dbname)",
    )
    p.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="offer a GTP engine as an opponent (repeatable), e.g. "
        "'GNU Go=/usr/games/gnugo --mode gtp --level 10'; keima referees its games under the game's rules",
    )
    p.add_argument(
        "--redis",
        default=os.environ.get("KEIMA_REDIS"),
        metavar="URL",
        help="cluster mode (docs/deploy.md): Redis at redis://HOST:PORT/N for live updates between processes and "
        "the bot workers' job queue (run `keima worker`); needs a shared database such as PostgreSQL "
        "(env KEIMA_REDIS)",
    )
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="web processes sharing the port (N > 1 needs --redis)")
    p.add_argument(
        "--durable",
        action="store_true",
        help="flush every commit to the disk before acknowledging it, so that acknowledged moves also survive an "
        "operating-system crash or a power loss (SQLite synchronous=FULL; PostgreSQL synchronous_commit=on). "
        "Without it a killed server process loses nothing, a power cut may lose the last moments",
    )
    p.add_argument(
        "--smtp",
        default=os.environ.get("KEIMA_SMTP_URL"),
        metavar="URL",
        help="send the notifications' emails through this SMTP server: smtp://user:password@host:587?from=ADDRESS "
        "(STARTTLS when offered) or smtps://... (TLS); env KEIMA_SMTP_URL keeps the password off the command line. "
        "Without it, no email: the page's bell only",
    )
    p.add_argument("--public-url", default=os.environ.get("KEIMA_PUBLIC_URL"), metavar="URL",
                   help="the server's address as the players reach it, for the links in emails "
                   "(default: the address it serves on; env KEIMA_PUBLIC_URL)")
    p.add_argument("--allocator", default=os.environ.get("KEIMA_ALLOCATOR", "auto"), choices=allocator.CHOICES,
                   help="the memory allocator: jemalloc gives the memory of games that left back to the system, "
                   "Python's own (pymalloc) keeps most of it; auto (the default) takes jemalloc where it is "
                   "installed (Debian: libjemalloc2) (env KEIMA_ALLOCATOR)")
    p.add_argument("--no-open", action="store_true", help="do not open the browser")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the server and block until it stops (Ctrl-C). Returns the exit code."""
    import socket

    from keima.cli import UsageError, error_line

    choice = getattr(args, "allocator", "auto")
    try:
        allocator.check(choice)
        # First, as it may start this process again; not when a program called main() with its own arguments:
        # its process, its allocator.
        if getattr(args, "own_process", False):
            allocator.adopt(choice)
    except allocator.AllocatorError as exc:
        raise UsageError(f"--allocator: {exc}") from None
    from keima.server import timesource
    from keima.server.app import create_app
    from keima.server.storage.store import default_url

    try:
        start = timesource.install_from_environment()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if start is not None:
        print(f"keima serve: the clock starts at {timesource.now_utc().isoformat(timespec='seconds')} "
              f"({timesource.START_ENV})", file=sys.stderr)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, not {args.port}")
    engines = parse_engines(args.engine)
    redis_url = getattr(args, "redis", None)
    workers = getattr(args, "workers", 1)
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    if workers > 1 and not redis_url:
        raise UsageError("--workers N > 1 needs --redis URL (the processes share live updates through Redis)")
    if redis_url and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--redis: not a Redis URL: {redis_url!r} (expected redis://HOST:PORT/N)")
    if redis_url:
        missing = missing_cluster_modules()
        if missing:
            print(f"keima serve: cluster mode needs `pip install 'keima[cluster]'` (missing: {', '.join(missing)})",
                  file=sys.stderr)
            return 2
    if args.durable:
        # The application opens its engine itself (create_app); the setting reaches it through the environment.
        os.environ["KEIMA_DURABLE"] = "1"
    url = normalise_url(args.db) if args.db else default_url()
    if redis_url and url.startswith("sqlite"):
        print("keima serve: warning: --redis with SQLite: only processes on this machine can share the games",
              file=sys.stderr)
    try:
        from sqlalchemy.engine import make_url

        make_url(url)
    except Exception as exc:
        raise UsageError(f"--db: not a database URL: {url!r} ({exc})") from None
    # Open and migrate the database now, so that a wrong URL or a stopped database server gets one clear line.
    try:
        from keima.server.storage.store import prepare_database

        prepare_database(url)
    except Exception as exc:
        print(f"keima serve: cannot open the database {_redact(url)}: {error_line(exc)}", file=sys.stderr)
        return 2
    if redis_url:
        problem = redis_problem(redis_url)
        if problem is not None:
            print(f"keima serve: cannot reach Redis at {_redact_redis(redis_url)}: {problem}", file=sys.stderr)
            return 2
    # Bind first so that the port (0 = any free one) is known before the URL is printed.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    port = sock.getsockname()[1]
    address = served_address(args.host, port)
    # Threads (the PostgreSQL writer, the bot) and the event loop take turns with the GIL: the default 5 ms switch
    # interval, paid at each of the writer's many hand-offs, made commits wait hundreds of ms under load.
    sys.setswitchinterval(0.0005)
    smtp_url = getattr(args, "smtp", None)
    if smtp_url:
        from keima.server.notifications.mailer import Smtp

        try:
            Smtp.parse(smtp_url)
        except ValueError as exc:
            raise UsageError(f"--smtp: {exc}") from None
    app = create_app(url, redis_url=redis_url, engines=engines, smtp_url=smtp_url,
                     public_url=getattr(args, "public_url", None) or address.rstrip("/"))
    if workers > 1:
        return _serve_forked(app, args, sock, address, url, workers)
    server = _server(app, args.log_level)
    durable = " durable commits;" if args.durable else ""
    print(f"keima: serving on {address} (database {_redact(url)});{durable} Ctrl-C stops", flush=True)
    if not args.no_open and sys.stdout.isatty():
        # Open once the server accepts connections; the browser gets the page at once.
        threading.Timer(1.0, lambda: webbrowser.open(address)).start()
    server.run(sockets=[sock])
    return 0 if server.started else 1


def served_address(host: str, port: int) -> str:
    """The URL ``keima serve`` prints for ``host`` and ``port``: the address it was told to listen on
    (``http://127.0.0.1:8000/``, ``http://[::1]:8000/``), or ``localhost`` for every address of the machine
    (``0.0.0.0``, ``::``), where a browser on this machine reaches it."""
    shown = "localhost" if host in ("0.0.0.0", "::", "") else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _server(app: Any, log_level: str) -> Any:
    """The uvicorn server of one web process."""
    import socket

    import uvicorn

    # No per-message deflate: on the server's one core, compressing every state costs more than the bytes saved.
    config = uvicorn.Config(
        app, log_level=log_level, ws_max_size=64 * 1024, ws_per_message_deflate=False, lifespan="on"
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            # After the application's own start-up (database engine, migrations, the bot's modules): all of
            # that lives as long as the process and is frozen out of the collector's passes with the rest.
            tune_gc()

    return Server(config)


def _serve_forked(app: object, args: argparse.Namespace, sock: object, address: str, url: str, n: int) -> int:
    """Serve with ``n`` processes forked from this one, all accepting on ``sock``; SIGINT/SIGTERM stop them."""
    import signal

    children: list[int] = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:  # a web process
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                allocator.restart_background_thread()
                server = _server(app, args.log_level)
                server.run(sockets=[sock])
                code = 0 if server.started else 1
            finally:
                os._exit(code)
        children.append(pid)
    print(f"keima: serving on {address} with {n} processes (database {_redact(url)}); Ctrl-C stops", flush=True)

    def stop(signum: int, _frame: object) -> None:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    worst = 0
    for pid in children:
        while True:
            try:
                _pid, status = os.waitpid(pid, 0)
                break
            except InterruptedError:
                continue
        worst = max(worst, os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 0)
    return worst


# What cluster mode imports (the optional dependencies ``keima[cluster]``): Redis's client and arq's job queue.
CLUSTER_MODULES = ("redis", "arq")


def missing_cluster_modules() -> list[str]:
    """The modules of the ``cluster`` extra that cannot be imported here (empty when cluster mode can run)."""
    import importlib

    missing = []
    for name in CLUSTER_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def redis_problem(url: str, timeout: float = 3.0) -> str | None:
    """Why the Redis at ``url`` cannot be used (one line: refused, unknown host, timed out, wrong password), or
    None when it answers a PING within ``timeout`` seconds."""
    import redis

    from keima.cli import error_line

    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        client.ping()
    except Exception as exc:  # redis-py's ConnectionError, TimeoutError, AuthenticationError, ResponseError...
        return error_line(exc)
    finally:
        with contextlib.suppress(Exception):
            client.close()
    return None


def parse_engines(specs: list[str]) -> dict[str, str]:
    """Return name -> command for ``--engine NAME=COMMAND`` options. Raises ``UsageError`` for a spec without
    ``=``, an empty name or command, a repeated name, or a command whose program is not found."""
    import shlex
    import shutil

    from keima.cli import UsageError

    out: dict[str, str] = {}
    for spec in specs:
        name, sep, command = spec.partition("=")
        name, command = name.strip(), command.strip()
        if not sep or not name or not command:
            raise UsageError(f"--engine: expected NAME=COMMAND, got {spec!r}")
        if len(name) > 80:
            raise UsageError(f"--engine: the name {name[:20]!r}... is longer than 80 characters")
        if name in out:
            raise UsageError(f"--engine: the name {name!r} is given twice")
        try:
            program = shlex.split(command)[0]
        except (ValueError, IndexError):
            raise UsageError(f"--engine {name}: cannot read the command {command!r}") from None
        if shutil.which(program) is None:
            raise UsageError(f"--engine {name}: program not found: {program}")
        out[name] = command
    return out


def tune_gc(full_every: float = 600.0, young_every: float = 0.1) -> None:
    """Keep the garbage collector's pauses short in a long-running server; call it from the event loop, once the
    application has started.

    A full (generation 2) collection walks every object of every game in memory: with a thousand games it
    stopped the server for a second or two, in the middle of players' moves. Automatic full collections are
    off; one runs every ``full_every`` seconds instead (cycles are rare here, and reference counting frees
    everything else at once, a game leaving memory included). Objects alive now (modules, the application, the
    database engine) are frozen out of all collections.

    The young passes also run by the clock, generations 0 and 1 together every ``young_every`` seconds
    (``keima.server.housekeeping.collect_young_by_clock`` says why); the count thresholds (2,000 and 5) stay as
    a backstop for a burst of allocations.
    """
    import gc

    from keima.server.housekeeping import collect_young_by_clock

    gc.collect()
    gc.freeze()
    gc.set_threshold(2_000, 5, 1_000_000)

    def full() -> None:
        gc.collect()
        schedule()

    def schedule() -> None:
        t = threading.Timer(full_every, full)
        t.daemon = True
        t.start()

    schedule()
    collect_young_by_clock(young_every)


def normalise_url(url: str) -> str:
    """Accept the usual ``postgresql://`` and ``postgres://`` URLs: keima's PostgreSQL driver is psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _redact_redis(url: str) -> str:
    """``url`` with its password hidden (``redis://:***@host:6379/0``)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "?"


def _redact(url: str) -> str:
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "?"
