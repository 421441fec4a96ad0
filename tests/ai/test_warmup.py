"""The search's compilation in the background (``keima.ai.warmup``) and what the bot does meanwhile: its first
moves do not wait for it. Each test gives the player a ``Warmup`` whose work waits for the test's signal, so
"still compiling" is a state the test holds, not a race against the clock."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from keima.ai import estimate_ownership
from keima.ai import player as player_module
from keima.ai import search as S
from keima.ai import searcher as searcher_module
from keima.ai.player import Player, estimate_dead
from keima.ai.quick import QuickSearcher
from keima.ai.warmup import Warmup, compile_search, in_cache
from keima.gtp_engine import GtpEngine, default_player
from keima.rules import Game, from_gtp
from keima.seat import KeimaPlayer, Seat

#: Far longer than anything here takes: only reached when a test fails (it then fails instead of hanging).
PATIENCE = 120.0


class Held:
    """A warm-up's work that says whether it loads from the cache (``cached``), then waits for ``release``
    before compiling."""

    def __init__(self, cached: bool) -> None:
        self.cached = cached
        self.release = threading.Event()
        self.calls: list[str] = []

    def __call__(self, heard: Callable[[bool], None]) -> None:
        self.calls.append(threading.current_thread().name)
        heard(self.cached)
        if not self.release.wait(PATIENCE):
            raise AssertionError("the test never released the warm-up")
        compile_search()  # the real work once released (numba's cache makes it quick in the test runs)


@pytest.fixture
def compiling() -> Iterator[tuple[Warmup, Held]]:
    work = Held(cached=False)
    warmup = Warmup(work)
    warmup.start()
    yield warmup, work
    work.release.set()


def _game() -> Game:
    game = Game(9)
    for vertex, color in (("E5", 1), ("C3", 2), ("G7", 1)):
        game.play(from_gtp(vertex, 9), color)
    return game


def test_the_first_move_does_not_wait_for_the_compilation(compiling: tuple[Warmup, Held]) -> None:
    warmup, work = compiling
    player = Player("strong", seed=1, warmup=warmup)
    game = _game()
    assert warmup.busy() and not warmup.ready()
    move = player.genmove(game, 2, 1.0)
    assert isinstance(move, int) and game.legality(move, 2) is None
    assert player.last_result.playouts == 0  # the quick move: no playouts
    assert player._searcher is None  # the compiled search was not even created
    assert isinstance(player._get_searcher(), QuickSearcher)
    # The compilation ends: the next move is the search's.
    work.release.set()
    warmup.run()  # waits for the background work
    assert warmup.ready() and not warmup.busy()
    game.play(move, 2)
    player.genmove(game, 1, 0.2)
    assert player.last_result.playouts > 0
    assert work.calls == ["keima-compile"]  # once, in the background thread


def _spy_on_ownership(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record the playout kernel of every ownership estimate from now on."""
    original = searcher_module.ownership
    kernels: list[object] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        kernels.append(kwargs.get("run_playouts", S.run_playouts))
        return original(*args, **kwargs)

    monkeypatch.setattr(searcher_module, "ownership", spy)
    return kernels


