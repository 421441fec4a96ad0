"""The tournament changes of ``keima.server.tournaments.changes`` on values, without storage: swaps keep a round whole,
and a started round refuses to change (Hypothesis draws the players and the swaps)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.tournaments import changes as ops
from keima.server.tournaments import hand
from keima.server.tournaments.store import Outcome, Stored
from keima.tournament.model import GeneralParameters, Player, Tournament


def stored(ranks: list[int]) -> Stored:
    players = tuple(Player(f"P{i:02d}", "", r) for i, r in enumerate(ranks))
    t = Tournament(general=GeneralParameters(number_of_rounds=3), players=players)
    return Stored("t", t, ops.new_settings(), 1, timesource.now_utc())


def applied(s: Stored, out: Outcome) -> Stored:
    return Stored(s.id, out.tournament, out.settings, s.version + 1, s.created_at)


@settings(max_examples=40, deadline=None)
@given(ranks=st.lists(st.integers(-30, 8), min_size=2, max_size=12),
       swaps=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=6))
def test_swaps_keep_every_player_once_at_the_same_tables(ranks: list[int], swaps: list[tuple[int, int]]) -> None:
    s = applied(stored(ranks), hand.pair(1, None, False)(stored(ranks)))
    keys = sorted(p.key for p in s.tournament.players)
    tables = sorted(g.table for g in s.tournament.games_of_round(1))
    for a, b in swaps:
        if a >= len(keys) or b >= len(keys) or a == b:
            continue
        s = applied(s, hand.swap(1, keys[a], keys[b])(s))
        s.tournament.check()
        games = s.tournament.games_of_round(1)
        seated = [k for g in games for k in (g.white, g.black)] + [k for r, k in s.tournament.byes.items() if r == 1]
        assert sorted(seated) == keys
        assert sorted(g.table for g in games) == tables
        assert all(g.handicap >= 0 for g in games)


def test_a_started_round_refuses_to_change() -> None:
    s = stored([-5, -3, -1, 0])
    s = applied(s, hand.pair(1, None, False)(s))
    s = applied(s, ops.start(1, timesource.now_utc())(s))
    a, b = (p.key for p in s.tournament.players[:2])
    for change in (hand.pair(1, None, True), hand.unpair(1), hand.swap(1, a, b), ops.start(1, timesource.now_utc())):
        with pytest.raises(Refused) as exc:
            change(s)
        assert exc.value.code == "round-started"
    # A round at the table does not ask the scheduler for anything; an online one does, at its start time.
    at = datetime(2026, 11, 26, 14, 0, tzinfo=UTC)
    online = stored([-5, -3])
    online.settings["online"] = True
    online = applied(online, hand.pair(1, None, False)(online))
    assert ops.start(1, at)(online).jobs == [(ops.ROUND_JOB, "t/1", at)]
    assert ops.start(1, at)(applied(stored([-5, -3]), hand.pair(1, None, False)(stored([-5, -3])))).jobs == []
