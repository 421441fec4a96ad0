"""Scores and standings of a tiny tournament worked out by hand, and standings that do not depend on the order
the players and games were entered in."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.tournament.criteria import Participation, score_sheet, starting_mms
from keima.tournament.model import Game, GeneralParameters, Player, Result, Tournament
from keima.tournament.standings import standings

from .builders import A, B, C, D, E, player, random_tournament, tiny

# Starting MMS (rank counted from 30K, clamped to floor 20K and bar 4D): 2D 31, 1D 30, 1K 29, 3K 27, 25K -> 10.
# After each round, doubled; a draw is one, an absence earns 1 (half a point, rounded down while alone), a bye 2.
MMS_X2 = {
    A.key: (62, 64, 65, 65),  # win, draw, loss
    B.key: (60, 60, 62, 64),  # loss, forfeit win, win
    C.key: (58, 58, 59, 59),  # loss with one stone given, draw, loss
    D.key: (54, 56, 56, 58),  # win, absent (half a point rounded down to 0), win
    E.key: (20, 22, 22, 22),  # bye (a point), forfeit loss, absent (1 + 2 = 3 halves, rounded down to 2)
}


@pytest.mark.parametrize(("key", "series"), sorted(MMS_X2.items()))
def test_mms_after_each_round(key: str, series: tuple[int, ...]) -> None:
    sheet = score_sheet(tiny())
    assert tuple(sheet.value(key, "MMS", r) for r in range(4)) == series


def test_starting_mms_is_clamped_between_floor_and_bar() -> None:
    g = GeneralParameters()
    assert [starting_mms(p, g) for p in (A, B, C, D, E)] == [31, 30, 29, 27, 10]
    assert starting_mms(replace(A, rank=6), g) == 33  # 7D counts as the bar, 4D
    assert starting_mms(replace(A, rank=6, smms_correction=1), g) == 34


# (player, criterion, value after round 3, in the criterion's unit: halves, quarters for SODOS)
AFTER_ROUND_3 = [
    (A, "SOSM", 64 + 59 + 58),
    (B, "SOSM", 65 + (22 + 18) + 59),  # Echo's MMS corrected by the 9 stones Bravo gave
    (C, "SOSM", (58 + 2) + 65 + 64),  # Delta took one stone from Charlie
    (D, "SOSM", (59 - 2) + 54 + 65),  # absent in round 2: his own starting MMS
    (E, "SOSM", 20 + (64 - 18) + 20),  # bye and absence: his own starting MMS
    (A, "SOSOSM", 164 + 189 + 176),
    (D, "SOSOSM", 189 + 2 * 27 * 3 + 181),  # a round not played counts starting MMS times the rounds
    (E, "SOSOSM", 60 + 164 + 60),
    (A, "NBW", 3),
    (B, "NBW", 4),
    (D, "NBW", 4),  # an absence is worth no win
    (E, "NBW", 2),  # the bye is worth a win
    (A, "SOSW", 4 + 1 + 4),
    (A, "SODOSM", 2 * 64 + 1 * 59),  # Bravo beaten, Charlie drawn (half of his score)
    (A, "CUSSM", 64 + 65 + 65),
    (A, "SOSM-1", 64 + 59),
    (A, "SOSM-2", 64),
]


@pytest.mark.parametrize(
    ("who", "criterion", "value"), AFTER_ROUND_3, ids=lambda x: getattr(x, "name", str(x))
)
def test_criteria_after_round_3(who: Player, criterion: str, value: int) -> None:
    assert score_sheet(tiny()).value(who.key, criterion, 3) == value


def test_participation_of_each_round() -> None:
    sheet = score_sheet(tiny())
    assert sheet.participation(E.key, 1) is Participation.BYE
    assert sheet.participation(D.key, 2) is Participation.ABSENT
    assert sheet.participation(E.key, 3) is Participation.ABSENT
    assert sheet.participation(A.key, 3) is Participation.PAIRED


def test_standings_order_and_values() -> None:
    lines = standings(tiny())
    assert [s.player.name for s in lines] == ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]
    assert [s.place for s in lines] == [1, 2, 3, 4, 5]
    assert lines[0].values == (("MMS", 65), ("SOSM", 181), ("SOSOSM", 529))


def test_standings_before_the_first_round_follow_the_starting_mms() -> None:
    lines = standings(tiny(), 0)
    assert [s.value("MMS") for s in lines] == [62, 60, 58, 54, 20]


def test_equal_players_share_a_place_and_are_listed_by_name() -> None:
    t = replace(tiny(), games=(), byes={}, players=(replace(B, name="Zulu"), B, replace(B, name="Mike")))
    lines = standings(t, 0)
    assert [s.player.name for s in lines] == ["Bravo", "Mike", "Zulu"]
    assert [s.place for s in lines] == [1, 1, 1]


def test_unrounded_absences_keep_their_half_point() -> None:
    t = tiny()
    t = replace(t, general=replace(t.general, round_down=False))
    assert score_sheet(t).value(D.key, "MMS", 2) == 57


def test_unplayed_games_counted_as_half_a_point_for_sos() -> None:
    t = tiny()
    t = replace(t, general=replace(t.general, count_not_played_as_half=True))
    # Echo's virtual MMS: 20 + a half for the bye, a half for the forfeit, a half for the absence = 23.
    assert score_sheet(t).value(B.key, "SOSM", 3) == 65 + (23 + 18) + 59


def _direct(games: tuple[Game, ...], byes: dict[int, str], *people: Player) -> list[tuple[str, int, int]]:
    t = Tournament(
        general=GeneralParameters(number_of_rounds=3),
        criteria=("NBW", "SDC", "DC", "Rating"),
        players=people,
        games=games,
        byes=byes,
    )
    return [(s.player.name, s.value("SDC"), s.value("DC")) for s in standings(t, 3)]


def test_direct_confrontation_puts_the_winner_of_the_tied_game_first() -> None:
    p, q = player("Papa", "P", -5, rating=1500), player("Quebec", "Q", -5, rating=1600)
    r, s = player("Romeo", "R", -5, rating=1400), player("Sierra", "S", -5, rating=1300)
    games = (
        Game(1, 1, p.key, q.key, 0, Result.WHITE_WINS),
        Game(1, 2, r.key, s.key, 0, Result.WHITE_WINS),
        Game(2, 1, r.key, p.key, 0, Result.WHITE_WINS),
        Game(2, 2, q.key, s.key, 0, Result.WHITE_WINS),
    )
    # Papa and Quebec have one win each; Quebec's rating is higher, but Papa beat him.
    assert _direct(games, {}, p, q, r, s) == [
        ("Romeo", 0, 0),
        ("Papa", 1, 1),
        ("Quebec", 0, 0),
        ("Sierra", 0, 0),
    ]


def test_a_circle_of_wins_leaves_direct_confrontation_to_the_next_criteria() -> None:
    p, q, r = (player(n, "X", -5, rating=rt) for n, rt in (("Papa", 1500), ("Quebec", 1600), ("Romeo", 1400)))
    games = (
        Game(1, 1, p.key, q.key, 0, Result.WHITE_WINS),
        Game(2, 1, q.key, r.key, 0, Result.WHITE_WINS),
        Game(3, 1, r.key, p.key, 0, Result.WHITE_WINS),
    )
    # Each won once and had a bye: all tied, all met, each beat one (SDC 1); the circle's games are ignored, so DC
    # follows the criterion after it, the rating.
    byes = {1: r.key, 2: p.key, 3: q.key}
    assert _direct(games, byes, p, q, r) == [("Quebec", 1, 2), ("Papa", 1, 1), ("Romeo", 1, 0)]


def test_a_circle_shares_its_wins_against_the_rest_of_the_group() -> None:
    # All of the same rank (the criterion before DC). Papa, Quebec and Romeo beat each other in a circle; Romeo
    # also beat Sierra, who has the best rating. Each of the circle takes on Romeo's win: Sierra is ranked below
    # all three, who are then ordered by rating.
    people = [
        player(n, "X", -5, rating=rt)
        for n, rt in (("Papa", 1500), ("Quebec", 1600), ("Romeo", 1400), ("Sierra", 1900))
    ]
    p, q, r, s = people
    games = (
        Game(1, 1, p.key, q.key, 0, Result.WHITE_WINS),
        Game(1, 2, r.key, s.key, 0, Result.WHITE_WINS),
        Game(2, 1, q.key, r.key, 0, Result.WHITE_WINS),
        Game(3, 1, r.key, p.key, 0, Result.WHITE_WINS),
    )
    t = Tournament(
        general=GeneralParameters(number_of_rounds=3),
        criteria=("Rank", "DC", "Rating"),
        players=tuple(people),
        games=games,
    )
    lines = standings(t, 3)
    assert [(x.player.name, x.value("DC")) for x in lines] == [
        ("Quebec", 3),
        ("Papa", 2),
        ("Romeo", 1),
        ("Sierra", 0),
    ]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(4, 12), st.integers(1, 3))
def test_standings_do_not_depend_on_input_order(seed: int, players: int, played: int) -> None:
    rng = random.Random(seed)
    t = random_tournament(rng, players, 4, played)
    shuffled = list(t.players)
    rng.shuffle(shuffled)
    games = list(t.games)
    rng.shuffle(games)
    other = replace(t, players=tuple(shuffled), games=tuple(games))
    first = [(s.place, s.player.key, s.values) for s in standings(t, played)]
    second = [(s.place, s.player.key, s.values) for s in standings(other, played)]
    assert first == second
