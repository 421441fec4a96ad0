"""Automatch's pairing (pure: windows, closest pairs, colours, handicap) and its queue's claim, which takes a pair
whole or not at all, with threads racing for the same entries."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.ratings.handicap import rank_difference
from keima.ratings.ranks import rating_of_number, rating_of_rank
from keima.rules.ruleset import get_ruleset
from keima.server.automatch import pairs as automatch
from keima.server.automatch import store as store_automatch
from keima.server.automatch.pairs import Entry
from keima.server.storage.store import make_engine, migrate
from keima.server.storage.tables import automatch as queue

FRENCH = get_ruleset("french")


def entry(pid: str, rank: str, since: float = 0.0, **kw: object) -> Entry:
    base = Entry(player_id=pid, name=pid, registered=True, rating=rating_of_rank(rank), sizes=(9,), speed="blitz",
                 rules="french", handicap=False, since=since)
    return replace(base, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("waited", "window"), [
    (0, 1), (9.99, 1), (10, 2), (25, 3), (79.9, 8), (80, 9), (500, 9), (-3, 1),
])
def test_the_window_widens_by_a_rank_every_ten_seconds(waited: float, window: int) -> None:
    assert automatch.window(waited) == window


def test_a_pair_waits_until_both_windows_reach_their_gap() -> None:
    # 5k and 8k are 3 ranks apart: both windows must be 3, i.e. both have waited 20 s.
    a, b = entry("a", "5k", since=0), entry("b", "8k", since=5)
    assert automatch.gap(a, b) == pytest.approx(3)
    assert not automatch.may_pair(a, b, 24.9)
    assert automatch.may_pair(a, b, 25.0)
    assert automatch.pairs([a, b], 24.9) == []
    assert automatch.pairs([a, b], 25.0) == [(a, b)]


@pytest.mark.parametrize(("other", "why"), [
    ({"speed": "live"}, "speed"),
    ({"rules": "japanese"}, "rules"),
    ({"sizes": (13, 19)}, "no common size"),
    ({"player_id": "a"}, "the same player"),
])
def test_entries_that_never_pair(other: dict[str, object], why: str) -> None:
    a = entry("a", "5k")
    b = entry("b", "5k", **other)
    assert not automatch.may_pair(a, b, 1000.0), why


def test_the_closest_pair_goes_first_and_nobody_is_paired_twice() -> None:
    # Ranks on a line: 10k, 9k, 8k (+ a 1d far away). After 20 s every window is 3: 9k-8k and 10k-9k are both 1
    # rank apart; the tie goes to the pair that has waited longest, and 8k is then left alone.
    p10 = entry("p10", "10k", since=0)
    p9 = entry("p9", "9k", since=1)
    p8 = entry("p8", "8k", since=2)
    dan = entry("dan", "1d", since=0)
    made = automatch.pairs([p8, dan, p9, p10], 30.0)
    assert made == [(p10, p9)]
    # A closer pair beats an older one.
    close = entry("close", "9k", since=3, rating=rating_of_rank("9k") + 1)
    assert automatch.pairs([p10, p9, close], 30.0) == [(p9, close)]


def test_the_size_is_the_first_choice_of_the_one_who_asked_first() -> None:
    a = entry("a", "5k", since=0, sizes=(19, 13, 9))
    b = entry("b", "5k", since=1, sizes=(9, 13))
    assert automatch.common_size(a, b) == automatch.common_size(b, a) == 13


def test_colours_by_rating_and_handicap_only_when_both_ask() -> None:
    strong, weak = entry("s", "2k", since=0), entry("w", "6k", since=1)
    even = automatch.settle(strong, weak, FRENCH)
    assert (even.black, even.white, even.handicap, even.komi) == (weak, strong, 0, 7.5)
    assert even.rated and even.clock == automatch.SPEEDS["blitz"]
    one = automatch.settle(replace(strong, handicap=True), weak, FRENCH)
    assert one.handicap == 0
    both = automatch.settle(replace(strong, handicap=True, sizes=(19,)), replace(weak, handicap=True, sizes=(19,)),
                            FRENCH)
    # 4 ranks on 19x19: the handicap worth closest to 4 ranks (4 stones, komi 0.5: 3.54 ranks).
    assert (both.size, both.handicap, both.komi) == (19, 4, 0.5)
    assert rank_difference(4, 19, 0.5, FRENCH) == pytest.approx(3.54, abs=0.01)
    # Equal ratings: the one who asked first takes Black; a guest makes the game unrated.
    first, second = entry("x", "5k", since=0), entry("y", "5k", since=1, registered=False)
    m = automatch.settle(second, first, FRENCH)
    assert m.black == first and not m.rated


@given(st.floats(0, 9), st.sampled_from([9, 13, 19]))
@settings(max_examples=200, deadline=None)
def test_the_handicap_chosen_is_the_closest_in_ranks(difference: float, size: int) -> None:
    n = automatch.handicap_for(difference, size, FRENCH)
    worth = rank_difference(n, size, automatch.komi_for(n, FRENCH), FRENCH)
    for other in range(automatch.MAX_HANDICAP + 1):
        assert abs(worth - difference) <= abs(
            rank_difference(other, size, automatch.komi_for(other, FRENCH), FRENCH) - difference) + 1e-9


@given(st.lists(st.tuples(st.floats(0, 38), st.floats(0, 200)), min_size=0, max_size=12), st.floats(0, 300))
@settings(max_examples=200, deadline=None)
def test_pairs_are_disjoint_and_within_both_windows(ranks: list[tuple[float, float]], now: float) -> None:
    entries = [entry(f"p{i}", "5k", since=since, rating=rating_of_number(r)) for i, (r, since) in enumerate(ranks)]
    made = automatch.pairs(entries, now + 200)
    ids = [e.player_id for pair in made for e in pair]
    assert len(ids) == len(set(ids))
    for a, b in made:
        assert automatch.gap(a, b) <= min(automatch.window(now + 200 - a.since), automatch.window(now + 200 - b.since))


@pytest.mark.parametrize(("sizes", "speed", "field"), [
    ([], "blitz", "sizes"), ([10], "blitz", "sizes"), ([9], "rapid", "speed"),
])
def test_requests_refused(sizes: list[int], speed: str, field: str) -> None:
    with pytest.raises(ValueError) as info:
        automatch.check_request(sizes, speed)
    assert info.value.args[0] == field
    assert automatch.check_request([19, 9, 19], "live") == ((19, 9), "live")


# -- the queue's claim --------------------------------------------------------------------------------------------
@pytest.fixture
def engine(db_url: str) -> Iterator[sa.Engine]:
    e = make_engine(db_url)
    migrate(e)
    yield e
    e.dispose()


def _run(engine: sa.Engine, op: store_automatch.Op) -> object:
    with engine.begin() as conn:
        return op(conn)


def test_a_claim_takes_a_pair_whole_or_not_at_all(engine: sa.Engine) -> None:
    for pid in ("a", "b", "c"):
        _run(engine, store_automatch.add(entry(pid, "5k")))
    _run(engine, store_automatch.claim(("a", "b"), "g1", 1.0))
    with pytest.raises(store_automatch.Taken):
        _run(engine, store_automatch.claim(("c", "b"), "g2", 2.0))
    # c stayed waiting: the transaction that found b taken was rolled back whole.
    assert [e.player_id for e in store_automatch.waiting(engine)] == ["c"]
    got = store_automatch.status(engine, "a")
    assert got is not None and got[1:] == ("g1", 1.0)
    _run(engine, store_automatch.release("g1"))
    assert [e.player_id for e in store_automatch.waiting(engine)] == ["a", "b", "c"]


def test_threads_racing_for_one_queue_match_each_player_once(engine: sa.Engine) -> None:
    players = [f"p{i}" for i in range(8)]
    for pid in players:
        _run(engine, store_automatch.add(entry(pid, "5k")))
    # Every thread tries every pair, in its own order: each player must end in exactly one game.
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]
    wins: list[tuple[str, str, str]] = []
    start = threading.Barrier(4)

    def work(k: int) -> None:
        start.wait()
        order = pairs[k:] + pairs[:k] if k % 2 else list(reversed(pairs))
        for n, pair in enumerate(order):
            gid = f"t{k}-{n}"
            try:
                _run(engine, store_automatch.claim(pair, gid, 1.0))
            except store_automatch.Taken:
                continue
            except sa.exc.OperationalError:
                continue  # SQLite's lock was busy: this thread's claim did nothing
            wins.append((gid, *pair))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    matched = [p for _g, a, b in wins for p in (a, b)]
    assert sorted(matched) == sorted(set(matched))
    with engine.connect() as conn:
        rows = dict(conn.execute(sa.select(queue.c.player_id, queue.c.game_id)).all())
    # What the table says is what the winners were told.
    assert {p: g for g, a, b in wins for p in (a, b)} == {p: g for p, g in rows.items() if g is not None}
    assert wins
