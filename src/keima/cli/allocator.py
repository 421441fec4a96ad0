"""The C allocator ``keima serve`` runs on: jemalloc where it is installed, else Python's own (pymalloc).

Why: a server that held a thousand games keeps most of that memory after they leave under pymalloc. pymalloc
hands an arena (1 MiB) back only when every object in it is gone, and a handful of objects that outlive a load
(a closed connection waiting for the collector, a cache entry, a timer) is enough to keep a hundred arenas: the
server stayed at 1.46 times its size before the load. jemalloc keeps small objects in slabs of a few pages and
gives freed pages back within a second (``dirty_decay_ms``), so only the pages that still hold something stay
(docs/server.md, "Memory", has the figures). An allocator is chosen when a process starts, so ``keima serve``
starts itself again, once, with jemalloc preloaded (``LD_PRELOAD``) and Python's objects handed to it
(``PYTHONMALLOC=malloc``), before it opens anything.

The choice: ``--allocator`` or the environment variable ``KEIMA_ALLOCATOR``: ``auto`` (the default: jemalloc
when the system has it, Debian's ``libjemalloc2``), ``jemalloc`` (refuse to start without it) or ``pymalloc``.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import sys

CHOICES = ("auto", "jemalloc", "pymalloc")
# Freed pages go back after about a second (by a background thread, so an idle server also shrinks); no lazy
# "muzzy" stage, whose pages still count in the resident size; two arenas, as the server's threads mostly take
# turns with Python's lock and more arenas would only spread its objects thinner.
JEMALLOC_CONF = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,narenas:2"
# Set in the restarted process, which must not restart again whatever it finds; its value keeps the variables
# below as they were before, so that the server's own children (a browser, a GTP engine) start without them.
STARTED = "KEIMA_ALLOCATOR_STARTED"
CHANGED = ("LD_PRELOAD", "PYTHONMALLOC", "MALLOC_CONF")


class AllocatorError(Exception):
    """An allocator keima does not know, or ``jemalloc`` asked for where it is not installed."""


def jemalloc_library() -> str | None:
    """The name of the system's jemalloc library (``libjemalloc.so.2``), or None where it has none. Linux only:
    elsewhere preloading works otherwise, and keima does not try."""
    if not sys.platform.startswith("linux"):
        return None
    return ctypes.util.find_library("jemalloc")


def check(choice: str) -> None:
    """Raise ``AllocatorError`` unless ``choice`` is one of ``CHOICES``."""
    if choice not in CHOICES:
        raise AllocatorError(f"unknown allocator {choice!r} (one of {', '.join(CHOICES)})")


def restart_environment(choice: str, environ: dict[str, str], library: str | None) -> dict[str, str] | None:
    """The environment to start ``keima serve`` again with, or None to go on in this process.

    ``choice`` is one of ``CHOICES``; ``library`` what ``jemalloc_library`` found. None when the choice is
    ``pymalloc``, when this process is already the restarted one, or when ``auto`` finds no jemalloc. A user's
    own ``LD_PRELOAD`` is kept (after jemalloc) and a ``MALLOC_CONF`` of theirs wins over keima's.
    Raises ``AllocatorError`` when the choice is ``jemalloc`` and there is none.
    """
    check(choice)
    if choice == "pymalloc" or environ.get(STARTED):
        return None
    if library is None:
        if choice == "jemalloc":
            raise AllocatorError("jemalloc is not installed (Debian: apt install libjemalloc2)")
        return None
    env = dict(environ)
    env["LD_PRELOAD"] = " ".join(p for p in (library, environ.get("LD_PRELOAD", "")) if p)
    env["PYTHONMALLOC"] = "malloc"
    env.setdefault("MALLOC_CONF", JEMALLOC_CONF)
    env[STARTED] = json.dumps({name: environ.get(name) for name in CHANGED})
    return env


def restored_environment(environ: dict[str, str]) -> dict[str, str]:
    """``environ`` of a restarted process as it was before ``restart_environment`` (``STARTED`` gone too).

    Chromium started with jemalloc preloaded stops at once (a trap), so the browser ``keima serve`` opens, and
    any program it runs, must not inherit it."""
    env = dict(environ)
    before = json.loads(env.pop(STARTED, "{}") or "{}")
    for name in CHANGED:
        if name in before:
            if before[name] is None:
                env.pop(name, None)
            else:
                env[name] = before[name]
    return env


def restart_background_thread() -> bool:
    """Start jemalloc's background thread again in a process forked from one that ran it; returns whether it did.

    jemalloc does not start that thread in a forked child (``keima serve --workers N``'s web processes), whose
    freed pages would then go back to the system only when keima purges them or the process allocates. False,
    and nothing done, where jemalloc is not this process's allocator or its options do not ask for the thread
    (a user's own ``MALLOC_CONF``). Never raises."""
    try:
        mallctl = ctypes.CDLL(None).mallctl  # only where jemalloc is loaded: the C library has no mallctl
    except (OSError, AttributeError):
        return False
    mallctl.restype = ctypes.c_int
    mallctl.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p,
                        ctypes.c_size_t]
    wanted = ctypes.c_bool(False)
    size = ctypes.c_size_t(ctypes.sizeof(wanted))
    if mallctl(b"opt.background_thread", ctypes.byref(wanted), ctypes.byref(size), None, 0) != 0 or not wanted.value:
        return False
    on = ctypes.c_bool(True)
    return bool(mallctl(b"background_thread", None, None, ctypes.byref(on), ctypes.sizeof(on)) == 0)


def adopt(choice: str) -> None:
    """Start this process again under jemalloc when ``choice`` asks for it and the system has it; returns only
    when this process goes on as it is (pymalloc, already restarted, or no jemalloc for ``auto``).

    Call it before the process prints, opens or starts anything, and only for the process's own command line
    (``keima.cli.main`` without arguments): the new process starts from the beginning, with the same command
    line, standard streams and working folder, so a program calling it would be replaced. In the new process it
    puts the environment back as it was (``restored_environment``). Raises ``AllocatorError`` as
    ``restart_environment`` does."""
    if os.environ.get(STARTED):
        from keima.server import housekeeping  # the server's module: imported only now

        # Started with PYTHONMALLOC=malloc, which the environment will no longer say.
        housekeeping.python_on_c_malloc = True
        restored = restored_environment(dict(os.environ))
        os.environ.clear()
        os.environ.update(restored)
        if housekeeping.python_allocator() != "jemalloc":  # the loader said why on the standard error
            print("keima serve: jemalloc did not load; Python's allocator it is", file=sys.stderr)
        return
    env = restart_environment(choice, dict(os.environ), jemalloc_library())
    if env is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)
    except OSError as exc:  # no restart: go on with pymalloc, and say why
        print(f"keima serve: could not restart under jemalloc ({exc.strerror}); Python's allocator it is",
              file=sys.stderr)