def test_a_seat_plays_the_quick_move_while_compiling(compiling: tuple[Warmup, Held],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the seat, as ``keima serve`` and ``keima gtp`` ask, with the process's compilation under way: a
    legal move, decided without the compiled search, and the manners' estimates (after the opening) do not wait
    for the compiled playouts either."""
    warmup, _ = compiling
    monkeypatch.setattr(player_module, "DEFAULT_WARMUP", warmup)
    kernels = _spy_on_ownership(monkeypatch)
    player = Player("beginner", seed=2)
    seat = Seat(KeimaPlayer(player=player))
    game = _game()
    for _ in range(12):  # past the opening, where the seat's manners ask for an ownership estimate
        decision = seat.move(game, int(game.to_move), 1.0)
        assert decision.action in ("play", "pass")
        assert decision.note is None or "refused" not in decision.note
        game.play(decision.point, int(game.to_move))
    assert player._searcher is None
    assert kernels and S.run_playouts not in kernels


def test_estimates_while_compiling_use_the_interpreted_playouts(compiling: tuple[Warmup, Held],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    warmup, _ = compiling

    kernels = _spy_on_ownership(monkeypatch)
    game = _game()
    own = estimate_ownership(game, warmup=warmup)
    assert len(own) == 81 and all(-1.0 <= v <= 1.0 for v in own)
    assert estimate_dead(game, seed=1, warmup=warmup) <= frozenset(p for p, c in enumerate(game.board.colors) if c)
    assert len(kernels) == 2 and S.run_playouts not in kernels  # both estimates, neither compiled


def test_a_move_waits_while_the_code_loads_from_the_cache() -> None:
    """Loading from numba's cache takes a moment: then the player waits and searches (``settle``)."""
    work = Held(cached=True)
    warmup = Warmup(work)
    warmup.start()
    try:
        assert warmup.settle(limit=0.0) is False  # not loaded yet
        result: list[bool] = []
        waiter = threading.Thread(target=lambda: result.append(warmup.settle(limit=PATIENCE)))
        waiter.start()
        work.release.set()
        waiter.join(PATIENCE)
        assert result == [True]
    finally:
        work.release.set()


def test_a_compilation_is_not_waited_for(compiling: tuple[Warmup, Held]) -> None:
    warmup, _ = compiling
    result: list[bool] = []
    waiter = threading.Thread(target=lambda: result.append(warmup.settle(limit=PATIENCE)))
    waiter.start()
    waiter.join(PATIENCE / 2)
    assert result == [False]  # returned at once, the work still under way
    assert warmup.busy()


def test_without_a_background_start_the_player_compiles_first_in_its_own_thread() -> None:
    """A library caller that started nothing: the work runs in the caller's thread, once, before the move."""
    work = Held(cached=False)
    work.release.set()
    warmup = Warmup(work)
    player = Player("beginner", seed=3, warmup=warmup)
    assert not warmup.busy()
    player.genmove(_game(), 2, 0.1)
    assert work.calls == [threading.current_thread().name]
    assert warmup.ready() and player.last_result.playouts > 0
    warmup.start()  # done already: nothing more
    player.genmove(_game(), 2, 0.1)
    assert work.calls == [threading.current_thread().name]


def test_a_failed_warm_up_leaves_the_compilation_to_the_first_use(caplog: pytest.LogCaptureFixture) -> None:
    def broken(heard: Callable[[bool], None]) -> None:
        raise RuntimeError("no compiler today")

    warmup = Warmup(broken)
    warmup.run()
    assert warmup.ready() and "compiling the search failed" in caplog.text
    player = Player("beginner", seed=4, warmup=warmup)
    move = player.genmove(_game(), 2, 0.1)
    assert isinstance(move, int) and player.last_result.playouts > 0


def test_the_first_gtp_genmove_answers_while_compiling(compiling: tuple[Warmup, Held],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``keima gtp``'s first ``genmove``, its engine built as the command builds it, with the process's
    compilation held back: a board point at once, not the compiled search's."""
    warmup, _ = compiling
    monkeypatch.setattr(player_module, "DEFAULT_WARMUP", warmup)
    player = default_player("strong", 1)
    engine = GtpEngine(player, size=9, seconds=1.0)
    reply, _ = engine.handle_line("genmove b")
    assert reply is not None and reply.startswith("= ")
    assert from_gtp(reply[2:].strip(), 9) is not None
    assert isinstance(player, Player) and player._searcher is None and player.last_result.playouts == 0


def test_the_cache_check_reads_numba_s_index(tmp_path: Path) -> None:
    """``in_cache`` reads numba's private cache index: true once the kernels are compiled and cached here, false
    in a process given an empty cache directory (a numba whose internals moved makes the first one fail)."""
    compile_search()
    assert in_cache()
    out = subprocess.run([sys.executable, "-c", "from keima.ai.warmup import in_cache; print(in_cache())"],
                         env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)), capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
