"""The board: stones, chains with exact liberties, captures, Zobrist hashing and undo.

The board knows nothing of turns, ko rules or scoring (``history`` and ``game`` add those). Points are ints as
described in ``coords``. Chains are kept incrementally: every stone points to its ``Chain``, whose ``libs`` set is
exact at all times. ``play`` returns an ``Undo`` record; ``undo(record)`` restores the board exactly (stones,
chains, hash), so that the history can take back any move, or a play it judged illegal, in constant time.

Why this undo works: the record keeps the liberties the absorbing chain gained (it lost only the played point),
the liberties each removal gave to neighbouring chains, and the chains themselves; absorbed and captured chains
are never mutated, so undo only re-points stones and trims sets instead of recomputing.
"""

from __future__ import annotations

import random
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from keima.rules.coords import check_size, neighbours_table, to_gtp

EMPTY: Final = 0
BLACK: Final = 1
WHITE: Final = 2

_NAMES = {BLACK: "B", WHITE: "W"}


def opponent(color: int) -> int:
    """Return the other colour (``BLACK`` <-> ``WHITE``)."""
    return 3 - color


def color_name(color: int) -> str:
    """Return ``"B"`` or ``"W"``; raise ``ValueError`` for anything else."""
    try:
        return _NAMES[color]
    except KeyError:
        raise ValueError(f"{color!r} is not a player colour") from None


def color_word(color: int) -> str:
    """Return ``"Black"`` or ``"White"``."""
    return "Black" if color == BLACK else "White"


def parse_color(text: str | int) -> int:
    """Return ``BLACK`` or ``WHITE`` for ``b``/``black``/``w``/``white`` (any case) or the ints 1/2.

    Raises ``ValueError`` for anything else.
    """
    if isinstance(text, int) and not isinstance(text, bool) and text in (BLACK, WHITE):
        return text
    if isinstance(text, str):
        t = text.strip().lower()
        if t in ("b", "black"):
            return BLACK
        if t in ("w", "white"):
            return WHITE
    raise ValueError(f"{text!r} is not a colour (expected black/b or white/w)")


