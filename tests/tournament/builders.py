"""Tournaments made for the tests: a tiny McMahon tournament whose scores are worked out by hand in the tests, and
random tournaments for the property tests. Every name is invented."""

from __future__ import annotations

import random
from dataclasses import replace

from keima.tournament.model import (
    MAX_ROUNDS,
    Game,
    GeneralParameters,
    Player,
    Result,
    Tournament,
    rating_from_rank,
)
from keima.tournament.pairing import pair_round


def player(name: str, first: str, rank: int, absent: tuple[int, ...] = (), **kw: object) -> Player:
    """A player of rank ``rank`` who skips the rounds ``absent`` (from 1)."""
    part = tuple(r + 1 not in absent for r in range(MAX_ROUNDS))
    base = {"rating": rating_from_rank(rank), "club": "75Pa", "country": "FR"}
    base.update(kw)
    return Player(name, first, rank, participating=part, **base)  # type: ignore[arg-type]


A = player("Alpha", "Ann", 1, ffg_licence="0000001")
B = player("Bravo", "Bob", 0, ffg_licence="0000002")
C = player("Charlie", "Cy", -1, ffg_licence="0000003")
D = player("Delta", "Di", -3, absent=(2,), ffg_licence="0000004")
E = player("Echo", "Ed", -25, absent=(3,), ffg_licence="0000005")


def tiny() -> Tournament:
    """Five players, three rounds: a win, a handicap game, a bye, a draw, a forfeit, two absences.

    ====== ======================== ======================================= ====================
    round  table 1                  table 2                                  not playing
    ====== ======================== ======================================= ====================
    1      Alpha (W) beats Bravo    Charlie (W) loses to Delta, 1 stone      Echo: bye
    2      Alpha (W) draws Charlie  Bravo (W) beats Echo by forfeit, 9 st.   Delta: absent
    3      Alpha (W) loses to Delta Bravo (W) beats Charlie                  Echo: absent
    ====== ======================== ======================================= ====================
    """
    games = (
        Game(1, 1, A.key, B.key, 0, Result.WHITE_WINS),
        Game(1, 2, C.key, D.key, 1, Result.BLACK_WINS),
        Game(2, 1, A.key, C.key, 0, Result.DRAW),
        Game(2, 2, B.key, E.key, 9, Result.WHITE_WINS, by_default=True),
        Game(3, 1, A.key, D.key, 0, Result.BLACK_WINS),
        Game(3, 2, B.key, C.key, 0, Result.WHITE_WINS),
    )
    general = GeneralParameters(
        name="Tiny Open",
        short_name="tiny",
        location="Paris",
        director="Invented Director",
        begin_date="2026-03-14",
        end_date="2026-03-15",
        number_of_rounds=3,
    )
    return Tournament(general=general, players=(A, B, C, D, E), games=games, byes={1: E.key})


def random_tournament(rng: random.Random, players: int, rounds: int, played: int) -> Tournament:
    """``players`` invented players (some absent from some rounds, a few sharing clubs), ``played`` rounds paired
    by keima with random results."""
    people = []
    for i in range(players):
        rank = rng.randint(-25, 5)
        absent = tuple(r for r in range(1, rounds + 1) if rng.random() < 0.1)
        people.append(
            player(
                f"Name{i:02d}",
                rng.choice(["Ann", "Bob", "Cy", "Di"]),
                rank,
                absent=absent,
                club=rng.choice(["75Pa", "69Ly", "31To", "13Ma"]),
                country=rng.choice(["FR", "FR", "DE"]),
            )
        )
    t = Tournament(general=GeneralParameters(number_of_rounds=rounds), players=tuple(people))
    for r in range(1, played + 1):
        pairing = pair_round(t, r)
        results = [
            rng.choice([Result.WHITE_WINS, Result.BLACK_WINS, Result.WHITE_WINS, Result.DRAW])
            for _ in pairing.games
        ]
        games = tuple(replace(g, result=res) for g, res in zip(pairing.games, results, strict=True))
        t = t.with_games(games, pairing.bye, r)
    return t
