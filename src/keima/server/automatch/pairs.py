"""Automatch: which waiting players make a pair, and the game they get (pure: no I/O, no clock of its own).

A waiting player (``Entry``) asks for a game by board size(s), speed and ruleset, with or without a handicap. Two
entries may pair when they ask for the same speed and ruleset (and the same club, for a game offered to a club's
members only), share a board size, and their ratings are within
the window of *each*: a player's window is ``FIRST_WINDOW`` rank at first and widens by one rank every
``WIDEN_EVERY`` seconds of waiting, up to ``MAX_WINDOW`` ranks. Ranks are measured on the ratings' rank scale
(``keima.ratings.ranks.rank_number``: the same distance at every level), so that "within one rank" means the same
thing for beginners and for dan players.

Among all the pairs that may be made, the closest in rating go first (ties: the one who has waited longest), and
no one is in two pairs (``pairs``). The game (``settle``): the weaker player takes Black (equal ratings: the one
who asked first); when both asked for a handicap, it is the handicap whose rank difference, by the ratings' own
handicap rule (``keima.ratings.handicap.rank_difference``), is closest to the players' difference, with the
ruleset's handicap komi (the French rules: 0.5, plus the stones' points in the count); otherwise an even game at
the ruleset's usual komi. The game is rated when both players are registered.

The speeds are presets of the clock (docs/web-api.md, *Automatch*); the queue itself lives in the database
(``keima.server.automatch.store``) and the server's part is ``keima.server.automatch.routes``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from keima.ratings.handicap import rank_difference
from keima.ratings.ranks import rank_number
from keima.rules.ruleset import Ruleset
from keima.server.games import CORRESPONDENCE_PRESETS

#: The clock of each speed offered (``keima.server.games.clock.ClockSpec`` dicts): byo-yomi, 5 periods, for the live
#: speeds; for correspondence, the Fischer preset of the new-game form (3 days, 1 more a move, at most 7 held, weekend
#: pauses on).
SPEEDS: dict[str, dict[str, Any]] = {
    "blitz": {"type": "byoyomi", "main": 300.0, "period": 10.0, "periods": 5},
    "live": {"type": "byoyomi", "main": 600.0, "period": 30.0, "periods": 5},
    "correspondence": CORRESPONDENCE_PRESETS["fischer-3d"],
}
#: Speeds named by the API but not offered (none now: the name stays for a speed withdrawn some day).
NOT_YET: dict[str, str] = {}
#: The board sizes one may ask for.
SIZES = (9, 13, 19)
FIRST_WINDOW = 1
WIDEN_EVERY = 10.0
MAX_WINDOW = 9
MAX_HANDICAP = 9


@dataclass(frozen=True)
class Entry:
    """A waiting player: ``rating`` their Glicko-2 rating (or the one of their declared rank), ``sizes`` in the
    order they prefer, ``since`` when they asked (the server's Unix time)."""

    player_id: str
    name: str
    registered: bool
    rating: float
    sizes: tuple[int, ...]
    speed: str
    rules: str
    handicap: bool
    since: float
    #: A club's address: paired only with another entry for the same club (its members only: the route checks).
    club: str | None = None


@dataclass(frozen=True)
class Match:
    """The game two entries get: who takes Black and White, the board, the handicap (0: none) and komi, the
    clock (``SPEEDS``) and whether it is rated."""

    black: Entry
    white: Entry
    size: int
    rules: str
    handicap: int
    komi: float
    clock: dict[str, Any]
    rated: bool


def window(waited: float) -> int:
    """The rank window of a player who has waited ``waited`` seconds."""
    return min(MAX_WINDOW, FIRST_WINDOW + int(max(0.0, waited) // WIDEN_EVERY))


def gap(a: Entry, b: Entry) -> float:
    """How many ranks apart two entries' ratings are (on the rank scale)."""
    return abs(rank_number(a.rating) - rank_number(b.rating))


def common_size(a: Entry, b: Entry) -> int | None:
    """The board the two play on: the first size of the one who asked first that the other also asked for; None
    when they share none."""
    first, second = (a, b) if (a.since, a.player_id) <= (b.since, b.player_id) else (b, a)
    return next((s for s in first.sizes if s in second.sizes), None)


def may_pair(a: Entry, b: Entry, now: float) -> bool:
    """Whether ``a`` and ``b`` may be paired at time ``now`` (see the module docstring)."""
    if a.player_id == b.player_id or a.speed != b.speed or a.rules != b.rules or a.club != b.club \
            or common_size(a, b) is None:
        return False
    return gap(a, b) <= min(window(now - a.since), window(now - b.since))


def pairs(entries: Iterable[Entry], now: float,
          apart: Collection[frozenset[str]] = ()) -> list[tuple[Entry, Entry]]:
    """The pairs to make at time ``now``: closest ratings first (ties: the longest waiting), each entry in one
    pair at most, never two players of a pair in ``apart`` (a block stands between them). Deterministic for given
    entries."""
    items = sorted(entries, key=lambda e: (e.since, e.player_id))
    numbers = [rank_number(e.rating) for e in items]
    reach = [window(now - e.since) for e in items]
    # Only entries of one speed and ruleset may pair; within each, scanned in rank order, each entry against the
    # next ones until they are beyond its window: n players cost n times the players within a few ranks.
    groups: dict[tuple[str, str, str | None], list[int]] = {}
    for k, e in enumerate(items):
        groups.setdefault((e.speed, e.rules, e.club), []).append(k)
    candidates: list[tuple[float, float, int, int]] = []
    for group in groups.values():
        group.sort(key=lambda k: numbers[k])
        for x, i in enumerate(group):
            for j in group[x + 1:]:
                d = numbers[j] - numbers[i]
                if d > reach[i]:
                    break
                if d > reach[j] or items[i].player_id == items[j].player_id or \
                        common_size(items[i], items[j]) is None or \
                        frozenset((items[i].player_id, items[j].player_id)) in apart:
                    continue
                candidates.append((d, min(items[i].since, items[j].since), min(i, j), max(i, j)))
    taken: set[int] = set()
    out: list[tuple[Entry, Entry]] = []
    for _gap, _since, i, j in sorted(candidates):
        if i not in taken and j not in taken:
            taken.update((i, j))
            out.append((items[i], items[j]))
    return out


def handicap_for(difference: float, size: int, rules: Ruleset) -> int:
    """The handicap (0, or 1 to ``MAX_HANDICAP`` stones; 1: no stone but the handicap komi) whose worth in ranks
    under ``rules`` on a ``size`` board, by the ratings' rule, is closest to ``difference`` ranks (ties: the
    smaller)."""
    def worth(n: int) -> float:
        return rank_difference(n, size, komi_for(n, rules), rules)

    return min(range(MAX_HANDICAP + 1), key=lambda n: (abs(worth(n) - difference), n))


def komi_for(handicap: int, rules: Ruleset) -> float:
    """The komi of a game of ``handicap`` stones under ``rules``: the handicap komi when there is a handicap and
    the rules give one, the usual komi otherwise (as ``keima.rules.game.Game`` chooses it)."""
    if handicap >= 1 and rules.handicap_komi is not None:
        return rules.handicap_komi
    return rules.default_komi


def settle(a: Entry, b: Entry, rules: Ruleset) -> Match:
    """The game of the pair ``a``, ``b`` (``may_pair`` must hold) under ``rules`` (their ruleset). Raises
    ``ValueError`` for a pair without a common size or speed."""
    size = common_size(a, b)
    if size is None or a.speed not in SPEEDS or a.speed != b.speed:
        raise ValueError("these two entries cannot be paired")
    black, white = sorted((a, b), key=lambda e: (e.rating, e.since, e.player_id))
    handicap = handicap_for(gap(a, b), size, rules) if a.handicap and b.handicap else 0
    return Match(black=black, white=white, size=size, rules=rules.name, handicap=handicap,
                 komi=komi_for(handicap, rules), clock=dict(SPEEDS[a.speed]),
                 rated=a.registered and b.registered)


def check_request(sizes: list[int], speed: str) -> tuple[tuple[int, ...], str]:
    """The sizes (in order, without repeats) and speed of a request. Raises ``ValueError`` with the field's name
    and a sentence for a size or speed not offered."""
    if not sizes:
        raise ValueError("sizes", "ask for at least one board size: 9, 13 or 19")
    bad = [s for s in sizes if s not in SIZES]
    if bad:
        raise ValueError("sizes", f"automatch plays on 9x9, 13x13 and 19x19 boards, not {bad[0]}x{bad[0]}")
    if speed in NOT_YET:
        raise ValueError("speed", NOT_YET[speed])
    if speed not in SPEEDS:
        raise ValueError("speed", f"no speed named {speed[:20]!r}: choose \"blitz\", \"live\" or \"correspondence\"")
    return tuple(dict.fromkeys(sizes)), speed


__all__ = ["MAX_WINDOW", "NOT_YET", "SIZES", "SPEEDS", "Entry", "Match", "check_request", "common_size", "gap",
           "handicap_for", "komi_for", "may_pair", "pairs", "settle", "window"]

