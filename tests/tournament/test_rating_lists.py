"""The FFG and EGD rating lists, read from fixed-column lines written for the tests (invented players)."""

from __future__ import annotations

import pytest

from keima.tournament import rating_lists as rl
from keima.tournament.model import Tournament, TournamentError


def ffg(names: str, rating: int, status: str, licence: str, club: str, country: str) -> str:
    """An FFG line: names in columns 0-38, rating 38-43, status 44, licence 46-53, club 54-58, country 59-61."""
    return f"{names:<38}{rating:>5} {status} {licence} {club} {country}"


def egd(pin: str, names: str, country: str, club: str, grade: str, gor: int) -> str:
    """An EGD line: PIN in columns 1-9, names 11-48, country 49-52, club 53-57, grade 60-63, GoR 71-75."""
    return f" {pin}  {names:<37} {country:<3} {club:<4}   {grade:<3}        {gor:>4}"


FFG = [
    "#Echelle au 01/02/2026 07:00:00",
    ffg("DUPONT Jean-Pierre", -1774, "L", "1500104", "92Ge", "FR"),
    ffg("LE_GALL Anne Marie", -156, "L", "0700348", "29Br", "FR"),
    ffg("ZHANG Wei", 187, "e", "-------", "xxxx", "CN"),
    ffg("MARTIN Léa", -3000, "-", "2000205", "38GJ", "FR"),
    "",
]

EGD = [
    egd("12345678", "Novak Petra", "CZ", "Prah", "3k", 1802),
    egd("23456789", "Schmidt Hans Peter", "DE", "Berl", "2d", 2215),
    egd("34567890", "Solo", "NL", "Amst", "20k", 155),
    "  Pin     Name                                   Co  Club  Grade      GoR",
]


def test_ffg_list_fields() -> None:
    players = list(rl.read_ffg(FFG))
    assert [(p.name, p.first_name) for p in players] == [
        ("DUPONT", "Jean-Pierre"),
        ("LE_GALL", "Anne Marie"),
        ("ZHANG", "Wei"),
        ("MARTIN", "Léa"),
    ]
    dupont = players[0]
    assert (dupont.rating, dupont.ffg_licence, dupont.ffg_licence_status, dupont.club, dupont.country) == (
        276,  # -1774 on the FFG's scale is 276 on the EGD's: +2050
        "1500104",
        "L",
        "92Ge",
        "FR",
    )
    assert players[2].ffg_licence == "" and players[2].club == ""  # "-------" and "xxxx" mean none


@pytest.mark.parametrize(
    ("licence", "rank", "rating_origin"),
    [("1500104", -18, "FFG : -1774"), ("0700348", -2, "FFG : -156"), ("2000205", -30, "FFG : -3000")],
)
def test_registering_by_licence_fills_the_player(licence: str, rank: int, rating_origin: str) -> None:
    p = rl.by_licence(rl.read_ffg(FFG))[licence].to_player()
    assert p.rank == rank and p.rating_origin == rating_origin and p.ffg_licence == licence


def test_ffg_lines_are_written_back_identically() -> None:
    for line in FFG[1:5]:
        (p,) = rl.read_ffg([line])
        assert rl.ffg_line(p) == line


def test_ffg_bad_rating_is_reported_with_its_line() -> None:
    with pytest.raises(TournamentError, match="line 1"):
        list(rl.read_ffg([FFG[1][:38] + "-17x4" + FFG[1][43:]]))


def test_egd_list_fields_and_ranks() -> None:
    players = rl.by_pin(rl.read_egd(EGD))
    assert set(players) == {"12345678", "23456789", "34567890"}
    novak = players["12345678"]
    assert (novak.name, novak.first_name, novak.country, novak.club, novak.grade, novak.rating) == (
        "Novak",
        "Petra",
        "CZ",
        "Prah",
        "3k",
        1802,
    )
    assert players["23456789"].first_name == "Hans Peter"
    assert players["34567890"].first_name == "x"  # OpenGotha's placeholder when the list has no given name
    assert novak.to_player().rank == -3  # 1802: 3K by rating
    assert players["23456789"].to_player(rank_from_grade=True).rank == 1  # 2D by grade
    assert players["23456789"].to_player().rank == 1  # 2215 rounds to 2D as well


def test_egd_lines_are_written_back_identically() -> None:
    for line in EGD[:2]:  # the third has no given name, which reading fills with "x"
        (p,) = rl.read_egd([line])
        assert rl.egd_line(p) == line


def test_a_player_registered_from_the_lists_joins_the_tournament_once() -> None:
    t = Tournament()
    t = t.with_player(rl.by_licence(rl.read_ffg(FFG))["1500104"].to_player())
    t = t.with_player(rl.by_pin(rl.read_egd(EGD))["12345678"].to_player())
    assert [(p.name, p.rank, p.club) for p in t.players] == [("DUPONT", -18, "92Ge"), ("Novak", -3, "Prah")]
    with pytest.raises(TournamentError, match="already registered"):
        t.with_player(rl.by_licence(rl.read_ffg(FFG))["1500104"].to_player())
