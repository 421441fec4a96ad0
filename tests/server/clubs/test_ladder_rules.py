"""The ladder's rules on tables of cases (keima.server.clubs.ladder): who may challenge whom, how a result moves
the order, which open challenges are past their time, and a game's result read as the challenger's outcome."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from keima.server.clubs.ladder import (
    Challenge,
    LadderRefusal,
    after_result,
    can_challenge,
    expired,
    joined,
    left,
    outcome,
)

ORDER = ["a", "b", "c", "d", "e", "f"]
T0 = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


def _c(cid: int, challenger: str, defender: str, status: str = "open", due: datetime = T0) -> Challenge:
    return Challenge(cid, challenger, defender, status, due)


@pytest.mark.parametrize(("challenger", "defender", "reach", "busy", "refusal"), [
    ("d", "c", 3, [], None),                     # one place above
    ("d", "a", 3, [], None),                     # three places above: the reach's end
    ("e", "a", 3, [], "out-of-reach"),           # four places above
    ("e", "a", 4, [], None),                     # ... within a longer reach
    ("c", "d", 3, [], "out-of-reach"),           # below
    ("c", "c", 3, [], "out-of-reach"),           # oneself
    ("x", "a", 3, [], "not-member"),             # not on the ladder
    ("b", "x", 3, [], "not-found"),              # nobody to challenge
    ("d", "c", 3, [_c(1, "d", "b")], "busy"),    # the challenger's open challenge
    ("d", "c", 3, [_c(1, "f", "c", "playing")], "busy"),  # the defender's game in progress
    ("d", "c", 3, [_c(1, "d", "b", "won")], None),       # an ended one holds nobody
    ("d", "c", 3, [_c(1, "f", "e", "open")], None),      # others' challenge
])
def test_who_may_challenge_whom(challenger: str, defender: str, reach: int, busy: list[Challenge],
                                refusal: str | None) -> None:
    if refusal is None:
        can_challenge(ORDER, challenger, defender, reach, busy)
        return
    with pytest.raises(LadderRefusal) as exc:
        can_challenge(ORDER, challenger, defender, reach, busy)
    assert exc.value.code == refusal


@pytest.mark.parametrize(("challenger", "defender", "won", "after"), [
    ("d", "c", True, "abdcef"),     # one place: they swap
    ("d", "a", True, "dabcef"),     # the winner takes the top; those between move down one
    ("f", "d", True, "abcfde"),
    ("d", "a", False, "abcdef"),    # the defender wins: nothing changes
    ("a", "d", True, "abcdef"),     # the challenger above already (climbed meanwhile): nothing to take
    ("x", "a", True, "abcdef"),     # the challenger left meanwhile
    ("d", "x", True, "abcdef"),     # the defender left meanwhile
])
def test_a_result_moves_the_winner_up(challenger: str, defender: str, won: bool, after: str) -> None:
    assert "".join(after_result(ORDER, challenger, defender, won)) == after


@pytest.mark.parametrize(("result", "color", "status"), [
    ("B+R", "B", "won"), ("B+3.5", "B", "won"), ("W+T", "B", "lost"), ("W+R", "W", "won"),
    ("0", "B", "lost"), ("Void", "B", "lost"), ("B+F", "W", "lost"),
])
def test_a_game_result_as_the_challengers_outcome(result: str, color: str, status: str) -> None:
    assert outcome(result, color) == status


def test_open_challenges_past_their_time_are_lost_oldest_first() -> None:
    cs = [_c(1, "d", "c", "open", T0 + timedelta(days=1)), _c(2, "f", "e", "open", T0 - timedelta(hours=1)),
          _c(3, "b", "a", "playing", T0 - timedelta(days=3)), _c(4, "e", "d", "open", T0)]
    assert [c.id for c in expired(cs, T0)] == [2, 4]
    assert expired(cs, T0 - timedelta(days=1)) == []


@pytest.mark.parametrize(("order", "player", "after_join", "after_leave"), [
    ("abc", "d", "abcd", "abc"),
    ("abc", "b", "abc", "ac"),
    ("", "a", "a", ""),
])
def test_joining_and_leaving(order: str, player: str, after_join: str, after_leave: str) -> None:
    assert "".join(joined(list(order), player)) == after_join
    assert "".join(left(list(order), player)) == after_leave