@cache
def zobrist_table(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Return 64-bit Zobrist keys indexed ``[color][point]`` (index 0 is unused zeros), fixed per size."""
    rng = random.Random(0x6B65696D61 + size)  # deterministic: hashes are comparable across runs
    n = size * size
    black = tuple(rng.getrandbits(64) for _ in range(n))
    white = tuple(rng.getrandbits(64) for _ in range(n))
    return (tuple(0 for _ in range(n)), black, white)


class Chain:
    """A maximal set of connected stones of one colour with its exact set of liberties.

    Its ``stones`` list and ``libs`` set change in place; two chains are told apart by identity (``is``), never
    by value. A class with slots rather than a named tuple: its fields are read many times on every move, and a
    slot is the fastest attribute there is."""

    __slots__ = ("color", "stones", "libs")

    def __init__(self, color: int, stones: list[int], libs: set[int]) -> None:
        self.color = color
        self.stones = stones
        self.libs = libs

    def __repr__(self) -> str:
        return f"Chain({color_name(self.color)}, stones={sorted(self.stones)}, libs={sorted(self.libs)})"


# ``Board.play`` fills an ``Undo`` slot by slot on an object made without calling ``__init__``: no Python frame.
_alloc = object.__new__


class Undo:
    """What ``Board.play`` changed, so that ``Board.undo`` can restore it exactly (read-only for others).

    A class with slots rather than a named tuple: the history reads some fields on every move."""

    __slots__ = (
        "point",
        "color",
        "prev_hash",
        "base",
        "fresh",
        "base_len",
        "added_libs",
        "absorbed",
        "captured",
        "gains",
        "suicide",
        "captured_count",
    )

    point: int
    color: int
    prev_hash: int
    base: Chain  # the chain holding the played stone
    fresh: bool  # the played stone started a new chain
    base_len: int  # stones in base before the play (when not fresh)
    added_libs: tuple[int, ...]  # liberties base gained from the play (when not fresh); it lost only the point
    # The sequences below are the shared empty tuple when empty (most plays): fewer objects that outlive the
    # play means fewer garbage-collector passes over a long game's history.
    absorbed: Sequence[Chain]  # other own chains merged into base
    captured: Sequence[Chain]
    gains: Sequence[tuple[Chain, int]]  # liberties gained by removals, to take back
    suicide: bool
    captured_count: int  # opposing stones this play captured


@dataclass(frozen=True, slots=True)
class Analysis:
    """What a play would do, computed without changing the board."""

    captures: tuple[Chain, ...]
    suicide: bool
    suicide_size: int  # own stones the suicide would remove, the played stone included
    hash_after: int


class Board:
    """A square Go board of ``size`` x ``size`` (2..25) with incremental chains and Zobrist hash."""

    __slots__ = ("size", "npoints", "colors", "chain_at", "hash", "nbrs", "_zob")

    def __init__(self, size: int = 19) -> None:
        check_size(size)
        self.size = size
        self.npoints = size * size
        self.colors: list[int] = [EMPTY] * self.npoints
        self.chain_at: list[Chain | None] = [None] * self.npoints
        self.hash = 0
        self.nbrs = neighbours_table(size)
        self._zob = zobrist_table(size)

    # ------------------------------------------------------------------ queries
    def get(self, p: int) -> int:
        """Return the colour at point ``p`` (``EMPTY``, ``BLACK`` or ``WHITE``)."""
        return self.colors[p]

    def chain(self, p: int) -> Chain:
        """Return the chain of the stone at ``p``; raise ``ValueError`` if ``p`` is empty."""
        ch = self.chain_at[p]
        if ch is None:
            raise ValueError(f"no stone at {to_gtp(p, self.size)}")
        return ch

    def chains(self) -> Iterator[Chain]:
        """Yield every chain on the board once."""
        seen: set[int] = set()
        for ch in self.chain_at:
            if ch is not None and id(ch) not in seen:
                seen.add(id(ch))
                yield ch

    def stones(self, color: int) -> list[int]:
        """Return the points holding a stone of ``color``."""
        return [p for p, c in enumerate(self.colors) if c == color]

    def count(self, color: int) -> int:
        """Return the number of stones (or empty points) of ``color`` on the board."""
        return self.colors.count(color)

    def regions(self, inside: Container[int]) -> list[tuple[set[int], set[int]]]:
        """Return the maximal connected regions of points whose colour is in ``inside``, each as (its points, its
        border: the points next to it whose colour is not in ``inside``), in the order of their lowest point."""
        colors = self.colors
        nbrs = self.nbrs
        seen = [False] * self.npoints
        out: list[tuple[set[int], set[int]]] = []
        for start in range(self.npoints):
            if seen[start] or colors[start] not in inside:
                continue
            pts: set[int] = set()
            border: set[int] = set()
            stack = [start]
            seen[start] = True
            while stack:
                p = stack.pop()
                pts.add(p)
                for q in nbrs[p]:
                    if colors[q] not in inside:
                        border.add(q)
                    elif not seen[q]:
                        seen[q] = True
                        stack.append(q)
            out.append((pts, border))
        return out

    def analyse(self, p: int, color: int) -> Analysis:
        """Return what playing ``color`` at the empty point ``p`` would capture, whether it is a suicide,
        and the hash of the resulting board. The board is not changed. ``p`` must be empty."""
        colors = self.colors
        chain_at = self.chain_at
        zob = self._zob
        h = self.hash ^ zob[color][p]
        opp = 3 - color
        captures: list[Chain] = []
        has_lib = False
        own: list[Chain] = []
        for q in self.nbrs[p]:
            k = colors[q]
            if k == EMPTY:
                has_lib = True
            elif k == color:
                ch = chain_at[q]
                assert ch is not None
                if len(ch.libs) > 1:
                    has_lib = True
                if ch not in own:
                    own.append(ch)
            else:
                ch = chain_at[q]
                assert ch is not None
                if len(ch.libs) == 1 and ch not in captures:
                    captures.append(ch)
                    zo = zob[opp]
                    for s in ch.stones:
                        h ^= zo[s]
        suicide = not captures and not has_lib
        size = 0
        if suicide:
            # The played stone and every chain it joins leave the board.
            h = self.hash
            zc = zob[color]
            size = 1
            for ch in own:
                size += len(ch.stones)
                for s in ch.stones:
                    h ^= zc[s]
        return Analysis(tuple(captures), suicide, size, h)

    # ------------------------------------------------------------------ changes
    def play(self, p: int, color: int) -> Undo:
        """Place a stone of ``color`` at the empty point ``p``, capture, and remove the played chain if it has no
        liberty left (a suicide: the caller judges it, and takes the play back with ``undo`` if it is not allowed).
        Returns the ``Undo`` record. Raises ``ValueError`` if ``p`` is occupied; the board is then unchanged."""
        chain_at = self.chain_at
        if chain_at[p] is not None:
            raise ValueError(f"{to_gtp(p, self.size)} is occupied")
        prev_hash = self.hash
        h = prev_hash ^ self._zob[color][p]
        empties: list[int] = []
        own: list[Chain] = []
        adj: list[Chain] = []
        # chain_at alone tells the neighbours apart (None on an empty point): one look-up each on this hot path.
        for q in self.nbrs[p]:
            ch = chain_at[q]
            if ch is None:
                empties.append(q)
            elif ch.color == color:
                if ch not in own:
                    own.append(ch)
            elif ch not in adj:
                adj.append(ch)
        self.colors[p] = color
        absorbed: Sequence[Chain] = ()
        if not own:
            # Made without calling __init__, as Undo below: no Python frame on this hot path.
            base = _alloc(Chain)
            base.color = color
            base.stones = [p]
            base.libs = set(empties)
            chain_at[p] = base
            fresh = True
            base_len = 0
            added: tuple[int, ...] = ()
        else:
            base = own[0]
            for ch in own[1:]:
                if len(ch.stones) > len(base.stones):
                    base = ch
            fresh = False
            base_len = len(base.stones)
            libs = base.libs
            base.stones.append(p)
            chain_at[p] = base
            # Only what base's liberties gain is recorded (a few ints, usually), not a copy of them all: the
            # play point was one of them, so undo removes the gains and puts the point back.
            gained: list[int] = []
            if len(own) > 1:
                absorbed = [ch for ch in own if ch is not base]
                for ch in absorbed:
                    base.stones.extend(ch.stones)
                    for s in ch.stones:
                        chain_at[s] = base
                    for q in ch.libs:
                        if q not in libs:
                            libs.add(q)
                            gained.append(q)
            libs.discard(p)
            for q in empties:
                if q not in libs:
                    libs.add(q)
                    gained.append(q)
            added = tuple(gained)
        gains: list[tuple[Chain, int]] | tuple[()] = ()
        captured: list[Chain] | tuple[()] = ()
        suicide = False
        for ch in adj:
            ch.libs.discard(p)
            if not ch.libs:
                if captured:
                    captured.append(ch)
                else:
                    captured = [ch]
        ncap = 0
        if captured:
            gains = []
            for ch in captured:
                ncap += len(ch.stones)
                h = self._lift(ch.stones, 3 - color, h, gains)
        elif not base.libs:
            suicide = True
            gains = []
            h = self._lift(base.stones, color, h, gains)
        self.hash = h
        rec: Undo = _alloc(Undo)
        rec.point = p
        rec.color = color
        rec.prev_hash = prev_hash
        rec.base = base
        rec.fresh = fresh
        rec.base_len = base_len
        rec.added_libs = added
        rec.absorbed = absorbed
        rec.captured = captured
        rec.gains = gains
        rec.suicide = suicide
        rec.captured_count = ncap
        return rec

    def _lift(self, stones: list[int], color: int, h: int, gains: list[tuple[Chain, int]]) -> int:
        """Take ``stones`` of ``color`` off the board, give their points as liberties to the adjacent chains of
        the other colour (recorded in ``gains``), and return the hash ``h`` updated."""
        colors = self.colors
        chain_at = self.chain_at
        zc = self._zob[color]
        for s in stones:
            colors[s] = EMPTY
            chain_at[s] = None
            h ^= zc[s]
        # Every chain still next to a lifted stone is of the other colour (one of the same colour would have been
        # part of the lifted chain): chain_at alone finds them.
        nbrs = self.nbrs
        for s in stones:
            for q in nbrs[s]:
                cq = chain_at[q]
                if cq is not None and s not in cq.libs:
                    cq.libs.add(s)
                    gains.append((cq, s))
        return h

    def undo(self, rec: Undo) -> None:
        """Take back the play described by ``rec``, which must be the last play not yet undone."""
        colors = self.colors
        chain_at = self.chain_at
        for ch, s in reversed(rec.gains):
            ch.libs.discard(s)
        base = rec.base
        if rec.suicide:
            for s in base.stones:
                colors[s] = rec.color
                chain_at[s] = base
        opp = 3 - rec.color
        for ch in rec.captured:
            for s in ch.stones:
                colors[s] = opp
                chain_at[s] = ch
        # Every opposing chain next to the point had it as a liberty (the point was empty): found again here rather
        # than kept in the record, which spares a list that would outlive every play.
        point = rec.point
        for q in self.nbrs[point]:
            near = chain_at[q]
            if near is not None and near.color == opp:
                near.libs.add(point)
        colors[rec.point] = EMPTY
        chain_at[rec.point] = None
        if not rec.fresh:
            del base.stones[rec.base_len :]
            base.libs.difference_update(rec.added_libs)
            base.libs.add(rec.point)
            for ch in rec.absorbed:
                for s in ch.stones:
                    chain_at[s] = ch
        self.hash = rec.prev_hash

    def set_stones(self, changes: Iterable[tuple[int, int]]) -> None:
        """Put the given ``(point, colour)`` pairs on the board without captures (SGF AB/AW/AE setup), then
        rebuild every chain. The caller checks that no chain is left without liberties."""
        for p, c in changes:
            self.colors[p] = c
        self.rebuild()

    def remove(self, points: Iterable[int]) -> None:
        """Take the stones at ``points`` off the board (dead stones at the end), then rebuild chains."""
        for p in points:
            self.colors[p] = EMPTY
        self.rebuild()

    def rebuild(self) -> None:
        """Recompute every chain, liberty set and the hash from the colours alone."""
        colors = self.colors
        nbrs = self.nbrs
        chain_at: list[Chain | None] = [None] * self.npoints
        zob = self._zob
        h = 0
        for p in range(self.npoints):
            c = colors[p]
            if c == EMPTY:
                continue
            h ^= zob[c][p]
            if chain_at[p] is not None:
                continue
            ch = Chain(c, [], set())
            stack = [p]
            chain_at[p] = ch
            while stack:
                s = stack.pop()
                ch.stones.append(s)
                for q in nbrs[s]:
                    k = colors[q]
                    if k == EMPTY:
                        ch.libs.add(q)
                    elif k == c and chain_at[q] is None:
                        chain_at[q] = ch
                        stack.append(q)
        self.chain_at = chain_at
        self.hash = h

    def copy(self) -> Board:
        """Return an independent copy (chains rebuilt, so no object is shared)."""
        other = Board.__new__(Board)
        other.size = self.size
        other.npoints = self.npoints
        other.colors = list(self.colors)
        other.nbrs = self.nbrs
        other._zob = self._zob
        other.chain_at = []
        other.hash = 0
        other.rebuild()
        return other

    def check_consistency(self) -> None:
        """Raise ``AssertionError`` unless every chain, liberty set and the hash match a recomputation."""
        fresh = self.copy()
        assert fresh.hash == self.hash, "hash differs from a recomputation"
        for p in range(self.npoints):
            mine, ref = self.chain_at[p], fresh.chain_at[p]
            if ref is None:
                assert mine is None, f"empty point {to_gtp(p, self.size)} belongs to a chain"
                continue
            assert mine is not None, f"stone at {to_gtp(p, self.size)} has no chain"
            assert mine.color == self.colors[p], f"chain colour differs at {to_gtp(p, self.size)}"
            assert sorted(mine.stones) == sorted(ref.stones), f"chain stones differ at {to_gtp(p, self.size)}"
            assert len(set(mine.stones)) == len(mine.stones), f"duplicate stones at {to_gtp(p, self.size)}"
            assert mine.libs == ref.libs, f"liberties differ at {to_gtp(p, self.size)}"
            assert mine.libs, f"chain at {to_gtp(p, self.size)} has no liberty"
