"""The compilation of keima's search, once per process: in the background for the front ends, so that nobody waits.

numba compiles the search (``keima.ai.search`` and the kernels under it) the first time a process calls it and
keeps the machine code in its cache on disk (``NUMBA_CACHE_DIR``, or ``__pycache__`` beside the sources). With
an empty cache, after installing or upgrading, that is most of a minute on a small machine; with a warm cache,
loading takes under a second.

``Warmup.start()`` runs that work (``compile_search``) in a daemon thread and returns at once: ``keima gtp``,
``keima serve``, ``keima play`` and the cluster's workers call it when they start (``keima.seat.warm_up``). While
it runs (``busy()``), ``keima.ai.Player`` answers with ``keima.ai.quick`` instead of waiting for it; it waits only
while the code is being read from the cache (``settle``), which is short. Without a background start (a library
caller, the tests), ``run()`` does the same work in the caller's thread before the first move's clock starts.

``DEFAULT`` is the process's warm-up; a test gives a player its own ``Warmup`` (with work that waits for the
test's signal) to see what happens before the compilation ends.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("keima.ai.warmup")

#: The longest a move waits for compiled code that is being loaded from numba's cache (it takes well under a
#: second; a partly stale cache compiles the rest, and the move does not wait for that).
CACHE_WAIT = 5.0


def in_cache() -> bool:
    """Whether numba's cache holds fresh machine code for the search's two largest kernels (so that the warm-up
    will load, not compile). It reads numba's cache index, as numba does before loading (numba has no public
    call for this); False when that cannot be read."""
    from keima.ai import search as S

    kernels: tuple[Any, ...] = (S.run_iterations, S.run_playouts)
    try:
        return all(bool(kernel._cache._cache_file._load_index()) for kernel in kernels)
    except Exception:  # another numba's internals: assume a compilation (the player then does not wait)
        return False


def compile_search(progress: Callable[[bool], None] | None = None) -> bool:
    """Compile (or load from numba's cache) every kernel a player calls, by using them on a small position:
    ownership and dead stones first (the seat's manners and the scoring phase ask for them, and they compile in
    a third of the time), then the search, then its tree reuse between moves. Returns ``in_cache()`` as it was
    before; ``progress`` hears the same as soon as it is known, before the work."""
    from keima.ai.estimate import estimate_dead
    from keima.ai.searcher import Searcher
    from keima.rules.game import Game

    cached = in_cache()
    if progress is not None:
        progress(cached)
    game = Game(size=9)
    for point, color in ((40, 1), (20, 2), (60, 1)):
        game.play(point, color)
    estimate_dead(game, playouts=4, seed=1)
    search = Searcher(1 << 12, heavy=True, seed=1)
    search.search(game, 2, None, 64)
    game.play(24, 2)
    game.play(56, 1)
    search.search(game, 2, None, 64)  # the tree found again two plies down: the Python side's kernels
    return cached


class Warmup:
    """The warm-up of one process (``DEFAULT``) or of a test. ``work`` is what it runs (default:
    ``compile_search``); it is called with a callback to tell, as soon as it knows, whether its code comes from
    the cache."""

    def __init__(self, work: Callable[[Callable[[bool], None]], object] | None = None) -> None:
        self._work = work if work is not None else compile_search
        self._cond = threading.Condition()
        self._done = False
        self._running = False
        self._background = False
        #: True once the work knows its code comes from numba's cache, False once it knows it is compiling.
        self.cached: bool | None = None
        #: Seconds the work took (None until it is done).
        self.seconds: float | None = None

    def start(self) -> None:
        """Start the work in a daemon thread unless it is done or under way; returns at once, never raises."""
        with self._cond:
            if self._done or self._running:
                return
            self._running = self._background = True
        threading.Thread(target=self._run_once, name="keima-compile", daemon=True).start()

    def run(self) -> None:
        """Do the work in this thread unless it is done; when it is under way elsewhere, wait for its end.
        Never raises (a failure is logged: the kernels then compile when first called)."""
        with self._cond:
            if self._done:
                return
            if self._running:
                while not self._done:
                    self._cond.wait()
                return
            self._running = True
        self._run_once()

    def busy(self) -> bool:
        """True while the work started by ``start`` has not finished: the time to answer without it."""
        with self._cond:
            return self._background and not self._done

    def ready(self) -> bool:
        """True once the work is done."""
        with self._cond:
            return self._done

    def settle(self, limit: float = CACHE_WAIT) -> bool:
        """Wait while the work loads code from the cache, or does not know yet whether it will, for at most
        ``limit`` seconds; return ``ready()``. Returns at once when the work compiles."""
        deadline = time.monotonic() + limit
        with self._cond:
            while not self._done and self.cached is not False:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return self._done

    def _heard(self, cached: bool) -> None:
        with self._cond:
            self.cached = cached
            self._cond.notify_all()

    def _run_once(self) -> None:
        start = time.perf_counter()
        try:
            self._work(self._heard)
        except Exception:
            log.exception("compiling the search failed; it compiles when first used")
        with self._cond:
            self.seconds = time.perf_counter() - start
            self._done = True
            self._cond.notify_all()
        log.info("search ready in %.1f s (%s)", self.seconds,
                 "from numba's cache" if self.cached else "compiled")


#: The process's warm-up, shared by every player that is not given another.
DEFAULT = Warmup()
