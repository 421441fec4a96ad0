"""The rank difference that a handicap and a komi stand for, after OGS's ``get_handicap_rank_difference``
(goratings, RatingMath.py), in our own terms.

The reasoning: with perfect komi a game is even. Perfect komi is taken as ``PERFECT_KOMI_TERRITORY`` points under
territory counting, one more under area counting (Black's extra stone on the board counts too). A free move is
worth twice the komi (komi pays White for half a move): ``2 x PERFECT_KOMI_TERRITORY`` points, plus one point under
area counting. Black's head start in points is then the perfect komi minus the komi White really gets (its
handicap bonus included, where the rules give White a point per handicap stone) plus the worth of every stone
beyond the first (a handicap of n stones gives Black n - 1 moves more than an even game with Black first). One rank
is one free move on 19x19; on 13x13 and 9x9 a point weighs more, so the head start counts ``SMALL_BOARD_SCALE``
times as many ranks.

keima's one exception: an even game (no handicap) at its ruleset's usual komi is even, difference 0, whatever the
formula would say of a 7.5 komi against a perfect 7 under area counting.
"""

from __future__ import annotations

from keima.rules.ruleset import Ruleset
from keima.rules.scoring import handicap_bonus

#: Perfect komi under territory counting (goratings' estimate; area counting adds the point of one stone).
PERFECT_KOMI_TERRITORY = 6.0
#: How many more ranks a point of head start is worth on the small boards than on 19x19.
SMALL_BOARD_SCALE: dict[int, float] = {9: 6.0, 13: 3.0}


def rank_difference(handicap: int, size: int, komi: float, rules: Ruleset) -> float:
    """How many ranks Black's head start is worth (negative: White's) in a game of ``handicap`` stones (0 or 1:
    none) and ``komi`` under ``rules`` on a ``size`` board. Never raises."""
    if handicap == 0 and komi == rules.default_komi:
        return 0.0
    area = 1.0 if rules.scoring == "area" else 0.0
    extra_moves = max(0, handicap - 1)
    bonus = handicap_bonus(rules, handicap)
    perfect = PERFECT_KOMI_TERRITORY + area
    move_territory = 2.0 * PERFECT_KOMI_TERRITORY
    head_start = perfect - (komi + bonus) + (move_territory + area) * extra_moves
    return head_start * SMALL_BOARD_SCALE.get(size, 1.0) / move_territory
