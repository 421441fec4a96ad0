"""The bot's game review (``keima.ai.analysis``) on small boards, with small budgets: the clear best move comes
first, a blunder loses many points, the entries line up with the moves, and a review can be stopped."""

from __future__ import annotations

import math
import os
import threading
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.ai import analysis
from keima.ai.analysis import (
    CHECK_SALT,
    MAX_SEARCHES,
    NICE,
    SPREAD,
    Budget,
    Cancelled,
    Candidate,
    Check,
    Evaluation,
    MoveReview,
    ReviewRun,
    accuracy,
    assemble,
    candidate_losses,
    mistakes,
    move_class,
    position_json,
    positions,
    refine_budget,
    review_game,
    spread,
    summary,
    suspect,
    unsettled,
)
from keima.rules import Game, from_gtp

# Black to move on 7x7, a capturing race of one liberty each: the five white stones of the third row and the four
# black stones below them share their last liberty, F4. Black takes five stones there; anywhere else, White takes
# four. (7x7: no policy network, whose 9x9 prior barely looks at such a capture at these budgets.)
CAPTURE = [
    ".......",
    ".XXXXX.",
    "XOOOOOX",
    "OXXXX..",
    ".OOOO..",
    ".......",
    ".......",
]


def _setup(rows: list[str], to_move: str = "B") -> Game:
    """A game set up from an ASCII diagram (``X`` black, ``O`` white; row 0 at the top)."""
    game = Game(len(rows), komi=0.5)
    n = game.size
    black = [r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X"]
    white = [r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "O"]
    game.setup(black=black, white=white, to_move=to_move)
    return game


BUDGET = Budget(seconds=None, playouts=400)


def test_the_capture_comes_first_and_a_blunder_loses_much() -> None:
    capture = from_gtp("F4", 7)
    good = _setup(CAPTURE)
    good.play(capture)
    bad = _setup(CAPTURE)
    bad.play(from_gtp("A1", 7))
    good_review = review_game(good, BUDGET, seed=3)
    bad_review = review_game(bad, BUDGET, seed=3)
    for review in (good_review, bad_review):
        assert [r.n for r in review] == [0, 1]
        assert review[1].best[0].move == capture
        assert review[1].best[0].pv[0] == capture
        assert review[0].winrate > 0.8  # Black, to take five stones, is winning
    assert good_review[1].loss == 0.0
    assert bad_review[1].played == from_gtp("A1", 7)
    assert bad_review[1].loss is not None and bad_review[1].loss >= 20
    assert bad_review[1].winrate < 0.2 < 0.8 < good_review[1].winrate
    assert bad_review[1].winrate_loss is not None and bad_review[1].winrate_loss > 0.6
    assert mistakes(bad_review) == [bad_review[1]]


def test_entries_follow_the_moves_passes_and_the_end() -> None:
    game = Game(5)
    for vertex in ("C3", "B2", "D4"):
        game.play(from_gtp(vertex, 5))
    game.pass_move()
    game.pass_move()  # two passes: the count follows; the review still judges the last position
    line = positions(game)
    assert [(c, p) for _g, c, p in line] == [(1, from_gtp("C3", 5)), (2, from_gtp("B2", 5)),
                                            (1, from_gtp("D4", 5)), (2, None), (1, None), (None, None)]
    assert [g.move_number for g, _c, _p in line] == [0, 1, 2, 3, 4, 5]
    review = review_game(game, Budget(seconds=None, playouts=64), seed=1, top=3)
    assert [(r.n, r.played) for r in review] == [(0, None), (1, from_gtp("C3", 5)), (2, from_gtp("B2", 5)),
                                                 (3, from_gtp("D4", 5)), (4, None), (5, None)]
    for r in review:
        assert 0.0 <= r.winrate <= 1.0
        assert len(r.best) <= 3
        assert all(c.visits >= 2 for c in r.best)
        assert r.n == 0 or (r.loss is not None and r.loss >= 0)
        data = r.as_dict(5)
        assert set(data) == {"n", "color", "played", "winrate", "score", "loss", "winrate_loss", "class", "searches",
                             "best"}
    assert review[4].as_dict(5)["played"] == "pass"
    assert review[1].as_dict(5)["played"] == "C3"
    assert [b["move"] for b in review[1].as_dict(5)["best"]][:1] != []


def test_progress_and_cancellation() -> None:
    game = Game(5)
    for vertex in ("C3", "B2", "D4", "D2"):
        game.play(from_gtp(vertex, 5))
    seen: list[tuple[int, int]] = []
    stopped = threading.Event()

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 2:
            stopped.set()

    with pytest.raises(Cancelled):
        review_game(game, Budget(seconds=None, playouts=32), seed=1, progress=progress, stop=stopped.is_set)
    # Five positions, and the refine pass's estimate: the positions around the largest losses of 4 moves.
    assert seen == [(1, 13), (2, 13)]


def test_the_budget_is_checked() -> None:
    with pytest.raises(ValueError, match="seconds or playouts"):
        Budget(seconds=None, playouts=None)
    with pytest.raises(ValueError):
        Budget(seconds=-1)
    with pytest.raises(ValueError):
        Budget(seconds=None, playouts=0)


def test_a_review_thread_runs_at_a_lower_priority() -> None:
    """``nice``: the review's own thread yields to the others (Linux keeps a priority per thread); the caller's
    priority is untouched."""
    own = os.getpriority(os.PRIO_PROCESS, 0)
    seen: list[int] = []

    def work() -> None:
        game = Game(5)
        review_game(game, Budget(seconds=None, playouts=8), seed=1, nice=True)
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == [min(own + NICE, 19)]
    assert os.getpriority(os.PRIO_PROCESS, 0) == own


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(-80, 80), st.booleans()), min_size=2, max_size=12))
def test_losses_follow_the_evaluations(values: list[tuple[float, float, bool]]) -> None:
    """``assemble``: each move's loss is the drop of its player's lead between the evaluations around it, never
    negative, and 0 when the move is the search's first choice."""
    game = Game(9)
    spots = [0, 2, 4, 6, 8, 18, 20, 22, 24, 26, 36, 38]  # stones two points apart: no capture
    for p in spots[: len(values) - 1]:
        game.play(p)
    line = positions(game)
    assert len(line) == len(values)
    evals = []
    for (_position, _color, point), (winrate, score, chosen) in zip(line, values, strict=True):
        # The search's first choice is the move then played when ``chosen``, else J1 (never played here).
        best = [Candidate(point if chosen else 80, winrate, 10, [])]
        evals.append(Evaluation(winrate, score, best, 10))
    reviews = assemble(line, evals)
    assert [r.n for r in reviews] == list(range(len(values)))
    assert all(r.kind == move_class(r.loss) for r in reviews)
    for n in range(1, len(values)):
        r, before, after = reviews[n], evals[n - 1], evals[n]
        sign = 1 if r.color == 1 else -1
        expected = 0.0 if values[n - 1][2] else max(0.0, sign * (before.score - after.score))
        assert r.loss == pytest.approx(expected)
        assert r.winrate_loss is not None and r.winrate_loss >= 0
        assert (r.winrate, r.score) == (after.winrate, after.score)
        assert r.best == before.best


