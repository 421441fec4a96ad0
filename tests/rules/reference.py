"""A deliberately naive reference referee, to check keima's rules core against.

Nothing here is incremental or clever: chains and liberties are found by flood fill from scratch, captures are
recomputed from the whole board after every stone, and repetition is checked against a plain list of every
earlier position. It is slow and obviously right, which is the point: the property tests play random games on
both and compare them after every move.

Repetition rules, as docs/rules.md words them:
- ``simple``: no immediate recapture of a single stone that has just captured a single stone;
- ``positional``: no board play may recreate any earlier board;
- ``situational``: no board play may recreate an earlier board with the same player to move (passes are moves,
  so the position after a pass is an earlier situation too);
- ``natural-situational``: no board play may recreate a board that the same player earlier created by a board
  play (passes create nothing). The starting (set-up) position counts as made by the player who is not to move
  in it, as if that player had just played: an immediate ko retake straight from a set-up position is illegal
  under every ko rule, and the FFG rules (« Répétition », diagrams 10-11) forbid the immediate retake without
  condition.
Suicide: a stone that leaves its own chain without liberties after captures; single-stone suicide is illegal
under every rule, multi-stone suicide only where the ruleset allows it (the chain is removed and becomes the
opponent's prisoners).
"""

from __future__ import annotations

from dataclasses import dataclass, field

EMPTY, BLACK, WHITE = 0, 1, 2


class RefIllegal(Exception):
    """A move the reference refuses; ``reason`` uses keima's reason codes."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def neighbours(p: int, size: int) -> list[int]:
    """Return the on-board neighbours of ``p``."""
    r, c = divmod(p, size)
    out = []
    if r > 0:
        out.append(p - size)
    if r < size - 1:
        out.append(p + size)
    if c > 0:
        out.append(p - 1)
    if c < size - 1:
        out.append(p + 1)
    return out


def flood(colors: list[int], size: int, p: int) -> tuple[set[int], set[int]]:
    """Return the chain through the stone at ``p`` and its liberties, by flood fill."""
    color = colors[p]
    chain = {p}
    libs: set[int] = set()
    todo = [p]
    while todo:
        q = todo.pop()
        for n in neighbours(q, size):
            k = colors[n]
            if k == EMPTY:
                libs.add(n)
            elif k == color and n not in chain:
                chain.add(n)
                todo.append(n)
    return chain, libs


def all_chains(colors: list[int], size: int) -> list[tuple[int, frozenset[int], frozenset[int]]]:
    """Return every chain as ``(colour, stones, liberties)``, each once."""
    seen: set[int] = set()
    out = []
    for p, k in enumerate(colors):
        if k != EMPTY and p not in seen:
            chain, libs = flood(colors, size, p)
            seen |= chain
            out.append((k, frozenset(chain), frozenset(libs)))
    return out


def regions(colors: list[int], size: int) -> list[tuple[frozenset[int], frozenset[int]]]:
    """Return every maximal empty region and the set of colours bordering it."""
    seen: set[int] = set()
    out = []
    for p, k in enumerate(colors):
        if k != EMPTY or p in seen:
            continue
        region = {p}
        border: set[int] = set()
        todo = [p]
        while todo:
            q = todo.pop()
            for n in neighbours(q, size):
                if colors[n] == EMPTY:
                    if n not in region:
                        region.add(n)
                        todo.append(n)
                else:
                    border.add(colors[n])
        seen |= region
        out.append((frozenset(region), frozenset(border)))
    return out


def apply_stone(colors: list[int], size: int, p: int, color: int) -> tuple[list[int], int, int]:
    """Return the board after ``color`` plays at the empty point ``p``, the number of opposing stones captured
    and the number of own stones removed by suicide (the caller decides whether a suicide is allowed)."""
    new = list(colors)
    new[p] = color
    opp = 3 - color
    captured = 0
    for n in neighbours(p, size):
        if new[n] == opp:
            chain, libs = flood(new, size, n)
            if not libs:
                for s in chain:
                    new[s] = EMPTY
                captured += len(chain)
    suicided = 0
    chain, libs = flood(new, size, p)
    if not libs:
        for s in chain:
            new[s] = EMPTY
        suicided = len(chain)
    return new, captured, suicided


@dataclass
class RefGame:
    """A naive game: board, turn, prisoners and the full list of earlier positions."""

    size: int
    ko: str
    multi_stone_suicide: bool
    colors: list[int] = field(default_factory=list)
    to_move: int = BLACK
    prisoners: dict[int, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    # Every position so far: (board, player to move next, creator: the colour whose board play
    # made it; 0 after a pass; the player not to move for the starting position).
    history: list[tuple[tuple[int, ...], int, int]] = field(default_factory=list)
    # The last move: (colour, point or None, stones it captured).
    last: tuple[int, int | None, int] | None = None

    def __post_init__(self) -> None:
        if not self.colors:
            self.colors = [EMPTY] * (self.size * self.size)
        self.history.append((tuple(self.colors), self.to_move, 3 - self.to_move))

    def outcome(self, p: int, color: int) -> tuple[list[int], int, int]:
        """Return what ``color`` at ``p`` would give (board, captured, suicided); raise ``RefIllegal``."""
        if self.colors[p] != EMPTY:
            raise RefIllegal("occupied")
        new, captured, suicided = apply_stone(self.colors, self.size, p, color)
        if suicided and (suicided == 1 or not self.multi_stone_suicide):
            raise RefIllegal("suicide")
        key = tuple(new)
        nxt = 3 - color
        if self.ko == "simple":
            if self._is_ko_recapture(p, color, captured):
                raise RefIllegal("ko")
        elif self.ko == "positional":
            if any(b == key for b, _, _ in self.history):
                raise RefIllegal("superko")
        elif self.ko == "situational":
            if any(b == key and m == nxt for b, m, _ in self.history):
                raise RefIllegal("superko")
        elif self.ko == "natural-situational":
            if any(b == key and who == color for b, _, who in self.history):
                raise RefIllegal("superko")
        else:
            raise ValueError(f"unknown ko rule {self.ko!r}")
        return new, captured, suicided

    def _is_ko_recapture(self, p: int, color: int, captured: int) -> bool:
        if captured != 1 or self.last is None:
            return False
        who, q, took = self.last
        if who != 3 - color or q is None or took != 1:
            return False
        # The stone that just captured one stone is alone, with the single liberty p: taking it back is a ko.
        chain, libs = flood(self.colors, self.size, q)
        return len(chain) == 1 and libs == {p}

    def legality(self, p: int, color: int | None = None) -> str | None:
        """Return the reason ``color`` may not play at ``p``, or ``None`` if the move is legal."""
        try:
            self.outcome(p, self.to_move if color is None else color)
        except RefIllegal as e:
            return e.reason
        return None

    def play(self, p: int | None) -> None:
        """Play ``p`` (``None`` = pass) for the player to move; raise ``RefIllegal`` if it is illegal."""
        color = self.to_move
        if p is None:
            self.to_move = 3 - color
            self.history.append((tuple(self.colors), self.to_move, 0))
            self.last = (color, None, 0)
            return
        new, captured, suicided = self.outcome(p, color)
        self.colors = new
        self.prisoners[color] += captured
        self.prisoners[3 - color] += suicided
        self.to_move = 3 - color
        self.history.append((tuple(new), self.to_move, color))
        self.last = (color, p, captured)
