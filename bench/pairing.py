"""Time keima's McMahon pairing on a large synthetic tournament.

Usage::

    python bench/pairing.py [--players 300] [--rounds 4] [--seed 1]

Makes ``--players`` players (ranks 20K..5D, ratings to match, 40 clubs, 5 countries, invented names), then pairs
every round in turn with :func:`keima.tournament.pairing.pair_round`, entering random results (the stronger MMS
wins two times in three) before the next. Prints, per round, the seconds the pairing took (score sheet, every
pair's cost and the matching) and the games' count. The target is under 10 s a round for 300 players.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

from keima.tournament.criteria import score_sheet
from keima.tournament.model import GeneralParameters, Player, Result, Tournament, rating_from_rank
from keima.tournament.pairing import pair_round


def synthetic(players: int, rounds: int, rng: random.Random) -> Tournament:
    """A McMahon tournament of ``players`` invented players and no game yet."""
    people = []
    for i in range(players):
        rank = rng.randint(-20, 4)
        people.append(
            Player(
                name=f"Name{i:04d}",
                first_name=rng.choice(["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]),
                rank=rank,
                rating=rating_from_rank(rank) + rng.randint(-49, 49),
                club=f"{rng.randint(1, 40):02d}Cl",
                country=rng.choice(["FR", "DE", "NL", "BE", "CH"]),
            )
        )
    return Tournament(general=GeneralParameters(number_of_rounds=rounds), players=tuple(people))


def play(t: Tournament, round_number: int, rng: random.Random) -> Tournament:
    """Give every game of the round a random result."""
    sheet = score_sheet(t)
    games = []
    for g in t.games:
        if g.round == round_number:
            w = sheet.value(g.white, "MMS", round_number - 1)
            b = sheet.value(g.black, "MMS", round_number - 1)
            white_favoured = w + 2 * g.handicap >= b
            white_wins = rng.random() < (2 / 3 if white_favoured else 1 / 3)
            g = replace(g, result=Result.WHITE_WINS if white_wins else Result.BLACK_WINS)
        games.append(g)
    return replace(t, games=tuple(games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    t = synthetic(args.players, args.rounds, rng)
    for r in range(1, args.rounds + 1):
        start = time.perf_counter()
        pairing = pair_round(t, r)
        seconds = time.perf_counter() - start
        print(
            f"round {r}: {args.players} players, {len(pairing.games)} games, bye {pairing.bye or '-'}: {seconds:.2f} s"
        )
        t = play(t.with_games(pairing.games, pairing.bye, r), r, rng)


if __name__ == "__main__":
    main()