def test_classes_and_accuracy_follow_the_thresholds() -> None:
    """A move's class is the highest whose threshold (2, 4, 8 points) it reaches; a player's accuracy is the mean of
    ``100 * 2 ** (-loss / 4)``; the summary lists every classed move of each player, largest first."""
    assert [move_class(x) for x in (None, 0.0, 1.99, 2.0, 3.9, 4.0, 7.99, 8.0, 30.0)] == [
        None, None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert accuracy([]) is None
    assert accuracy([0.0, 4.0]) == pytest.approx(75.0)
    assert accuracy([8.0]) == pytest.approx(25.0)
    moves = [{"n": 0, "color": None, "played": None, "loss": None},
             {"n": 1, "color": "B", "played": "E5", "loss": 2.5},
             {"n": 2, "color": "W", "played": "D4", "loss": 0.0},
             {"n": 3, "color": "B", "played": "C3", "loss": 9.0},
             {"n": 4, "color": "W", "played": "pass", "loss": 4.0},
             {"n": 5, "color": "B", "played": "A1", "loss": 1.0}]
    out = summary(moves)
    assert out["thresholds"] == {"inaccuracy": 2.0, "mistake": 4.0, "blunder": 8.0}
    assert out["B"]["moves"] == 3 and out["W"]["moves"] == 2
    assert [m["n"] for m in out["B"]["list"]] == [3, 1]
    assert out["B"]["counts"] == {"inaccuracy": 1, "mistake": 0, "blunder": 1}
    assert out["W"]["list"] == [{"n": 4, "played": "pass", "loss": 4.0, "class": "mistake"}]
    assert out["W"]["accuracy"] == pytest.approx(75.0)
    assert out["B"]["mean_loss"] == pytest.approx(12.5 / 3, abs=0.01)


def test_candidates_say_what_they_lose() -> None:
    best = [Candidate(1, 0.6, 100, [1], 3.0), Candidate(2, 0.5, 40, [2], 5.5), Candidate(3, 0.4, 10, [3], -1.0),
            Candidate(4, 0.4, 5, [4], None)]
    # For Black a lower lead is a loss; for White a higher one.
    assert candidate_losses(best, 1) == [0.0, 0.0, 4.0, None]
    assert candidate_losses(best, 2) == [0.0, 2.5, 0.0, None]
    data = position_json(Evaluation(0.6, 3.0, best, 155), 2, 9)
    assert data["to_move"] == "W" and [c["loss"] for c in data["best"]] == [0.0, 2.5, 0.0, None]


def test_merged_evaluations_weigh_by_playouts() -> None:
    a = Evaluation(0.6, 4.0, [Candidate(1, 0.6, 300, [1, 2], 4.0), Candidate(2, 0.5, 100, [2], 1.0)], 400)
    b = Evaluation(0.4, 0.0, [Candidate(2, 0.45, 300, [2, 5], 2.0), Candidate(3, 0.3, 100, [3], -2.0)], 400)
    m = a.merged(b)
    assert (m.winrate, m.score, m.playouts, m.searches) == (pytest.approx(0.5), pytest.approx(2.0), 800, 2)
    assert [c.move for c in m.best] == [2, 1, 3]
    assert m.best[0].visits == 400 and m.best[0].pv == [2, 5]
    assert m.best[0].score == pytest.approx(1.75) and m.best[0].winrate == pytest.approx(0.4625)
    again = Evaluation.from_dict(m.as_dict())
    assert again == m
    # Evaluations stored before candidates had a lead still read.
    old = {"winrate": 0.5, "score": 1.0, "playouts": 10, "best": [[3, 0.5, 8, [3]]]}
    assert Evaluation.from_dict(old) == Evaluation(0.5, 1.0, [Candidate(3, 0.5, 8, [3], None)], 10)


def test_the_refine_pass_searches_again_around_the_largest_losses() -> None:
    """After the first pass, the positions before and after the moves that lost the most, and those of few
    playouts, are searched a second time and merged, then the positions around the largest losses checked; the
    run's total says so, and a run made again from its stored evaluations (the server's chunks) goes on where it
    was."""
    game = Game(9)
    spots = [0, 2, 4, 6, 8, 18, 20, 22, 24, 26, 36, 38]
    for p in spots:
        game.play(p)
    line = positions(game)
    scores = [0.0, 0.0, 10.0, 10.0, 10.0, 10.0, 10.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0]

    class Fixed:
        top = 5

        def __init__(self) -> None:
            self.calls: list[tuple[int, int]] = []

        def evaluate(self, position: Game, stop: object = None, salt: int = 0) -> Evaluation:
            i = position.move_number
            self.calls.append((i, salt))
            if salt >= CHECK_SALT:
                i -= 1  # a check (the position after the first candidate) confirms the position's lead
            return Evaluation(0.5, scores[i], [Candidate(80, 0.5, 100, [80], scores[i])], 100 if i != 11 else 10)

    analyst = Fixed()
    run = ReviewRun(line)
    assert run.total == 13 + 2 * 8
    while run.step(analyst):  # type: ignore[arg-type]
        if len(analyst.calls) in (5, 20):
            # The server stores the evaluations after each search and makes the run again from them.
            run = ReviewRun(line, [Evaluation.from_dict(e.as_dict()) for e in run.evals])
    assert run.complete and not run.step(analyst)  # type: ignore[arg-type]
    again = sorted(i for i, salt in analyst.calls if 0 < salt < CHECK_SALT)
    # Move 2 (White) lost 10 points, move 7 (Black) 15: positions 1, 2, 6, 7; position 11 had few playouts.
    assert again == [1, 2, 6, 7, 11]
    assert all(salt == 1 for _i, salt in analyst.calls if 0 < salt < CHECK_SALT)
    # Then the checks of positions 6, 7, 1 and 2 (the largest loss first), each one's position after the move.
    checks = [(i, salt) for i, salt in analyst.calls if salt >= CHECK_SALT]
    assert checks == [(2, CHECK_SALT + 2), (3, CHECK_SALT + 2), (7, CHECK_SALT + 2), (8, CHECK_SALT + 2)]
    assert run.done == run.total == 13 + 5 + 4
    assert [e.searches for e in run.evals] == [1, 2, 2, 1, 1, 1, 2, 2, 1, 1, 1, 2, 1]
    assert [i for i, e in enumerate(run.evals) if e.check is not None] == [1, 2, 6, 7]


def test_an_evaluation_keeps_each_search_lead_and_its_error() -> None:
    """Merged evaluations keep each search's lead (stored and read back); the error of the lead is their spread
    drawn towards the usual one, divided by the square root of the searches: two searches that agree are surer
    than one, two that disagree less so."""
    one = Evaluation(0.5, 4.0, [], 100, samples=(4.0,))
    assert one.error(9) == pytest.approx(SPREAD)
    assert spread(19) == pytest.approx(SPREAD * 19 / 9) and spread(7) == SPREAD
    apart = one.merged(Evaluation(0.5, -4.0, [], 100, samples=(-4.0,)))
    assert apart.leads == (4.0, -4.0) and apart.score == pytest.approx(0.0)
    # Squares about the mean: 32; the usual spread counts for two searches.
    assert apart.error(9) == pytest.approx(((2 * SPREAD**2 + 32.0) / 3 / 2) ** 0.5)
    agree = one.merged(Evaluation(0.5, 4.0, [], 100, samples=(4.0,)))
    assert agree.error(9) < one.error(9) < apart.error(9)
    assert Evaluation.from_dict(apart.as_dict()) == apart
    # Evaluations stored before the leads were kept: the merged lead stands for them.
    old = Evaluation.from_dict({"winrate": 0.5, "score": 1.0, "playouts": 10, "searches": 2, "best": []})
    assert old.leads == (1.0,) and old.error(9) == pytest.approx(SPREAD)


def _reviews(losses: list[float]) -> tuple[list[MoveReview], list[Evaluation]]:
    """Reviews of moves that lost ``losses`` (move 1 first), each position searched once, and their evaluations."""
    evals = [Evaluation(0.5, 0.0, [], 100, samples=(0.0,)) for _ in range(len(losses) + 1)]
    reviews = [MoveReview(0, None, None, 0.5, 0.0, None, None, [])]
    reviews += [MoveReview(n, 1, 0, 0.5, 0.0, loss, 0.0, []) for n, loss in enumerate(losses, 1)]
    return reviews, evals


def test_the_moves_in_doubt_are_those_near_the_fifth_place() -> None:
    """``unsettled``: the moves whose loss is within a standard error of the line between the fifth largest and
    the sixth, nearest first; none when five moves or fewer lost anything."""
    reviews, evals = _reviews([20.0, 0.0, 15.0, 12.0, 10.0, 5.5, 6.0, 3.0, 1.0])
    # The line is at 5.75; one search a position: the loss's error is SPREAD * sqrt(2), about 2.1 points.
    assert unsettled(reviews, evals, 9) == [6, 7]
    assert unsettled(reviews, evals, 9, top=3) == [4, 5]
    assert unsettled(*_reviews([20.0, 0.0, 15.0, 12.0, 10.0, 5.5]), 9) == []


def test_the_refine_pass_settles_the_fifth_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first refine round, the positions around the moves in doubt for the fifth place are searched
    again, round after round, up to ``MAX_SEARCHES`` a position or the refine pass's budget; the total the run
    announces stays the same until the end, then it is the searches done. (No checks here: their own test.)"""
    monkeypatch.setattr(analysis, "CHECKED_MOVES", 0)
    game = Game(9)
    for p in [0, 2, 4, 6, 8, 18, 20, 22, 24, 26, 36, 38]:
        game.play(p)
    line = positions(game)
    # Moves 1 to 6 lose 20, 15, 12, 10, 6 and 5.8 points (Black plays the odd moves); the others nothing.
    losses = [20.0, 15.0, 12.0, 10.0, 6.0, 5.8] + [0.0] * 6
    scores = [0.0]
    for n, loss in enumerate(losses, 1):
        scores.append(scores[-1] - (loss if n % 2 else -loss))

    class Fixed:
        top = 5

        def evaluate(self, position: Game, stop: object = None, salt: int = 0) -> Evaluation:
            i = position.move_number
            return Evaluation(0.5, scores[i], [Candidate(80, 0.5, 100, [80], scores[i])], 100,
                              samples=(scores[i],))

    def review() -> ReviewRun:
        run = ReviewRun(line)
        totals = set()
        while run.step(Fixed()):  # type: ignore[arg-type]
            if not run.complete:
                totals.add(run.total)
        assert totals == {13 + refine_budget(12)}
        assert run.complete and run.total == run.done
        return run

    run = review()
    # First round: positions 0 to 6 (moves 1 to 6); then moves 5 and 6 in doubt: positions 4, 5 and 6.
    assert [e.searches for e in run.evals] == [2, 2, 2, 2] + [MAX_SEARCHES] * 3 + [1] * 6
    assert run.done == 13 + 7 + 3 * (MAX_SEARCHES - 2)
    # Without the cap a position, the budget stops the rounds: 16 searches added in all.
    monkeypatch.setattr(analysis, "MAX_SEARCHES", 10)
    run = review()
    assert run.done == 13 + refine_budget(12) == 13 + 16
    assert [e.searches for e in run.evals] == [2, 2, 2, 2, 5, 5, 5] + [1] * 6


def test_the_first_round_takes_the_largest_losses_first_within_its_share() -> None:
    """The refine pass's first round asks for the positions around the largest losses first, then for those of
    fewest playouts, and stops at its share of the budget (``FIRST_SHARE``): the settling rounds get the rest."""
    game = Game(9)
    for p in [0, 2, 4, 6, 8, 18, 20, 22, 24, 26, 36, 38]:
        game.play(p)
    line = positions(game)
    # Moves 6 to 12 lose 30, 28, ... 18 points (positions 5 to 12); positions 0 to 5 got few playouts, 4 the fewest.
    losses = [0.0] * 5 + [30.0 - 2 * k for k in range(7)]
    scores = [0.0]
    for n, loss in enumerate(losses, 1):
        scores.append(scores[-1] - (loss if n % 2 else -loss))
    playouts = [10, 10, 10, 10, 5, 10] + [100] * 7

    class Fixed:
        top = 5

        def evaluate(self, position: Game, stop: object = None, salt: int = 0) -> Evaluation:
            i = position.move_number
            return Evaluation(0.5, scores[i], [Candidate(80, 0.5, 100, [80], scores[i])], playouts[i],
                              samples=(scores[i],))

    run = ReviewRun(line)
    while len(run.evals) < len(line):
        run.step(Fixed())  # type: ignore[arg-type]
    assert analysis.FIRST_SHARE * refine_budget(12) == 12
    # Positions 5 to 12 (the seven losses), then the fewest playouts: 4, 0, 1, 2; not 3.
    assert [e.wanted for e in run.evals] == [2, 2, 2, 1, 2] + [2] * 8


def test_the_default_budget_is_playouts_by_board_size_under_a_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # Playouts, not time: two reviews of one record must do the same work whatever the machine's load.
    assert analysis.default_budget(9) == Budget(seconds=analysis.CAP_SECONDS, playouts=analysis.DEFAULT_PLAYOUTS[9])
    assert analysis.default_playouts(7) == analysis.DEFAULT_PLAYOUTS[9]
    assert analysis.default_playouts(15) == analysis.DEFAULT_PLAYOUTS[19]
    assert analysis.default_playouts(25) == analysis.DEFAULT_PLAYOUTS[19]
    # An idle machine never reaches the cap: the playouts end the search (rate: the loaded machine's).
    assert all(analysis.expected_seconds(size) < analysis.CAP_SECONDS / 2 for size in analysis.DEFAULT_PLAYOUTS)
    assert analysis.expected_seconds(9, Budget(seconds=0.05, playouts=10**6)) == 0.05
    monkeypatch.setitem(analysis.DEFAULT_PLAYOUTS, 9, 120)
    ev = analysis.Analyst(seed=3).evaluate(_setup(CAPTURE))
    assert ev.playouts == 120
    # A budget given to one search is that search's.
    assert analysis.Analyst(seed=3).evaluate(_setup(CAPTURE), budget=Budget(seconds=None, playouts=60)).playouts == 60


def test_a_check_that_refutes_the_first_candidate_lowers_the_position() -> None:
    """``Evaluation.verified``: a check that finds the first candidate worth less to its player than the
    search's playouts through it revalues those playouts (the candidate's share of the position's), the candidate
    taking the check's figures and line; a check that confirms it (or finds it better) changes only the line; a
    check of a move no longer among the candidates changes nothing. The check is stored, read back and kept by
    a merge."""
    best = [Candidate(10, 0.95, 900, [10, 11], 30.0), Candidate(20, 0.7, 100, [20], 14.0)]
    ev = Evaluation(0.93, 28.4, best, 1000, samples=(28.4,))
    assert ev.verified() is ev
    refuted = replace(ev, check=Check(10, 1, 15.0, 0.6, 1000, [10, 12, 13]))
    v = refuted.verified()
    assert v.score == pytest.approx(28.4 + 0.9 * (15.0 - 30.0)) and v.winrate == pytest.approx(0.93 - 0.9 * 0.35)
    assert v.best[0] == Candidate(10, 0.6, 900, [10, 12, 13], 15.0) and v.best[1] == best[1]
    assert v.check is None and v.samples == ev.samples
    # The same figures for White to move mean the move is better for White than its tree said: confirmed.
    confirmed = replace(refuted, check=replace(refuted.check, color=2)).verified()  # type: ignore[arg-type]
    assert (confirmed.score, confirmed.winrate) == (ev.score, ev.winrate)
    assert confirmed.best[0].pv == [10, 12, 13] and confirmed.best[0].score == 30.0
    gone = replace(ev, check=Check(30, 1, 0.0, 0.1, 1000, [30]))
    assert gone.verified() == ev
    assert Evaluation.from_dict(refuted.as_dict()) == refuted
    asked = replace(ev, checking=True)
    assert Evaluation.from_dict(asked.as_dict()) == asked and (asked.planned, asked.searched) == (2, 1)
    assert (refuted.planned, refuted.searched) == (2, 2)
    merged = refuted.merged(Evaluation(0.9, 26.0, [Candidate(10, 0.9, 1000, [10], 26.0)], 1000, samples=(26.0,)))
    assert merged.check == refuted.check
    # Merged, the candidate's playouts are 1,900 of 2,000 at 27.9 points: the check moves 95 % of the lead.
    assert merged.verified().score == pytest.approx(merged.score + 0.95 * (15.0 - merged.best[0].score))  # type: ignore[operator]


def test_a_moves_searches_count_its_positions_check_as_the_progress_does() -> None:
    """``assemble``: each entry's ``searches`` are those of the position after the move, its check's included,
    so that the entries add up to ``ReviewRun.done`` (a check made the server's figures disagree by one)."""
    game = Game(9)
    for move in ("E5", "D6"):
        game.play(from_gtp(move, 9))
    line = analysis.positions(game)
    best = [Candidate(10, 0.95, 900, [10, 11], 30.0), Candidate(20, 0.7, 100, [20], 14.0)]
    plain = Evaluation(0.5, 0.0, best, 1000, samples=(0.0,))
    checked = replace(plain, check=Check(10, 1, 15.0, 0.6, 1000, [10, 12]))
    reviews = analysis.assemble(line, [plain, checked, plain])
    assert [r.searches for r in reviews] == [1, 2, 1]
    assert sum(r.searches for r in reviews) == sum(e.searched for e in (plain, checked, plain))


def test_a_position_is_suspect_when_one_line_stands_far_above_the_others() -> None:
    """``suspect``: a first candidate with most of the playouts whose lead stands far above every other
    candidate's (from the player's side), or alone with a lead; not a search spread over several moves, nor one
    whose other candidates come near it."""
    def ev(first: tuple[int, float], *others: tuple[int, float]) -> Evaluation:
        best = [Candidate(k, 0.5, v, [k], lead) for k, (v, lead) in enumerate((first, *others), 1)]
        return Evaluation(0.5, first[1], best, 1000)

    margin = analysis.CHECK_MARGIN * spread(19)
    assert suspect(ev((920, 28.8), (70, 14.0)), 1, 19)
    assert not suspect(ev((920, 28.8), (70, 28.8 - margin + 0.1)), 1, 19)
    # White to move: a lead far *below* the others is White's line read too well.
    assert not suspect(ev((920, 28.8), (70, 14.0)), 2, 19)
    assert suspect(ev((920, -28.8), (70, -14.0)), 2, 19)
    assert not suspect(ev((380, 28.8), (320, 14.0), (300, 10.0)), 1, 19)
    assert suspect(ev((990, 3.0)), 1, 9)
    assert not suspect(Evaluation(0.5, 0.0, [], 1000), 1, 9)
    assert not suspect(Evaluation(0.5, 0.0, [Candidate(1, 0.5, 990, [1], None)], 1000), 1, 9)


def test_the_refine_pass_checks_the_positions_around_the_largest_losses() -> None:
    """After the first refine round, the positions around the largest losses are checked where ``suspect``: the
    position after their first candidate searched (``CHECK_SALT``); a position whose lead came from a line the check refutes
    is lowered, and the two moves it made losses of (the one into it, the one from it) lose little; the total the
    run announces stays the budget until the end."""
    game = Game(9)
    for p in [0, 2, 4, 6, 8, 18, 20, 22, 24, 26, 36, 38]:
        game.play(p)
    line = positions(game)
    # Position 6 (Black to move) is read 15 points too good for Black: moves 6 and 7 seem to lose 15 each. Moves
    # 9 and 10 lose 4 each, truly.
    scores = [0.0] * 13
    scores[6], scores[9] = 15.0, -4.0

    class Fixed:
        top = 5

        def __init__(self) -> None:
            self.checked: list[int] = []

        def evaluate(self, position: Game, stop: object = None, salt: int = 0) -> Evaluation:
            i = position.move_number
            if salt < CHECK_SALT and i in (8, 10):
                # Two moves as good as each other: nothing to suspect.
                return Evaluation(0.5, scores[i], [Candidate(80, 0.5, 50, [80], scores[i]),
                                                   Candidate(81, 0.5, 40, [81], scores[i])], 100,
                                  samples=(scores[i],))
            if salt < CHECK_SALT:
                return Evaluation(0.5, scores[i], [Candidate(80, 0.5, 90, [80], scores[i])], 100,
                                  samples=(scores[i],))
            self.checked.append(i - 1)
            # White's best answer after Black's candidate: 0 after position 6; elsewhere, the position's lead.
            lead = 0.0 if i - 1 == 6 else scores[i - 1]
            return Evaluation(0.5, lead + 9.0, [Candidate(81, 0.4, 60, [81, 82], lead)], 100)

    analyst = Fixed()
    run = ReviewRun(line)
    totals = set()
    while run.step(analyst):  # type: ignore[arg-type]
        if not run.complete:
            totals.add(run.total)
    assert totals == {13 + refine_budget(12)} and run.done <= 13 + refine_budget(12)
    assert sorted(analyst.checked) == [5, 6, 7, 9]
    reviews = run.reviews()
    assert reviews[6].score == pytest.approx(15.0 * 0.1)
    assert [r.n for r in mistakes(reviews, 2, min_loss=0.0)] == [9, 10]
    assert reviews[7].loss == pytest.approx(1.5) and reviews[7].best[0].pv == [80, 81, 82]


def test_a_real_review_checks_its_largest_losses(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a real 9x9 game (``keima_9x9_counted``, small budget), every position suspect (``suspect``'s figures set
    aside: which positions are is the search's luck at 300 playouts): the positions around the largest losses are
    checked within the refine pass's budget, each check's line starts with the position's first candidate and
    goes on with an answer to it, and a checked position's verified lead is never better for its player than
    the search's own."""
    from pathlib import Path

    monkeypatch.setattr(analysis, "CHECK_SHARE", 0.0)
    monkeypatch.setattr(analysis, "CHECK_MARGIN", -math.inf)

    from keima.record import load_record

    game = load_record(Path(__file__).resolve().parents[1] / "data" / "sgf" / "keima_9x9_counted.sgf").game
    line = positions(game)
    run = ReviewRun(line)
    analyst = analysis.Analyst(Budget(seconds=None, playouts=300), seed=5)
    while run.step(analyst):
        pass
    assert run.done == run.total <= len(line) + refine_budget(len(line) - 1)
    checked = [i for i, e in enumerate(run.evals) if e.check is not None]
    assert checked
    reviews = run.reviews()
    top = {i for r in mistakes(reviews, analysis.CHECKED_MOVES, min_loss=0.0) for i in (r.n - 1, r.n)}
    assert set(checked) & top
    for i in checked:
        e = run.evals[i]
        check = e.check
        assert check is not None and check.color == int(line[i][0].to_move)
        assert check.pv[0] == check.move and len(check.pv) >= 2
        sign = 1.0 if check.color == analysis.BLACK else -1.0
        assert sign * e.verified().score <= sign * e.score + 1e-9
