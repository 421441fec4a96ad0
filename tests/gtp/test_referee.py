"""The referee: games between engines, forfeits for every kind of misbehaviour, the dead-stone settlement,
matches with alternating colours and one SGF per game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from keima.ai.standin import PolicyPlayer
from keima.match import GameReport, Referee, results_table, run_match, sgf_text
from keima.record import load_sgf
from keima.rules.ruleset import PRESETS
from keima.seat import ComputerPlayer, EnginePlayer, GeneratorPlayer

from .conftest import fake_argv


def keima_policy(seed: int = 1) -> ComputerPlayer:
    return GeneratorPlayer(PolicyPlayer(seed), lambda game: frozenset(), name="keima-policy")


def fake(mode: str, *args: str) -> EnginePlayer:
    return EnginePlayer(f"fake-{mode}", fake_argv(mode, *args))


def play(black: ComputerPlayer, white: ComputerPlayer, **kw: object) -> GameReport:
    kw.setdefault("size", 9)
    kw.setdefault("move_timeout", 10.0)
    referee = Referee(**kw)  # type: ignore[arg-type]
    try:
        return referee.play_game(black, white)
    finally:
        black.close()
        white.close()


@pytest.mark.parametrize(
    ("mode", "as_black", "result", "reason"),
    [
        ("illegal", False, "B+F", "White forfeits: illegal move"),
        ("illegal", True, "W+F", "Black forfeits: illegal move"),
        ("crash", True, "W+F", "Black forfeits: crash: fake-crash exited during 'genmove' (exit code 3)"),
        ("garbage", False, "B+F", "White forfeits: unreadable move 'banana'"),
        ("fail", True, "W+F", "Black forfeits: genmove failed: out of ideas"),
        ("noframe", False, "B+F", "White forfeits: protocol error"),
        ("resign", True, "W+R", "Black resigned"),
    ],
)
def test_misbehaving_engine_loses(mode: str, as_black: bool, result: str, reason: str) -> None:
    bad = fake(mode)
    black, white = (bad, keima_policy()) if as_black else (keima_policy(), bad)
    report = play(black, white)
    assert report.result == result
    assert report.game.result == result and report.game.phase == "finished"
    assert report.reason.startswith(reason), report.reason
    assert any(reason.split(": ", 1)[-1] in c or "resigned" in c for c in report.comments), report.comments
    # The SGF record carries the result in RE and the referee's explanation in the root comment.
    text = sgf_text(report)
    assert text is not None and f"RE[{result}]" in text
    assert report.comments[0].split(":")[0] in text


@pytest.mark.parametrize("mode", ["crash", "hang", "illegal"])
def test_misbehaving_engine_record_round_trips(mode: str) -> None:
    report = play(fake(mode), keima_policy(), move_timeout=1.0)
    expected = "W+T" if mode == "hang" else "W+F"
    text = sgf_text(report)
    assert text is not None
    game = load_sgf(text)
    assert game.result == expected and report.result == expected
    assert "Black (fake-" + mode + ")" in text


def test_illegal_move_forfeit_names_the_rule() -> None:
    report = play(keima_policy(), fake("illegal"))
    # The fake answers the point Black just played: occupied.
    assert "(occupied)" in report.reason
    assert report.moves == 1


def test_crash_report_includes_the_engine_stderr() -> None:
    report = play(fake("crash"), keima_policy())
    assert "crashing on purpose" in report.reason and report.crashed


def test_hanging_engine_loses_on_time() -> None:
    report = play(keima_policy(), fake("hang"), move_timeout=1.0)
    assert report.result == "B+T"
    assert report.reason.startswith("White lost on time: fake-hang gave no reply to 'genmove w' within 1 s")
    assert not report.crashed


def test_engine_refusing_a_legal_move_voids_the_game() -> None:
    report = play(keima_policy(), fake("refuse"))
    assert report.result == "Void"
    assert "refused Black's legal move" in report.reason


def test_agreed_dead_stones_are_removed() -> None:
    # Black plays C3, White E5, both pass; both engines call C3 dead: White owns the whole board.
    report = play(fake("script", "C3", "dead=C3"), fake("script", "E5", "dead=C3"), size=5)
    assert report.game.phase == "finished"
    assert report.game.dead == {10 + 2}  # C3 on 5x5: row 2, col 2
    assert report.result == "W+32.5"  # 25 points + komi 7.5


def test_dead_stone_dispute_resumes_play_then_counts_all_alive() -> None:
    # Black (C3) says nothing is dead; White says C3 is dead; after the resumption both pass at once.
    black = EnginePlayer("black", fake_argv("script", "C3"))
    white = EnginePlayer("white", fake_argv("pass", "dead=C3"))
    report = play(black, white, size=5)
    assert any("Dead stones disputed" in c and "play resumes" in c for c in report.comments), report.comments
    assert [e.kind for e in report.game.events].count("resume") == 1
    # The resumption opened with two passes: the game ends with every stone alive, Black owning the board.
    assert report.result == "B+17.5"


def test_dead_stone_dispute_without_resumption_removes_only_the_agreed_stones() -> None:
    report = play(fake("script", "C3"), fake("pass", "dead=C3"), size=5, max_resumptions=0)
    assert report.result == "B+17.5"
    assert any("only those both engines call dead" in c for c in report.comments)


def test_policy_against_policy_plays_to_a_counted_end() -> None:
    report = play(keima_policy(1), keima_policy(2), size=7)
    game = report.game
    assert game.phase == "finished" and game.end_reason == "score"
    assert report.result == game.score().result
    game.check_consistency()


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_every_ruleset_is_refereed(rules_name: str) -> None:
    report = play(keima_policy(1), keima_policy(2), size=7, rules=rules_name)
    game = report.game
    assert game.rules.name == rules_name and game.end_reason == "score"
    # The result is that ruleset's own count of the final position (pass stones, area or territory counting...),
    # and the record carries the ruleset: replayed from its SGF, it reaches the same result under the same rules.
    assert report.result == str(game.score(dead=game.dead).result)
    replayed = load_sgf(sgf_text(report))
    assert replayed.rules.name == rules_name and str(replayed.result) == report.result
    assert [m.point for m in replayed.moves] == [m.point for m in game.moves]


def test_match_alternates_colours_and_writes_sgf(tmp_path: object) -> None:
    counter = {"n": 0}

    def first() -> ComputerPlayer:
        counter["n"] += 1
        return keima_policy(counter["n"])

    def second() -> ComputerPlayer:
        return EnginePlayer("fake", fake_argv("illegal"))

    referee = Referee(size=7, move_timeout=10.0)
    seen: list[int] = []
    reports = run_match(("alpha", first), ("beta", second), referee, 3, str(tmp_path),
                        on_game=lambda report: seen.append(report.number))
    assert seen == [1, 2, 3]
    assert [(r.black, r.white) for r in reports] == [("alpha", "beta"), ("beta", "alpha"), ("alpha", "beta")]
    assert [r.result for r in reports] == ["B+F", "W+F", "B+F"]
    for report in reports:
        assert report.sgf_path == os.path.join(str(tmp_path), f"game-{report.number:03d}.sgf")
        with open(report.sgf_path, encoding="utf-8") as fh:
            text = fh.read()
        assert f"RE[{report.result}]" in text
        assert "PB[" + report.black + "]" in text and "PW[" + report.white + "]" in text
        assert "forfeits at move" in text  # the referee's comment
        assert load_sgf(Path(report.sgf_path)).result == report.result
    table = results_table(reports)
    assert "alpha 3" in table and "beta 0" in table


def test_engine_that_cannot_start_forfeits() -> None:
    def broken() -> ComputerPlayer:
        return EnginePlayer("broken", ["/nonexistent/engine-binary"])

    reports = run_match(("keima", lambda: keima_policy()), ("broken", broken), Referee(size=9), 1)
    assert reports[0].result == "B+F" and reports[0].crashed
    assert "cannot start" in reports[0].reason


@pytest.mark.parametrize(("rules", "komi", "expected_komi"), [("french", None, 0.5), ("japanese", None, 0.5),
                                                              ("french", 3.5, 3.5)])
def test_a_handicap_game_starts_from_the_fixed_points_with_the_handicap_komi(
    rules: str, komi: float | None, expected_komi: float
) -> None:
    from keima.rules import coords

    report = play(fake("script", "D5,pass"), fake("script", "E5,pass"), size=9, rules=rules, komi=komi, handicap=3)
    game = report.game
    # GTP 2 (section 4.1.1) on 19x19 puts three stones on D4, Q16, D16; on 9x9 the same corners are C3, G7, C7.
    assert sorted(coords.to_gtp(p, 9) for p in game.handicap_stones) == ["C3", "C7", "G7"]
    assert game.komi == expected_komi and game.handicap == 3
    # White moves first after the stones: the first move of the record is White's.
    assert game.moves[0].color == 2 and coords.to_gtp(game.moves[0].point, 9) == "E5"
    text = sgf_text(report)
    assert text is not None and "HA[3]" in text and f"KM[{expected_komi:g}]" in text
    assert sorted(load_sgf(text).handicap_stones) == sorted(game.handicap_stones)


def test_a_handicap_match_keeps_the_colours_as_given() -> None:
    referee = Referee(size=7, move_timeout=10.0, handicap=2)
    reports = run_match(("taker", lambda: fake("pass")), ("giver", keima_policy), referee, 2, alternate=False)
    assert [(r.black, r.white) for r in reports] == [("taker", "giver"), ("taker", "giver")]
    assert all(len(r.game.handicap_stones) == 2 for r in reports)
    even = run_match(("a", lambda: fake("pass")), ("b", keima_policy), Referee(size=7, move_timeout=10.0), 2)
    assert [(r.black, r.white) for r in even] == [("a", "b"), ("b", "a")]


def test_a_handicap_the_ruleset_places_freely_is_refused_at_construction() -> None:
    from keima.rules.ruleset import RulesError

    with pytest.raises(RulesError, match="place handicap stones free"):
        Referee(size=9, rules="tromp-taylor", handicap=3)
    with pytest.raises(RulesError, match="2 to 9 stones"):
        Referee(size=9, handicap=1)
