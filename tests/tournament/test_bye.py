"""The bye of an odd round chosen with the pairing: OpenGotha's first choice unless it forces a repeated game that
another bye avoids (hand-built tournaments, one line of the table each)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from keima.tournament.model import Game, GeneralParameters, Result, Tournament
from keima.tournament.pairing import pair_round

from .builders import player

W = Result.WHITE_WINS
A = player("Ardent", "Ann", 2)  # 3D
B = player("Brave", "Bob", 0)  # 1D
C = player("Calm", "Cy", -1)  # 1K
D = player("Deft", "Di", -5)  # 5K
E = player("Eager", "Ed", -10, absent=())  # 10K
F = player("Fond", "Flo", -15, absent=(4,))  # 15K, absent from round 4


@dataclass(frozen=True)
class Case:
    name: str
    players: tuple[object, ...]
    games: tuple[tuple[int, str, str], ...]  # (round, white, black), White won
    round: int
    bye: str  # the bye keima gives
    repeats: int  # the repeated games of the pairing
    first_choice: str  # OpenGotha's first choice (the weakest with the fewest byes)


CASES = [
    # The walk's round 4: Ardent met Brave, Calm and Deft; Eager's bye (the weakest) left those four to pair, and
    # one of them had to meet Ardent again. Deft's bye lets Ardent meet Eager and Brave meet Calm.
    Case("walk-round-4", (A, B, C, D, E, F),
         ((1, A.key, B.key), (1, C.key, E.key), (1, D.key, F.key),
          (2, A.key, C.key), (2, B.key, F.key), (2, D.key, E.key),
          (3, A.key, D.key), (3, B.key, E.key), (3, C.key, F.key)),
         4, D.key, 0, E.key),
    # Three players who all met: every bye leaves a repeated game, and OpenGotha's choice stays.
    Case("no-bye-avoids-it", (A, B, C),
         ((1, A.key, B.key), (2, A.key, C.key), (3, B.key, C.key)),
         4, C.key, 1, C.key),
    # Eager had round 1's bye; the next weakest's repeats nothing: it stays.
    Case("first-choice-fine", (A, B, C, D, E),
         ((1, A.key, B.key), (1, C.key, D.key)),
         2, D.key, 0, D.key),
]


def _tournament(case: Case) -> Tournament:
    games = tuple(Game(r, i + 1, w, b, 0, W) for i, (r, w, b) in enumerate(case.games))
    byes = {}
    for r in {g.round for g in games}:
        seated = {k for g in games if g.round == r for k in (g.white, g.black)}
        left = [p.key for p in case.players if p.key not in seated and p.plays(r)]  # type: ignore[attr-defined]
        if left:
            byes[r] = left[0]
    return Tournament(general=GeneralParameters(number_of_rounds=5), players=case.players,  # type: ignore[arg-type]
                      games=games, byes=byes)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_bye_avoids_a_repeated_game_when_another_bye_can(case: Case) -> None:
    t = _tournament(case)
    pairing = pair_round(t, case.round)
    met = {frozenset((g.white, g.black)) for g in t.games}
    assert pairing.bye == case.bye
    assert sum(frozenset((g.white, g.black)) in met for g in pairing.games) == case.repeats


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_opengotha_first_choice_is_the_weakest_with_fewest_byes(case: Case) -> None:
    from keima.tournament.pairing import _Pairer

    t = _tournament(case)
    pairer = _Pairer(t, case.round, None)
    keys = [p.key for p in t.players if p.plays(case.round)]
    assert pairer.bye_order(keys)[0] == case.first_choice
